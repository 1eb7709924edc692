"""``PokerEngine.evaluate(cards)``: the best five-card hand among 5..7 cards (rulings R4, R5).

``value = rank * 15**5 + sum(t[i] * 15**(4 - i))`` where ``t`` are the tiebreak ranks (2..14,
ace 14) most significant first, zero-padded on the right (R4); aces full of kings is 5308875.

Speed comes from tables built once at import (about 0.25 s and 15 MB):

* each card has one integer code: ``5**r`` (r = rank index 0..12) plus ``1 << (31 + 4 * s)``
  (s = suit index 0..3). Summed from a start of 3 in every 4-bit suit field (``_SUIT_BIAS``),
  the codes of up to seven cards give, in the low 31 bits, the rank multiset written in base 5
  (a rank occurs at most 4 times, so no digit carries) and, above them, each suit's count plus
  3: a field reaches 8 exactly when its suit holds five or more cards (at most 3 + 7, no carry),
  so one mask (``_FLUSH_BITS``) tells whether there is a flush. evaluate's codes also carry the
  card's own bit above all that: n distinct cards set n of those bits, a repeated card fewer;
* with at most seven cards a flush beats anything the other cards can make, so a flush hand is
  valued from the 13-bit rank mask of its suit (``_FLUSH_VALUE``) and every other hand from its
  rank multiset (``_RANK_VALUE``, 73,775 multisets of size 5, 6 and 7);
* ``best`` needs no sort: a per-value table translates the joined input into an "order key"
  telling which group of the value's pattern each card's rank is in, and ``_PICK`` maps every
  order key that can occur to the input positions R5 takes (see the comment before
  ``_OTHER``). evaluate thus runs a fixed sequence of C calls and table lookups, with no loop
  or sort in Python.
"""
from __future__ import annotations

from itertools import combinations, combinations_with_replacement, product

from .cards import CANONICAL_DECK, RANKS, SUITS, check_cards
from .errors import EvaluateError

NAMES = (
    "High card", "One pair", "Two pair", "Three of a kind", "Straight",
    "Flush", "Full house", "Four of a kind", "Straight flush",
)
_CAT = 15**5  # the weight of the category in a value (759375)
_SUIT_SHIFT = 31  # the rank multiset takes the bits below (5**13 > 2**30)
_RANK_MASK = (1 << _SUIT_SHIFT) - 1
_SUIT_BIAS = sum(3 << (_SUIT_SHIFT + 4 * s) for s in range(4))  # the sums' start
_FLUSH_BITS = _SUIT_BIAS // 3 * 8  # the top bit of each suit field
_CARD_SHIFT = _SUIT_SHIFT + 16  # evaluate's one bit per distinct card starts here
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


# Card codes. hand_value sums _CODE; evaluate sums _CHECKED_CODE, which adds the card's own bit.
# Keyed by the deck's own strings: cards dealt from CANONICAL_DECK then match by identity.
_CODE = {}
_CHECKED_CODE = {}
for _i, _card in enumerate(CANONICAL_DECK):
    _CODE[_card] = _P5[RANKS.index(_card[0])] + (1 << (_SUIT_SHIFT + 4 * SUITS.index(_card[1])))
    _CHECKED_CODE[_card] = _CODE[_card] + (1 << (_CARD_SHIFT + _i))
# A sum's flush bits (at most one suit's with seven cards) -> that suit.
_FLUSH_SUIT = {8 << (_SUIT_SHIFT + 4 * s): s for s in range(4)}
# Per suit: card -> its rank bit if it has that suit, else 0 (summing gives the suit's mask).
_SUIT_BITS = tuple({c: (1 << RANKS.index(c[0])) * (c[1] == suit) for c in CANONICAL_DECK} for suit in SUITS)
_RANK_VALUE = _build_rank_table()
_FLUSH_VALUE = [0] * 8192
for _mask in range(8192):
    if 5 <= _mask.bit_count() <= 7:
        _FLUSH_VALUE[_mask] = _flush_value(_mask)

# ``best`` without sorting. A value's pattern (e.g. "QQ88K") splits into groups: a rank, and how
# many cards R5 takes of it. evaluate translates the joined input ("Qc8s5dKh...") through the
# value's 256-byte table: each pattern rank becomes its group's byte, any other rank _OTHER and
# every suit _SUIT_BYTE (rank and suit characters never coincide). R5 takes, group after group
# in pattern order, the group's first cards in input order, so this order key alone fixes the
# input positions of ``best``, and _PICK[category] maps every order key that can occur to them.
# bytes.translate and a dict lookup do in C what a keyed sort of the cards did in several times
# the time.
_OTHER = ord("z")
_SUIT_BYTE = ord(".")
_BLANK_TABLE = bytes(_OTHER if chr(i) in RANKS else _SUIT_BYTE if chr(i) in SUITS else i for i in range(256))


def _group_byte(group: int, takes: int) -> int:
    return ord("A") + 4 * group + takes - 1


def _order_table(pattern: str) -> bytes:
    """The translate table of a value's pattern (see above)."""
    table = bytearray(_BLANK_TABLE)
    for group, ch in enumerate(dict.fromkeys(pattern)):
        table[ord(ch)] = _group_byte(group, pattern.count(ch))
    return bytes(table)


