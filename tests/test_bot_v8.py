"""V8 timing in the QuickJS worker's language (#26 item 1): node's worker offers the builtins the QuickJS
worker offers (core-js's modules, conformance/host/node_polyfill.py), probed on both sides; a bot using
each of them is timed in V8; a throw is never a decision time ("cannot time in V8", R33)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.bots import bot_timing
from conformance.bots.bot_cert import CertOptions, certify_file
from conformance.harness.runner import bundled_engine
from conformance.host import node_polyfill
from conformance.host.node_timing import NodeBot, find_node
from conformance.host.worker import Worker
from reference.tournament import Tournament

ROOT = Path(__file__).resolve().parent.parent
V8 = ROOT / "tests" / "bots" / "v8"
NODE = find_node()
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")
STATE = Tournament(["A", "B", "C"], seed=1).decision_state()

# Every own key of the standard constructors and namespaces (the global object's capitalised names), of
# their prototypes and of the hidden iterator prototypes; well-known symbols by their Symbol name (node 20
# describes Symbol.dispose as "nodejs.dispose").
PROBE = r"""function () {
  var G = globalThis, out = [], wellKnown = new Map();
  Object.getOwnPropertyNames(Symbol).forEach(function (n) { if (typeof Symbol[n] === 'symbol') wellKnown.set(Symbol[n], '@@' + n); });
  function key(k) { return typeof k === 'symbol' ? '[' + (wellKnown.get(k) || String(k)) + ']' : k; }
  function list(obj, label) { Reflect.ownKeys(obj).forEach(function (k) { out.push(label + '.' + key(k)); }); }
  Object.getOwnPropertyNames(G).sort().forEach(function (n) {
    if (!/^[A-Z]/.test(n)) return;
    var d = Object.getOwnPropertyDescriptor(G, n), v = d.value;
    out.push(n);
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return;
    list(v, n);
    var p = Object.getOwnPropertyDescriptor(v, 'prototype');
    if (p && p.value && typeof p.value === 'object') list(p.value, n + '.prototype');
  });
  var arrayIterator = Object.getPrototypeOf([][Symbol.iterator]());
  list(Object.getPrototypeOf(arrayIterator), '%IteratorPrototype%');
  list(Object.getPrototypeOf(Int8Array), '%TypedArray%');
  list(Object.getPrototypeOf(Int8Array).prototype, '%TypedArray%.prototype');
  return out;
}"""


def _quickjs_names() -> set[str]:
    with Worker() as worker:
        assert worker.start(bundled_engine(), "module.exports = () => 'fold';", 1).ok
        out = worker.eval_fn(PROBE)
    assert out.ok, out.error
    return set(out.answer)


def _node_missing(quickjs: set[str], polyfill: bool) -> tuple[str, str]:
    """What node's worker lacks of ``quickjs``, outside NOT_OFFERED (the bot's answer, cut at 100
    characters), and what node loaded first."""
    bot = (f"var PROBE = ({PROBE}); var WANTED = {json.dumps(sorted(quickjs))}; "
           f"var EXEMPT = {json.dumps(node_polyfill.NOT_OFFERED)};"
           "module.exports = function () { var have = new Set(PROBE()); return JSON.stringify(WANTED.filter(function (n) {"
           " return !have.has(n) && !EXEMPT.some(function (e) { return n === e || n.indexOf(e + '.') === 0; }); })); };")
    with NodeBot(NODE) as node:
        assert node.start(bundled_engine(), bot, 1, 20_000, polyfill=polyfill).kind == "ok"
        out = node.act(STATE, 20_000)
    assert out.kind == "ok", out
    return out.answer, node.polyfill


@pytest.fixture(scope="module")
def quickjs_names() -> set[str]:
    return _quickjs_names()


@needs_node
def test_core_js_is_installed_by_the_project_itself():
    package, note = node_polyfill.resolve()
    assert package is not None, note  # npm install into the cache when absent (the registry is reachable)
    assert note == f"core-js {node_polyfill.VERSION}"


@needs_node
def test_node_s_worker_offers_every_builtin_of_the_quickjs_worker(quickjs_names):
    missing, polyfill = _node_missing(quickjs_names, polyfill=True)
    assert missing == "[]" and polyfill == f"core-js {node_polyfill.VERSION}", missing
    # without it node 20 lacks them (what the issue found): the probe is not vacuous
    bare, _ = _node_missing(quickjs_names, polyfill=False)
    assert "Object.groupBy" in bare or "Map.groupBy" in bare or "Iterator" in bare, bare


@needs_node
def test_the_polyfill_replaces_no_builtin_node_has():
    """core-js keeps node's own implementations (loading all of core-js/es would replace
    Array.prototype.push and JSON.parse by JavaScript ones and change what is timed)."""
    names = ["Array.prototype.push", "Array.prototype.sort", "JSON.parse", "JSON.stringify", "Function.prototype.toString",
             "Object.keys", "Math.max", "Map.prototype.get", "Set.prototype.has", "Array.prototype.toSorted"]
    probe = ("var REFS = {}; var NAMES = " + json.dumps(names) + ";"
             "function at(n) { return n.split('.').reduce(function (o, k) { return o[k]; }, globalThis); }"
             "module.exports = function () { return NAMES.filter(function (n) {"
             " return !/\\[native code\\]/.test(Function.prototype.toString.call(at(n))); }).join(); };")
    with NodeBot(NODE) as node:
        assert node.start(bundled_engine(), probe, 1, 20_000).kind == "ok"
        out = node.act(STATE, 5000)
    assert out.kind == "ok" and out.answer == "", out  # every one is still native code


@needs_node
def test_a_bot_using_each_es2024_builtin_is_timed_in_v8_not_thrown():
    source = (V8 / "es2024-builtins.js").read_text(encoding="utf-8")
    with Worker() as worker:
        assert worker.start(bundled_engine(), source, 1).ok
        assert worker.act(STATE).ok  # QuickJS has them all
    with NodeBot(NODE) as node:
        assert node.start(bundled_engine(), source, 1, 20_000).kind == "ok"
        out = node.act(STATE, 5000)
    assert out.kind == "ok" and out.answer == "fold", out
    with NodeBot(NODE) as node:  # node alone: the bot throws, and node says so (no fast "answer")
        assert node.start(bundled_engine(), source, 1, 20_000, polyfill=False).kind == "ok"
        out = node.act(STATE, 5000)
    # node 20 lacks Object.groupBy, node 24 Math.sumPrecise (and more): the bot names what is missing
    assert out.kind == "threw" and ("Object.groupBy" in out.message or "Math.sumPrecise" in out.message), out


def test_a_throw_in_v8_where_quickjs_answered_is_not_a_time():
    runs = bot_timing._NodeRuns((0.3, 0.2, 0.2), 4, "TypeError: Object.groupBy is not a function", None, node_polyfill.LOADED)
    assert "threw in V8" in bot_timing._untimed(runs, quickjs_threw=0)
    assert bot_timing._untimed(runs, quickjs_threw=bot_timing.REPEATS) is None  # throws everywhere: its time
    answered = bot_timing._NodeRuns((0.3, 0.2, 0.2), 0, "", None, node_polyfill.LOADED)
    assert "answered in V8 where it threw in QuickJS" in bot_timing._untimed(answered, quickjs_threw=1)
    assert bot_timing._untimed(answered, quickjs_threw=0) is None
    failed = bot_timing._NodeRuns((), 0, "", "load: boom", node_polyfill.LOADED)
    assert bot_timing._untimed(failed, 0) == "load: boom"


GROUPBY = dict(host="quickjs", decision_ms=200, init_ms=5000, generated_states=0, kind_states=1, vector_states=6, smoke_seats=(2,),
               smoke_max_hands=2, full_table_hands=0)


@needs_node
def test_the_slow_groupby_bot_is_rejected_as_late():
    report = certify_file(V8 / "groupby-slow-at-nine.js", CertOptions(**GROUPBY))
    codes = {(r.severity, r.category, r.code) for r in report.reasons}
    assert report.verdict == "rejected" and ("error", "timing", "late") in codes, [r.to_json() for r in report.reasons]
    late = [t for t in report.timing["retimed"] if t["verdict"] == "late"]
    assert late and "nodeError" not in late[0] and late[0]["nodeMs"] is not None  # V8 timed it: late there too
    assert report.timing["nodeBattery"]["polyfill"] == f"core-js {node_polyfill.VERSION}"


@needs_node
def test_without_the_polyfill_the_slow_groupby_bot_is_not_timed_by_its_throw(monkeypatch):
    monkeypatch.setattr(node_polyfill, "resolve", lambda: (None, "core-js withheld by the test"))
    report = certify_file(V8 / "groupby-slow-at-nine.js", CertOptions(**GROUPBY))
    reasons = {(r.severity, r.category, r.code): r for r in report.reasons}
    assert report.verdict == "rejected", [r.to_json() for r in report.reasons]
    assert ("error", "timing", "late") in reasons  # the QuickJS rule: killed at 2.5 x D of CPU time
    warning = reasons[("warning", "timing", "cannot-time-in-v8")]
    lacking = "Object.groupBy" if "Object.groupBy" in warning.message else "Math.sumPrecise"  # node 20 or 24
    assert "cannot time in V8" in warning.message and lacking in warning.message, warning.message
    assert "core-js withheld" in warning.message
    retimed = report.timing["retimed"][0]
    assert retimed["nodeMs"] is None and lacking in retimed["nodeError"]


def test_install_runs_npm_into_the_cache_when_absent(tmp_path, monkeypatch, capsys):
    """A stand-in npm on PATH: called with the pinned version into CACHE/core-js-VERSION, said on stderr."""
    import stat
    import sys

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    modules = " ".join(node_polyfill.MODULES)
    npm.write_text("#!/bin/sh\n"  # npm install --prefix DIR ... core-js@VERSION
                   'echo "$@" > "$3/args"; d="$3/node_modules/core-js"; mkdir -p "$d/modules"\n'
                   f"for m in {modules}; do : > \"$d/modules/$m.js\"; done\n"
                   f"echo '{{\"version\": \"{node_polyfill.VERSION}\"}}' > \"$d/package.json\"\n")
    npm.chmod(npm.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")  # the stand-in first
    package, note = node_polyfill.install(tmp_path / "cache", log=sys.stderr)
    assert package == node_polyfill.package_dir(tmp_path / "cache") and note == node_polyfill.LOADED
    args = (node_polyfill.prefix(tmp_path / "cache") / "args").read_text()
    assert f"core-js@{node_polyfill.VERSION}" in args and "--ignore-scripts" in args
    assert "installing core-js" in capsys.readouterr().err
    assert node_polyfill.install(tmp_path / "cache") == (package, note)  # there now: npm is not called again
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    package, note = node_polyfill.install(tmp_path / "other")
    assert package is None and "npm is not on PATH" in note
