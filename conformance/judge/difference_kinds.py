"""What a difference is, whatever shows it (issue #38, item 3): its rule, its field and its kind.

One rule and one behaviour make one cause (conformance.judge.causes), whatever field, step form
(a holdem-sng-3-v4 step's ``steps[k].state.``), record (a state's history, ``history()``,
``log()``, a lone hand's ``result()``), argument shape or message wording shows it. The step judge
uses the same key inside a game: a difference that persists is counted once under its cause
(conformance.judge.comparison.Comparison), an independent one is a failure of its own.
"""
from __future__ import annotations

import re

# Clauses that state one rule of the text: bot-contract-v1's paragraph on short all-ins ("Short
# all-ins are accepted, but do not by themselves reopen a player who already acted. [...] The house
# convention also does not reopen a checker facing only a short opening all-in."). An engine whose
# short all-in reopens the betting breaks both clauses with one bug: one cause, naming both. A clause
# maps to the rule's first clause; other clauses are each a rule of their own.
ONE_RULE = {"rules.checker-convention": "rules.short-allin"}
ABSENT, MISSING = "(absent)", "(missing)"

_ACT = re.compile(r"^act\.action\b")
_INDEX = re.compile(r"\[\d+\]")
# A holdem-sng-3-v4 step's state, and a legality vector's state after a refusal, are decision states:
# ``steps[3].state.pots`` and ``stateAfter.pots`` are ``state.pots`` (a step's action is an action).
_STEP = re.compile(r"^(?:steps\[\]\.(?=state\.|action\b)|stateAfter(?=\.))")
# Where a hand record is seen: a state's history, history(), log()'s result, a lone hand's result -> one field.
_RECORD = re.compile(r"^(?:state\.history\[\]|history\(\)\[\]|log\(\)\[\]\.result|result\(\)\.result)\.")


def rule_of(clause: str | None) -> str:
    return ONE_RULE.get(clause or "", clause or "")


def field_of(path: str | None) -> str:
    """A difference's field: its path with list indices dropped, a step's state read as a decision
    state, a hand record's field named alike wherever the record is seen
    (``history()[3].winners[0].amount``, ``steps[2].state.history[2].winners[1].amount`` ->
    ``history.winners[].amount``)."""
    if not path:
        return ""
    path = _ACT.sub("action", path)  # a legality act's returned record is a game's action record
    return _RECORD.sub("history.", _STEP.sub(lambda m: "" if m.group(0).startswith("steps") else "state",
                                             _INDEX.sub("[]", path)))


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def kind_of(path: str, expected: object, actual: object) -> str:
    """The kind of a difference, in words."""
    leaf = field_of(path).rsplit(".", 1)[-1]
    if expected == ABSENT:
        return "an entry or field that should not be there"
    if isinstance(actual, str) and actual.startswith(MISSING[:-1]):
        return "missing"
    if expected is None and actual is not None:
        if leaf == "minRaiseTo":
            return "a raise offered where raising is closed"
        return "a value where null is due"
    if actual is None:
        return "null where a value is due"
    if leaf == "cards" or (isinstance(expected, list) and isinstance(actual, list)):
        if isinstance(expected, list) and isinstance(actual, list) and set(map(str, expected)) < set(map(str, actual)):
            return "more shown than due"
        return "other cards" if leaf in ("cards", "board") else "another list"
    if isinstance(expected, bool) or isinstance(actual, bool):
        return f"{_word(actual)} where {_word(expected)} is due"
    if leaf == "place" and _is_number(expected) and _is_number(actual):
        return "another place"  # places move both ways at once: one behaviour
    if _is_number(expected) and _is_number(actual):
        if leaf == "amount" and "winners" in path and actual > expected:
            return "more awarded than due"
        return "more than due" if actual > expected else "less than due"
    return "another value"


def _word(x: object) -> str:
    return "true" if x is True else "false" if x is False else type(x).__name__


def cause_key(clause: str | None, path: str | None, expected: object, actual: object, kind: str | None = None) -> tuple:
    """The key of a difference's cause: its rule, its field and its kind; a ``kind`` the judge
    classified from what differs (a refund counted as an award, the wheel missed, a seat asked to
    act that must not act) names the behaviour whatever field shows it, so the field is left out."""
    if kind:
        return rule_of(clause), "", kind
    return rule_of(clause), field_of(path), kind_of(path or "", expected, actual)
