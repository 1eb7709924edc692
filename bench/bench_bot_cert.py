"""Time of ``holdem-cert bot`` against an older tree of the suite, side by side in one run (issues #25, #35).

    python bench/bench_bot_cert.py --base /tmp/base-1df4dca [--base OTHER]... [--repeats 3]
        [--cases typical,twenty-ms] [--timeout 300] [--hosts node,quickjs]

Each case is one ``holdem-cert bot FILE [ARGS]`` command, run as a subprocess with PYTHONPATH (and
the working directory) at this tree -- once per bot host of ``--hosts`` (``--host node``, V8, and
``--host quickjs``) -- and at each ``--base`` (its own default host), alternating, ``--repeats``
times (the slow cases once: ``SLOW``); the median wall time and CPU time (the command and every
process it waited for: QuickJS workers, node) of each, the ratio of each other side to this tree's
first host, and each side's verdict. A side still running after ``--timeout`` seconds is killed and
shown as ``>TIMEOUT``. The bot files are this tree's (the base runs them too). A base is a plain copy
of an older commit: ``git archive 1df4dca | tar -x -C /tmp/base-1df4dca``. Cases:

- ``typical``: bots/equity-bot.js, the defaults (the issue's 15 s);
- ``house``: the four house samples one after the other (bots/*.js), the defaults;
- ``twenty-ms``: tests/bots/timing/twenty-ms-quickjs.js, about 20 ms a decision in QuickJS (1-2 in V8);
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
    "twenty-ms": ["tests/bots/timing/twenty-ms-quickjs.js"],
    "check-fold": ["bots/check-fold.js"],
    "sample-caller": ["bots/sample-caller.js"],
    "sample-tight": ["bots/sample-tight.js"],
    "passive": ["tests/bots/good/passive.js"],
    "late": ["tests/bots/bad/act-loop.js"],
    "at-risk-nine": ["tests/bots/timing/slow-at-nine.js", "--decision-ms", "80"],
}
SLOW = {"passive", "late", "at-risk-nine"}  # run once per side: minutes on the old tree
GROUPS = {"house": ["check-fold", "sample-caller", "sample-tight", "typical"]}  # a name for several cases


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(tree: Path, args: list[str], timeout: float, host: str | None = None) -> tuple[float, float, str]:
    """(wall s, CPU s, verdict) of ``holdem-cert bot`` from ``tree`` (``--host host`` when given); the
    verdict is the first line."""
    argv = [str(ROOT / args[0]) if i == 0 else a for i, a in enumerate(args)] + (["--host", host] if host else [])
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
    parser.add_argument("--cases", default="house,twenty-ms",
                        help=f"comma-separated, of {', '.join([*CASES, *GROUPS])} (default house,twenty-ms)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per run (default 300)")
    parser.add_argument("--hosts", default="node,quickjs",
                        help="this tree's bot hosts, each a side (default node,quickjs; the first is the reference)")
    args = parser.parse_args()
    bases = [b.resolve() for b in args.base]
    # side -> (tree, --host or None)
    trees = {**{f"this-{h}": (ROOT, h) for h in args.hosts.split(",")},
             **{f"base{k + 1}" if len(bases) > 1 else "base": (b, None) for k, b in enumerate(bases)}}
    this = next(iter(trees))
    print("   ".join(f"{side}: {tree}{' --host ' + h if h else ''}" for side, (tree, h) in trees.items())
          + f"   timeout {args.timeout:g} s")
    cases = [c for name in args.cases.split(",") for c in GROUPS.get(name, [name])]
    for case in cases:
        repeats = 1 if case in SLOW else args.repeats
        samples: dict[str, list[tuple[float, float, str]]] = {side: [] for side in trees}
        for _ in range(repeats):
            for side, (tree, host) in trees.items():  # taking turns, so that load changes hit every side alike
                samples[side].append(run(tree, CASES[case], args.timeout, host))
        med = {side: (statistics.median(w for w, _, _ in s), statistics.median(c for _, c, _ in s), s[-1][2])
               for side, s in samples.items()}
        tw, tc, tv = med[this]
        print(f"{case:14s} {this:12s} wall {tw:6.1f} s, cpu {tc:6.1f} s, verdict {tv}   (median of {repeats}: "
              f"{', '.join(f'{w:.1f}' for w, _, _ in samples[this])})", flush=True)
        for side in trees:
            if side == this:
                continue
            bw, bc, bv = med[side]
            over = bv.startswith("none within")
            base_wall = f">{bw:.0f}" if over else f"{bw:.1f}"
            print(f"{case:14s} {side:12s} wall {base_wall:>6s} s: {'>' if over else ''}{bw / tw:.2f}x {this}'s; "
                  f"cpu {bc:6.1f} s: {bc / tc:.2f}x;  verdict {bv}   "
                  f"(median of {repeats}: {', '.join(f'{w:.1f}' for w, _, _ in samples[side])})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
