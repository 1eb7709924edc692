"""Time of ``holdem-cert bot`` against an older tree of the suite, side by side in one run (issue #25).

    python bench/bench_bot_cert.py --base /work/wt/base-1df4dca [--base OTHER]... [--repeats 3]
        [--cases typical,late] [--timeout 300]

Each case is one ``holdem-cert bot FILE [ARGS]`` command, run as a subprocess with PYTHONPATH (and
the working directory) at this tree and at ``--base``, alternating, ``--repeats`` times (the slow
cases once: ``SLOW``); the median wall time and CPU time (the command and every process it waited
for: QuickJS workers, node) of each, the ratio, and each side's verdict. A side still running after
``--timeout`` seconds is killed and shown as ``>TIMEOUT``. The bot files are this tree's (the base
runs them too). Cases:

- ``typical``: bots/equity-bot.js, the defaults (the issue's 15 s);
- ``passive``: tests/bots/good/passive.js (checks and calls): the full-length table's longest case;
- ``late``: tests/bots/bad/act-loop.js, late on every decision;
- ``at-risk-nine``: tests/bots/timing/slow-at-nine.js with an 80 ms deadline: killed on every
  nine-seat state in QuickJS, at risk (not late) when re-timed -- the issue's bot "late at nine
  seats" at a tenth of the scale (201 of the battery's 1171 states have nine seats).
"""
from __future__ import annotations

import argparse
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = {
    "typical": ["bots/equity-bot.js"],
    "passive": ["tests/bots/good/passive.js"],
    "late": ["tests/bots/bad/act-loop.js"],
    "at-risk-nine": ["tests/bots/timing/slow-at-nine.js", "--decision-ms", "80"],
}
SLOW = {"passive", "late", "at-risk-nine"}  # run once per side: minutes on the old tree


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(tree: Path, args: list[str], timeout: float) -> tuple[float, float, str]:
    """(wall s, CPU s, verdict) of ``holdem-cert bot`` from ``tree``; the verdict is the first line."""
    argv = [str(ROOT / args[0]) if i == 0 else a for i, a in enumerate(args)]
    env = dict(os.environ, PYTHONPATH=str(tree))
    cpu0, t0 = children_cpu(), time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "conformance", "bot", *argv, "--quiet"], cwd=tree, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        verdict = out.splitlines()[0].rpartition(": ")[2] if out else f"exit {proc.returncode}"
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        verdict = f"none within {timeout:g} s"
    return time.perf_counter() - t0, children_cpu() - cpu0, verdict


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, action="append", required=True,
                        help="an older tree (a git worktree); repeat it to time several in the same run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of {', '.join(CASES)}")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per run (default 300)")
    args = parser.parse_args()
    bases = [b.resolve() for b in args.base]
    trees = {**{f"base{k + 1}" if len(bases) > 1 else "base": b for k, b in enumerate(bases)}, "this": ROOT}
    print("   ".join(f"{side}: {tree}" for side, tree in trees.items()) + f"   timeout {args.timeout:g} s")
    for case in args.cases.split(","):
        repeats = 1 if case in SLOW else args.repeats
        samples: dict[str, list[tuple[float, float, str]]] = {side: [] for side in trees}
        for _ in range(repeats):
            for side, tree in trees.items():  # taking turns, so that load changes hit every side alike
                samples[side].append(run(tree, CASES[case], args.timeout))
        med = {side: (statistics.median(w for w, _, _ in s), statistics.median(c for _, c, _ in s), s[-1][2])
               for side, s in samples.items()}
        tw, tc, tv = med["this"]
        for side in trees:
            if side == "this":
                continue
            bw, bc, bv = med[side]
            over = bv.startswith("none within")
            base_wall = f">{bw:.0f}" if over else f"{bw:.1f}"
            print(f"{case:14s} {side:6s} wall {base_wall:>6s} s, this {tw:6.1f} s: {'>' if over else ''}{bw / tw:.2f}x; "
                  f"cpu {bc:6.1f} s, this {tc:6.1f} s: {bc / tc:.2f}x;  verdicts {bv} / {tv}   "
                  f"(median of {repeats}; walls {side} {', '.join(f'{w:.1f}' for w, _, _ in samples[side])}, "
                  f"this {', '.join(f'{w:.1f}' for w, _, _ in samples['this'])})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
