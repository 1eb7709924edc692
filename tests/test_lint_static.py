"""conformance.harness.lint_static: every rule flagged at the right place, legitimate bots left alone."""
import dataclasses
import re
from pathlib import Path

import pytest

from conformance.harness.lint_static import RULES, Finding, lint_source, parse_ok

CONTRACT = Path(__file__).resolve().parents[2] / "shared" / "contract" / "bot-contract-v1.md"


def found(source: str) -> list[tuple[str, int, int]]:
    """The errors and warnings (the information findings have their own cases, MEMBER_INFO)."""
    return [(f.rule, f.line, f.column) for f in lint_source(source) if f.severity != "info"]


def infos(source: str) -> list[tuple[str, int, int]]:
    return [(f.rule, f.line, f.column) for f in lint_source(source) if f.severity == "info"]


# (source, exact findings as (rule, line, column)). Each case lists everything
# the linter must report for it, so an extra finding fails the test too.
POSITIVE = {
    # syntax
    "syntax-error-node": ("let x = ;\n", [("syntax", 1, 7)]),
    "syntax-unterminated": ("module.exports = {\n  act(s) {\n", [("syntax", 1, 1)]),
    "syntax-missing-brace": ("if (a) {\n  b();\n", [("syntax", 2, 7)]),
    "syntax-jsx": ("const view = <div>{x}</div>;\n", [("syntax", 1, 14)]),
    # es-module
    "import-statement": ("import x from 'y';\n", [("es-module", 1, 1)]),
    "export-statement": ("const a = 1;\nexport default a;\n", [("es-module", 2, 1)]),
    "export-function": ("export function act() {}\n", [("es-module", 1, 1)]),
    "import-meta": ("const u = import.meta.url;\n", [("es-module", 1, 11)]),
    # require
    "require-call": ("const fs = require('fs');\n", [("require", 1, 12)]),
    "require-reference": ("const r = require;\n", [("require", 1, 11)]),
    "module-require": ("module.require('x');\n", [("require", 1, 1)]),
    # dynamic-import
    "dynamic-import": ("function f() {\n  return import('./x.js');\n}\n",
                       [("dynamic-import", 2, 10)]),
    # eval
    "eval-call": ("eval('1');\n", [("eval", 1, 1)]),
    "eval-indirect": ("(0, eval)('1');\n", [("eval", 1, 5)]),
    "eval-window": ("window.eval('1');\n", [("eval", 1, 1)]),
    "eval-globalThis-subscript": ("globalThis['eval']('1');\n", [("eval", 1, 1)]),
    "eval-computed-constant": ("self['ev' + `al`]('1');\n", [("eval", 1, 1)]),
    "eval-escaped": ("window['\\x65val']('1');\n", [("eval", 1, 1)]),
    "eval-alias-value": ("const e = eval;\n", [("eval", 1, 11)]),
    "eval-destructured": ("const { eval: e } = globalThis;\n", [("eval", 1, 9)]),
    # function-constructor
    "new-function": ("const f = new Function('a', 'return a');\n",
                     [("function-constructor", 1, 15)]),
    "function-call": ("const g = Function('return this')();\n", [("function-constructor", 1, 11)]),
    "function-via-self": ("new self.Function('x');\n", [("function-constructor", 1, 5)]),
    # string-timer, timer
    "string-timeout": ("setTimeout('act()', 10);\n", [("string-timer", 1, 1)]),
    "string-interval-template": ("setInterval(`tick()`, 5);\n", [("string-timer", 1, 1)]),
    "string-timer-concat": ("self.setTimeout('go(' + n + ')', 1);\n", [("string-timer", 1, 1)]),
    "timer-callback": ("setTimeout(() => {}, 0);\n", [("timer", 1, 1)]),
    "timer-interval": ("const id = setInterval(work, 5);\n", [("timer", 1, 12)]),
    "timer-microtask": ("queueMicrotask(work);\n", [("timer", 1, 1)]),
    # clocks and entropy
    "date-now": ("const t = Date.now();\n", [("date", 1, 11)]),
    "date-new": ("function f() {\n  return new Date();\n}\n", [("date", 2, 14)]),
    "date-shorthand": ("const o = { Date };\n", [("date", 1, 13)]),
    "performance": ("const t = performance.now();\n", [("performance", 1, 11)]),
    "performance-self": ("self.performance.now();\n", [("performance", 1, 1)]),
    "crypto": ("crypto.getRandomValues(buf);\n", [("crypto", 1, 1)]),
    "crypto-globalThis": ("globalThis.crypto.randomUUID();\n", [("crypto", 1, 1)]),
    # issue #19: aliases of the global object, constant keys, Intl clocks, the environment
    "crypto-alias-of-global": ('const g = globalThis;\nfunction f() { return g.crypto.getRandomValues(b); }\n',
     [('crypto', 2, 23)]),
    "crypto-alias-this": ("var root = this;\nroot['cry' + 'pto'].getRandomValues(b);\n",
     [('crypto', 2, 1)]),
    "crypto-constant-key": ("const k = 'cry' + 'pto';\nself[k].getRandomValues(b);\n",
     [('crypto', 2, 1)]),
    "performance-alias": ('const w = self;\nw.performance.now();\n',
     [('performance', 2, 1)]),
    "intl-format-now": ("const s = new Intl.DateTimeFormat('en').format();\n",
     [('intl-clock', 1, 11)]),
    "intl-format-parts-alias": ('const f = Intl.DateTimeFormat();\nf.formatToParts();\n',
     [('intl-clock', 2, 1)]),
    "intl-time-zone": ('const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;\n',
     [('environment', 1, 12)]),
    "intl-locale": ('const l = new Intl.NumberFormat().resolvedOptions().locale;\n',
     [('environment', 1, 11)]),
    "process-env": ('const d = process.env.DEBUG;\n',
     [('environment', 1, 11)]),
    "global-process": ('const p = globalThis.process;\n',
     [('environment', 1, 11)]),
    "global-keys": ('const n = Object.keys(globalThis).length;\n',
     [('environment', 1, 11)]),
    "typeof-process": ("const node = typeof process !== 'undefined';\n",
     [('environment-probe', 1, 14)]),
    "typeof-navigator": ('const nav = typeof navigator;\n',
     [('environment-probe', 1, 13)]),
    "in-global": ("const deno = 'Deno' in globalThis;\n",
     [('environment-probe', 1, 14)]),
    "has-own-global": ("self.hasOwnProperty('Bun');\n",
     [('environment-probe', 1, 1)]),
    "crypto-reflect-get": ("const k = 'crypto';\nReflect.get(globalThis, k).getRandomValues(b);\n",
     [('crypto', 2, 1)]),
    "crypto-destructured-from-alias": ("const g = self;\nconst { crypto: c } = g;\n", [('crypto', 2, 9)]),
    "intl-format-undefined": ("new Intl.DateTimeFormat('en').format(void 0);\nnew Intl.DateTimeFormat().format(undefined);\n",
     [('intl-clock', 1, 1), ('intl-clock', 2, 1)]),
    # network
    "fetch": ("fetch('https://x');\n", [("network", 1, 1)]),
    "fetch-self": ("self.fetch('u');\n", [("network", 1, 1)]),
    "xhr": ("const r = new XMLHttpRequest();\n", [("network", 1, 15)]),
    "websocket": ("new WebSocket('ws://x');\n", [("network", 1, 5)]),
    "eventsource": ("new EventSource('/s');\n", [("network", 1, 5)]),
    "send-beacon": ("navigator.sendBeacon('/b', d);\n", [("network", 1, 1)]),
    # import-scripts
    "import-scripts": ("importScripts('x.js');\n", [("import-scripts", 1, 1)]),
    # worker-messaging
    "post-message": ("postMessage({ type: 'call' });\n", [("worker-messaging", 1, 1)]),
    "onmessage-assign": ("onmessage = function (e) {};\n", [("worker-messaging", 1, 1)]),
    "self-onmessage": ("self.onmessage = (e) => {};\n", [("worker-messaging", 1, 1)]),
    "add-listener": ("addEventListener('message', f);\n", [("worker-messaging", 1, 1)]),
    "self-add-listener": ("self.addEventListener('message', f);\n",
                          [("worker-messaging", 1, 1)]),
    "broadcast-channel": ("const c = new BroadcastChannel('bots');\n",
                          [("worker-messaging", 1, 15)]),
    # dom
    "document": ("document.title = 'x';\n", [("dom", 1, 1)]),
    "local-storage": ("localStorage.setItem('k', 1);\n", [("dom", 1, 1)]),
    "session-storage": ("sessionStorage.clear();\n", [("dom", 1, 1)]),
    "indexeddb": ("indexedDB.open('x');\n", [("dom", 1, 1)]),
    "location": ("const h = location.href;\n", [("dom", 1, 11)]),
    "alert": ("alert('hi');\n", [("dom", 1, 1)]),
    "html-element": ("x instanceof HTMLElement;\n", [("dom", 1, 14)]),
    "html-canvas": ("new HTMLCanvasElement();\n", [("dom", 1, 5)]),
    "navigator": ("const n = navigator.hardwareConcurrency;\n", [("dom", 1, 11)]),
    "window-document": ("window.document.body;\n", [("dom", 1, 1)]),
    # global-assignment
    "assign-pokerengine": ("PokerEngine = {};\n", [("global-assignment", 1, 1)]),
    "assign-pokerengine-member": ("PokerEngine.equity = () => 1;\n",
                                  [("global-assignment", 1, 1)]),
    "assign-math-random": ("Math.random = () => 0.5;\n", [("global-assignment", 1, 1)]),
    "assign-math": ("Math = {};\n", [("global-assignment", 1, 1)]),
    "assign-self": ("self = {};\n", [("global-assignment", 1, 1)]),
    "assign-window-protected": ("window.PokerEngine = null;\n", [("global-assignment", 1, 1)]),
    "assign-window-math-member": ("window.Math.random = f;\n", [("global-assignment", 1, 1)]),
    "assign-globalThis": ("globalThis.PokerEngine = null;\n", [("global-assignment", 1, 1)]),
    "assign-module": ("module = { exports: {} };\n", [("global-assignment", 1, 1)]),
    "assign-module-member": ("module.id = 'x';\n", [("global-assignment", 1, 1)]),
    "assign-exports": ("exports = function act() {};\n", [("global-assignment", 1, 1)]),
    "assign-console": ("console = { log() {} };\n", [("global-assignment", 1, 1)]),
    "assign-console-member": ("console.log = f;\n", [("global-assignment", 1, 1)]),
    "define-property": ("Object.defineProperty(Math, 'random', { value: f });\n",
                        [("global-assignment", 1, 1)]),
    "reflect-set-window": ("Reflect.set(self, 'PokerEngine', 1);\n",
                           [("global-assignment", 1, 1)]),
    "prototype-pollution": ("Array.prototype.shuffle = f;\n", [("global-assignment", 1, 1)]),
    "augmented": ("Math.random += 0;\n", [("global-assignment", 1, 1)]),
    "update": ("PokerEngine.calls++;\n", [("global-assignment", 1, 1)]),
    "delete": ("delete Math.random;\n", [("global-assignment", 1, 8)]),
    "destructuring-target": ("[Math.random] = [f];\n", [("global-assignment", 1, 2)]),
    "top-level-var": ("var Math = { random() { return 0; } };\n", [("global-assignment", 1, 5)]),
    "top-level-function": ("function PokerEngine() {}\n", [("global-assignment", 1, 10)]),
    "nested-assign": ("function act(state) {\n  if (x) { Math.random = f; }\n}\n",
                      [("global-assignment", 2, 12)]),
    # async
    "async-function": ("async function act(state) {}\n", [("async", 1, 1)]),
    "async-arrow": ("const act = async (s) => 'fold';\n", [("async", 1, 13)]),
    "async-arrow-bare": ("const act = async s => 'fold';\n", [("async", 1, 13)]),
    "async-method": ("module.exports = {\n  async act(state) {}\n};\n", [("async", 2, 3)]),
    "async-class-method": ("class B {\n  static async go() {}\n}\n", [("async", 2, 10)]),
    "await": ("async function f() {\n  await g();\n}\n", [("async", 1, 1), ("async", 2, 3)]),
    "promise": ("return Promise.resolve('fold');\n", [("async", 1, 8)]),
    "for-await": ("async function f() {\n  for await (const x of y) {}\n}\n",
                  [("async", 1, 1), ("async", 2, 7)]),
}


