"""Input the engine API refuses, taken (R38: docs/rulings.md), siblings judged by one rule and the
suite's own errors (issue #38 item 4, issue #36 item 3).

- Taking invalid input is divergent on R38 for the taking alone; the game then played is judged by
  the rules every game keeps (conformance/judge/invariants.py): a duplicate card dealt twice fails
  with ``rules.deck-distinct``. Input the ruleset's text rules out (v4's distinct identities) fails.
- Sibling vectors are judged by one rule: every numeric-string seed rests on R1 ("9" as "42"), null
  on nothing; every taken malformed contribution is judged alike (the fractional one too).
- A crash of the suite's own driver or strategies is a suite error: never the engine's failure.
"""
import copy
import json
import random
import shutil

import pytest
from hypothesis import given, settings, strategies as st

from conformance.judge import invariants
from conformance.judge.engine_cert import certify, conclude
from conformance.judge.engine_drivers import QuickJSDriver, Run
from conformance.judge.family_judges import judge
from conformance.judge.verdicts import Case, Report
from conformance.report import formats, html, repro
from conformance.vectors import fresh_vectors, library
from conformance.vectors.generators import rng as rng_family
from conformance.host.jsvalue import decode
from js_vector_runner import ENGINE_PATH
from mutants.mutants import TAKEN_MUTANTS
from reference.adapter import run_hand, run_tournaments
from reference.cards import CANONICAL_DECK
from reference.rng import is_numeric_string, rng

SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
V4 = "holdem-sng-3-v4"


def mutant(name: str) -> str:
    find, replace = TAKEN_MUTANTS[name]
    assert SOURCE.count(find) == 1, name
    return SOURCE.replace(find, replace)


def vector(family: str, test_id: str) -> dict:
    return next(t for t in library.load(family)["tests"] if t["id"] == test_id)


def error_vectors(family: str) -> list[dict]:
    return [t for t in library.load(family)["tests"] if "error" in t["expected"]]


def run_on(source: str, tests: dict[str, list[dict]], ruleset: str = "contract-v1") -> dict[str, Case]:
    report = certify(QuickJSDriver(source, engine_name="mutant.js"), tests, {}, ruleset=ruleset)
    assert all(c.status == "passed" for c in report.smoke), [c.message for c in report.smoke]
    return {c.id: c for c in report.cases}


# ---- R38 covers the acceptance only ------------------------------------------------------------------

def test_the_duplicate_card_engine_fails_naming_the_deck_clause_and_is_divergent_only_for_taking_it():
    cases = run_on(mutant("deck-duplicate-taken"),
                   {"hand": error_vectors("hand"), "tournaments": error_vectors("tournaments")})
    for test_id in ("tournaments.error.deck-duplicate-card", "hand.error.deck-duplicate-card"):
        case = cases[test_id]
        assert case.status == "failed" and case.breaks == "rules.deck-distinct", (test_id, case.status, case.message)
        assert "Ah is dealt twice" in case.message and "which alone is divergent on R38" in case.message, case.message
    # Everything else it refuses, as the bundled engine does.
    others = {i: c.status for i, c in cases.items() if not i.endswith(".deck-duplicate-card")}
    assert set(others.values()) == {"passed"}, others


def test_the_bundled_engine_refuses_every_invalid_spec():
    cases = run_on(SOURCE, {"hand": error_vectors("hand"), "tournaments": error_vectors("tournaments")})
    assert {c.status for c in cases.values()} == {"passed"}, {i: c.message for i, c in cases.items() if c.status != "passed"}


def test_a_v4_engine_taking_repeated_identities_fails_in_both_profiles():
    cases = run_on(mutant("v4-repeated-identity-taken"), {"tournaments": error_vectors("tournaments")})
    case = cases["tournaments.error.v4-repeated-identity"]
    assert case.status == "failed" and case.breaks == "rules.distinct-identities", case.message
    cases = run_on(mutant("v4-repeated-identity-taken"), {"sng3v4": error_vectors("sng3v4")}, ruleset=V4)
    case = cases["sng3v4.error.repeated-identity"]
    assert case.status == "failed" and case.breaks == "rules.distinct-identities", case.message
    assert run_on(SOURCE, {"sng3v4": error_vectors("sng3v4")}, ruleset=V4)["sng3v4.error.repeated-identity"].status == "passed"


