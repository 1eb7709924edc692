"""Where a league's tournaments are played: ``local`` (processes on this machine,
:func:`conformance.arena.series.run_tasks`) or ``ray`` (Ray tasks: a local Ray instance, or the cluster
at ``--address``). Either way each task carries its bots' sources and options, so a worker needs
no roster and no checkout; summaries come back as they finish, in any order (the store and the
standings put them in coordinate order). A worker that dies costs only its task: it is played
again (local: a process per task, ``series.TASK_RETRIES`` times; Ray retries the task, ``RAY_RETRIES``
times); a task that dies every time stops the league with exit 2 once the others are in the store.

Ray is an optional extra (``pip install 'holdem-conformance[ray]'``), imported only here and only
for ``--backend ray``.
"""
from __future__ import annotations

import importlib
import itertools
import importlib.util
import os
import socket
from collections.abc import Callable, Sequence
from pathlib import Path

from conformance.arena.series import TaskLost, Task, play_task, run_tasks
from conformance.errors import UsageError

BACKENDS = ("local", "ray")
RAY_RETRIES = 3
CONNECT_TIMEOUT_S = 5.0  # an unreachable --address is said within seconds, not after Ray's own minutes
RAY_MISSING = ("--backend ray needs Ray, an optional extra: pip install 'holdem-conformance[ray]' "
               "(or pip install ray)")


class LeagueStopped(UsageError):
    """The backend could not finish (exit 2); every tournament finished before is in the store."""


def run_local(tasks: Sequence[Task], jobs: int, on_done: Callable[[dict], None]) -> None:
    try:
        run_tasks(tasks, jobs, on_done)
    except TaskLost as exc:
        raise LeagueStopped(str(exc)) from None


def ray_installed() -> bool:
    return importlib.util.find_spec("ray") is not None


def import_ray():
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise UsageError(RAY_MISSING) from None


def check_address(address: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """UsageError unless a TCP connection to ``address`` (``host:port`` or ``ray://host:port``)
    opens within ``timeout`` seconds."""
    hostport = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = hostport.rstrip("/").rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--address: expected HOST:PORT or ray://HOST:PORT, got {address!r}")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        reason = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise UsageError(f"--address {address}: cannot reach a Ray cluster there within {timeout:g} s "
                         f"({reason})") from None


def _code_modules() -> list[str]:
    """Our packages, shipped to a cluster's workers with each job (they need no checkout)."""
    root = Path(__file__).resolve().parents[3]
    return [str(root / "conformance"), str(root / "reference")]


def run_ray(tasks: Sequence[Task], jobs: int, address: str | None, on_done: Callable[[dict], None]) -> None:
    """Play ``tasks`` as Ray tasks: on a new local instance of ``jobs`` CPUs, or on the cluster at
    ``address`` (then ``jobs`` is not used: the cluster's CPUs are)."""
    if address is not None:
        check_address(address)
    ray = import_ray()
    os.environ.setdefault("RAY_DISABLE_USAGE_STATS", "1")
    if address is None:
        ray.init(num_cpus=jobs, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    else:
        ray.init(address=address, logging_level="ERROR", log_to_driver=False,
                 runtime_env={"py_modules": _code_modules()})
    try:
        remote = ray.remote(num_cpus=1, max_retries=RAY_RETRIES)(play_task)
        # A bounded window of tasks in flight: each carries its bots' sources, and a league of
        # thousands submitted at once would hold them all in the object store.
        window = max(4, 2 * int(ray.cluster_resources().get("CPU", 1)))
        queue = iter(tasks)
        pending = [remote.remote(task) for task in itertools.islice(queue, window)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            pending += [remote.remote(task) for task in itertools.islice(queue, len(ready))]
            for ref in ready:
                try:
                    summary = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    raise LeagueStopped(f"a Ray task failed after {RAY_RETRIES} retries: {exc}") from None
                on_done(summary)
    finally:
        ray.shutdown()


def check(backend: str, address: str | None) -> None:
    """Before anything is written: UsageError if the backend cannot run here (Ray absent, the
    cluster unreachable)."""
    if backend == "ray":
        if address is not None:
            check_address(address)
        import_ray()


def run(backend: str, tasks: Sequence[Task], jobs: int, address: str | None,
        on_done: Callable[[dict], None]) -> None:
    if backend == "ray":
        run_ray(tasks, jobs, address, on_done)
    else:
        run_local(tasks, jobs, on_done)
