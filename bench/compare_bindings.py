"""The suite's speed on QuickJS bindings, side by side: the same measurements, each run in its
own Python and checkout, repeated; medians, and ratios to the first side.

    python bench/compare_bindings.py LABEL=PYTHON:CHECKOUT LABEL=PYTHON:CHECKOUT... [--repeats 3]

e.g. ``old=/usr/bin/python3:/work/base ng=/work/venv-ng/bin/python:.`` compares the 2021 QuickJS
of the PyPI ``quickjs`` package (a checkout from before the move) with ``quickjs-ng``. Each
measurement is a fresh process with ``PYTHONPATH`` set to its checkout; the sides take turns, so
a change in the machine's load falls on all of them. Measured:

- basic interpreter work: ``bench/bench_js_interpreter.py`` (ms per million loop iterations);
- JS evaluate: ``bench/bench_js_engine.py`` (7-card ``PokerEngine.evaluate`` per second, the
  ratio to pokersolver in the same engine, and the median of an 8-player 1000-sample equity);
- worker start-up and round trip: ``bench/bench_host.py``;
- runner overhead: ``bench/bench_runner.py`` (median of the whole decision loop and of the worker
  round trip, trivial bots);
- bot certification: ``holdem-cert bot`` on a house bot;
- engine certification: ``holdem-cert engine`` on the reference engine, fixed fresh seed.

The certifications are timed by wall clock and by CPU time of the whole process tree (the
workers included), which another program on the machine disturbs less.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Side:
    label: str
    python: str
    checkout: Path


@dataclass(frozen=True)
class Measure:
    """A command (arguments after the interpreter) and the numbers read from what it prints."""

    name: str
    args: tuple[str, ...]
    patterns: dict  # number name -> regex with one group (a number, commas allowed)


MEASURES = (
    Measure("js-engine", ("bench/bench_js_engine.py",), {
        "evaluate per s": r"evaluate, \d+ hands: ours ([\d,]+)/s",
        "ratio to pokersolver": r"ratio ours / pokersolver: ([\d.]+)x",
        "equity ms (median)": r"equity\(.*\): median ([\d.]+) ms",
    }),
    Measure("interpreter", ("bench/bench_js_interpreter.py",), {
        f"{work} ms per million": rf"{work}\s+([\d.]+) ms per million"
        for work in ("string-key read", "typed-array read", "integer bit operations", "object literal", "function call")
    }),
    Measure("host", ("bench/bench_host.py",), {
        "worker spawn to ready ms (median)": r"spawn to ready\s+median\s+([\d.]+)",
        "init trivial bot ms (median)": r"init \(trivial bot\)\s+median\s+([\d.]+)",
        "act round trip ms (median)": r"Outcome.wall_ms\s+median\s+([\d.]+)",
    }),
    Measure("runner", ("bench/bench_runner.py",), {
        "decision loop ms (median)": r"whole decision loop\s+median\s+([\d.]+) ms",
        "worker round trip ms (median)": r"worker round trip\s+median\s+([\d.]+) ms",
    }),
    Measure("bot-cert", ("-m", "conformance", "bot", "bots/equity-bot.js"), {}),
    Measure("engine-cert", ("-m", "conformance", "engine", "reference/js/poker-engine.js", "--fresh-seed", "1"), {}),
)


def run(side: Side, measure: Measure) -> dict[str, float]:
    """One run: the numbers it prints, its wall time and the CPU time of its process tree (s)."""
    env = dict(os.environ, PYTHONPATH=str(side.checkout))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([side.python, *measure.args], cwd=side.checkout, env=env, capture_output=True, text=True,
                          timeout=1800)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1) or (measure.name.endswith("cert") and "CERTIFIED" not in done.stdout.upper()):
        raise SystemExit(f"{side.label} {measure.name} failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    values = {"wall s": wall, "cpu s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)}
    for key, pattern in measure.patterns.items():
        found = re.search(pattern, done.stdout)
        if found is None:
            raise SystemExit(f"{side.label} {measure.name}: no {key!r} in its output:\n{done.stdout[-2000:]}")
        values[key] = float(found[1].replace(",", ""))
    return values


def side(spec: str) -> Side:
    label, _, rest = spec.partition("=")
    python, sep, checkout = rest.partition(":")
    if not label or not sep or not Path(python).exists() or not (Path(checkout) / "conformance").is_dir():
        raise argparse.ArgumentTypeError(f"a side is LABEL=PYTHON:CHECKOUT (an interpreter and a checkout), got {spec!r}")
    return Side(label, python, Path(checkout).resolve())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sides", nargs="+", type=side, metavar="LABEL=PYTHON:CHECKOUT")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", action="append", choices=[m.name for m in MEASURES], help="repeatable")
    args = parser.parse_args()
    base, *others = args.sides
    columns = "".join(f" {s.label:>12}" for s in args.sides) + "".join(f" {s.label + '/' + base.label:>12}" for s in others)
    print(f"{'measure':<40}{columns}   (medians of {args.repeats} runs)")
    for measure in MEASURES:
        if args.only and measure.name not in args.only:
            continue
        runs: dict[str, list[dict]] = {s.label: [] for s in args.sides}
        for _ in range(args.repeats):
            for s in args.sides:
                runs[s.label].append(run(s, measure))
        for key in runs[base.label][0]:
            medians = [statistics.median(r[key] for r in runs[s.label]) for s in args.sides]
            row = "".join(f" {m:>12,.3f}" for m in medians) + "".join(f" {m / medians[0]:>11.2f}x" for m in medians[1:])
            print(f"{measure.name + ': ' + key:<40}{row}", flush=True)


if __name__ == "__main__":
    main()
