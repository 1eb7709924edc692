"""The bounds of a bot's certification (issue #25): every bot, however slow or passive, gets its
verdict in bounded time, and a compliant bot's verdict does not depend on them.

**By count** (the same cut on every machine):

- :data:`FULL_TABLE_DECISIONS`: the full-length table (:mod:`conformance.bots.full_table`) stops after
  this many decisions, whatever its hand count. Nine copies of a passive bot (checking and calling)
  take about 120 decisions a hand: 36,695 for the contract's 300 hands, five minutes. The cut is part
  of what the certification checks, like the smoke tables' hand cap: the report says where the table
  stopped (``fullTable.cut``, and ``skipped``), and it is no reason against the bot.
- :data:`MAX_BATTERY_KILLS`: a battery pass stops at this many kills at the deadline that
  re-timing did not prove late (the first three are re-timed, ruling R33; the later ones follow
  their verdicts) (a bot at risk, ruling R33: each kill costs a deadline and a fresh
  worker, and a bot slow at nine seats was killed on every nine-seat state, for many minutes).
  The states not run make the verdict inconclusive (``bound/kills``): their answers were not judged.
- A kill that re-timing proves late beyond doubt already ends the pass (bot_cert); the full-length
  table is then not played (nine copies killed one after the other add nothing to a rejection).

**By CPU time** (:class:`Clock` over a :class:`CpuClock`, ``CertOptions.time_budget_s``): each stage
stops starting decisions once its share of the budget has passed (:data:`SHARES`), so that a bot
answering just within the deadline on every state still ends. The budget counts the CPU time of the
certification's own work, summed over its streams: its threads in this process (the judging, the
reference tables) and its QuickJS workers, the bot's and the house samples' at the tables, start-up
included (each worker reports its CPU time, ``cpuMs``). A loaded machine stretches wall time, not
CPU time, so it moves no cut a quiet machine would not make (issue #25: a verdict must not depend on
the machine's load), and the stages side by side (``CertOptions.parallel``) cut where one worker at a
time does. Such a cut makes the verdict inconclusive (``bound/time``, conformance/bots/cert_cuts.py),
never a rejection: CPU time still varies a little from run to run. A typical bot needs a small fraction of the budget (the house samples'
whole certification: 13-20 s of CPU time).

What the CPU clock does not see is wall time with no CPU behind it, and each such wait is bounded
by a count or by a deadline per decision: a worker killed at the deadline (at most
:data:`MAX_BATTERY_KILLS` per battery pass, the first kill proven late ends it; one per seat at a
table, whose seat is then dead), a worker's start-up and init (one per kill, at most the init
deadline), a slot of ``holdem-cert certify`` held by another bot (its work), node's V8 (the node
battery stops once its own decision times, measured in node, add up to the tables' share: its cut
is for the report only, bot_cert), and re-timing (excluded, bounded by its own counts). A QuickJS
bot cannot wait without burning CPU (no timers, ``Atomics.wait`` cannot block there). So on a
machine that gives each of its P streams a core, the certification's wall time is about B/P to B
(the budget's CPU seconds) plus the kills' deadlines; see docs/bot-certification.md, Bounds.

**By wall-clock time, as a backstop** (``Clock``'s ``wall``): a stage's share also passes once
:data:`BACKSTOP_FACTOR` times its seconds (times ``stretch``) have passed on the wall clock, which
only a machine loaded far beyond a few times its cores reaches (the wall clock then runs that many
times faster than the certification's CPU). Its cut (``bound/load``) says the machine's load cut the
stage, so that nothing hangs whatever the load; the verdict is inconclusive, never one either way.
"""
from __future__ import annotations

import contextlib
import threading
import time

FULL_TABLE_DECISIONS = 4000
MAX_BATTERY_KILLS = 5  # the first MAX_LATE_RETIMED (3) are re-timed, later ones follow their verdicts
TIME_BUDGET_S = 50.0  # the default budget, CPU seconds; a stage in flight may run one deadline past its share
# The wall-clock backstop, in times the budget: far above what a loaded machine stretches wall time by
# (load 14 on 2 cores: about 7 x), so that it cuts only where the machine is loaded past reason.
BACKSTOP_FACTOR = 20.0
# The share of the budget after which a stage starts no more decisions: the battery's two passes
# (they run side by side), then the smoke tables, the full-length table and the node battery (side
# by side), then the re-timing of the slowest states.
SHARES = {"battery": 0.4, "tables": 0.8, "timing": 0.9}


def wall_clock() -> float:
    """The wall clock of the backstop (``time.perf_counter``; a test makes it run fast)."""
    return time.perf_counter()


def _thread_cpu_reader():
    """A function giving a thread's CPU seconds by its ``threading.get_ident()``, or None where the
    platform has no per-thread CPU clocks: the process's CPU time is counted then, which is exact
    when one certification runs in the process (``holdem-cert bot``, certify's bot pool)."""
    getclock = getattr(time, "pthread_getcpuclockid", None)
    if getclock is None:
        return None
    return lambda ident: time.clock_gettime(getclock(ident))


