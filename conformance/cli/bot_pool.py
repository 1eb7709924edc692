"""``holdem-cert certify``'s bots certified side by side (issue #25): :class:`BotPool`.

Each task (one rostered bot's certification, :func:`conformance.cli.certify._certify_bot`) runs in a
process of its own, forked from multiprocessing's fork server, at most ``jobs`` at once, from the
moment the pool is made: beside the engine's certification and the showcase, which do not depend
on the bots' certifications. The caller takes the results in roster order (:meth:`BotPool.result`),
so its lines and its summary are the ones a run that certifies one bot after the other gives: a
task's result depends only on its arguments (every seed is fixed, bot_cert), never on which other
task ran beside it. How much work runs at once is bounded by the slots the caller passes in the
tasks (conformance/bots/slots.py), not by the number of processes.

A task's process runs its bot's QuickJS and node workers as its own children, with the parent's
wall-clock deadlines (conformance/host/worker.py), as ``holdem-cert bot`` does; it stops them when
it is terminated (:func:`conformance.arena.series._task_process`). A task that raises stops the
run: its exception is raised by :meth:`result` (a :class:`~reference.errors.HoldemError` as itself).
A task whose process dies is run again, as a league's tournaments are
(:data:`conformance.arena.series.TASK_RETRIES`), then the run stops saying how it died (a slot it
held is given back by the kernel: Slots.shared). Leaving the
``with`` block before every result was taken (the engine's certification raised, an interrupt)
terminates the tasks still running.

With ``jobs`` 1, or fewer than two tasks, the tasks run here, one after the other, when their
results are asked for (what ``certify`` did before the pool).
"""
from __future__ import annotations

import importlib
import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.connection import wait

from reference.errors import HoldemError

from conformance.arena import series


def _guarded(play: Callable[[object], object], task: object) -> dict:
    """``play(task)`` in a task's process: a HoldemError travels as its class and fields (its own
    pickling would lose them), so that the parent raises the same exception."""
    try:
        return {"ok": play(task)}
    except HoldemError as exc:
        cls = type(exc)
        return {"holdem": [cls.__module__, cls.__qualname__, exc.field, exc.reason]}


class _Play:
    """A picklable ``task -> {"ok": result}`` for series._child (module-level ``play`` only)."""

    def __init__(self, play: Callable[[object], object]) -> None:
        self.play = play

    def __call__(self, task: object) -> dict:
        return _guarded(self.play, task)


def _raised(spec: list) -> Exception:
    module, name, field, reason = spec
    try:
        cls = getattr(importlib.import_module(module), name)
        return cls(field, reason)
    except Exception:  # noqa: BLE001 - a class that cannot be rebuilt: its text
        return RuntimeError(f"{name}: {field}: {reason}")


def context():
    """series._context, the fork server preloading certification too (each task forks from it)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([series.__name__, "conformance.cli.certify"])
        return context
    return multiprocessing.get_context("spawn")


class BotPool:
    """``play(task)`` for every task, ``jobs`` processes at once; :meth:`result` in task order."""

    def __init__(self, tasks: Sequence, play: Callable[[object], object], jobs: int = 2) -> None:
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
            raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
        self._tasks = list(tasks)
        self._play = play
        self._parallel = jobs > 1 and len(self._tasks) > 1
        self._results: list[dict | None] = [None] * len(self._tasks)
        self._error: BaseException | None = None
        self._done = threading.Condition()
        self._thread: threading.Thread | None = None
        self._jobs = jobs
        self._stopping = False
        if self._parallel:
            self._wake_r, self._wake_w = os.pipe()

    @property
    def parallel(self) -> bool:
        """Whether the tasks run in processes, side by side."""
        return self._parallel

    def start(self) -> None:
        """Start the tasks (else the first :meth:`result` does)."""
        self._start()

    def _start(self) -> None:
        if self._parallel and self._thread is None and not self._stopping:
            self._thread = threading.Thread(target=self._serve, args=(self._jobs,), name="bot-pool", daemon=True)
            self._thread.start()

    def __enter__(self) -> BotPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def result(self, i: int):
        """Task ``i``'s result (waiting for it); its exception if it raised, or the run's if the pool
        stopped."""
        if not self._parallel:
            out = _guarded(self._play, self._tasks[i])
        else:
            self._start()
            with self._done:
                self._done.wait_for(lambda: self._results[i] is not None or self._error is not None)
                if self._results[i] is None:
                    raise self._error
                out = self._results[i]
        if "holdem" in out:
            raise _raised(out["holdem"])
        return out["ok"]

    def close(self) -> None:
        """Terminate the tasks still running (none once every result was taken) and wait for them."""
        if not self._parallel or self._stopping:
            return
        self._stopping = True
        if self._thread is not None:
            os.write(self._wake_w, b"x")
            self._thread.join()
            self._thread = None
        os.close(self._wake_r)
        os.close(self._wake_w)

    # ---- the pool's thread ------------------------------------------------------------------

    def _serve(self, jobs: int) -> None:
        try:
            self._run(jobs)
        except BaseException as exc:  # noqa: BLE001 - raised by result()
            with self._done:
                self._error = exc
                self._done.notify_all()

    def _run(self, jobs: int) -> None:
        ctx = context()
        queue = deque(range(len(self._tasks)))
        attempts = [0] * len(self._tasks)
        running: dict = {}  # the parent's end of each running task's pipe -> (task index, process)
        play = _Play(self._play)
        try:
            while (queue or running) and not self._stopping:
                while queue and len(running) < jobs:
                    i = queue.popleft()
                    attempts[i] += 1
                    parent_end, process = series.start_task(ctx, play, self._tasks[i])
                    running[parent_end] = (i, process)
                for conn in wait([*running, self._wake_r]):
                    if conn == self._wake_r:
                        os.read(self._wake_r, 512)
                        continue
                    i, process = running.pop(conn)
                    kind, value = series.task_outcome(conn, process)
                    if kind == "ok":
                        with self._done:
                            self._results[i] = value
                            self._done.notify_all()
                    elif kind == "raised":
                        raise value
                    elif attempts[i] <= series.TASK_RETRIES:
                        queue.append(i)
                    else:
                        raise RuntimeError(f"the certification of roster entry {i} did not finish: its process "
                                           f"died on each of {attempts[i]} attempts ({series._death(process.exitcode)})")
        finally:
            for _, process in running.values():  # stopped: the tasks still running stop now
                process.terminate()
            for _, process in running.values():
                process.join()
