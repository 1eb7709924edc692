"""What holdem-sng-3-v4's text decides outright, checked on an engine's log (issue #14).

These are not rulings: no reasonable reading of the v4 text differs (docs/rulings.md, R16 and
R25), so a log that breaks one fails whatever ruling profile the reference would play.
"""
from __future__ import annotations

from reference.errors import HoldemError
from reference.evaluator import evaluate

from .js_values import js_text

SEATS = 3


def _seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < SEATS


def _next_with_chips(seat: int, chips: list) -> int:
    for k in range(1, SEATS + 1):
        if chips[(seat + k) % SEATS] > 0:
            return (seat + k) % SEATS
    return seat


def button_problem(log: list[dict]) -> str | None:
    """v4: "The button advances clockwise to the next participant with chips after each hand. With
    two participants, the button posts the small blind"; with three, the small and big blinds are
    the next participants clockwise after the button. (The first button is R23's.)"""
    previous = None
    for entry in log:
        number, positions = entry.get("handNumber"), [entry.get(k) for k in ("buttonSeat", "smallBlindSeat", "bigBlindSeat")]
        if not all(_seat(p) for p in positions):
            return f"hand {number}: button and blind seats {positions} are not seats 0 to {SEATS - 1}"
        button, small, big = positions
        chips = previous.get("chips") if previous is not None else [1] * SEATS  # every seat starts with chips
        if not (isinstance(chips, list) and len(chips) == SEATS and all(isinstance(c, int) for c in chips)):
            return None  # the chip check names a malformed log entry
        if previous is not None and button != (want := _next_with_chips(previous["buttonSeat"], chips)):
            return f"hand {number}: the button is seat {button}; it advances clockwise from seat " \
                   f"{previous['buttonSeat']} to the next participant with chips, seat {want} (v4, R16)"
        players = sum(1 for c in chips if c > 0)
        want_small = button if players == 2 else _next_with_chips(button, chips)
        if (small, big) != (want_small, _next_with_chips(want_small, chips)):
            return f"hand {number}: button {button}, small blind {small}, big blind {big}; with {players} " \
                   f"participants the blinds are seats {want_small} and {_next_with_chips(want_small, chips)} (v4, R16)"
        previous = entry
    return None


def reveal_problem(number: object, shown: dict, board: object) -> str | None:
    """v4: "Only cards needed to establish an awarded showdown hand are public": a shown hole card
    without which the other shown cards and the board realise the same value was not needed (R25)."""
    cards = shown.get("cards")
    if not (isinstance(board, list) and len(board) == 5):
        return None  # a showdown runs the board out: the step comparison reports a short board
    if not (isinstance(cards, list) and len(cards) <= 2):
        return f"hand {number}: the showdown shows {js_text(shown)}: expected at most two hole cards"
    try:
        value = evaluate(cards + board)["value"]
        for card in cards:
            rest = [c for c in cards if c != card]
            if evaluate(rest + board)["value"] == value:
                return f"hand {number}: {shown.get('id')} shows {card}, which its hand does not need: without " \
                       f"it, {' '.join(rest) or 'nothing'} and the board {' '.join(board)} realise the same value " \
                       "(only cards needed to establish an awarded hand are public, R25)"
    except HoldemError as exc:  # bad or repeated cards
        return f"hand {number}: the showdown shows {js_text(shown)} on board {js_text(board)}: {exc.reason}"
    return None
