"""``PokerEngine.evaluate(cards)``: the best five-card hand among 5..7 cards (rulings R4, R5).

``value = rank * 15**5 + sum(t[i] * 15**(4 - i))`` where ``t`` are the tiebreak ranks (2..14,
ace 14) most significant first, zero-padded on the right (R4); aces full of kings is 5308875.

Speed comes from tables built once at import (about 0.1 s):

* each card has one integer code: ``5**r`` (r = rank index 0..12) plus ``8**s << 31``
  (s = suit index 0..3). Summing the codes of up to seven cards gives, in the low 31 bits, the
  rank multiset written in base 5 (a rank occurs at most 4 times, so no digit carries) and, above
  them, the per-suit counts as octal digits (at most 7 cards, so no carry either);
* ``_FLUSH_SUIT[suit part]`` says which suit, if any, has five or more cards. With at most seven
  cards a flush beats anything the other cards can make, so a flush hand is valued from the
  13-bit rank mask of that suit (``_FLUSH_VALUE``) and every other hand from its rank multiset
  (``_RANK_VALUE``, 73,775 multisets of size 5, 6 and 7).
"""
from __future__ import annotations

from itertools import combinations_with_replacement

from .cards import RANKS, SUITS, check_cards
from .errors import EvaluateError

NAMES = (
    "High card", "One pair", "Two pair", "Three of a kind", "Straight",
    "Flush", "Full house", "Four of a kind", "Straight flush",
)
_CAT = 15**5  # the weight of the category in a value (759375)
_SUIT_SHIFT = 31
_RANK_MASK = (1 << _SUIT_SHIFT) - 1
_SUIT_PART = 8**4 - 1  # four octal suit counts
_CARD_SHIFT = _SUIT_SHIFT + 12  # evaluate's one bit per distinct card starts here
_P5 = tuple(5**i for i in range(13))


def _value(category: int, ranks) -> int:
    """R4's encoding from a category and up to five tiebreak ranks (2..14), padded right."""
    v = category
    for i in range(5):
        v = v * 15 + (ranks[i] if i < len(ranks) else 0)
    return v


# The ten straights as 13-bit rank masks with their top rank, highest first; the wheel (A2345)
# is a five-high straight.
_STRAIGHTS = tuple((0b11111 << (top - 6), top) for top in range(14, 5, -1)) + ((0b1000000001111, 5),)


def _straight_top(mask: int) -> int:
    """Top rank of the best straight inside a 13-bit rank mask, or 0."""
    for bits, top in _STRAIGHTS:
        if mask & bits == bits:
            return top
    return 0


def _five_value(ranks: tuple) -> int:
    """Value of five cards that are not a flush, from their ranks (2..14)."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    # Groups by size then rank, both descending: this is R4's tiebreak order.
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    digits = [r for r, _ in groups]
    if shape == (1, 1, 1, 1, 1):
        top = _straight_top(sum(1 << (r - 2) for r in ranks))
        return _value(4, (top,)) if top else _value(0, digits)
    category = {(2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 6, (4, 1): 7}[shape]
    return _value(category, digits)


def _flush_value(mask: int) -> int:
    """Value of the best hand among cards of one suit, given their rank mask (5..7 bits)."""
    top = _straight_top(mask)
    if top:
        return _value(8, (top,))
    ranks = [r + 2 for r in range(12, -1, -1) if mask >> r & 1]
    return _value(5, ranks[:5])


def _build_rank_table() -> dict[int, int]:
    """Base-5 rank-multiset key -> value, for every multiset of 5, 6 and 7 ranks (<= 4 each).

    The best five of n cards is the best over the n - 1 subsets, so each size is derived
    from the one below by adding one rank.
    """
    level: dict[int, int] = {}
    for combo in combinations_with_replacement(range(13), 5):
        if combo[0] != combo[4]:  # five of one rank does not exist
            level[sum(_P5[i] for i in combo)] = _five_value(tuple(i + 2 for i in combo))
    table = dict(level)
    for _ in (6, 7):
        bigger: dict[int, int] = {}
        get = bigger.get
        for key, value in level.items():
            for p in _P5:
                if key // p % 5 != 4:
                    k = key + p
                    if get(k, -1) < value:
                        bigger[k] = value
        table.update(bigger)
        level = bigger
    return table


def _build_flush_suit() -> list[int]:
    """Suit part of a code sum -> index of the suit holding five or more cards, else -1."""
    out = [-1] * (8**4)
    for part in range(8**4):
        for s in range(4):
            if part >> (3 * s) & 7 >= 5:
                out[part] = s
    return out


def _pattern(value: int) -> str:
    """The ranks of the best five cards in R5's order as rank characters, e.g. "AAAKK"."""
    category, digits = value // _CAT, [value // 15**(4 - i) % 15 for i in range(5)]
    if category in (4, 8):  # a straight runs down from its top; the wheel's ace comes last
        ranks = [14 if r == 1 else r for r in range(digits[0], digits[0] - 5, -1)]
    else:
        sizes = {0: (1, 1, 1, 1, 1), 1: (2, 1, 1, 1), 2: (2, 2, 1), 3: (3, 1, 1),
                 5: (1, 1, 1, 1, 1), 6: (3, 2), 7: (4, 1)}[category]
        ranks = [r for r, n in zip(digits, sizes) for _ in range(n)]
    return "".join(RANKS[r - 2] for r in ranks)


