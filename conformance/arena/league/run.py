"""Playing a league: what the store lacks is scheduled, played on the backend and streamed into
the store as each tournament finishes; the report is then computed from the store alone."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from conformance.harness.runner import BotSpec, RunnerOptions
from . import backends
from .schedule import schedule, sets_for, table_key, tables
from .standings import build
from .store import Store, identity


def run_league(bots: Mapping[str, BotSpec], table_size: int, tournaments: int, seed: int, bot_seed: int,
               options: RunnerOptions, store_path: Path, backend: str = "local", jobs: int = 1,
               address: str | None = None, on_plan: Callable[[int], None] | None = None,
               on_done: Callable[[dict], None] | None = None) -> dict:
    """Play the tournaments of the league ``store_path`` does not hold yet; the report
    (:func:`conformance.arena.league.standings.build`). ``on_plan`` hears how many are to be played."""
    league = identity(bots.values(), table_size, seed, bot_seed, options)
    all_tables = [table_key(t) for t in tables(bots, table_size)]
    sets = sets_for(tournaments, len(all_tables), table_size)
    backends.check(backend, address)
    with Store(store_path, league) as store:
        held = store.done()
        todo = [lt.task for lt in schedule(bots, table_size, sets, seed, bot_seed, options)
                if lt.coordinates not in held]
        if on_plan is not None:
            on_plan(len(todo))

        def finished(summary: dict) -> None:
            store.add(table_key(summary["seats"]), summary)
            if on_done is not None:
                on_done(summary)

        if todo:
            backends.run(backend, todo, jobs, address, finished)
        return build(league, all_tables, sets, store.rows(sets))
