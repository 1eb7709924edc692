"""Bot certification's options and report: :class:`CertOptions`, the reasons (an ``error`` rejects, an
``inconclusive`` one leaves the verdict open, a ``warning`` warns) and :class:`CertReport`, whose
verdict follows from its reasons; its JSON form. Each stage adds its part (conformance/bots/bot_cert.py
lists them).

A verdict is a promise (#35 item 4; docs/bot-certification.md, Bounds): "certified" only when every
part of the certification ran and holds. A part that a bound cut before it was judged whole (the
battery, a table stopped before its designed size, re-timing) makes the verdict **inconclusive**
(exit 3), unless an error already rejects the bot: what was judged and failed stays a rejection
whatever was not run."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from reference.errors import OptionError

from conformance.errors import UsageError
from conformance.harness.runner import RunnerOptions, check_bot_seed
from conformance.host import bot_host
from conformance.host.worker import Worker
from conformance.resources import HOUSE_ROSTER
from . import bounds, full_table
from .decision_kinds import KIND_SEED
from .random_states import GENERATION_SEED

# Deck seeds of the smoke tables by seat count: fixed, never derived from the botSeed.
SMOKE_DECK_SEEDS = {2: 2002, 6: 6006, 9: 9009}
TIMING_NOTE_V8 = (
    "The bot runs in V8 (node), the engine of the arena's browsers, with message delivery and the reading of "
    "its answer included; the worker is killed at the arena's deadline. A decision's time is its wall time "
    "less what the machine's load made it wait for a CPU. Every state killed at the deadline or slower than "
    "half of it is re-timed (median of 3 runs, each in a fresh worker after the states before it): above the "
    "deadline it is late (rejected), above half of it at risk (warned). See docs/bot-certification.md, "
    "Timing verdicts (ruling R33).")
TIMING_NOTE = (
    "Battery times are measured in QuickJS, an interpreter that runs integer-heavy JavaScript roughly 20x "
    "slower than a browser's JIT, with message delivery included; the worker is killed at the arena's "
    "deadline. Every state slower than half the deadline is re-timed (median of 3 runs in QuickJS and, "
    "when node is installed, in V8 worker threads as browsers run them): a bot is rejected for time only "
    "when QuickJS needs more than twice the deadline and V8 misses it too (QuickJS alone without node); "
    "near the deadline it is warned (at risk). See docs/bot-certification.md, Timing verdicts.")


@dataclass(frozen=True)
class CertOptions:
    bot_seed: int = 1
    init_ms: float = 5000
    decision_ms: float = 1000
    generated_states: int = 200  # random states; the stratified part (kind_states) holds the rest
    kind_states: int = 20  # the stratified part: at least this many states of each decision kind
    vector_states: int | None = None  # None: every vector state; N: the first N
    smoke_seats: tuple[int, ...] = (2, 6, 9)
    smoke_max_hands: int = 60
    full_table_hands: int = full_table.HANDS  # the nine-copy full-length table (conformance/bots/full_table.py); 0: none
    full_table_decisions: int = bounds.FULL_TABLE_DECISIONS  # ... and its decision cap (conformance/bots/bounds.py)
    time_budget_s: float = bounds.TIME_BUDGET_S  # CPU seconds (bounds.py); a cut is a warning, never a rejection
    parallel: int = 2  # worker passes and tables side by side (both cores); the report is the same with 1
    # How many streams of work share the machine with this certification's own (holdem-cert certify's
    # bots certified side by side): the wall-clock backstop (bounds.BACKSTOP_FACTOR) falls after this
    # many times its seconds (waiting for a slot costs wall time, no CPU). The CPU budget does not
    # stretch: it counts this certification's work alone. Not in the report (its cuts are).
    budget_stretch: float = 1.0
    memory_limit: int | None = None  # bytes per worker; None: the host's default (256 MiB)
    node: bool = True  # on the QuickJS host, also time in node (V8) when it is installed (bot_timing)
    # Where the bot runs (conformance/host/bot_host.py): "node" (V8, as the arena's browsers) or "quickjs";
    # by default node where the suite finds one, else quickjs, as the commands' (bot_host.default_name).
    host: str = field(default_factory=bot_host.default_name)
    house_roster: Path = HOUSE_ROSTER

    def __post_init__(self) -> None:
        check_bot_seed(self.bot_seed, "seed")
        RunnerOptions(init_ms=self.init_ms, decision_ms=self.decision_ms)  # validates both
        for name, least in (("generated_states", 0), ("kind_states", 0), ("smoke_max_hands", 1),
                            ("full_table_hands", 0), ("full_table_decisions", 1), ("parallel", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise OptionError(name, f"expected an integer of at least {least}, got {value!r}")
        for name in ("time_budget_s", "budget_stretch"):
            budget = getattr(self, name)
            if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not budget > 0:
                raise OptionError(name, f"expected a positive number, got {budget!r}")
        if self.vector_states is not None and (isinstance(self.vector_states, bool)
                                               or not isinstance(self.vector_states, int) or self.vector_states < 0):
            raise OptionError("vector_states", f"expected None or a non-negative integer, got {self.vector_states!r}")
        for n in self.smoke_seats:
            if n not in SMOKE_DECK_SEEDS:
                raise OptionError("smoke_seats", f"{n} is not one of {sorted(SMOKE_DECK_SEEDS)}")
        if self.host not in bot_host.HOSTS:
            raise OptionError("host", f"expected one of {', '.join(bot_host.HOSTS)}, got {self.host!r}")

    def chosen_host(self) -> bot_host.BotHost:
        """The host the bot runs on (OptionError when it is node and there is none)."""
        try:
            return bot_host.choose(self.host, "host")
        except UsageError as exc:
            raise OptionError("host", str(exc)) from None

    def worker(self, cpu_meter: "Callable[[float], None] | None" = None) -> Worker:
        """A fresh worker of the bot's host (not started)."""
        return self.chosen_host().worker(memory_limit=self.memory_limit, cpu_meter=cpu_meter)

    @property
    def host_label(self) -> str:
        """The host in a message's words: "V8" or "QuickJS"."""
        return "V8" if self.host == "node" else "QuickJS"


