"""The QuickJS worker host: environment, export shapes, deadlines, crashes, answer transport."""
from __future__ import annotations

import math
import json
import os
import signal
import threading
import time

import pytest

from conformance.host.bounds import bounded
from conformance.host.worker import UNDEFINED, HistoryEncoder, JSValue, StateWire, Worker, encode_state, thrown_text
from reference.rng import mulberry32
from reference.state import HISTORY_LIMIT
from reference.tournament import Tournament
from signal_helpers import segfault_soon, slow_kill

SHORT = 300     # ms: a decision deadline where the deadline itself is not the subject
SLACK = 250     # ms: allowed beyond a deadline for the kill and the reap

STATE = {"handNumber": 1, "street": "preflop", "canCheck": False, "toCall": 100,
         "you": {"id": "s1", "seat": 0, "cards": ["Ah", "Kd"], "stack": 10000, "bet": 0, "total": 0}}


@pytest.fixture
def spawn():
    """spawn(script, engine=None, seed=1, mode="bot", **worker_options) -> started Worker."""
    workers = []

    def make(script, engine=None, seed=1, mode="bot", init_timeout_ms=5000, **options):
        w = Worker(**options)
        workers.append(w)
        w.start_outcome = w.start(engine, script, seed, mode, init_timeout_ms=init_timeout_ms)
        return w

    yield make
    for w in workers:
        w.close()


def answer_of(spawn, body, state=STATE):
    """Start a bot whose act is `body` (a function expression) and return the act Outcome."""
    w = spawn(f"module.exports = {body};")
    assert w.start_outcome.kind == "ok", w.start_outcome
    return w.act(state, timeout_ms=SHORT)


def gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


# ---- environment --------------------------------------------------------------

def test_environment_globals(spawn):
    w = spawn("module.exports = function act() { return 'fold'; };")
    probe = w.eval_fn("""function () {
        return {
          window: window === globalThis, self: self === globalThis,
          // fetch, performance, crypto and importScripts are there, as in browsers; a call is a
          // violation (R39, tests/test_bot_worker_globals.py)
          absent: ['require', 'XMLHttpRequest', 'process', 'document', '__date_clock', 'print']
                  .filter(function (n) { return typeof globalThis[n] !== 'undefined'; }),
          console: ['log', 'info', 'warn', 'error', 'debug'].map(function (m) { return console[m]('x', {a: 1}); }),
          date: typeof Date,
        };
    }""")
    assert probe.kind == "ok", probe
    assert probe.answer == {"window": True, "self": True, "absent": [], "console": [UNDEFINED] * 5,
                            "date": "function"}
    assert w.stderr_tail() == ""


def test_post_message_is_a_guard_and_onmessage_the_harness_s(spawn):
    # A classic worker has both; a bot must not send protocol messages (R35): recorded even if caught.
    w = spawn("module.exports = function act() { try { self.postMessage({type: 'fold'}); } catch (e) {} return 'fold'; };")
    out = w.act({})
    assert out.kind == "ok" and out.answer == "fold"
    assert [v["kind"] for v in out.violations] == ["message"]
    probe = w.eval_fn("function () { return [typeof onmessage, onmessage.name, postMessage.name]; }")
    assert probe.answer == ["function", "onmessage", "postMessage"]


def test_console_is_silent_and_protocol_survives(spawn):
    w = spawn("""module.exports = function act() {
        for (var i = 0; i < 1000; i++) { console.log('noise', i); console.error('noise'); }
        return 'check';
    };""")
    assert w.act(STATE, timeout_ms=SHORT).answer == "check"
    assert w.stderr_tail() == ""


@pytest.mark.parametrize("seed", [0, 1, 42, 2**31, 2**32 - 1])
def test_math_random_is_the_reference_mulberry32_stream(spawn, seed):
    w = spawn("""var drawn = [Math.random()];   // at load time: the stream starts before the bot runs
        module.exports = function act() { return {type: 'raise', amount: Math.random()}; };""", seed=seed)
    ref = mulberry32(seed)
    assert w.eval_fn("function () { return drawn; }").answer == [ref()]
    for _ in range(3):  # persistent across decisions, never reset
        assert w.act(STATE, timeout_ms=SHORT).answer["amount"] == ref()
    assert w.eval_fn("function () { return [Math.random(), Math.random()]; }").answer == [ref(), ref()]


def test_math_random_differs_between_seeds(spawn):
    draws = [spawn("module.exports = function () {};", seed=s).eval_fn(
        "function () { return [Math.random(), Math.random()]; }").answer for s in (5, 6)]
    assert draws[0] != draws[1]


def test_module_shim_before_the_script(spawn):
    w = spawn("""var seen = [typeof module, module.exports === exports, Object.keys(module.exports).length,
                            typeof require];
        exports.act = function () { return seen.join(','); };""")
    assert w.start_outcome.answer == {"name": None, "shape": "object"}
    assert w.act(STATE, timeout_ms=SHORT).answer == "object,true,0,undefined"


