"""Fresh vectors (conformance/vectors/fresh_vectors.py): generated per run from a seed, in the golden format."""
import json
from pathlib import Path

import pytest

from conformance.judge.engine_cert import certify
from conformance.judge.engine_drivers import QuickJSDriver
from conformance.vectors import fresh_vectors, schemas
from conformance.vectors.library import FAMILIES, load, structural_problems
from conformance.vectors.vectorfile import document

ENGINE = Path(__file__).resolve().parent.parent / "reference" / "js" / "poker-engine.js"


def test_the_same_seed_gives_the_same_bytes_and_another_seed_other_tests():
    a, b, c = fresh_vectors.generate(7), fresh_vectors.generate(7), fresh_vectors.generate(8)
    assert json.dumps(a) == json.dumps(b)
    for family in fresh_vectors.FAMILIES:
        assert len(a[family]) == fresh_vectors.COUNTS[family]
        assert [t["input"] for t in a[family]] != [t["input"] for t in c[family]], family
        assert [t["id"] for t in a[family]] == [f"{family}.fresh.{k + 1}" for k in range(len(a[family]))]


def test_only_the_requested_families_are_generated():
    assert list(fresh_vectors.generate(7, ["pots", "rng", "hands"])) == ["rng", "pots"]


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1])
def test_fresh_tests_are_valid_vectors_of_their_family_and_new(seed):
    for family, tests in fresh_vectors.generate(seed).items():
        doc = document(family, FAMILIES[family].NOTES, tests)
        assert schemas.errors(f"vectors/{family}", doc) == [] and structural_problems(doc, family) == []
        golden = {json.dumps(t["input"], sort_keys=True) for t in load(family)["tests"]}
        assert not golden & {json.dumps(t["input"], sort_keys=True) for t in tests}, family


def test_rulings_are_flagged_as_in_the_golden_families():
    tests = fresh_vectors.generate(3)
    assert all(t["rulings"] == ["R2"] and t["result"] == "acceptable" for t in tests["deck"])
    values = [t for t in tests["evaluate"] if "value" in t["expected"]]
    assert values and all(t["rulings"] == ["R4"] for t in values)
    orders = [t for t in tests["evaluate"] if "order" in t["expected"]]
    assert orders and all(t["rulings"] == [] and t["result"] == "valid" for t in orders)
    assert [t["rulings"] for t in tests["equity"]] == [[], [], [], ["R6"]]


def test_the_seed_comes_from_the_bytes_given():
    assert fresh_vectors.seed_from(b"engine") == fresh_vectors.seed_from("engine")
    assert fresh_vectors.seed_from(b"engine", b"") != fresh_vectors.seed_from(b"engine")
    assert fresh_vectors.seed_from(b"ab", b"c") != fresh_vectors.seed_from(b"a", b"bc")
    assert 0 <= fresh_vectors.seed_from(b"x") < 2**32


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_the_bundled_javascript_engine_passes_fresh_tests(seed):
    """A differential check too: the JS engine against the Python reference on new inputs."""
    report = certify(QuickJSDriver(ENGINE.read_text(), engine_name="poker-engine.js"), fresh_vectors.generate(seed), {})
    assert report.ok, [(c.id, c.message) for c in report.cases if c.status != "passed"]
    assert {g: c["passed"] for g, c in report.counts().items()} == fresh_vectors.COUNTS


def test_statistical_equity_spots_have_no_rare_or_certain_outcome(monkeypatch):
    """The tolerance assumes a near-normal Monte Carlo sum: every outcome against the one opponent is
    impossible or expected at least MIN_EXPECTED_OUTCOMES times, and the share is not certain (a
    zero tolerance would fail a correct engine's rounding)."""
    # The one exact-stream vector per seed is not looked at here, and its expected stream (the
    # reference's Monte Carlo in Python) is most of the generation's time: the spots drawn do not
    # depend on it (it draws nothing from the generator's random source).
    monkeypatch.setattr(fresh_vectors.equity_family, "stream_expected", lambda *args: {})
    for seed in range(40):
        for test in fresh_vectors.generate(seed, ["equity"])["equity"]:
            if "Statistical" not in test["flags"]:
                continue
            expected, n = test["expected"], test["input"]["iterations"]
            assert test["input"]["opponents"] == 1 and expected["variance"] > 0 and expected["tolerance"] > 0
            probabilities = fresh_vectors._outcome_probabilities(expected)
            assert abs(sum(probabilities) - 1) < 1e-9
            assert all(p == 0 or p * n >= fresh_vectors.MIN_EXPECTED_OUTCOMES for p in probabilities), (seed, test)


def test_outcome_probabilities_match_a_count_of_opponent_hands():
    from itertools import combinations

    from reference.cards import CANONICAL_DECK
    from reference.equity import exact_equity
    from reference.evaluator import hand_value

    hole, board = ["Ah", "Kd"], ["Ac", "Kc", "7h", "7s", "2d"]
    ours = hand_value(hole + board)
    counts = [0, 0, 0]  # loss, tie, win
    rest = [c for c in CANONICAL_DECK if c not in hole + board]
    for a, b in combinations(rest, 2):
        theirs = hand_value([a, b] + board)
        counts[(theirs < ours) * 2 + (theirs == ours)] += 1
    got = fresh_vectors._outcome_probabilities(exact_equity(hole, board, 1))
    assert [round(p * sum(counts)) for p in got] == counts
