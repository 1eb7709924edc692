"""The timing verdict of bot certification: stable, and predicting the arena (issues #18 item 3, #35 item 3).

**On the V8 host** (node, the default where it is installed: :mod:`conformance.host.bot_host`) the
battery and the tables already run the bot in V8, as the arena's browsers do, and are timed there
directly: a decision's time is its wall time (delivery both ways, the bot's computation, the reading
of its answer) less the time the bot's thread waited, runnable, for a CPU (the machine's load:
``Outcome.queued_ms``). A state killed at the deadline D, or slower than D/2, is re-timed
(:func:`retime_v8`): :data:`REPEATS` fresh V8 workers each answer, untimed, the states the killed
worker answered before it (its memory as it was), then the state once, timed, killed at
:data:`NODE_KILL_FACTOR` x D. The verdict (:func:`classify_v8`): ``late`` (rejected) when the median
is above D, ``at-risk`` (a warning) above D/2, ``ok`` otherwise. QuickJS plays no part.

**On the QuickJS host** (``--host quickjs``, or no node here) the rule below, written for an
interpreter about 20x slower than the arena's JIT, holds: with node installed, V8 must miss the
deadline too, so QuickJS's slowness alone never decides a verdict.

One QuickJS measurement near the deadline is a coin toss (the same state took 1002.7, 965.4 and
1002.3 ms in three identical runs), and QuickJS is not what the arena runs: the same call took
42 ms in V8. So a time is never judged from one sample, and lateness is rejected only when it
is beyond doubt. The rule (ruling R33; docs/bot-certification.md, "Timing verdicts"), with D the
decision deadline:

1. **Timing-critical states**: a battery state whose QuickJS wall time exceeded D/2, or that was
   late (the worker is killed at D, as the arena does). The :data:`MAX_CRITICAL` slowest are
   re-timed, and the first :data:`MAX_LATE_RETIMED` late ones; a later late state is late
   beyond doubt when one of those was (a bot slow everywhere must not take hours).
2. **Re-timing**: a fresh QuickJS worker first answers, untimed, the states the bot answered
   before this one (its module memory is then as it was: a bot that slows down as it goes, or
   hangs on its hundredth call, is re-timed as it ran), then the state :data:`REPEATS` times,
   with a wall-clock kill at :data:`QUICKJS_KILL_FACTOR` x D; when node is installed, the same
   in one fresh V8 worker thread (:mod:`conformance.host.node_timing`), terminated at
   :data:`NODE_KILL_FACTOR` x D, after one more untimed warm-up run (the arena's worker
   persists: its code is JIT-compiled). The QuickJS
   time is the process CPU time of the decision (wall time inflates when the machine is
   loaded; CPU time does not), the node time the wall time; each side is the **median** of
   its repeats, a kill counting as infinitely late. A throw is no decision time: when the bot
   throws in V8 where it answered (or was killed) in QuickJS, or the reverse, or V8 could not
   load or run it, V8 does not time the state ("cannot time in V8: ...", :attr:`StateTiming.node_error`)
   and the verdict rests on QuickJS alone, which is never more lenient. V8 runs the bot with
   core-js's builtins of the QuickJS worker (:mod:`conformance.host.node_polyfill`).
3. **Verdict per state**:
   - ``late`` (an error: rejected) when the QuickJS median exceeds QUICKJS_LATE_FACTOR x D,
     and node, when present, is late too (median above D);
   - ``at-risk`` (a warning) when it is not late but a median exceeds D/2 on either side;
   - ``ok`` otherwise.

Medians of repeats keep a state that is near a boundary on one side of it, and the boundaries
are far apart: a bot is rejected only when QuickJS needs twice the deadline *and* V8 misses it,
and a bot that V8 runs well within the deadline is at worst warned. Without node the verdict
rests on QuickJS alone; the report says so.

Nothing here decides a bot's answers: every state is judged on its QuickJS answer in the battery.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from conformance.host import node_polyfill
from conformance.host.bot_host import BotHost
from conformance.host.node_timing import NodeBot
from conformance.host.worker import Worker

AT_RISK_FRACTION = 0.5  # a median above this share of the deadline is at risk
QUICKJS_LATE_FACTOR = 2.0  # QuickJS is late beyond doubt above this many deadlines of CPU time
# Wall-clock kills of re-timing runs, in deadlines: far above the thresholds, so that a loaded
# machine (wall time many times the CPU time) does not turn a measurable run into a kill. (The
# QuickJS worker's own CPU-time backstop, 10 s, ends a run that never answers sooner.)
QUICKJS_KILL_FACTOR = 20.0
NODE_KILL_FACTOR = 5.0
CPU_LIMIT_FACTOR = 1.25 * QUICKJS_LATE_FACTOR  # the re-timing worker's CPU backstop, in deadlines
REPEATS = 3
MAX_CRITICAL = 3  # slow (not late) states re-timed, the slowest first
MAX_LATE_RETIMED = 3  # late states re-timed; the verdicts of these speak for later ones


@dataclass(frozen=True)
class StateTiming:
    """The re-timed samples of one state and what they amount to."""

    id: str
    quickjs_ms: tuple[float, ...]  # CPU ms per repeat (wall when CPU time is unknown); inf: killed
    node_ms: tuple[float, ...] | None  # wall ms per repeat in V8; inf: terminated; None: no node
    verdict: str  # ok, at-risk, late
    deadline_ms: float
    node_error: str | None = None  # why V8 could not time it (node_ms is then None): "it threw ..."
    host: str = "quickjs"  # the host the bot was certified on: on "node", V8 alone (quickjs_ms empty)

    @property
    def quickjs_median(self) -> float:
        return statistics.median(self.quickjs_ms) if self.quickjs_ms else math.nan

    @property
    def node_median(self) -> float | None:
        return None if self.node_ms is None else statistics.median(self.node_ms)

    def describe(self) -> str:
        def median(side: str, x: float, unit: str, stopped: str) -> str:
            if math.isinf(x):
                return f"{side}: no answer in most of {REPEATS} runs ({stopped})"
            return f"{side} median {x:.0f} ms {unit}of {REPEATS} runs"

        d = self.deadline_ms
        if self.host == "node":
            v8 = median("V8", self.node_median, "(wall less run-queue wait) ",
                        f"each stopped at {NODE_KILL_FACTOR * d:g} ms wall")
            return (f"{v8}, each in a fresh worker after the states before it; late above {d:g} ms, "
                    f"at risk above {AT_RISK_FRACTION * d:g} ms; deadline {d:g} ms")
        # A QuickJS run ends at whichever comes first: its CPU backstop or the wall-clock kill.
        q = median("QuickJS", self.quickjs_median, "CPU ",
                   f"each stopped at {CPU_LIMIT_FACTOR * d:g} ms of CPU time or {QUICKJS_KILL_FACTOR * d:g} ms wall")
        if self.node_error is not None:
            n = f"cannot time in V8: {self.node_error} (QuickJS alone)"
        elif self.node_ms is None:
            n = "node not installed: QuickJS alone"
        else:
            n = median("node (V8)", self.node_median, "", f"each stopped at {NODE_KILL_FACTOR * d:g} ms wall")
        return f"{q} (late beyond doubt above {QUICKJS_LATE_FACTOR * d:g} ms); {n}; deadline {d:g} ms"

    def to_json(self) -> dict:
        def j(xs):
            return None if xs is None else [None if math.isinf(x) else round(x, 3) for x in xs]

        med = self.node_median
        if self.host == "node":
            return {"id": self.id, "host": "node", "verdict": self.verdict, "nodeMs": j(self.node_ms),
                    "nodeMedianMs": None if med is None or math.isinf(med) else round(med, 3)}
        return {"id": self.id, "verdict": self.verdict, "quickjsCpuMs": j(self.quickjs_ms),
                "quickjsMedianMs": None if math.isinf(self.quickjs_median) else round(self.quickjs_median, 3),
                "nodeMs": j(self.node_ms),
                "nodeMedianMs": None if med is None or math.isinf(med) else round(med, 3),
                **({"nodeError": self.node_error} if self.node_error is not None else {})}


def classify(quickjs_median: float, node_median: float | None, deadline_ms: float) -> str:
    """The rule of step 3 (module docstring)."""
    if quickjs_median > QUICKJS_LATE_FACTOR * deadline_ms and (node_median is None or node_median > deadline_ms):
        return "late"
    slow = AT_RISK_FRACTION * deadline_ms
    if quickjs_median > slow or (node_median is not None and node_median > slow):
        return "at-risk"
    return "ok"


def classify_v8(median_ms: float, deadline_ms: float) -> str:
    """The V8 host's rule (module docstring): late above the deadline, at risk above half of it."""
    if median_ms > deadline_ms:
        return "late"
    return "at-risk" if median_ms > AT_RISK_FRACTION * deadline_ms else "ok"


