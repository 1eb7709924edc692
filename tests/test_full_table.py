"""Bot certification's full-length table (conformance/bots/full_table.py): nine copies of the bot, 300
hands, decision times per 50 hands, seat names drawn from the run's seed (issue #19)."""
from __future__ import annotations

from pathlib import Path

from conformance.bots.bot_cert import CertOptions, certify_file
from conformance.bots.full_table import SEATS, drawn_seats
from conformance.harness.runner import DecisionRecord, timing_by_hands

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "bots" / "hostile"
ONLY_THE_TABLE = dict(generated_states=0, vector_states=3, smoke_seats=(), decision_ms=300, init_ms=2000)


def test_seat_names_are_drawn_per_seed_and_are_no_fixture():
    seats = drawn_seats(7)
    assert seats == drawn_seats(7) and len({i for i, _ in seats}) == len({n for _, n in seats}) == SEATS
    assert seats != drawn_seats(8)
    assert not {n for _, n in seats} & {"Sample Caller", "Sample Tight", "Equity Bot", "Check Fold", "Candidate"}


def test_timing_by_hands_splits_decisions_by_hand_range():
    def record(i, hand, seat, wall, outcome="ok"):
        return DecisionRecord(index=i, hand_number=hand, street="preflop", seat=seat, id=f"s{seat + 1}",
                              state_hash="", outcome=outcome, answer=None, action={}, error=None, code=None,
                              detail="", violations=(), wall_ms=wall, cpu_ms=wall / 2)
    records = [record(0, 1, 0, 1.0), record(1, 50, 1, 3.0), record(2, 51, 0, 9.0), record(3, 120, 0, 5.0),
               record(4, 120, 0, 0.0, "dead")]
    ranges = timing_by_hands(records, None)
    assert [(r["hands"], r["decisions"], r["wallMax"]) for r in ranges] == [
        ("1-50", 2, 3.0), ("51-100", 1, 9.0), ("101-150", 1, 5.0)]
    assert [r["decisions"] for r in timing_by_hands(records, 0)] == [1, 1, 1]


def test_a_bot_late_only_from_hand_101_is_caught_by_the_full_table():
    report = certify_file(HOSTILE / "late-from-hand-100.js", CertOptions(**ONLY_THE_TABLE, full_table_hands=110))
    table = report.full_table
    assert report.verdict == "rejected" and table["hands"] == 110
    assert table["firstError"]["hand"] == 101 and "late/late" in table["errors"]
    assert [r["hands"] for r in table["timingByHands"]] == ["1-50", "51-100", "101-150"]
    assert {("full-table", "late")} <= {(r.category, r.code) for r in report.reasons if r.severity == "error"}
    assert len(table["terminated"]) == SEATS  # each copy's worker, at its first decision after hand 100


def test_a_bot_that_plays_only_against_fixture_names_fails_the_full_table():
    report = certify_file(HOSTILE / "fixture-names.js", CertOptions(**ONLY_THE_TABLE, full_table_hands=3))
    assert report.full_table["firstError"]["hand"] == 1 and "throwing/throw" in report.full_table["errors"]
    # an error, not a warning: the full table's errors reject the bot
    assert ("full-table", "throwing") in {(r.category, r.code) for r in report.reasons if r.severity == "error"}
    assert report.verdict == "rejected"