@pytest.mark.parametrize("source,expected", list(POSITIVE.values()), ids=list(POSITIVE))
def test_rule_flagged_at_position(source, expected):
    assert found(source) == expected


def test_every_rule_has_a_positive_case():
    covered = {rule for _, expected in POSITIVE.values() for rule, _, _ in expected}
    covered |= {rule for _, expected in MEMBER_INFO.values() for rule, _, _ in expected}
    assert covered == set(RULES)


# The members of browsers' Web Workers the contract allows (#35; R30): information, the first use of
# each name, never an error or a warning; probing one (typeof, in, hasOwnProperty) is no
# environment-probe warning any more, while other hosts' globals stay as they were.
MEMBER_INFO = {
    "structured-clone": ("const c = structuredClone(state);\nstructuredClone(c);\n", [("worker-member", 1, 11)]),
    "text-codec": ("const e = new TextEncoder();\nconst d = self.TextDecoder;\n",
                   [("worker-member", 1, 15), ("worker-member", 2, 11), ("worker-member", 2, 11)]),
    "base64": ("const b = btoa('x');\nconst a = globalThis.atob(b);\n",
               [("worker-member", 1, 11), ("worker-member", 2, 11)]),
    "intl": ("const f = new Intl.NumberFormat('en-US').format(1);\n", [("worker-member", 1, 15)]),
    "typeof-window": ("if (typeof window === 'object') {}\n", [("worker-member", 1, 12)]),
    "typeof-members": ("const ok = typeof structuredClone === 'function' && 'TextEncoder' in self\n"
                       "  && self.hasOwnProperty('atob');\n",
                       [("worker-member", 1, 19), ("worker-member", 1, 70)]),
    "shadowed": ("function f(structuredClone, Intl) { return structuredClone(Intl); }\n", []),
}


