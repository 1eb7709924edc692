"""Verdicts follow the contract's text (issue #24, items 1 and 3), on small mutants of the bundled
JS engine (tests/mutants' way: one exact snippet replaced).

Item 1: an option the contract's text rules out (docs/rulings.md, Audit of the alternatives) is no
divergence: an engine taking it fails with the clause the text states, and the report names the
option that reproduces it as a diagnosis. Item 3: the alternatives an engine is proven to follow are
used for every family, sng3v4 and fuzz games included, and an engine that follows one option in one
vector and another elsewhere is told so.
"""
import json
import shutil

import pytest

from conformance.judge import causes, fuzz
from conformance.judge.engine_cert import certify, load_tests
from conformance.judge.engine_drivers import QuickJSDriver
from conformance.judge.proof import EngineChoices
from conformance.report import repro
from conformance.vectors import ruling_lint
from js_vector_runner import ENGINE_PATH

SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
CHECKER_REOPENED = ("this.lastFullRaise) return true;\n      return false;",
                    "this.lastFullRaise) return true;\n      return last === 0 && this.currentBet > 0;")
R3_BACK = ("    draw() { return this.deck[this.pos++]; }", "    draw() { return this.deck[51 - this.pos++]; }")
TRANSITION = "if (this.prevCount >= 3 && this.rules.headsUp === 'big-blind-advances') {"
R16_BUTTON_ADVANCES = (TRANSITION, "if (false) {")  # no heads-up transition: v1's text rules it out
OUT_SEAT = "seat.folded = true; seat.allIn = false; seat.out = true;"
# R15's alternative folded-and-all-in in three-seat games only, the default (folded) elsewhere.
R15_IN_THREE_SEAT_GAMES = (OUT_SEAT, OUT_SEAT.replace("seat.allIn = false;", "seat.allIn = hand.n === 3;"))
GAME_FAMILIES = ("legality", "hands", "hand", "tournaments")
FUZZ = fuzz.FuzzPlan(1, games=5)  # seed 1's game 2 ends sooner under R3 back and shows R16


def engine(patch: tuple) -> QuickJSDriver:
    assert SOURCE.count(patch[0]) == 1
    return QuickJSDriver(SOURCE.replace(*patch), engine_name="mutant.js")


def run(patch: tuple, families, ruleset: str = "contract-v1", fuzz_plan=None, keep=None):
    tests = load_tests(families)
    if keep:
        tests = {f: [t for t in ts if t["id"] in keep] or ts for f, ts in tests.items()}
    return certify(engine(patch), tests, {}, ruleset=ruleset, fuzz_plan=fuzz_plan)


@pytest.fixture(scope="module")
def r3_back():
    v1 = run(R3_BACK, GAME_FAMILIES, fuzz_plan=FUZZ)
    v4 = run(R3_BACK, ["sng3v4"], "holdem-sng-3-v4", keep={"sng3v4.three-timeouts-auto-fold", "sng3v4.v4-words",
                                                           "sng3v4.reveal-board-completes-the-straight"})
    return v1, v4


@pytest.fixture(scope="module")
def r16_button_advances():
    v1 = run(R16_BUTTON_ADVANCES, ["hands", "tournaments"], fuzz_plan=FUZZ)
    v4 = run(R16_BUTTON_ADVANCES, ["sng3v4"], "holdem-sng-3-v4", keep={"sng3v4.shovers-to-the-end"})
    return v1, v4


def test_a_checker_reopening_engine_fails_naming_the_checker_convention():
    report = run(CHECKER_REOPENED, ["hands"])
    failed = [c for c in report.cases if c.status == "failed"]
    assert failed and not [c for c in report.cases if c.status == "divergent"]
    case = next(c for c in failed if c.id == "hands.checker-not-reopened-by-short-opening")
    assert case.breaks == "rules.checker-convention" and case.first["clause"] == "rules.checker-convention"
    assert case.diagnosis == {"R9": "checker-reopened"}
    assert "the reference under R9 = 'checker-reopened' reproduces every step: a diagnosis, not an excuse" in case.message
    assert "does not reopen a checker facing only a short opening all-in" in case.message  # the text's own words
    assert "follows R9" not in report.verdict and not report.ok
    # its root cause names the alternative that reproduces it (issue #23, item 3), as a diagnosis
    cause = next(c for c in causes.group(report.cases) if "hands.checker-not-reopened-by-short-opening" in c.vectors)
    assert cause.breaks == "rules.checker-convention" and cause.alternative == {"R9": "checker-reopened"}
    assert "R9 = checker-reopened reproduces it: a diagnosis, not an excuse" in cause.title()


def by_family(report) -> dict:
    out = {}
    for c in report.cases:
        out.setdefault(c.group, []).append(c)
    return out


