"""Stage 6, determinism: the battery's second pass, in a fresh worker with the same botSeed, must give
the same answers."""
from __future__ import annotations

import json

from .cert_battery import BatteryRun
from .cert_report import CertReport


def report_determinism(report: CertReport, first: BatteryRun, second: BatteryRun) -> None:
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
