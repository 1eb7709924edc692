"""Where a league's tournaments are played: ``local`` (processes on this machine,
:func:`conformance.arena.series.run_tasks`) or ``ray`` (Ray tasks: a local Ray instance, or the cluster
at ``--address``). Either way each task carries its bots' sources and options, so a worker needs
no roster and no checkout; summaries come back as they finish, in any order (the store and the
standings put them in coordinate order). A worker that dies costs only its task: it is played
again (local: a process per task, ``series.TASK_RETRIES`` times; Ray retries the task, ``RAY_RETRIES``
times, on another node when its node is lost); a task that dies every time stops the league with
exit 2 once the others are in the store.

Stopped (SIGINT, SIGTERM, SIGHUP: the command's handlers raise), either backend stops the tasks
still running or queued and lets the exception through; every tournament finished before is in the
store, and a rerun plays only the others (on Ray the signals are taken between Ray's calls: :class:`_Noted`).

Ray is an optional extra (``pip install 'holdem-conformance[ray]'``), imported only here and only
for ``--backend ray``.
"""
from __future__ import annotations

import contextlib
import importlib
import itertools
import importlib.util
import os
import signal
import socket
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from conformance.arena.series import TaskLost, Task, play_task, run_tasks
from conformance.errors import UsageError

BACKENDS = ("local", "ray")
RAY_RETRIES = 3
POLL_S = 0.25  # how often a run on Ray looks for a stop signal
CANCEL_WAIT_S = 5.0  # stopped: how long cancelled Ray tasks get to stop (their QuickJS workers close)
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


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class _Noted:
    """Once Ray has started, the stop signals are only noted, and :meth:`check` hands a noted one
    to the caller's handler between Ray's calls: a handler that raises inside them (Ray's C code)
    breaks them (``SystemError: ... returned a result with an exception set``, exit 1). And
    ``ray.init`` replaces the SIGTERM handler with its own (Python's ``sys.exit(15)``, then its core
    worker's, which aborts the process): the caller's comes back. While ``ray.init`` runs, SIGINT
    raises at once (the caller's handler) and Ray's SIGTERM handler exits (taken for SIGTERM).
    Signals the caller ignores or leaves to their default stay so."""

    def __init__(self) -> None:
        on_main = threading.current_thread() is threading.main_thread()
        self.callers = {s: signal.getsignal(s) for s in STOP_SIGNALS} if on_main else {}
        self.noted: list[int] = []

    def _note(self, signum: int, frame) -> None:
        self.noted.append(signum)

    def note(self) -> None:
        """(Again) note the signals the caller handles in Python."""
        for s, handler in self.callers.items():
            if callable(handler):
                signal.signal(s, self._note)

    def restore(self) -> None:
        for s, handler in self.callers.items():
            if handler is not None:
                signal.signal(s, handler)

    def check(self) -> None:
        """The caller's handler for the first signal noted (it raises, e.g. KeyboardInterrupt)."""
        if self.noted:
            self.restore()
            signal.raise_signal(self.noted[0])


def _cancel(ray, refs: list) -> None:
    """Stop Ray tasks: a queued one never starts, a running one gets a KeyboardInterrupt (it closes
    its QuickJS workers as it unwinds); they get up to CANCEL_WAIT_S to stop. Cancelled tasks are
    not retried."""
    for ref in refs:
        with contextlib.suppress(ray.exceptions.RayError):
            ray.cancel(ref)
    if refs:
        ray.wait(refs, num_returns=len(refs), timeout=CANCEL_WAIT_S)


AUTH_HELP = ("a cluster started with token authentication (RAY_AUTH_MODE=token) needs RAY_AUTH_MODE=token here "
             "too and the cluster's token: RAY_AUTH_TOKEN, or the file at RAY_AUTH_TOKEN_PATH (default "
             "~/.ray/auth_token); see docs/league.md")


def _join(ray, address: str) -> None:
    """Connect to the cluster at ``address`` (our packages go with the job); a UsageError that says
    why not (no token here, a token the cluster refuses)."""
    refused = getattr(ray.exceptions, "AuthenticationError", ())  # Ray >= 2.52
    try:
        ray.init(address=address, logging_level="ERROR", log_to_driver=False,
                 runtime_env={"py_modules": _code_modules()})
    except refused:  # token authentication on here, no token
        raise UsageError(f"--address {address}: no Ray authentication token here: {AUTH_HELP}") from None
    except ConnectionError as exc:
        # why, as Ray says it: its last connection error (the text of a traceback) is the cause
        why = str(exc.__cause__ or exc).strip().splitlines() or [str(exc)]
        if isinstance(exc.__cause__, refused) or any("InvalidAuthToken" in line for line in why):
            mode = os.environ.get("RAY_AUTH_MODE", "")
            off = "" if mode.lower() == "token" else f" (RAY_AUTH_MODE is {mode or 'not set'} here)"
            raise UsageError(f"--address {address}: the Ray cluster there refused this client's token, or its "
                             f"lack of one{off}: {AUTH_HELP}") from None
        raise UsageError(f"--address {address}: could not join the Ray cluster there: {why[-1]}") from None


def run_ray(tasks: Sequence[Task], jobs: int, address: str | None, on_done: Callable[[dict], None]) -> None:
    """Play ``tasks`` as Ray tasks: on a new local instance of ``jobs`` CPUs, or on the cluster at
    ``address`` (then ``jobs`` is not used: the cluster's CPUs are). Stopped (a signal, a lost
    task), the tasks not finished are cancelled."""
    if address is not None:
        check_address(address)
    ray = import_ray()
    os.environ.setdefault("RAY_DISABLE_USAGE_STATS", "1")
    signals = _Noted()
    pending: list = []
    try:
        try:
            if address is None:  # "local": a new instance, even where a `ray start` cluster runs
                ray.init(address="local", num_cpus=jobs, include_dashboard=False, logging_level="ERROR",
                         log_to_driver=False)
            else:
                _join(ray, address)
        except SystemExit as exc:  # Ray's SIGTERM handler, while Ray started
            if exc.code != signal.SIGTERM:
                raise
            signals.noted.append(signal.SIGTERM)
        signals.note()
        signals.check()
        remote = ray.remote(num_cpus=1, max_retries=RAY_RETRIES)(play_task)
        # A bounded window of tasks in flight: each carries its bots' sources, and a league of
        # thousands submitted at once would hold them all in the object store.
        window = max(4, 2 * int(ray.cluster_resources().get("CPU", 1)))
        queue = iter(tasks)
        pending = [remote.remote(task) for task in itertools.islice(queue, window)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=POLL_S)
            signals.check()
            pending += [remote.remote(task) for task in itertools.islice(queue, len(ready))]
            for ref in ready:
                try:
                    summary = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    raise LeagueStopped(f"a Ray task failed after {RAY_RETRIES} retries: {exc}") from None
                on_done(summary)
    except BaseException:
        _cancel(ray, pending)
        raise
    finally:
        try:
            ray.shutdown()
        finally:
            signals.restore()
    signals.check()  # one that came while Ray shut down


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
