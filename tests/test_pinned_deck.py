"""``reference.pinned_deck``: the deck that deals chosen cards (R3), and its argument errors."""
import pytest

from reference import Tournament, pinned_deck
from reference.cards import CANONICAL_DECK
from reference.errors import CardError, OptionError


@pytest.mark.parametrize("n, button", [(2, 0), (3, 2), (6, 4), (9, 8)])
def test_the_deck_deals_hole_cards_from_left_of_the_button_then_burns_and_board(n, button):
    holes = {s: f"{'23456789T'[s]}c{'23456789T'[s]}d" for s in range(n)}
    deck = pinned_deck(holes, n, button, "AhKhQhJs9s")
    left = [(button + k) % n for k in range(1, n + 1)]
    assert deck[:2 * n] == [holes[s][:2] for s in left] + [holes[s][2:] for s in left]
    burns = [c for c in CANONICAL_DECK if c not in set(deck[:2 * n]) | {"Ah", "Kh", "Qh", "Js", "9s"}][:3]
    assert deck[2 * n:] == [burns[0], "Ah", "Kh", "Qh", burns[1], "Js", burns[2], "9s"]


@pytest.mark.parametrize("n", [2, 5, 9])
def test_a_tournament_deals_exactly_the_pinned_cards(n):
    holes = {s: f"{'23456789T'[s]}c{'23456789T'[s]}h" for s in range(n)}
    t = Tournament([f"p{s}" for s in range(n)], seed=1, max_hands=1, decks={1: pinned_deck(holes, n, 0, "AsKsQdJdJs")})
    while not t.over:
        state = t.decision_state()
        seat = state["you"]["seat"]
        assert state["you"]["cards"] == [holes[seat][:2], holes[seat][2:]]
        t.act("check" if state["canCheck"] else "call")
    assert t.history[-1]["board"] == ["As", "Ks", "Qd", "Jd", "Js"]


@pytest.mark.parametrize("args, error, field", [
    (({0: "AhKd"}, 3), OptionError, "holes"),  # seats 1 and 2 left out would be misdealt
    (({0: "AhKd", 1: "QcJc", 5: "2c2d"}, 3), OptionError, "holes"),
    (({0: "AhKd", 1: 5}, 2), OptionError, "holes[1]"),
    (({0: "AhKd", 1: "QcJ"}, 2), OptionError, "holes[1]"),
    ([{0: "AhKd", 1: "QcJc"}, 1], OptionError, "n"),
    ([{0: "AhKd", 1: "QcJc"}, 2, 2], OptionError, "button"),
    ([{0: "AhKd", 1: "QcJc"}, 2, -1], OptionError, "button"),
    ([{0: "AhKd", 1: "QcJc"}, 2, 0, "2c7d9"], OptionError, "board"),
    ([{0: "AhKd", 1: "QcJc"}, 2, 0, "2c7d"], OptionError, "board"),
    ([{0: "AhKd", 1: "AhJc"}, 2], CardError, "holes+board[2]"),
    ([{0: "AhKd", 1: "QcXx"}, 2], CardError, "holes+board[3]"),
    (("AhKdQcJc", 2), OptionError, "holes"),
], ids=["missing-seats", "seat-out-of-range", "not-a-string", "three-chars", "one-seat", "button-too-big",
        "button-negative", "odd-board", "two-board-cards", "duplicate", "bad-card", "holes-not-a-mapping"])
def test_bad_arguments_are_named(args, error, field):
    with pytest.raises(error) as info:
        pinned_deck(*args)
    assert info.value.field == field