class CpuClock:
    """CPU seconds of one certification's own work since it began, a ``now`` for :class:`Clock`:
    the CPU time of the threads that do its work in this process (:meth:`counting`: the stages'
    threads; other work in the same process, such as a second certification side by side in
    threads, is not counted), plus the CPU time its workers report (:meth:`add`, given to each
    ``Worker`` as ``cpu_meter``). Thread-safe: every stage reads and adds to one clock."""

    def __init__(self, thread_cpu=None) -> None:
        self._thread_cpu = thread_cpu if thread_cpu is not None else _thread_cpu_reader()
        self._lock = threading.Lock()
        self._reported = 0.0  # seconds the workers reported
        self._done = 0.0  # seconds of the threads that stopped counting, net of their exclusions
        self._threads: dict[int, list] = {}  # ident -> [depth, CPU at start, excluded so far]
        self._process0 = time.process_time()  # without per-thread clocks
        self._excluded = 0.0  # ... and what excluding() left out of it

    def add(self, cpu_ms: float) -> None:
        """A worker's report: ``cpu_ms`` milliseconds of its CPU time."""
        with self._lock:
            self._reported += cpu_ms / 1000

    @contextlib.contextmanager
    def counting(self):
        """Count the calling thread's CPU time in the ``with`` block (re-entrant)."""
        if self._thread_cpu is None:  # the process's CPU time is counted whole
            yield
            return
        ident = threading.get_ident()
        with self._lock:
            entry = self._threads.get(ident)
            if entry is None:
                entry = self._threads[ident] = [0, self._thread_cpu(ident), 0.0]
            entry[0] += 1
        try:
            yield
        finally:
            with self._lock:
                entry[0] -= 1
                if entry[0] == 0:
                    del self._threads[ident]
                    self._done += self._thread_cpu(ident) - entry[1] - entry[2]

    @contextlib.contextmanager
    def excluding(self):
        """Leave the calling thread's CPU time in the ``with`` block out (its workers report nothing
        meanwhile: re-timing's workers get no meter)."""
        ident = threading.get_ident()
        own = (lambda: self._thread_cpu(ident)) if self._thread_cpu is not None else time.process_time
        t0 = own()
        try:
            yield
        finally:
            spent = own() - t0
            with self._lock:
                entry = self._threads.get(ident)
                if entry is not None:
                    entry[2] += spent
                elif self._thread_cpu is None:
                    self._excluded += spent

    def __call__(self) -> float:
        """The CPU seconds counted so far."""
        with self._lock:
            if self._thread_cpu is None:
                return self._reported + time.process_time() - self._process0 - self._excluded
            live = sum(self._thread_cpu(ident) - start - excluded
                       for ident, (_, start, excluded) in self._threads.items())
            return self._reported + self._done + live


class Clock:
    """The certification's time against its budget: ``now`` (a :class:`CpuClock`, CPU seconds; any
    function of seconds will do) decides the cuts, ``wall`` the backstop (:data:`BACKSTOP_FACTOR`).
    Re-timing (bot_timing) is not counted (:meth:`excluding`): it is the evidence of a timing
    verdict, bounded by its own count (MAX_LATE_RETIMED kills and MAX_CRITICAL slow states), and
    must not eat the battery's share."""

    def __init__(self, budget_s: float, now=None, stretch: float = 1.0, wall=None,
                 backstop: float = BACKSTOP_FACTOR) -> None:
        self.budget_s = budget_s
        # The backstop's shares pass after stretch x their wall seconds (CertOptions.budget_stretch):
        # a certification sharing the machine's slots with others waits for them without CPU.
        self.stretch = stretch
        self.backstop = backstop
        self._now = now if now is not None else CpuClock()
        self._wall = wall if wall is not None else wall_clock
        self._t0 = self._now()
        self._w0 = self._wall()
        self._excluded = 0.0  # of ``now`` (when it cannot exclude by itself)
        self._wall_excluded = 0.0
        self._lock = threading.Lock()

    def past(self, stage: str) -> str | None:
        """Whether ``stage``'s share of the budget has passed: ``"time"`` (the budget: CPU time),
        ``"load"`` (the wall-clock backstop), or None."""
        share = self.share_s(stage)
        if self.spent() > share:
            return "time"
        if self._wall() - self._w0 - self._wall_excluded > share * self.backstop * self.stretch:
            return "load"
        return None

    @contextlib.contextmanager
    def excluding(self):
        """Leave the time spent in the ``with`` block out of the budget (the calling thread's own, for
        a clock that can tell: CpuClock) and of the backstop."""
        own = getattr(self._now, "excluding", None)
        t0, w0 = self._now(), self._wall()
        try:
            if own is not None:
                with own():
                    yield
            else:
                yield
        finally:
            with self._lock:
                if own is None:
                    self._excluded += self._now() - t0
                self._wall_excluded += self._wall() - w0

    def spent(self) -> float:
        """The seconds counted against the budget so far (what :meth:`past` compares with a share)."""
        return self._now() - self._t0 - self._excluded

    def share_s(self, stage: str) -> float:
        return SHARES[stage] * self.budget_s
