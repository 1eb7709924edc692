"""The bot worker's global, a classic Web Worker's (ruling R39; issue #35 items 1 and 2), on both hosts.

On the V8 host (node) every Web-Worker member works and is made in the bot's realm (nothing of
node's realm is reachable from it); Intl has en-US and UTC pinned. On QuickJS the same members
work, and Intl, which QuickJS lacks, throws an error naming the global, the host and R39. What
the contract forbids (timers, messaging, networking, clocks, entropy) is present on both and a
call is a recorded violation. The V8 host keeps the parent's deadlines whatever the bot does: a
bot blocked in Atomics.wait (no CPU) and one whose answer's getter never returns are late.
"""
from __future__ import annotations

import pytest

from conformance.harness.runner import bundled_engine
from conformance.host.bot_host import HOSTS, BotHost
from conformance.host.node_runtime import find_node
from conformance.host.worker_globals import MEMBERS

NODE = find_node()
ENGINE = bundled_engine()
needs_node = pytest.mark.skipif(NODE is None, reason="no node 20 or later here")
HOST_PARAMS = [pytest.param("node", marks=needs_node), "quickjs"]
FOLD = "module.exports = function act() { return 'fold'; };"

# What a bot does with each Web-Worker member, and what it must get back (the same on both hosts).
USES = {
    "structuredClone": ("(function () { var s = {a: [1, {b: 2}], m: new Map([[1, 'x']])}; var c = structuredClone(s);"
                        " return c !== s && c.a[1].b === 2 && c.m.get(1) === 'x' && c.a !== s.a; })()", True),
    "atob": ("atob('aGVsbG8=')", "hello"),
    "btoa": ("btoa('hello')", "aGVsbG8="),
    "DOMException": ("(function () { try { atob('*'); } catch (e) { return e instanceof DOMException && e.name; } })()",
                     "InvalidCharacterError"),
    "TextEncoder": ("Array.from(new TextEncoder().encode('h\\u20ac\\ud83d\\ude00')).join()",
                    "104,226,130,172,240,159,152,128"),
    "TextDecoder": ("new TextDecoder().decode(new Uint8Array([104, 226, 130, 172, 0xff]))", "h\u20ac\ufffd"),
}
# Each forbidden member: a call, and the violation kind it records.
FORBIDDEN = {
    "setTimeout(function () {}, 0)": "timer",
    "setInterval(function () {}, 5)": "timer",
    "clearTimeout(1)": "timer",
    "clearInterval(1)": "timer",
    "postMessage('x')": "message",
    "importScripts('x.js')": "network",
    "fetch('http://127.0.0.1:9/')": "network",
    "performance.now()": "clock",
    "performance.timeOrigin": "clock",
    "Date.now()": "Date",
    "crypto.getRandomValues(new Uint32Array(1))": "entropy",
    "crypto.randomUUID()": "entropy",
}


def started(host: str, script: str = FOLD):
    worker = BotHost(host, NODE if host == "node" else None).worker()
    out = worker.start(ENGINE, script, 7, mode="bot")
    assert out.ok, out
    return worker


@pytest.fixture(scope="module", params=HOST_PARAMS)
def worker(request):
    w = started(request.param)
    yield request.param, w
    w.close()


def evaluate(worker, expression: str):
    out = worker.eval_fn(f"function () {{ return {expression}; }}")
    assert out.kind == "ok", out
    return out


def test_the_members_are_the_ruling_s():
    assert set(MEMBERS) == set(USES)
    assert HOSTS == ("node", "quickjs")


@pytest.mark.parametrize("member", sorted(USES))
def test_each_web_worker_member_works_in_a_bot(worker, member):
    host, w = worker
    expression, expected = USES[member]
    out = evaluate(w, expression)
    assert out.answer == expected and out.violations == (), (host, out)


