"""Pinned decks for scenarios: the deck that deals chosen hole cards and board (R3)."""
from __future__ import annotations

from collections.abc import Mapping

from .cards import CANONICAL_DECK, check_cards
from .errors import OptionError
from .hand import complete_deck
from .rulings import as_profile


def pinned_deck(holes: Mapping[int, str], n: int, button: int = 0, board: str = "", rulings=None) -> list[str]:
    """The deck that deals ``holes`` (seat -> 'AhKd') and ``board`` ('2c7d9h...'), burns included.

    Dealing follows R3: one card at a time clockwise from left of the button, two
    rounds, then burn/flop/burn/turn/burn/river; burns take the lowest unused cards
    in canonical order. Every seat 0..n-1 is dealt in and must be given its cards; bad
    arguments raise OptionError naming the argument. Under ``rulings={"R3": "back"}`` the deck
    is all 52 cards, reversed, so that dealing from the end deals the same cards.
    """
    from_back = as_profile(rulings).get("R3") == "back"
    if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 9:
        raise OptionError("n", f"expected a seat count from 2 to 9, got {n!r}")
    if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < n:
        raise OptionError("button", f"expected a seat from 0 to {n - 1}, got {button!r}")
    if not isinstance(holes, Mapping) or set(holes) != set(range(n)):
        got = sorted(holes, key=repr) if isinstance(holes, Mapping) else type(holes).__name__
        raise OptionError("holes", f"expected the hole cards of every seat 0 to {n - 1}, got {got}")
    for seat, cards in holes.items():
        if not isinstance(cards, str) or len(cards) != 4:
            raise OptionError(f"holes[{seat}]", f"expected two cards as one string such as 'AhKd', got {cards!r}")
    if not isinstance(board, str) or len(board) % 2:
        raise OptionError("board", f"expected cards as one string such as '2c7d9h', got {board!r}")
    order = [(button + k) % n for k in range(1, n + 1)]
    split = {s: (c[:2], c[2:]) for s, c in holes.items()}
    board_cards = [board[i:i + 2] for i in range(0, len(board), 2)]
    check_cards([c for pair in split.values() for c in pair] + board_cards, "holes+board")
    if len(board_cards) not in (0, 3, 4, 5):
        raise OptionError("board", f"expected 0, 3, 4 or 5 cards, got {len(board_cards)}")
    used = {c for pair in split.values() for c in pair} | set(board_cards)
    spare = iter(c for c in CANONICAL_DECK if c not in used)
    deck = [split[s][0] for s in order] + [split[s][1] for s in order]
    streets = (board_cards[:3], board_cards[3:4], board_cards[4:5])
    for cards in streets:
        if not cards:
            break
        deck.append(next(spare))  # burn
        deck.extend(cards)
    if from_back:
        return complete_deck(deck)[::-1]
    return deck
