"""build_pots: contribution layers, eligibility, merging (contract: pots; R7)."""
import pytest
from hypothesis import given, strategies as st

from reference.errors import PotsError
from reference.pots import build_pots


def c(pid, committed, folded=False):
    return {"id": pid, "committed": committed, "folded": folded}


def test_contract_example_blinds_only():
    assert build_pots([c("s1", 0), c("s2", 50), c("s3", 100)]) == [
        {"amount": 100, "eligible": ["s2", "s3"]},
        {"amount": 50, "eligible": ["s3"]},
    ]


def test_three_layers_with_a_folded_contributor():
    pots = build_pots([c("a", 100), c("b", 300), c("x", 250, folded=True), c("d", 600)])
    assert pots == [
        {"amount": 400, "eligible": ["a", "b", "d"]},  # 100 from each of four
        {"amount": 3 * 150 + 2 * 50, "eligible": ["b", "d"]},  # 100..250 (x folded in) and 250..300 merge
        {"amount": 300, "eligible": ["d"]},
    ]


def test_adjacent_layers_with_identical_eligibility_merge():
    # Levels 100 and 200: the folded seat's level cuts a layer but eligibility stays {a, b}.
    assert build_pots([c("a", 300), c("b", 300), c("f", 100, folded=True), c("g", 200, folded=True)]) == [
        {"amount": 900, "eligible": ["a", "b"]}
    ]


def test_layer_nobody_can_win_joins_the_layer_below():
    assert build_pots([c("a", 100), c("f", 500, folded=True)]) == [{"amount": 600, "eligible": ["a"]}]
    assert build_pots([c("f", 50, folded=True)]) == [{"amount": 50, "eligible": []}]


def test_no_contributions_no_pots():
    assert build_pots([]) == [] and build_pots([c("a", 0)]) == []


@pytest.mark.parametrize(
    "bad,field",
    [
        ("x", "contributions"),
        ([5], "contributions[0]"),
        ([{"id": "a", "committed": 1}], "contributions[0].folded"),
        ([c("a", -1)], "contributions[0].committed"),
        ([c("a", 1.5)], "contributions[0].committed"),
        ([c("a", True)], "contributions[0].committed"),
        ([c("", 1)], "contributions[0].id"),
        ([c("a", 1), c("a", 2)], "contributions[1].id"),
        ([{"id": "a", "committed": 1, "folded": "no"}], "contributions[0].folded"),
    ],
)
def test_bad_input_names_the_field(bad, field):
    with pytest.raises(PotsError) as exc:
        build_pots(bad)
    assert exc.value.field == field


@given(st.lists(st.tuples(st.integers(0, 1000), st.booleans()), min_size=1, max_size=9))
def test_pots_sum_to_commitments_and_eligibility_shrinks(entries):
    contributions = [c(f"s{i}", amount, folded) for i, (amount, folded) in enumerate(entries)]
    pots = build_pots(contributions)
    assert sum(p["amount"] for p in pots) == sum(a for a, _ in entries)
    for lower, upper in zip(pots, pots[1:]):
        assert lower["eligible"] != upper["eligible"]
        assert set(upper["eligible"]) <= set(lower["eligible"]) or not lower["eligible"]
    live = {f"s{i}" for i, (a, f) in enumerate(entries) if a > 0 and not f}
    assert set().union(*(p["eligible"] for p in pots)) == live if pots else not live