def test_the_sng3v4_error_vector_is_ruled_out_by_the_text_not_by_r38():
    test = vector("sng3v4", "sng3v4.error.repeated-identity")
    assert test["result"] == "invalid" and test["rulings"] == [] and "rules.distinct-identities" in test["clauses"]
    assert test["expected"]["breaks"] == "rules.distinct-identities"
    # An engine without the ruleset refuses create naming it: skipped, like every other sng3v4 game.
    refused = Run("result", {"error": {"at": "create", "message": "unknown ruleset", "field": "ruleset"}})
    assert judge("sng3v4", test, refused).status == "skipped"


def test_the_ten_seat_game_the_engine_plays_to_its_end_is_divergent_on_r38():
    cases = run_on(mutant("ten-seats-taken"), {"tournaments": [vector("tournaments", "tournaments.error.ten-seats")]})
    case = cases["tournaments.error.ten-seats"]
    assert case.status == "divergent" and case.rulings == ["R38"], (case.status, case.message)


# ---- the suite's own errors ------------------------------------------------------------------------

def test_a_driver_crash_is_a_suite_error_never_the_engine_s_failure(tmp_path):
    """The ten-seat game with a strategy for three seats only (as the vector once was): the driver
    cannot answer seat 3 of the engine's own state. A suite error, in terminal, JSON and JUnit."""
    short = copy.deepcopy(vector("tournaments", "tournaments.error.ten-seats"))
    short["input"]["strategies"] = ["caller"] * 3
    report = certify(QuickJSDriver(mutant("ten-seats-taken"), engine_name="mutant.js"), {"tournaments": [short]}, {})
    case, = report.cases
    assert case.status == "error" and "no strategy for seat 3" in case.message, (case.status, case.message)
    assert report.counts()["tournaments"]["failed"] == 0 and not report.certified and not report.ok
    assert report.verdict.startswith("FAILURES") is False and "suite error" in report.verdict, report.verdict
    as_json = formats.to_json(report)
    assert as_json["failures"] == [] and [e["id"] for e in as_json["suiteErrors"]] == [short["id"]]
    junit = formats.to_junit(report)
    assert junit.get("errors") == "1" and junit.get("failures") == "0"
    assert junit.find(".//testcase/error").get("type") == "suite-error"
    text = tmp_path / "out.txt"
    with text.open("w") as out:
        formats.print_summary(report, out, describe_subject=lambda s: "mutant.js")
    assert "SUITE ERROR tournaments.error.ten-seats" in text.read_text() and "FAILED" not in text.read_text()
    page = html._engine(as_json)
    assert "Suite errors (1)" in page and "no strategy for seat 3" in page and "Failures (" not in page


def test_a_run_whose_only_problem_is_a_suite_error_is_incomplete_not_failed():
    report = Report("t", "engine", {}, ["rng", "deck", "evaluate", "equity", "pots"])
    report.cases = [Case("rng.zero", "rng", "passed"), Case("deck.x", "deck", "passed"), Case("evaluate.x", "evaluate", "passed"),
                    Case("equity.x", "equity", "passed"), Case("pots.x", "pots", "error", message="suite error: x")]
    conclude(report, ["helpers"])
    assert report.profiles["helpers"]["verdict"] == "incomplete" and report.profiles["helpers"]["error"] == 1
    assert report.verdict.startswith("INCOMPLETE") and not report.certified and "not the engine's failure" in report.verdict
    report.cases[0].status = "failed"
    conclude(report, ["helpers"])
    assert report.profiles["helpers"]["verdict"] == "not certified" and report.verdict.startswith("NOT CERTIFIED")


# ---- siblings judged by one rule --------------------------------------------------------------------

def test_every_numeric_string_seed_rests_on_r1_and_null_on_nothing():
    tests = {t["id"]: t for t in library.load("rng")["tests"]}
    for slug in ("numeric-string-42", "numeric-string-9", "true", "false"):
        assert tests[f"rng.{slug}"]["result"] == "acceptable" and tests[f"rng.{slug}"]["rulings"] == ["R1"], slug
    for slug in ("null", "empty", "abc", "nan"):
        assert tests[f"rng.{slug}"]["result"] == "valid" and tests[f"rng.{slug}"]["rulings"] == [], slug
    for test in tests.values():
        assert test["flags"] == [rng_family.seed_flag(decode(test["input"]["seed"]))], test["id"]


