"""Golden vectors: committed files are fresh, valid and well-formed; the checks catch tampering."""
import json
import shutil

import pytest

from conformance.cli.main import main
from conformance.vectors import schemas, library as vectors
from conformance.vectors.clauses import CLAUSES, NOT_BY_VECTOR
from conformance.vectors.generators import FAMILIES
from conformance.vectors.vectorfile import structural_problems
from reference.tournament import Tournament


@pytest.mark.parametrize("family", [pytest.param(f, marks=pytest.mark.xdist_group(f"vectors-{f}")) for f in FAMILIES])
def test_committed_vectors_match_a_fresh_generation_and_their_schemas(family):
    # One family per test, so that the two xdist workers share the generation (113 s as one test);
    # check() over every family is exactly these calls, and each call also reports unknown folders.
    # The group puts a family on the worker that lints its rulings (test_text_rulings), which then
    # reuses the alternatives generation played (ruling_lint.depends_on).
    assert vectors.check(families=[family]) == []


def test_regeneration_is_byte_identical():
    assert vectors.generate("pots") == vectors.generate("pots")
    assert vectors.generate("legality") == vectors.path_of("legality").read_text()


def test_vectors_stay_small():
    size = sum(p.stat().st_size for p in vectors.VECTOR_DIR.rglob("*.json"))
    assert size < 20 * 1024 * 1024


@pytest.fixture
def copy(tmp_path):
    root = tmp_path / "vectors"
    shutil.copytree(vectors.VECTOR_DIR, root)
    return root


def rewrite(root, family, change):
    path = vectors.path_of(family, root)
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def test_check_reports_a_changed_expectation(copy):
    rewrite(copy, "pots", lambda d: d["tests"][0]["expected"]["pots"][0].update(amount=99))
    assert any("differs from a fresh generation" in p for p in vectors.check(copy, ["pots"]))


def test_check_reports_duplicate_ids_wrong_counts_and_undefined_flags(copy):
    def damage(doc):
        doc["tests"][1]["id"] = doc["tests"][0]["id"]
        doc["numberOfTests"] += 1
        doc["tests"][2]["flags"].append("NoSuchFlag")
    rewrite(copy, "rng", damage)
    problems = "\n".join(vectors.check(copy, ["rng"]))
    assert "duplicate test id" in problems and "numberOfTests" in problems and "NoSuchFlag" in problems


def test_check_reports_schema_violations_and_missing_files(copy):
    rewrite(copy, "hands", lambda d: d["tests"][0]["expected"]["decisions"][0]["you"].update(extra=1))
    vectors.path_of("deck", copy).unlink()
    problems = "\n".join(vectors.check(copy, ["hands", "deck"]))
    assert "hands: schema:" in problems and "deck:" in problems and "missing" in problems


def test_acceptable_tests_name_their_rulings():
    for family in FAMILIES:
        doc = vectors.load(family)
        assert structural_problems(doc, family) == []
        for test in doc["tests"]:
            assert (test["result"] == "acceptable") <= bool(test["rulings"])


def test_every_clause_has_a_vector():
    # engine.commonjs is about the engine's text, not a call: every certification of a JavaScript engine
    # checks it in the smoke tier (smoke.module), the one clause no vector holds.
    from conformance.judge.smoke import SMOKE_MODULE
    counts, total = vectors.coverage()
    assert total > 300 and [c for c in CLAUSES if counts[c] == 0] == SMOKE_MODULE[1]["clauses"] == ["engine.commonjs"]
    assert vectors.uncovered(counts) == [] and list(NOT_BY_VECTOR) == ["engine.commonjs"]


def test_state_schema_open_and_strict():
    state = Tournament(["a", "b", "c"]).decision_state()
    assert schemas.errors("state", state) == [] and schemas.errors("state.strict", state) == []
    extended = dict(state, futureField=1)
    assert schemas.errors("state", extended) == [] and schemas.errors("state.strict", extended)
    bad = json.loads(json.dumps(state))
    bad["you"]["extra"] = 1
    bad["seats"][0]["cards"] = ["Ah", "Kd"]
    bad["street"] = "showdown"
    assert len(schemas.errors("state", bad)) == 3


@pytest.mark.parametrize("answer,ok", [
    ("fold", True), ("allin", True), ({"type": "check", "why": 1}, True), ({"type": "raise", "amount": 300}, True),
    ("raise", False), ("bet", False), ({"type": "bet", "amount": 3}, False), (5, False), ({"type": "raise"}, False),
    ({"type": "raise", "amount": 1.5}, False), ({"type": "raise", "amount": 2**53}, False), (None, False),
])
def test_answer_schema(answer, ok):
    assert (schemas.errors("answer", answer) == []) == ok


@pytest.mark.parametrize("bot_id,ok", [("example", True), ("a.b-c1", True), ("a..b", False), ("-x", False), ("X", False)])
def test_roster_schema_ids(bot_id, ok):
    roster = {"version": 1, "bots": [{"id": bot_id, "name": "n", "botName": "n", "lab": "l", "color": "#fff",
                                      "file": f"bots/{bot_id}.js", "bytes": 1, "note": "x"}]}
    assert (schemas.errors("roster", roster) == []) == ok


def test_cli_check_and_usage_errors(capsys):
    assert main(["vectors", "check", "--family", "pots"]) == 0
    assert main(["vectors", "check", "--family", "nope"]) == 2
    assert "unknown family" in capsys.readouterr().err
