"""``PokerEngine.equity`` (Monte Carlo, ruling R6) and ``exact_equity`` (full enumeration).

``equity`` follows R6's procedure step by step, so an implementation in another language fed the
same ``random`` stream returns the bit-identical float: one persistent ``rest`` array (the canonical
deck minus the known cards) reshuffled in place by a partial Fisher-Yates each iteration, shares
of 1, 1/(1+t) or 0 summed in iteration order as doubles, and the sum divided by ``iterations``.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb, factorial

from .cards import CANONICAL_DECK, check_cards
from .errors import EquityError
from .evaluator import hand_value
from .rng import MAX_SAFE_INTEGER

MAX_OPPONENTS = 8
# exact_equity refuses spots with more equally likely outcomes than this. Within it: one opponent
# from the flop on, two opponents on the river (about a second of enumeration at most).
EXACT_LIMIT = 3_000_000


def _check_int(value, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EquityError(field, f"expected an integer from {low} to {high}, got {value!r}")
    if not low <= value <= high:
        raise EquityError(field, f"expected an integer from {low} to {high}, got {value}")
    return value


def _check_random_result(x) -> None:
    """Accept a non-bool int or float in [0, 1) (JS: a number); anything else is an error."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 <= x < 1:
        raise EquityError("random", f"random() returned {x!r}, not a number in [0, 1)")


def _check_spot(hole, board, opponents) -> tuple[list, list, list]:
    """Validated (hole, board, rest): rest is the canonical deck minus the known cards."""
    known: dict = {}
    hole = check_cards(hole, "holeCards", low=2, high=2, error=EquityError, known=known)
    board = check_cards(board, "board", low=0, high=5, error=EquityError, known=known)
    _check_int(opponents, "opponents", 0, MAX_OPPONENTS)
    return hole, board, [c for c in CANONICAL_DECK if c not in known]


def equity(hole, board, opponents, iterations, random) -> float:
    """``PokerEngine.equity``: the mean pot share of ``hole`` against random opponent hands (R6).

    Errors name the contract's parameter (``holeCards``, ``holeCards[i]``, ``board``,
    ``board[i]``, ``opponents``, ``iterations``, ``random``). ``random`` is required here (JS
    defaults it to Math.random). ``opponents == 0`` returns 1.0 without calling it.
    """
    hole, board, rest = _check_spot(hole, board, opponents)
    _check_int(iterations, "iterations", 1, MAX_SAFE_INTEGER)
    if not callable(random):
        raise EquityError("random", f"expected a function returning numbers in [0, 1), got {random!r}")
    if opponents == 0:
        return 1.0
    n = len(rest)
    missing = 5 - len(board)
    need = missing + 2 * opponents
    total = 0.0
    for _ in range(iterations):
        # Partial Fisher-Yates on the current order of rest (never reset between iterations).
        for k in range(need):
            x = random()
            if type(x) is not float or not 0.0 <= x < 1.0:
                _check_random_result(x)
            # For x < 1 and n - k <= 52, x * (n - k) rounds below n - k (checked for every m < 2**20).
            j = k + int(x * (n - k))
            rest[k], rest[j] = rest[j], rest[k]
        full = board + rest[:missing]
        hero = hand_value(hole + full)
        ties = 0
        for i in range(missing, need, 2):
            v = hand_value([rest[i], rest[i + 1]] + full)
            if v > hero:
                break
            ties += v == hero
        else:
            total += 1 / (1 + ties)
    return total / iterations


def _outcomes(unknown: int, missing: int, opponents: int) -> int:
    """Equally likely (runout, ordered opponent hands) outcomes."""
    count = comb(unknown, missing)
    for i in range(opponents):
        count *= comb(unknown - missing - 2 * i, 2)
    return count


def exact_equity(hole, board, opponents) -> dict:
    """The exact value ``equity`` estimates, by enumerating every runout and opponent hands.

    Returns ``{"equity", "variance", "outcomes"}``: ``variance`` is the variance of one
    iteration's share, so N iterations of ``equity`` have standard error sqrt(variance / N).
    ``opponents == 0`` gives ``{"equity": 1.0, "variance": 0.0, "outcomes": 1}`` (nothing is drawn).
    Raises EquityError on invalid arguments, and on spots with more than EXACT_LIMIT outcomes
    (field ``board`` when even one opponent is too many, else ``opponents``).
    """
    hole, board, rest = _check_spot(hole, board, opponents)
    if opponents == 0:
        return {"equity": 1.0, "variance": 0.0, "outcomes": 1}
    missing = 5 - len(board)
    outcomes = _outcomes(len(rest), missing, opponents)
    if outcomes > EXACT_LIMIT:
        field = "board" if _outcomes(len(rest), missing, 1) > EXACT_LIMIT else "opponents"
        raise EquityError(field, f"exact enumeration needs {outcomes:,} outcomes, over the limit of "
                                 f"{EXACT_LIMIT:,}; estimate with equity() instead")
    # weight[t]: outcomes where no opponent beats the hero and t opponents tie (share 1/(1+t)).
    weight = [0] * (opponents + 1)
    index = {c: i for i, c in enumerate(rest)}
    for runout in combinations(rest, missing):
        full = board + list(runout)
        hero = hand_value(hole + full)
        left = [c for c in rest if c not in runout]
        # Each opponent hand once per runout; hands that beat the hero end the outcome at 0.
        alive = []
        for a, b in combinations(left, 2):
            v = hand_value([a, b] + full)
            if v <= hero:
                alive.append(((1 << index[a]) | (1 << index[b]), v == hero))
        _tally(alive, 0, 0, opponents, 0, weight)
    # Opponents are enumerated as unordered sets of disjoint hands; each set is opponents! orders.
    orders = factorial(opponents)
    s1 = sum(Fraction(w * orders, 1 + t) for t, w in enumerate(weight))
    s2 = sum(Fraction(w * orders, (1 + t) ** 2) for t, w in enumerate(weight))
    mean = s1 / outcomes
    return {"equity": float(mean), "variance": float(s2 / outcomes - mean * mean), "outcomes": outcomes}


def _tally(alive: list, start: int, used: int, left: int, ties: int, weight: list) -> None:
    """Add every set of ``left`` more disjoint hands from ``alive[start:]`` to ``weight``."""
    if left == 1:
        for mask, tie in alive[start:]:
            if not mask & used:
                weight[ties + tie] += 1
        return
    for i in range(start, len(alive)):
        mask, tie = alive[i]
        if not mask & used:
            _tally(alive, i + 1, used | mask, left - 1, ties + tie, weight)
