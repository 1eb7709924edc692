"""Duplicate-deck tournaments and how they run: shared by ``match`` (one table) and ``league``
(every table of a roster).

A *set* ``j`` deals with deck seed ``(seed + j) mod 2**32`` and seeds the workers with botSeed
``(botSeed + j) mod 2**32`` (deck and bot seeds stay independent: neither is derived from the
other); its ``k`` tournaments are the ``k`` rotations of the seat order: in rotation ``r`` the
bot given ``b``-th sits in seat ``(b + r) mod k``. So every bot meets the same decks from every
seat, and a tournament is fully determined by (seed, bot seed, bots, set, rotation).

:func:`run_tasks` plays tasks in parallel processes (each with its own QuickJS worker children)
and gives each summary back as it finishes; a pool process that dies (killed, out of memory)
costs only the tasks in flight (the pool fails all of them): they are played again in a fresh pool.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from reference.errors import OptionError

from .linepipe import kill_all
from .runner import BotSpec, RunnerOptions, run_tournament

POOL_RESTARTS = 3  # a pool that breaks this many times in a row without finishing a task: give up


class PoolBroken(RuntimeError):
    """Pool processes kept dying without finishing a task."""


def rotation(items: Sequence, r: int) -> list:
    """The seat order of rotation ``r``: the bot given ``b``-th sits in seat ``(b + r) mod k``."""
    k = len(items)
    return [items[(seat - r) % k] for seat in range(k)]


@dataclass(frozen=True)
class Task:
    """One tournament of a series (pickled to a worker process; it carries the bots' sources)."""

    number: int
    set: int
    rotation: int
    deck_seed: int
    bot_seed: int
    bots: tuple[BotSpec, ...]  # in seat order
    options: RunnerOptions
    timings: bool = False  # add each seat's decision wall times (measurements) to the summary


def set_seeds(seed: int, bot_seed: int, j: int) -> tuple[int, int]:
    """Set ``j``'s deck seed and botSeed."""
    return (seed + j) % 2**32, (bot_seed + j) % 2**32


def plan(bots: Sequence[BotSpec], tournaments: int, seed: int, bot_seed: int, options: RunnerOptions,
         timings: bool = False) -> list[Task]:
    k = len(bots)
    if tournaments < k or tournaments % k:
        raise OptionError("tournaments", f"{tournaments} is not a positive multiple of the {k} seat rotations "
                          f"(one set is {k} tournaments)")
    tasks = []
    for j in range(tournaments // k):
        for r in range(k):
            tasks.append(Task(len(tasks), j, r, *set_seeds(seed, bot_seed, j), tuple(rotation(bots, r)), options,
                              timings))
    return tasks


def play_task(task: Task) -> dict:
    """Play one tournament; its summary (timings only if the task asks for them, apart)."""
    result = run_tournament(list(task.bots), task.deck_seed, task.bot_seed, task.options)
    summary = {
        "tournament": task.number, "set": task.set, "rotation": task.rotation,
        "deckSeed": task.deck_seed, "botSeed": task.bot_seed,
        "seats": [b.id for b in task.bots], "hands": len(result.hands), "decisions": len(result.decisions),
        "results": [{"seat": s.seat, "bot": s.bot, "place": st["place"], "chips": st["chips"],
                     "errors": dict(s.errors)} for s, st in zip(result.seats, result.standings)],
        "digest": result.digest(),
    }
    if task.timings:
        summary["wallMs"] = [[round(ms, 3) for ms in s.wall] for s in result.seats]
    return summary


def _pool_process() -> None:
    """A pool process stops its QuickJS workers before it dies of SIGTERM or SIGHUP (the parent
    sends SIGTERM when it is stopped itself): they run in sessions of their own."""
    def stop(signum: int, frame) -> None:
        kill_all()
        os._exit(128 + signum)

    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, stop)


def run_tasks(tasks: Sequence[Task], jobs: int, on_done: Callable[[dict], None] | None = None,
              play: Callable[[Task], dict] = play_task) -> list[dict]:
    """Every task's summary, in the order of ``tasks`` whatever order they finish in; ``on_done``
    sees each as it finishes. A broken pool (a process killed) is replaced and the unfinished tasks
    played again, up to POOL_RESTARTS times in a row without progress."""
    done: list[dict | None] = [None] * len(tasks)

    def finish(i: int, summary: dict) -> None:
        done[i] = summary
        if on_done is not None:
            on_done(summary)

    if jobs == 1:
        for i, task in enumerate(tasks):
            finish(i, play(task))
        return done  # type: ignore[return-value]
    breaks = 0
    while True:
        todo = [i for i, s in enumerate(done) if s is None]
        if not todo:
            return done  # type: ignore[return-value]
        before = len(todo)
        try:
            _run_pool(tasks, todo, jobs, finish, play)
        except BrokenProcessPool:
            remaining = sum(s is None for s in done)
            breaks = breaks + 1 if remaining == before else 1
            if breaks >= POOL_RESTARTS:
                raise PoolBroken(f"the process pool broke {breaks} times in a row without finishing a "
                                   f"tournament; {remaining} of {len(tasks)} not played") from None


def _run_pool(tasks: Sequence[Task], todo: list[int], jobs: int, finish: Callable[[int, dict], None],
              play: Callable[[Task], dict]) -> None:
    # spawn, not fork: the parent may run threads (a progress display), which fork would copy mid-flight.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                             initializer=_pool_process) as pool:
        futures = {pool.submit(play, tasks[i]): i for i in todo}
        try:
            for future in as_completed(futures):
                finish(futures[future], future.result())
        except BrokenProcessPool:
            raise
        except BaseException:
            for future in futures:
                future.cancel()
            for process in multiprocessing.active_children():  # the pool's: running tasks stop now
                process.terminate()
            raise
