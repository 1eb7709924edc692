"""Worker processes started ahead of need (issue #35, speed): :func:`keep`, :func:`take`.

A node worker's start is two parts: the process's own start-up (node and its runtime, about half of
it, the same for every worker) and the init request (the bot's scripts). A certification starts some
thirty workers one after the other in each stream, and each waited for its node to start. Inside
:func:`keep`, a thread of this module starts processes of the kind a worker will need a little ahead,
on a core the streams leave idle at times, and a worker that :func:`take` s one only sends its init:
the same process, started the same way (Worker._start_child), that had done nothing but start. A
spare no worker took is killed when :func:`keep` ends.
"""
from __future__ import annotations

import contextlib
import threading
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass


@dataclass
class Spare:
    """A started child: its Popen, its line pipe, its stderr file and when it was started
    (time.perf_counter)."""

    proc: object
    pipe: object
    stderr: object
    started: float

    def kill(self) -> None:
        from .linepipe import kill_group
        kill_group(self.proc)
        self.pipe.close()
        self.proc.stdin.close()
        self.proc.stdout.close()
        self.stderr.close()


_lock = threading.Condition()
_ready: dict[Hashable, deque[Spare]] = {}


def take(key: Hashable) -> Spare | None:
    """A spare child of ``key`` (a worker's :meth:`~conformance.host.worker.Worker._child_key`), or
    None: the worker then starts its own."""
    with _lock:
        spares = _ready.get(key)
        if not spares:
            return None
        spare = spares.popleft()
        _lock.notify_all()  # the keeper starts the next one
        return spare


@contextlib.contextmanager
def keep(start: Callable[[], tuple[Hashable, Spare] | None], ahead: int, most: int):
    """While the ``with`` block runs, keep ``ahead`` children started by ``start()`` (a key and a
    spare, or None when none could be started) ready for :func:`take`, at most ``most`` in all (the
    workers the caller expects to start: no more are started for nothing)."""
    stop = threading.Event()
    keys: set = set()

    def keeper() -> None:
        started = 0
        while started < most and not stop.is_set():
            with _lock:
                while not stop.is_set() and sum(len(_ready.get(k, ())) for k in keys) >= ahead:
                    _lock.wait()
            if stop.is_set():
                return
            try:
                made = start()
            except Exception:  # noqa: BLE001 -- a spare only saves time: the workers start their own and say why
                return
            if made is None:
                return
            key, spare = made
            started += 1
            with _lock:
                if stop.is_set():
                    spare.kill()
                    return
                keys.add(key)
                _ready.setdefault(key, deque()).append(spare)

    thread = threading.Thread(target=keeper, name="spare-workers", daemon=True)
    thread.start()
    try:
        yield
    finally:
        with _lock:
            stop.set()
            _lock.notify_all()
        thread.join()
        with _lock:
            left = [s for k in keys for s in _ready.pop(k, ())]
        for spare in left:
            spare.kill()
