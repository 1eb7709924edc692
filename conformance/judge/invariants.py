"""The rules every game an engine plays must keep, whatever spec it was given (R38, docs/rulings.md).

An engine that takes a game spec it should refuse (R38) is divergent on R38 for taking it; the
game it then plays has no valid spec to be replayed from, so it is judged by the rules that need
none (docs/INTERPRETING.md, Refusals):

- no card dealt twice in a hand (``rules.deck-distinct``: "a fresh 52-card shuffled order", one
  deck per hand): a card held by two seats, or by a seat and the board, or twice in one list;
- chips conserved: the table's chips (every seat's stack plus what it committed this hand) are
  those of the engine's first state in every later state, after every hand of ``log()``, in
  ``standings()`` and in a lone hand's ``result()``.

Each state's fields against its own other fields (``minRaiseTo`` from ``currentBet`` and
``lastFullRaise``, ``pots`` from the contributions...) is the third such rule: it belongs to
``conformance/judge/derived_fields.py`` (issue #38, item 1), which :func:`broken` is to call once
that module exists (not yet on this branch).

Only what the engine reported is read, and any shape is tolerated: a malformed field is not this
module's to name (the schema checks do), it is skipped.

A game of a valid spec has its chips checked against the spec's starting chips too (:func:`chips_lost`,
:func:`conserved`: the game families' and the smoke tier's check, which no ruling changes).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from reference.adapter import given_options

from .diffs import is_number
from .families import DEFAULT_RULESET, DEFAULT_STARTING_STACK
from .js_values import js_text

DECK_CLAUSE = "rules.deck-distinct"
CHIPS_CLAUSE = "rules.chips-conserved"


@dataclass(frozen=True)
class Broken:
    """One place where a game breaks a rule every game keeps."""

    clause: str
    message: str


def _states(r: dict) -> Iterator[dict]:
    """The decision states the engine reported, in order: sng3v4's steps first, then the decisions."""
    for step in r.get("steps") if isinstance(r.get("steps"), list) else []:
        if isinstance(step, dict) and isinstance(step.get("state"), dict):
            yield step["state"]
    for state in r.get("decisions") if isinstance(r.get("decisions"), list) else []:
        if isinstance(state, dict):
            yield state


def _records(r: dict) -> Iterator[dict]:
    """The hand records (history entries) the engine reported: in its states' histories, history(),
    log()'s results and a lone hand's result()."""
    for h in r.get("histories") if isinstance(r.get("histories"), list) else []:
        if isinstance(h, dict) and isinstance(h.get("history"), list):
            yield from (e for e in h["history"] if isinstance(e, dict))
    for state in _states(r):
        if isinstance(state.get("history"), list):
            yield from (e for e in state["history"] if isinstance(e, dict))
    if isinstance(r.get("history"), list):
        yield from (e for e in r["history"] if isinstance(e, dict))
    for entry in r.get("log") if isinstance(r.get("log"), list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("result"), dict):
            yield entry["result"]
    result = r.get("result")
    if isinstance(result, dict) and isinstance(result.get("result"), dict):
        yield result["result"]


def _cards(value: object) -> list[str]:
    return [c for c in value if isinstance(c, str)] if isinstance(value, list) else []


def dealt_twice(r: dict) -> list[Broken]:
    """Each hand in which some card is dealt twice (one Broken per hand, naming the first card)."""
    holders: dict[object, dict[str, set[str]]] = {}  # hand -> card -> who holds it
    repeated: dict[object, str] = {}  # hand -> a card repeated within one list (a seat's or the board)

    def seen(hand: object, holder: str, cards: list[str]) -> None:
        if len(set(cards)) < len(cards) and hand not in repeated:
            card = next(c for c in cards if cards.count(c) > 1)
            repeated[hand] = f"{card} twice in {holder}'s cards {js_text(cards)}"
        for card in cards:
            holders.setdefault(hand, {}).setdefault(card, set()).add(holder)

    for state in _states(r):
        hand, you = state.get("handNumber"), state.get("you")
        if isinstance(you, dict) and isinstance(you.get("id"), str):
            seen(hand, you["id"], _cards(you.get("cards")))
        seen(hand, "the board", _cards(state.get("board")))
    for record in _records(r):
        hand = record.get("handNumber")
        seen(hand, "the board", _cards(record.get("board")))
        for shown in record.get("showdown") if isinstance(record.get("showdown"), list) else []:
            if isinstance(shown, dict) and isinstance(shown.get("id"), str):
                seen(hand, shown["id"], _cards(shown.get("cards")))
    out = []
    for hand in sorted(set(holders) | set(repeated), key=js_text):
        twice = next(((card, sorted(who)) for card, who in holders.get(hand, {}).items() if len(who) > 1), None)
        if twice is not None:
            card, who = twice
            out.append(Broken(DECK_CLAUSE, f"hand {js_text(hand)}: {card} is dealt twice, to {' and '.join(who)} "
                                           "(one 52-card deck per hand)"))
        elif hand in repeated:
            out.append(Broken(DECK_CLAUSE, f"hand {js_text(hand)}: {repeated[hand]} (one 52-card deck per hand)"))
    return out


