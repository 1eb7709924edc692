"""A family judge's answer (:class:`Judged`) and the rules every family judge shares: equal
passes, an order-only or ruling-level difference is divergent, a call that must throw."""
from __future__ import annotations

from collections.abc import Callable, Iterable

from conformance.vectors import schemas
from .diffs import compare, readable_diff
from .js_values import js_text
from .refusals import is_refusal
from .comparison import ORDER_FREE
from .step_judge import GameVerdict
from .verdicts import SUITE_ERROR

# ---- verdicts -----------------------------------------------------------------------------------

class Judged:
    """A family judge's answer; the runner adds id, group, clauses and timing."""

    def __init__(self, status: str, message: str = "", diff: str = "", rulings: Iterable[str] = (),
                 notes: Iterable[str] = ()) -> None:
        self.status, self.message, self.diff = status, message, diff
        self.rulings, self.notes = list(rulings), list(notes)
        # A game's first divergence (comparison.Divergence), the later differences counted under
        # it and the answers that led there.
        self.first, self.later, self.answers = None, 0, []
        self.alternative = None  # a proven divergence: the ruling options the engine follows
        self.diagnosis = None  # a failure reproduced under options the text rules out (proof.search)
        self.failures = []  # every failure of a game (step_judge.GameVerdict.failures)
        self.breaks = None  # the clause a failure with no game divergence (``first``) breaks
        self.kind = None  # what it shows, named as a game's difference is (helper_causes), or None


def passed(notes: Iterable[str] = ()) -> Judged:
    return Judged("passed", notes=notes)


def failed(message: str, diff: str = "", notes: Iterable[str] = (), breaks: str | None = None) -> Judged:
    j = Judged("failed", message, diff, notes=notes)
    j.breaks = breaks
    return j


def suite_error(message: str) -> Judged:
    """The suite's own driver or strategies crashed on the vector (issue #38, item 4): not judged,
    and never the engine's failure (verdicts.SUITE_ERROR)."""
    return Judged(SUITE_ERROR, f"suite error (the suite's own, not the engine's): {message}")


def thrown_text(threw: object) -> str:
    if not isinstance(threw, dict):
        return js_text(threw)
    name = threw.get("name")
    return f"{name}: {threw.get('message')}" if name else str(threw.get("message"))


def failure_text(error: object) -> str:
    if not isinstance(error, dict):
        return js_text(error)
    return f"at {error.get('at')}: {thrown_text(error)}"


def judge_outcome(test: dict, actual: object, expected: object,
                  well_formed: Callable[[], str | None] | None = None, notes: Iterable[str] = ()) -> Judged:
    """The common rule: equal passes; order-only differs is divergent on R14/R5; an ``acceptable``
    vector whose outcome is well formed is divergent on its rulings; anything else fails."""
    kind, rulings = compare(actual, expected)
    if kind == "equal":
        return passed(notes)
    diff = readable_diff(expected, actual)
    if kind == "order":
        keys = sorted({k for k, r in ORDER_FREE.items() if r in rulings})
        return Judged("divergent", f"differs only in the order of {', '.join(keys)}", diff, rulings, notes)
    if test["result"] == "acceptable" and well_formed is not None:
        problem = well_formed()
        if problem is None:
            return Judged("divergent", "a different outcome that is well formed", diff, test["rulings"], notes)
        return failed(f"differs from the expected outcome and is not well formed: {problem}", diff, notes)
    return failed("differs from the expected outcome", diff, notes)


def must_throw(r: dict, call: str, test: dict, well_formed: Callable[[object], str | None] | None = None,
                returned: object = None) -> Judged:
    if is_refusal(r):  # any refusal (refusals.py); the vectors give no code here
        return passed()
    if test["result"] == "acceptable" and well_formed is not None and well_formed(returned) is None:
        return Judged("divergent", f"{call} returned {js_text(returned)} instead of throwing", rulings=test["rulings"])
    return failed(f"{call} must throw (invalid {test['expected'].get('error', 'input')}), but returned {js_text(returned)}")


def state_problem(state: object, what: str) -> str | None:
    problems = schemas.errors("state", state, limit=1)
    return f"{what}: {problems[0]}" if problems else None


def game_judged(v: GameVerdict) -> Judged:
    j = Judged(v.status, v.message, v.details, v.rulings, v.notes)
    j.first, j.later, j.answers, j.alternative = v.first, v.later, v.answers, v.alternative
    j.diagnosis = v.diagnosis
    j.failures = list(v.failures)
    return j


NO_DECISIONS = "the engine reported no decisions (an optional extension): judged on its end (log, standings) only"
