"""A bot report's reasons (conformance/bots/cert_report.py, cert_cuts.py): each severity keeps every
field it was given, the JSON names them as documented, the verdict follows the worst severity, a cut
says what cut it, and the timing rule's bounds are where R33 puts them (bot_timing.classify).
Written for the survivors of mutation testing (bench/README.md, "Mutation testing of the suite's
own verdict code"; issue #37 item 5)."""
from __future__ import annotations

from types import SimpleNamespace

from conformance.bots import bot_timing, bounds
from conformance.bots.battery_states import BatteryState
from conformance.bots.bot_cert import CertOptions, CertReport
from conformance.bots.bot_timing import classify
from conformance.bots.cert_battery import BatteryRun
from conformance.bots.cert_cuts import Spent, report_cuts, report_pass_cut, report_retiming_cut, report_table_cut
from conformance.host import node_polyfill
from conformance.host.worker import Outcome


def test_each_severity_keeps_every_field_and_the_json_names_them():
    report = CertReport(file="x", options=CertOptions())
    report.warning("timing", "at-risk", "near the deadline", "kind.3")
    assert report.verdict == "certified with warnings" and report.exit_code == 0
    report.inconclusive("bound", "time", "the battery stopped", "s7")
    assert report.verdict == "inconclusive" and report.exit_code == 3
    report.error("decision", "illegal", "raised above the maximum", "generated.12")
    assert report.verdict == "rejected" and report.exit_code == 1
    assert report.to_json()["reasons"] == [
        {"severity": "warning", "category": "timing", "code": "at-risk", "message": "near the deadline",
         "example": "kind.3"},
        {"severity": "inconclusive", "category": "bound", "code": "time", "message": "the battery stopped",
         "example": "s7"},
        {"severity": "error", "category": "decision", "code": "illegal", "message": "raised above the maximum",
         "example": "generated.12"}]
    assert CertReport(file="x", options=CertOptions()).verdict == "certified"


def test_a_table_cut_names_what_cut_it():
    # By the CPU-time budget (the bot's work) or by the wall-clock backstop (the machine): the words
    # and the advice differ (a larger budget helps only the first).
    for reason, words, then in (("time", "its share of the CPU-time budget", "a --time-budget of about"),
                                ("load", "the wall-clock backstop", "certify it again on a quieter machine")):
        report = CertReport(file="x", options=CertOptions(time_budget_s=10))
        table = SimpleNamespace(cut={"reason": reason, "decision": 40, "hand": 7}, hands=[{}] * 6,
                                decisions=[None] * 40)
        report_table_cut(report, "table of 2", table, 60, "table 2")
        report_cuts(report, Spent(battery_s=4.0, tables_s=8.0))
        [r] = report.reasons
        assert (r.severity, r.category, r.code, r.example) == ("inconclusive", "bound", reason, "table 2")
        assert f"table of 2: stopped by {words}" in r.message and then in r.message, r.message
        assert "after 6 of at most 60 hands" in r.message


def test_states_re_timing_did_not_reach_leave_the_verdict_open():
    report = CertReport(file="x", options=CertOptions(time_budget_s=10))
    report_retiming_cut(report, "time", 2, 3, "kind.5")
    assert report.not_run[0]["ran"] == round(1 / 3, 4) and report.not_run[0]["stage"] == "timing"
    report_cuts(report, Spent(battery_s=1.0, tables_s=2.0))
    [r] = report.reasons
    assert report.verdict == "inconclusive"
    assert (r.category, r.code, r.example) == ("bound", "time", "kind.5")
    assert r.message.startswith("2 of the 3 slowest battery states (above half the deadline) were not re-timed: "
                                "its share of the CPU-time budget")
    assert report.to_json()["cuts"]["notRun"][0]["notRun"] == "re-timing: 2 of the 3 slowest states"


