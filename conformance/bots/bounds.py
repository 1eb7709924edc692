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
  The states not run are a warning (``bound/kills``): their answers were not judged.
- A kill that re-timing proves late beyond doubt already ends the pass (bot_cert); the full-length
  table is then not played (nine copies killed one after the other add nothing to a rejection).

**By wall-clock time** (:class:`Clock`, ``CertOptions.time_budget_s``): each stage stops starting
decisions once its share of the budget has passed (:data:`SHARES`), so that a bot answering just
within the deadline on every state still ends. The machine's load decides where such a cut falls,
so it is never a rejection by itself: the report names the stage and what was not run, as a warning
(``bound/time``). A typical bot needs a small fraction of the budget.
"""
from __future__ import annotations

import contextlib
import time

FULL_TABLE_DECISIONS = 4000
MAX_BATTERY_KILLS = 5  # the first MAX_LATE_RETIMED (3) are re-timed, later ones follow their verdicts
TIME_BUDGET_S = 50.0  # the default budget; a stage in flight may run one deadline past its share
# The share of the budget after which a stage starts no more decisions: the battery's two passes
# (they run side by side), then the smoke tables, the full-length table and the node battery (side
# by side), then the re-timing of the slowest states.
SHARES = {"battery": 0.4, "tables": 0.8, "timing": 0.9}


class Clock:
    """Wall-clock time since the certification began, against its budget. Re-timing (bot_timing) is
    not counted (:meth:`excluding`): it is the evidence of a timing verdict, bounded by its own count
    (MAX_LATE_RETIMED kills and MAX_CRITICAL slow states), and must not eat the battery's share."""

    def __init__(self, budget_s: float, now=time.perf_counter, stretch: float = 1.0) -> None:
        self.budget_s = budget_s
        self.stretch = stretch  # the shares pass after stretch x their seconds (CertOptions.budget_stretch)
        self._now = now
        self._t0 = now()
        self._excluded = 0.0

    def past(self, stage: str) -> bool:
        """Whether ``stage``'s share of the budget has passed."""
        return self._now() - self._t0 - self._excluded > SHARES[stage] * self.budget_s * self.stretch

    @contextlib.contextmanager
    def excluding(self):
        """Leave the time spent in the ``with`` block out of the budget."""
        t0 = self._now()
        try:
            yield
        finally:
            self._excluded += self._now() - t0

    def share_s(self, stage: str) -> float:
        return SHARES[stage] * self.budget_s
