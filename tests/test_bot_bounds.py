"""The bounds of bot certification (issue #25, conformance/bots/bounds.py): a bot late on every
decision is rejected once its lateness is proven, without the stages that would only be killed at
the deadline again; a bot at risk at nine seats stops the battery after a fixed number of kills; a
passive bot's full-length table stops at its decision cap and stays certified; a slow bot is cut by
the time budget, which makes its verdict inconclusive, never a rejection nor a certification (#35 item
4); side by side the report is the one-worker report."""
from __future__ import annotations

import itertools
import time
from dataclasses import replace
from pathlib import Path

from conformance.bots import bot_timing, bounds
from conformance.bots.bot_cert import CertOptions, certify_file
from conformance.harness.runner import bundled_engine
from conformance.host.worker import Worker
from reference.tournament import Tournament

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "tests" / "bots"
NINE = Tournament([f"P{i}" for i in range(9)], seed=3).decision_state()


def reasons(report) -> set[tuple[str, str, str]]:
    return {(r.severity, r.category, r.code) for r in report.reasons}


def test_a_bot_late_on_every_decision_is_rejected_without_the_full_table():
    # The whole default battery, the three smoke tables and the 300-hand full table: the battery's
    # first kill is re-timed late beyond doubt, which ends both passes there, and the full-length
    # table (nine copies killed one after the other) is not played.
    options = CertOptions(decision_ms=200, init_ms=2000)
    report = certify_file(BOTS / "bad" / "act-loop.js", options)
    assert report.verdict == "rejected"
    assert {("error", "decision", "late"), ("error", "timing", "late")} <= reasons(report)
    assert report.battery["answered"] == 1 and report.battery["stopped"] is None
    assert report.determinism["compared"] == 0
    assert [t["verdict"] for t in report.timing["retimed"]] == ["late"]
    assert report.full_table is None and any("full-length table" in s and "proven" in s for s in report.skipped)
    for table in report.tournaments:  # each killed at the bot's first decision: the rest are fallbacks
        assert table["late"]["verdict"] == "late" and table["terminated"]["decision"] is not None


def _nine_seat_cpu_ms() -> float:
    """slow-at-nine.js's median QuickJS CPU time on a nine-seat state, on this machine."""
    with Worker() as worker:
        worker.start(bundled_engine(), (BOTS / "timing" / "slow-at-nine.js").read_text(encoding="utf-8"), 1)
        return sorted(worker.act(NINE, timeout_ms=10_000).cpu_ms for _ in range(3))[1]


def test_a_bot_at_risk_at_nine_seats_stops_the_battery_after_its_kills():
    # A deadline below the bot's nine-seat CPU time (so every nine-seat state is killed) and above
    # half of it (so re-timing finds it at risk, never late): each kill costs a deadline and a fresh
    # worker, and the battery stops at the bound's count, saying how many states were not run: a cut,
    # so the verdict is inconclusive (#35 item 4: the late bots were certified this way).
    deadline = max(30.0, round(0.7 * _nine_seat_cpu_ms()))
    options = CertOptions(host="quickjs", decision_ms=deadline, init_ms=3000, generated_states=0, kind_states=0,
                          smoke_seats=(), full_table_hands=0)
    report = certify_file(BOTS / "timing" / "slow-at-nine.js", options)
    assert report.verdict == "inconclusive", [r.to_json() for r in report.reasons]
    assert ("inconclusive", "bound", "kills") in reasons(report) and ("warning", "timing", "at-risk") in reasons(report)
    assert report.to_json()["cuts"]["timeBudgetS"] is None  # a larger budget would not run them
    stopped = report.battery["stopped"]
    assert stopped["reason"] == "kills" and stopped["notRun"] == report.battery["notRun"] > 0
    late = [a for a in report.battery["answers"] if a["outcome"] == "late"]
    assert len(late) == bounds.MAX_BATTERY_KILLS
    retimed = [t["verdict"] for t in report.timing["retimed"] if not t["id"].startswith("table")]
    assert retimed == ["at-risk"] * bot_timing.MAX_LATE_RETIMED  # the later kills followed these


def test_a_passive_bot_is_certified_with_its_full_table_cut_at_the_decision_cap():
    options = CertOptions(vector_states=5, generated_states=0, kind_states=0, smoke_seats=(), full_table_decisions=400)
    report = certify_file(BOTS / "good" / "passive.js", options)
    assert report.verdict == "certified", [r.to_json() for r in report.reasons]
    table = report.full_table
    assert table["cut"]["reason"] == "decisions" and table["decisions"] == 400 and table["hands"] < 300
    assert table["cut"]["hand"] == table["hands"] + 1  # stopped inside the next hand; completed ones count
    assert any("full-length table" in s and "cap of 400 decisions" in s for s in report.skipped)


def test_the_time_budget_cut_is_inconclusive_never_a_rejection():
    # About 20 ms a decision: the default battery would take half a minute; a one-second budget stops
    # both passes and the table, each cut naming what was not run: inconclusive (#35 item 4).
    options = CertOptions(host="quickjs", time_budget_s=1, smoke_seats=(2,), full_table_hands=0, node=False)
    report = certify_file(BOTS / "timing" / "steady.js", options)
    assert report.verdict == "inconclusive" and report.exit_code == 3, [r.to_json() for r in report.reasons]
    assert not any(r.severity == "error" for r in report.reasons)
    assert report.battery["stopped"]["reason"] == "time" and report.battery["notRun"] > 0
    assert ("inconclusive", "bound", "time") in reasons(report)
    assert report.tournaments[0]["cut"]["reason"] == "time"


