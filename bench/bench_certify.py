"""How long certification takes, this tree side by side with another (e.g. main before the step
judge): ``holdem-cert engine`` on the bundled engine and on ``python -m reference.adapter``, per
game family and whole, and ``holdem-cert certify`` (goal: about a minute). Medians of repeats,
and the ratio this tree / the other.

    python bench/bench_certify.py --other /work/main [--repeats 3] [--full] [--certify]

Each run is a fresh process with PYTHONPATH set to the tree measured, so both trees' code runs
as it would be installed. Wall times on a shared machine vary: compare the ratios.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
ENGINE = "reference/js/poker-engine.js"
GAMES = ["legality", "hands", "tournaments"]


def timed(tree: Path, args: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "conformance", *args], cwd=tree, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def runs(full: bool, include_certify: bool) -> list[tuple[str, list[str]]]:
    families = [a for f in GAMES for a in ("--family", f)]
    out = [
        ("engine: legality+hands+tournaments (JS)", ["engine", ENGINE, *families, "--no-fresh"]),
        ("engine: sng3v4 (JS)", ["engine", ENGINE, "--ruleset", "holdem-sng-3-v4", "--family", "sng3v4", "--no-fresh"]),
        ("engine: legality+hands+tournaments (--cmd)",
         ["engine", "--cmd", f"{sys.executable} -m reference.adapter", *families, "--no-fresh"]),
    ]
    if full:  # every family, the five-card digest included: long
        out.append(("engine: every family with fresh tests (JS)", ["engine", ENGINE]))
    if include_certify:
        report = tempfile.mkdtemp(prefix="bench-certify-")
        out.append(("certify (default roster)", ["certify", "--report", report]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, required=True, help="the tree to compare with (e.g. /work/main)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--full", action="store_true", help="also time a whole holdem-cert engine run")
    parser.add_argument("--certify", action="store_true", help="also time holdem-cert certify")
    args = parser.parse_args()
    print(f"{'run':46} {'this':>8} {'other':>8} {'ratio':>6}   (median of {args.repeats}, seconds)")
    for name, command in runs(args.full, args.certify):
        mine, other = [], []
        for _ in range(args.repeats):  # interleaved, so load changes hit both alike
            mine.append(timed(HERE, command))
            other.append(timed(args.other, command))
        a, b = statistics.median(mine), statistics.median(other)
        print(f"{name:46} {a:8.1f} {b:8.1f} {a / b:6.2f}")


if __name__ == "__main__":
    main()