def test_an_r3_back_engine_is_divergent_in_every_family_fuzz_and_sng3v4_included(r3_back):
    for report in r3_back:
        assert report.ok, [(c.id, c.message) for c in report.cases if c.status == "failed"][:3]
        groups = by_family(report)
        for family, cases in groups.items():
            divergent = [c for c in cases if c.status == "divergent"]
            assert divergent and all(c.alternative == {"R3": "back"} for c in divergent), family
        assert "follows R3 = back" in report.verdict
    # every fuzz row too: the tournament's games and the hand profile's random hands (issue #36)
    assert set(by_family(r3_back[0])) == set(GAME_FAMILIES) | {"fuzz", "hand-fuzz"} \
        and set(by_family(r3_back[1])) == {"sng3v4"}
    # A fuzz game that the engine's dealing ends sooner (both games end at the same step) is
    # judged on its end, not failed for the steps it could not play.
    assert next(c for c in r3_back[0].cases if c.id == "hands.fuzz.1.2").status == "divergent"


def test_an_r16_button_advances_engine_fails_naming_the_heads_up_transition(r16_button_advances, tmp_path):
    """Contract v1's text decides the heads-up transition ("On the transition to heads-up, the big
    blind advances from the previous big blind and the other survivor becomes the button"): an
    engine with no transition fails with that clause wherever it shows, tournaments and fuzz games
    alike, and the failure names R16 = button-advances as the option that reproduces it."""
    v1, v4 = r16_button_advances
    assert not v1.ok and not v1.with_status("divergent") and "follows R16" not in v1.verdict
    groups = by_family(v1)
    for family in ("tournaments", "fuzz"):
        failed = [c for c in groups[family] if c.status == "failed"]
        assert failed, family
        for case in failed:
            assert case.breaks == "rules.heads-up-transition" == case.first["clause"], (case.id, case.message)
            assert case.diagnosis == {"R16": "button-advances"}, case.id
            assert "R16 = 'button-advances' reproduces" in case.message and "a diagnosis, not an excuse" in case.message
            assert "the other survivor becomes the button" in case.message  # the text's own words
    assert {c.status for c in groups["hands"]} == {"passed"}  # one hand each: no transition to show
    assert [c.id for c in groups["fuzz"] if c.status == "failed"] == ["hands.fuzz.1.2"]  # fuzzing stops there
    cause = next(c for c in causes.group(v1.cases) if "tournaments.levels-advance-and-stop" in c.vectors)
    assert cause.breaks == "rules.heads-up-transition" and cause.alternative == {"R16": "button-advances"}
    assert "R16 = button-advances reproduces it: a diagnosis, not an excuse" in cause.title()
    # holdem-sng-3-v4's text is this option (its default): nothing to prove there.
    assert v4.ok and {c.status for c in v4.cases} == {"passed"}
    # Each failure's reproduction (issue #24, item 6) exits 1 on this engine and 0 on the bundled one.
    node = shutil.which("node")
    if node is None:
        return
    engine = tmp_path / "mutant.js"
    engine.write_text(SOURCE.replace(*R16_BUTTON_ADVANCES), encoding="utf-8")
    repro.attach(v1, {"driver": "quickjs", "source": str(engine)}, load_tests(["hands", "tournaments"]))
    scripts, want = [], []
    for k, case in enumerate(v1.with_status("failed")):
        for name, path, code in (("mutant", engine, 1), ("bundled", ENGINE_PATH, 0)):
            scripts.append(tmp_path / f"{k}.{name}.js")
            scripts[-1].write_text(case.repro["script"].replace(json.dumps([str(engine)]), json.dumps([str(path)])),
                                   encoding="utf-8")
            want.append((case.id, name, code))
    assert not [(w, r["stdout"][-400:]) for w, r in zip(want, repro.run_batch(node, scripts)) if r["exit"] != w[2]]


def test_an_engine_mixing_options_is_told_so():
    report = run(R15_IN_THREE_SEAT_GAMES, ["tournaments"])
    cases = {c.id: c for c in report.cases}
    assert cases["tournaments.levels-advance-and-stop"].alternative == {"R15": "folded-and-all-in"}  # three seats
    seats = {t["id"]: len(t["input"]["game"]["seats"]) for t in load_tests(["tournaments"])["tournaments"]}
    told = [c for c in report.cases if any("inconsistent choices" in n for n in c.notes)]
    assert told and all(c.status == "passed" and seats[c.id] != 3 for c in told), [c.id for c in told]
    note = next(n for n in told[0].notes if "inconsistent choices" in n)
    # the note names the vector that first proved the choice (in the order the vectors were judged)
    proved = next(c.id for c in report.cases if c.alternative == {"R15": "folded-and-all-in"})
    assert seats[proved] == 3 and f"R15 = 'folded-and-all-in' in {proved}" in note and "the default" in note


