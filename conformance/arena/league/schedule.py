"""A league's tournaments: every table (combination of ``table_size`` bots, ids sorted) plays the
same duplicate-deck sets (:mod:`conformance.arena.series`): set ``j`` of every table deals deck seed
``seed + j`` with botSeed ``botSeed + j``, and its ``k`` tournaments rotate the table's seats
(rotation 0 seats the table's ids in sorted order). So a tournament is fully determined by
(seed, bot seed, table, set, rotation), its *coordinates*, and the order of ``--bots`` changes
nothing (docs/league.md, L1). Tasks are ordered set by set, so a league stopped early has whole sets.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

from conformance.arena.series import Task, rotation, set_seeds
from conformance.errors import UsageError
from conformance.harness.runner import BotSpec, RunnerOptions


@dataclass(frozen=True)
class LeagueTask:
    table: str  # the table's ids, sorted, joined by commas
    task: Task  # number: the task's place in the schedule

    @property
    def coordinates(self) -> tuple[str, int, int]:
        return self.table, self.task.set, self.task.rotation


def table_key(ids) -> str:
    return ",".join(sorted(ids))


def tables(ids, table_size: int) -> list[tuple[str, ...]]:
    """Every combination of ``table_size`` of the ids, each sorted, in lexicographic order."""
    return list(combinations(sorted(ids), table_size))


def sets_for(tournaments: int, n_tables: int, table_size: int) -> int:
    """The number of sets ``tournaments`` makes; UsageError unless it is a whole number of them."""
    per_set = n_tables * table_size
    if tournaments % per_set:
        lower, upper = tournaments // per_set * per_set, math.ceil(tournaments / per_set) * per_set
        near = f"{lower} or {upper}" if lower else f"{upper}"
        raise UsageError(f"--tournaments: {tournaments} is not a whole number of sets: one set is {per_set} "
                         f"tournaments ({n_tables} table{'s' if n_tables != 1 else ''} x {table_size} seat "
                         f"rotations); try {near}")
    return tournaments // per_set


def schedule(bots: Mapping[str, BotSpec], table_size: int, sets: int, seed: int, bot_seed: int,
             options: RunnerOptions) -> list[LeagueTask]:
    """Every tournament of the league, set by set, table by table, rotation by rotation."""
    out: list[LeagueTask] = []
    all_tables = tables(bots, table_size)
    for j in range(sets):
        deck_seed, seat_seed = set_seeds(seed, bot_seed, j)
        for table in all_tables:
            specs = [bots[i] for i in table]
            for r in range(table_size):
                out.append(LeagueTask(table_key(table), Task(len(out), j, r, deck_seed, seat_seed,
                                                             tuple(rotation(specs, r)), options, timings=True)))
    return out