def decision_ms(out) -> float:
    """A V8 decision's time: wall time less the run-queue wait (the machine's load) when measured. The
    kernel accounts a wait when the thread gets a CPU, so a wait that began before the request can
    show in it: the time is never taken below the child's CPU time of the request."""
    return max(out.wall_ms - (out.queued_ms or 0.0), out.cpu_ms or 0.0)


def _after_prefix(worker, engine: str, source: str, bot_seed: int, init_ms: float, prefix: Sequence[dict],
                  kill_ms: float) -> bool:
    """Load the bot in ``worker`` and answer the untimed ``prefix``: whether the worker is still alive."""
    alive = worker.start(engine, source, bot_seed, init_timeout_ms=init_ms).ok
    for earlier in prefix:
        if not alive:
            break
        worker.act(earlier, timeout_ms=kill_ms)
        alive = not worker.dead
    return alive


def _v8_samples(host: BotHost, source: str, engine: str, state: dict, prefix: Sequence[dict], bot_seed: int,
                init_ms: float, deadline_ms: float, memory_limit: int | None) -> tuple[float, ...]:
    """REPEATS runs of ``state``, each in a fresh worker of ``host`` after the untimed ``prefix``: the
    arena's worker answers a state once, in the memory its earlier states left, so each run is
    exactly that (a run of the same state in the same worker would meet its own caches). A run
    that was killed, or whose worker could not get there, is infinite."""
    kill_ms = NODE_KILL_FACTOR * deadline_ms
    samples = []
    for _ in range(REPEATS):
        with host.worker(memory_limit=memory_limit) as worker:
            alive = _after_prefix(worker, engine, source, bot_seed, init_ms, prefix, kill_ms)
            out = worker.act(state, timeout_ms=kill_ms) if alive else None
            timed = out is not None and out.kind in ("ok", "throw")  # a throw is an answer here, timed
            samples.append(decision_ms(out) if timed else math.inf)
    return tuple(samples)


