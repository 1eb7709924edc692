"""Ratings from placements: a Plackett–Luce fit with bootstrap intervals, and head-to-head shares.

Plackett–Luce: bot ``i`` has a strength ``w_i``; a tournament's finishing order is read from the
top, each place going to one of the bots not yet placed with probability proportional to its
strength. Bots sharing a place (equal chips at the hand cap) are taken as all chosen at that
stage from the bots left (Breslow's handling of ties, docs/league.md L2). The fit is the MAP estimate under a
Gamma(2, 1) prior on each strength (about one virtual win against a bot of strength 1, L2): a bot
that won every tournament gets a large but finite rating. The log-posterior in the log-strengths
``t_i = ln w_i`` is ``sum_i (t_i - e^t_i)`` plus, for every stage with bots left ``R`` and bots
chosen ``G``, ``sum_{i in G} t_i - |G| ln sum_{j in R} e^t_j``: strictly concave, so the fit is
unique and Newton's method (with step halving) finds it in a few steps. A rating is ``ln w_i`` minus the mean over the bots (so ratings sum to 0; a difference of 1 is
odds e:1 of finishing ahead, heads-up).

Intervals: the sets are the independent units (a set's tournaments share decks, at every table),
so the 95% interval is the bootstrap percentile interval over ``RESAMPLES`` resamples of the sets
(a fixed seed; each resample refitted from the full fit). Below ``MIN_SETS`` sets: none.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from conformance.arena.match import BOOTSTRAP_SEED, CONFIDENCE, MIN_SETS

PRIOR_SHAPE, PRIOR_RATE = 2.0, 1.0
RESAMPLES = 400
TOLERANCE = 1e-9  # stop when no log-strength moves more than this
MAX_ITERATIONS = 100

Ordering = tuple[tuple[int, ...], ...]  # bot indices grouped by place, best place first


def ordering(places: dict[int, int]) -> Ordering:
    """Bots (indices) grouped by place, best first, from {bot index: place}."""
    groups: dict[int, list[int]] = {}
    for bot, place in places.items():
        groups.setdefault(place, []).append(bot)
    return tuple(tuple(sorted(groups[p])) for p in sorted(groups))


def _stages(orderings: Counter) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """The choices the orderings make: (count, bots left, bots chosen), the last (forced) one left out."""
    stages = []
    for order, count in sorted(orderings.items()):
        left = tuple(b for group in order for b in group)
        for group in order:
            if len(group) == len(left):
                break  # the last stage chooses everyone left: it says nothing
            stages.append((count, left, group))
            left = left[len(group):]
    return stages


def log_posterior(theta: Sequence[float], stages) -> float:
    total = math.fsum((PRIOR_SHAPE - 1) * t - PRIOR_RATE * math.exp(t) for t in theta)
    for count, left, chosen in stages:
        total += count * (math.fsum(theta[i] for i in chosen)
                          - len(chosen) * math.log(math.fsum(math.exp(theta[j]) for j in left)))
    return total


def fit(n: int, orderings: Counter, start: Sequence[float] | None = None) -> list[float]:
    """Log-strengths of bots ``0..n-1`` (the MAP of the module doc) from counted orderings, by
    Newton's method with step halving: the log-posterior is strictly concave in them."""
    stages = _stages(orderings)
    theta = list(start) if start is not None else [0.0] * n
    value = log_posterior(theta, stages)
    for _ in range(MAX_ITERATIONS):
        grad = [(PRIOR_SHAPE - 1) - PRIOR_RATE * math.exp(t) for t in theta]
        hess = [[0.0] * n for _ in range(n)]
        for i in range(n):
            hess[i][i] = -PRIOR_RATE * math.exp(theta[i])
        for count, left, chosen in stages:
            total = math.fsum(math.exp(theta[j]) for j in left)
            m = count * len(chosen)
            p = {j: math.exp(theta[j]) / total for j in left}
            for i in chosen:
                grad[i] += count
            for j in left:
                grad[j] -= m * p[j]
                hess[j][j] -= m * p[j]
                for k in left:
                    hess[j][k] += m * p[j] * p[k]
        step = solve(hess, grad)  # H step = g; theta - step is Newton's point
        scale = 1.0
        while True:
            trial = [t - scale * d for t, d in zip(theta, step)]
            trial_value = log_posterior(trial, stages)
            if trial_value >= value or scale < 1e-6:
                break
            scale /= 2
        moved = max(abs(scale * d) for d in step)
        theta, value = trial, trial_value
        if moved < TOLERANCE:
            break
    return theta


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; a is negative definite here)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - math.fsum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def centred(logs: Sequence[float]) -> list[float]:
    mean = math.fsum(logs) / len(logs)
    return [x - mean for x in logs]


def rate(n: int, sets: Sequence[Counter]) -> tuple[list[float], list[list[float] | None]]:
    """Ratings of bots ``0..n-1`` and their 95% bootstrap intervals (None below MIN_SETS sets) from
    the orderings of each set."""
    whole = fit(n, sum(sets, Counter()))
    ratings = centred(whole)
    if len(sets) < MIN_SETS:
        return ratings, [None] * n
    rnd = random.Random(BOOTSTRAP_SEED)
    draws: list[list[float]] = [[] for _ in range(n)]
    for _ in range(RESAMPLES):
        sample = Counter()
        for s in rnd.choices(range(len(sets)), k=len(sets)):
            sample.update(sets[s])
        for i, r in enumerate(centred(fit(n, sample, start=whole))):
            draws[i].append(r)
    tail = (1 - CONFIDENCE) / 2
    intervals = []
    for d in draws:
        d.sort()
        intervals.append([d[int(tail * RESAMPLES)], d[math.ceil((1 - tail) * RESAMPLES) - 1]])
    return ratings, intervals


def head_to_head(n: int, orderings: Counter) -> list[list[dict | None]]:
    """For each ordered pair (i, j), i != j: the tournaments both played, and how often i finished
    ahead of j, behind it, or level; ``share`` is (ahead + level / 2) / together (None on the diagonal)."""
    counts = [[[0, 0, 0] for _ in range(n)] for _ in range(n)]  # ahead, behind, level
    for order, count in orderings.items():
        place = {b: p for p, group in enumerate(order) for b in group}
        for i in place:
            for j in place:
                if i != j:
                    k = 0 if place[i] < place[j] else 1 if place[i] > place[j] else 2
                    counts[i][j][k] += count
    matrix: list[list[dict | None]] = []
    for i in range(n):
        row: list[dict | None] = []
        for j in range(n):
            ahead, behind, level = counts[i][j]
            together = ahead + behind + level
            row.append(None if i == j else {
                "together": together, "ahead": ahead, "behind": behind, "level": level,
                "share": None if together == 0 else round((ahead + level / 2) / together, 4)})
        matrix.append(row)
    return matrix
