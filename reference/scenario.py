"""Pinned decks for scenarios: the deck that deals chosen hole cards and board (R3)."""
from __future__ import annotations

from collections.abc import Mapping

from .cards import CANONICAL_DECK, check_cards
from .errors import OptionError


def pinned_deck(holes: Mapping[int, str], n: int, button: int = 0, board: str = "") -> list[str]:
    """The deck that deals ``holes`` (seat -> 'AhKd') and ``board`` ('2c7d9h...'), burns included.

    Dealing follows R3: one card at a time clockwise from left of the button, two
    rounds, then burn/flop/burn/turn/burn/river; burns take the lowest unused cards
    in canonical order. Every seat dealt in must be given its cards.
    """
    order = [(button + k) % n for k in range(1, n + 1)]
    split = {s: (c[:2], c[2:]) for s, c in holes.items()}
    board_cards = [board[i:i + 2] for i in range(0, len(board), 2)]
    check_cards([c for pair in split.values() for c in pair] + board_cards, "holes+board")
    if len(board_cards) not in (0, 3, 4, 5):
        raise OptionError("board", f"expected 0, 3, 4 or 5 cards, got {len(board_cards)}")
    used = {c for pair in split.values() for c in pair} | set(board_cards)
    spare = iter(c for c in CANONICAL_DECK if c not in used)
    deck = [split[s][0] for s in order if s in split] + [split[s][1] for s in order if s in split]
    streets = (board_cards[:3], board_cards[3:4], board_cards[4:5])
    for cards in streets:
        if not cards:
            break
        deck.append(next(spare))  # burn
        deck.extend(cards)
    return deck