def test_engine_loads_first_and_its_lexical_globals_are_shared(spawn):
    engine = "const PokerEngine = {evaluate: function (cards) { return {rank: 1, best: cards.slice(0, 5)}; }};"
    w = spawn("module.exports = function () { return typeof PokerEngine.evaluate; };", engine=engine)
    assert w.act(STATE, timeout_ms=SHORT).answer == "function"
    out = w.call("PokerEngine.evaluate", [["Ah", "Kd", "2c", "3c", "4c", "5c"]])
    assert out.kind == "ok" and out.answer == {"rank": 1, "best": ["Ah", "Kd", "2c", "3c", "4c"]}


def test_engine_mode_skips_the_shape_check(spawn):
    w = spawn("var PokerEngine = {rng: function (s) { return s >>> 0; }};", mode="engine")
    assert w.start_outcome.kind == "ok" and w.start_outcome.answer == {"name": None, "shape": None}
    assert w.call("PokerEngine.rng", [-1]).answer == 4294967295
    with pytest.raises(RuntimeError, match="mode"):
        w.act(STATE)


# ---- guards ---------------------------------------------------------------------

GUARDED = {
    "eval": "eval('1 + 1')",
    "indirect eval": "(0, eval)('1')",
    "window.eval": "window.eval('1')",
    "Function": "Function('return 1')",
    "new Function": "new Function('return 1')",
    "function constructor": "(function () {}).constructor('return 1')",
    "arrow constructor": "(() => 1).constructor('return 1')",
    "async constructor": "Object.getPrototypeOf(async function () {}).constructor('return 1')",
    "generator constructor": "Object.getPrototypeOf(function* () {}).constructor('yield 1')",
    "async generator constructor": "Object.getPrototypeOf(async function* () {}).constructor('yield 1')",
    "Reflect.construct": "Reflect.construct(Function, ['return 1'])",
    "setTimeout string": "setTimeout('1', 0)",
    "setInterval function": "setInterval(function () {}, 10)",
    "new Date": "new Date()",
    "Date.now": "Date.now()",
    "Date via prototype": "new Date.prototype.constructor()",
}
KINDS = {"eval": "eval", "indirect eval": "eval", "window.eval": "eval", "setTimeout string": "eval",
         "setInterval function": "timer", "new Date": "Date", "Date.now": "Date",
         "Date via prototype": "Date"}


@pytest.fixture(scope="module")
def guard_worker():
    w = Worker()
    assert w.start(None, "module.exports = function () { return 'fold'; };", 1).kind == "ok"
    yield w
    w.close()


@pytest.mark.parametrize("label", GUARDED)
def test_dynamic_code_clocks_and_timers_throw_and_are_recorded(guard_worker, label):
    out = guard_worker.eval_fn("""function (code) {
        try { (0, %s); return 'ran'; } catch (e) { return [e.name, e.message]; }
    }""" % GUARDED[label])
    assert out.kind == "ok", out
    assert out.answer[0] == "ContractViolation"
    assert out.answer[1].startswith("contract violation: ")
    assert [v["kind"] for v in out.violations] == [KINDS.get(label, "Function")]


def test_instanceof_function_still_works(guard_worker):
    out = guard_worker.eval_fn("function () { return [(function () {}) instanceof Function, typeof Function]; }")
    assert out.answer == [True, "function"] and out.violations == ()


def test_violations_at_load_come_with_start(spawn):
    w = spawn("try { Date.now(); } catch (e) {} module.exports = function () { return 'fold'; };")
    assert w.start_outcome.kind == "ok"
    assert w.start_outcome.violations == ({"kind": "Date", "detail": "Date.now()"},)
    assert w.violations == [{"kind": "Date", "detail": "Date.now()"}]


def test_static_import_is_a_syntax_error(spawn):
    w = spawn("import x from 'y'; module.exports = function () {};")
    assert w.start_outcome.kind == "syntax"


# ---- export shapes ------------------------------------------------------------

@pytest.mark.parametrize("script, name, shape", [
    ("module.exports = function act(s) { return 'fold'; };", None, "function"),
    ("module.exports = {name: 'Named', act(s) { return 'fold'; }};", "Named", "object"),
    ("module.exports = {act: function (s) { return 'fold'; }};", None, "object"),
    ("exports.act = function (s) { return 'fold'; }; exports.name = 'Alias';", "Alias", "object"),
])
def test_good_export_shapes(spawn, script, name, shape):
    w = spawn(script)
    assert w.start_outcome.kind == "ok", w.start_outcome
    assert (w.name, w.shape) == (name, shape)
    assert w.act(STATE, timeout_ms=SHORT).answer == "fold"


def test_object_act_is_called_as_a_method(spawn):
    w = spawn("module.exports = {fallback: 'check', act() { return this.fallback; }};")
    assert w.act(STATE, timeout_ms=SHORT).answer == "check"


