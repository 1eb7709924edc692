"""A hand's records judged from the engine's own awards (issue #38, item 1).

Once a hand's ``winners`` differ (one difference, under the award's clause: field_clauses.
award_difference), what follows from the awards is judged from the engine's own, not counted again:
under holdem-sng-3-v4 the showdown shows the cards each *awarded* hand needs (R25, R31), from the
hole cards the reference dealt and followed; a ``log()`` record's ``chips`` are the hand's start
less its contributions plus its awards, the reference's own moved by what the engine awarded
otherwise. An engine whose showdown or chips do not follow from its own awards still differs
there, a cause of its own.
"""
from __future__ import annotations

import json

from reference.errors import HoldemError
from reference.evaluator import evaluate
from reference.hand import needed_hole_cards


def _awards(record: object) -> "dict | None":
    """id -> chips awarded by a hand record's ``winners``; None when it cannot be read."""
    try:
        awards: dict = {}
        for w in record["winners"]:
            if not (isinstance(w["id"], str) and isinstance(w["amount"], int) and not isinstance(w["amount"], bool)):
                return None
            awards[w["id"]] = awards.get(w["id"], 0) + w["amount"]
        return awards
    except (KeyError, TypeError):
        return None


def awards_differ(ours: object, theirs: object) -> bool:
    mine, their = _awards(ours), _awards(theirs)
    return mine is not None and their is not None and mine != their


def showdown_followed(ours: dict, theirs: object, hand: "dict | None", ids: list, ruleset) -> "list | None":
    """The showdown the engine's awards in its record ``theirs`` of a hand give (R25: each awarded
    hand's needed hole cards; R31: a pot no one contested reveals nothing unless its alternative is
    played), where they differ from the reference's record ``ours`` and the reveal depends on them
    (``ruleset.showdown_reveal == "needed"``); else None. ``hand``: the reference's full record of
    the hand (its hole cards and pots: the engine's own contributions, followed)."""
    if ruleset.showdown_reveal != "needed" or hand is None or not awards_differ(ours, theirs):
        return None
    try:
        board = list(ours["board"])
        contested = {i for pot in hand["pots"] if ruleset.reveal_uncontested_pots or len(pot["eligible"]) > 1
                     for i in pot["eligible"]}
        awarded = _awards(theirs)
        shown = [i for i in ids if i in contested and awarded.get(i, 0) > 0]
        return [{"id": i, "cards": needed_hole_cards(hand["holeCards"][i], board),
                 "hand": evaluate(hand["holeCards"][i] + board)["name"]} for i in shown]
    except (KeyError, TypeError, ValueError, HoldemError):
        return None


def _shows_its_awards(ours: object, theirs: object, hand: "dict | None", ids: list, ruleset) -> bool:
    """Whether the engine's record ``theirs`` of a hand shows the showdown its own awards give
    (:func:`showdown_followed`; in any order: R14 orders it) where they differ from ``ours``."""
    if not (isinstance(ours, dict) and isinstance(theirs, dict) and isinstance(theirs.get("showdown"), list)):
        return False
    due = showdown_followed(ours, theirs, hand, ids, ruleset)
    key = lambda x: json.dumps(x, sort_keys=True)  # noqa: E731
    return due is not None and sorted(map(key, due)) == sorted(map(key, theirs["showdown"]))


def chips_followed(ours: dict, theirs: object, ids: list) -> dict:
    """The reference's ``log()`` record ``ours`` of a hand with the chips the engine's awards in
    ``theirs`` (its ``log()`` record of the hand) give: each seat's end chips moved by what the
    engine awarded it more or less than the reference (the contributions are the engine's own,
    followed). Chips that are the reference's own are not moved: a record that misstates only its
    winners (a refund listed as an award) is that difference alone, as a derived field is wrong only
    when it is neither the reference's own nor what the engine's other fields give."""
    mine, their = _awards(ours.get("result")), _awards(theirs.get("result") if isinstance(theirs, dict) else None)
    chips = ours.get("chips")
    if mine is None or their is None or mine == their or not (isinstance(chips, list) and len(chips) == len(ids)) \
            or chips == theirs.get("chips"):
        return ours
    return {**ours, "chips": [c + their.get(i, 0) - mine.get(i, 0) for i, c in zip(ids, chips)]}


def by_hand(records: object) -> dict:
    """A list of hand records by hand number."""
    if not isinstance(records, list):
        return {}
    return {r["handNumber"]: r for r in records if isinstance(r, dict) and isinstance(r.get("handNumber"), int)}


def _pairs(ours: list, theirs: object):
    """``(k, our record, their record)`` for the records at the same place of two lists (as they
    are compared) that are of the same hand."""
    if not isinstance(theirs, list):
        return
    for k, (mine, their) in enumerate(zip(ours, theirs)):
        if isinstance(mine, dict) and isinstance(their, dict) and mine.get("handNumber") == their.get("handNumber"):
            yield k, mine, their


def showdowns_followed(ours: list, theirs: object, hands: list, ids: list, ruleset) -> list[int]:
    """The places ``k`` in the reference's public hand records ``ours`` (a history) whose showdown
    the engine's record ``theirs[k]`` of the same hand shows as its own awards give, where those
    differ: that showdown is the award's consequence, not a difference of its own.
    ``hands``: the reference's full records (Tournament.hands)."""
    full = by_hand(hands)
    return [k for k, mine, their in _pairs(ours, theirs)
            if _shows_its_awards(mine, their, full.get(mine["handNumber"]), ids, ruleset)]


def log_followed(ours: list, theirs: object, hands: list, ids: list, ruleset) -> tuple[list, list[int]]:
    """The reference's ``log()`` records with each one's chips judged from the engine's own awards
    where its ``log()`` record of the same hand awards otherwise (:func:`chips_followed`), and the
    places whose result's showdown follows from them (:func:`showdowns_followed`)."""
    full, followed, shown = by_hand(hands), list(ours), []
    for k, mine, their in _pairs(ours, theirs):
        followed[k] = chips_followed(mine, their, ids)
        if _shows_its_awards(mine.get("result"), their.get("result"), full.get(mine["handNumber"]), ids, ruleset):
            shown.append(k)
    return followed, shown
