"""Every bug of an engine in one run, each under its root cause (issue #38): the judge follows the
engine's own state through every transition (conformance/judge/following.py), so a defect at
decision 0 of every hand hides nothing after it, and each difference is classified by what differs.

The engines are the bundled JS engine with textual patches (as tests/mutants)."""
from conformance.judge import causes
from mutants.mutants import MUTANTS
from test_judge_causes import engine, run

# pokerkit's first defect (issue #38): the minimum raise shown as the big blind plus the small blind
# (a raise step of the small blind), in every hand's state where raising is open: decision 0 of every hand.
MIN_RAISE_BY_SMALL_BLIND = ("      minRaiseTo: legal.minRaiseTo,\n",
                            "      minRaiseTo: legal.minRaiseTo === null ? null : legal.currentBet + hand.sb,\n")


def _patch(name: str) -> tuple:
    m = next(m for m in MUTANTS if m["name"] == name)
    return m["find"], m["replace"]


def test_a_decision_0_defect_in_every_hand_hides_none_of_three_later_ones():
    source = engine(MIN_RAISE_BY_SMALL_BLIND, _patch("refund-counted-as-award"), _patch("wheel-not-a-straight"),
                    _patch("short-all-in-reopens"))
    report = run(source, ["hand"])
    found = causes.group(report.cases)
    assert sorted(c.breaks for c in found) == ["rules.short-allin", "rules.wheel", "state.history-winners",
                                              "state.min-raise-to"], [c.title() for c in found]
    first = next(c for c in found if c.breaks == "state.min-raise-to")
    assert first.example["first"]["decision"] == 0 and first.kind == "less than due"
    # every later cause shows where its own failure is, not the vector's decision-0 difference
    for cause in found:
        if cause is not first:
            assert cause.example["first"]["clause"] == cause.breaks
            assert cause.example["message"].startswith(("at ", "first divergence")) and cause.breaks in cause.example["message"]


def test_refunds_that_shift_the_winners_list_break_history_winners_in_every_family():
    source = engine(_patch("refund-counted-as-award"))
    report = run(source, ["hand", "hands", "tournaments"])
    found = causes.group(report.cases)
    assert found and {c.breaks for c in found} == {"state.history-winners"}, [c.title() for c in found]
    assert {c.group for c in report.cases if c.status == "failed"} == {"hand", "hands", "tournaments"}