@pytest.mark.parametrize("script, message", [
    ("module.exports = 42;", "module.exports must be a function or an object with a function act, got number"),
    ("module.exports = null;", "got null"),
    ("module.exports = [function () {}];", "got an array"),
    ("", "module.exports.act must be a function, got undefined"),
    ("module.exports = {act: 'fold'};", "module.exports.act must be a function, got string"),
    ("module.exports = {name: 5, act() {}};", "module.exports.name must be a string when present, got number"),
    ("module.exports = {get act() { throw 1; }};", "reading module.exports.act threw"),
    # R28: CommonJS semantics; the static linter refuses the same script (global-assignment).
    ("exports = {name: 'Global', act: function () { return 'fold'; }};", "`exports = ...` rebinds the name only"),
])
def test_bad_export_shapes(spawn, script, message):
    w = spawn(script)
    out = w.start_outcome
    assert out.kind == "export-shape" and message in out.error["message"], out
    assert w.dead and gone(w.pid)
    assert w.act(STATE).kind == "dead"


# ---- load failures ---------------------------------------------------------------

@pytest.mark.parametrize("script", ["module.exports = {act(s) {", "return 1;", "let a = 1; let a = 2;"])
def test_syntax_errors(spawn, script):
    out = spawn(script).start_outcome
    assert out.kind == "syntax" and out.error["source"] == "script", out


def test_engine_syntax_error_names_the_engine(spawn):
    out = spawn("module.exports = function () {};", engine="var PokerEngine = {").start_outcome
    assert out.kind == "syntax" and out.error["source"] == "engine"


@pytest.mark.parametrize("script, name, message", [
    ("throw new TypeError('boom');", "TypeError", "boom"),
    ("throw new SyntaxError('thrown, not parsed');", "SyntaxError", "thrown, not parsed"),
    ("throw 42;", None, "42"),
    ("throw undefined;", None, "undefined"),
    ("throw {toString() { throw 1; }};", None, None),
])
def test_throw_at_load(spawn, script, name, message):
    w = spawn(script)
    out = w.start_outcome
    assert out.kind == "throw" and out.error["name"] == name, out
    if message is not None:
        assert out.error["message"] == message
    assert w.dead


# ---- where an error was thrown: the first script frame of the engine's stack ----------------

LOCATED_BOT = """'use strict';
function decide(state) {
  const table = {};
  return table.missing(state);
}
module.exports = function act(state) {
  if (state.x === 1) return PokerEngine.evaluate(['Ah']);
  if (state.x === 2) return JSON.parse('{');
  if (state.x === 3) throw 'a string';
  return decide(state);
};
"""
LOCATOR_ENGINE = "\n\nglobalThis.PokerEngine = {\n  evaluate(cards) {\n    throw new RangeError('bad cards');\n  },\n};\n"


@pytest.mark.parametrize("x, text, at", [
    (0, "TypeError: not a function (at decide, bot line 4)", {"function": "decide", "source": "script", "line": 4}),
    # the engine is loaded below the bot's last line; its own line numbers are given
    (1, "RangeError: bad cards (at evaluate, engine line 5)", {"function": "evaluate", "source": "engine", "line": 5}),
    # a builtin's frame is skipped: the place is the bot's line that called it
    (2, "SyntaxError: Expected property name or '}' in JSON at position 1 (line 1 column 2) (at act, bot line 8)",
     {"function": "act", "source": "script", "line": 8}),
    (3, 'a non-Error value "a string"', None),  # JavaScript's quotes (issue #13)
])
def test_an_act_error_names_the_function_and_line(spawn, x, text, at):
    w = spawn(LOCATED_BOT, engine=LOCATOR_ENGINE)
    out = w.act({"x": x}, timeout_ms=SHORT)
    assert out.kind == "throw" and thrown_text(out.error) == text, out
    if at is not None:
        assert {k: out.error["at"][k] for k in at} == at
    assert w.act({"x": 0}, timeout_ms=SHORT).kind == "throw"  # the worker lives on


def test_a_load_error_names_the_line_and_the_file(spawn):
    w = Worker()
    try:
        out = w.start(None, "let a = 1;\n\nfunction boot() { a.b.c = 1; }\nboot();\n", 1, script_name="bot.js")
        assert thrown_text(out.error) == "TypeError: cannot set property 'c' of undefined (at boot, bot.js line 3)"
    finally:
        w.close()
    out = spawn("null.x;", engine=LOCATOR_ENGINE).start_outcome
    assert out.error["at"] == {"function": None, "source": "script", "line": 1, "column": 1, "file": "bot"}


@pytest.mark.parametrize("engine, script, source, message", [
    (None, "let a = 1;\nlet b = ;", "script", "unexpected token in expression: ';' (line 2, column 9)"),
    (LOCATOR_ENGINE, "module.exports = {act(s) {\n  return s.\n}};", "script",
     "expecting field name (line 3, column 1)"),
    ("var P = 1;\nvar Q = ;", "module.exports = () => 'fold';\n// two lines", "engine",
     "unexpected token in expression: ';' (line 2, column 9)"),
])
def test_a_syntax_error_names_its_own_line(spawn, engine, script, source, message):
    out = spawn(script, engine=engine).start_outcome
    assert out.kind == "syntax" and (out.error["source"], out.error["message"]) == (source, message), out


# ---- source text the binding cannot take as it is ---------------------------------------------