@dataclass(frozen=True)
class Reason:
    severity: str  # "error" rejects, "inconclusive" leaves the verdict open (a part cut), "warning" warns
    category: str  # static, encoding, load, decision, violation, environment, determinism, tournament,
    #                isolation, timing, roster, bound
    code: str  # a lint rule id, an outcome kind, an error category or code, a roster field
    message: str
    example: str | None = None  # where: line:column, a state id, a table and decision

    def to_json(self) -> dict:
        return {"severity": self.severity, "category": self.category, "code": self.code,
                "message": self.message, "example": self.example}


@dataclass
class CertReport:
    file: str
    options: CertOptions
    reasons: list[Reason] = field(default_factory=list)
    static: list[dict] = field(default_factory=list)
    load: dict | None = None
    battery: dict | None = None
    environment: dict | None = None
    determinism: dict | None = None
    tournaments: list[dict] = field(default_factory=list)
    timing: dict | None = None
    full_table: dict | None = None
    profile: dict | None = None
    roster_entry: dict | None = None
    skipped: list[str] = field(default_factory=list)  # stages not run, and why
    not_run: list[dict] = field(default_factory=list)  # what cuts left unjudged (conformance/bots/cert_cuts.py)

    @property
    def verdict(self) -> str:
        if any(r.severity == "error" for r in self.reasons):
            return "rejected"
        if any(r.severity == "inconclusive" for r in self.reasons):
            return "inconclusive"
        return "certified with warnings" if self.reasons else "certified"

    @property
    def exit_code(self) -> int:
        """``holdem-cert bot``'s exit code: 0 certified (warnings included), 1 rejected, 3 inconclusive."""
        return VERDICT_EXIT[self.verdict]

    def error(self, category: str, code: str, message: str, example: str | None = None) -> None:
        self.reasons.append(Reason("error", category, code, message, example))

    def warning(self, category: str, code: str, message: str, example: str | None = None) -> None:
        self.reasons.append(Reason("warning", category, code, message, example))

    @property
    def timing_note(self) -> str:
        """How the bot's times were measured, on its host."""
        return TIMING_NOTE_V8 if self.options.host == "node" else TIMING_NOTE

    def inconclusive(self, category: str, code: str, message: str, example: str | None = None) -> None:
        """A part not judged whole (conformance/bots/cert_cuts.py): the verdict cannot be given."""
        self.reasons.append(Reason("inconclusive", category, code, message, example))

    def to_json(self) -> dict:
        o = self.options
        return {
            "file": self.file,
            "verdict": self.verdict,
            # What bounds cut before it was judged (conformance/bots/cert_cuts.py) and the --time-budget
            # estimated to finish it (None: a larger budget would not: a loaded machine, kills at the
            # deadline); None when every part was judged whole.
            "cuts": None if not self.not_run else {
                "notRun": [{k: v for k, v in n.items() if k != "message"} for n in self.not_run],
                "timeBudgetS": max((n["budgetS"] for n in self.not_run if n["budgetS"] is not None), default=None)},
            "reasons": [r.to_json() for r in self.reasons],
            "options": {"botSeed": o.bot_seed, "initMs": o.init_ms, "decisionMs": o.decision_ms,
                        "generatedStates": o.generated_states, "kindStates": o.kind_states,
                        "vectorStates": o.vector_states,
                        "host": o.host, "smokeSeats": list(o.smoke_seats), "smokeMaxHands": o.smoke_max_hands,
                        "fullTableHands": o.full_table_hands, "fullTableDecisions": o.full_table_decisions,
                        "timeBudgetS": o.time_budget_s,
                        "memoryLimit": o.memory_limit, "generationSeed": GENERATION_SEED,
                        "kindSeed": KIND_SEED,
                        "smokeDeckSeeds": {str(n): SMOKE_DECK_SEEDS[n] for n in o.smoke_seats}},
            "static": self.static,
            "load": self.load,
            "battery": self.battery,
            "environment": self.environment,
            "determinism": self.determinism,
            "tournaments": self.tournaments,
            "timing": self.timing,
            "fullTable": self.full_table,
            "profile": self.profile,
            "rosterEntry": self.roster_entry,
            "timingNote": self.timing_note,
            "skipped": self.skipped,
        }


VERDICT_EXIT = {"certified": 0, "certified with warnings": 0, "rejected": 1, "inconclusive": 3}
Progress = Callable[[str, int, "int | None"], None]  # (stage, done, total or None)


def codes_text(codes: Mapping[str, int]) -> str:
    return ", ".join(f"{code} {n}" for code, n in sorted(codes.items()))
