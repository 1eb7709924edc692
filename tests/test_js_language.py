"""The JavaScript a bot may use: what the worker's engine (quickjs-ng) runs, probed in a worker.

Browsers' workers run ES2023 and ES2024; so does the worker here (README, "Bots"). Each feature is run in a
real worker process, as a bot's code runs, and must give the stated result. What the worker lacks
is asserted absent, so the README's list stays true.
"""
from __future__ import annotations

import pytest

from conformance.host.bot_host import BotHost
from conformance.host.node_runtime import find_node
from conformance.host.worker import UNDEFINED, Worker

# name -> the body of a function that returns true when the feature works as specified.
FEATURES = {
    # ES2019
    "Array.prototype.flat/flatMap": "return [1, [2, [3]]].flat(Infinity).join() === '1,2,3' && [1, 2].flatMap(x => [x, x]).length === 4;",
    "Object.fromEntries": "return Object.fromEntries([['a', 1]]).a === 1;",
    "String.prototype.trimStart/trimEnd": "return ' a '.trimStart() === 'a ' && ' a '.trimEnd() === ' a';",
    "optional catch binding": "try { throw 1; } catch { return true; }",
    "Symbol.prototype.description": "return Symbol('d').description === 'd';",
    # ES2020
    "BigInt": "return (2n ** 64n).toString() === '18446744073709551616' && typeof 1n === 'bigint' && BigInt.asUintN(8, 257n) === 1n;",
    "globalThis": "return globalThis === self && globalThis.Math === Math;",
    "optional chaining": "const o = {a: {b: () => 5}}; return o?.a?.b?.() === 5 && o.x?.y === undefined && o.x?.() === undefined;",
    "nullish coalescing": "return (null ?? 'd') === 'd' && (0 ?? 'd') === 0;",
    "String.prototype.matchAll": "return [...'a1b2'.matchAll(/\\d/g)].map(m => m[0]).join() === '1,2';",
    "Promise.allSettled": "return typeof Promise.allSettled === 'function';",
    # ES2021
    "String.prototype.replaceAll": "return 'a.b.c'.replaceAll('.', '-') === 'a-b-c';",
    "logical assignment": "let a = null, b = 1, c = 0; a ??= 2; b &&= 3; c ||= 4; return a === 2 && b === 3 && c === 4;",
    "numeric separators": "return 1_000_000 === 1e6 && 0xFF_FF === 65535;",
    "Promise.any and AggregateError": "return typeof Promise.any === 'function' && new AggregateError([1], 'm').errors[0] === 1;",
    "WeakRef and FinalizationRegistry": "const o = {}; return new WeakRef(o).deref() === o && typeof FinalizationRegistry === 'function';",
    # ES2022
    "Array/String/TypedArray.prototype.at": "return [1, 2, 3].at(-1) === 3 && 'abc'.at(-1) === 'c' && new Int8Array([4, 5]).at(-2) === 4;",
    "Object.hasOwn": "return Object.hasOwn({a: 1}, 'a') && !Object.hasOwn({}, 'toString');",
    "class fields and static fields": "class A { x = 1; static y = 2; } return new A().x === 1 && A.y === 2;",
    "a static field referring to its own class": "class C { static self = C; static n = C.name; } return C.self === C && C.n === 'C';",
    "private fields and methods": "class P { #x = 4; #double() { return this.#x * 2; } get v() { return this.#double(); } } return new P().v === 8;",
    "private static fields and methods": "class S { static #n = 3; static #twice() { return S.#n * 2; } static get() { return S.#twice(); } } return S.get() === 6;",
    "`#x in obj`": "class B { #x; static is(o) { return #x in o; } } return B.is(new B()) && !B.is({});",
    "class static blocks": "class K { static v; static { K.v = 7; } } return K.v === 7;",
    "regexp match indices (d flag)": "const m = /b(?<c>c)/d.exec('abc'); return m.indices[0][0] === 1 && m.indices.groups.c[0] === 2;",
    "Error cause": "return new Error('m', {cause: 'why'}).cause === 'why' && new TypeError('t', {cause: 1}).cause === 1;",
    # ES2023
    "Array.prototype.findLast/findLastIndex": "return [1, 2, 3, 4].findLast(x => x % 2) === 3 && [1, 2, 3, 4].findLastIndex(x => x % 2) === 2;",
    "change array by copy (toSorted/toReversed/toSpliced/with)": (
        "const a = [3, 1, 2]; return a.toSorted().join() === '1,2,3' && a.toReversed().join() === '2,1,3' && "
        "a.toSpliced(1, 1).join() === '3,2' && a.with(0, 9).join() === '9,1,2' && a.join() === '3,1,2' && "
        "new Int8Array([2, 1]).toSorted()[0] === 1;"),
    "symbols as WeakMap keys": "const s = Symbol('k'); return new WeakMap([[s, 1]]).get(s) === 1;",
    # ES2024
    "Object.groupBy and Map.groupBy": "return Object.groupBy([1, 2, 3], x => x % 2 ? 'odd' : 'even').odd.length === 2 && Map.groupBy([1], x => x).get(1)[0] === 1;",
    "Promise.withResolvers": "return typeof Promise.withResolvers().resolve === 'function';",
    "regexp v flag": "return /[\\p{L}--[a-z]]/v.test('A') && !/[\\p{L}--[a-z]]/v.test('a');",
    "String.prototype.isWellFormed/toWellFormed": "return 'a'.isWellFormed() && !'\\ud800'.isWellFormed() && '\\ud800'.toWellFormed() === '\\ufffd';",
    "resizable ArrayBuffer": "const b = new ArrayBuffer(2, {maxByteLength: 8}); b.resize(8); return b.byteLength === 8;",
    # Earlier ones a bot leans on
    "generators and iterators": "function* g() { yield 1; yield 2; } return [...g()].join() === '1,2';",
    "destructuring, spread and rest": "const {a, ...r} = {a: 1, b: 2, c: 3}; const [x, , ...y] = [1, 2, 3, 4]; return a === 1 && Object.keys(r).length === 2 && y.length === 2 && x === 1;",
    "Map, Set and typed arrays": "return new Map([[1, 2]]).get(1) === 2 && new Set([1, 1]).size === 1 && new Uint32Array(2).length === 2;",
    "tagged templates and String.raw": "return String.raw`a\\n${1}` === 'a\\\\n1';",
    "regexp named groups, lookbehind, dotAll and unicode property escapes": (
        "return /(?<y>\\d{4})/.exec('in 2024').groups.y === '2024' && /(?<=\\$)\\d+/.exec('$42')[0] === '42' && "
        "/a.b/s.test('a\\nb') && /\\p{Lu}/u.test('A');"),
    "Array.prototype.includes and exponentiation": "return [NaN].includes(NaN) && 2 ** 10 === 1024;",
    "Object.entries/values and padStart": "return Object.entries({a: 1})[0][0] === 'a' && Object.values({a: 1})[0] === 1 && '7'.padStart(3, '0') === '007';",
}

