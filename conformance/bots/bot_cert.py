"""Certification of one bot against bot contract v1: :func:`certify`.

Stages, each adding reasons (an ``error`` rejects, a ``warning`` warns):

1. **static** -- :func:`conformance.harness.lint_static.lint_source` findings with line and
   column (the file must also be UTF-8).
2. **load** -- the bot starts in a QuickJS worker (:mod:`conformance.host.worker`) with the
   engine helper loaded first, within the init deadline, and exports a bot. When it
   does not load, the dynamic stages below do not run.
3. **battery** -- the bot answers every decision state of the committed ``hands``
   and ``legality`` vectors, generated states (:func:`generated_states`) and states
   stratified by decision kind (:mod:`conformance.bots.decision_kinds`), in one worker, in
   order; every answer is judged by the reference's return-value rules
   (:func:`conformance.harness.runner.judge`). Errors are reported by category (late,
   missing, malformed, throwing, engine-invalid) with the first state, the answer and
   the betting numbers, and decision times as p50/p95/max. After a fatal outcome (late
   beyond doubt, out of memory, crash) the worker is gone and the remaining states are
   not run; a kill at the deadline that re-timing does not confirm (stage 8) lets a
   fresh worker go on, until the fifth (:mod:`conformance.bots.bounds`).
4. **violations** -- what the worker's guards recorded (eval, the Function
   constructor however reached, Date, timers), at load or in a decision, even
   when the bot caught the error: tricks the static linter cannot see.
5. **environment** -- every worker global (and the members of ``Math``, ``JSON``,
   ``PokerEngine``, ...) the bot changed, at load or in any decision: the worker checks
   them by identity from its own closure (R35); and every change to the standard built-ins and
   their prototypes (an addition, deletion, redefinition or extensibility), compared by
   descriptor (R35, #26).
6. **determinism** -- the battery again in a fresh worker with the same botSeed:
   the answers must be the same.
7. **tournaments** -- smoke tournaments at 2, 6 and 9 seats against the house
   samples (the bot in seat 0), played by :func:`conformance.harness.runner.run_tournament`:
   the bot's errors per category, and the state-isolation check -- the accepted
   actions replayed on a fresh reference tournament reproduce every decision
   state's hash taken before it was sent, so nothing the bot did to its copy
   reached the engine. The bot's play-style profile comes from these hands.
   Then the full-length table (:mod:`conformance.bots.full_table`): nine copies of the bot for the
   contract's 300 hands or a cap of decisions, seat names drawn from the seed, decision times per
   50 hands; not played when lateness is already proven.
8. **timing** -- :mod:`conformance.bots.bot_timing` (ruling R33): states killed at the
   deadline or slower than half of it are re-timed (medians of 3 runs in QuickJS and,
   when installed, node's V8); late beyond doubt is an error, near the deadline a
   warning (at risk); a warning too when loading took more than half the init deadline.
9. **roster** (optional) -- the bot's entry in a ``bots.json`` (matched by file).

Every bot gets its verdict in bounded time (:mod:`conformance.bots.bounds`: kills and decisions
by count, a budget of CPU time whose cuts are warnings, never rejections, and a wall-clock backstop
far beyond it). The two battery passes
run side by side, then the tables and the node battery (``CertOptions.parallel``); the report is
assembled in a fixed order, the same as with one worker at a time.

Every seed is fixed: the botSeed (``CertOptions.bot_seed``) for the battery worker
and, through ruling R21, the tournament seats; the deck seeds of the smoke tables
(:data:`SMOKE_DECK_SEEDS`), chosen independently of it; and the generation seed of
the battery; the battery's seat names and ids are drawn from the botSeed (R36), so that a bot
cannot recognise fixed fixtures. The report has no clock readings besides measured times.
"""
from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

from reference import evaluate
from reference.actions import js_text
from reference.errors import OptionError

from conformance.harness.lint_static import lint_source
from conformance.harness.roster import lint_roster
from conformance.harness.runner import (BotSpec, RunnerOptions, answer_json, bundled_engine, check_bot_seed, judge,
                     legal_from_state, replay_hashes, replay_states, run_tournament, timing_summary)
from conformance.host.bounds import extend_bounded
from conformance.host.node_timing import find_node
from conformance.host.worker import Outcome, Worker, thrown_text
from conformance.resources import HOUSE_ROSTER
from conformance.vectors import library as vectors
from . import battery_file, bot_timing, bounds, full_table
from .slots import Slots
from .decision_kinds import KIND_SEED, KINDS, decision_kinds, kind_counts, street_short_all_in, stratified_states
from .random_states import GENERATION_SEED, generate_states
from .profile import Profile, profile_hands

# The house samples that fill the smoke tables, in seat order after the bot.
SMOKE_OPPONENTS = ("sample-caller", "sample-tight", "equity-bot", "check-fold")
# Deck seeds of the smoke tables by seat count: fixed, never derived from the botSeed.
SMOKE_DECK_SEEDS = {2: 2002, 6: 6006, 9: 9009}
FEATURES = ("street:preflop", "street:flop", "street:turn", "street:river", "seats:2", "seats:9",
            "short-stack", "short-all-in", "min-raise-null", "min-raise-above-max", "board-plays",
            "eliminated-seat")
TIMING_NOTE = (
    "Battery times are measured in QuickJS, an interpreter that runs integer-heavy JavaScript roughly 20x "
    "slower than a browser's JIT, with message delivery included; the worker is killed at the arena's "
    "deadline. Every state slower than half the deadline is re-timed (median of 3 runs in QuickJS and, "
    "when node is installed, in V8 worker threads as browsers run them): a bot is rejected for time only "
    "when QuickJS needs more than twice the deadline and V8 misses it too (QuickJS alone without node); "
    "near the deadline it is warned (at risk). See docs/bot-certification.md, Timing verdicts.")


