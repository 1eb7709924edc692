"""The league report, computed from the store alone, in canonical order (coordinates, then bot
ids): the same tournaments give the same bytes whatever the backend, the number of workers or the
order in which tasks finished. Decision times are measurements: they are kept apart, under
``timings``, and are the one part of the report that differs from run to run.
"""
from __future__ import annotations

from collections import Counter

from conformance.arena.match import MIN_SETS
from conformance.harness.runner import CATEGORIES, percentile
from . import ratings

RATING_DIGITS = 4


def _r(x: float) -> float:
    return round(x, RATING_DIGITS)


def build(identity: dict, tables: list[str], sets: int, rows: list[tuple[str, dict, list]]) -> dict:
    """The report (see docs/league.md) from the stored rows of sets ``0..sets-1``."""
    ids = sorted(identity["bots"])
    index = {b: i for i, b in enumerate(ids)}
    n = len(ids)
    by_set = [Counter() for _ in range(sets)]
    played = Counter()
    wins = Counter()
    place_sum = Counter()
    errors = {b: dict.fromkeys(CATEGORIES, 0) for b in ids}
    wall: dict[str, list[float]] = {b: [] for b in ids}
    for _table, summary, wall_ms in rows:
        by_set[summary["set"]][ratings.ordering({index[r["bot"]]: r["place"] for r in summary["results"]})] += 1
        for r, times in zip(summary["results"], wall_ms):
            played[r["bot"]] += 1
            wins[r["bot"]] += r["place"] == 1
            place_sum[r["bot"]] += r["place"]
            for c in CATEGORIES:
                errors[r["bot"]][c] += r["errors"][c]
            wall[r["bot"]].extend(times)
    rating, interval = ratings.rate(n, by_set)
    everything = sum(by_set, Counter())
    matrix = ratings.head_to_head(n, everything)
    standings = []
    for b in ids:
        i = index[b]
        standings.append({
            "bot": b, "name": identity["bots"][b]["name"], "rating": _r(rating[i]),
            "ratingCI95": None if interval[i] is None else [_r(x) for x in interval[i]],
            "tournaments": played[b], "wins": wins[b],
            "meanPlace": None if not played[b] else round(place_sum[b] / played[b], 4),
            "errors": errors[b], "errorTotal": sum(errors[b].values()),
        })
    standings.sort(key=lambda s: (-s["rating"], s["bot"]))
    for rank, s in enumerate(standings, 1):
        s["rank"] = rank
    expected = len(tables) * identity["tableSize"] * sets
    return {
        "league": identity["hash"], "bots": ids, "tableSize": identity["tableSize"], "tables": tables,
        "sets": sets, "tournaments": expected, "played": len(rows),
        "seed": identity["seed"], "botSeed": identity["botSeed"], "options": identity["options"],
        "rating": ("Plackett-Luce MAP log-strength, centred on 0 (docs/league.md); 95% bootstrap percentile intervals "
                   f"over the sets ({ratings.RESAMPLES} resamples), null below {MIN_SETS} sets"),
        "warning": (None if sets >= MIN_SETS else
                    f"{sets} set{'s are' if sets != 1 else ' is'} too few for intervals: play at least "
                    f"{MIN_SETS} sets ({MIN_SETS * len(tables) * identity['tableSize']} tournaments)"),
        "standings": standings,
        "headToHead": {"bots": ids, "matrix": matrix},
        "timings": {b: {"decisions": len(wall[b]), "wallP50": percentile(wall[b], 50),
                        "wallP95": percentile(wall[b], 95), "wallP99": percentile(wall[b], 99),
                        "wallMax": max(wall[b], default=None)} for b in ids},
    }
