"""Per-case verdicts and the report that holds them: what the judge (and any later subject) fills
in; conformance.report.formats writes them as JSON, JUnit and the printed summary."""
from __future__ import annotations

from dataclasses import dataclass, field

# "error": a suite error (issue #38, item 4): the suite's own driver or strategies crashed on the
# vector, so it was not judged; never the engine's failure, and never certified over.
STATUSES = ("passed", "failed", "divergent", "skipped", "error")
SUITE_ERROR = "error"


@dataclass
class Case:
    """One test's verdict. ``message`` is one line; ``diff`` may span many."""

    id: str
    group: str
    status: str
    clauses: list[str] = field(default_factory=list)
    message: str = ""
    diff: str = ""
    rulings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    # A failed game's first divergence (conformance.judge.step_judge): the clause it breaks,
    # {hand, decision, path, expected, actual, clause}, the later differences counted under it and
    # the answers that led there.
    breaks: str | None = None
    # A failure with no game divergence whose behaviour is named as a game's difference is
    # (conformance.judge.helper_causes): one cause with it.
    kind: str | None = None
    first: dict | None = None
    later: int = 0
    answers: list = field(default_factory=list)
    # Every failure of a failed game (issue #23): its dealing difference and the first divergence of
    # each hand judged on after it, each as ``first`` is, with ``later`` (counted under it); see
    # conformance.judge.causes, which groups them by cause.
    failures: list = field(default_factory=list)
    alternative: dict | None = None  # a divergence proven by the reference: ruling id -> the option followed
    # A failure the reference reproduces only under options the contract's text rules out (issue #24):
    # ruling id -> option, a diagnosis, not an excuse.
    diagnosis: dict | None = None
    # Late under its time limit, answered on a retry with a larger one (engine_cert.RETRY_SCALE):
    # the retry's milliseconds. A slow engine is reported as slow, never failed for it.
    slow_ms: float | None = None
    vector: dict | None = None  # a failed fuzz game shrunk: a hands vector that reproduces it (conformance.judge.fuzz)
    vector_first: dict | None = None  # the shrunk game's own first divergence (its reproduction points there)
    # A failed vector's input in readable form and its reproduction (conformance.report.repro).
    input: dict | None = None
    repro: dict | None = None
    trajectory: dict | None = None  # the engine's states up to the divergence (trajectory.failing_game)


@dataclass
class Report:
    title: str  # e.g. "holdem-cert engine"
    subject_key: str  # the JSON key of ``subject`` ("engine")
    subject: dict
    groups: list[str]  # in order; every group has a line in the summary, even when empty
    cases: list[Case] = field(default_factory=list)
    smoke: list[Case] = field(default_factory=list)
    certified: bool = False
    verdict: str = ""
    # A run restricted to some families (--family): it says what it ran and is never a
    # certification (issue #12, item 7); ``ok`` says whether what it ran had no failure.
    partial: bool = False
    ok: bool = False
    ruleset: str | None = None  # what the verdict is for, when the subject plays under rulesets
    # Conformance profiles (conformance.judge.cert_profiles): profile -> {verdict, counts, families, reasons?}.
    profiles: dict | None = None
    # --coverage: V8's block coverage of the engine's own source (conformance.judge.coverage.summarize).
    coverage: dict | None = None

    def counts(self) -> dict[str, dict[str, int]]:
        out = {g: dict.fromkeys(STATUSES, 0) for g in self.groups}
        for case in self.cases:
            out.setdefault(case.group, dict.fromkeys(STATUSES, 0))[case.status] += 1
        return out

    def with_status(self, status: str) -> list[Case]:
        return [c for c in self.smoke + self.cases if c.status == status]