def test_two_options_of_one_ruling_are_named_both():
    choices = EngineChoices()
    assert choices.record("hands.a", {"R13": "raw-layers"}) == []
    assert choices.record("hands.b", {"R13": "raw-layers", "R8": "full-big-blind"}) == []
    [note] = choices.record("hands.c", {"R13": "merged-pots"})
    assert "this vector follows R13 = 'merged-pots', hands.a follows R13 = 'raw-layers'" in note
    assert choices.profile() == {"R13": "raw-layers", "R8": "full-big-blind"}


# ---- item 2: the flags come from playing the alternatives ------------------------------------------

# One test each (the game families cost 20-30 s), on the worker that checks the family's fresh
# generation (tests/test_vectors.py), whose plays of the alternatives ruling_lint remembers.
@pytest.mark.parametrize("family", [pytest.param(f, marks=pytest.mark.xdist_group(f"vectors-{f}"))
                                    for f in ruling_lint.DERIVED])
def test_every_vector_names_the_rulings_its_result_depends_on(family):
    from conformance.vectors import library
    assert ruling_lint.problems(family, library.load(family)["tests"]) == [], family


@pytest.mark.parametrize("family", ["tournaments", "sng3v4"])
def test_the_lint_names_a_ruling_a_whole_game_leaves_out(family):
    """A game played to its end: the vector whose flags a ruling was derived into, without it."""
    from conformance.vectors import library
    test = next(t for t in library.load(family)["tests"] if any(f.startswith("RestsOnR") for f in t["flags"]))
    rid = next(f for f in test["flags"] if f.startswith("RestsOnR"))[len("RestsOn"):]
    problems = ruling_lint.problems(family, [{**test, "rulings": [r for r in test["rulings"] if r != rid]}])
    assert any(p.startswith(f"{test['id']}: the reference under {rid} = ") and p.endswith(f"does not name {rid}")
               for p in problems), problems


def test_the_lint_names_a_ruling_a_vector_leaves_out():
    from conformance.vectors import library, ruling_lint
    test = next(t for t in library.load("hands")["tests"] if t["id"] == "hands.short-big-blind")
    assert "R8" in test["rulings"] and ruling_lint.depends_on("hands", test)["R8"] == "full-big-blind"
    [problem] = ruling_lint.problems("hands", [{**test, "rulings": [r for r in test["rulings"] if r != "R8"]}])
    assert problem == ("hands.short-big-blind: the reference under R8 = 'full-big-blind' gives another result, "
                       "but the vector does not name R8")
    notes = {}
    derived = ruling_lint.derive("hands", {**test, "flags": [], "rulings": [], "result": "valid"}, notes)
    assert "R8" in derived["rulings"] and derived["result"] == "acceptable" and notes["RestsOnR8"]["ruling"] == "R8"


def test_what_only_a_ruling_decides_is_acceptable_on_it():
    """R2 says dealHand throws on a bad handNumber (the text says what a handNumber is); R1 reads a
    numeric string as a string: an engine choosing otherwise is divergent, not failed."""
    from conformance.judge.engine_drivers import Run
    from conformance.judge.family_judges import judge
    from conformance.vectors import library
    from reference.cards import CANONICAL_DECK
    bad = [t for t in library.load("deck")["tests"] if t["id"].startswith("deck.bad-hand-number.")]
    assert bad and all(t["result"] == "acceptable" and t["rulings"] == ["R2"] for t in bad)
    assert judge("deck", bad[0], Run("result", {"threw": {"message": "bad"}})).status == "passed"
    assert judge("deck", bad[0], Run("result", {"deck": list(CANONICAL_DECK)})).status == "divergent"
    assert judge("deck", bad[0], Run("result", {"deck": ["As"]})).status == "failed"
    numeric = next(t for t in library.load("rng")["tests"] if t["id"] == "rng.numeric-string-42")
    assert numeric["result"] == "acceptable" and numeric["rulings"] == ["R1"]
    as_number = next(t for t in library.load("rng")["tests"] if t["id"] == "rng.42")["expected"]["values"]
    assert judge("rng", numeric, Run("result", {"values": as_number})).status == "divergent"


