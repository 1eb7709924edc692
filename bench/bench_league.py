"""League throughput: tournaments per minute at 1 and 2 workers, local processes vs a local Ray
instance, and Ray's overhead per task.

    python bench/bench_league.py [--tournaments 12] [--hands 60] [--repeats 3]

Each configuration plays the same league (the four house bots, tables of three: four tables, so
``--tournaments`` is a multiple of 12) into a fresh store, ``--repeats`` times; the median wall
time is reported, start-up included (spawning the pool, starting Ray). Ray's overhead per task is
a no-op task's round trip on a running two-CPU instance (median of 200), plus its start-up once.
The local backend's cost of a process per task (a killed process costs only its task) is measured
side by side with the process pool it replaced: the same no-op tasks (carrying the league's bots)
through ``run_tasks`` at 2 jobs and through a two-process spawn pool, per task (median of repeats).
Without Ray installed, only the local rows are measured.
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.arena.league.run import run_league  # noqa: E402
from conformance.arena.play import load_roster  # noqa: E402
from conformance.arena.series import plan, run_tasks  # noqa: E402
from conformance.harness.runner import RunnerOptions  # noqa: E402

HOUSE = ("check-fold", "sample-caller", "sample-tight", "equity-bot")


def league_seconds(backend: str, jobs: int, tournaments: int, hands: int) -> float:
    bots = {i: b.spec for i, b in load_roster(ROOT / "bots.json", HOUSE).bots.items()}
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        run_league(bots, 3, tournaments, 1, 2, RunnerOptions(tournament={"max_hands": hands}), Path(tmp) / "s.db",
                   backend=backend, jobs=jobs)
        return time.perf_counter() - start


def noop() -> None:
    return None


def noop_task(task) -> dict:
    return {}


def local_overhead(repeats: int, tasks_per_run: int = 40) -> tuple[float, float]:
    """(ms per no-op task: a process per task via run_tasks, a reused two-process pool) at 2 jobs."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    bots = [b.spec for b in load_roster(ROOT / "bots.json", HOUSE[:2]).bots.values()]
    tasks = plan(bots, tasks_per_run, 1, 2, RunnerOptions())
    own, pooled = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        run_tasks(tasks, 2, play=noop_task)
        own.append((time.perf_counter() - start) * 1000 / len(tasks))
        start = time.perf_counter()
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
            list(pool.map(noop_task, tasks))
        pooled.append((time.perf_counter() - start) * 1000 / len(tasks))
    return statistics.median(own), statistics.median(pooled)


def ray_overhead(repeats: int = 200) -> tuple[float, float]:
    """(start-up s, median ms of one no-op task's submit-and-get) on a local two-CPU Ray."""
    import ray

    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    try:
        task = ray.remote(noop)
        ray.get(task.remote())  # a worker is up
        startup = time.perf_counter() - start
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            ray.get(task.remote())
            times.append((time.perf_counter() - t) * 1000)
        return startup, statistics.median(times)
    finally:
        ray.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=12)
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    backends = ["local"] + (["ray"] if importlib.util.find_spec("ray") else [])
    print(f"{args.tournaments} tournaments of at most {args.hands} hands, 4 bots at tables of 3; "
          f"median of {args.repeats}")
    print(f"{'backend':<8} {'workers':>7} {'seconds':>8} {'per minute':>11}")
    rates = {}
    for backend in backends:
        for jobs in (1, 2):
            seconds = statistics.median(league_seconds(backend, jobs, args.tournaments, args.hands)
                                        for _ in range(args.repeats))
            rates[backend, jobs] = args.tournaments / seconds * 60
            print(f"{backend:<8} {jobs:>7} {seconds:>8.2f} {rates[backend, jobs]:>11.1f}")
    for jobs in (1, 2):
        if ("ray", jobs) in rates:
            print(f"ray / local at {jobs} worker{'s' if jobs > 1 else ''}: {rates['ray', jobs] / rates['local', jobs]:.2f}")
    own, pooled = local_overhead(args.repeats)
    print(f"local, per no-op task at 2 jobs: a process per task {own:.2f} ms, a reused process pool "
          f"{pooled:.2f} ms (start-up included; median of {args.repeats})")
    if "ray" in backends:
        startup, per_task = ray_overhead()
        print(f"ray: start-up {startup:.2f} s; a no-op task's round trip {per_task:.2f} ms (median of 200)")


if __name__ == "__main__":
    main()