# Browser worker globals the worker does not have. Timers are refused by the contract (no
# background work); the worker reports them as violations (tests/test_host.py).
# A browser's worker has structuredClone, Intl, crypto, fetch, performance and importScripts: the bot's
# worker has them too, the forbidden ones as guards (R39, tests/test_bot_worker_globals.py).
ABSENT = ["require", "process", "Buffer", "global", "XMLHttpRequest", "document"]


NODE = find_node()


@pytest.fixture(scope="module", params=["quickjs", pytest.param("node", marks=pytest.mark.skipif(
    NODE is None, reason="no node 20 or later here"))])
def worker(request):
    """A bot's worker on each host (issue #35): V8 offers at least what the QuickJS worker offers."""
    with BotHost(request.param, NODE if request.param == "node" else None).worker() as w:
        assert w.start(None, "module.exports = function act() { return 'fold'; };", 1).ok
        yield w


@pytest.mark.parametrize("name", FEATURES)
def test_the_worker_runs_es2024(worker, name):
    out = worker.eval_fn(f"function () {{ {FEATURES[name]} }}")
    assert (out.kind, out.answer) == ("ok", True), (name, out)


@pytest.mark.parametrize("name", ABSENT)
def test_what_the_worker_does_not_have(worker, name):
    out = worker.eval_fn(f"function () {{ return typeof globalThis[{name!r}]; }}")
    assert (out.kind, out.answer) == ("ok", "undefined")


@pytest.mark.parametrize("engine", [None, "#!/usr/bin/env node\nvar CHECK = 'check';"])
def test_a_hashbang_line_starts_a_script_or_the_engine(engine):
    with Worker() as w:
        out = w.start(engine, "#!/usr/bin/env node\nmodule.exports = () => globalThis.CHECK ?? 'check';", 1)
        assert out.ok, out
        assert w.act({}).answer == "check"
