"""A scenario builder: a one-hand table with a pinned deck, for rule-by-rule tests."""
from __future__ import annotations

from reference.scenario import pinned_deck
from reference.tournament import Tournament


def table(stacks, holes=None, board="", blinds=(50, 100), names=None, rulings=None, **options) -> Tournament:
    """A one-hand tournament: seat i has stacks[i]; button seat 0 (first hand); ``rulings`` a
    ruling profile (the pinned deck follows its R3)."""
    n = len(stacks)
    deck = pinned_deck(holes or {}, n, 0, board, rulings) if holes else None
    options.setdefault("max_hands", 1)
    return Tournament(
        names or [f"P{i}" for i in range(n)],
        seed=7,
        stacks=list(stacks),
        decks={1: deck} if deck else None,
        blind_schedule=[list(blinds)],
        rulings=rulings,
        **options,
    )


def play(t: Tournament, *answers) -> list[dict]:
    """Apply answers strictly (IllegalAction propagates); return the action records."""
    return [t.act(a) for a in answers]