# Card codes. hand_value sums _CODE; evaluate sums _CHECKED_CODE, which adds the card's own bit
# above the rest: the sum then has n such bits set exactly when the n cards are distinct.
_CODE = {}
_CHECKED_CODE = {}
_SUIT_OF = {}
for _s, _suit in enumerate(SUITS):
    for _r, _rank in enumerate(RANKS):
        _card = _rank + _suit
        _CODE[_card] = _P5[_r] + ((8**_s) << _SUIT_SHIFT)
        _CHECKED_CODE[_card] = _CODE[_card] + (1 << (_CARD_SHIFT + len(_SUIT_OF)))
        _SUIT_OF[_card] = _s
# Per suit: card -> its rank bit if it has that suit, else 0 (summing gives the suit's mask).
_SUIT_BITS = tuple({c: (1 << RANKS.index(c[0])) * (_SUIT_OF[c] == s) for c in _CODE} for s in range(4))
_RANK_VALUE = _build_rank_table()
_FLUSH_SUIT = _build_flush_suit()
_FLUSH_VALUE = [0] * 8192
for _mask in range(8192):
    if 5 <= _mask.bit_count() <= 7:
        _FLUSH_VALUE[_mask] = _flush_value(_mask)
_PATTERN = {v: _pattern(v) for v in set(_RANK_VALUE.values()) | set(_FLUSH_VALUE) - {0}}
# value -> {rank character: its first position in the pattern}; other ranks sort last.
_PRIORITY = {v: {ch: p.index(ch) for ch in p} for v, p in _PATTERN.items()}
# value -> {card: its rank's priority}, built on first use: a dict's own __getitem__ as the sort
# key keeps evaluate's sort in C (about a fifth fewer instructions than a key function). At most
# 7,462 dicts of 52 entries.
_CARD_PRIORITY: dict[int, dict[str, int]] = {}


def _card_priority(value: int) -> dict[str, int]:
    table = _CARD_PRIORITY.get(value)
    if table is None:
        ranks = _PRIORITY[value]
        table = _CARD_PRIORITY[value] = {c: ranks.get(c[0], 9) for c in _CODE}
    return table


def hand_value(cards) -> int:
    """The ``value`` of 5..7 cards, without validation: for internal hot paths only.

    The cards must already be known valid and distinct (e.g. dealt from a deck); anything else
    gives a KeyError or a meaningless number. Public input goes through :func:`evaluate`.
    """
    k = sum(map(_CODE.__getitem__, cards))
    s = _FLUSH_SUIT[k >> _SUIT_SHIFT]
    if s < 0:
        return _RANK_VALUE[k & _RANK_MASK]
    return _FLUSH_VALUE[sum(map(_SUIT_BITS[s].__getitem__, cards))]


def _invalid(cards) -> EvaluateError:
    """The error for input the fast path refused: the first fault in reading order."""
    try:
        check_cards(cards, "cards", low=5, high=7, error=EvaluateError)
    except EvaluateError as exc:
        return exc
    raise AssertionError(f"evaluate refused valid cards {cards!r}")  # a bug, not bad input


def evaluate(cards) -> dict:
    """``PokerEngine.evaluate(cards)``: ``{"rank", "value", "name", "best"}`` for 5..7 distinct cards.

    ``cards`` is a list or tuple of card strings. ``best`` lists five input cards realizing
    ``value`` in R5's order: groups by significance (quads, trips, pairs, then kickers), ranks
    descending within a group, the wheel as 5 4 3 2 A, and among cards of one rank the earliest
    in the input. Raises EvaluateError naming the field at fault.
    """
    if not isinstance(cards, (list, tuple)):
        raise _invalid(cards)
    try:
        k = sum(map(_CHECKED_CODE.__getitem__, cards))
    except (KeyError, TypeError):  # a malformed or unhashable card
        raise _invalid(cards) from None
    n = len(cards)
    if not 5 <= n <= 7 or (k >> _CARD_SHIFT).bit_count() != n:
        raise _invalid(cards)
    s = _FLUSH_SUIT[(k >> _SUIT_SHIFT) & _SUIT_PART]
    if s < 0:
        value = _RANK_VALUE[k & _RANK_MASK]
        pool = cards
    else:
        value = _FLUSH_VALUE[sum(map(_SUIT_BITS[s].__getitem__, cards))]
        pool = [c for c in cards if _SUIT_OF[c] == s]
    rank = value // _CAT
    if rank == 4:
        # A straight takes one card of each of its ranks (the pool may hold a rank twice). In the
        # joined string rank characters sit at even offsets and never match a suit character.
        text = "".join(pool)
        best = [pool[text.find(r) >> 1] for r in _PATTERN[value]]
    else:
        # Stable sort by the rank's place in the pattern keeps same-rank cards in input order;
        # the first five are R5's best (counts never exceed the pattern's outside straights).
        best = sorted(pool, key=_card_priority(value).__getitem__)[:5]
    return {"rank": rank, "value": value, "name": NAMES[rank], "best": best}
