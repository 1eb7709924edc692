"""``equity`` (ruling R6) and ``exact_equity``.

Expectations come from R6's text transcribed here on its own, from spots counted by hand, from
brute-force enumeration written independently of ``exact_equity``, and from the sampling
distribution (Monte Carlo within z = 5 standard errors of the exact value).
"""
import math
from itertools import combinations

import pytest

from reference.cards import CANONICAL_DECK
from reference.equity import EXACT_LIMIT, equity, exact_equity
from reference.errors import EquityError
from reference.evaluator import evaluate
from reference.rng import rng


def cards(text):
    return text.split()


def constant(x):
    """A random() that always returns x, counting its calls."""
    def draw():
        draw.calls += 1
        return x
    draw.calls = 0
    return draw


# --- argument errors --------------------------------------------------------------------------

GOOD = dict(hole=cards("Ah Kh"), board=cards("Qh Jd 7c"), opponents=2, iterations=10, random=rng(1))


@pytest.mark.parametrize("change, field, words", [
    (dict(hole="AhKh"), "holeCards", "list"),
    (dict(hole=None), "holeCards", "list"),
    (dict(hole=cards("Ah")), "holeCards", "expected 2 cards, got 1"),
    (dict(hole=cards("Ah Kh Qc")), "holeCards", "got 3"),
    (dict(hole=["Ah", "1h"]), "holeCards[1]", "'1h'"),
    (dict(hole=["Ah", 7]), "holeCards[1]", "7"),
    (dict(hole=["Ah", "Ah"]), "holeCards[1]", "duplicate card 'Ah'"),
    (dict(board="QhJd7c"), "board", "list"),
    (dict(board=cards("Qh Jd 7c 6s 5s 4s")), "board", "got 6"),
    (dict(board=["Qh", "Jd", "7x"]), "board[2]", "'7x'"),
    (dict(board=["Qh", "Kh", "7c"]), "board[1]", "duplicate card 'Kh' (already in holeCards[1])"),
    (dict(board=["Qh", "Jd", "Qh"]), "board[2]", "duplicate card 'Qh' (already in board[0])"),
    (dict(opponents=-1), "opponents", "-1"),
    (dict(opponents=9), "opponents", "9"),
    (dict(opponents=True), "opponents", "True"),
    (dict(opponents=1.0), "opponents", "1.0"),
    (dict(opponents="2"), "opponents", "'2'"),
    (dict(iterations=0), "iterations", "0"),
    (dict(iterations=2**53), "iterations", str(2**53)),
    (dict(iterations=True), "iterations", "True"),
    (dict(iterations=10.5), "iterations", "10.5"),
    (dict(random=None), "random", "None"),
    (dict(random=0.5), "random", "0.5"),
])
def test_argument_errors(change, field, words):
    args = {**GOOD, **change}
    with pytest.raises(EquityError) as info:
        equity(args["hole"], args["board"], args["opponents"], args["iterations"], args["random"])
    assert info.value.field == field
    assert words in info.value.reason


@pytest.mark.parametrize("bad", [1.0, 1, -0.25, float("nan"), float("inf"), "0.5", None, True, [0.5]])
def test_random_results_outside_0_1_are_errors(bad):
    with pytest.raises(EquityError) as info:
        equity(cards("Ah Kh"), [], 1, 5, constant(bad))
    assert info.value.field == "random"


def test_random_may_return_int_zero():
    # 0 is a number in [0, 1): no swap ever happens, the opponent holds the first two cards.
    assert equity(cards("Ah Kh"), cards("As Ks Qs Js Ts"), 1, 3, constant(0)) == 0.5


def test_exact_equity_validates_like_equity():
    with pytest.raises(EquityError) as info:
        exact_equity(cards("Ah Kh"), cards("Kh 2c 3d"), 1)
    assert info.value.field == "board[0]"
    with pytest.raises(EquityError) as info:
        exact_equity(cards("Ah Kh"), [], 9)
    assert info.value.field == "opponents"


# --- opponents = 0 and determinism ---------------------------------------------------------------

