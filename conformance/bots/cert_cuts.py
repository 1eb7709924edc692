"""What a bound cut (conformance/bots/bounds.py), as the report says it: a battery pass stopped, a
table stopped by the CPU-time budget, its wall-clock backstop or its decision cap."""
from __future__ import annotations

from . import bounds
from .cert_battery import BatteryRun
from .cert_report import CertReport


def report_pass_cut(report: CertReport, stage: str, run: BatteryRun) -> None:
    """A battery pass that a bound stopped (conformance/bots/bounds.py): a warning, never an error."""
    stop = run.stopped
    if stop is None:
        return
    o = report.options
    if stop["reason"] == "kills":
        why = (f"{bounds.MAX_BATTERY_KILLS} kills at the {o.decision_ms:g} ms deadline that re-timing did not "
               "prove late (at risk, R33)")
    else:
        why = budget_words(report, stop["reason"], "battery")
    what = "battery" if stage == "battery" else "determinism pass"
    report.warning("bound", stop["reason"], f"the {what} stopped after {why}: {stop['notRun']} states from "
                   f"{stop['at']} on were not run, so their answers were not judged", stop["at"])


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


def report_table_cut(report: CertReport, what: str, result, hand_cap: int, example: str) -> None:
    """A table a bound stopped: by the CPU budget or its wall-clock backstop a warning (never a
    rejection); by the decision cap nothing but the report's ``cut`` (the same on every machine)."""
    cut = result.cut
    if cut["reason"] in ("time", "load"):
        report.warning("bound", cut["reason"], f"{what}: stopped by {budget_words(report, cut['reason'], 'tables')} "
                       f"at decision {cut['decision']} in hand {cut['hand']}, after {len(result.hands)} of at most "
                       f"{hand_cap} hands", example)
    else:
        report.skipped.append(f"{what}: stopped at its cap of {report.options.full_table_decisions} decisions, in "
                              f"hand {cut['hand']} ({len(result.hands)} of {hand_cap} hands completed; "
                              "conformance/bots/bounds.py)")