@dataclass(frozen=True)
class CertOptions:
    bot_seed: int = 1
    init_ms: float = 5000
    decision_ms: float = 1000
    generated_states: int = 200  # random states; the stratified part (kind_states) holds the rest
    kind_states: int = 20  # the stratified part: at least this many states of each decision kind
    vector_states: int | None = None  # None: every vector state; N: the first N
    smoke_seats: tuple[int, ...] = (2, 6, 9)
    smoke_max_hands: int = 60
    full_table_hands: int = full_table.HANDS  # the nine-copy full-length table (conformance/bots/full_table.py); 0: none
    full_table_decisions: int = bounds.FULL_TABLE_DECISIONS  # ... and its decision cap (conformance/bots/bounds.py)
    time_budget_s: float = bounds.TIME_BUDGET_S  # CPU seconds (bounds.py); a cut is a warning, never a rejection
    parallel: int = 2  # worker passes and tables side by side (both cores); the report is the same with 1
    # How many streams of work share the machine with this certification's own (holdem-cert certify's
    # bots certified side by side): the wall-clock backstop (bounds.BACKSTOP_FACTOR) falls after this
    # many times its seconds (waiting for a slot costs wall time, no CPU). The CPU budget does not
    # stretch: it counts this certification's work alone. Not in the report (its cuts are).
    budget_stretch: float = 1.0
    memory_limit: int | None = None  # bytes per worker; None: the host's default (256 MiB)
    node: bool = True  # also time in node (V8) when it is installed (bot_timing)
    house_roster: Path = HOUSE_ROSTER

    def __post_init__(self) -> None:
        check_bot_seed(self.bot_seed, "seed")
        RunnerOptions(init_ms=self.init_ms, decision_ms=self.decision_ms)  # validates both
        for name, least in (("generated_states", 0), ("kind_states", 0), ("smoke_max_hands", 1),
                            ("full_table_hands", 0), ("full_table_decisions", 1), ("parallel", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise OptionError(name, f"expected an integer of at least {least}, got {value!r}")
        for name in ("time_budget_s", "budget_stretch"):
            budget = getattr(self, name)
            if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not budget > 0:
                raise OptionError(name, f"expected a positive number, got {budget!r}")
        if self.vector_states is not None and (isinstance(self.vector_states, bool)
                                               or not isinstance(self.vector_states, int) or self.vector_states < 0):
            raise OptionError("vector_states", f"expected None or a non-negative integer, got {self.vector_states!r}")
        for n in self.smoke_seats:
            if n not in SMOKE_DECK_SEEDS:
                raise OptionError("smoke_seats", f"{n} is not one of {sorted(SMOKE_DECK_SEEDS)}")


@dataclass(frozen=True)
class Reason:
    severity: str  # "error" rejects, "warning" warns
    category: str  # static, encoding, load, decision, violation, environment, determinism, tournament,
    #                isolation, timing, roster
    code: str  # a lint rule id, an outcome kind, an error category or code, a roster field
    message: str
    example: str | None = None  # where: line:column, a state id, a table and decision

    def to_json(self) -> dict:
        return {"severity": self.severity, "category": self.category, "code": self.code,
                "message": self.message, "example": self.example}


@dataclass(frozen=True)
class BatteryState:
    id: str
    state: dict


@dataclass
class CertReport:
    file: str
    options: CertOptions
    reasons: list[Reason] = field(default_factory=list)
    static: list[dict] = field(default_factory=list)
    load: dict | None = None
    battery: dict | None = None
    environment: dict | None = None
    determinism: dict | None = None
    tournaments: list[dict] = field(default_factory=list)
    timing: dict | None = None
    full_table: dict | None = None
    profile: dict | None = None
    roster_entry: dict | None = None
    skipped: list[str] = field(default_factory=list)  # stages not run, and why

    @property
    def verdict(self) -> str:
        if any(r.severity == "error" for r in self.reasons):
            return "rejected"
        return "certified with warnings" if self.reasons else "certified"

    def error(self, category: str, code: str, message: str, example: str | None = None) -> None:
        self.reasons.append(Reason("error", category, code, message, example))

    def warning(self, category: str, code: str, message: str, example: str | None = None) -> None:
        self.reasons.append(Reason("warning", category, code, message, example))

    def to_json(self) -> dict:
        o = self.options
        return {
            "file": self.file,
            "verdict": self.verdict,
            "reasons": [r.to_json() for r in self.reasons],
            "options": {"botSeed": o.bot_seed, "initMs": o.init_ms, "decisionMs": o.decision_ms,
                        "generatedStates": o.generated_states, "kindStates": o.kind_states,
                        "vectorStates": o.vector_states,
                        "smokeSeats": list(o.smoke_seats), "smokeMaxHands": o.smoke_max_hands,
                        "fullTableHands": o.full_table_hands, "fullTableDecisions": o.full_table_decisions,
                        "timeBudgetS": o.time_budget_s,
                        "memoryLimit": o.memory_limit, "generationSeed": GENERATION_SEED,
                        "kindSeed": KIND_SEED,
                        "smokeDeckSeeds": {str(n): SMOKE_DECK_SEEDS[n] for n in o.smoke_seats}},
            "static": self.static,
            "load": self.load,
            "battery": self.battery,
            "environment": self.environment,
            "determinism": self.determinism,
            "tournaments": self.tournaments,
            "timing": self.timing,
            "fullTable": self.full_table,
            "profile": self.profile,
            "rosterEntry": self.roster_entry,
            "timingNote": TIMING_NOTE,
            "skipped": self.skipped,
        }


Progress = Callable[[str, int, "int | None"], None]  # (stage, done, total or None)


# ---- the battery -------------------------------------------------------------------

def vector_states() -> list[BatteryState]:
    """Every decision state of the committed ``hands`` and ``legality`` vectors, in file order."""
    out = []
    for test in vectors.load("hands")["tests"]:
        out += [BatteryState(f"{test['id']}#{i}", s) for i, s in enumerate(test["expected"]["decisions"])]
    out += [BatteryState(t["id"], t["input"]["state"]) for t in vectors.load("legality")["tests"]]
    return out


def state_features(state: dict) -> set[str]:
    """Which of :data:`FEATURES` a decision state shows."""
    found = {f"street:{state['street']}"}
    n = len(state["seats"])
    if n in (2, 9):
        found.add(f"seats:{n}")
    if state["you"]["stack"] + state["you"]["bet"] <= 10 * state["blinds"][1]:
        found.add("short-stack")
    if street_short_all_in(state):
        found.add("short-all-in")
    if state["minRaiseTo"] is None:
        found.add("min-raise-null")
    elif state["minRaiseTo"] > state["maxRaiseTo"]:
        found.add("min-raise-above-max")
    board = state["board"]
    if len(board) == 5 and evaluate(board)["value"] == evaluate(board + state["you"]["cards"])["value"]:
        found.add("board-plays")
    if any(s["out"] for s in state["seats"]):
        found.add("eliminated-seat")
    return found


_generated: dict[int, list[BatteryState]] = {}
_generation_lock = threading.Lock()  # hypothesis is not thread-safe; the result is cached


def generated_states(count: int) -> list[BatteryState]:
    """``count`` decision states from random reference games, the same on every call: for the
    default count the shipped ones (:mod:`conformance.bots.battery_file`), else
    :func:`conformance.bots.random_states.generate_states`."""
    with _generation_lock:
        if count not in _generated:
            shipped = battery_file.shipped()
            if count == battery_file.GENERATED and shipped["generationSeed"] == GENERATION_SEED:
                collected = shipped["generated"]
            else:
                collected = generate_states(count)
            _generated[count] = [BatteryState(f"generated.{i:03d}", s) for i, s in enumerate(collected)]
        return list(_generated[count])


def battery(options: CertOptions) -> list[BatteryState]:
    """Every state of the battery, its seat names and ids drawn from the botSeed (R36)."""
    states = vector_states()
    if options.vector_states is not None:
        states = states[:options.vector_states]
    shipped = battery_file.shipped()
    kind_states = shipped["kinds"] if (options.kind_states, KIND_SEED) == (shipped["perKind"], shipped["kindSeed"]) \
        else stratified_states(options.kind_states, KIND_SEED)
    kinds = [BatteryState(f"kind.{i:03d}", s) for i, s in enumerate(kind_states)]
    # One draw per state, from the botSeed and the state's id: a state looks the same whichever
    # options chose the states around it (``--state ID`` finds it as the run showed it).
    return [BatteryState(b.id, disguised(b.state, Random(f"battery seats {options.bot_seed} {b.id}")))
            for b in states + generated_states(options.generated_states) + kinds]


def disguised(state: dict, rng: Random) -> dict:
    """A copy of ``state`` whose seats carry names drawn like the full-length table's and whose ids
    are a drawn permutation of the table's own ids, renamed everywhere an id appears (R36): a bot
    cannot recognise the battery by fixed fixture names, nor by ids that follow the seat order."""
    seats = state["seats"]
    ids = [s["id"] for s in seats]
    new_ids = rng.sample(ids, len(ids))
    rename = dict(zip(ids, new_ids))
    names = [name for _, name in full_table.draw_seats(rng, len(seats))]

    def renamed(items: list[dict]) -> list[dict]:
        return [{**item, "id": rename[item["id"]]} for item in items]

    return {
        **state,
        "you": {**state["you"], "id": rename[state["you"]["id"]]},
        "seats": [{**s, "id": rename[s["id"]], "name": name} for s, name in zip(seats, names)],
        "pots": [{**p, "eligible": [rename[i] for i in p["eligible"]]} for p in state["pots"]],
        "actions": renamed(state["actions"]),
        "history": [{**h, "showdown": renamed(h["showdown"]), "winners": renamed(h["winners"])}
                    for h in state["history"]],
    }


# ---- worker runs -------------------------------------------------------------------------

@dataclass
class _Run:
    """One pass of the battery in one worker."""

    start: Outcome
    answers: list[dict] = field(default_factory=list)  # per state: id, outcome, answer, error, code, detail
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    violations: list[dict] = field(default_factory=list)  # with "where": "load" or a state id
    watched: tuple = ()  # the worker's watched globals (R35)
    violations_dropped: int = 0  # past MAX_SEAT_VIOLATIONS: counted, not kept
    cut: str | None = None  # the state after which the worker was gone
    restarts: list[str] = field(default_factory=list)  # late states after which a fresh worker went on
    starts: list[int] = field(default_factory=lambda: [0])  # indices of the states each worker began at
    stopped: dict | None = None  # {reason, at, notRun}: a bound (conformance/bots/bounds.py) ended the pass

    def since(self, k: int) -> int:
        """The index of the first state the worker that answered state ``k`` answered."""
        return max(s for s in self.starts if s <= k)


def _run_battery(source: str, engine: str, states: list[BatteryState], options: CertOptions,
                 progress: Progress | None, stage: str,
                 on_late: "Callable[[int, int], bool] | None" = None, clock: bounds.Clock | None = None,
                 cpu_meter: "Callable[[float], None] | None" = None) -> _Run:
    """One pass in one worker. ``on_late(k, since)``: whether ``states[k]``, which the worker was
    killed on, is late beyond doubt (bot_timing; the worker had answered ``states[since:k]``); when
    it is not, a fresh worker goes on with the next state, at most MAX_BATTERY_KILLS times. Past the
    battery's share of ``clock`` the pass stops (conformance/bots/bounds.py); ``cpu_meter`` gets its
    workers' CPU time (the clock's)."""
    worker = Worker(memory_limit=options.memory_limit, cpu_meter=cpu_meter)
    kills = 0
    try:
        start = worker.start(engine, source, options.bot_seed, init_timeout_ms=options.init_ms)
        run = _Run(start, violations=[dict(v, where="load") for v in start.violations], watched=worker.watched)
        if not start.ok:
            if (start.error or {}).get("source") == "engine":  # ours, not the bot's
                raise OptionError("engine", f"the bundled engine helper failed to load: {start.error['message']}")
            return run
        for k, item in enumerate(states):
            reason = clock.past("battery") if clock is not None else None
            if reason is not None:
                run.stopped = {"reason": reason, "at": item.id, "notRun": len(states) - k}
                break
            out = worker.act(item.state, timeout_ms=options.decision_ms)
            verdict = judge(out, legal_from_state(item.state))
            run.answers.append({"id": item.id, "outcome": out.kind,
                                "answer": answer_json(out.answer) if out.ok else None,
                                "answerText": js_text(out.answer) if out.ok else None,
                                "error": verdict.category, "code": verdict.code, "detail": verdict.detail,
                                "wallMs": round(out.wall_ms, 3),
                                # the bot's own CPU time (the worker's): what the load does not inflate
                                "cpuMs": None if out.cpu_ms is None else round(out.cpu_ms, 3)})
            run.wall.append(out.wall_ms)
            if out.cpu_ms is not None:
                run.cpu.append(out.cpu_ms)
            run.violations_dropped += extend_bounded(run.violations, (dict(v, where=item.id) for v in out.violations))
            if progress is not None:
                progress(stage, k + 1, len(states))
            if worker.dead and out.kind == "late" and on_late is not None and not on_late(k, run.since(k)) \
                    and k + 1 < len(states):
                kills += 1
                if kills >= bounds.MAX_BATTERY_KILLS:
                    run.stopped = {"reason": "kills", "at": states[k + 1].id, "notRun": len(states) - k - 1}
                    run.cut = item.id
                    break
                worker.close()
                worker = Worker(memory_limit=options.memory_limit, cpu_meter=cpu_meter)
                if worker.start(engine, source, options.bot_seed, init_timeout_ms=options.init_ms).ok:
                    run.restarts.append(item.id)
                    run.starts.append(k + 1)
                    continue
            if worker.dead:
                run.cut = item.id
                break
        return run
    finally:
        worker.close()


# ---- certification -----------------------------------------------------------------------

def certify(source: "str | bytes", options: CertOptions | None = None, *, filename: str = "<bot>",
            path: Path | None = None, roster: Path | None = None,
            progress: Progress | None = None, slots: Slots | None = None) -> CertReport:
    """Certify one bot script. ``path`` (the script's file) is needed to find its ``roster`` entry.
    Every stage runs in one of ``slots`` (conformance/bots/slots.py; by default ``options.parallel``
    of this certification's own).

    Raises OSError when ``roster`` or the house roster cannot be read.
    """
    options = options or CertOptions()
    report = CertReport(file=filename, options=options)
    if isinstance(source, bytes):
        try:
            source = source.decode("utf-8")
        except UnicodeDecodeError as exc:
            report.error("encoding", "utf-8",
                         f"the file is not valid UTF-8 (byte {exc.start}); nothing else was checked")
            report.skipped.append("every stage: the script cannot be read as text")
            return report
    _static(report, source, filename)
    if roster is not None:
        _roster(report, roster, path)
    engine = bundled_engine()
    states = battery(options)
    retimer = bot_timing.Retimer(source=source, engine=engine, bot_seed=options.bot_seed, init_ms=options.init_ms,
                                 deadline_ms=options.decision_ms, memory_limit=options.memory_limit,
                                 node=find_node() if options.node else None,
                                 slots=slots if slots is not None else Slots.local(options.parallel))
    slots = retimer.slots

    # The budget counts this certification's CPU time: its threads' (cpu.counting, every stage) and
    # its workers' (cpu.add); the wall clock is only the backstop (conformance/bots/bounds.py).
    cpu = bounds.CpuClock()
    clock = bounds.Clock(options.time_budget_s, now=cpu, stretch=options.budget_stretch)
    retiming = threading.Lock()  # the two passes share the re-timings (each state once)

    def on_late(k: int, since: int) -> bool:
        with retiming, clock.excluding():
            return retimer.late_beyond_doubt(states[k].id, states[k].state, [s.state for s in states[since:k]])

    def counted(function, *args, **kwargs):
        """``function(*args, **kwargs)`` in a slot, its thread's CPU time counted."""
        with cpu.counting():
            return slots.run(function, *args, **kwargs)

    def battery_pass(stage: str) -> _Run:
        return counted(_run_battery, source, engine, states, options, progress, stage, on_late, clock, cpu.add)

    # Side by side (options.parallel): the battery and its determinism pass, then the tables, the
    # full-length table and the node battery; every report part is then made in a fixed order, so
    # the report is the one a single worker at a time gives. This thread's own work (the first pass,
    # the judging, re-timing's parent side apart) counts too.
    with cpu.counting(), ThreadPoolExecutor(max_workers=options.parallel) as pool:
        second_pass = pool.submit(battery_pass, "determinism") if options.parallel > 1 else None
        run = battery_pass("battery")
        _load(report, run.start, options)
        if not run.start.ok:
            if second_pass is not None:
                second_pass.result()
            report.skipped.append("battery, determinism, environment and tournaments: the bot did not load")
            _violations(report, run.violations, run.violations_dropped)
            return report
        second = second_pass.result() if second_pass is not None else battery_pass("determinism")
        proven = retimer.late()
        full = None
        if options.full_table_hands and proven:
            report.skipped.append(f"full-length table of 9: lateness was proven in the battery (state {proven[0].id}, "
                                  "R33); its nine copies would only be killed at the deadline one after the other")
        elif options.full_table_hands:
            full = pool.submit(counted, _play_full_table, source, options, progress, clock, cpu)
        tables = {n: pool.submit(counted, _play_smoke_table, n, source, report.load["exportName"], options, progress,
                                 clock, cpu)
                  for n in sorted(options.smoke_seats, reverse=True)}  # the longest first
        node = None
        if retimer.node is not None:
            node = pool.submit(counted, bot_timing.node_battery, retimer.node, source, engine,
                               [(s.id, s.state) for s in states], options.bot_seed, options.init_ms,
                               options.decision_ms, out_of_time=lambda: clock.past("tables"),
                               # V8's CPU is not on the clock: its own decision times count against the
                               # tables' share (measured in node, by the bot: not the parent's wall clock)
                               max_ms=1000 * clock.share_s("tables"))
        _battery(report, states, run, on_late)
        _environment(report, run)
        _determinism(report, run, second)
        _violations(report, run.violations, run.violations_dropped)
        _bound(report, "battery", run)
        _bound(report, "determinism", second)
        _tournaments(report, options, {n: tables[n].result() for n in options.smoke_seats}, retimer)
        if full is not None:
            _full_table(report, options, *full.result(), retimer)
        _timing(report, states, run, retimer, None if node is None else node.result(), clock)
    _roster_name(report)
    return report


def _bound(report: CertReport, stage: str, run: _Run) -> None:
    """A battery pass that a bound stopped (conformance/bots/bounds.py): a warning, never an error."""
    stop = run.stopped
    if stop is None:
        return
    o = report.options
    if stop["reason"] == "kills":
        why = (f"{bounds.MAX_BATTERY_KILLS} kills at the {o.decision_ms:g} ms deadline that re-timing did not "
               "prove late (at risk, R33)")
    else:
        why = _budget_words(report, stop["reason"], "battery")
    what = "battery" if stage == "battery" else "determinism pass"
    report.warning("bound", stop["reason"], f"the {what} stopped after {why}: {stop['notRun']} states from "
                   f"{stop['at']} on were not run, so their answers were not judged", stop["at"])


def _budget_words(report: CertReport, reason: str, stage: str) -> str:
    """What cut ``stage``: its share of the CPU-time budget (``"time"``: the bot's work) or of the
    wall-clock backstop (``"load"``: the machine, not the bot)."""
    o = report.options
    share = bounds.SHARES[stage] * o.time_budget_s
    until = {"battery": "the battery", "tables": "the tables", "timing": "re-timing"}[stage]
    if reason == "time":
        return (f"its share of the CPU-time budget ({share:g} of {o.time_budget_s:g} CPU seconds by the end of "
                f"{until}, the bot's and the judge's, conformance/bots/bounds.py)")
    wall = share * bounds.BACKSTOP_FACTOR * o.budget_stretch
    return (f"the wall-clock backstop ({wall:g} s, {bounds.BACKSTOP_FACTOR:g} x its {share:g} CPU seconds): the "
            "machine was too loaded to judge in time, the bot had not used its CPU-time budget")


def state_file_name(state_id: str) -> str:
    """The file a failing battery state is saved to (``--save-failed``, certify's repro/)."""
    return "".join(c if c.isalnum() or c in ".-_" else "_" for c in state_id) + ".json"


def state_file(category: str, error: dict) -> dict:
    """A battery error's first failing state as a file ``--state FILE`` reruns: the state, the
    bot's answer and why it was refused."""
    return {"id": error["example"], "category": category,
            **{k: error[k] for k in ("codes", "detail", "answer", "answerText", "numbers", "state") if k in error}}


def find_state(options: CertOptions, state_id: str) -> dict:
    """The battery state with this id (OptionError naming the id when there is none)."""
    for item in battery(options):
        if item.id == state_id:
            return item.state
    raise OptionError("state", f"no battery state has the id {state_id!r} with these options "
                      "(ids are in the report: vector ids, generated.NNN, kind.NNN)")


def rerun_state(source: str, state: dict, options: CertOptions, state_id: str = "<state>") -> dict:
    """Load the bot in a fresh worker and ask it this one state: what it answered and why that is
    accepted or not, with the numbers that decide a raise (``holdem-cert bot FILE --state ID``)."""
    with Worker(memory_limit=options.memory_limit) as worker:
        start = worker.start(bundled_engine(), source, options.bot_seed, init_timeout_ms=options.init_ms)
        if not start.ok:
            return {"id": state_id, "state": state, "load": start.kind, "error": "load",
                    "detail": answer_json(start.error)}
        out = worker.act(state, timeout_ms=options.decision_ms)
    verdict = judge(out, legal_from_state(state))
    return {"id": state_id, "state": state, "load": "ok", "outcome": out.kind,
            "answer": answer_json(out.answer) if out.ok else None,
            "answerText": js_text(out.answer) if out.ok else None,
            "error": verdict.category, "code": verdict.code, "detail": verdict.detail,
            "numbers": betting_numbers(state), "kinds": [k for k in KINDS if k in decision_kinds(state)],
            "wallMs": round(out.wall_ms, 3)}


def _static(report: CertReport, source: str, filename: str) -> None:
    for f in lint_source(source, filename):
        report.static.append({"rule": f.rule, "severity": f.severity, "message": f.message,
                              "line": f.line, "column": f.column})
        add = report.error if f.severity == "error" else report.warning
        add("static", f.rule, f.message, f"{filename}:{f.line}:{f.column}")


def _load(report: CertReport, start: Outcome, options: CertOptions) -> None:
    report.load = {"outcome": start.kind, "wallMs": round(start.wall_ms, 3), "cpuMs": start.cpu_ms,
                   "error": answer_json(start.error), "exportName": None, "shape": None}
    if start.ok:
        report.load["exportName"] = start.answer["name"]
        report.load["shape"] = start.answer["shape"]
        if start.wall_ms > options.init_ms / 2:
            report.warning("timing", "slow-init", f"loading took {start.wall_ms:.0f} ms in QuickJS, more than "
                           f"half the {options.init_ms:g} ms init deadline")
        return
    what = {"syntax": "the script does not parse", "throw": "running the script threw",
            "export-shape": "the script does not export a bot", "late": "the script did not load by the deadline",
            "memory": "the script ran out of memory while loading",
            "crash": "the worker crashed while loading"}.get(start.kind, f"loading failed ({start.kind})")
    detail = thrown_text(start.error) if start.kind == "throw" else start.error.get("message")
    report.error("load", start.kind, f"{what}: {detail}")


def _codes(codes: Mapping[str, int]) -> str:
    return ", ".join(f"{code} {n}" for code, n in sorted(codes.items()))


def betting_numbers(state: dict) -> str:
    """The fields that decide which answers are legal, in the contract's names and JS words."""
    you = state["you"]
    return (f"you.stack {you['stack']}, you.bet {you['bet']}, toCall {state['toCall']}, currentBet "
            f"{state['currentBet']}, minRaiseTo {js_text(state['minRaiseTo'])}, maxRaiseTo {state['maxRaiseTo']}, "
            f"canCheck {js_text(state['canCheck'])}, canAllIn {js_text(state['canAllIn'])}")


def _ran(run: _Run) -> set[str]:
    """Ids of the states the bot actually answered or failed on (not those of a dead worker)."""
    return {a["id"] for a in run.answers if a["outcome"] != "dead"}


def _battery(report: CertReport, states: list[BatteryState], run: _Run, on_late: Callable[[int, int], bool]) -> None:
    ran = _ran(run)
    by_id = {s.id: s.state for s in states}
    index = {s.id: k for k, s in enumerate(states)}
    coverage = Counter(f for s in states if s.id in ran for f in state_features(s.state))
    errors: dict[str, dict] = {}
    for a in run.answers:
        # A kill at the deadline that the re-timing does not confirm is a timing warning (_timing).
        unconfirmed = a["error"] == "late" and not on_late(index[a["id"]], run.since(index[a["id"]]))
        if a["error"] is not None and not unconfirmed:
            state = by_id[a["id"]]
            e = errors.setdefault(a["error"], {"count": 0, "codes": Counter(), "kinds": Counter(),
                                               "example": a["id"], "detail": a["detail"], "answer": a["answer"],
                                               "answerText": a["answerText"],
                                               "numbers": betting_numbers(state), "state": state, "states": []})
            e["count"] += 1
            e["codes"][a["code"]] += 1
            e["kinds"].update(decision_kinds(state))
            e["states"].append(a["id"])
    for e in errors.values():
        e["codes"] = dict(sorted(e["codes"].items()))
        e["kinds"] = {k: e["kinds"][k] for k in KINDS if e["kinds"][k]}
    not_run = len(states) - len(run.answers)
    report.battery = {
        "states": len(states),
        "answered": len(run.answers),
        "notRun": not_run,
        "terminatedAt": run.cut,
        "stopped": run.stopped,
        "sources": dict(Counter(s.id.split(".")[0] for s in states)),
        "coverage": {f: coverage[f] for f in FEATURES},  # of the states that ran
        "kinds": kind_counts([s.state for s in states]),
        "kindsRan": kind_counts([s.state for s in states if s.id in ran]),
        "errors": errors,
        "timing": timing_summary(run.wall, run.cpu),
        "answers": run.answers,
    }
    for category, e in errors.items():
        gone = f"; the worker was terminated there and the {not_run} later states were not run" if (
            run.cut == e["example"] and not_run) else ""
        answer = "" if e["answer"] is None else f"; it answered {e['answerText']} with {e['numbers']}"
        report.error("decision", category, f"{e['count']} of {len(ran)} states that ran {category} "
                     f"({_codes(e['codes'])}), first: {e['detail']}{answer}{gone}", e["example"])


def _timing(report: CertReport, states: list[BatteryState], run: _Run, retimer: bot_timing.Retimer,
            node: dict | None, clock: bounds.Clock) -> None:
    """Re-time the slowest states (bot_timing) and give the verdict; ``node``: the battery timed in node."""
    options = report.options
    index = {s.id: k for k, s in enumerate(states)}
    slow = sorted((a for a in run.answers if a["outcome"] != "late"
                   and a["wallMs"] > bot_timing.AT_RISK_FRACTION * options.decision_ms),
                  key=lambda a: -a["wallMs"])[:bot_timing.MAX_CRITICAL]
    for n, a in enumerate(slow):
        reason = None if a["id"] in retimer.timings else clock.past("timing")
        if reason is not None:
            report.warning("bound", reason, f"{len(slow) - n} of the {len(slow)} slowest battery states (above "
                           f"half the deadline) were not re-timed: {_budget_words(report, reason, 'timing')} had "
                           "passed; their timing verdict is unknown", a["id"])
            break
        k = index[a["id"]]
        retimer(a["id"], states[k].state, [s.state for s in states[run.since(k):k]])
    if node is not None and node.get("cut"):
        report.skipped.append(f"node battery: stopped by the time budget (CPU time; V8's by its decision times) after "
                              f"{node['ran']} of {len(states)} states (for the report only; the timing verdicts rest "
                              "on re-timing)")
    timings = list(retimer.timings.values())
    report.timing = {
        "deadlineMs": options.decision_ms,
        "node": retimer.node,
        "rule": {"atRiskAboveMs": bot_timing.AT_RISK_FRACTION * options.decision_ms,
                 "quickjsLateAboveMs": bot_timing.QUICKJS_LATE_FACTOR * options.decision_ms,
                 "nodeLateAboveMs": options.decision_ms if retimer.node else None, "repeats": bot_timing.REPEATS},
        "retimed": [t.to_json() for t in timings],
        "nodeBattery": node,
    }
    if retimer.node is None:
        report.skipped.append("node timing: node is not installed (or --no-node); timing verdicts rest on "
                              "QuickJS alone")
    for t in timings:
        if t.verdict == "late":
            report.error("timing", "late", f"late beyond doubt at state {t.id}: {t.describe()}", t.id)
    untimed = [t for t in timings if t.node_error is not None]
    if untimed:  # a throw is no decision time: those states rest on QuickJS alone (R33)
        report.warning("timing", "cannot-time-in-v8", f"{len(untimed)} re-timed state(s) could not be timed in V8, "
                       f"first {untimed[0].id}: cannot time in V8: {untimed[0].node_error}; their timing verdicts "
                       "rest on QuickJS alone", untimed[0].id)
    risky = sorted((t for t in timings if t.verdict == "at-risk"), key=lambda t: -t.quickjs_median)
    if risky:
        report.warning("timing", "at-risk", f"{len(risky)} state(s) near the deadline (at risk, not certainly late)"
                       f", slowest first: {risky[0].id}: {risky[0].describe()}", risky[0].id)


def _violations(report: CertReport, violations: list[dict], dropped: int = 0) -> None:
    by_kind: dict[str, list[dict]] = {}
    for v in violations:
        if v["kind"] in ("global", "intrinsic"):  # reported by _environment
            continue
        by_kind.setdefault(v["kind"], []).append(v)
    for kind, vs in by_kind.items():
        where = "loading" if vs[0]["where"] == "load" else f"deciding state {vs[0]['where']}"
        count = f"{len(vs)} or more" if dropped else str(len(vs))  # only MAX_SEAT_VIOLATIONS are kept
        report.error("violation", kind, f"{count} contract violation(s) while running, first while {where}: "
                     f"{vs[0]['detail']} (recorded even when the bot catches the error)",
                     vs[0]["where"])


def _environment(report: CertReport, run: _Run) -> None:
    """R35: the worker watches its globals by identity, and the standard built-ins and their prototypes
    by descriptor, after loading and after every decision, and records each change once, as a
    violation of kind ``global`` or ``intrinsic`` naming the property."""
    changed = {v["global"]: v for v in run.violations if v["kind"] == "global"}
    intrinsics: dict[str, dict] = {}
    for v in run.violations:
        if v["kind"] == "intrinsic":
            intrinsics.setdefault(v["intrinsic"], v)
    report.environment = {"checked": list(run.watched), "changed": sorted(changed),
                          "intrinsicsChanged": sorted(intrinsics)}
    for name, v in sorted(changed.items()):
        where = "loading" if v["where"] == "load" else f"deciding state {v['where']}"
        report.error("environment", name, f"`{name}` was overwritten while {where}: worker globals must not "
                     "be overwritten (checked by identity, R35)", v["where"])
    for name, v in sorted(intrinsics.items()):
        where = "loading" if v["where"] == "load" else f"deciding state {v['where']}"
        detail = v["detail"].removesuffix(" (the standard built-ins must not be changed)")
        report.error("environment", name, f"{detail}, seen after {where}: the standard built-ins and their "
                     "prototypes must not be changed (compared by descriptor, R35)", v["where"])


def _determinism(report: CertReport, first: _Run, second: _Run) -> None:
    def key(a: dict) -> tuple:
        return a["outcome"], json.dumps(a["answer"], sort_keys=True), a["code"]

    compared, difference = 0, None
    for a, b in zip(first.answers, second.answers):
        if {a["outcome"], b["outcome"]} & {"late", "dead"}:
            # A deadline is a timing, not a decision. When both workers were killed here and went on
            # afresh (bot_timing), the bot's memory is new in both, so later answers still compare.
            if a["outcome"] == b["outcome"] == "late" and a["id"] in first.restarts and a["id"] in second.restarts:
                continue
            break
        compared += 1
        if key(a) != key(b):
            difference = {"state": a["id"], "first": a["answer"], "second": b["answer"],
                          "firstOutcome": a["outcome"], "secondOutcome": b["outcome"]}
            break
    report.determinism = {"compared": compared, "difference": difference,
                          "secondLoad": second.start.kind}
    if second.start.kind != first.start.kind:
        report.error("determinism", "load", f"a second worker with the same botSeed loaded with outcome "
                     f"{second.start.kind}, the first with {first.start.kind}")
    elif difference is not None:
        report.error("determinism", "answers-differ",
                     f"two fresh workers with botSeed {report.options.bot_seed} gave different answers to the same "
                     f"states in the same order: {json.dumps(difference['first'])} then "
                     f"{json.dumps(difference['second'])}", difference["state"])


def _house_bots(path: Path) -> dict[str, BotSpec]:
    data = json.loads(path.read_text(encoding="utf-8"))
    root = path.parent
    return {e["id"]: BotSpec(e["id"], (root / e["file"]).read_text(encoding="utf-8"), e["name"])
            for e in data["bots"] if e["id"] in SMOKE_OPPONENTS}


def _play_smoke_table(n: int, source: str, name: str | None, options: CertOptions, progress: Progress | None,
                      clock: bounds.Clock, cpu: bounds.CpuClock):
    """The smoke table of ``n`` seats (the bot in seat 0), until the tables' share of ``clock``; every
    seat's CPU time counts on ``cpu`` (the house samples' too: the certification's work)."""
    house = _house_bots(options.house_roster)
    missing = [i for i in SMOKE_OPPONENTS if i not in house]
    if missing:
        raise OSError(f"{options.house_roster}: the house samples {', '.join(missing)} are missing")
    candidate = BotSpec("candidate", source, name or "Candidate")
    runner_options = RunnerOptions(init_ms=options.init_ms, decision_ms=options.decision_ms,
                                   tournament={"max_hands": options.smoke_max_hands},
                                   memory_limit=options.memory_limit)
    bots = [candidate] + [house[SMOKE_OPPONENTS[k % len(SMOKE_OPPONENTS)]] for k in range(n - 1)]

    def tick(record) -> None:
        if progress is not None:
            progress(f"table of {n}", record.index + 1, None)

    return bots, run_tournament(bots, SMOKE_DECK_SEEDS[n], options.bot_seed, runner_options, tick,
                                stop=lambda record: clock.past("tables"), cpu_meter=cpu.add)


def _tournaments(report: CertReport, options: CertOptions, played: dict, retimer: bot_timing.Retimer) -> None:
    """A smoke decision killed at the deadline is re-timed like a battery state (its state comes
    from replaying the table): late beyond doubt (here or in the battery) is an error, at risk a
    warning, and a kill the re-timing finds ordinary (a loaded machine) no reason at all."""
    if not options.smoke_seats:
        return
    total = Profile()
    for n in options.smoke_seats:
        bots, result = played[n]
        mismatch = replay_hashes(result)
        seat = result.seats[0]
        profile = profile_hands(result.hands).get("s1", Profile())
        total = total + profile
        report.tournaments.append({
            "seats": n, "deckSeed": SMOKE_DECK_SEEDS[n], "botSeed": options.bot_seed,
            "bots": [b.id for b in bots], "hands": len(result.hands), "decisions": len(result.decisions),
            "standings": result.standings,
            "errors": {s.id: s.errors for s in result.seats},
            "terminated": seat.terminated,
            "timing": timing_summary(seat.wall, seat.cpu),
            "isolation": {"checked": len(result.decisions), "firstMismatch": mismatch},
            "profile": profile.to_json(),
            "digest": result.digest(),
            "cut": result.cut,
        })
        if result.cut is not None:
            _time_cut(report, f"table of {n}", result, options.smoke_max_hands, f"table {n}")
        late = _late_verdict(result, 0, f"table-{n}", retimer)
        report.tournaments[-1]["late"] = late
        for category in seat.errors:
            mine = [d for d in result.decisions if d.seat == 0 and d.error == category]
            # The kill at the deadline and the fallbacks after it count as its re-timing says.
            follows = category == "late" or (category == "missing" and late is not None
                                             and all(d.code == "terminated" for d in mine))
            verdict = late["verdict"] if follows and late is not None else "late"
            if mine and verdict != "ok":
                add = report.error if verdict == "late" else report.warning
                add("tournament", category, f"table of {n}: {len(mine)} of {seat.decisions} decisions "
                    f"{category} ({_codes(Counter(d.code for d in mine))}), first: {mine[0].detail}"
                    + (" (at risk: re-timing found no certain lateness)" if verdict == "at-risk" else ""),
                    f"table {n}, decision {mine[0].index}")
        for v in seat.violations:
            if not any(r.category == "violation" and r.code == v["kind"] for r in report.reasons):
                report.error("violation", v["kind"], f"table of {n}: {v['detail']}", f"table {n}")
        for other in result.seats[1:]:
            if other.error_count:
                report.warning("tournament", "house-errors", f"table of {n}: house sample {other.bot} in seat "
                               f"{other.seat} had {other.error_count} errors (a loaded machine?)", f"table {n}")
        if mismatch is not None:
            report.error("isolation", "state-changed", f"table of {n}: replaying the applied actions did not "
                         f"reproduce the state hashed before decision {mismatch} was sent", f"table {n}")
    report.profile = total.to_json()


def _late_verdict(result, seat: int | None, label: str, retimer: bot_timing.Retimer) -> dict | None:
    """The re-timing of the bot's first decision killed at the deadline at this table, in ``seat``
    (None: any seat, all are the bot), or None if none was. After MAX_LATE_RETIMED kills were
    re-timed, a later one follows their verdicts (the worst of them), as in the battery."""
    late = next((d for d in result.decisions if seat in (None, d.seat) and d.error == "late"), None)
    if late is None:
        return None
    if retimer.late():  # lateness proven in the battery is proven here
        return {"decision": late.index, "retimed": None, "verdict": "late"}
    if len(retimer.timings) >= bot_timing.MAX_LATE_RETIMED:
        verdicts = {t.verdict for t in retimer.timings.values()}
        return {"decision": late.index, "retimed": None, "verdict": "at-risk" if "at-risk" in verdicts else "ok"}
    # The seat's own earlier states at this table, then the one it was killed on.
    mine = [st for record, st in replay_states(result) if record is not None and record.seat == late.seat
            and record.index <= late.index]
    timing = retimer(f"{label}.{late.index}", mine[-1], mine[:-1])
    return {"decision": late.index, "retimed": timing.id, "verdict": timing.verdict}


def _time_cut(report: CertReport, what: str, result, hand_cap: int, example: str) -> None:
    """A table a bound stopped: by the CPU budget or its wall-clock backstop a warning (never a
    rejection); by the decision cap nothing but the report's ``cut`` (the same on every machine)."""
    cut = result.cut
    if cut["reason"] in ("time", "load"):
        report.warning("bound", cut["reason"], f"{what}: stopped by {_budget_words(report, cut['reason'], 'tables')} "
                       f"at decision {cut['decision']} in hand {cut['hand']}, after {len(result.hands)} of at most "
                       f"{hand_cap} hands", example)
    else:
        report.skipped.append(f"{what}: stopped at its cap of {report.options.full_table_decisions} decisions, in "
                              f"hand {cut['hand']} ({len(result.hands)} of {hand_cap} hands completed; "
                              "conformance/bots/bounds.py)")


def _play_full_table(source: str, options: CertOptions, progress: Progress | None, clock: bounds.Clock,
                     cpu: bounds.CpuClock):
    def tick(record) -> None:
        if progress is not None:
            progress("full-length table of 9", record.index + 1, None)

    return full_table.play(source, options.bot_seed, options.init_ms, options.decision_ms, options.memory_limit,
                           options.full_table_hands, tick, max_decisions=options.full_table_decisions,
                           out_of_time=lambda: clock.past("tables"), cpu_meter=cpu.add)


def _full_table(report: CertReport, options: CertOptions, t: dict, result, retimer: bot_timing.Retimer) -> None:
    """A kill at the deadline, and the fallbacks of the copy killed, count as its re-timing says (R33, as
    at the smoke tables): an error when late beyond doubt, a warning at risk, nothing when ordinary."""
    report.full_table = t
    if result.cut is not None:
        _time_cut(report, "full-length table of 9", result, options.full_table_hands, "full table")
    late = t["late"] = _late_verdict(result, None, "full-table", retimer)
    killed = {d.seat for d in result.decisions if d.error == "late"}
    for code, count in sorted(t["errors"].items()):
        category = code.partition("/")[0]
        mine = [d for d in result.decisions if f"{d.error}/{d.code}" == code]
        follows = category == "late" or (code == "missing/terminated" and all(d.seat in killed for d in mine))
        verdict = late["verdict"] if follows and late is not None else "late"
        if verdict == "ok":
            continue
        add = report.error if verdict == "late" else report.warning
        first = mine[0]
        add("full-table", category, f"full-length table of 9: {count} decisions {code}, first at hand "
            f"{first.hand_number}: {first.detail}"
            + (" (at risk: re-timing found no certain lateness)" if verdict == "at-risk" else ""),
            f"full table, hand {first.hand_number}")
    for r in t["timingByHands"]:
        if r["wallP95"] is not None and r["wallP95"] > options.decision_ms / 2:
            report.warning("timing", "slow-late", f"full-length table of 9, hands {r['hands']}: p95 {r['wallP95']:.0f} ms "
                           f"in QuickJS, more than half the {options.decision_ms:g} ms deadline")


def _roster(report: CertReport, roster: Path, path: Path | None) -> None:
    lint = lint_roster(roster)
    try:
        data = json.loads(roster.read_text(encoding="utf-8"))
        entries = [e for e in data["bots"] if isinstance(e, dict)]
    except (ValueError, TypeError, KeyError):
        problems = "; ".join(p.message for p in lint.errors) or "unreadable"
        report.error("roster", "json", f"{roster}: {problems}")
        return
    target = path.resolve() if path is not None else None
    entry = next((e for e in entries if isinstance(e.get("file"), str) and target is not None
                  and (roster.parent / e["file"]).resolve() == target), None)
    if entry is None:
        report.error("roster", "file", f"{roster} has no entry whose file is this script")
        return
    report.roster_entry = entry
    for p in lint.problems:
        if p.entry_id == entry.get("id"):
            add = report.error if p.severity == "error" else report.warning
            add("roster", p.field, f"{roster}: {p.message}", entry.get("id"))


def _roster_name(report: CertReport) -> None:
    entry = report.roster_entry
    name = report.load["exportName"] if report.load else None
    if entry is not None and name is not None and entry.get("botName") != name:
        report.warning("roster", "botName", f"the roster's botName {entry.get('botName')!r} differs from the "
                       f"exported name {name!r}", entry.get("id"))


def certify_file(path: "str | Path", options: CertOptions | None = None, *, roster: Path | None = None,
                 progress: Progress | None = None, slots: Slots | None = None) -> CertReport:
    """Read and certify a bot file; OSError when it cannot be read."""
    path = Path(path)
    return certify(path.read_bytes(), options, filename=str(path), path=path, roster=roster, progress=progress,
                   slots=slots)
