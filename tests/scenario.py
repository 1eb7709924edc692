"""A scenario builder: a one-hand table with a pinned deck, for rule-by-rule tests."""
from __future__ import annotations

from reference.cards import CANONICAL_DECK
from reference.tournament import Tournament


def pinned_deck(holes: dict[int, str], n: int, button: int = 0, board: str = "") -> list[str]:
    """The deck that deals ``holes`` (seat -> 'AhKd') and ``board`` ('2c7d9h...'), burns included.

    Dealing follows R3: one card at a time clockwise from left of the button, two
    rounds, then burn/flop/burn/turn/burn/river; burns take unused cards.
    """
    order = [(button + k) % n for k in range(1, n + 1)]
    split = {s: (c[:2], c[2:]) for s, c in holes.items()}
    board_cards = [board[i:i + 2] for i in range(0, len(board), 2)]
    used = {c for pair in split.values() for c in pair} | set(board_cards)
    spare = iter(c for c in CANONICAL_DECK if c not in used)
    deck = [split[s][0] for s in order if s in split] + [split[s][1] for s in order if s in split]
    for i, cards in enumerate((board_cards[:3], board_cards[3:4], board_cards[4:5])):
        deck.append(next(spare))  # burn
        deck.extend(cards)
        if len(cards) < (3 if i == 0 else 1):
            break
    return deck


def table(stacks, holes=None, board="", blinds=(50, 100), names=None, **options) -> Tournament:
    """A one-hand tournament: seat i has stacks[i]; button seat 0 (first hand)."""
    n = len(stacks)
    deck = pinned_deck(holes or {}, n, 0, board) if holes else None
    options.setdefault("max_hands", 1)
    return Tournament(
        names or [f"P{i}" for i in range(n)],
        seed=7,
        stacks=list(stacks),
        decks={1: deck} if deck else None,
        blind_schedule=[list(blinds)],
        **options,
    )


def play(t: Tournament, *answers) -> list[dict]:
    """Apply answers strictly (IllegalAction propagates); return the action records."""
    return [t.act(a) for a in answers]
