"""Issue #24 item 4: one rule for refusals in every family (docs/INTERPRETING.md, Refusals).

Where the contract requires a refusal, any refusal passes and a missing or different error code is
a note; a refusal of what the contract accepts fails. Judged on the bundled engine whose errors
carry no code and no field, and on one whose codes and fields are its own, over every vector of
every family where a refusal is due (legality, hand, sng3v4 recoveries, the helpers' invalid input).
"""
from __future__ import annotations

import pytest

from conformance.judge.engine_cert import certify, load_tests
from conformance.judge.engine_drivers import QuickJSDriver
from conformance.judge.families import FAMILY_RULESET
from js_vector_runner import ENGINE_PATH

SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
FIELD, CODE = "    e.field = field;\n    return e;", "    e.code = code;\n"
ENGINES = {
    "no code": SOURCE.replace(FIELD, "    return e;").replace(CODE, ""),
    "own code": SOURCE.replace(FIELD, "    e.field = 'E_' + field;\n    return e;")
                      .replace(CODE, "    e.code = 'E_' + code.toUpperCase();\n"),
}


def refusal_due(family: str, test: dict) -> bool:
    expected = test["expected"] if isinstance(test["expected"], dict) else {}
    if family == "hand":
        return "Refused" in test.get("flags", [])
    if family == "sng3v4":
        return any(isinstance(s, dict) and "refused" in s for s in expected.get("steps", []))
    return test["result"] == "invalid" or "rejected" in expected or "error" in expected


def due(families: list[str]) -> dict[str, list[dict]]:
    return {f: [t for t in ts if refusal_due(f, t)] for f, ts in load_tests(families).items()}


def test_the_mutations_apply():
    for name, source in ENGINES.items():
        assert source.count("e.field = field") == 0 and source.count("e.code = code;") == 0, name


@pytest.mark.parametrize("name", sorted(ENGINES))
@pytest.mark.parametrize("families", [["legality", "hand", "deck", "evaluate", "equity"], ["sng3v4"]],
                         ids=["contract-v1", "holdem-sng-3-v4"])
def test_any_refusal_passes_where_one_is_due_and_its_code_is_a_note(name, families):
    tests = due(families)
    assert all(tests.values()), {f: len(t) for f, t in tests.items()}
    ruleset = FAMILY_RULESET.get(families[0], "contract-v1")
    report = certify(QuickJSDriver(ENGINES[name], engine_name=f"{name}.js"), tests, {}, ruleset=ruleset)
    assert report.ok, report.verdict
    for family, counts in report.counts().items():
        assert counts["failed"] == counts["skipped"] == 0 and counts["passed"] == len(tests[family]), (family, counts)
    noted = {c.group for c in report.cases for n in c.notes if "any refusal passes: reported, not failed" in n}
    # The families whose vectors give a code (or a field) note it; the helpers' give none.
    assert noted == {"legality", "hand"} & set(families) or noted == {"sng3v4"} & set(families), noted
    for c in report.cases:
        if c.group in ("legality", "hand") and c.notes:
            word = "refused without error.code" if name == "no code" else 'error.code is "E_'
            assert any(word in n for n in c.notes), c.notes


def test_a_refusal_of_what_the_contract_accepts_fails():
    """An engine refusing 'allin' given as a string (the contract accepts it) fails in every family
    that answers so (the smoke tier does not)."""
    source = SOURCE.replace("if (STRING_FORMS.indexOf(answer) >= 0) return { kind: answer, amount: null };",
                            "if (answer === 'allin') throw illegal('action', 'no strings', 'malformed');\n"
                            "    if (STRING_FORMS.indexOf(answer) >= 0) return { kind: answer, amount: null };")
    assert source != SOURCE
    tests = {f: [t for t in ts if "'allin'" in str(t["input"]) and not refusal_due(f, t)][:5]
             for f, ts in load_tests(["legality", "hand"]).items()}
    assert all(tests.values())
    report = certify(QuickJSDriver(source, engine_name="refuses-call.js"), tests, {})
    for family, counts in report.counts().items():
        assert counts["failed"] > 0, (family, counts)


# Takes whatever it is given (R38's other reading): where the engine refuses, pots of nothing, a
# fixed valid game, a fixed hand.
ACCEPTING = """var inner = PokerEngine;
function taking(call, instead) {
  return function () { try { return call.apply(null, arguments); } catch (e) { return instead(); } };
}
PokerEngine = Object.assign({}, inner, {
  buildPots: taking(inner.buildPots, function () { return []; }),
  create: taking(inner.create, function () { return inner.create(['A', 'B', 'C'], {seed: 1, maxHands: 2}); }),
  createHand: taking(inner.createHand, function () {
    return inner.createHand({ids: ['s1', 's2'], stacks: [100, 100], button: 0, smallBlindSeat: 0, bigBlindSeat: 1,
                             blinds: [5, 10], deck: ['Ah']});
  }),
});
"""


def test_invalid_engine_api_input_must_be_refused_and_taking_it_is_divergent_on_r38():
    tests = {f: [t for t in ts if "error" in t["expected"]] for f, ts in load_tests(["pots", "tournaments", "hand"]).items()}
    assert all(len(t) >= 10 for t in tests.values()), {f: len(t) for f, t in tests.items()}
    refused = certify(QuickJSDriver(SOURCE, engine_name=ENGINE_PATH.name), tests, {})
    assert all(c.status == "passed" and not c.notes for c in refused.cases), [(c.id, c.status, c.notes) for c in refused.cases
                                                                            if c.status != "passed" or c.notes]
    taken = certify(QuickJSDriver(SOURCE, engine_name="accepting.js", adapter_source=ACCEPTING), tests, {})
    # R38's input: divergent for the taking (the games taken keep every invariant); input the
    # ruleset's own text rules out (v4's distinct identities) fails with that clause.
    ruled_out = {t["id"]: t["expected"]["breaks"] for ts in tests.values() for t in ts if t["result"] != "acceptable"}
    assert list(ruled_out) == ["tournaments.error.v4-repeated-identity"]
    assert {(c.status, tuple(c.rulings)) for c in taken.cases if c.id not in ruled_out} == {("divergent", ("R38",))}
    assert {c.id: (c.status, c.breaks) for c in taken.cases if c.id in ruled_out} == {
        test_id: ("failed", clause) for test_id, clause in ruled_out.items()}
    assert len(taken.cases) == sum(len(t) for t in tests.values())
