"""What a helper's differing outcome shows, named as the same behaviour in a game is named (issue
#38, item 3): one rule and one behaviour make one cause, whichever API of the engine shows it.

An ``evaluate`` that misses A2345 breaks the wheel's rule (``rules.wheel``) as a showdown that
names a wheel "High card" does; a ``buildPots`` that leaves adjacent pots of the same eligible seats
apart breaks ``state.pots`` as a decision state's pots do, and one that leaves folded seats eligible
``rules.folded-chips``. Each function returns the (clause, kind)
of a failed helper outcome, or None when what differs is the helper's own (its vector's clause and
the message's words then name it: conformance.judge.causes).
"""
from __future__ import annotations

from reference.errors import EvaluateError
from reference.evaluator import evaluate

from .field_clauses import FOLDED_ELIGIBLE, UNMERGED, WHEEL_MISSED, is_wheel, pots_unmerged, pots_with_folded

WHEEL = ("rules.wheel", WHEEL_MISSED)
_STRAIGHT, _FLUSH, _STRAIGHT_FLUSH, _HIGH_CARD = 4, 5, 8, 0  # evaluate's ranks (contract: rank 0..8)


def _wheel_missed(cards: object, theirs: object) -> bool:
    """Whether ``cards`` make the wheel and the engine's evaluation of them (``theirs``) ranks them
    otherwise."""
    if not (isinstance(cards, list) and is_wheel(cards) and isinstance(theirs, dict)):
        return False
    try:
        return theirs.get("rank") != evaluate(cards)["rank"]
    except (EvaluateError, TypeError):
        return False


def _wheels_uncounted(expected: dict, actual: object) -> bool:
    """Whether the five-card digest's category counts are the expected ones with every wheel taken
    for the high card it would be without its straight (4^5 - 4 of them) and every steel wheel for a
    flush (4): the wheel missed, and nothing else."""
    counts = list(expected.get("categoryCounts") or ())
    if len(counts) != 9:
        return False
    wheels, steel = 4 ** 5 - 4, 4
    counts[_STRAIGHT] -= wheels
    counts[_HIGH_CARD] += wheels
    counts[_STRAIGHT_FLUSH] -= steel
    counts[_FLUSH] += steel
    return actual == counts


def evaluate_behaviour(test: dict, r: dict) -> "tuple[str, str] | None":
    i = test["input"]
    if "digest" in i:
        return WHEEL if _wheels_uncounted(test["expected"], r.get("categoryCounts")) else None
    if "a" in i:
        return WHEEL if any(_wheel_missed(i[k], r.get(k)) for k in ("a", "b")) else None
    return WHEEL if _wheel_missed(i.get("cards"), r.get("result")) else None


def equity_behaviour(test: dict, r: dict) -> "tuple[str, str] | None":
    """An equity off on a complete board where the engine's own ``evaluate`` of the hero's seven
    cards (the driver's ``own``) misses the hero's wheel: the wheel missed, in its equity too."""
    i = test["input"]
    cards = list(i.get("hole") or ()) + list(i.get("board") or ())
    return WHEEL if len(i.get("board") or ()) == 5 and _wheel_missed(cards, r.get("own")) else None


def pots_behaviour(test: dict, r: dict) -> "tuple[str, str] | None":
    expected = test["expected"].get("pots")
    if pots_unmerged(expected, r.get("pots")):
        return "state.pots", UNMERGED
    folded = {c.get("id") for c in test["input"].get("contributions") or () if isinstance(c, dict) and c.get("folded") is True}
    return ("rules.folded-chips", FOLDED_ELIGIBLE) if pots_with_folded(expected, r.get("pots"), folded) else None
