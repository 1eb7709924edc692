"""What a bound cut (conformance/bots/bounds.py), as the report says it (#35 item 4;
docs/bot-certification.md, Bounds).

A part that a bound stopped before it was judged whole -- a battery pass (by the CPU-time budget, its
wall-clock backstop, or the count of kills at the deadline), a smoke table or the full-length table
by the budget or the backstop, the re-timing of the slowest states -- makes the verdict
**inconclusive**, never "certified": the states and hands it did not run were not judged. A table's
designed size is no cut: its hand cap, and the full-length table's decision cap, are the same on
every machine and only noted (``skipped``).

Each cut is noted as it is found (:func:`report_pass_cut`, :func:`report_table_cut`,
:func:`report_retiming_cut`) with the fraction of its part that ran; once every stage is done,
:func:`report_cuts` turns the notes into reasons, each naming what was not run and, for a cut by
the budget, about how large a ``--time-budget`` would finish it: the CPU seconds counted by the end
of each stage (:class:`Spent`) scaled by the fraction that ran, over the stage's share
(bounds.SHARES). A cut by the backstop (the machine) or by kills (the bot at risk) names no budget:
a larger one would not run what was cut.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from . import bounds
from .battery_states import BatteryState
from .cert_battery import BatteryRun
from .cert_report import CertReport


@dataclass(frozen=True)
class Spent:
    """CPU seconds the budget had counted (bounds.Clock.spent) when the battery's passes were done,
    and when the tables (smoke, full-length) were."""

    battery_s: float
    tables_s: float


def _note(report: CertReport, stage: str, reason: str, done: float, message: str, not_run: str,
          example: str | None) -> None:
    """A cut of ``stage`` (a bounds.SHARES key) for :func:`report_cuts`; ``done``: the fraction of
    the part that ran (0 to 1)."""
    report.not_run.append({"stage": stage, "reason": reason, "ran": round(done, 4), "notRun": not_run,
                           "example": example, "message": message, "budgetS": None})


def report_pass_cut(report: CertReport, stage: str, run: BatteryRun, states: list[BatteryState],
                    late_proven: bool = False) -> None:
    """A battery pass (``stage``: battery or determinism) that did not run all its ``states``:
    stopped by a bound, or its worker gone with no error to say why (a fresh worker after a kill that
    did not start). A pass that ended on a kill at the deadline once the bot is proven late
    (``late_proven``, R33: the timing stage's error) is the bot's failure, in either pass, not a cut."""
    o = report.options
    what = "battery" if stage == "battery" else "determinism pass"
    total = len(states)
    stop = run.stopped
    if stop is None:
        not_run = total - len(run.answers)
        failed_there = late_proven and run.answers[-1]["outcome"] == "late" or any(
            r.severity == "error" and r.category == "decision" and r.example == run.cut for r in report.reasons)
        if not run.start.ok or run.cut is None or not not_run or failed_there:
            return  # finished, or cut by an error that rejects the bot (it names the states not run)
        stop = {"reason": "unfinished", "at": states[len(run.answers)].id, "notRun": not_run}
        why = (f"its worker was gone at state {run.cut} without an error to explain it (a fresh worker did "
               "not start after a kill at the deadline)")
    elif stop["reason"] == "kills":
        why = (f"{bounds.MAX_BATTERY_KILLS} kills at the {o.decision_ms:g} ms deadline that re-timing did not "
               "prove late (at risk, R33)")
    else:
        why = budget_words(report, stop["reason"], "battery")
    ran = len(run.answers) / total if total else 1.0
    _note(report, "battery", stop["reason"], ran,
          f"the {what} stopped after {why}: {stop['notRun']} states from {stop['at']} on were not run, so their "
          "answers were not judged", f"{what}: {stop['notRun']} of {total} states from {stop['at']} on", stop["at"])


def report_comparison_cut(report: CertReport, a: dict, b: dict, first: BatteryRun, second: BatteryRun,
                          states: list[BatteryState]) -> None:
    """The two battery passes' answers from the state of ``a`` (the first pass's) and ``b`` (the
    determinism pass's) on, not compared: a worker was killed at the deadline there, re-timing did not
    prove the bot late (R33), and a fresh worker went on in its pass, so the passes' later answers come
    from workers with different pasts (a bot may remember). A pass that ended there instead is cut by
    its bound or rejected by its error (:func:`report_pass_cut`, the late error)."""
    replaced = [what for what, answer, run in (("battery's", a, first), ("determinism pass's", b, second))
                if answer["outcome"] == "late" and answer["id"] in run.restarts]
    if not replaced:
        return
    total = len(states)
    k = next(i for i, s in enumerate(states) if s.id == a["id"])
    not_compared = min(len(first.answers), len(second.answers)) - k
    _note(report, "battery", "deadline", k / total if total else 1.0,
          f"the determinism pass compared the first {k} answers only: at state {a['id']} the "
          f"{' and the '.join(replaced)} worker was killed at the {report.options.decision_ms:g} ms deadline, re-timing "
          "did not prove the bot late (R33) and a fresh worker went on, so the passes' later answers come from "
          f"workers with different pasts: {not_compared} states from {a['id']} on were not compared",
          f"determinism: {not_compared} of {total} states from {a['id']} on not compared", a["id"])


def budget_words(report: CertReport, reason: str, stage: str) -> str:
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


def report_table_cut(report: CertReport, what: str, result, hand_cap: int, example: str,
                     decision_cap: int | None = None) -> None:
    """A table a bound stopped: by the CPU budget or its wall-clock backstop a cut (the verdict is
    inconclusive); by the decision cap (``decision_cap``, the full-length table's) nothing but the
    report's ``cut`` and ``skipped`` (its designed size, the same on every machine)."""
    cut = result.cut
    hands = len(result.hands)
    if cut["reason"] in ("time", "load"):
        # A table's end is not known before it is played: the share of its hand cap (or decision cap)
        # played; a table cut inside its first hand counts half a hand.
        ran = max(max(hands, 0.5) / hand_cap, len(result.decisions) / decision_cap if decision_cap else 0.0)
        _note(report, "tables", cut["reason"], min(ran, 1.0),
              f"{what}: stopped by {budget_words(report, cut['reason'], 'tables')} at decision {cut['decision']} "
              f"in hand {cut['hand']}, after {hands} of at most {hand_cap} hands",
              f"{what}: hands {hands + 1} to {hand_cap} at most", example)
    else:
        report.skipped.append(f"{what}: stopped at its cap of {report.options.full_table_decisions} decisions, in "
                              f"hand {cut['hand']} ({hands} of {hand_cap} hands completed; "
                              "conformance/bots/bounds.py)")


def report_retiming_cut(report: CertReport, reason: str, not_retimed: int, slow: int, first: str) -> None:
    """The slowest battery states that re-timing did not reach: their timing verdict is unknown."""
    _note(report, "timing", reason, (slow - not_retimed) / slow,
          f"{not_retimed} of the {slow} slowest battery states (above half the deadline) were not re-timed: "
          f"{budget_words(report, reason, 'timing')} had passed; their timing verdict is unknown",
          f"re-timing: {not_retimed} of the {slow} slowest states", first)


def report_cuts(report: CertReport, spent: Spent) -> None:
    """The noted cuts as inconclusive reasons, each with its --time-budget estimate (``budgetS``)."""
    if not report.not_run:
        return
    budget = _budgets(report, spent)
    for note in report.not_run:
        if note["reason"] == "time":
            note["budgetS"] = budget[note["stage"]]
            then = (f"a --time-budget of about {note['budgetS']:g} CPU seconds would finish it (estimated from "
                    f"the rate measured in this run; this one had {report.options.time_budget_s:g})")
        elif note["reason"] == "load":
            then = "certify it again on a quieter machine (a larger --time-budget would not help)"
        elif note["reason"] == "deadline":
            then = ("certify it again: a kill at the deadline that re-timing does not confirm is the machine's load "
                    "or a bot near the deadline (R33); a larger --time-budget would not help")
        elif note["reason"] == "kills":
            then = "a larger --time-budget would not run them: each kill costs a deadline (the bot is at risk, R33)"
        else:
            then = "certify it again"
        report.inconclusive("bound", note["reason"], f"{note['message']}; the verdict is inconclusive: {then}",
                            note["example"])


def _budgets(report: CertReport, spent: Spent) -> dict[str, float]:
    """The --time-budget estimated to finish each stage's cuts by the budget: the CPU seconds each
    stage needs (what it spent, over the fraction of it that ran), summed up to the stage, over its
    share; a later stage's budget also finishes the earlier ones. Rounded up to the next 10 s above."""
    def ran(stage: str) -> float:
        return min((n["ran"] for n in report.not_run if n["stage"] == stage and n["reason"] == "time"), default=1.0)

    battery = spent.battery_s / max(ran("battery"), 1e-3)
    tables = battery + max(spent.tables_s - spent.battery_s, 0.0) / max(ran("tables"), 1e-3)
    # Re-timing is not on the clock (bounds.Clock.excluding): it starts once the tables are done.
    needed = {"battery": battery / bounds.SHARES["battery"], "tables": tables / bounds.SHARES["tables"],
              "timing": tables / bounds.SHARES["timing"]}
    budget, out = 0.0, {}
    for stage in ("battery", "tables", "timing"):
        budget = max(budget, needed[stage])
        out[stage] = float(10 * math.floor(budget / 10) + 10)
    return out