def test_9_and_42_are_judged_alike_and_null_and_empty_taken_as_numbers_fail():
    def as_number(value) -> dict:
        stream = rng(value)
        return {"values": [stream() for _ in range(rng_family.OUTPUTS)]}
    for slug, number in (("numeric-string-42", 42), ("numeric-string-9", 9)):
        assert judge("rng", vector("rng", f"rng.{slug}"), Run("result", as_number(number))).status == "divergent", slug
    assert judge("rng", vector("rng", "rng.true"), Run("result", as_number(1))).status == "divergent"
    for slug in ("null", "empty"):  # Number(null) and Number("") are 0: no option of R1 reads them so
        assert judge("rng", vector("rng", f"rng.{slug}"), Run("result", as_number(0))).status == "failed", slug


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_fresh_rng_vectors_are_flagged_by_the_seed_as_the_golden_ones(seed):
    for test in fresh_vectors._rng(random.Random(seed), 6):
        value = decode(test["input"]["seed"])
        assert test["flags"] == [rng_family.seed_flag(value)]
        assert (test["rulings"] == ["R1"]) == (isinstance(value, str) and is_numeric_string(value))


def test_a_fresh_string_seed_like_9_rests_on_r1():
    assert rng_family.seed_test("", "9")["rulings"] == ["R1"] == rng_family.seed_test("", " 42 ")["rulings"]
    assert rng_family.seed_test("", "")["rulings"] == [] == rng_family.seed_test("", "9a")["rulings"]


def test_every_taken_malformed_contribution_is_judged_alike():
    cases = run_on(mutant("pots-committed-unchecked"), {"pots": error_vectors("pots")})
    taken = {i: c.status for i, c in cases.items() if c.status != "passed"}
    assert "pots.error.fractional-committed" in taken and set(taken.values()) == {"divergent"}, \
        {i: cases[i].message for i in taken}
    assert set(taken) == {"pots.error.fractional-committed", "pots.error.negative-committed",
                          "pots.error.string-committed", "pots.error.boolean-committed"}


# ---- the invariants --------------------------------------------------------------------------------

@pytest.mark.parametrize("test_id", [t["id"] for t in library.load("tournaments")["tests"] if "error" not in t["expected"]][:6])
def test_the_reference_keeps_every_invariant_and_a_card_dealt_twice_or_a_chip_made_breaks_one(test_id):
    out = run_tournaments(vector("tournaments", test_id)["input"])
    assert invariants.broken(out) == []
    twice = copy.deepcopy(out)
    first = twice["decisions"][0]
    twice["decisions"][1]["you"]["cards"] = [first["you"]["cards"][0], "2c" if first["you"]["cards"][0] != "2c" else "3c"]
    if twice["decisions"][1]["you"]["id"] != first["you"]["id"] and twice["decisions"][1]["handNumber"] == first["handNumber"]:
        broken = invariants.broken(twice)
        assert broken and broken[0].clause == "rules.deck-distinct" and "is dealt twice" in broken[0].message
    made = copy.deepcopy(out)
    made["decisions"][-1]["seats"][0]["stack"] += 1
    assert [b.clause for b in invariants.broken(made)] == ["rules.chips-conserved"]


def test_a_lone_hand_result_is_judged_too():
    test = next(t for t in library.load("hand")["tests"] if "error" not in t["expected"] and t["input"]["script"])
    out = run_hand(test["input"])
    assert invariants.broken(out) == []
    out["result"]["chips"][0] += 5
    assert [b.clause for b in invariants.broken(out)] == ["rules.chips-conserved"]
    out = run_hand(test["input"])
    unseen = [c for c in CANONICAL_DECK if f'"{c}"' not in json.dumps(out)]
    out["decisions"][0]["board"] = [unseen[0], unseen[0], unseen[1]]
    assert f"{unseen[0]} twice in the board" in invariants.broken(out)[0].message


