"""Speed of the JavaScript helper engine (reference/js/poker-engine.js) inside QuickJS.

Prints, from one run in one QuickJS context: the engine's load time; 7-card
``PokerEngine.evaluate`` calls per second on the same deterministic random hands
for our engine and for pokersolver (npm, installed into a temporary folder at
bench time; reported as not available when npm or the registry is not); their
ratio against the goal (ours at least 100 times as many); and the median of
``PokerEngine.equity(hole, [], 8, 1000)`` in ms against its goal (at most 25 ms).
All times are CPU time of the process.

    python bench/bench_js_engine.py [--hands 200000] [--equity-runs 30]
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import quickjs

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "reference" / "js" / "poker-engine.js"
POKERSOLVER_DIR = Path(tempfile.gettempdir()) / "holdem-bench-pokersolver"
POKERSOLVER_SPEC = "pokersolver@^2.1.2"
CHUNK = 10_000  # hands per timed slice
RATIO_GOAL = 100  # evaluate: ours at least this many times as fast as pokersolver
EQUITY_GOAL_MS = 25  # equity(hole, [], 8, 1000): median at most this

# Hands are drawn inside QuickJS from PokerEngine.rng so both evaluators see the
# very same array objects; partial Fisher-Yates from the canonical deck.
MAKE_HANDS = """
var HANDS = (function (count) {
  var random = PokerEngine.rng('bench-js-engine'), out = new Array(count);
  for (var i = 0; i < count; i++) {
    var deck = PokerEngine.CANONICAL_DECK.slice();
    for (var k = 0; k < 7; k++) {
      var j = k + Math.floor(random() * (52 - k)), t = deck[k];
      deck[k] = deck[j]; deck[j] = t;
    }
    out[i] = deck.slice(0, 7);
  }
  return out;
})(%d);
function runOurs(from, to) {
  var evaluate = PokerEngine.evaluate, hands = HANDS, sum = 0;
  for (var i = from; i < to; i++) sum += evaluate(hands[i]).rank;
  return sum;
}
function runPokersolver(from, to) {
  var solve = POKERSOLVER.Hand.solve, hands = HANDS, sum = 0;
  for (var i = from; i < to; i++) sum += solve(hands[i]).rank;
  return sum;
}
function runEquity() { return PokerEngine.equity(['Ah', 'Kd'], [], 8, 1000); }
"""


def pokersolver_source() -> str | None:
    """pokersolver.js from a temporary npm prefix (installed once), or None."""
    script = POKERSOLVER_DIR / "node_modules" / "pokersolver" / "pokersolver.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            return None
        POKERSOLVER_DIR.mkdir(parents=True, exist_ok=True)
        # npm wants a package.json in the prefix; node_modules stays out of the repo.
        (POKERSOLVER_DIR / "package.json").write_text('{"private": true}\n')
        try:
            subprocess.run(
                [npm, "install", "--no-audit", "--no-fund", "--prefix", str(POKERSOLVER_DIR), POKERSOLVER_SPEC],
                capture_output=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if not script.exists():
            return None
    return script.read_text()


def timed(ctx: quickjs.Context, code: str) -> float:
    """CPU seconds of one eval: QuickJS runs on this thread, and CPU time is
    steadier than wall time on a shared machine."""
    start = time.process_time()
    ctx.eval(code)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="random 7-card hands (default 200000)")
    parser.add_argument("--equity-runs", type=int, default=30, help="equity calls timed (default 30)")
    args = parser.parse_args()

    ctx = quickjs.Context()
    load_ms = timed(ctx, ENGINE.read_text()) * 1000
    ctx.eval(MAKE_HANDS % args.hands)
    print(f"engine load in QuickJS: {load_ms:.1f} ms (version {ctx.eval('PokerEngine.version')})")

    source = pokersolver_source()
    if source is not None:
        # A CommonJS shim: pokersolver copies its classes onto `exports`.
        ctx.eval("var POKERSOLVER = (function () {\nvar module = { exports: {} }, exports = module.exports;\n"
                 + source + "\nreturn module.exports;\n})();")
    # Chunk by chunk, ours then theirs on the same hands, so that a change in
    # machine load weighs on both sides alike.
    ours = theirs = 0.0
    for start in range(0, args.hands, CHUNK):
        end = min(start + CHUNK, args.hands)
        ours += timed(ctx, f"runOurs({start}, {end})")
        if source is not None:
            theirs += timed(ctx, f"runPokersolver({start}, {end})")
    print(f"7-card evaluate, {args.hands} hands: ours {args.hands / ours:,.0f}/s")
    if source is None:
        print("pokersolver: not available")
    else:
        print(f"7-card evaluate, {args.hands} hands: pokersolver {args.hands / theirs:,.0f}/s")
        ratio = theirs / ours
        print(f"ratio ours / pokersolver: {ratio:.1f}x "
              f"(goal >= {RATIO_GOAL}x: {'met' if ratio >= RATIO_GOAL else 'NOT met'})")

    runs = [timed(ctx, "runEquity()") * 1000 for _ in range(args.equity_runs)]
    median = statistics.median(runs)
    print(f"equity(['Ah','Kd'], [], 8, 1000): median {median:.1f} ms "
          f"over {len(runs)} runs (min {min(runs):.1f}, max {max(runs):.1f}) "
          f"(goal <= {EQUITY_GOAL_MS} ms: {'met' if median <= EQUITY_GOAL_MS else 'NOT met'})")


if __name__ == "__main__":
    main()
