"""How long certification takes, this tree side by side with another (e.g. main before a change):
``holdem-cert engine`` on the bundled engine and on a one-rule mutant of it, and ``holdem-cert
certify`` on its defaults (issue #25: each >= 4x faster than main before it). Medians of repeats,
the sides taking turns, and the ratio other / this (how many times faster this tree is).

    git -C /work/main worktree add --detach /work/wt/base-main 21d9948
    python bench/bench_certify.py --other /work/wt/base-main [--other TREE]... [--repeats 3] [--families] [--hand] [--only NAME]

Each run is a fresh process with PYTHONPATH set to the tree measured, so both trees' code runs as
it would be installed. The default runs use each tree's defaults (this tree: the node host where
node is installed); ``--host quickjs`` rows separate the V8 host from the other levers, and the
``--fuzz-games`` rows do the same work on both sides (main before #25 fuzzed for a 10 s time budget
by default, so a faster tree played more games in it; since, the default is 100 games). Wall times on a shared machine vary: compare the ratios,
measured in one run. ``--hand``: the hand profile alone (issue #36: its fresh tests and random hands
must keep a hand engine's certification within 2x), the bundled engine and pokerkit over --cmd; and
poker-ts (issue #38: an engine with hundreds of failures must take at most 2x a passing one, the
bundled engine's hand row of the same run; poker-ts is installed into the cache on first use).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
ENGINE = "reference/js/poker-engine.js"
MUTANT = "no-burn-card"  # tests/mutants/mutants.py: fails many hands vectors and fuzz games
FUZZ_GAMES = "200"  # about what main's old default, a 10 s budget, played on a quiet machine
GAMES = ["legality", "hands", "tournaments"]


def mutant_file() -> str:
    sys.path.insert(0, str(HERE / "tests"))
    from mutants.mutants import MUTANTS

    m = next(m for m in MUTANTS if m["name"] == MUTANT)
    source = (HERE / ENGINE).read_text(encoding="utf-8")
    path = Path(tempfile.mkdtemp(prefix="bench-mutant-")) / f"{MUTANT}.js"
    path.write_text(source.replace(m["find"], m["replace"]), encoding="utf-8")
    return str(path)


CPU_SECONDS: list[float] = []  # each run's CPU seconds (user + sys of it and the processes it waited for)


def timed(tree: Path, args: list[str]) -> tuple[float, str]:
    """Wall seconds of one run, and a word on its outcome (failures in its JSON report, if any); its
    CPU seconds go to CPU_SECONDS (less moved by the machine's load than the wall time)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = Path(tempfile.mkdtemp(prefix="bench-certify-")) / "report.json"
    args = [a.replace("{json}", str(out)) for a in args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "conformance", *args], cwd=tree, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU_SECONDS.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    try:
        report = json.loads(out.read_text())
        note = f"{len(report['failures'])} failed" + (f", host {report['engine'].get('host')}"
                                                         if report["engine"].get("host") else "")
    except (OSError, ValueError, KeyError):
        note = ""
    return seconds, note


POKERKIT = f"{sys.executable} -m conformance.implementations.pokerkit_engine"


def poker_ts_args() -> list[str]:
    """poker-ts as ``holdem-cert engine`` takes it (conformance/implementations/poker_ts.py)."""
    sys.path.insert(0, str(HERE))
    from conformance.implementations import poker_ts

    return poker_ts.engine_args()


def runs(families: bool, hand: bool = False) -> list[tuple[str, list[str], list[str]]]:
    """(name, this tree's arguments, the other tree's)."""
    mutant = mutant_file()
    fixed = ["--fuzz-games", FUZZ_GAMES]
    same = lambda args: (args, args)  # noqa: E731
    out = [
        ("engine: bundled (defaults)", *same(["engine", ENGINE, "--json", "{json}"])),
        (f"engine: bundled, {FUZZ_GAMES} fuzz games", *same(["engine", ENGINE, *fixed, "--json", "{json}"])),
        (f"engine: bundled, {FUZZ_GAMES} fuzz games, --host quickjs",
         ["engine", ENGINE, *fixed, "--host", "quickjs", "--json", "{json}"], ["engine", ENGINE, *fixed, "--json", "{json}"]),
        (f"engine: mutant {MUTANT} (defaults)", *same(["engine", mutant, "--json", "{json}"])),
        (f"engine: mutant {MUTANT}, {FUZZ_GAMES} fuzz games", *same(["engine", mutant, *fixed, "--json", "{json}"])),
        ("certify (defaults)", *same(["certify", "--report", tempfile.mkdtemp(prefix="bench-certify-")])),
    ]
    if families:
        by_family = [a for f in GAMES for a in ("--family", f)]
        out += [
            ("engine: legality+hands+tournaments", *same(["engine", ENGINE, *by_family, "--no-fresh"])),
            ("engine: sng3v4", *same(["engine", ENGINE, "--ruleset", "holdem-sng-3-v4", "--family", "sng3v4", "--no-fresh"])),
            ("engine: legality+hands+tournaments (--cmd)",
             *same(["engine", "--cmd", f"{sys.executable} -m reference.adapter", *by_family, "--no-fresh"])),
        ]
    if hand:
        out += [
            ("engine --profile hand: bundled (defaults)", *same(["engine", ENGINE, "--profile", "hand", "--json", "{json}"])),
            ("engine --profile hand: pokerkit --cmd (defaults)",
             *same(["engine", "--cmd", POKERKIT, "--profile", "hand", "--json", "{json}"])),
            ("engine --profile hand: poker-ts (defaults)",
             *same(["engine", *poker_ts_args(), "--profile", "hand", "--json", "{json}"])),
        ]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, action="append", required=True,
                        help="a tree to compare with (e.g. main before); repeat it to time several in the same run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--families", action="store_true", help="also time single families and a --cmd engine")
    parser.add_argument("--hand", action="store_true", help="also time the hand profile alone (bundled engine, pokerkit)")
    parser.add_argument("--only", action="append", help="only the runs whose name contains this (repeatable)")
    args = parser.parse_args()
    others = [o.resolve() for o in args.other]
    for k, o in enumerate(others):
        print(f"other{k + 1}: {o}" if len(others) > 1 else f"other: {o}")
    print(f"{'run':52} {'this':>7} {'other':>7} {'other/this':>10}   (median of {args.repeats}, wall seconds)")
    for name, mine_args, other_args in runs(args.families, args.hand):
        if args.only and not any(o in name for o in args.only):
            continue
        mine, other, notes = [], [[] for _ in others], set()
        mine_cpu, other_cpu = [], [[] for _ in others]
        for _ in range(args.repeats):  # interleaved, so load changes hit every side alike
            seconds, note = timed(HERE, mine_args)
            mine.append(seconds)
            mine_cpu.append(CPU_SECONDS[-1])
            notes.add(f"this: {note}" if note else "")
            for k, tree in enumerate(others):
                seconds, note = timed(tree, other_args)
                other[k].append(seconds)
                other_cpu[k].append(CPU_SECONDS[-1])
                notes.add(f"other{k + 1 if len(others) > 1 else ''}: {note}" if note else "")
        a = statistics.median(mine)
        shown = "; ".join(sorted(n for n in notes if n))
        for k, times in enumerate(other):
            b = statistics.median(times)
            label = name if len(others) == 1 else f"{name} [other{k + 1}]"
            cpu_a, cpu_b = statistics.median(mine_cpu), statistics.median(other_cpu[k])
            print(f"{label:52} {a:7.1f} {b:7.1f} {b / a:9.2f}x   [{', '.join(f'{x:.1f}' for x in mine)} | "
                  f"{', '.join(f'{x:.1f}' for x in times)}] CPU {cpu_a:.1f} | {cpu_b:.1f} s ({cpu_b / cpu_a:.2f}x) "
                  f"{shown}", flush=True)


if __name__ == "__main__":
    main()