def test_side_by_side_the_report_is_the_one_worker_report():
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("wallMs", "cpuMs", "timing", "timingByHands")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    options = CertOptions(vector_states=30, generated_states=10, kind_states=2, smoke_seats=(2, 6),
                          smoke_max_hands=6, full_table_hands=4)
    one, two = (certify_file(BOTS / "good" / "seeded-random.js", replace(options, parallel=n)).to_json()
                for n in (1, 2))
    assert strip(one) == strip(two)
    assert [t["digest"] for t in one["tournaments"]] == [t["digest"] for t in two["tournaments"]]


def _strip_times(value):
    """A report without its measured times (they vary from run to run, the verdicts must not)."""
    if isinstance(value, dict):
        return {k: _strip_times(v) for k, v in value.items()
                if k not in ("wallMs", "cpuMs", "timing", "timingByHands", "options")}
    if isinstance(value, list):
        return [_strip_times(v) for v in value]
    return value


def test_a_loaded_machine_changes_neither_the_verdict_nor_the_report(monkeypatch):
    # The budget is CPU time (issue #25: a verdict must not depend on the machine's load): with the
    # wall clock running ten times fast (as on a machine ten times as loaded), the 8 s battery share of
    # a 20 s budget passes on the wall clock within the first second, and nothing may be cut.
    options = CertOptions(vector_states=30, generated_states=10, kind_states=2, smoke_seats=(2, 6),
                          smoke_max_hands=6, full_table_hands=4, time_budget_s=20)
    quiet = certify_file(BOTS / "good" / "seeded-random.js", options)
    t0 = time.perf_counter()
    monkeypatch.setattr(bounds, "wall_clock", lambda: t0 + 10 * (time.perf_counter() - t0))
    loaded = certify_file(BOTS / "good" / "seeded-random.js", options)
    assert loaded.verdict == quiet.verdict == "certified", [r.to_json() for r in loaded.reasons]
    assert not any(r.category == "bound" for r in loaded.reasons)
    assert _strip_times(loaded.to_json()) == _strip_times(quiet.to_json())


def test_a_cpu_burning_bot_is_cut_by_the_cpu_budget_in_bounded_wall_time():
    # steady.js burns about 20 ms of CPU a decision: a 1 s budget cuts every stage by CPU time ("time"),
    # and the wall time stays bounded whatever the load (the backstop: 20 x the budget).
    options = CertOptions(host="quickjs", time_budget_s=1, smoke_seats=(2,), full_table_hands=0, node=False)
    t0 = time.perf_counter()
    report = certify_file(BOTS / "timing" / "steady.js", options)
    assert time.perf_counter() - t0 < bounds.BACKSTOP_FACTOR * options.time_budget_s + 10
    assert report.verdict == "inconclusive", [r.to_json() for r in report.reasons]
    assert report.battery["stopped"]["reason"] == "time" and report.tournaments[0]["cut"]["reason"] == "time"
    cuts = [r for r in report.reasons if r.category == "bound"]
    assert cuts and {r.code for r in cuts} == {"time"}
    battery = next(r for r in cuts if "battery stopped" in r.message)
    assert "CPU-time budget" in battery.message and f"{report.battery['notRun']} states" in battery.message
    assert any("table" in r.message and "CPU-time budget" in r.message for r in cuts)


def test_the_wall_clock_backstop_is_reported_as_load_not_as_a_slow_bot(monkeypatch):
    # A wall clock that jumps 1000 s at every reading: the backstop passes at the first check while the
    # bot has used almost no CPU; the cut is "load" (the machine): inconclusive, never a verdict either
    # way, and no budget would finish it (#35 item 4).
    jumps = itertools.count(0, 1000)
    monkeypatch.setattr(bounds, "wall_clock", lambda: float(next(jumps)))
    options = CertOptions(vector_states=5, generated_states=0, kind_states=0, smoke_seats=(2,), full_table_hands=0,
                          node=False)
    report = certify_file(BOTS / "good" / "seeded-random.js", options)
    assert report.verdict == "inconclusive", [r.to_json() for r in report.reasons]
    cuts = [r for r in report.reasons if r.category == "bound"]
    assert cuts and {r.code for r in cuts} == {"load"} and {r.severity for r in cuts} == {"inconclusive"}
    assert report.to_json()["cuts"]["timeBudgetS"] is None
    assert report.battery["stopped"]["reason"] == "load" and report.tournaments[0]["cut"]["reason"] == "load"
    for r in cuts:
        assert "too loaded" in r.message and "had not used its CPU-time budget" in r.message


def test_the_cpu_clock_counts_the_certification_s_threads_and_workers_only():
    def burn(seconds: float) -> None:
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass

    cpu = bounds.CpuClock()
    burn(0.1)  # not counting: not the certification's work
    with cpu.counting():
        burn(0.2)
        with cpu.excluding():  # re-timing's parent side
            burn(0.2)
    cpu.add(300)  # a worker's report, in ms
    assert 0.45 < cpu() < 0.65
