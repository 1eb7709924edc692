"""How many streams of certification work run at once: :class:`Slots` (issue #25).

A stream is one worker's loop of decisions with its parent's judging (a battery pass, a table, the
node battery, a re-timing), an engine's certification, or ``certify``'s showcase. Bot certification
runs each of its stages in a slot (bot_cert.certify); ``holdem-cert bot`` has its own
``CertOptions.parallel`` slots (two: both cores), and ``holdem-cert certify`` shares ``--jobs``
slots between the engine's certification, the showcase and every bot certified side by side, across
their processes (:meth:`Slots.shared`: a lock file per slot). So the timing measurements (decision times against the
deadline, re-timing, R33) never run beside more of the suite's own work than they do when one bot is
certified alone, however many bots a roster has.

Slots are re-entrant per thread: a stage that re-times a state from its own slot (a kill at the
deadline in a battery pass) does not take a second one.

Shared slots are ``flock`` locks on files, not a semaphore: the kernel releases a lock when its
holder dies, so a bot's process killed while it holds a slot (the OOM killer, a bug of ours) gives
the slot back instead of taking it with it (a semaphore would stay taken, and the run would hang
once every slot was lost).
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
import threading
import time
import weakref

_POLL_S = 0.005  # how often a stream waiting for a shared slot tries the locks again


class _LockFiles:
    """``n`` slots shared by processes: slot k is an exclusive ``flock`` on file k of ``directory``
    (each holder opens its own descriptor, so threads of one process exclude each other too)."""

    def __init__(self, directory: str, n: int) -> None:
        self.directory, self.n = directory, n
        self._held = threading.local()

    def acquire(self) -> None:
        while True:
            for k in range(self.n):
                fd = os.open(os.path.join(self.directory, str(k)), os.O_RDWR | os.O_CREAT, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(fd)
                    continue
                self._held.fd = fd
                return
            time.sleep(_POLL_S)

    def release(self) -> None:
        fd, self._held.fd = self._held.fd, None
        os.close(fd)  # closing the descriptor releases its lock

    def __getstate__(self) -> dict:
        return {"directory": self.directory, "n": self.n}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["directory"], state["n"])


class Slots:
    """At most ``n`` holders at once, a thread holding at most one."""

    def __init__(self, semaphore) -> None:
        self._semaphore = semaphore  # a threading semaphore (one process) or _LockFiles (shared)
        self._local = threading.local()

    @classmethod
    def local(cls, n: int) -> Slots:
        """``n`` slots for this process alone."""
        return cls(threading.BoundedSemaphore(n))

    @classmethod
    def shared(cls, n: int) -> Slots:
        """``n`` slots shared with the processes this one passes them to (pickled), held through
        lock files in a directory of their own, removed when this object is collected."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"slots: a positive number is needed, got {n!r}")
        directory = tempfile.mkdtemp(prefix="holdem-slots-")
        slots = cls(_LockFiles(directory, n))
        weakref.finalize(slots, shutil.rmtree, directory, True)
        return slots

    @contextlib.contextmanager
    def held(self):
        """Run the ``with`` block in a slot (waiting for one), or in the slot this thread holds."""
        depth = getattr(self._local, "depth", 0)
        if depth == 0:
            self._semaphore.acquire()
        self._local.depth = depth + 1
        try:
            yield
        finally:
            self._local.depth = depth
            if depth == 0:
                self._semaphore.release()

    def run(self, function, *args, **kwargs):
        """``function(*args, **kwargs)`` in a slot."""
        with self.held():
            return function(*args, **kwargs)

    def __getstate__(self) -> dict:  # to a task's process: the shared semaphore only
        return {"semaphore": self._semaphore}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["semaphore"])
