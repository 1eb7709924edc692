"""Stage 8, timing verdicts (ruling R33, :mod:`conformance.bots.bot_timing`): the slowest battery
states re-timed, and the re-timing of a table's first decision killed at the deadline."""
from __future__ import annotations

from conformance.harness.runner import replay_states
from . import bot_timing, bounds
from .battery_states import BatteryState
from .cert_battery import BatteryRun
from .cert_cuts import report_retiming_cut
from .cert_report import CertReport


def report_timing(report: CertReport, states: list[BatteryState], run: BatteryRun, retimer: bot_timing.Retimer,
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
            report_retiming_cut(report, reason, len(slow) - n, len(slow), a["id"])
            break
        k = index[a["id"]]
        retimer(a["id"], states[k].state, [s.state for s in states[run.since(k):k]])
    if node is not None and node.get("cut"):
        report.skipped.append(f"node battery: stopped by the time budget (CPU time; V8's by its decision times) after "
                              f"{node['ran']} of {len(states)} states (for the report only; the timing verdicts rest "
                              "on re-timing)")
    timings = list(retimer.timings.values())
    v8 = retimer.host.name == "node"  # the V8 host: timed there directly (R33)
    rule = ({"atRiskAboveMs": bot_timing.AT_RISK_FRACTION * options.decision_ms, "lateAboveMs": options.decision_ms,
             "repeats": bot_timing.REPEATS, "measure": "V8 wall time less run-queue wait, fresh workers"} if v8 else
            {"atRiskAboveMs": bot_timing.AT_RISK_FRACTION * options.decision_ms,
             "quickjsLateAboveMs": bot_timing.QUICKJS_LATE_FACTOR * options.decision_ms,
             "nodeLateAboveMs": options.decision_ms if retimer.node else None, "repeats": bot_timing.REPEATS})
    report.timing = {
        "deadlineMs": options.decision_ms,
        "host": retimer.host.name,
        "node": retimer.host.node if v8 else retimer.node,
        "rule": rule,
        "retimed": [t.to_json() for t in timings],
        "nodeBattery": node,
    }
    if retimer.node is None and not v8:
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
    risky = sorted((t for t in timings if t.verdict == "at-risk"),
                   key=lambda t: -(t.node_median if t.host == "node" else t.quickjs_median))
    if risky:
        report.warning("timing", "at-risk", f"{len(risky)} state(s) near the deadline (at risk, not certainly late)"
                       f", slowest first: {risky[0].id}: {risky[0].describe()}", risky[0].id)


def late_verdict(result, seat: int | None, label: str, retimer: bot_timing.Retimer) -> dict | None:
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
