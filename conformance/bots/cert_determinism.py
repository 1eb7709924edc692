"""Stage 6, determinism: the battery's second pass, in a fresh worker with the same botSeed, must give
the same answers. The answers are compared in order while both workers have the same past; what
could not be compared (a worker killed at the deadline and replaced, a pass cut) is a cut
(conformance/bots/cert_cuts.py): the verdict is then inconclusive, never certified on a prefix."""
from __future__ import annotations

import json

from .battery_states import BatteryState
from .cert_battery import BatteryRun
from .cert_cuts import report_comparison_cut
from .cert_report import CertReport


def report_determinism(report: CertReport, first: BatteryRun, second: BatteryRun, states: list[BatteryState]) -> None:
    def key(a: dict) -> tuple:
        return a["outcome"], json.dumps(a["answer"], sort_keys=True), a["code"]

    compared, difference, ended = 0, None, None
    for a, b in zip(first.answers, second.answers):
        if {a["outcome"], b["outcome"]} & {"late", "dead"}:
            # A deadline is a timing, not a decision. When both workers were killed here and went on
            # afresh (bot_timing), the bot's memory is new in both, so later answers still compare.
            if a["outcome"] == b["outcome"] == "late" and a["id"] in first.restarts and a["id"] in second.restarts:
                continue
            ended = a, b
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
    if difference is None and ended is not None:
        report_comparison_cut(report, *ended, first, second, states)
