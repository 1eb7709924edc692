"""Certification of one bot against bot contract v1: :func:`certify`.

Stages, each adding reasons (an ``error`` rejects, an ``inconclusive`` one leaves the verdict open,
a ``warning`` warns), each in its module: static
and roster ``cert_static``; load, violations and environment ``cert_environment``; the battery
``cert_battery`` (its states ``battery_states``); determinism ``cert_determinism``; the tables
``cert_smoke_tables`` and ``cert_full_table``; timing ``cert_timing``; what a bound cut ``cert_cuts``;
the options, the report and its verdict ``cert_report``. This module runs them (:func:`certify`):

1. **static** -- :func:`conformance.harness.lint_static.lint_source` findings with line and
   column (the file must also be UTF-8).
2. **load** -- the bot starts in a worker of its host (``CertOptions.host``: V8 through node,
   :class:`conformance.host.node_worker.NodeWorker`, or QuickJS,
   :class:`conformance.host.worker.Worker`; :mod:`conformance.host.bot_host`; every later stage runs
   it there too) with the engine helper loaded first, within the init deadline, and exports a bot.
   When it does not load, the dynamic stages below do not run.
3. **battery** -- the bot answers every decision state of the committed ``legality``
   vectors, states stratified by decision kind (:mod:`conformance.bots.decision_kinds`), generated
   states (:func:`generated_states`) and the ``hands`` vectors' states, in one worker, in that
   order, the most discriminating first (:func:`battery`); every answer is judged by the reference's return-value rules
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
   deadline or slower than half of it are re-timed (on the V8 host: medians of 3 runs in fresh V8
   workers; on the QuickJS host: medians of 3 runs in QuickJS and, when installed, node's V8);
   late beyond doubt is an error, near the deadline a
   warning (at risk); a warning too when loading took more than half the init deadline.
9. **roster** (optional) -- the bot's entry in a ``bots.json`` (matched by file).

Every bot gets its verdict in bounded time (:mod:`conformance.bots.bounds`: kills and decisions
by count, a budget of CPU time and a wall-clock backstop far beyond it). A part a bound cut before it
was judged whole makes the verdict inconclusive, never certified nor rejected by the cut itself
(:mod:`conformance.bots.cert_cuts`). The two battery passes
run side by side, then the tables and the node battery (``CertOptions.parallel``); the report is
assembled in a fixed order, the same as with one worker at a time.

Every seed is fixed: the botSeed (``CertOptions.bot_seed``) for the battery worker
and, through ruling R21, the tournament seats; the deck seeds of the smoke tables
(:data:`SMOKE_DECK_SEEDS`), chosen independently of it; and the generation seed of
the battery; the battery's seat names and ids are drawn from the botSeed (R36), so that a bot
cannot recognise fixed fixtures. The report has no clock readings besides measured times.
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from conformance.harness.runner import bundled_engine
from conformance.host import spares
from conformance.host.node_runtime import find_node
from . import bot_timing, bounds
from .battery_states import FEATURES, BatteryState, battery, find_state, generated_states, state_features, vector_states
from .cert_battery import BatteryRun, rerun_state, report_battery, run_battery, state_file, state_file_name
from .cert_cuts import Spent, report_cuts, report_pass_cut
from .cert_determinism import report_determinism
from .cert_environment import report_environment, report_load, report_violations
from .cert_full_table import play_full_table, report_full_table
from .cert_report import SMOKE_DECK_SEEDS, TIMING_NOTE, CertOptions, CertReport, Progress, Reason
from .cert_smoke_tables import SMOKE_OPPONENTS, play_smoke_table, report_tournaments
from .cert_static import check_roster, check_roster_name, check_static
from .cert_timing import report_timing
from .decision_kinds import KIND_SEED
from .slots import Slots

SPARES_AHEAD = 3  # worker processes started ahead of need: a table starts two seats at a time, in two streams

# The certification's API, wherever each part lives.
__all__ = ["FEATURES", "KIND_SEED", "SMOKE_DECK_SEEDS", "SMOKE_OPPONENTS", "TIMING_NOTE", "BatteryState", "CertOptions",
           "CertReport", "Progress", "Reason", "battery", "certify", "certify_file", "find_state", "generated_states",
           "rerun_state", "state_features", "state_file", "state_file_name", "vector_states"]


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
    check_static(report, source, filename)
    if roster is not None:
        check_roster(report, roster, path)
    # The stages' workers take processes started a little ahead of them (conformance/host/spares.py).
    seats = 2 + (9 if options.full_table_hands else 0) + sum(options.smoke_seats)
    with spares.keep(lambda: options.worker().spare(), SPARES_AHEAD, seats):
        _run_stages(report, source, options, progress, slots)
    check_roster_name(report)
    return report


def _run_stages(report: CertReport, source: str, options: CertOptions, progress: Progress | None,
                slots: Slots | None) -> None:
    """Every stage after the static ones (:func:`certify`)."""
    engine = bundled_engine()
    states = battery(options)
    host = options.chosen_host()  # V8 (node) or QuickJS: where every stage runs the bot
    retimer = bot_timing.Retimer(source=source, engine=engine, bot_seed=options.bot_seed, init_ms=options.init_ms,
                                 deadline_ms=options.decision_ms, memory_limit=options.memory_limit,
                                 node=find_node() if options.node and host.name == "quickjs" else None,
                                 slots=slots if slots is not None else Slots.local(options.parallel), host=host)
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

    def battery_pass(stage: str) -> BatteryRun:
        return counted(run_battery, source, engine, states, options, progress, stage, on_late, clock, cpu.add)

    # Side by side (options.parallel): the battery and its determinism pass, then the tables, the
    # full-length table and the node battery; every report part is then made in a fixed order, so
    # the report is the one a single worker at a time gives. This thread's own work (the first pass,
    # the judging, re-timing's parent side apart) counts too.
    with cpu.counting(), ThreadPoolExecutor(max_workers=options.parallel) as pool:
        second_pass = pool.submit(battery_pass, "determinism") if options.parallel > 1 else None
        run = battery_pass("battery")
        report_load(report, run.start, options)
        if not run.start.ok:
            if second_pass is not None:
                second_pass.result()
            report.skipped.append("battery, determinism, environment and tournaments: the bot did not load")
            report_violations(report, run.violations, run.violations_dropped)
            return
        second = second_pass.result() if second_pass is not None else battery_pass("determinism")
        battery_spent_s = clock.spent()
        proven = retimer.late()
        full = None
        if options.full_table_hands and proven:
            report.skipped.append(f"full-length table of 9: lateness was proven in the battery (state {proven[0].id}, "
                                  "R33); its nine copies would only be killed at the deadline one after the other")
        elif options.full_table_hands:
            full = pool.submit(counted, play_full_table, source, options, progress, clock, cpu)
        tables = {n: pool.submit(counted, play_smoke_table, n, source, report.load["exportName"], options, progress,
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
        report_battery(report, states, run, on_late)
        report_environment(report, run)
        report_determinism(report, run, second, states)
        report_violations(report, run.violations, run.violations_dropped)
        report_pass_cut(report, "battery", run, states, bool(retimer.late()))
        report_pass_cut(report, "determinism", second, states, bool(retimer.late()))
        report_tournaments(report, options, {n: tables[n].result() for n in options.smoke_seats}, retimer)
        if full is not None:
            report_full_table(report, options, *full.result(), retimer)
        node_battery = None if node is None else node.result()
        spent = Spent(battery_spent_s, clock.spent())
        report_timing(report, states, run, retimer, node_battery, clock)
        report_cuts(report, spent)


def certify_file(path: "str | Path", options: CertOptions | None = None, *, roster: Path | None = None,
                 progress: Progress | None = None, slots: Slots | None = None) -> CertReport:
    """Read and certify a bot file; OSError when it cannot be read."""
    path = Path(path)
    return certify(path.read_bytes(), options, filename=str(path), path=path, roster=roster, progress=progress,
                   slots=slots)