def test_a_nul_in_a_comment_or_literal_means_what_it_means_in_javascript(spawn):
    """The binding hands QuickJS a C string; the worker writes each NUL as the escape \\x00."""
    w = spawn("// a comment with a \0 in it\n/* and \0 here */\n"
              "const s = 'a\0b', t = `x\0`, e = 'c\\\0d', b = 'c\\\\\0', r = /q\0/;\n"
              "module.exports = () => [s.length, s.charCodeAt(1), t.length, t.charCodeAt(1), e, b, "
              "r.test('q\\x00'), r.test('q0')].join();", engine=LOCATOR_ENGINE)
    assert w.start_outcome.kind == "ok", w.start_outcome
    assert w.act(STATE, timeout_ms=SHORT).answer == "3,0,2,0,c\0d,c\\\0,true,false"
    out = spawn("module.exports = () => 'x';\nconst bad = 1\0;").start_outcome
    assert out.kind == "syntax" and "line 2" in out.error["message"], out  # outside a literal it is no token


def test_long_responses_reach_python_as_one_string(spawn):
    """quickjs-ng keeps a long concatenation as a rope, which the binding cannot convert."""
    w = spawn("module.exports = () => 'x'.repeat(9000) + 'y'.repeat(9000);")
    out = w.eval_fn("function () { return 'x'.repeat(9000) + 'y'.repeat(9000); }")
    assert out.answer == "x" * 9000 + "y" * 9000  # a call's value is not bounded
    # An answer or a message is (R34): the rope's length, or its bounded beginning.
    assert w.act(STATE, timeout_ms=SHORT).answer == JSValue("toolong", 18000)
    out = w.eval_fn("function () { throw new Error('e'.repeat(9000) + 'f'.repeat(9000)); }")
    assert out.kind == "throw" and out.error["message"] == bounded("e" * 9000 + "f" * 9000)


