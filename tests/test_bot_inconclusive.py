"""A cut never certifies (#35 item 4; docs/bot-certification.md, Bounds): a bot whose battery or
tables a bound cut is inconclusive (exit 3, the report naming what was not run and the --time-budget
estimated to finish it), never certified; the battery's most discriminating states run first, so a
mistake only a rare kind of state reaches is still caught when the battery is cut; and certify with
an inconclusive bot is inconclusive (exit 3, a JUnit error)."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from hypothesis import given, settings, strategies as st

from cli_helpers import make_roster, run_cli
from conformance.bots import battery_file
from conformance.bots.bot_cert import CertOptions, battery, certify_file
from conformance.bots.decision_kinds import KINDS, covering_order, decision_kinds

ROOT = Path(__file__).resolve().parent.parent
TIMING = ROOT / "tests" / "bots" / "timing"


def test_a_bot_whose_battery_is_cut_is_inconclusive_with_exit_3(tmp_path, capsys):
    out = tmp_path / "report.json"
    code, text, _ = run_cli(capsys, "bot", TIMING / "steady.js", "--time-budget", "1", "--tables", "",
                            "--full-hands", "0", "--no-node", "--json", out)
    report = json.loads(out.read_text())
    assert code == 3 and report["verdict"] == "inconclusive", report["reasons"]
    assert "certified" not in text.splitlines()[0]
    assert not [r for r in report["reasons"] if r["severity"] == "error"]
    cut = report["battery"]["stopped"]
    assert cut["reason"] == "time" and report["battery"]["notRun"] == cut["notRun"] > 0
    # What was not run, by part, and a budget estimated from the measured rate that is larger than
    # the one that cut it.
    parts = report["cuts"]["notRun"]
    assert {p["notRun"].split(":")[0] for p in parts} == {"battery", "determinism pass"}
    assert f"{cut['notRun']} of {report['battery']['states']} states from {cut['at']} on" in parts[0]["notRun"]
    budget = report["cuts"]["timeBudgetS"]
    assert budget > 1 and all(0 < p["ran"] < 1 for p in parts)
    battery_cut = next(r for r in report["reasons"] if r["example"] == cut["at"])
    assert battery_cut["severity"] == "inconclusive" and battery_cut["code"] == "time"
    assert f"a --time-budget of about {budget:g} CPU seconds would finish it" in battery_cut["message"]
    assert f"about --time-budget {budget:g} would finish it" in text


def test_a_rare_mistake_is_caught_though_the_battery_is_cut():
    # slow-late-mistake.js answers an illegal raise only from hand 20 on (kind late-tournament: no
    # vector state and no generated state has one, 25 of the 190 stratified states do). Stratified
    # states used to come last: a budget that cuts the battery after a few hundred states certified it.
    # They now come right after the legality vectors, every kind as early as it can.
    options = CertOptions(host="quickjs", time_budget_s=10, smoke_seats=(), full_table_hands=0, node=False)
    report = certify_file(TIMING / "slow-late-mistake.js", options)
    assert report.battery["stopped"] is not None and report.battery["stopped"]["reason"] == "time"
    assert report.verdict == "rejected", [r.to_json() for r in report.reasons]
    error = report.battery["errors"]["engine-invalid"]
    assert error["example"].startswith("kind.") and error["kinds"]["late-tournament"] == error["count"]
    # The cut is still reported: what was judged and failed stays a rejection.
    assert any(r.severity == "inconclusive" and r.category == "bound" for r in report.reasons)


def test_the_battery_runs_the_most_discriminating_states_first():
    states = battery(CertOptions())
    sources = [s.id.split(".")[0] for s in states]
    legality = sources.count("legality")
    assert sources[:legality] == ["legality"] * legality
    kinds = sources.count("kind")
    assert sources[legality:legality + kinds] == ["kind"] * kinds
    generated = sources.count("generated")
    assert sources[legality + kinds:legality + kinds + generated] == ["generated"] * generated
    assert all(s.id.startswith("hands.") for s in states[legality + kinds + generated:])
    # every decision kind within the stratified part's first round (one state per kind at most)
    for kind in KINDS:
        first = next(i for i, s in enumerate(states) if kind in decision_kinds(s.state))
        assert first < legality + len(KINDS), (kind, first)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 189), max_size=60))
def test_covering_order_meets_every_kind_in_its_first_round(picks):
    pool = battery_file.shipped()["kinds"]
    states = [pool[i] for i in picks]
    order = covering_order(states)
    assert sorted(order) == list(range(len(states)))
    # Until every kind the states show is met, each state taken meets a kind not met yet.
    shown = {k for s in states for k in decision_kinds(s)}
    met: set[str] = set()
    steps = 0
    for i in order:
        if met == shown:
            break
        assert decision_kinds(states[i]) - met, (steps, i)
        met |= decision_kinds(states[i])
        steps += 1
    assert met == shown and steps <= len(KINDS)


def test_certify_with_an_inconclusive_bot_is_inconclusive(tmp_path, capsys):
    roster = make_roster(tmp_path, {"steady": TIMING / "steady.js"})
    report = tmp_path / "R"
    code, out, _ = run_cli(capsys, "certify", "--roster", roster, "--report", report, "--family", "rng",
                           "--no-fresh", "--hands", "5", "--bot-time-budget", "1")
    summary = json.loads((report / "summary.json").read_text())
    (bot,) = summary["bots"]
    assert bot["verdict"] == "inconclusive", bot["reasons"]
    assert code == 3 and summary["status"] == "inconclusive" and summary["inconclusive"] == ["steady"]
    assert not summary["certified"]
    assert "certify: inconclusive" in out and "bot steady: inconclusive: the battery stopped" in out
    root = ET.parse(report / "junit.xml").getroot()
    (case,) = [c for s in root if s.get("name") == "bots" for c in s]
    assert case.find("error") is not None and case.find("failure") is None
    assert int(root.get("errors")) == 1


def test_a_pass_whose_worker_was_gone_without_an_error_is_inconclusive():
    # A kill at the deadline that re-timing did not prove late, and no fresh worker started after it:
    # the later states were not run, and nothing rejects the bot, so nothing certifies it either.
    from conformance.bots.battery_states import BatteryState
    from conformance.bots.bot_cert import CertReport
    from conformance.bots.cert_battery import BatteryRun
    from conformance.bots.cert_cuts import Spent, report_cuts, report_pass_cut
    from conformance.host.worker import Outcome

    states = [BatteryState(f"s{i}", {}) for i in range(5)]
    run = BatteryRun(Outcome("ok", {"name": None, "shape": "function"}),
                     answers=[{"id": "s0", "outcome": "ok"}, {"id": "s1", "outcome": "late"}], cut="s1")
    report = CertReport(file="x", options=CertOptions())
    report_pass_cut(report, "battery", run, states)
    report_cuts(report, Spent(battery_s=1.0, tables_s=1.0))
    assert report.verdict == "inconclusive" and report.exit_code == 3
    [reason] = report.reasons
    assert (reason.severity, reason.category, reason.code, reason.example) == ("inconclusive", "bound", "unfinished", "s2")
    assert "3 states from s2 on were not run" in reason.message
    assert report.to_json()["cuts"] == {"notRun": [{"stage": "battery", "reason": "unfinished", "ran": 0.4,
                                                   "notRun": "battery: 3 of 5 states from s2 on", "example": "s2",
                                                   "budgetS": None}], "timeBudgetS": None}
    # The same pass cut where an error rejects the bot (a crash there) adds nothing: the error says it.
    report = CertReport(file="x", options=CertOptions())
    report.error("decision", "crash", "the worker crashed", "s1")
    report_pass_cut(report, "battery", run, states)
    assert report.not_run == [] and report.verdict == "rejected"


def test_the_budget_estimate_scales_each_stage_by_the_fraction_that_ran():
    # A 10 s budget: the battery (share 4 s) ran a quarter of its states, so it needs about 16 CPU
    # seconds, a budget of 40 s; the table then ran 6 of its 60 hands in 4 s, about 40 s more: 56 s
    # by the end of the tables (share 0.8), a budget of 70 s. Each rounded up to the next 10 s above.
    from types import SimpleNamespace

    from conformance.bots.battery_states import BatteryState
    from conformance.bots.bot_cert import CertReport
    from conformance.bots.cert_battery import BatteryRun
    from conformance.bots.cert_cuts import Spent, report_cuts, report_pass_cut, report_table_cut
    from conformance.host.worker import Outcome

    options = CertOptions(time_budget_s=10, smoke_max_hands=60)
    states = [BatteryState(f"s{i}", {}) for i in range(8)]
    run = BatteryRun(Outcome("ok", {"name": None, "shape": "function"}),
                     answers=[{"id": "s0", "outcome": "ok"}, {"id": "s1", "outcome": "ok"}],
                     stopped={"reason": "time", "at": "s2", "notRun": 6})
    table = SimpleNamespace(cut={"reason": "time", "decision": 40, "hand": 7}, hands=[{}] * 6, decisions=[None] * 40)
    report = CertReport(file="x", options=options)
    report_pass_cut(report, "battery", run, states)
    report_table_cut(report, "table of 2", table, 60, "table 2")
    report_cuts(report, Spent(battery_s=4.0, tables_s=8.0))
    cuts = report.to_json()["cuts"]
    assert [(n["stage"], n["ran"], n["budgetS"]) for n in cuts["notRun"]] == [("battery", 0.25, 50.0),
                                                                              ("tables", 0.1, 80.0)]
    assert cuts["timeBudgetS"] == 80.0
    assert [r.code for r in report.reasons] == ["time", "time"] and report.verdict == "inconclusive"
    assert "a --time-budget of about 80 CPU seconds would finish it" in report.reasons[1].message


# ---- the determinism pass (#35 item 2): what it did not compare is a cut, never a silent prefix ----

def _one_pass_after_the_other(**more) -> CertOptions:
    from conformance.host.bot_host import choose
    return CertOptions(host=choose(None).name, parallel=1, smoke_seats=(), full_table_hands=0, **more)


def test_a_determinism_pass_cut_by_the_budget_is_inconclusive(monkeypatch):
    # The passes one after the other; the battery's share passes 30 states into the second pass (a
    # clock that counts the checks: nothing here depends on the machine's load).
    from conformance.bots import bounds
    options = _one_pass_after_the_other()
    total, checks, real = len(battery(options)), [0], bounds.Clock.past

    def past(self, stage):
        if stage == "battery":
            checks[0] += 1
            if checks[0] > total + 30:
                return "time"
        return real(self, stage)

    monkeypatch.setattr(bounds.Clock, "past", past)
    report = certify_file(ROOT / "bots" / "check-fold.js", options)
    assert report.verdict == "inconclusive" and report.exit_code == 3, [r.to_json() for r in report.reasons]
    assert report.determinism["compared"] == 30 and report.battery["notRun"] == 0
    [cut] = report.to_json()["cuts"]["notRun"]
    assert cut["notRun"].startswith(f"determinism pass: {total - 30} of {total} states") and cut["budgetS"] > 0


def test_a_determinism_pass_whose_worker_was_replaced_after_a_kill_is_inconclusive(monkeypatch):
    # The second pass's worker is killed at the deadline on its 40th state (as a loaded machine can);
    # re-timing finds the bot fast, a fresh worker goes on, and the two passes' answers from there
    # come from workers with different pasts. It was certified having compared 39 of 1171 answers.
    import time
    from conformance.bots import cert_report
    started, acts, real_worker = [], [0], cert_report.CertOptions.worker

    def worker(self, cpu_meter=None):
        w = real_worker(self, cpu_meter)
        real_start, real_act = w.start, w.act

        def start(*args, **kwargs):
            started.append(w)
            return real_start(*args, **kwargs)

        def act(state, timeout_ms=1000, **kw):
            if started[1:2] == [w]:  # the second worker started: the determinism pass's
                acts[0] += 1
                if acts[0] == 40:
                    return w._fail("late", f"no answer within {timeout_ms:g} ms", time.perf_counter(),
                                   wall_ms=float(timeout_ms))
            return real_act(state, timeout_ms, **kw)
        w.start, w.act = start, act
        return w

    monkeypatch.setattr(cert_report.CertOptions, "worker", worker)
    options = _one_pass_after_the_other()
    report = certify_file(ROOT / "bots" / "check-fold.js", options)
    assert report.verdict == "inconclusive" and report.exit_code == 3, [r.to_json() for r in report.reasons]
    assert report.determinism["compared"] == 39
    [reason] = [r for r in report.reasons if r.severity == "inconclusive"]
    state = battery(options)[39].id
    assert (reason.category, reason.code, reason.example) == ("bound", "deadline", state)
    assert f"{len(battery(options)) - 39} states from {state} on were not compared" in reason.message


def test_a_determinism_pass_ended_by_proven_lateness_is_the_bot_s_failure_not_a_cut():
    # Its worker killed at the deadline on s1, re-timing proved the bot late (R33): the pass ends
    # there, as the first pass's would; the timing stage's error rejects the bot, no cut is noted.
    from conformance.bots.battery_states import BatteryState
    from conformance.bots.bot_cert import CertReport
    from conformance.bots.cert_battery import BatteryRun
    from conformance.bots.cert_cuts import report_pass_cut
    from conformance.host.worker import Outcome

    states = [BatteryState(f"s{i}", {}) for i in range(5)]
    run = BatteryRun(Outcome("ok", {"name": None, "shape": "function"}),
                     answers=[{"id": "s0", "outcome": "ok"}, {"id": "s1", "outcome": "late"}], cut="s1")
    report = CertReport(file="x", options=CertOptions())
    report_pass_cut(report, "determinism", run, states, late_proven=True)
    assert report.not_run == []
    report_pass_cut(report, "determinism", run, states, late_proven=False)
    assert [n["reason"] for n in report.not_run] == ["unfinished"]