def retime_v8(state_id: str, state: dict, prefix: Sequence[dict] = (), *, host: BotHost, source: str, engine: str,
              bot_seed: int, init_ms: float, deadline_ms: float, memory_limit: int | None) -> StateTiming:
    """The V8 host's re-timing of one state (module docstring)."""
    samples = _v8_samples(host, source, engine, state, prefix, bot_seed, init_ms, deadline_ms, memory_limit)
    return StateTiming(state_id, (), samples, classify_v8(statistics.median(samples), deadline_ms), deadline_ms,
                       host="node")


def _quickjs_samples(source: str, engine: str, state: dict, prefix: Sequence[dict], bot_seed: int,
                     init_ms: float, deadline_ms: float, memory_limit: int | None) -> tuple[tuple[float, ...], int]:
    """REPEATS runs of ``state`` in one fresh worker after the untimed ``prefix`` (the states the bot
    answered before it, so that its module memory is as it was); after a kill the rest are kills.
    Also how many of the runs threw."""
    kill_ms = QUICKJS_KILL_FACTOR * deadline_ms
    # A run past QUICKJS_LATE_FACTOR x D of CPU time is late whatever it would have taken: the worker's
    # CPU backstop ends it there (with a margin) rather than at its default 10 s.
    cpu_limit_ms = max(1, math.ceil(CPU_LIMIT_FACTOR * deadline_ms))
    with Worker(memory_limit=memory_limit, cpu_limit_ms=cpu_limit_ms) as worker:
        alive = _after_prefix(worker, engine, source, bot_seed, init_ms, prefix, kill_ms)
        samples, threw = [], 0
        for _ in range(REPEATS):
            out = worker.act(state, timeout_ms=kill_ms) if alive else None
            alive = alive and not worker.dead
            ok = out is not None and out.kind not in ("late", "dead", "memory", "crash", "malformed")
            samples.append((out.cpu_ms if out.cpu_ms is not None else out.wall_ms) if ok else math.inf)
            threw += out is not None and out.kind == "throw"
    return tuple(samples), threw