def test_refused_input_rests_on_r38_alone_and_its_judging_can_fail():
    """Invalid engine-API input (R38): refused passes, taken is divergent, a malformed answer or a
    failure after taking it fails; the lint plays no ruling on it (an unknown ruleset included)."""
    from conformance.judge.engine_drivers import Run
    from conformance.judge.family_judges import judge
    from conformance.vectors import library, ruling_lint
    pots = next(t for t in library.load("pots")["tests"] if t["id"] == "pots.error.duplicate-id")
    assert pots["result"] == "acceptable" and pots["rulings"] == ["R38"]
    assert judge("pots", pots, Run("result", {"threw": {"message": "bad"}})).status == "passed"
    assert judge("pots", pots, Run("result", {"pots": [{"amount": 300, "eligible": ["s1"]}]})).status == "divergent"
    assert judge("pots", pots, Run("result", {"pots": "none"})).status == "failed"
    game = next(t for t in library.load("tournaments")["tests"] if t["id"] == "tournaments.error.unknown-ruleset")
    assert game["rulings"] == ["R38"] and ruling_lint.depends_on("tournaments", game) == {}
    refused = judge("tournaments", game, Run("result", {"error": {"at": "create", "message": "no", "field": "ruleset"}}))
    assert refused.status == "passed" and not refused.notes
    noted = judge("tournaments", game, Run("result", {"error": {"at": "create", "message": "no"}}))
    assert noted.status == "passed" and "refused without a field" in noted.notes[0]
    assert judge("tournaments", game, Run("result", {"decisions": [], "log": [], "standings": []})).status == "divergent"
    assert judge("tournaments", game, Run("result", {"error": {"at": "state() at decision 0", "message": "x"}})).status == "failed"
    spec = next(t for t in library.load("hand")["tests"] if t["id"] == "hand.error.unknown-field")
    assert judge("hand", spec, Run("result", {"error": {"at": "createHand", "message": "no", "field": "ante"}})).status == "passed"
    assert judge("hand", spec, Run("result", {"decisions": [], "actions": [], "over": False, "result": None})).status == "divergent"


def test_an_array_like_object_as_evaluate_s_cards_is_refused_and_evaluating_its_items_is_r40():
    """R40: `evaluate.error.array-like` expects a refusal; an engine evaluating the object's items (the
    bundled engine without its array test, docs/mutation.md) is divergent on R40, anything else fails."""
    from conformance.judge.engine_drivers import Run
    from conformance.judge.family_judges import judge
    from conformance.vectors import library
    from reference.evaluator import evaluate, evaluate_array_like
    from reference.rulings import RULINGS
    test = next(t for t in library.load("evaluate")["tests"] if t["id"] == "evaluate.error.array-like")
    assert test["result"] == "acceptable" and test["rulings"] == ["R40"] and RULINGS["R40"].default == "refuse"
    items = evaluate(["Ah", "Kd", "7c", "7s", "2h"])
    assert evaluate_array_like(test["input"]["cards"]) == items and items["name"] == "One pair"
    assert judge("evaluate", test, Run("result", {"threw": {"message": "not an array"}})).status == "passed"
    divergent = judge("evaluate", test, Run("result", {"result": items}))
    assert divergent.status == "divergent" and divergent.rulings == ["R40"]
    for wrong in (dict(items, value=items["value"] + 1), dict(items, best=["Ah", "Kd", "7c", "7s", "2c"]), None):
        assert judge("evaluate", test, Run("result", {"result": wrong})).status == "failed"


def test_equity_with_no_opponents_draws_nothing_r6_and_an_omitted_random_is_math_random_r41():
    """R6: no opponents, no call of random (counted by the runner); R41: random omitted is Math.random,
    a refusal is its other option. Both are what an engine drawing anyway, or refusing an omitted random,
    changes (docs/mutation.md), and the reference adapter plays them."""
    from conformance.judge.engine_drivers import Run
    from conformance.judge.family_judges import judge
    from conformance.vectors import library
    from reference.adapter import run_equity
    from reference.rulings import RULINGS
    tests = {t["id"]: t for t in library.load("equity")["tests"]}
    no_draw, omitted = tests["equity.no-opponents.no-draw"], tests["equity.no-opponents.random-omitted"]
    assert no_draw["rulings"] == ["R6"] and omitted["rulings"] == ["R41"] and RULINGS["R41"].default == "math-random"
    assert run_equity(no_draw["input"]) == {"equity": 1.0, "calls": 0} and run_equity(omitted["input"]) == {"equity": 1.0}
    assert judge("equity", no_draw, Run("result", {"equity": 1.0, "calls": 0})).status == "passed"
    drew = judge("equity", no_draw, Run("result", {"equity": 1.0, "calls": 3}))
    assert drew.status == "divergent" and drew.rulings == ["R6"]
    assert judge("equity", no_draw, Run("result", {"equity": 0.5, "calls": 0})).status == "failed"
    assert judge("equity", omitted, Run("result", {"equity": 1.0})).status == "passed"
    refused = judge("equity", omitted, Run("result", {"threw": {"name": "TypeError", "message": "random"}}))
    assert refused.status == "divergent" and refused.rulings == ["R41"]
    assert judge("equity", omitted, Run("result", {"equity": 0.0})).status == "failed"
    # A refusal with a random given is no R41 reading: it fails.
    assert judge("equity", no_draw, Run("result", {"threw": {"message": "no"}})).status == "failed"