@pytest.mark.parametrize("source,expected", list(MEMBER_INFO.values()), ids=list(MEMBER_INFO))
def test_web_worker_members_are_information_only(source, expected):
    assert infos(source) == expected
    assert found(source) == []  # no error, no warning
    assert all(f.severity == "info" and "information, R30" in f.message for f in lint_source(source))


def test_other_hosts_globals_are_still_probes_and_intl_s_clock_still_an_error():
    assert found("const n = typeof navigator;\nconst d = 'Deno' in self;\nself.hasOwnProperty('Bun');\n") == [
        ("environment-probe", 1, 11), ("environment-probe", 2, 11), ("environment-probe", 3, 1)]
    # R30's Intl errors stand; the Intl use they are is not also reported as information
    source = "new Intl.DateTimeFormat().format();\nnew Intl.NumberFormat().resolvedOptions();\n"
    assert [(f.rule, f.severity) for f in lint_source(source)] == [("intl-clock", "error"), ("environment", "error")]


# A NUL is legal JavaScript in a string, a template, a regular expression and a comment, and nowhere
# else (V8 parses the first, refuses the second): #35.
NUL_LEGAL = ["var s = 'a\x00b';\n", 'var s = "\x00";\n', "var t = `a\x00${s}\x00`;\n", "var r = /[\x00]/;\n",
             "// \x00 line comment\nvar a = 1;\n", "/* \x00 block */ var a = 1;\n", "var s = '\\\x00';\n"]


