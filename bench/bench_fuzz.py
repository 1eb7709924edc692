"""Differential fuzzing's speed (conformance/judge/fuzz.py): fuzz games per second for the bundled engine
(QuickJS) and the reference adapter (``--cmd``), side by side with the time the reference alone
takes to generate the same games (their share of the cost). Medians of repeats of the same
games over one started engine each (loading it is not counted).

    python bench/bench_fuzz.py [GAMES] [REPEATS]
    python bench/bench_fuzz.py --catch [SEEDS]

``--catch``: for each mutant that only fuzzing catches (tests/mutants/mutants.py, FUZZ_MUTANTS),
the number of the first fuzz game it fails for each seed 1..SEEDS (default 20): what the default
game count (fuzz.DEFAULT_GAMES) must cover.

``blocks``: engine blocks reached against time, blind against coverage-guided fuzzing
(conformance/judge/fuzz_guided.py), on the node host with coverage, side by side in one run on the
bundled engine and two mutants (tests/mutants/mutants.py); medians of REPEATS runs of SECONDS each
(seeds 1..REPEATS, the same for every mode). Blind runs take the counts at most every 0.25 s (their
curve; the guided runs take them after every game, which they need and pay for).

    python bench/bench_fuzz.py blocks [SECONDS] [REPEATS]
"""
import statistics
import sys
import time
from pathlib import Path

from conformance.harness.runner import bundled_engine
from conformance.judge import fuzz, fuzz_guided
from conformance.judge.engine_cert import start
from conformance.judge.engine_drivers import CommandDriver, QuickJSDriver

SEED = 2026


def timed(work) -> float:
    begin = time.perf_counter()
    work()
    return time.perf_counter() - begin


MUTANTS = ("v4-recovery-immediate", "fnv-over-utf16-units")  # neither is caught by the fuzzing measured here
MODES = {"blind": None, "guided v1": ("contract-v1",), "guided v1+v4": ("contract-v1", "holdem-sng-3-v4")}
MARKS = (1, 2, 5)  # seconds at which the curve is printed, besides the end


class Recording:
    """Feedback that records (seconds, blocks reached so far) at every take."""

    def __init__(self, feedback, t0: float) -> None:
        self.feedback, self.t0, self.reached, self.curve = feedback, t0, set(), [(0.0, 0)]

    def __call__(self) -> set:
        got = self.feedback()
        self.reached |= got
        self.curve.append((time.perf_counter() - self.t0, len(self.reached)))
        return got


def reach(source: str, rulesets, seconds: float, seed: int) -> dict:
    driver = QuickJSDriver(source, engine_name="engine.js", host="node", coverage=True)
    try:
        _, _, runner = start(driver, ["hands"])
        t0 = time.perf_counter()
        rec = Recording(fuzz_guided.Feedback(driver), t0)
        if rulesets is None:
            last = [t0]

            def on_case(case) -> None:
                if time.perf_counter() - last[0] >= 0.25:
                    rec()
                    last[0] = time.perf_counter()
            out = fuzz.run(runner, seed, seconds=seconds, on_case=on_case)
        else:
            out = fuzz.run(runner, seed, seconds=seconds, guide=fuzz_guided.Guide(seed, rec, rulesets))
        rec()
        elapsed = time.perf_counter() - t0
    finally:
        driver.close()
    failed = out.cases[-1] if out.cases and out.cases[-1].status == "failed" else None
    return {"curve": rec.curve, "blocks": len(rec.reached), "seconds": elapsed, "games": out.games,
            "found": (out.games, rec.curve[-1][0], failed.breaks) if failed else None}


def at(curve: list, t: float) -> int:
    return max([b for s, b in curve if s <= t] or [0])


def when(curve: list, blocks: int) -> float | None:
    return next((s for s, b in curve if b >= blocks), None)


def blocks_bench(seconds: float, repeats: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from mutants.mutants import BLIND_SPOT_MUTANTS, FUZZ_MUTANTS, MUTANTS as ALL

    pristine = bundled_engine()
    named = {m["name"]: m for m in ALL + FUZZ_MUTANTS + BLIND_SPOT_MUTANTS}
    engines = {"bundled engine": pristine}
    for name in MUTANTS:
        engines[name] = pristine.replace(named[name]["find"], named[name]["replace"])
    print(f"blocks reached (medians of {repeats}, seeds 1..{repeats}, {seconds:g} s each, node host with coverage)")
    for engine, source in engines.items():
        runs = {mode: [] for mode in MODES}
        for seed in range(1, repeats + 1):  # interleaved: the machine's load falls on every mode alike
            for mode, rulesets in MODES.items():
                runs[mode].append(reach(source, rulesets, seconds, seed))
        base = statistics.median(r["blocks"] for r in runs["blind"])
        print(f"\n{engine}")
        print(f"  {'mode':14}" + "".join(f"{f'@{m}s':>7}" for m in MARKS) + f"{'end':>7}{'blocks/s':>10}{'ratio':>7}"
              f"{'games':>7}  time to blind's end count  failures found (games, s, clause)")
        for mode, rs in runs.items():
            med = lambda xs: statistics.median(xs)  # noqa: E731
            marks = "".join(f"{med([at(r['curve'], m) for r in rs]):7g}" for m in MARKS)
            end = med([r["blocks"] for r in rs])
            per = med([r["blocks"] / r["seconds"] for r in rs])
            reached = [when(r["curve"], base) for r in rs]
            to = med([x for x in reached if x is not None]) if any(x is not None for x in reached) else None
            found = [r["found"] for r in rs if r["found"]]
            print(f"  {mode:14}{marks}{end:7g}{per:10.1f}{end / base:7.2f}{med([r['games'] for r in rs]):7g}  "
                  f"{'-' if to is None else f'{to:5.1f} s'} ({sum(x is not None for x in reached)} of {len(rs)})  "
                  f"{len(found)} of {len(rs)}" + (f" {found}" if found else ""))


def catch(seeds: int, limit: int = 400) -> None:
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
    if sys.argv[1:2] == ["blocks"]:
        return blocks_bench(float(sys.argv[2]) if len(sys.argv) > 2 else 10.0, int(sys.argv[3]) if len(sys.argv) > 3 else 3)
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