def test_no_opponents_is_exactly_one_without_drawing():
    draw = constant(0.5)
    assert equity(cards("7c 2d"), [], 0, 1000, draw) == 1.0
    assert draw.calls == 0
    assert exact_equity(cards("7c 2d"), [], 0) == {"equity": 1.0, "variance": 0.0, "outcomes": 1}


def test_no_opponents_still_checks_arguments():
    with pytest.raises(EquityError) as info:
        equity(cards("7c 2d"), [], 0, 0, constant(0.5))
    assert info.value.field == "iterations"


def test_deterministic_for_a_seed():
    a = equity(cards("Ah Kh"), cards("Qh Jd 7c"), 3, 300, rng(42))
    b = equity(cards("Ah Kh"), cards("Qh Jd 7c"), 3, 300, rng(42))
    assert a == b and 0 <= a <= 1


def r6_transcribed(hole, board, opponents, iterations, random):
    """R6's procedure as the ruling words it, kept apart from the reference implementation."""
    rest = [c for c in CANONICAL_DECK if c not in hole and c not in board]
    need = (5 - len(board)) + 2 * opponents
    total = 0.0
    for _ in range(iterations):
        for k in range(need):
            j = k + math.floor(random() * (len(rest) - k))
            rest[k], rest[j] = rest[j], rest[k]
        full = board + rest[0:5 - len(board)]
        hero = evaluate(hole + full)["value"]
        others = [evaluate([rest[5 - len(board) + 2 * i], rest[5 - len(board) + 2 * i + 1]] + full)["value"]
                  for i in range(opponents)]
        if max(others) > hero:
            share = 0
        else:
            share = 1 / (1 + others.count(hero))
        total += share
    return total / iterations


@pytest.mark.parametrize("hole, board, opponents, seed", [
    ("Ah Kh", "", 1, 1), ("7c 7d", "Ac 8d 2h", 3, "x"), ("Qs Js", "Ts 9s 2c 2d", 8, 99),
    ("2c 3c", "4c 5c 6c 7c 8c", 2, 0),
])
def test_bit_identical_to_r6_text(hole, board, opponents, seed):
    got = equity(cards(hole), cards(board), opponents, 400, rng(seed))
    assert got == r6_transcribed(cards(hole), cards(board), opponents, 400, rng(seed))


def test_rest_is_not_reset_between_iterations():
    # random() = 0.99 always picks the last index: j = k + floor(0.99 * (45 - k)) = 44.
    # rest starts 2c 3c 4c ... As. Iteration 1 deals the opponent As 2c (wheel, hero loses);
    # iteration 2, from the shuffled rest, 3c As (a pair of threes, hero's kings win);
    # iteration 3, 2c 3c (hero wins). A reset rest would deal As 2c every time.
    hole, board = cards("Kh Kd"), cards("3d 4h 5s Jc Qd")
    assert equity(hole, board, 1, 1, constant(0.99)) == 0.0
    assert equity(hole, board, 1, 2, constant(0.99)) == 0.5
    assert equity(hole, board, 1, 3, constant(0.99)) == 2 / 3


def test_random_just_below_one_stays_in_the_deck():
    # (1 - 2**-53) * 45 rounds to 45.0; the draw must still land on a card of rest.
    share = equity(cards("Ah Kh"), cards("As Ks Qs Js Ts"), 2, 5, constant(1 - 2**-53))
    assert share == pytest.approx(1 / 3)


# --- exact equity -----------------------------------------------------------------------------

def test_nuts_on_the_river_win_everything():
    out = exact_equity(cards("Js Ts"), cards("As Ks Qs 2d 3c"), 2)
    assert out == {"equity": 1.0, "variance": 0.0, "outcomes": math.comb(45, 2) * math.comb(43, 2)}


@pytest.mark.parametrize("opponents, share", [(1, 1 / 2), (2, 1 / 3)])
def test_board_that_plays_splits(opponents, share):
    out = exact_equity(cards("2c 3d"), cards("As Ks Qs Js Ts"), opponents)
    assert out["equity"] == share and out["variance"] == 0.0
    # R6 adds the 50 shares one by one as doubles, then divides: not exactly 1/3 for 1/3.
    total = 0.0
    for _ in range(50):
        total += share
    assert equity(cards("2c 3d"), cards("As Ks Qs Js Ts"), opponents, 50, rng(3)) == total / 50