@dataclass(frozen=True)
class _NodeRuns:
    samples: tuple[float, ...]  # wall ms per timed run; inf: terminated at the kill
    threw: int  # of the warm-up and timed runs of the state
    message: str  # the first throw's
    failure: str | None  # node could not load or run the bot (no samples then)
    polyfill: str | None  # what node loaded before the bot (NodeBot.polyfill)


def _node_samples(node: str, source: str, engine: str, state: dict, prefix: Sequence[dict], bot_seed: int,
                  init_ms: float, deadline_ms: float, polyfill: bool = True) -> _NodeRuns:
    """REPEATS timed runs in one V8 worker after the untimed ``prefix`` and one untimed warm-up run of
    the state: the arena's worker persists, so its decisions run JIT-compiled code, which a cold
    first call does not show. A run terminated at the kill is infinite; a run that threw is counted
    (``retime`` decides whether its time is one); a load or worker failure gives no samples."""
    kill_ms = NODE_KILL_FACTOR * deadline_ms
    samples: list[float] = []
    threw, message = 0, ""
    with NodeBot(node) as bot:
        out = bot.start(engine, source, bot_seed, init_ms, polyfill=polyfill)
        if out.kind == "error":
            return _NodeRuns((), 0, "", out.message, bot.polyfill)
        runs = [*prefix, state] + [state] * REPEATS  # the state's own first run is the warm-up
        for k, item in enumerate(runs):
            if out.kind not in ("ok", "threw"):  # terminated: the rest are kills, as in the arena
                samples.append(math.inf)
                continue
            out = bot.act(item, kill_ms)
            if out.kind == "error":
                return _NodeRuns((), 0, "", out.message, bot.polyfill)
            if k >= len(prefix) and out.kind == "threw":
                threw, message = threw + 1, message or out.message
            if k > len(prefix):
                samples.append(out.ms if out.kind in ("ok", "threw") else math.inf)
    return _NodeRuns(tuple(samples[-REPEATS:]), threw, message, None, bot.polyfill)


def _untimed(runs: _NodeRuns, quickjs_threw: int) -> str | None:
    """Why V8's runs are no time for the state, or None: node could not run the bot, or the bot
    threw on one side and not on the other (a throw is no decision time)."""
    note = "" if runs.polyfill in (None, node_polyfill.LOADED) else \
        f" (node ran without core-js's builtins: {runs.polyfill})"
    if runs.failure is not None:
        return f"{runs.failure}{note}"
    if runs.threw and quickjs_threw < REPEATS:
        return f"it threw in V8 where QuickJS answered or was killed: {runs.message}{note}"
    if quickjs_threw and runs.threw < REPEATS + 1:
        return f"it answered in V8 where it threw in QuickJS{note}"
    return None


def retime(state_id: str, state: dict, prefix: Sequence[dict] = (), *, source: str, engine: str, bot_seed: int,
           init_ms: float, deadline_ms: float, memory_limit: int | None, node: str | None) -> StateTiming:
    """Steps 2 and 3 for one state, in fresh workers that first answer ``prefix`` (untimed)."""
    quickjs, quickjs_threw = _quickjs_samples(source, engine, state, prefix, bot_seed, init_ms, deadline_ms,
                                              memory_limit)
    node_ms, node_error = None, None
    if node is not None:
        runs = _node_samples(node, source, engine, state, prefix, bot_seed, init_ms, deadline_ms)
        node_error = _untimed(runs, quickjs_threw)
        node_ms = runs.samples if node_error is None else None
    verdict = classify(statistics.median(quickjs), None if node_ms is None else statistics.median(node_ms),
                       deadline_ms)
    return StateTiming(state_id, quickjs, node_ms, verdict, deadline_ms, node_error)


