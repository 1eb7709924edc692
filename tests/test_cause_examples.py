"""The example a run's report shows for a root cause is its smallest (conformance/judge/causes.py's
contract, issue #23 item 3): the failure reached in the fewest decisions, whatever order the vectors
were judged in (issue #37 item 5: taking the first one seen went unnoticed). Written against the
JSON report and the terminal lines, not the grouping's internals."""
from __future__ import annotations

from hypothesis import given, strategies as st

from conformance.judge.verdicts import Case, Report
from conformance.report.formats import cause_lines, run_causes, to_json

# One cause (same clause, field and kind of difference) seen in vectors reached after these many
# decisions; each failure is its vector's first.
DECISIONS = {"hands.a": 9, "hands.b": 2, "hands.c": 5, "hands.d": 14}


def failed(cid: str, decision: int, clause: str = "rules.short-allin", expected: int | None = None) -> Case:
    return Case(id=cid, group="hands", status="failed", message=f"{cid} failed", failures=[
        {"hand": 1, "decision": decision, "path": "state.minRaiseTo", "expected": expected, "actual": 40,
         "clause": clause}])


def report_of(cases: list[Case]) -> Report:
    return Report(title="holdem-cert engine", subject_key="engine", subject={}, groups=["hands"], cases=cases)


@given(st.permutations(sorted(DECISIONS)))
def test_a_causes_example_is_its_smallest_whatever_the_order(order):
    report = report_of([failed(cid, DECISIONS[cid]) for cid in order])
    [cause] = to_json(report)["causes"]
    assert cause["count"] == len(DECISIONS)
    assert cause["example"]["vector"] == "hands.b" and cause["example"]["first"]["decision"] == 2
    lines = cause_lines(run_causes(report))
    assert any("smallest example hands.b (hand 1, decision 2)" in line for line in lines), lines


def test_each_cause_has_its_own_smallest_example():
    other = [failed(f"hands.x{d}", d, "rules.min-raise", expected=20) for d in (7, 3, 11)]  # more than due
    cases = [failed(cid, DECISIONS[cid]) for cid in sorted(DECISIONS)]
    causes = to_json(report_of([*other[:2], *cases, other[2]]))["causes"]
    shown = {c["example"]["vector"]: c["example"]["first"]["decision"] for c in causes}
    assert shown == {"hands.b": 2, "hands.x3": 3}


# ---- found by mutation testing of the judge's verdict modules (bench/README.md) ---------------------

def test_a_causes_example_shows_its_failure_in_full():
    [cause] = to_json(report_of([failed("hands.b", 2, expected=20)]))["causes"]
    assert cause["example"]["first"] == {"hand": 1, "decision": 2, "path": "state.minRaiseTo", "expected": 20,
                                         "actual": 40, "clause": "rules.short-allin"}


def test_a_failure_known_by_its_message_alone_is_a_cause_under_its_clause():
    """A failed vector of a family that is not a game (evaluate, equity...) has no recorded
    difference: its cause is its clause and its message's behaviour, without the vector's values."""
    cases = [Case(id=f"evaluate.{k}", group="evaluate", status="failed", breaks="helper.evaluate",
                  clauses=["helper.evaluate-errors", "helper.evaluate"],
                  message=f"evaluate([\"{card}\", \"Kd\"]) rank {k}, expected {k + 1}; the engine returned {k}")
             for k, card in ((3, "Ah"), (4, "2c"))]
    [cause] = to_json(Report(title="holdem-cert engine", subject_key="engine", subject={}, groups=["evaluate"],
                             cases=cases))["causes"]
    assert (cause["breaks"], cause["count"], cause["kind"]) == ("helper.evaluate", 2, "evaluate(…) another rank")


def test_a_dealing_difference_is_one_cause_of_the_deal_wherever_the_cards_were_seen():
    from conformance.judge.dealing import DEALT_OTHER_CARDS
    cases = [Case(id=f"hands.{k}", group="hands", status="failed", message="m", failures=[
        {"hand": 1, "decision": None, "path": path, "expected": ["Ah"], "actual": ["Kd"], "clause": "rules.deal-order",
         "kind": DEALT_OTHER_CARDS}]) for k, path in enumerate(("state.you.cards", "history()[0].board"))]
    [cause] = to_json(report_of(cases))["causes"]
    assert (cause["field"], cause["kind"], cause["count"]) == ("the deal", DEALT_OTHER_CARDS, 2)
