"""R42 (docs/rulings.md): null for the whole options, stacks, decks or controllers, and create(seats) with
no options, is the option not given; an engine that refuses it follows R42 = 'refuse' and is divergent
on R42, never failed (conformance/judge/family_judges.py, _null_refused). The vectors that pin it kill
the bundled engine's mutants that refuse null (docs/mutation.md, lines 864-1414)."""
import pytest

from conformance.judge.engine_cert import certify
from conformance.judge.engine_drivers import QuickJSDriver
from conformance.vectors import library
from conformance.vectors.gamespec import tournament
from js_vector_runner import ENGINE_PATH
from reference.adapter import create, given_options
from reference.errors import OptionError

SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
SEATS = ["A", "B", "C"]
R42_VECTORS = {"tournaments": ["tournaments.null-stacks", "tournaments.null-controllers"],
               "deck": ["deck.seeded-game.null-decks", "deck.seeded-game.null-options", "deck.seeded-game.no-options"]}
# The engine's null tests, each made to refuse null (the mutants the vectors above kill).
REFUSING = {
    "controllers": ("if (controllers === undefined || controllers === null)", "if (controllers === undefined)"),
    "decks": ("if (decks === undefined || decks === null) return pinned;", "if (decks === undefined) return pinned;"),
    "stacks": ("if (stacks === undefined || stacks === null) {", "if (stacks === undefined) {"),
    "options": ("if (options === undefined || options === null) options = {};", "if (options === undefined) options = {};"),
    "no-options": ("if (options === undefined || options === null) options = {};", "if (options === null) options = {};"),
}
# The vector each refusing engine takes another option on.
REFUSED_ON = {"controllers": "tournaments.null-controllers", "decks": "deck.seeded-game.null-decks",
              "stacks": "tournaments.null-stacks", "options": "deck.seeded-game.null-options",
              "no-options": "deck.seeded-game.no-options"}


def first_state(game: dict) -> dict:
    t = create(game)
    return {"state": t.decision_state(), "standings": t.standings()}


@pytest.mark.parametrize("options", [None, {"stacks": None}, {"decks": None}, {"controllers": None}])
def test_the_reference_reads_null_as_the_option_not_given(options):
    assert first_state({"seats": SEATS, "options": options}) == first_state({"seats": SEATS, "options": {}})
    assert first_state({"seats": SEATS}) == first_state({"seats": SEATS, "options": {}})
    # the judge's own reference game reads it alike
    spec = {"seats": SEATS, "options": options}
    assert tournament(spec).decision_state() == tournament({"seats": SEATS, "options": {}}).decision_state()


@pytest.mark.parametrize("options, field", [(None, "options"), ({"stacks": None}, "stacks"), ({"decks": None}, "decks"),
                                            ({"controllers": None, "seed": 3}, "controllers")])
def test_under_r42_refuse_the_reference_refuses_null_naming_the_field(options, field):
    with pytest.raises(OptionError) as exc:
        create({"seats": SEATS, "options": options, "rulings": {"R42": "refuse"}})
    assert exc.value.field == field
    with pytest.raises(OptionError):
        given_options({"seats": SEATS, "rulings": {"R42": "refuse"}})  # no options at all


def test_null_for_an_option_that_cannot_be_none_stays_invalid_and_max_hands_null_is_no_cap():
    with pytest.raises(OptionError):
        create({"seats": SEATS, "options": {"startingStack": None}})
    assert create({"seats": SEATS, "options": {"maxHands": None}}).ruleset.max_hands is None


def vectors() -> dict[str, list[dict]]:
    return {family: [t for t in library.load(family)["tests"] if t["id"] in ids] for family, ids in R42_VECTORS.items()}


def test_the_r42_vectors_rest_on_r42():
    found = vectors()
    for family, ids in R42_VECTORS.items():
        assert sorted(t["id"] for t in found[family]) == sorted(ids)
        assert all("R42" in t["rulings"] and t["result"] == "acceptable" for t in found[family])


def run_on(source: str) -> dict:
    report = certify(QuickJSDriver(source, engine_name="engine.js"), vectors(), {})
    return {c.id: c for c in report.cases}


def test_the_bundled_engine_passes_every_r42_vector():
    cases = run_on(SOURCE)
    assert {c.status for c in cases.values()} == {"passed"}, [(c.id, c.message) for c in cases.values()]


@pytest.mark.parametrize("name", sorted(REFUSING))
def test_an_engine_refusing_null_is_divergent_on_r42_never_failed(name):
    find, replace = REFUSING[name]
    assert SOURCE.count(find) == 1, name
    cases = run_on(SOURCE.replace(find, replace))
    refused = cases[REFUSED_ON[name]]
    assert refused.status == "divergent" and refused.rulings == ["R42"], (refused.status, refused.message)
    assert "R42 = 'refuse'" in refused.message
    others = {c.id: c.status for c in cases.values() if c.id != REFUSED_ON[name]}
    assert set(others.values()) <= {"passed", "divergent"}, others