@pytest.mark.parametrize("source", NUL_LEGAL, ids=range(len(NUL_LEGAL)))
def test_a_nul_in_a_literal_or_comment_parses(source):
    assert parse_ok(source) and lint_source(source) == []


def test_a_nul_in_code_is_a_syntax_error_quoted_as_it_is():
    [f] = lint_source("var a = 1;\x00\n")
    assert f.rule == "syntax" and "\x00" in f.message and (f.line, f.column) == (1, 11)
    assert not parse_ok("var a\x00b = 1;\n")


def test_severities_and_messages():
    [string_timer] = lint_source("setTimeout('x()', 1);")
    [timer] = lint_source("setTimeout(f, 1);")
    assert (string_timer.severity, timer.severity) == ("error", "warning")
    assert all(f.severity == RULES[f.rule][0] for f in lint_source(
        "Date.now(); setInterval(f); eval('x'); document.x;"))
    [f] = lint_source("Math.random = f;")
    assert "Math.random" in f.message
    [f] = lint_source("const t = performance.now();")
    assert "`performance`" in f.message
    [f] = lint_source("exports = {act() { return 'fold'; }};")
    assert "R28" in f.message and "module.exports" in f.message  # the worker refuses it at load too


def test_findings_sorted_by_position_and_frozen():
    findings = lint_source("fetch(1);\nconst t = Date.now(); eval('1');\nsetTimeout('a');\n")
    assert [(f.line, f.column) for f in findings] == [(1, 1), (2, 11), (2, 23), (3, 1)]
    assert [f.rule for f in findings] == ["network", "date", "eval", "string-timer"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        findings[0].line = 9
    assert Finding("eval", "error", "m", 1, 2) == Finding(
        rule="eval", severity="error", message="m", line=1, column=2)


def test_columns_count_code_points_and_ignore_bom():
    # "é" and "ü" are two bytes each in UTF-8; the column counts characters.
    assert found("\ufeffconst é = 'ü'; Date;\n  fetch();\n") == [("date", 1, 16), ("network", 2, 3)]


def test_parse_ok():
    assert parse_ok("module.exports = function act(state) { return 'fold'; };\n")
    assert not parse_ok("module.exports = function act(state) { return 'fold';\n")
    assert not parse_ok("const x = <b/>;")
    assert parse_ok("")


def test_rejects_bytes_naming_the_file():
    with pytest.raises(TypeError, match="bots/x.js"):
        lint_source(b"eval(1)", "bots/x.js")


# -- legitimate code is not flagged -------------------------------------------------

def contract_bots() -> list[str]:
    text = CONTRACT.read_text(encoding="utf-8")
    return [b for b in re.findall(r"```js\n(.*?)```", text, re.S) if "module.exports" in b]


@pytest.mark.skipif(not CONTRACT.is_file(), reason="../shared/contract is absent")
def test_contract_examples_are_clean():
    bots = contract_bots()
    assert len(bots) == 3  # two accepted export forms and the minimal complete bot
    for source in bots:
        assert parse_ok(source)
        assert lint_source(source) == []


RANDOM_BOT = """\
'use strict';

// Module-level memory persists across hands; Date.now() in a comment is not code.
const memory = { hands: 0, seen: new Map() };

function aggression(state) {
  const date = state.handNumber;       // a local called "date"
  const fetch = (key) => memory.seen.get(key);
  return fetch(date) || 0.5;
}

const bot = {
  name: 'Random Equity',
  fetch(state) { return state.you.cards; },  // a method called fetch
  act(state) {
    memory.hands += 1;
    const note = "uses Date, eval, fetch and performance only in a string";
    const crypto = state.crypto;               // a property, and a local
    const cards = this.fetch(state);
    const eq = PokerEngine.equity(state.you.cards, state.board, 2, 200, Math.random);
    if (Math.random() < eq * aggression(state) && state.minRaiseTo !== null) {
      return { type: 'raise', amount: state.minRaiseTo };
    }
    return state.canCheck ? 'check' : (eq > 0.4 ? 'call' : 'fold');
  },
};

module.exports = bot;
"""

SHADOWING = """\
function act(state, Date) {
  return Date.now();                     // a parameter named Date
}
function f() {
  try { g(); } catch (performance) { performance.x; }
  for (const document of []) document.title;
  [1].map((location) => location + 1);
  var crypto = 1; { crypto; }
  const self = this; self.fetch(); self.eval; self.postMessage(1);
  class Node {} new Node();
  switch (k) { case 1: let Promise = 1; Promise; }
  (function fetch() { fetch(); })();
  const { fetch: mine } = state;         // destructuring a plain object
  const setTimeout = (fn) => fn();
  setTimeout('not a real timer');
}
function eval2() {}
const obj = { eval: 1, Date: 2, fetch() {}, document: 3 };
obj.eval; obj.Date; state.crypto; x.performance.now(); o.postMessage(1); o.onmessage = f;
"""

ALLOWED_WRITES = """\
if (typeof module !== 'undefined' && module.exports) module.exports = bot;
module.exports.act = bot.act;
exports.name = 'X';
Object.assign(module.exports, { a: 1 });
Object.assign(exports, { b: 2 });
Object.defineProperty(module.exports, 'c', { value: 3 });
if (typeof window !== 'undefined') window.MyBot = bot;
self.myCache = new Map();
globalThis.botState = {};
Reflect.set(self, 'mine', 1);
const random = Math.random;
const state = {}; state.Math = 1; state.PokerEngine = 2;
function g(Math) { Math.random = f; }
"""

FEATURE_TESTS = """\
const hasPerf = typeof performance !== 'undefined';
const isNode = typeof require === 'function';
if (typeof Date === 'function' && typeof (window) === 'object') {}
const isFn = f instanceof Function;
const call = Function.prototype.call;
label: for (;;) { break label; }
"""


@pytest.mark.parametrize("source", [RANDOM_BOT, SHADOWING], ids=["random-bot", "shadowing"])
def test_legitimate_code_not_flagged(source):
    assert parse_ok(source)
    assert lint_source(source) == []


# Feature tests of non-worker globals are legitimate in a wrapper, so they are warnings (R30; issue
# #19: the contract forbids choosing actions by the environment, which a reviewer must check).
# `typeof window` is no probe any more (#35: the worker has window and self); the uses of window and
# self are information.
@pytest.mark.parametrize("source,probes,members", [
    (ALLOWED_WRITES, [], [(7, 12), (8, 1)]), (FEATURE_TESTS, [(1, 17), (2, 16)], [(3, 43)])],
    ids=["allowed-writes", "feature-tests"])
def test_legitimate_feature_tests_are_only_probe_warnings(source, probes, members):
    assert parse_ok(source)
    assert found(source) == [("environment-probe", line, column) for line, column in probes]
    assert infos(source) == [("worker-member", line, column) for line, column in members]
    assert all(f.severity in ("warning", "info") for f in lint_source(source))


LEGAL_BOT = """\
// Intl with fixed arguments, its own crypto-named values, typeof on contract globals.
const fmt = new Intl.NumberFormat('en-US');
const day = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC' });
const label = day.format(0) + fmt.format(1234.5);
const k = 'ran' + 'dom';
const rand = Math[k];
const g = globalThis;
g.myState = { hands: 0 };
function act(state) {
  const crypto = { pick: (n) => Math.floor(rand() * n) };
  const env = state.tournament;
  if (typeof PokerEngine === 'object' && typeof module !== 'undefined' && typeof state.crypto === 'undefined') {
    g.myState.hands += 1;
  }
  const performance = state.you.stack;
  return crypto.pick(2) && performance > env.startingStack ? 'check' : (state.canCheck ? 'check' : 'fold');
}
module.exports = { name: 'Legal', act };
"""


def test_a_legal_bot_using_intl_constants_and_an_alias_is_not_flagged():
    assert parse_ok(LEGAL_BOT) and found(LEGAL_BOT) == []
    assert infos(LEGAL_BOT) == [("worker-member", 2, 17)]  # Intl: information (R30)


def test_a_formatter_given_a_date_or_a_shadowed_undefined_reads_no_clock():
    source = ("const f = new Intl.DateTimeFormat('en', { timeZone: 'UTC' });\nf.format(state.t); f.formatToParts(0);\n"
              "function g(undefined) { return f.format(undefined); }\n")
    assert found(source) == []


def test_an_alias_is_only_followed_when_declared_once():
    # `g` is bound twice (a parameter elsewhere): which object it is is not statically visible.
    source = "const g = globalThis;\nfunction f(g) { return g.crypto; }\n"
    assert found(source) == []
    assert found("const g = globalThis;\nfunction f() { return g.crypto; }\n") == [("crypto", 2, 23)]


def test_shadowing_is_scoped():
    # The local Date in f does not hide the global one used in g; a block-scoped
    # let hides it only inside its block; var is hoisted to the whole function.
    source = ("function f() { const Date = 1; return Date; }\n"
              "function g() { return Date.now(); }\n"
              "function h() { { let Date = 1; } return Date; }\n"
              "function k() { Date; if (x) { var Date = 2; } }\n")
    assert found(source) == [("date", 2, 23), ("date", 3, 41)]


# -- bots of issue #19 (tests/bots/lint): clocks, entropy and the environment (R30) --------------
LINT_BOTS = Path(__file__).resolve().parent / "bots" / "lint"
# file -> the (rule, severity) findings it must get, exactly
LINT_BOT_FINDINGS = {
    "entropy-alias": [("crypto", "error")],
    "intl-clock": [("intl-clock", "error")],
    "timezone-sniff": [("environment", "error")],
    "host-sniff": [("environment-probe", "warning"), ("environment", "error")],
    "wrapper-probe": [("worker-member", "info")],  # typeof window is no probe any more (#35)
    "legal-intl": [("worker-member", "info")],
    "nul-in-literals": [],  # #35: a NUL in a string, template, regular expression or comment
    "worker-members": [("worker-member", "info")] * 7,
}


def test_every_lint_bot_has_an_expectation():
    assert {p.stem for p in LINT_BOTS.glob("*.js")} == set(LINT_BOT_FINDINGS)


@pytest.mark.parametrize("name", sorted(LINT_BOT_FINDINGS))
def test_lint_bots_get_exactly_their_findings(name):
    source = (LINT_BOTS / f"{name}.js").read_text(encoding="utf-8")
    assert [(f.rule, f.severity) for f in lint_source(source)] == LINT_BOT_FINDINGS[name]


@pytest.mark.parametrize("name", sorted(LINT_BOT_FINDINGS))
def test_bot_certification_rejects_exactly_the_lint_errors(name):
    from conformance.bots.bot_cert import CertOptions, certify_file
    report = certify_file(LINT_BOTS / f"{name}.js", CertOptions(generated_states=0, vector_states=3, smoke_seats=(), full_table_hands=0))
    errors = {(r.category, r.code) for r in report.reasons if r.severity == "error"}
    expected = {("static", rule) for rule, severity in LINT_BOT_FINDINGS[name] if severity == "error"}
    # (A hostile bot may also fail at run time: the bundled QuickJS has neither crypto nor Intl.)
    assert {e for e in errors if e[0] == "static"} == expected
    assert (report.verdict == "rejected") == bool(expected)
    if not expected:
        assert errors == set()