# Per category: for each group of the pattern, how many cards R5 takes of it and how many of
# that rank the input can hold. A straight's rank can repeat, up to three times in seven cards
# (98765 + 5 + 5); a two-pair kicker may come from a third pair, a full house's pair from a
# second trips, quads' kicker may be paired or tripled. Every remaining card is _OTHER.
_GROUPS = {
    0: ((1, 1),) * 5,
    1: ((2, 2), (1, 1), (1, 1), (1, 1)),
    2: ((2, 2), (2, 2), (1, 2)),
    3: ((3, 3), (1, 1), (1, 1)),
    4: ((1, 3),) * 5,
    5: ((1, 1),) * 5,
    6: ((3, 3), (2, 3)),
    7: ((4, 4), (1, 3)),
    8: ((1, 1),) * 5,
}


def _build_pick(groups) -> dict[bytes, tuple]:
    """Every order key of 5..7 cards for one category's groups -> the input positions R5 takes,
    in order. (One table per category keeps the common ones small and cache-warm.)"""
    pick: dict[bytes, tuple] = {}

    def place(todo, free, key, taken):
        # Give the next group its cards at every choice of positions among the free ones.
        if not todo:
            pick[bytes(key)] = _POSITIONS.setdefault(taken, taken)
            return
        (byte, takes, count), rest = todo[0], todo[1:]
        for chosen in combinations(free, count):
            for i in chosen:
                key[2 * i] = byte
            place(rest, [i for i in free if i not in chosen], key, taken + chosen[:takes])
            for i in chosen:
                key[2 * i] = _OTHER

    for counts in product(*(range(takes, most + 1) for takes, most in groups)):
        todo = [(_group_byte(g, takes), takes, count)
                for g, ((takes, _), count) in enumerate(zip(groups, counts))]
        for n in range(max(5, sum(counts)), 8):
            place(todo, range(n), bytearray([_OTHER, _SUIT_BYTE] * n), ())
    return pick


_POSITIONS: dict[tuple, tuple] = {}  # one shared tuple per choice of positions
_PICKS = {}
for _groups in _GROUPS.values():
    if _groups not in _PICKS:
        _PICKS[_groups] = _build_pick(_groups)
_PICK = [_PICKS[_GROUPS[category]] for category in range(9)]

_PATTERN = {v: _pattern(v) for v in set(_RANK_VALUE.values()) | set(_FLUSH_VALUE) - {0}}
# value -> (value, its order table): one lookup gives evaluate both.
_ENTRY = {v: (v, _order_table(p)) for v, p in _PATTERN.items()}
_RANK_ENTRY = {key: _ENTRY[v] for key, v in _RANK_VALUE.items()}
_FLUSH_ENTRY = [_ENTRY.get(v) for v in _FLUSH_VALUE]
_code = _CODE.__getitem__
_checked_code = _CHECKED_CODE.__getitem__
_SEQUENCE = (list, tuple)
_join = "".join  # bound once: evaluate calls it for every hand


def hand_value(cards) -> int:
    """The ``value`` of 5..7 cards, without validation: for internal hot paths only.

    The cards must already be known valid and distinct (e.g. dealt from a deck); anything else
    gives a KeyError or a meaningless number. Public input goes through :func:`evaluate`.
    """
    k = sum(map(_code, cards), _SUIT_BIAS)
    flush = k & _FLUSH_BITS
    if not flush:
        return _RANK_VALUE[k & _RANK_MASK]
    return _FLUSH_VALUE[sum(map(_SUIT_BITS[_FLUSH_SUIT[flush]].__getitem__, cards))]


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
    if not isinstance(cards, _SEQUENCE):
        raise _invalid(cards)
    try:
        k = sum(map(_checked_code, cards), _SUIT_BIAS)
    except (KeyError, TypeError):  # a malformed or unhashable card
        raise _invalid(cards) from None
    n = len(cards)
    if not 5 <= n <= 7 or (k >> _CARD_SHIFT).bit_count() != n:  # a count or a repeat at fault
        raise _invalid(cards)
    flush = k & _FLUSH_BITS
    if not flush:
        value, order = _RANK_ENTRY[k & _RANK_MASK]
        pool = cards
    else:  # the best five are cards of the flush suit
        bits = _SUIT_BITS[_FLUSH_SUIT[flush]]
        pool = [c for c in cards if bits[c]]
        value, order = _FLUSH_ENTRY[sum(map(bits.__getitem__, pool))]
    rank = value // _CAT
    try:
        a, b, c, d, e = _PICK[rank][_join(pool).encode().translate(order)]
    except TypeError:  # an item equal to a card string without being one
        raise _invalid(cards) from None
    return {"rank": rank, "value": value, "name": NAMES[rank],
            "best": [pool[a], pool[b], pool[c], pool[d], pool[e]]}


def evaluate_array_like(cards) -> dict:
    """R40's alternative ``accept-array-like``: an array-like object (JSON ``{"0": card, ...,
    "length": n}``) evaluated as the list of its items 0..n-1, as a JavaScript ``evaluate`` that
    only reads ``length`` and indices would. Raises EvaluateError where that list is refused, or
    where ``cards`` is no array-like object."""
    length = cards.get("length") if isinstance(cards, dict) else None
    if not isinstance(length, int) or isinstance(length, bool) or not 0 <= length <= 7:
        raise EvaluateError("cards", f"not an array-like object of 5 to 7 cards: {cards!r}")
    return evaluate([cards.get(str(i)) for i in range(length)])