def test_a_worker_on_the_old_quickjs_binding_says_so(tmp_path, monkeypatch):
    """The PyPI packages quickjs and quickjs-ng install the same modules (the worker imports the C
    module, ``_quickjs``): the wrong one is named."""
    (tmp_path / "_quickjs.py").write_text("class JSException(Exception):\n    pass\n\n\nclass Context:\n"
                                      "    def eval(self, code):\n        return False  # no Object.hasOwn\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    with Worker() as w:
        out = w.start(None, "module.exports = () => 'fold';", 1)
    assert out.kind == "crash" and "the 2021 QuickJS of the PyPI package `quickjs`, not quickjs-ng" in out.error["message"]


def test_a_lone_surrogate_in_a_script_is_refused_naming_the_field(spawn):
    out = spawn("module.exports = () => 'fold';\nconst s = '\ud800';").start_outcome
    assert out.kind == "malformed"
    assert out.error["message"] == "init.script holds a lone surrogate U+D800 at line 2: a script must be Unicode text"


@pytest.mark.parametrize("completion", ["1n", "'x'.repeat(600) + 'y'.repeat(600)", "'\\ud800'", "Symbol('s')"])
def test_a_script_s_completion_value_is_not_needed(spawn, completion):
    """ctx.eval returns the script's last value; one the binding cannot convert is no load failure."""
    w = spawn(f"module.exports = () => 'fold';\n{completion}")
    assert w.start_outcome.kind == "ok", w.start_outcome


def test_infinite_loop_at_load_is_killed_at_the_init_deadline(spawn):
    t0 = time.perf_counter()
    w = spawn("while (true) {}", init_timeout_ms=400)
    elapsed = (time.perf_counter() - t0) * 1000 - w.spawn_ms
    assert w.start_outcome.kind == "late"
    assert 400 <= w.start_outcome.wall_ms < 400 + SLACK and elapsed < 400 + SLACK
    assert w.dead and gone(w.pid)


# ---- deadlines and crashes in act ------------------------------------------------

def test_infinite_loop_in_act_is_late_and_the_worker_dead(spawn):
    w = spawn("module.exports = function (s) { if (s.loop) while (true) {} return 'call'; };")
    assert w.act(STATE, timeout_ms=SHORT).answer == "call"
    t0 = time.perf_counter()
    out = w.act({**STATE, "loop": True}, timeout_ms=SHORT)
    assert out.kind == "late" and out.cpu_ms is None
    assert SHORT <= out.wall_ms < SHORT + SLACK and (time.perf_counter() - t0) * 1000 < SHORT + SLACK
    assert w.dead and gone(w.pid)
    t0 = time.perf_counter()
    later = [w.act(STATE), w.call("Math.max", [1]), w.ping()]
    assert [o.kind for o in later] == ["dead"] * 3 and (time.perf_counter() - t0) < 0.01
    assert "late" in later[0].error["message"]



@pytest.mark.parametrize("slow", ["kill", "parent"])
def test_a_kill_at_the_deadline_takes_the_deadline_s_wall_time_however_late_the_parent(spawn, monkeypatch, slow):
    """A loaded machine makes the parent notice the deadline late, or its kill and reap slow
    (885 ms seen against a 300 ms deadline at load 6): that time is the machine's, not the bot's,
    and a report's wall times (a table's wallMax) must not carry it."""
    w = spawn("module.exports = function () { while (true) {} };")
    if slow == "kill":
        slow_kill(monkeypatch)
    else:
        read_line = type(w._pipe).read_line

        def descheduled(pipe, deadline, limit=None):
            try:
                return read_line(pipe, deadline, limit)
            finally:
                time.sleep(0.6)  # the parent wakes up long after the deadline passed
        monkeypatch.setattr(type(w._pipe), "read_line", descheduled)
    out = w.act(STATE, timeout_ms=SHORT)
    assert out.kind == "late" and out.wall_ms == SHORT, out
    assert w.dead and gone(w.pid)

def test_catastrophic_regex_is_stopped_by_the_wall_clock(spawn):
    # Inside the regex engine: neither JS nor the CPU-time interrupt can stop it.
    w = spawn("module.exports = function () { return /(a+)+$/.test('a'.repeat(40) + 'b') ? 'call' : 'fold'; };")
    t0 = time.perf_counter()
    out = w.act(STATE, timeout_ms=SHORT)
    assert out.kind == "late" and (time.perf_counter() - t0) * 1000 < SHORT + SLACK
    assert w.dead and gone(w.pid)


def test_cpu_backstop_is_reported_as_late(spawn):
    w = spawn("module.exports = function () { while (true) {} };", cpu_limit_ms=100)
    out = w.act(STATE, timeout_ms=2000)
    assert out.kind == "late" and out.error["category"] == "timeout" and out.wall_ms < 1000
    assert w.dead


@pytest.mark.parametrize("where", ["act", "load"])
def test_memory_bomb(spawn, where):
    bomb = "var hoard = []; while (true) hoard.push(new Array(1e5).fill(1.5));"
    script = (f"module.exports = function () {{ {bomb} }};" if where == "act"
              else f"{bomb} module.exports = function () {{}};")
    w = spawn(script, memory_limit=32 * 1024 * 1024)
    out = w.act(STATE, timeout_ms=5000) if where == "act" else w.start_outcome
    assert out.kind == "memory", out
    assert w.dead and gone(w.pid)


def test_caught_out_of_memory_leaves_the_worker_usable_for_the_bot(spawn):
    w = spawn("""module.exports = function () {
        try { 'x'.repeat(2 ** 28); } catch (e) { return e.message; }
    };""", memory_limit=32 * 1024 * 1024)
    assert w.act(STATE, timeout_ms=SHORT).answer == "out of memory"
    assert w.act(STATE, timeout_ms=SHORT).kind == "ok"


def test_runaway_recursion_is_a_throw_and_the_worker_lives_on(spawn):
    w = spawn("""function down(n) { return down(n + 1) + 1; }
        module.exports = function (s) { return s.recurse ? down(0) : 'check'; };""")
    out = w.act({**STATE, "recurse": True}, timeout_ms=2000)
    # quickjs-ng words it as browsers do (the 2021 QuickJS said InternalError: stack overflow).
    assert out.kind == "throw"
    assert (out.error["name"], out.error["message"]) == ("RangeError", "Maximum call stack size exceeded")
    assert w.act(STATE, timeout_ms=SHORT).answer == "check"


def test_a_crash_is_reported_with_the_signal(spawn):
    # A real segfault (QuickJS's JSON.stringify recurses without a stack check) needs
    # data so deep that its quadratic cycle check takes seconds first: deliver one.
    w = spawn("module.exports = function () { while (true) {} };")
    segfault_soon(w.pid)
    out = w.act(STATE, timeout_ms=5000)
    assert out.kind == "crash" and out.error["exitCode"] == -signal.SIGSEGV, out
    assert "SIGSEGV" in out.error["message"] and out.wall_ms < 1000
    assert w.dead and w.act(STATE).kind == "dead"


def test_a_crash_takes_the_wall_time_up_to_the_crash_not_the_reap_after_it(spawn, monkeypatch):
    """The wait for the crashed child's status and its kill are the parent's time, as a late kill's."""
    w = spawn("module.exports = function () { while (true) {} };")
    slow_kill(monkeypatch)
    segfault_soon(w.pid)
    out = w.act(STATE, timeout_ms=5000)
    assert out.kind == "crash" and out.wall_ms < 500, out


def test_deeply_nested_answer_is_not_walked(spawn):
    out = answer_of(spawn, """function () {
        var a = {}; for (var i = 0; i < 1e5; i++) a = {type: a};
        return {type: a, amount: [[[]]]};
    }""")
    assert out.kind == "ok" and out.answer == {"type": JSValue("object"), "amount": JSValue("array")}


def test_deep_and_large_call_values_are_bounded(spawn):
    w = spawn("module.exports = function () {};")
    deep = w.eval_fn("function () { var a = 1; for (var i = 0; i < 1e5; i++) a = [a]; return a; }").answer
    depth = 0
    while isinstance(deep, list):
        deep, depth = deep[0], depth + 1
    assert (depth, deep) == (32, JSValue("array"))
    big = w.eval_fn("function () { return new Array(200000).fill(0); }")
    assert big.kind == "ok" and big.answer == JSValue("truncated", "more than 100000 values")
    cyclic = w.eval_fn("function () { var o = {}; o.self = o; return o; }").answer
    for _ in range(32):
        cyclic = cyclic["self"]
    assert cyclic == JSValue("object")


# ---- thrown values ------------------------------------------------------------------

@pytest.mark.parametrize("expr, name, message, value", [
    ("new RangeError('bad')", "RangeError", "bad", JSValue("object")),
    ("'boom'", None, "boom", "boom"),
    ("42", None, "42", 42),
    ("undefined", None, "undefined", UNDEFINED),
    ("null", None, "null", None),
    ("Symbol('s')", None, "Symbol(s)", JSValue("symbol", "s")),
    ("{code: 7}", None, None, JSValue("object")),
    ("{get name() { throw 1; }, message: 'm'}", None, "m", JSValue("object")),
    ("function thrower() {}", "thrower", None, JSValue("function", "thrower")),
])
def test_thrown_values_are_reported(spawn, expr, name, message, value):
    w = spawn(f"module.exports = function (s) {{ if (s.throw) throw {expr}; return 'fold'; }};")
    out = w.act({**STATE, "throw": True}, timeout_ms=SHORT)
    assert out.kind == "throw" and out.error["where"] == "act"
    assert (out.error["name"], out.error["message"], out.error["value"]) == (name, message, value)
    assert w.act(STATE, timeout_ms=SHORT).answer == "fold"  # a throw does not end the worker


# ---- answer transport ----------------------------------------------------------------

def obj(type_, amount=UNDEFINED):
    return {"type": type_, "amount": amount}


@pytest.mark.parametrize("body, expected", [
    ("function () { return 'allin'; }", "allin"),
    ("function () { return 'ra\\u0000ise\\ud800'; }", "ra\x00ise\ufffd"),  # R34: a lone surrogate is U+FFFD
    ("function () { return {type: 'raise', amount: 500, extra: function () {}}; }", obj("raise", 500)),
    ("function () { return {type: 'raise', amount: 500.5}; }", obj("raise", 500.5)),
    ("function () { return {type: 'raise', amount: 1e21}; }", obj("raise", 1e21)),
    ("function () { return {type: 'raise', amount: 2 ** 53 + 2}; }", obj("raise", 2**53 + 2)),
    ("function () { return {type: 'raise', amount: Infinity}; }", obj("raise", math.inf)),
    ("function () { return {type: 'raise', amount: -Infinity}; }", obj("raise", -math.inf)),
    ("function () { return {type: 'raise', amount: '500'}; }", obj("raise", "500")),
    ("function () { return {type: 'raise', amount: 500n}; }", obj("raise", JSValue("bigint", "500"))),
    ("function () { return {type: 'raise', amount: new Number(5)}; }", obj("raise", JSValue("object"))),
    ("function () { return {type: Symbol('call')}; }", obj(JSValue("symbol", "call"))),
    ("function () { return {type: function fold() {}}; }", obj(JSValue("function", "fold"))),
    ("function () { return {}; }", obj(UNDEFINED)),
    ("function () { return Object.create({type: 'check'}); }", obj("check")),
    ("function () { return new Proxy({}, {get: function (t, k) { return k === 'type' ? 'call' : 7; }}); }",
     obj("call", 7)),
    ("function () {}", UNDEFINED),
    ("function () { return null; }", None),
    ("function () { return 42; }", 42),
    ("function () { return true; }", True),
    ("function () { return ['fold']; }", JSValue("array")),
    ("function () { return 10n ** 30n; }", JSValue("bigint", "1" + "0" * 30)),
    ("async function () { return 'fold'; }", JSValue("promise")),
    ("function () { return Promise.resolve('fold'); }", JSValue("promise")),
    ("function () { return {type: 'fold', then: function (r) { r('call'); }}; }", JSValue("promise")),
    ("function () { return async function act() {}; }", JSValue("function", "act")),
])
def test_answers_are_transported_faithfully(spawn, body, expected):
    out = answer_of(spawn, body)
    assert out.kind == "ok", out
    assert out.answer == expected and type(out.answer) is type(expected)
    if isinstance(expected, dict):
        for key in ("type", "amount"):
            assert type(out.answer[key]) is type(expected[key])


def test_nan_and_negative_zero(spawn):
    nan = answer_of(spawn, "function () { return {type: 'raise', amount: NaN}; }").answer["amount"]
    assert math.isnan(nan)
    zero = answer_of(spawn, "function () { return {type: 'raise', amount: -0}; }").answer["amount"]
    assert zero == 0 and math.copysign(1, zero) == -1


@pytest.mark.parametrize("body, where", [
    ("function () { return {get type() { throw new Error('getter'); }, amount: 5}; }", "answer.type"),
    ("function () { return {type: 'raise', get amount() { throw new Error('getter'); }}; }", "answer.amount"),
    ("function () { return {get then() { throw new Error('getter'); }}; }", "answer.then"),
    ("function () { return new Proxy({}, {get: function () { throw new Error('getter'); }}); }",
     "answer.then"),
])
def test_throwing_answer_reads(spawn, body, where):
    out = answer_of(spawn, body)
    assert out.kind == "throw" and out.error["where"] == where
    assert (out.error["name"], out.error["message"]) == ("Error", "getter")
    field = where.split(".")[1]
    tagged = out.answer if field == "then" else out.answer[field]
    assert tagged == JSValue("throwing", {"name": "Error", "message": "getter", "value": JSValue("object")})


def test_revoked_proxy_answer(spawn):
    out = answer_of(spawn, "function () { var p = Proxy.revocable({}, {}); p.revoke(); return p.proxy; }")
    assert out.kind == "throw" and out.error["name"] == "TypeError"


def test_patched_globals_do_not_change_the_transport(spawn):
    out = answer_of(spawn, """function () {
        JSON.stringify = function () { return 'forged'; };
        Object.prototype.toJSON = function () { return 'forged'; };
        Object.keys = function () { return []; };
        Math.imul = function () { return 0; };
        return {type: 'raise', amount: 300};
    }""")
    assert out.answer == obj("raise", 300)


def test_the_bot_gets_a_fresh_state_each_time(spawn):
    w = spawn("""var previous = null;
        module.exports = function (s) {
          var report = [s.you.stack, s.you.cards.length, previous === s, 'extra' in s].join(',');
          s.you.stack = -1; s.you.cards.length = 0; s.extra = true; previous = s;
          return report;
        };""")
    assert w.act(STATE, timeout_ms=SHORT).answer == "10000,2,false,false"
    assert w.act(STATE, timeout_ms=SHORT).answer == "10000,2,false,false"
    assert STATE["you"]["stack"] == 10000


def test_state_is_parsed_exactly(spawn):
    state = {"s": "é\u20ac\U0001F600\"\\\n", "big": 2**53 - 1, "neg": -5, "f": 0.1, "n": None, "b": [True, False]}
    w = spawn("module.exports = function (s) { return JSON.stringify(s); };")
    assert json.loads(w.act(state, timeout_ms=SHORT).answer) == state


# ---- the history sent a hand at a time (StateWire) -------------------------------------

def _wires(seats=4, seed=3, hands=30, ruleset="contract-v1"):
    """(full state bytes, StateWire) for every decision of a check/call tournament."""
    t = Tournament([f"P{i}" for i in range(seats)], seed=seed, max_hands=hands, ruleset=ruleset)
    history = HistoryEncoder()
    out = []
    while not t.over:
        full = encode_state(t.decision_state())
        state = t.decision_state(history=False)
        out.append((full, history.wire(state, t.history[-HISTORY_LIMIT:])))
        t.act("check" if state["canCheck"] else "call")
    return out


@pytest.mark.parametrize("ruleset", ["contract-v1", "holdem-sng-3-v4"])
def test_state_wire_rebuilds_the_exact_state_bytes(ruleset):
    wires = _wires(seats=3, ruleset=ruleset)
    assert any(len(w.hands) == HISTORY_LIMIT for _, w in wires)  # the window slid
    for full, wire in wires:
        assert wire.full == full
        assert wire.head.count(b'"history":null') == 1


def test_state_wire_refuses_a_state_with_its_history():
    t = Tournament(["a", "b"], seed=1)
    with pytest.raises(ValueError, match="history"):
        HistoryEncoder().wire(t.decision_state(), [])


def test_the_bot_receives_the_whole_state_however_rarely_it_is_asked(spawn):
    """One worker asked at irregular intervals (new entries pile up, old ones leave the window)
    sees exactly the bytes the runner hashes, with history objects never shared between states."""
    w = spawn("""var previous = null, text = null;
        module.exports = function (s) {
          var shared = previous !== null && s.history.some(function (e) {
            return previous.history.indexOf(e) >= 0 || previous.history.some(function (p) {
              return p.board === e.board || p.showdown === e.showdown || p.winners === e.winners; });
          });
          text = JSON.stringify(s);  // read by eval_fn: an answer is bounded (R34)
          // Vandalise everything the bot was given: nothing of it may reach the next state.
          s.history.forEach(function (e) {
            e.board.push('Xx'); e.handNumber = -1; e.extra = 1;
            e.showdown.forEach(function (x) { x.cards.length = 0; x.hand = 'none'; });
            e.winners.push({id: 'me', amount: 1e9});
          });
          s.history.length = 0;
          previous = s;
          return shared ? 'shared' : 'fold';
        };""")
    asked = 0
    for i, (full, wire) in enumerate(_wires(seats=3, seed=5, hands=40)):
        if i % 7 in (0, 3):
            out = w.act(None, timeout_ms=SHORT, wire=wire)
            assert out.ok, out
            assert out.answer == "fold" and w.eval_fn("function () { return text; }").answer.encode("utf-8") == full, i
            asked += 1
    assert asked > 20


def test_a_history_entry_the_child_never_got_is_a_protocol_failure(spawn):
    w = spawn("module.exports = function (s) { return 'check'; };")
    full, wire = next((f, x) for f, x in _wires() if x.hands)
    w._child_history = frozenset(wire.hands)  # the parent wrongly believes the child has them
    out = w.act(None, timeout_ms=SHORT, wire=wire)
    assert out.kind == "malformed" and "was never sent" in out.error["message"]
    assert w.dead


@pytest.mark.parametrize("entry, message", [
    (b'{"handNumber":1,"board":[],"showdown":[],"winners":[],"extra":1}', "exactly the keys"),
    (b'{"handNumber":1,"board":[1],"showdown":[],"winners":[]}', "bad field types"),
    (b'{"handNumber":1,"board":[],"showdown":[{"id":"s1","cards":["Ah"]}],"winners":[]}', "bad showdown"),
    (b'{"handNumber":1,"board":[],"showdown":[],"winners":[{"id":"s1"}]}', "bad winners"),
])
def test_a_history_entry_of_another_shape_is_refused(spawn, entry, message):
    """The child copies exactly the entry's known fields, so any other shape must fail loudly."""
    w = spawn("module.exports = function (s) { return 'check'; };")
    wire = StateWire(head=b'{"handNumber":2,"history":null}', hands=(1,), entries=(entry,))
    out = w.act(None, timeout_ms=SHORT, wire=wire)
    assert out.kind == "malformed" and message in out.error["message"]


# ---- call / evalFn ---------------------------------------------------------------------

def test_call_results_and_errors(spawn):
    engine = """var PokerEngine = {
        evaluate: function (cards) {
          if (cards.length < 5) throw new RangeError('need five cards, got ' + cards.length);
          return {rank: 6, value: 5308875, name: 'Full house', best: cards.slice(0, 5)};
        },
        dealHand: function () { return ['2c', '3c']; },
        nested: {deep: {fn: function () { return this === PokerEngine.nested.deep; }}},
      };"""
    w = spawn("", engine=engine, mode="engine")
    cards = ["Ac", "Ad", "Ah", "Ks", "Kc"]
    assert w.call("PokerEngine.evaluate", [cards]).answer == {
        "rank": 6, "value": 5308875, "name": "Full house", "best": cards}
    assert w.call("PokerEngine.dealHand").answer == ["2c", "3c"]
    assert w.call("PokerEngine.nested.deep.fn").answer is True
    out = w.call("PokerEngine.evaluate", [["Ac"]])
    assert out.kind == "throw" and (out.error["name"], out.error["message"]) == ("RangeError", "need five cards, got 1")
    assert w.call("PokerEngine.missing").error["message"] == "PokerEngine.missing is undefined, not a function"
    assert w.call("PokerEngine.missing.fn").error["message"] == "PokerEngine.missing is undefined, not an object"
    assert w.call("PokerEngine.dealHand", [1]).kind == "ok"  # errors above did not end the worker


def test_eval_fn_errors(spawn):
    w = spawn("module.exports = function () {};")
    assert w.eval_fn("function (").kind == "syntax"
    assert w.eval_fn("42").kind == "path"
    out = w.eval_fn("function (a) { return {'$': a, b: [undefined]}; }", ["x"])
    assert out.answer == {"$": "x", "b": [UNDEFINED]}


# ---- lifecycle and concurrency -------------------------------------------------------

def test_api_misuse_raises(spawn):
    w = Worker()
    with pytest.raises(RuntimeError, match="start"):
        w.act(STATE)
    with pytest.raises(ValueError, match="bot_seed"):
        w.start(None, "", -1)
    w2 = spawn("module.exports = function () {};")
    with pytest.raises(RuntimeError, match="start"):
        w2.start(None, "", 1)


def test_bad_limits_are_reported_naming_the_field(spawn):
    out = spawn("module.exports = function () {};", stack_limit=10).start_outcome
    assert out.kind == "malformed" and "init.stackLimit" in out.error["message"]


def test_close_ends_the_process(spawn):
    w = spawn("module.exports = function () { return 'fold'; };")
    pid = w.pid
    w.close()
    assert gone(pid) and w.dead_reason == "closed" and w.act(STATE).kind == "dead"


def test_two_workers_in_two_threads(spawn):
    workers = [spawn("module.exports = function (s) { return {type: 'raise', amount: s.n * %d}; };" % k)
               for k in (2, 3)]
    results = {}

    def run(k, w):
        results[k] = [w.act({"n": n}, timeout_ms=1000).answer["amount"] for n in range(300)]

    threads = [threading.Thread(target=run, args=(k, w)) for k, w in zip((2, 3), workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {k: [k * n for n in range(300)] for k in (2, 3)}
    assert workers[0].pid != workers[1].pid


def test_outcome_timings(spawn):
    w = spawn("module.exports = function () { var x = 0; for (var i = 0; i < 2e6; i++) x += i; return 'fold'; };")
    out = w.act(STATE, timeout_ms=5000)
    assert out.cpu_ms is not None and 1 < out.cpu_ms <= out.wall_ms


def test_call_arguments_carry_non_json_values(spawn):
    w = spawn("module.exports = function () {};")
    out = w.eval_fn("""function () {
        return Array.prototype.map.call(arguments, function (a) {
          return typeof a + ':' + (typeof a === 'object' && a !== null ? JSON.stringify(a) : String(a));
        });
    }""", [math.nan, math.inf, -math.inf, UNDEFINED, JSValue("bigint", "12345678901234567890"), None,
           {"$": 1, "k": [UNDEFINED]}])
    assert out.answer == ["number:NaN", "number:Infinity", "number:-Infinity", "undefined:undefined",
                          "bigint:12345678901234567890", "object:null", 'object:{"$":1,"k":[null]}']
    with pytest.raises(TypeError, match="symbol"):
        w.eval_fn("function () {}", [JSValue("symbol", "s")])
