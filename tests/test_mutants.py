"""The suite's power: every single-rule mutant of the bundled JS engine fails a golden vector.

Each mutant (tests/mutants/mutants.py) is the engine with one snippet replaced. The certifier
(``holdem-cert engine``'s API: its QuickJS driver, smoke tier and judges) runs the vector family the mutant
names and must judge at least one vector of it FAILED (a divergence on a ruling is not enough);
the unmutated engine is certified on every family the mutants name, for each ruleset whose games
they break (the holdem-sng-3-v4 mutants name the sng3v4 family).
"""
import json
import re

import pytest

from conformance.judge.engine_cert import certify, load_tests, start
from conformance.judge.families import FAMILIES, FAMILY_RULESET, RULESETS
from conformance.judge.engine_drivers import QuickJSDriver
from conformance.vectors.generators.sng3v4 import play
from js_vector_runner import ENGINE_PATH, JSEngine, _play_out, sng3v4_step
from mutants.mutants import DIVERGENT_MUTANTS, MUTANTS
from reference.rulings import profiles_to_try

SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
KEYS = ["name", "description", "family_expected_to_fail", "find", "replace"]
NAMED_FAMILIES = sorted({m["family_expected_to_fail"] for m in MUTANTS})


def mutate(mutant: dict) -> str:
    return SOURCE.replace(mutant["find"], mutant["replace"])


def test_mutant_specs_are_well_formed():
    assert len(MUTANTS) >= 15
    assert sum(m["family_expected_to_fail"] == "sng3v4" for m in MUTANTS) >= 2  # holdem-sng-3-v4 rules
    names = [m["name"] for m in MUTANTS]
    assert len(set(names)) == len(names)
    for m in MUTANTS:
        assert list(m) == KEYS, m["name"]
        assert re.fullmatch(r"[a-z0-9-]+", m["name"])
        assert m["family_expected_to_fail"] in FAMILIES, m["name"]
        assert SOURCE.count(m["find"]) == 1, f"{m['name']}: the find string must occur exactly once"
        assert m["replace"] != m["find"]
    assert len({mutate(m) for m in MUTANTS}) == len(MUTANTS)
    for m in DIVERGENT_MUTANTS:
        assert SOURCE.count(m["find"]) == 1 and m["family"] == "sng3v4", m["name"]


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_unmutated_engine_is_certified_on_every_named_family(ruleset):
    families = [f for f in NAMED_FAMILIES if f in RULESETS[ruleset]]
    report = certify(QuickJSDriver(SOURCE, engine_name=ENGINE_PATH.name), load_tests(families), {}, ruleset=ruleset)
    assert report.ok and report.partial and not report.certified, report.verdict  # a --family run (item 7)
    counts = report.counts()
    assert sorted(counts) == families
    for family, c in counts.items():
        assert c["passed"] > 0 and c["failed"] == c["divergent"] == c["skipped"] == 0, family


def first_failure(source: str, family: str, extra: list = ()):
    """The certifier's smoke tier, then ``extra`` tests and ``family``'s vectors up to the first one
    judged failed (a failed smoke check when the smoke tier already fails)."""
    driver = QuickJSDriver(source, engine_name="mutant.js")
    try:
        smoke, _, runner = start(driver, [family])
        if runner is None:
            return next(c for c in smoke if c.status == "failed")
        for test in list(extra) + load_tests([family])[family]:
            case = runner.vector(family, test)
            if case.status == "failed":
                return case
        return None
    finally:
        driver.close()


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m["name"] for m in MUTANTS])
def test_the_mutant_fails_a_vector_of_its_family(mutant):
    family = mutant["family_expected_to_fail"]
    case = first_failure(mutate(mutant), family)
    assert case is not None, f"{mutant['name']} survives the {family} family"
    assert case.group == family and case.id.startswith(f"{family}.")
    if mutant["name"].startswith("showdown-"):
        # Only the showdown vectors catch these: every hands vector before them passed.
        assert case.id.startswith("hands.showdown."), case.id


def js_sng3v4_outcome(engine: JSEngine, test: dict) -> dict:
    """What ``engine`` makes of an sng3v4 vector: step outcomes, log and standings."""
    inp = test["input"]
    game = engine.create({**inp["game"], "options": {**inp["game"]["options"], "ruleset": FAMILY_RULESET["sng3v4"]}})
    steps = [sng3v4_step(game, step) for step in inp["steps"]]
    _play_out(game, inp["strategies"])
    keys = ("id", "name", "place", "chips", "eliminatedInHand", "timeouts", "autoFolded")
    outcome = {"steps": steps, "log": game.log(), "standings": [{k: x[k] for k in keys} for x in game.standings()]}
    game.close()
    return outcome


@pytest.mark.parametrize("mutant", DIVERGENT_MUTANTS, ids=[m["name"] for m in DIVERGENT_MUTANTS])
def test_an_engine_taking_a_ruling_alternative_is_divergent_never_failed(mutant):
    source = SOURCE.replace(mutant["find"], mutant["replace"])
    family, ruleset = mutant["family"], FAMILY_RULESET[mutant["family"]]
    report = certify(QuickJSDriver(source, engine_name="mutant.js"), load_tests([family]), {}, ruleset=ruleset)
    counts = report.counts()[family]
    assert counts["failed"] == 0 and counts["divergent"] > 0, counts
    # The proof: where the engine differs, the reference under the ruling's alternative (the
    # profiles the judge tries for this ruleset) reproduces it exactly.
    alternatives = [dict(p) for p in profiles_to_try([mutant["ruling"]], ruleset=ruleset)]
    assert alternatives, f"{mutant['ruling']} has no alternative under {ruleset}"
    engine, differing = JSEngine(source), 0
    for test in load_tests([family])[family]:
        actual = json.dumps(js_sng3v4_outcome(engine, test))
        if actual == json.dumps(test["expected"]):
            continue
        differing += 1
        inp = test["input"]
        assert any(json.dumps(play({**inp["game"], "rulings": p}, inp["steps"], inp["strategies"])) == actual
                   for p in alternatives), test["id"]
    assert differing > 0
