"""``evaluate`` and ``hand_value`` (rulings R4, R5).

Expected values come from the contract (5308875), from R4's formula applied by hand, from a
deliberately plain five-card evaluator written here from R4's text, from the classic five-card
category counts, and from treys' ordering of hands.
"""
import random
from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.cards import CANONICAL_DECK, RANK_VALUE, RANKS, SUITS
from reference.errors import EvaluateError, HoldemError
from reference.evaluator import NAMES, evaluate, hand_value

CAT = 15**5


def v(rank, *tiebreak):
    """R4's encoding, written out: rank * 15**5 + tiebreak ranks as base-15 digits, padded right."""
    digits = list(tiebreak) + [0] * (5 - len(tiebreak))
    return rank * CAT + sum(t * 15 ** (4 - i) for i, t in enumerate(digits))


def naive5(cards):
    """R4 for exactly five cards, the plain way: categories checked from the top down."""
    ranks = sorted((RANK_VALUE[c[0]] for c in cards), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    groups = sorted(((n, r) for r, n in Counter(ranks).items()), reverse=True)
    shape = [n for n, _ in groups]
    by_group = [r for _, r in groups]
    top = 0
    if len(set(ranks)) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif ranks == [14, 5, 4, 3, 2]:
            top = 5
    if top and flush:
        return v(8, top)
    if shape == [4, 1]:
        return v(7, *by_group)
    if shape == [3, 2]:
        return v(6, *by_group)
    if flush:
        return v(5, *ranks)
    if top:
        return v(4, top)
    if shape == [3, 1, 1]:
        return v(3, *by_group)
    if shape == [2, 2, 1]:
        return v(2, *by_group)
    if shape == [2, 1, 1, 1]:
        return v(1, *by_group)
    return v(0, *ranks)


def naive(cards):
    return max(naive5(five) for five in combinations(cards, 5))


hands = st.integers(5, 7).flatmap(lambda n: st.permutations(CANONICAL_DECK).map(lambda d: d[:n]))


# --- the contract's example and the names -------------------------------------------------

def test_contract_example_aces_full_of_kings():
    out = evaluate(["Ac", "Ad", "Ah", "Ks", "Kc"])
    assert out == {"rank": 6, "value": 5308875, "name": "Full house", "best": ["Ac", "Ad", "Ah", "Ks", "Kc"]}
    assert v(6, 14, 13) == 5308875


def test_names_by_rank():
    assert NAMES == ("High card", "One pair", "Two pair", "Three of a kind", "Straight", "Flush",
                     "Full house", "Four of a kind", "Straight flush")


# --- every category, with R4 values worked out by hand -----------------------------------------

@pytest.mark.parametrize("cards, value, best", [
    ("As Kd 9h 7c 4s 3d 2c", v(0, 14, 13, 9, 7, 4), "As Kd 9h 7c 4s"),
    ("9c 9d Ah Jc 7s 4d 2h", v(1, 9, 14, 11, 7), "9c 9d Ah Jc 7s"),
    # Three pairs: the two best pairs, and the third pair's rank competes for the kicker.
    ("Qc Qd 8s 8h 5c 5d 3h", v(2, 12, 8, 5), "Qc Qd 8s 8h 5c"),
    ("Qc Qd 8s 8h 5c 5d Kh", v(2, 12, 8, 13), "Qc Qd 8s 8h Kh"),
    ("7c 7d 7h Kd Qs 4c 2d", v(3, 7, 13, 12), "7c 7d 7h Kd Qs"),
    ("Ts 9d 8c 7h 6s 2c 2d", v(4, 10), "Ts 9d 8c 7h 6s"),
    ("Ah Kd Qc Jh Ts Td 2c", v(4, 14), "Ah Kd Qc Jh Ts"),
    ("Kh 8h 7h 4h 2h 3h Qc", v(5, 13, 8, 7, 4, 3), "Kh 8h 7h 4h 3h"),
    ("Ac Ad Ah Kc Kd Ks Qc", v(6, 14, 13), "Ac Ad Ah Kc Kd"),
    ("3c 3d 3h 2c 2d Ac Kd", v(6, 3, 2), "3c 3d 3h 2c 2d"),
    ("5c 5d 5h 5s Kc Kd Ks", v(7, 5, 13), "5c 5d 5h 5s Kc"),
    ("9s 8s 7s 6s 5s 9c 9d", v(8, 9), "9s 8s 7s 6s 5s"),
    ("As Ks Qs Js Ts 9s 8s", v(8, 14), "As Ks Qs Js Ts"),
])
def test_categories(cards, value, best):
    out = evaluate(cards.split())
    assert out["value"] == value
    assert out["rank"] == value // CAT
    assert out["name"] == NAMES[out["rank"]]
    assert out["best"] == best.split()


def test_royal_flush_is_named_straight_flush():
    assert evaluate("Ah Kh Qh Jh Th".split())["name"] == "Straight flush"


def test_wheel_is_five_high_and_listed_five_down_to_ace():
    out = evaluate("Ad 2c 3s 4h 5s Kd Qc".split())
    assert out["value"] == v(4, 5) == 3290625
    assert out["best"] == ["5s", "4h", "3s", "2c", "Ad"]
    # A six makes the six-high straight, which beats the wheel.
    assert evaluate("Ad 2c 3s 4h 5s 6d Qc".split())["value"] == v(4, 6)
    assert v(4, 6) > v(4, 5)


def test_steel_wheel():
    out = evaluate("As 2s 3s 4s 5s Kc Kd".split())
    assert out["value"] == v(8, 5) and out["name"] == "Straight flush"
    assert out["best"] == ["5s", "4s", "3s", "2s", "As"]
    # It beats quads, and loses to a six-high straight flush.
    assert out["value"] > evaluate("Kc Kd Kh Ks As".split())["value"]
    assert out["value"] < evaluate("2s 3s 4s 5s 6s".split())["value"]


def test_flush_beats_straight_in_the_same_seven():
    out = evaluate("9h 8h 7c 6h 5h 2h Ts".split())
    assert out["value"] == v(5, 9, 8, 6, 5, 2)
    assert out["best"] == ["9h", "8h", "6h", "5h", "2h"]


def test_ace_low_only_in_straights():
    # A-K-Q-J-T is broadway; A-2 without 3-4-5 is just ace high.
    assert evaluate("Ac 2d 3h 4s 6c".split())["value"] == v(0, 14, 6, 4, 3, 2)
    assert evaluate("Kc Ad 2h 3s 4c".split())["value"] == v(0, 14, 13, 4, 3, 2)


# --- kickers, ties and the board playing --------------------------------------------------------

@pytest.mark.parametrize("better, worse", [
    ("Ac Ad Kh 7c 4s 3d 2c", "Ac Ad Qh 7c 4s 3d 2c"),     # pair kicker
    ("Ac Ad Kh Jc 4s 3d 2c", "Ac Ad Kh Tc 4s 3d 2c"),     # third kicker
    ("Kc Kd 4h 4s 9c 2d 3h", "Kc Kd 4h 4s 8c 2d 3h"),     # two-pair kicker
    ("Kc Kd 5h 5s 2c 3d 4h", "Kc Kd 4h 4s Ac 3d 2h"),     # low pair before kicker
    ("7c 7d 7h Ad 2s 3c 4d", "7c 7d 7h Kd Qs 3c 4d"),     # trips kicker
    ("Ah Jh 9h 5h 3h 2c 2d", "Ah Jh 9h 5h 2h 3c 3d"),     # fifth flush card
    ("2c 2d 2h 2s 3c 4d 5h", "2c 2d 2h 2s 3c 3d 4h"),     # quads kicker
    ("3c 3d 3h 2c 2d Kc Kd", "2c 2d 2h Ac Ad Kh Ks"),     # full house: trips first
])
def test_kickers_order(better, worse):
    assert evaluate(better.split())["value"] > evaluate(worse.split())["value"]
    assert naive(better.split()) == evaluate(better.split())["value"]
    assert naive(worse.split()) == evaluate(worse.split())["value"]


def test_same_ranks_other_suits_tie():
    a = evaluate("Ac Kd 9h 7c 4s".split())
    b = evaluate("Ad Kh 9c 7s 4d".split())
    assert a["value"] == b["value"]


def test_board_plays_for_both_hands():
    board = "As Ks Qd Jh Tc".split()
    one = evaluate(board + ["2c", "3d"])
    two = evaluate(board + ["4h", "5h"])
    assert one["value"] == two["value"] == v(4, 14)
    assert one["best"] == two["best"] == board


def test_five_six_and_seven_cards():
    five = "Qc Qd 8s 8h 5c".split()
    assert evaluate(five)["value"] == v(2, 12, 8, 5)
    assert evaluate(five + ["2d"])["value"] == v(2, 12, 8, 5)
    assert evaluate(five + ["2d", "Ks"])["value"] == v(2, 12, 8, 13)
    assert evaluate(tuple(five + ["Qh"]))["value"] == v(6, 12, 8)


def test_best_takes_earliest_input_cards_of_a_rank():
    # Aces full: three kings available for two places, the first two listed are used.
    out = evaluate("Ks Ah Kc Ad 2c Ac Kd".split())
    assert out["best"] == ["Ah", "Ad", "Ac", "Ks", "Kc"]
    # A straight with a paired rank uses the earlier copy.
    assert evaluate("8d 9c Tc 8s Jh Qd 2c".split())["best"] == ["Qd", "Jh", "Tc", "9c", "8d"]


# --- errors ---------------------------------------------------------------------------------

@pytest.mark.parametrize("cards, field, words", [
    ("AcKdQhJsTc", "cards", "list"),
    (None, "cards", "list"),
    ({"Ac", "Kd", "Qh", "Js", "Tc"}, "cards", "list"),
    (["Ac", "Kd", "Qh", "Js"], "cards", "got 4"),
    (["Ac", "Kd", "Qh", "Js", "Tc", "9c", "8c", "7c"], "cards", "got 8"),
    ([], "cards", "got 0"),
    (["Ac", "Kd", "Qh", "Js", "1c"], "cards[4]", "'1c'"),
    (["Ac", "Kd", "Qh", "Js", "10c"], "cards[4]", "'10c'"),
    (["Ac", "Kd", "qh", "Js", "Tc"], "cards[2]", "'qh'"),
    (["Ac", "KD", "Qh", "Js", "Tc"], "cards[1]", "'KD'"),
    (["Ac", "Kd", "Qh", "Js", "Tx"], "cards[4]", "'Tx'"),
    (["Ac", 5, "Qh", "Js", "Tc"], "cards[1]", "5"),
    (["Ac", None, "Qh", "Js", "Tc"], "cards[1]", "None"),
    (["Ac", ["K", "d"], "Qh", "Js", "Tc"], "cards[1]", "['K', 'd']"),
    (["Ac", "Kd", "Qh", "Kd", "Tc"], "cards[3]", "duplicate card 'Kd'"),
    (["Ac", "Kd", "Qh", "Js", "Tc", "9c", "Ac"], "cards[6]", "duplicate card 'Ac'"),
    # The count is checked before the cards.
    (["Ac", "Ac", "xx"], "cards", "got 3"),
])
def test_errors_name_the_field(cards, field, words):
    with pytest.raises(EvaluateError) as info:
        evaluate(cards)
    assert info.value.field == field
    assert words in info.value.reason
    assert isinstance(info.value, HoldemError) and isinstance(info.value, ValueError)


# --- properties -------------------------------------------------------------------------------

@given(hands, st.randoms(use_true_random=False))
def test_value_ignores_order(cards, rnd):
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert evaluate(shuffled)["value"] == evaluate(cards)["value"]


@given(hands)
def test_best_is_five_input_cards_with_the_same_value(cards):
    out = evaluate(cards)
    best = out["best"]
    assert len(best) == len(set(best)) == 5 and set(best) <= set(cards)
    assert evaluate(best)["value"] == out["value"]
    assert out["rank"] == out["value"] // CAT and out["name"] == NAMES[out["rank"]]


@given(hands)
def test_value_is_the_best_five_card_subset(cards):
    assert evaluate(cards)["value"] == naive(cards)


@given(hands)
def test_hand_value_matches_evaluate(cards):
    assert hand_value(cards) == evaluate(cards)["value"]


@given(hands)
def test_best_follows_r5_order(cards):
    out = evaluate(cards)
    best = out["best"]
    ranks = [RANK_VALUE[c[0]] for c in best]
    counts = Counter(ranks)
    if out["rank"] in (4, 8):  # straights run down from the top; the wheel ends with its ace
        assert ranks in ([ranks[0] - i for i in range(5)], [5, 4, 3, 2, 14])
    else:  # bigger groups first, then higher ranks
        assert ranks == sorted(ranks, key=lambda r: (-counts[r], -r))
    # Among cards of one rank, the earliest inputs (of the flush suit, for flushes) are used.
    pool = [c for c in cards if c[1] == best[0][1]] if out["rank"] in (5, 8) else cards
    for r in counts:
        chosen = [c for c in best if RANK_VALUE[c[0]] == r]
        assert chosen == [c for c in pool if RANK_VALUE[c[0]] == r][: len(chosen)]


# --- exhaustive and cross-checks ------------------------------------------------------------

def test_every_five_card_hand():
    values = list(map(hand_value, combinations(CANONICAL_DECK, 5)))
    assert len(values) == 2_598_960
    by_rank = Counter(value // CAT for value in values)
    assert [by_rank[r] for r in range(9)] == [
        1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
    assert len(set(values)) == 7_462


def test_random_five_card_hands_match_the_plain_evaluator():
    rnd = random.Random(5)
    for _ in range(20_000):
        cards = rnd.sample(CANONICAL_DECK, 5)
        assert hand_value(cards) == naive5(cards), cards


def test_same_order_as_treys():
    treys = pytest.importorskip("treys")
    rnd = random.Random(7)
    ours = {}
    ev = treys.Evaluator()
    for _ in range(20_000):
        cards = rnd.sample(CANONICAL_DECK, 7)
        ours.setdefault(hand_value(cards), set()).add(
            ev.evaluate([treys.Card.new(c) for c in cards[:2]], [treys.Card.new(c) for c in cards[2:]]))
    # Equal values are one treys class, and a higher value is a better (smaller) treys rank.
    assert all(len(ranks) == 1 for ranks in ours.values())
    theirs = [ours[value].pop() for value in sorted(ours)]
    assert theirs == sorted(theirs, reverse=True) and len(set(theirs)) == len(theirs)


# --- the whole answer against a slow oracle -------------------------------------------------

def oracle(cards):
    """R4 and R5 the slow way: the best value over every five-card subset; among the subsets with
    that value, the one using the earliest input cards; listed groups first (bigger, then higher
    ranks), straights from the top down with the wheel's ace last, same ranks in input order."""
    value = naive(cards)
    rank = value // CAT
    position = {c: i for i, c in enumerate(cards)}
    chosen = min((five for five in combinations(cards, 5) if naive5(five) == value),
                 key=lambda five: sorted(position[c] for c in five))
    counts = Counter(c[0] for c in chosen)
    if rank in (4, 8):
        top = value // 15**4 % 15
        order = [14 if r == 1 else r for r in range(top, top - 5, -1)]
        key = lambda c: (order.index(RANK_VALUE[c[0]]), position[c])  # noqa: E731
    else:
        key = lambda c: (-counts[c[0]], -RANK_VALUE[c[0]], position[c])  # noqa: E731
    return {"rank": rank, "value": value, "name": NAMES[rank], "best": sorted(chosen, key=key)}


def _shaped_hand(rnd, shape, n):
    """n cards drawn to make ``shape`` likely: "any", "flush", "straight" (a window of five ranks,
    wheels included, with repeated ranks), "few ranks" (pairs, trips, quads together)."""
    if shape == "flush":
        suits = rnd.sample(SUITS, rnd.choice((1, 2)))
        deck = [c for c in CANONICAL_DECK if c[1] in suits]
    elif shape == "straight":
        low = rnd.randrange(-1, 9)  # -1: the wheel's ace plays low
        window = {RANKS[r] for r in range(low, low + 5)}
        deck = [c for c in CANONICAL_DECK if c[0] in window]
        if n > 5 and rnd.random() < 0.3:  # sometimes a stray card outside the window
            return rnd.sample(deck, n - 1) + [rnd.choice([c for c in CANONICAL_DECK if c not in deck])]
    elif shape == "few ranks":
        ranks = rnd.sample(RANKS, rnd.choice((2, 3, 4)))
        deck = [c for c in CANONICAL_DECK if c[0] in ranks]
    else:
        deck = CANONICAL_DECK
    return rnd.sample(deck, n)


def test_evaluate_matches_the_oracle_on_random_hands():
    rnd = random.Random(20240601)
    seen = Counter()
    for i in range(6000):
        n = (5, 6, 7)[i % 3]
        cards = _shaped_hand(rnd, ("any", "flush", "straight", "few ranks")[i // 3 % 4], n)
        if i % 5 == 0:
            cards = tuple(cards)
        out = evaluate(cards)
        assert out == oracle(list(cards)), cards
        assert isinstance(out["best"], list)
        seen[out["rank"]] += 1
        ranks = Counter(RANK_VALUE[c[0]] for c in cards)
        shape = sorted(ranks.values(), reverse=True)
        seen["three pairs"] += shape[:3] == [2, 2, 2]
        seen["two trips"] += shape[:2] == [3, 3]
        seen["quads and trips"] += shape[:2] == [4, 3]
        seen["wheel"] += out["rank"] in (4, 8) and out["value"] % CAT == 5 * 15**4
        seen["straight with a repeated rank"] += out["rank"] == 4 and shape[0] > 1
    # The generator reaches every category and the awkward shapes, more than a few times each.
    assert all(seen[r] >= 10 for r in range(9)), seen
    assert min(seen[s] for s in ("three pairs", "two trips", "quads and trips", "wheel",
                                 "straight with a repeated rank")) >= 10, seen


@pytest.mark.parametrize("cards", [
    "Ah 2c 3d 4s 5h 5c 5d",        # wheel over trips, the first five of the three
    "5h Ah 2c 3d 4s Ad 2h",        # wheel with repeated ranks: earliest copies
    "9c 8d 7h 6s 5c 9d 8h",        # straight with two paired ranks
    "Qc Qd 8s 8h 5c 5d 3h",        # three pairs, kicker from the third
    "Kc Kd Kh 7s 7c 7d 2h",        # two trips
    "Kc Kd Kh Ks 7c 7d 7h",        # quads and trips
    "2s 2c 2d 2h As Ac Ks",        # quads, kicker from a pair
    "Ts 9s 8s 7s 6s 5s Js",        # seven-card straight flush
    "As 5s 4s 3s 2s Ks 6d",        # steel wheel with a non-straight flush card
    "Kh Qh 9h 7h 5h 3h 2h",        # seven-card flush
])
def test_awkward_hands_match_the_oracle(cards):
    cards = cards.split()
    assert evaluate(cards) == oracle(cards)
    rnd = random.Random(cards[0])
    for _ in range(20):
        rnd.shuffle(cards)
        assert evaluate(cards) == oracle(cards)


def test_every_rank_multiset_and_flush():
    """Every rank multiset of 5..7 cards (no flush) and every flush: the value agrees with
    hand_value and ``best`` is five of the cards with that value, in any input order."""
    rnd = random.Random(11)
    hands = []
    for n in (5, 6, 7):
        for combo in combinations_with_replacement(range(13), n):
            if max(Counter(combo).values()) <= 4:
                # Consecutive copies of a rank get distinct suits; no suit reaches five.
                hands.append([RANKS[r] + SUITS[i % 4] for i, r in enumerate(combo)])
        for combo in combinations(range(13), n):
            suit = rnd.choice(SUITS)
            off = [c for c in CANONICAL_DECK if c[1] != suit]
            hands.append([RANKS[r] + suit for r in combo] + rnd.sample(off, 7 - n))
    assert len(hands) > 73_775
    for cards in hands:
        rnd.shuffle(cards)
        out = evaluate(cards)
        assert out["value"] == hand_value(cards), cards
        best = out["best"]
        assert len(set(best)) == 5 and set(best) <= set(cards), cards
        assert hand_value(best) == out["value"], cards