@pytest.mark.parametrize("host", HOST_PARAMS)
def test_a_bot_using_every_member_answers_from_them(host):
    """The members at work in act(), a browser bot's uses: a what-if copy, a memo key, a base64 tag."""
    bot = ("module.exports = function act(s) { var copy = structuredClone(s); copy.you.stack = 0;"
           " var key = new TextDecoder().decode(new TextEncoder().encode(btoa(String(s.you.stack))));"
           " return atob(key) === String(s.you.stack) && s.you.stack !== 0 ? 'check' : 'fold'; };")
    with started(host, bot) as w:
        out = w.act({"you": {"stack": 1500}})
        assert (out.kind, out.answer, out.violations) == ("ok", "check", ())


def test_self_window_and_globalthis_alias_one_global(worker):
    assert evaluate(worker[1], "self === globalThis && window === globalThis && self.self === self").answer is True


@pytest.mark.parametrize("call", sorted(FORBIDDEN))
def test_a_forbidden_member_is_there_and_a_call_is_a_violation(worker, call):
    host, w = worker
    root = call.split("(")[0].split(".")[0]
    assert evaluate(w, f"typeof {root}").answer in ("function", "object")  # feature tests see it
    out = evaluate(w, f"(function () {{ try {{ {call}; return 'no error'; }} catch (e) {{ return e.name; }} }})()")
    assert out.answer == "ContractViolation", (host, out)
    assert [v["kind"] for v in out.violations] == [FORBIDDEN[call]], (host, out)


@needs_node
def test_intl_on_the_v8_host_has_en_us_and_utc_pinned():
    with started("node") as w:
        assert evaluate(w, "new Intl.NumberFormat().format(1234567.5)").answer == "1,234,567.5"
        assert evaluate(w, "Intl.DateTimeFormat().resolvedOptions().timeZone").answer == "UTC"
        assert evaluate(w, "Intl.DateTimeFormat().resolvedOptions().locale").answer == "en-US"
        assert evaluate(w, "(1234.5).toLocaleString()").answer == "1,234.5"
        # a date given: no clock
        out = evaluate(w, "new Intl.DateTimeFormat('en-US', {dateStyle: 'medium'}).format(86400000)")
        assert (out.answer, out.violations) == ("Jan 2, 1970", ())
        # the current time: a violation
        for call in ("new Intl.DateTimeFormat().format()", "Intl.DateTimeFormat().formatToParts()",
                     "new Intl.DateTimeFormat().format(undefined)"):
            out = evaluate(w, f"(function () {{ try {{ return {call}; }} catch (e) {{ return e.name; }} }})()")
            assert out.answer == "ContractViolation" and [v["kind"] for v in out.violations] == ["clock"], (call, out)


NAMED = "Intl is not defined (Intl is not available on the quickjs host: ruling R39"


def test_intl_is_absent_on_quickjs_so_a_feature_test_sees_the_truth():
    with started("quickjs") as w:
        assert evaluate(w, "typeof Intl").answer == "undefined"


def test_a_bot_touching_intl_on_quickjs_fails_with_the_named_error():
    bot = "module.exports = function act() { return new Intl.NumberFormat('en-US').format(1) ? 'fold' : 'check'; };"
    with started("quickjs", bot) as w:
        out = w.act({})
        assert out.kind == "throw" and out.error["message"].startswith(NAMED), out
    worker = BotHost("quickjs").worker()
    with worker:
        out = worker.start(ENGINE, "var f = new Intl.NumberFormat(); module.exports = () => 'fold';", 7)
        assert out.kind == "throw" and out.error["message"].startswith(NAMED), out


def test_other_reference_errors_are_not_annotated():
    with started("quickjs", "module.exports = function act() { return notDefinedHere; };") as w:
        assert w.act({}).error["message"] == "notDefinedHere is not defined"


