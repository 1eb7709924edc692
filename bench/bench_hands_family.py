"""The ``hands`` family's run time through ``holdem-cert engine``'s runner: its showdown vectors
(``hands.showdown.*``, conformance/vectors/generators/showdowns.py) side by side with the other hands
vectors, for the bundled engine (QuickJS) and the reference adapter (``--cmd``). Medians of
repeats over one started engine each (loading it is not counted).

    python bench/bench_hands_family.py [REPEATS]
"""
import statistics
import sys
import time

from conformance.harness.runner import bundled_engine
from conformance.judge.engine_cert import load_tests, start
from conformance.judge.engine_drivers import CommandDriver, QuickJSDriver


def run_all(runner, tests: list[dict]) -> float:
    begin = time.perf_counter()
    for test in tests:
        case = runner.vector("hands", test)
        if case.status != "passed":
            raise SystemExit(f"{test['id']}: {case.status}: {case.message}")
    return time.perf_counter() - begin


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    tests = load_tests(["hands"])["hands"]
    showdowns = [t for t in tests if t["id"].startswith("hands.showdown.")]
    others = [t for t in tests if not t["id"].startswith("hands.showdown.")]
    drivers = {"bundled engine": QuickJSDriver(bundled_engine(), engine_name="poker-engine.js"),
               "reference adapter": CommandDriver(f"{sys.executable} -m reference.adapter")}
    for name, driver in drivers.items():
        try:
            _, _, runner = start(driver, ["hands"])
            times = {"other": [], "showdown": []}
            for _ in range(repeats):
                times["other"].append(run_all(runner, others))
                times["showdown"].append(run_all(runner, showdowns))
        finally:
            driver.close()
        other, showdown = statistics.median(times["other"]), statistics.median(times["showdown"])
        print(f"{name:18} {len(others)} other vectors {other:6.3f} s   {len(showdowns)} showdown vectors "
              f"{showdown:6.3f} s   all / other {(other + showdown) / other:4.2f}")


if __name__ == "__main__":
    main()
