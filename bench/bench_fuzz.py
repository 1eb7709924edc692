"""Differential fuzzing's speed (conformance/judge/fuzz.py): fuzz games per second for the bundled engine
(QuickJS) and the reference adapter (``--cmd``), side by side with the time the reference alone
takes to generate the same games (their share of the cost). Medians of repeats of the same
games over one started engine each (loading it is not counted).

    python bench/bench_fuzz.py [GAMES] [REPEATS]
    python bench/bench_fuzz.py --catch [SEEDS]

``--catch``: for each mutant that only fuzzing catches (tests/mutants/mutants.py, FUZZ_MUTANTS),
the number of the first fuzz game it fails for each seed 1..SEEDS (default 20): what the default
game count (fuzz.DEFAULT_GAMES) must cover.
"""
import statistics
import sys
import time

from conformance.harness.runner import bundled_engine
from conformance.judge import fuzz
from conformance.judge.engine_cert import start
from conformance.judge.engine_drivers import CommandDriver, QuickJSDriver

SEED = 2026


def timed(work) -> float:
    begin = time.perf_counter()
    work()
    return time.perf_counter() - begin


def catch(seeds: int, limit: int = 400) -> None:
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from mutants.mutants import FUZZ_MUTANTS

    worst = 0
    for mutant in FUZZ_MUTANTS:
        driver = QuickJSDriver(bundled_engine().replace(mutant["find"], mutant["replace"]), engine_name="mutant.js")
        try:
            _, _, runner = start(driver, ["hands"])
            firsts = [next((k for k in range(limit) if runner.vector("hands", fuzz.generate(seed, k)).status == "failed"),
                           None) for seed in range(1, seeds + 1)]
        finally:
            driver.close()
        found = sorted(k for k in firsts if k is not None)
        worst = max([worst, *found])
        print(f"{mutant['name']:40} first failing game per seed: {firsts}  median {statistics.median(found) if found else '-'}"
              f"  max {max(found) if found else '-'}  missed within {limit}: {firsts.count(None)}", flush=True)
    print(f"latest first failure: game {worst} (the default plays games 0..{fuzz.DEFAULT_GAMES - 1})")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--catch":
        return catch(int(sys.argv[2]) if len(sys.argv) > 2 else 20)
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    generate = statistics.median(timed(lambda: [fuzz.generate(SEED, k) for k in range(games)]) for _ in range(repeats))
    print(f"{'generation alone':18} {games} games {generate:6.2f} s   {games / generate:7.1f} games/s")
    drivers = {"bundled engine": QuickJSDriver(bundled_engine(), engine_name="poker-engine.js"),
               "reference adapter": CommandDriver(f"{sys.executable} -m reference.adapter")}
    for name, driver in drivers.items():
        try:
            _, _, runner = start(driver, ["hands"])

            def play() -> None:
                out = fuzz.run(runner, SEED, seconds=None, games=games)
                if out.vector is not None:
                    raise SystemExit(f"{name}: {out.cases[-1].message}")

            seconds = statistics.median(timed(play) for _ in range(repeats))
        finally:
            driver.close()
        print(f"{name:18} {games} games {seconds:6.2f} s   {games / seconds:7.1f} games/s   "
              f"generation / all {generate / seconds:4.2f}")


if __name__ == "__main__":
    main()