# Every object and function the bot can reach, by own properties (getters and setters as functions,
# never called) and prototypes: each must belong to the bot's realm (its Object.prototype and
# Function.prototype), which node's own functions (node's structuredClone, whose constructor is node's
# Function) would not.
REALM_WALK = """function () {
  var OP = Object.prototype, FP = Function.prototype, seen = new Set(), queue = [globalThis], foreign = [];
  function add(v, path) {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v)) return;
    seen.add(v); queue.push(v); paths.set(v, path);
  }
  var paths = new Map([[globalThis, 'globalThis']]);
  while (queue.length) {
    var o = queue.shift(), p = o, root = null;
    while (p !== null) { root = p; p = Object.getPrototypeOf(p); }
    if (root !== OP && root !== o) foreign.push(paths.get(o));   // a null-prototype object is its own root
    if (typeof o === 'function' && o !== FP) {
      var q = Object.getPrototypeOf(o), ok = false;
      while (q !== null) { if (q === FP) { ok = true; break; } q = Object.getPrototypeOf(q); }
      if (!ok) foreign.push(paths.get(o) + ' (a function of another realm)');
    }
    add(Object.getPrototypeOf(o), paths.get(o) + '.__proto__');
    var keys = Reflect.ownKeys(o);
    for (var i = 0; i < keys.length; i++) {
      var d = Object.getOwnPropertyDescriptor(o, keys[i]), name = paths.get(o) + '.' + String(keys[i]);
      if (!d) continue;
      if ('value' in d) add(d.value, name); else { add(d.get, name + '<get>'); add(d.set, name + '<set>'); }
    }
  }
  return [seen.size, foreign.slice(0, 10)];
}"""


@needs_node
def test_nothing_of_node_s_realm_is_reachable_from_the_bot():
    with started("node") as w:
        out = w.eval_fn(REALM_WALK)
        assert out.kind == "ok", out
        reached, foreign = out.answer
        assert reached > 500 and foreign == [], out.answer


@needs_node
@pytest.mark.parametrize("escape", ["structuredClone.constructor('return process')()",
                                    "TextEncoder.constructor('return process')()",
                                    "atob.constructor.constructor('return process')()",
                                    "Object.getPrototypeOf(DOMException).constructor('return this')().process",
                                    "(async function () {}).constructor('return process')"])
def test_the_members_constructors_do_not_reach_node(escape):
    with started("node") as w:
        out = evaluate(w, f"(function () {{ try {{ var p = {escape}; return typeof p; }}"
                          " catch (e) { return e.name; } })()")
        assert out.answer == "ContractViolation", out  # the realm's guarded Function, never node's
        assert evaluate(w, "typeof process + typeof require + typeof Buffer").answer == "undefined" * 3


@needs_node
def test_a_bot_blocked_in_atomics_wait_is_late_on_the_v8_host():
    bot = ("module.exports = function act() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);"
           " return 'fold'; };")
    with started("node", bot) as w:
        out = w.act({}, timeout_ms=300)
        assert out.kind == "late" and out.wall_ms == 300
        assert w.dead


@pytest.mark.parametrize("host", HOST_PARAMS)
def test_an_answer_whose_getter_never_returns_is_late(host):
    """Reading the answer (its type, as a browser's structured clone reads the posted message) is part
    of the decision's time."""
    bot = "module.exports = function act() { return {get type() { for (;;) {} }, amount: 0}; };"
    with started(host, bot) as w:
        out = w.act({}, timeout_ms=300)
        assert out.kind == "late", out


@needs_node
def test_array_buffers_are_bounded_by_the_os_limit_on_the_v8_host():
    """V8's heap flag does not bound ArrayBuffers; the child's data limit does: allocation fails in the
    bot's code (or node aborts for memory), never the machine's memory."""
    bot = ("var kept = []; module.exports = function act() {"
           " try { for (;;) { var b = new ArrayBuffer(64 * 1024 * 1024); new Uint8Array(b).fill(1); kept.push(b); } }"
           " catch (e) { return e.name + ' ' + kept.length; } };")
    with started("node", bot) as w:
        out = w.act({}, timeout_ms=20_000)
        assert out.kind in ("ok", "memory"), out
        if out.kind == "ok":
            name, count = out.answer.split()
            assert name == "RangeError" and int(count) * 64 <= 4 * 256, out.answer


