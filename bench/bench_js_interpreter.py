"""Basic interpreter work in the installed QuickJS binding: ms per million iterations of small
loops (CPU time, best of 3), to tell a binding's build from the code it runs.

    python bench/bench_js_interpreter.py

Each loop does one kind of work: a property read by a string key from a prototype-less object
(as PokerEngine's card lookup), typed-array and array reads, integer bit operations, object
literals, small arrays, function calls and `typeof` checks.
"""
from __future__ import annotations

import time

import quickjs

LOOPS = """
var KEY = Object.create(null), DECK = [];
'cdhs'.split('').forEach(function (s) {
  '23456789TJQKA'.split('').forEach(function (r) { DECK.push(r + s); KEY[r + s] = DECK.length; });
});
var T = new Int32Array(4096), A = [];
for (var i = 0; i < 4096; i++) A.push(i);
var cards = ['Ah', 'Kd', '7c', '2s', '9h', 'Td', '3c'];
function f3(a, b, c) { return a + b + c; }
var LOOPS = {
  'string-key read': function (n) { var s = 0; for (var i = 0; i < n; i++) s += KEY[cards[i % 7]]; return s; },
  'typed-array read': function (n) { var s = 0; for (var i = 0; i < n; i++) s += T[i & 4095]; return s; },
  'array read': function (n) { var s = 0; for (var i = 0; i < n; i++) s += A[i & 4095]; return s; },
  'integer bit operations': function (n) { var s = 0; for (var i = 0; i < n; i++) s = (s ^ (i << 3) | (i >>> 2)) & 0x1FFF; return s; },
  'object literal': function (n) { var o; for (var i = 0; i < n; i++) o = {rank: 1, value: i, name: 'x', best: null}; return o; },
  'array of five': function (n) { var b; for (var i = 0; i < n; i++) { b = []; b.push(1, 2, 3, 4, 5); } return b; },
  'function call': function (n) { var s = 0; for (var i = 0; i < n; i++) s += f3(i, 1, 2); return s; },
  'typeof check': function (n) { var s = 0; for (var i = 0; i < n; i++) if (typeof cards[i % 7] === 'string') s++; return s; },
};
"""
ITERATIONS = 1_000_000


def main() -> None:
    ctx = quickjs.Context()
    ctx.eval(LOOPS)
    for name in ctx.eval("JSON.stringify(Object.keys(LOOPS))").strip("[]").replace('"', "").split(","):
        loop = ctx.eval(f"LOOPS[{name!r}]")
        best = float("inf")
        for _ in range(3):
            t0 = time.process_time()
            loop(ITERATIONS)
            best = min(best, time.process_time() - t0)
        print(f"{name:<24} {best * 1000:8.1f} ms per million")


if __name__ == "__main__":
    main()