def _table_chips(state: dict) -> int | float | None:
    seats = state.get("seats")
    if not isinstance(seats, list) or not seats:
        return None
    chips = [(s.get("stack"), s.get("total")) for s in seats if isinstance(s, dict)]
    if len(chips) != len(seats) or not all(is_number(a) and is_number(b) for a, b in chips):
        return None
    return sum(a + b for a, b in chips)


def _chip_list_total(chips: object) -> int | float | None:
    if isinstance(chips, list) and chips and all(is_number(c) for c in chips):
        return sum(chips)
    return None


def chips_changed(r: dict) -> list[Broken]:
    """The first place where the table's chips differ from the engine's first state's (one Broken)."""
    start, where = None, None
    for k, state in enumerate(_states(r)):
        total = _table_chips(state)
        if total is None:
            continue
        if start is None:
            start, where = total, f"the first state (hand {js_text(state.get('handNumber'))})"
        elif total != start:
            return [Broken(CHIPS_CLAUSE, f"hand {js_text(state.get('handNumber'))}: the table holds {js_text(total)} "
                                         f"chips (stacks and committed), {where} {js_text(start)}")]
    if start is None:
        return []
    ends = [(f"log() hand {js_text(e.get('handNumber'))}", e.get("chips"))
            for e in (r.get("log") if isinstance(r.get("log"), list) else []) if isinstance(e, dict)]
    standings = r.get("standings")
    if isinstance(standings, list) and all(isinstance(s, dict) for s in standings):
        ends.append(("standings()", [s.get("chips") for s in standings]))
    if isinstance(r.get("result"), dict):
        ends.append(("result()", r["result"].get("chips")))
    for name, chips in ends:
        total = _chip_list_total(chips)
        if total is not None and total != start:
            return [Broken(CHIPS_CLAUSE, f"{name}: the seats hold {js_text(total)} chips, {where} {js_text(start)}")]
    return []


# ---- chips against a valid spec's starting chips (the game families' own check, any ruling) ---------

def _starting_chips(game: dict) -> int:
    options = given_options(game)  # null for stacks is none given (R42)
    if "stacks" in options:
        return sum(options["stacks"])
    default = DEFAULT_STARTING_STACK[options.get("ruleset", DEFAULT_RULESET)]
    return options.get("startingStack", default) * len(game["seats"])


def standings_chips(standings: object) -> object:
    if isinstance(standings, list) and all(isinstance(s, dict) for s in standings):
        return [s.get("chips") for s in standings]
    return standings


def conserved(game: dict, chips: object) -> str | None:
    if not (isinstance(chips, list) and all(isinstance(c, int) and not isinstance(c, bool) for c in chips)):
        return f"standings chips {js_text(chips)} are not integers"
    total = _starting_chips(game)
    return None if sum(chips) == total else f"the standings hold {sum(chips)} chips, the game started with {total}"


def chips_lost(game: dict, r: dict) -> str | None:
    """A chip created or lost in the standings or after some hand of the log: no ruling does that."""
    if problem := conserved(game, standings_chips(r.get("standings"))):
        return problem
    for entry in r.get("log") if isinstance(r.get("log"), list) else []:
        if problem := conserved(game, entry.get("chips") if isinstance(entry, dict) else entry):
            return f"log() hand {entry.get('handNumber') if isinstance(entry, dict) else '?'}: " + \
                problem.replace("standings", "chips after the hand")
    return None


def broken(r: object) -> list[Broken]:
    """Every rule every game keeps that the engine's game (the driver's result ``r``) breaks."""
    if not isinstance(r, dict):
        return []
    return dealt_twice(r) + chips_changed(r)