class Retimer:
    """:func:`retime` (:func:`retime_v8` when ``host`` is the V8 host) with the bot's fixed arguments,
    each state once (the determinism pass meets the same late states again); ``timings`` in the order
    they were re-timed. ``node``: the node that also times a QuickJS-hosted bot (None: none)."""

    def __init__(self, *, source: str, engine: str, bot_seed: int, init_ms: float, deadline_ms: float,
                 memory_limit: int | None, node: str | None, slots=None, host: BotHost | None = None) -> None:
        self._args = dict(source=source, engine=engine, bot_seed=bot_seed, init_ms=init_ms,
                          deadline_ms=deadline_ms, memory_limit=memory_limit)
        self.host = host if host is not None else BotHost("quickjs")
        if self.host.name == "node":
            self._retime, self._args["host"] = retime_v8, self.host
            node = None  # V8 is the host: no second measurement
        else:
            self._retime, self._args["node"] = retime, node
        self.node = node
        self.slots = slots  # conformance/bots/slots.py: a re-timing runs in one (None: no limit)
        self.timings: dict[str, StateTiming] = {}

    def __call__(self, state_id: str, state: dict, prefix: Sequence[dict] = ()) -> StateTiming:
        if state_id not in self.timings:
            if self.slots is None:
                self.timings[state_id] = self._retime(state_id, state, prefix, **self._args)
            else:
                self.timings[state_id] = self.slots.run(self._retime, state_id, state, prefix, **self._args)
        return self.timings[state_id]

    def late_beyond_doubt(self, state_id: str, state: dict, prefix: Sequence[dict] = ()) -> bool:
        """For a state the battery's worker was killed on: re-timed while fewer than
        MAX_LATE_RETIMED were; after that, whether any re-timed state was late beyond doubt."""
        if state_id in self.timings or len(self.timings) < MAX_LATE_RETIMED:
            return self(state_id, state, prefix).verdict == "late"
        return bool(self.late())

    def late(self) -> list[StateTiming]:
        return [t for t in self.timings.values() if t.verdict == "late"]


def node_battery(node: str, source: str, engine: str, states: list[tuple[str, dict]], bot_seed: int,
                 init_ms: float, deadline_ms: float, max_late: int = 3,
                 out_of_time: "Callable[[], object] | None" = None, max_ms: float | None = None) -> dict:
    """The whole battery once in V8, for the report: per-state times and p50/p95/max. A late state
    terminates the worker, as in the arena; the next state gets a fresh one; after ``max_late``
    late states the rest is not run (a bot that is late everywhere must not take minutes), nor
    once ``out_of_time()`` (the certification's time budget) or once its states' V8 times add up to
    ``max_ms`` (V8's CPU is not on the budget's clock): ``cut`` is then true. A state the bot
    threw on is listed in ``threw`` and its time left out (a throw is no decision time); ``polyfill``
    says what node loaded before the bot (core-js, or why not)."""
    from conformance.harness.runner import timing_summary

    times, late, failed, threw, ran, cut, polyfill = [], [], [], [], 0, False, None
    bot: NodeBot | None = None
    try:
        for state_id, state in states:
            if len(late) + len(failed) >= max_late:
                break
            if (out_of_time is not None and out_of_time()) or (max_ms is not None and sum(times) > max_ms):
                cut = True
                break
            if bot is None:
                bot = NodeBot(node)
                start = bot.start(engine, source, bot_seed, init_ms)
                polyfill = bot.polyfill
                if start.kind != "ok":
                    return {"ran": ran, "error": start.message or start.kind, "late": late, "failed": failed,
                            "threw": threw, "polyfill": polyfill, "timing": timing_summary(times, [])}
            out = bot.act(state, deadline_ms)
            ran += 1
            if out.kind == "threw":
                threw.append(state_id)
                continue
            times.append(out.ms)
            if out.kind != "ok":
                (late if out.kind == "late" else failed).append(state_id)
                bot.close()
                bot = None
    finally:
        if bot is not None:
            bot.close()
    return {"ran": ran, "error": None, "late": late, "failed": failed, "threw": threw, "polyfill": polyfill,
            "timing": timing_summary(times, []),
            **({"cut": True} if cut else {})}
