"""Cards: ``rank`` from ``23456789TJQKA`` plus ``suit`` from ``cdhs`` (contract, Rules)."""
from __future__ import annotations

from .errors import CardError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
# Rank character -> numeric rank 2..14 (ace high).
RANK_VALUE = {r: i + 2 for i, r in enumerate(RANKS)}
# The canonical order of a new deck (ruling R2): suit-major c, d, h, s; ranks 2..A.
CANONICAL_DECK = tuple(r + s for s in SUITS for r in RANKS)
CARD_SET = frozenset(CANONICAL_DECK)


def check_card(card: object, field: str = "card") -> str:
    """Return ``card`` if it is a valid card string, else raise CardError naming it."""
    if isinstance(card, str) and card in CARD_SET:
        return card
    if not isinstance(card, str):
        raise CardError(field, f"{card!r} is not a card string (expected e.g. 'Ah')")
    raise CardError(field, f"{card!r} is not a card: rank must be one of {RANKS} and suit one of {SUITS}")


def check_cards(cards: object, field: str = "cards", distinct: bool = True) -> list[str]:
    """Validate a list of cards (each valid; distinct unless told otherwise)."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        raise CardError(field, f"expected a list of card strings, got {type(cards).__name__}")
    out = [check_card(c, f"{field}[{i}]") for i, c in enumerate(cards)]
    if distinct and len(set(out)) != len(out):
        seen: set[str] = set()
        for i, c in enumerate(out):
            if c in seen:
                raise CardError(f"{field}[{i}]", f"duplicate card {c!r}")
            seen.add(c)
    return out