def test_the_timing_rule_bounds_are_strict():
    # R33: late when QuickJS "exceeds" twice the deadline and V8 is "above" it; at risk "above" half
    # of it. So exactly twice the deadline in QuickJS is not late beyond doubt, V8 exactly at the
    # deadline made it, and exactly half the deadline is not at risk.
    d = 1000
    assert classify(2000, None, d) == classify(2500, 1000, d) == "at-risk"
    assert classify(2001, None, d) == classify(2500, 1001, d) == "late"
    assert classify(500, None, d) == classify(10, 500, d) == classify(500, 500, d) == "ok"
    assert classify(501, None, d) == classify(10, 501, d) == "at-risk"


def _runs(threw: int, polyfill: str | None = None, failure: str | None = None) -> "bot_timing._NodeRuns":
    return bot_timing._NodeRuns((0.3, 0.2, 0.2), threw, "TypeError: x" if threw else "", failure,
                                node_polyfill.LOADED if polyfill is None else polyfill)


def test_v8_times_a_state_only_when_it_threw_on_neither_side_or_on_every_run():
    # A throw is no decision time (R33): the state rests on QuickJS alone unless both sides threw on
    # every run (QuickJS's REPEATS, V8's warm-up and REPEATS).
    every = bot_timing.REPEATS
    assert "answered in V8 where it threw in QuickJS" in bot_timing._untimed(_runs(every), quickjs_threw=every)
    assert bot_timing._untimed(_runs(every + 1), quickjs_threw=every) is None
    assert "threw in V8 where QuickJS answered" in bot_timing._untimed(_runs(1), quickjs_threw=every - 1)
    # Without core-js's builtins in node, the reason says so.
    note = bot_timing._untimed(_runs(0, polyfill="core-js not found", failure="load: boom"), 0)
    assert note == "load: boom (node ran without core-js's builtins: core-js not found)"
    assert bot_timing._untimed(_runs(0, failure="load: boom"), 0) == "load: boom"


def test_after_the_late_states_retimed_a_later_kill_follows_their_verdicts():
    retimer = bot_timing.Retimer(source="", engine="", bot_seed=1, init_ms=1, deadline_ms=100, memory_limit=None,
                                 node=None)

    def timing(i: int, verdict: str) -> bot_timing.StateTiming:
        return bot_timing.StateTiming(f"s{i}", (50.0,) * 3, None, verdict, 100)

    retimer.timings = {f"s{i}": timing(i, "ok") for i in range(bot_timing.MAX_LATE_RETIMED)}
    assert retimer.late_beyond_doubt("later", {}) is False and "later" not in retimer.timings
    retimer.timings["s0"] = timing(0, "late")
    assert retimer.late() == [retimer.timings["s0"]]
    assert retimer.late_beyond_doubt("later", {}) is True and "later" not in retimer.timings


def test_a_battery_pass_cut_names_what_cut_it():
    # By the CPU-time budget (a larger one would finish it) or by kills at the deadline that
    # re-timing did not prove late (the bot at risk: a larger budget would not run the rest).
    states = [BatteryState(f"s{i}", {}) for i in range(8)]
    for reason, words, then in (
            ("time", "its share of the CPU-time budget", "a --time-budget of about"),
            ("kills", f"{bounds.MAX_BATTERY_KILLS} kills at the 300 ms deadline that re-timing did not prove late",
             "a larger --time-budget would not run them: each kill costs a deadline")):
        run = BatteryRun(Outcome("ok", {"name": None, "shape": "function"}),
                         answers=[{"id": "s0", "outcome": "ok"}, {"id": "s1", "outcome": "late"}],
                         stopped={"reason": reason, "at": "s2", "notRun": 6})
        report = CertReport(file="x", options=CertOptions(decision_ms=300, time_budget_s=10))
        report_pass_cut(report, "battery", run, states)
        report_cuts(report, Spent(battery_s=4.0, tables_s=4.0))
        [r] = report.reasons
        assert (r.severity, r.category, r.code, r.example) == ("inconclusive", "bound", reason, "s2")
        assert r.message.startswith(f"the battery stopped after {words}") and then in r.message, r.message
        assert (report.to_json()["cuts"]["timeBudgetS"] is None) == (reason == "kills")