@pytest.mark.parametrize("name,families,ruleset", [("deck-duplicate-taken", ["tournaments", "hand"], "contract-v1"),
                                                   ("v4-repeated-identity-taken", ["tournaments"], "contract-v1"),
                                                   ("v4-repeated-identity-taken", ["sng3v4"], V4)])
def test_a_taken_input_s_reproduction_exits_1_on_the_engine_and_0_on_the_bundled_one(tmp_path, name, families, ruleset):
    """The reproduction of a failure on taken input (repro_check.js: a create call that throws is a refusal)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the reproductions are not run")
    engine = tmp_path / "mutant.js"
    engine.write_text(mutant(name), encoding="utf-8")
    tests = {f: error_vectors(f) for f in families}
    report = certify(QuickJSDriver(engine.read_text(encoding="utf-8"), engine_name="mutant.js"), tests, {}, ruleset=ruleset)
    repro.attach(report, {"driver": "quickjs", "source": str(engine)}, tests)
    failed = report.with_status("failed")
    assert failed and all(c.repro for c in failed), [c.id for c in failed]
    scripts, want = [], []
    for k, case in enumerate(failed):
        for which, files, code in (("mutant", [str(engine)], 1), ("bundled", [str(ENGINE_PATH)], 0)):
            path = tmp_path / f"{k}.{which}.js"
            path.write_text(case.repro["script"].replace(json.dumps([str(engine)]), json.dumps(files)), encoding="utf-8")
            scripts.append(path)
            want.append((case.id, which, code))
    lies = [(w, r["stdout"][-300:]) for w, r in zip(want, repro.run_batch(node, scripts)) if r["exit"] != w[2]]
    assert not lies, lies


def test_an_engine_cannot_report_a_suite_error_of_its_own():
    """Only the suite's JavaScript driver reports suite errors (Run kind "suite-error"); a result an
    engine over --cmd sends with a ``suiteError`` key is judged as any other result."""
    test = vector("tournaments", "tournaments.error.deck-duplicate-card")
    forged = {"suiteError": {"at": "decision 0", "message": "not mine"}, "decisions": [], "log": [], "standings": []}
    assert judge("tournaments", test, Run("result", forged)).status == "divergent"
    assert judge("tournaments", test, Run("suite-error", "at decision 3: no strategy")).status == "error"


def test_certify_s_engine_line_says_incomplete_and_names_the_suite_errors():
    from conformance.cli.certify import _engine_verdict
    report = Report("t", "engine", {}, ["rng"])
    report.cases = [Case("rng.zero", "rng", "passed"), Case("rng.one", "rng", "error", message="suite error: x")]
    line = _engine_verdict(report)
    assert line.startswith("engine: incomplete (") and "1 suite error" in line and line.endswith("suite errors: rng.one")
    assert "failed:" not in line


# The engine's state names a seat the vector's game does not have (its own state lists eight): the
# engine's failure, not the suite's.
SEAT_SEVEN = """var inner = PokerEngine;
PokerEngine = Object.assign({}, inner, {create: function (seats, options) {
  var g = inner.create(seats, options), h = Object.create(g);  // the game is frozen: a new face on it
  Object.defineProperty(h, 'state', {value: function () {
    var s = g.state();  // eight seats in its own state, the eighth to act: still no seat of the vector's game
    if (s !== null) { while (s.seats.length < 8) s.seats.push(Object.assign({}, s.seats[0])); s.you.seat = 7; }
    return s;
  }});
  return h;
}});
"""


def test_a_seat_the_game_lacks_is_the_engine_s_failure_and_a_missing_strategy_the_suite_s():
    test = vector("tournaments", "tournaments.three-callers-cap")
    report = certify(QuickJSDriver(SOURCE, engine_name="seat-seven.js", adapter_source=SEAT_SEVEN), {"tournaments": [test]}, {})
    assert [c.status for c in report.cases] == ["failed"], [c.message for c in report.cases]
    short = copy.deepcopy(test)
    short["input"]["strategies"] = short["input"]["strategies"][:1]  # none for seats 1 and 2 of its three
    case, = certify(QuickJSDriver(SOURCE, engine_name="bundled.js"), {"tournaments": [short]}, {}).cases
    assert case.status == "error" and "no strategy for seat" in case.message, (case.status, case.message)
