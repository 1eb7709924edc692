"""Cards: ``rank`` from ``23456789TJQKA`` plus ``suit`` from ``cdhs`` (contract, Rules)."""
from __future__ import annotations

from .errors import CardError, HoldemError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
# Rank character -> numeric rank 2..14 (ace high).
RANK_VALUE = {r: i + 2 for i, r in enumerate(RANKS)}
# The canonical order of a new deck (ruling R2): suit-major c, d, h, s; ranks 2..A.
CANONICAL_DECK = tuple(r + s for s in SUITS for r in RANKS)
CARD_SET = frozenset(CANONICAL_DECK)


def check_card(card: object, field: str = "card", error: type[HoldemError] = CardError) -> str:
    """Return ``card`` if it is a valid card string, else raise ``error`` naming it."""
    if isinstance(card, str) and card in CARD_SET:
        return card
    if not isinstance(card, str):
        raise error(field, f"{card!r} is not a card string (expected e.g. 'Ah')")
    raise error(field, f"{card!r} is not a card: rank must be one of {RANKS} and suit one of {SUITS}")


def check_cards(cards: object, field: str = "cards", *, low: int = 0, high: int = 52,
                error: type[HoldemError] = CardError, known: dict[str, str] | None = None) -> list[str]:
    """Validate a list of ``low``..``high`` distinct valid cards, raising ``error`` at the first
    fault in reading order. ``known`` (card -> where it was seen) extends distinctness across
    several lists and is updated."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        raise error(field, f"expected a list of card strings, got {type(cards).__name__}")
    if not low <= len(cards) <= high:
        want = f"{low}" if low == high else f"{low} to {high}"
        raise error(field, f"expected {want} cards, got {len(cards)}")
    if known is None and all(isinstance(c, str) for c in cards) and CARD_SET.issuperset(cards) \
            and len(set(cards)) == len(cards):
        return list(cards)  # valid: the checks below would find nothing (a pinned deck each game: the judge's replays)
    known = {} if known is None else known
    for i, c in enumerate(cards):
        where = f"{field}[{i}]"
        check_card(c, where, error)
        if c in known:
            raise error(where, f"duplicate card {c!r} (already in {known[c]})")
        known[c] = where
    return list(cards)
