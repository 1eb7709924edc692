"""Duplicate-deck tournaments and how they run: shared by ``match`` (one table) and ``league``
(every table of a roster).

A *set* ``j`` deals with deck seed ``(seed + j) mod 2**32`` and seeds the workers with botSeed
``(botSeed + j) mod 2**32`` (deck and bot seeds stay independent: neither is derived from the
other); its ``k`` tournaments are the ``k`` rotations of the seat order: in rotation ``r`` the
bot given ``b``-th sits in seat ``(b + r) mod k``. So every bot meets the same decks from every
seat, and a tournament is fully determined by (seed, bot seed, bots, set, rotation).

:func:`run_tasks` plays tasks in parallel processes (each with its own QuickJS worker children)
and gives each summary back as it finishes; each task has a process of its own, so one that dies
(killed, out of memory) costs only its task, which is played again (:data:`TASK_RETRIES` times).
"""
from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import wait

from reference.errors import OptionError

from conformance.errors import UsageError
from conformance.harness.runner import BotSpec, RunnerOptions, run_tournament
from conformance.host.linepipe import kill_all

TASK_RETRIES = 2  # a task whose process dies is run again this many times, then reported lost
KILL_TASK_ENV = "HOLDEM_CERT_TEST_KILL_TASK"  # tests' fault injection: see _injected_fault


class TaskLost(UsageError):
    """A task's process died on every attempt; the message names the tasks and how they died (the
    command stops with exit 2, as ``match`` and ``league`` say any run that could not finish)."""


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
    _injected_fault(task)
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


def _task_process() -> None:
    """A task's process stops its QuickJS workers before it dies of SIGTERM or SIGHUP (the parent
    sends SIGTERM when it is stopped itself): they run in sessions of their own."""
    def stop(signum: int, frame) -> None:
        kill_all()
        os._exit(128 + signum)

    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, stop)


def _injected_fault(task: Task) -> None:
    """Tests' fault injection (:data:`KILL_TASK_ENV` = ``NUMBER:once|always:MARKER``), on every
    backend (a local task's process, a Ray worker; never set it with ``--jobs 1``, which plays in
    this process): every task's process appends its task number to MARKER (so the attempts can be
    counted), and the one playing task NUMBER kills itself with SIGKILL: on its first attempt only
    (``once``) or on every one."""
    spec = os.environ.get(KILL_TASK_ENV)
    if not spec:
        return
    number, when, marker = spec.split(":", 2)
    with open(marker, "a", encoding="utf-8") as f:
        f.write(f"{task.number}\n")
    if int(number) != task.number:
        return
    with open(marker, encoding="utf-8") as f:
        attempts = sum(line.strip() == number for line in f)
    if when == "always" or attempts == 1:
        os.kill(os.getpid(), signal.SIGKILL)


def start_task(context, play, task) -> tuple:
    """``play(task)`` started in a process of its own (:func:`_child`): the parent's end of its pipe
    and the process."""
    parent_end, child_end = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(child_end, play, task, dict(os.environ)), daemon=True)
    process.start()
    child_end.close()  # so that the child's death reads as end of file here
    return parent_end, process


def task_outcome(conn, process) -> tuple[str, object]:
    """What a task's process sent once ``conn`` is ready: ("ok", result), ("raised", exception), or
    ("died", None) when it died before it sent a whole result; the process is joined."""
    try:
        kind, value = conn.recv()
    except (EOFError, OSError):
        kind, value = "died", None
    conn.close()
    process.join()
    return kind, value


def _child(conn, play: Callable[[Task], dict], task: Task, environment: dict[str, str]) -> None:
    """A task's process: play it and send ``("ok", summary)`` or ``("raised", exception)``. It takes
    the parent's environment as it is now (the fork server's is the one it started with)."""
    os.environ.clear()
    os.environ.update(environment)
    _task_process()
    try:
        message = ("ok", play(task))
    except BaseException as exc:  # sent to the parent, which raises it
        try:
            pickle.loads(pickle.dumps(exc))
            message = ("raised", exc)
        except Exception:  # an exception that does not make the trip: its text
            message = ("raised", RuntimeError(f"{type(exc).__name__}: {exc}"))
    try:
        conn.send(message)
    except BrokenPipeError:  # the parent stopped (a signal) as this task finished: nobody listens
        pass
    conn.close()


def _context():
    """forkserver where there is one: a child is forked from a small server that has imported this
    module (cheap, and unlike fork it does not copy the parent's threads, e.g. a progress display)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")


def _death(exitcode: "int | None") -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit code {exitcode}" if exitcode else "exited without a result"


def run_tasks(tasks: Sequence[Task], jobs: int, on_done: Callable[[dict], None] | None = None,
              play: Callable[[Task], dict] = play_task) -> list[dict]:
    """Every task's summary, in the order of ``tasks`` whatever order they finish in; ``on_done``
    sees each as it finishes. With ``jobs`` > 1 each task runs in a process of its own, at most
    ``jobs`` at once: a process that dies (killed, out of memory) costs only its task, which is run
    again, up to :data:`TASK_RETRIES` times; a task that dies every time is :class:`TaskLost`, raised
    once every other task has finished (and been given to ``on_done``). An exception raised by
    ``play`` stops the run and is raised here."""
    done: list[dict | None] = [None] * len(tasks)

    def finish(i: int, summary: dict) -> None:
        done[i] = summary
        if on_done is not None:
            on_done(summary)

    if jobs == 1:
        for i, task in enumerate(tasks):
            finish(i, play(task))
        return done  # type: ignore[return-value]
    lost = _run_processes(tasks, jobs, finish, play)
    if lost:
        raise TaskLost(f"{len(lost)} of {len(tasks)} tournaments not played: their process died on each of "
                       f"{1 + TASK_RETRIES} attempts (" + "; ".join(
                           f"tournament {tasks[i].number} (set {tasks[i].set}, rotation {tasks[i].rotation}): "
                           f"{how}" for i, how in lost) + "); every other tournament finished")
    return done  # type: ignore[return-value]


def _run_processes(tasks: Sequence[Task], jobs: int, finish: Callable[[int, dict], None],
                   play: Callable[[Task], dict]) -> list[tuple[int, str]]:
    """Run every task in its own process, ``jobs`` at once; the tasks lost, with how they died."""
    context = _context()
    queue = deque(range(len(tasks)))
    attempts = [0] * len(tasks)
    running: dict = {}  # the parent's end of each running task's pipe -> (task index, process)
    lost: list[tuple[int, str]] = []
    try:
        while queue or running:
            while queue and len(running) < jobs:
                i = queue.popleft()
                attempts[i] += 1
                parent_end, process = start_task(context, play, tasks[i])
                running[parent_end] = (i, process)
            for conn in wait(list(running)):
                i, process = running.pop(conn)
                kind, value = task_outcome(conn, process)
                if kind == "ok":
                    finish(i, value)
                elif kind == "raised":
                    raise value
                elif attempts[i] <= TASK_RETRIES:
                    queue.append(i)
                else:
                    lost.append((i, _death(process.exitcode)))
    finally:
        for i, process in running.values():  # stopped (an exception, an interrupt): running tasks stop now
            process.terminate()
        for i, process in running.values():
            process.join()
    return sorted(lost)