# ---- certification on each host (holdem-cert bot --host) ----------------------------------------

from pathlib import Path  # noqa: E402

from conformance.bots.bot_cert import CertOptions, certify, certify_file  # noqa: E402

V8_BOTS = Path(__file__).resolve().parent / "bots" / "v8"
# A short battery (one state of each decision kind and a few vectors, nine-seat states included), a
# two-seat table and no full-length table: enough to run every member in every stage.
SHORT = dict(vector_states=5, generated_states=0, kind_states=1, smoke_seats=(2,), smoke_max_hands=4,
             full_table_hands=0)


def certify_source(source: str, host: str):
    return certify(source, CertOptions(host=host, **SHORT))


@pytest.mark.parametrize("host", HOST_PARAMS)
def test_a_bot_using_each_web_worker_member_is_certified(host):
    report = certify_file(V8_BOTS / "web-worker-members.js", CertOptions(host=host, **SHORT))
    assert report.verdict == "certified", [r.to_json() for r in report.reasons]
    assert report.to_json()["options"]["host"] == host
    assert report.battery["answered"] == report.battery["states"] and report.battery["errors"] == {}


@needs_node
def test_a_bot_formatting_with_intl_is_certified_on_the_v8_host():
    report = certify_file(V8_BOTS / "intl-chips.js", CertOptions(host="node", **SHORT))
    assert report.verdict == "certified", [r.to_json() for r in report.reasons]


def test_a_bot_formatting_with_intl_gets_the_named_error_on_quickjs():
    report = certify_file(V8_BOTS / "intl-chips.js", CertOptions(host="quickjs", **SHORT))
    assert report.verdict == "rejected"
    load = [r for r in report.reasons if r.category == "load"]
    assert len(load) == 1 and load[0].code == "throw", [r.to_json() for r in report.reasons]
    assert "Intl is not available on the quickjs host: ruling R39" in load[0].message


@needs_node
def test_the_v8_host_has_no_quickjs_global():
    """A bot that uses the clock "only when not in QuickJS" sees V8's world there and is judged on it."""
    with started("node") as w:
        assert evaluate(w, "typeof InternalError + typeof print + typeof std + typeof os").answer == "undefined" * 4


@pytest.mark.parametrize("host", HOST_PARAMS)
def test_a_bot_using_the_clock_only_outside_quickjs_is_rejected_on_v8_and_flagged_where_it_reaches_it(host):
    bot = ("module.exports = function act(s) { var quickjs = typeof InternalError === 'function';"
           " var t = quickjs ? 0 : performance.now(); return s.canCheck ? 'check' : 'fold'; };")
    report = certify_source(bot, host)
    clock = [r for r in report.reasons if r.category == "violation" and r.code == "clock"]
    if host == "node":
        assert report.verdict == "rejected" and clock, [r.to_json() for r in report.reasons]
    else:  # QuickJS has InternalError: the bot hides its clock there (the V8 default is what catches it)
        assert not clock


@needs_node
def test_a_top_level_var_costs_what_it_costs_in_a_browser_on_the_v8_host():
    """The bot's global object is an ordinary one (DONT_CONTEXTIFY): in a contextified vm realm every
    read of a top-level var goes through node's interceptors, 20-25x slower than a local variable."""
    bot = ("var N = 3000000; module.exports = function act(s) { var x = 0, i;"
           " if (s.global) { for (i = 0; i < N; i++) x = (x * 31 + i) | 0; }"
           " else { var n = 3000000; for (i = 0; i < n; i++) x = (x * 31 + i) | 0; } return x === 7 ? 'call' : 'fold'; };")
    with started("node", bot) as w:
        for _ in range(3):  # warm: both paths compiled
            w.act({"global": True}), w.act({"global": False})
        reads = min(w.act({"global": True}).cpu_ms for _ in range(3))
        local = min(w.act({"global": False}).cpu_ms for _ in range(3))
        assert reads < 4 * local + 5, (reads, local)
