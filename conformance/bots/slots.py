"""How many streams of certification work run at once: :class:`Slots` (issue #25).

A stream is one worker's loop of decisions with its parent's judging (a battery pass, a table, the
node battery, a re-timing), an engine's certification, or ``certify``'s showcase. Bot certification
runs each of its stages in a slot (bot_cert.certify); ``holdem-cert bot`` has its own
``CertOptions.parallel`` slots (two: both cores), and ``holdem-cert certify`` shares ``--jobs``
slots between the engine's certification, the showcase and every bot certified side by side, across
their processes (a multiprocessing semaphore). So the timing measurements (decision times against the
deadline, re-timing, R33) never run beside more of the suite's own work than they do when one bot is
certified alone, however many bots a roster has.

Slots are re-entrant per thread: a stage that re-times a state from its own slot (a kill at the
deadline in a battery pass) does not take a second one.
"""
from __future__ import annotations

import contextlib
import threading


class Slots:
    """At most as many holders as the semaphore's value, a thread holding at most one."""

    def __init__(self, semaphore) -> None:
        self._semaphore = semaphore  # threading's or multiprocessing's (shared with other processes)
        self._local = threading.local()

    @classmethod
    def local(cls, n: int) -> Slots:
        """``n`` slots for this process alone."""
        return cls(threading.BoundedSemaphore(n))

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
