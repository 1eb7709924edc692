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

The cost per tournament (``--cost N1,N2``, default 12,36) compares local processes (``--jobs 2``), a
local Ray instance of 2 CPUs and a real two-node Ray cluster on this machine (``ray start --head``
with 1 CPU plus ``ray start --address`` with 1 CPU, on 127.0.0.1 with token authentication, started
and stopped by tests/ray_cluster.py): each plays the league of N1 and of N2 tournaments through the
command (``holdem-cert league``, a process of its own), and the cost per tournament is
(seconds at N2 - seconds at N1) / (N2 - N1), the start-up (Python, Ray, joining the cluster)
cancelling out; the start-up is what is left at N1. ``--cost 0`` skips it.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import statistics
import subprocess
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


def command_seconds(tournaments: int, hands: int, backend: list[str], env: dict | None = None) -> float:
    """Wall seconds of ``holdem-cert league`` (a process of its own) on a fresh store."""
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "conformance", "league", "--roster", str(ROOT / "bots.json"),
                        "--bots", ",".join(HOUSE), "--tournaments", str(tournaments), "--table-size", "3",
                        "--hands", str(hands), "--seed", "1", "--bot-seed", "2", "--store", str(Path(tmp) / "s.db"),
                        "--quiet", *backend], cwd=ROOT, env={**os.environ, **(env or {})}, check=True,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        return time.perf_counter() - start


@contextlib.contextmanager
def two_node_cluster():
    """A head of 1 CPU and a worker node of 1 CPU on 127.0.0.1 (tests/ray_cluster.py)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from ray_cluster import Cluster

    with tempfile.TemporaryDirectory(prefix="hc-bench-", dir="/tmp") as tmp:
        cluster = Cluster(Path(tmp) / "c")
        try:
            cluster.start(1)
            cluster.add(1)
            yield cluster
        finally:
            cluster.stop()


def cost_per_tournament(small: int, large: int, hands: int, with_ray: bool) -> None:
    print(f"cost per tournament: (seconds at {large} - seconds at {small}) / {large - small}, "
          f"through the command, 2 workers each")
    print(f"{'where':<34} {f'{small} (s)':>8} {f'{large} (s)':>8} {'per tournament':>15} {'start-up':>9}")

    def row(name: str, backend: list[str], env: dict | None = None) -> None:
        t1, t2 = (command_seconds(n, hands, backend, env) for n in (small, large))
        per = (t2 - t1) / (large - small)
        print(f"{name:<34} {t1:>8.2f} {t2:>8.2f} {per * 1000:>12.0f} ms {t1 - small * per:>7.2f} s")

    row("local, --jobs 2", ["--jobs", "2"])
    if with_ray:
        row("Ray, a local instance of 2 CPUs", ["--backend", "ray", "--jobs", "2"])
        with two_node_cluster() as cluster:
            row("Ray, a 2-node cluster (1 + 1 CPU)", ["--address", cluster.address], cluster.client_env())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=12)
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cost", default="12,36", help="N1,N2: the cost per tournament from leagues of N1 "
                        "and N2 tournaments (0: skip it)")
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
    if args.cost != "0":
        small, large = (int(n) for n in args.cost.split(","))
        cost_per_tournament(small, large, args.hands, "ray" in backends)


if __name__ == "__main__":
    main()
