"""Differential fuzzing's speed (conformance/judge/fuzz.py): fuzz games per second for the bundled engine
(QuickJS) and the reference adapter (``--cmd``), side by side with the time the reference alone
takes to generate the same games (their share of the cost). Medians of repeats of the same
games over one started engine each (loading it is not counted).

    python bench/bench_fuzz.py [GAMES] [REPEATS]
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


def main() -> None:
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
