"""How long ``holdem-cert mutate ENGINE.js`` takes on the whole engine, estimated from a sample (issue #37).

    python bench/bench_mutate.py [ENGINE.js] [--sample 50] [--seed 1] [--jobs 2]

The full run is not made (the machine is shared): Stryker's instrumenter lists the mutants and writes
the instrumented engine (every mutant switchable); one certification session (conformance/mutate/
session.py, what each Stryker test runner runs) loads it, makes the dry run (timed) and runs a sample
of mutants chosen by seed, each timed, as Stryker would ask for them (a mutant reached while the
engine loads: every test, from a fresh load; else the tests that reach it; none: NoCoverage, no run).
The estimate of the whole run on ``--jobs`` runners: the session's start, the dry run, and the
sample's mean time per mutant of each kind (static, reached by tests) times that kind's count in the
engine, over the jobs. Stryker's own overhead (its sandbox, planning, reports: a few seconds) is not
in it.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.judge.families import FAMILIES  # noqa: E402
from conformance.judge.fuzz import DEFAULT_GAMES  # noqa: E402
from conformance.mutate import stryker  # noqa: E402
from conformance.mutate.session import Plan, Session  # noqa: E402
from conformance.vectors import fresh_vectors  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("engine", nargs="?", type=Path, default=ROOT / "reference" / "js" / "poker-engine.js")
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    node = stryker.stryker_node()
    prefix = stryker.install()
    with tempfile.TemporaryDirectory() as tmp:
        instrumented = Path(tmp) / args.engine.name
        mutants = stryker.list_mutants(node, prefix, args.engine, instrumented)
        seed = fresh_vectors.engine_seed([args.engine.read_text(encoding="utf-8")], None)
        plan = Plan(str(args.engine.resolve()), (), None, tuple(FAMILIES), (), "contract-v1", seed, seed, DEFAULT_GAMES, 10_000, node)
        session = Session(plan)
        t0 = time.perf_counter()
        session.init(str(instrumented))
        init_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        dry = session.dry_run()
        dry_s = time.perf_counter() - t0
        static = set(dry["coverage"]["static"])
        covering: dict[str, list[str]] = {}
        for test, hits in dry["coverage"]["perTest"].items():
            for m in hits:
                covering.setdefault(m, []).append(test)
        kind = {m["id"]: "static" if m["id"] in static else "tests" if m["id"] in covering else "none" for m in mutants}
        print(f"{len(mutants)} mutants: {sum(k == 'static' for k in kind.values())} static, "
              f"{sum(k == 'tests' for k in kind.values())} reached by tests, {sum(k == 'none' for k in kind.values())} "
              f"reached by none; {len(dry['tests'])} tests; session start {init_s:.1f} s, dry run {dry_s:.1f} s",
              flush=True)
        times: dict[str, list[float]] = {"static": [], "tests": []}
        statuses: dict[str, int] = {}
        for m in random.Random(args.seed).sample(mutants, args.sample):
            k = kind[m["id"]]
            if k == "none":
                statuses["NoCoverage"] = statuses.get("NoCoverage", 0) + 1
                continue
            t0 = time.perf_counter()
            out = session.mutant_run(m["id"], None if k == "static" else covering[m["id"]], k == "static", None, True,
                                     m["location"], m["replacement"])
            spent = time.perf_counter() - t0
            times[k].append(spent)
            statuses[out["status"]] = statuses.get(out["status"], 0) + 1
            print(f"  {m['id']:>5} {k:<6} {m['mutatorName']:<22} {out['status']:<9} {out.get('tests', 0):>4} tests "
                  f"{spent:7.2f} s", flush=True)
        session.close()
    total = init_s + dry_s
    for k, spent in times.items():
        if spent:
            count = sum(v == k for v in kind.values())
            total += count * statistics.mean(spent) / args.jobs
            print(f"{k}: {len(spent)} sampled, mean {statistics.mean(spent):.2f} s, median {statistics.median(spent):.2f} s, "
                  f"max {max(spent):.2f} s; {count} in the engine")
    print(f"sample statuses: {statuses}")
    print(f"estimated full run on {args.jobs} jobs: {total / 60:.1f} min")


if __name__ == "__main__":
    main()