def test_quads_on_board_counted_by_hand():
    # Board AAAA2, hero 3c 4c plays the four kicker. Of the 45 unseen cards nine are 2s, 3s or
    # 4s; an opponent with any higher card wins. Both from those nine: C(9,2) = 36 pairs; with
    # no 4: C(6,2) = 15 lose to the hero; the other 21 hold a 4 and tie. 990 pairs in all.
    out = exact_equity(cards("3c 4c"), cards("As Ad Ac Ah 2d"), 1)
    mean = (15 + 21 / 2) / 990
    assert out["outcomes"] == 990
    assert out["equity"] == pytest.approx(17 / 660, rel=1e-15) == mean
    assert out["variance"] == pytest.approx((15 + 21 / 4) / 990 - mean**2, rel=1e-12)


def brute_force(hole, board, opponents):
    """Mean and variance of the share over every runout and every ordered set of opponent hands."""
    rest = [c for c in CANONICAL_DECK if c not in hole and c not in board]
    shares = []
    for runout in combinations(rest, 5 - len(board)):
        full = board + list(runout)
        hero = evaluate(hole + full)["value"]
        left = [c for c in rest if c not in runout]
        hands = [(set(pair), evaluate(list(pair) + full)["value"]) for pair in combinations(left, 2)]
        if opponents == 1:
            ordered = [[h] for h in hands]
        else:
            ordered = [[a, b] for a in hands for b in hands if not a[0] & b[0]]
        for deal in ordered:
            values = [value for _, value in deal]
            shares.append(0 if max(values) > hero else 1 / (1 + values.count(hero)))
    mean = sum(shares) / len(shares)
    return mean, sum((s - mean) ** 2 for s in shares) / len(shares), len(shares)


@pytest.mark.parametrize("hole, board, opponents", [
    ("Ah Kh", "Qh Jd 7c 4s 2h", 1),
    ("9s 9d", "Ac Kd 5h 2s", 1),
    ("Qs Qd", "Ks 8h 5d 3c 2s", 2),
])
def test_exact_equity_matches_brute_force(hole, board, opponents):
    out = exact_equity(cards(hole), cards(board), opponents)
    mean, variance, count = brute_force(cards(hole), cards(board), opponents)
    assert out["outcomes"] == count
    assert out["equity"] == pytest.approx(mean, rel=1e-12)
    assert out["variance"] == pytest.approx(variance, rel=1e-9)


@pytest.mark.parametrize("hole, board, opponents, field", [
    ("Ah Kh", "", 1, "board"),
    ("Ah Kh", "Qh Jd 7c 4s", 2, "opponents"),
    ("Ah Kh", "Qh Jd 7c", 2, "opponents"),
    ("Ah Kh", "Qh Jd 7c 4s 2h", 3, "opponents"),
])
def test_exact_equity_refuses_big_enumerations(hole, board, opponents, field):
    with pytest.raises(EquityError) as info:
        exact_equity(cards(hole), cards(board), opponents)
    assert info.value.field == field
    assert f"{EXACT_LIMIT:,}" in info.value.reason


# --- Monte Carlo against the exact value --------------------------------------------------------

@pytest.mark.parametrize("hole, board, opponents, iterations, seed", [
    ("Ah Kh", "Qh Jd 7c 4s 2h", 1, 3000, 11),
    ("3c 4c", "As Ad Ac Ah 2d", 1, 3000, 12),
    ("9s 9d", "Ac Kd 5h 2s", 1, 3000, 13),
    ("7h 8h", "6h 5c Kd", 1, 3000, 14),
    ("Qs Qd", "Ks 8h 5d 3c 2s", 2, 3000, 15),
])
def test_monte_carlo_within_five_standard_errors(hole, board, opponents, iterations, seed):
    exact = exact_equity(cards(hole), cards(board), opponents)
    got = equity(cards(hole), cards(board), opponents, iterations, rng(seed))
    assert abs(got - exact["equity"]) <= 5 * math.sqrt(exact["variance"] / iterations)
