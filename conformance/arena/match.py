"""Duplicate-deck series: :func:`run_match`.

With ``k`` bots and ``N`` tournaments (a multiple of ``k``), the series has ``N / k`` *sets*
(:mod:`conformance.arena.series` plans and plays them). Set ``j`` deals with deck seed
``(seed + j) mod 2**32`` and seeds the workers with botSeed ``(botSeed + j) mod 2**32`` (deck and
bot seeds stay independent: neither is derived from the other); its ``k`` tournaments are the ``k`` rotations of the seat order: in rotation ``r``
the bot given ``b``-th sits in seat ``(b + r) mod k``. So every bot meets the same decks from
every seat. Each tournament equals ``holdem-cert play --bots <that rotation> --seed <deck seed>
--bot-seed <bot seed>`` and is reported with its digest.

Tournaments run in parallel processes (``jobs``), each with its own QuickJS worker children;
results are gathered by tournament number, and nothing measured enters them, so the series
is the same for any ``jobs``.

Confidence intervals: duplicate tournaments of one set share their decks, so they are not
independent; the sets are. For each bot, its mean place (and mean final chips) over the ``k``
rotations of a set is one observation. The interval is the 95% bootstrap percentile interval of
the mean over the ``n`` set means (``RESAMPLES`` resamples from a fixed seed, so the same series
gives the same interval): it lies inside the range of the set means, so never outside what is
possible (places 1..k, chips 0..the table's total), unlike a t-interval over a handful of sets.
Below ``MIN_SETS`` sets there is too little to say: no interval, and a warning. The report also
says roughly how many tournaments would make the mean-place intervals a given width
(``tournaments_for_width``: the normal approximation with the largest set-to-set spread seen).
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from conformance.harness.runner import CATEGORIES, BotSpec, RunnerOptions
from .series import plan, rotation, run_tasks  # noqa: F401  (rotation: part of match's API)
from .transcript import options_json

CONFIDENCE = 0.95
Z95 = 1.959964  # the standard normal's 97.5% quantile
MIN_SETS = 5  # fewer set means say too little about the spread for any interval
RESAMPLES = 4000
BOOTSTRAP_SEED = 20240601  # fixed: the same series gives the same intervals
PLACE_WIDTH = 0.5  # the default mean-place interval width the report prices in tournaments


def interval(values: Sequence[float]) -> tuple[float, list[float] | None]:
    """Mean and its 95% bootstrap percentile interval (None below MIN_SETS values). The interval's
    ends are means of resamples, so they lie between min(values) and max(values)."""
    n = len(values)
    mean = math.fsum(values) / n
    if n < MIN_SETS:
        return mean, None
    rnd = random.Random(BOOTSTRAP_SEED)
    means = sorted(math.fsum(rnd.choices(values, k=n)) / n for _ in range(RESAMPLES))
    tail = (1 - CONFIDENCE) / 2
    return mean, [means[int(tail * RESAMPLES)], means[math.ceil((1 - tail) * RESAMPLES) - 1]]


def spread(values: Sequence[float]) -> float:
    """The sample standard deviation (0 for fewer than two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))


def tournaments_for_width(set_sd: float, width: float, k: int) -> int:
    """Roughly how many tournaments (whole sets of ``k``) give a 95% interval ``width`` wide when set
    means spread with standard deviation ``set_sd``: n sets with 2 * 1.96 * sd / sqrt(n) = width."""
    sets = max(MIN_SETS, math.ceil((2 * Z95 * set_sd / width) ** 2))
    return sets * k


def summarize(ids: Sequence[str], series: list[dict]) -> list[dict]:
    """Per bot (in the order given): mean place and mean chips with their intervals, places
    won, errors by category."""
    k = len(ids)
    sets = len(series) // k
    rows = []
    for bot in ids:
        mine = [next(r for r in t["results"] if r["bot"] == bot) for t in series]
        set_places = [math.fsum(m["place"] for m in mine[j * k:(j + 1) * k]) / k for j in range(sets)]
        set_chips = [math.fsum(m["chips"] for m in mine[j * k:(j + 1) * k]) / k for j in range(sets)]
        place, place_ci = interval(set_places)
        chips, chips_ci = interval(set_chips)
        place_sd = spread(set_places)
        places = {str(p): sum(m["place"] == p for m in mine) for p in range(1, k + 1)}
        rows.append({
            "bot": bot, "tournaments": len(mine),
            "meanPlace": round(place, 4), "placeCI95": None if place_ci is None else [round(x, 4) for x in place_ci],
            "meanChips": round(chips, 2), "chipsCI95": None if chips_ci is None else [round(x, 2) for x in chips_ci],
            "places": places, "placeSetSd": round(place_sd, 4),
            "errors": {c: sum(m["errors"][c] for m in mine) for c in CATEGORIES},
        })
    return rows


def run_match(bots: Sequence[BotSpec], tournaments: int, seed: int, bot_seed: int, options: RunnerOptions,
              jobs: int = 1, on_done: Callable[[dict], None] | None = None, place_width: float = PLACE_WIDTH) -> dict:
    """Plan, play and summarize a series; the report (see the module doc), without timings."""
    tasks = plan(bots, tournaments, seed, bot_seed, options)
    series = run_tasks(tasks, jobs, on_done)
    ids = [b.id for b in bots]
    sets = len(tasks) // len(ids)
    summary = summarize(ids, series)
    widest = max(row["placeSetSd"] for row in summary)
    return {
        "bots": ids, "tournaments": len(tasks), "sets": sets, "seed": seed, "botSeed": bot_seed,
        "options": options_json(options),
        "confidence": ("95% bootstrap percentile intervals over the sets (a bot's mean over the rotations of one "
                       f"set is one observation: the rotations share decks, the sets do not); null below {MIN_SETS} "
                       "sets"),
        "warning": (None if sets >= MIN_SETS else
                    f"{sets} {'set is' if sets == 1 else 'sets are'} too few to say how far these means are from "
                    f"the long-run ones: play at least {MIN_SETS} sets ({MIN_SETS * len(ids)} tournaments) for "
                    "intervals"),
        "precision": {"placeWidth": place_width,
                      "tournaments": None if sets < 2 else tournaments_for_width(widest, place_width, len(ids))},
        "summary": summary,
        "series": series,
    }
