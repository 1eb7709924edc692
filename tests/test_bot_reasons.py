"""A bot report's reasons (conformance/bots/cert_report.py, cert_cuts.py): each severity keeps every
field it was given, the JSON names them as documented, the verdict follows the worst severity, and a
cut says what cut it. Written for the survivors of mutation testing (bench/README.md, "Mutation
testing of the suite's own verdict code"; issue #37 item 5)."""
from __future__ import annotations

from types import SimpleNamespace

from conformance.bots.bot_cert import CertOptions, CertReport
from conformance.bots.cert_cuts import Spent, report_cuts, report_retiming_cut, report_table_cut


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
