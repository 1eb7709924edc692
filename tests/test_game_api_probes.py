"""What the game drivers read besides the decisions (docs/rulings.md R43, R44; issue #37 item 3):
standings at each hand's first decision, and answers given once the game or hand is over.

Each engine here is the bundled engine with one snippet replaced: one that takes a ruling's other
option is divergent on that ruling and never failed; one that breaks the engine API fails with the
clause named.
"""
import pytest

from conformance.judge.engine_cert import certify, load_tests
from conformance.judge.engine_drivers import QuickJSDriver
from js_vector_runner import ENGINE_PATH
from reference.tournament import Tournament

SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
HOST = "node"  # the reports are the same on both hosts (tests/test_hosts.py)
# A few tournaments of several hands each: enough to read standings between hands.
TOURNAMENTS = ("tournaments.two-seats-min-raisers", "tournaments.three-callers-cap", "tournaments.four-checkers-cap")


def patched(find: str, replace: str, count: int = 1) -> str:
    assert SOURCE.count(find) == count, find
    return SOURCE.replace(find, replace)


def judged(source: str, family: str, ids: tuple = ()) -> list:
    tests = load_tests([family])[family]
    if ids:
        tests = [t for t in tests if t["id"] in ids]
        assert len(tests) == len(ids)
    report = certify(QuickJSDriver(source, engine_name="variant.js", host=HOST), {family: tests}, {},
                     ruleset="holdem-sng-3-v4" if family == "sng3v4" else "contract-v1")
    return report.cases


def test_the_reference_plays_r43s_live_chips_while_a_hand_is_in_play():
    default, live = (Tournament(["a", "b", "c"], starting_stack=100, rulings=r) for r in (None, {"R43": "live"}))
    for t in (default, live):
        assert t.decision_state()["handNumber"] == 1  # the blinds are posted
    assert [s["chips"] for s in default.standings()] == [100, 100, 100]
    assert [s["chips"] for s in live.standings()] == list(live.hand.stacks) != [100, 100, 100]
    assert all(s["place"] is None and s["eliminatedInHand"] is None for s in default.standings())


def test_standings_with_the_live_stacks_are_divergent_on_r43():
    # The hand's stacks shared with the game's: its standings show the chips behind.
    source = patched("      this.startStacks = stacks.slice();\n      this.stacks = stacks.slice();",
                     "      this.startStacks = stacks.slice();\n      this.stacks = stacks;")
    cases = judged(source, "tournaments", TOURNAMENTS)
    assert all(c.status == "divergent" and c.rulings == ["R43"] for c in cases), [(c.id, c.status, c.message) for c in cases]
    assert all(c.alternative == {"R43": "live"} for c in cases)


def test_standings_without_a_null_place_during_the_game_fail():
    # Unset places read undefined (absent from the JSON) instead of null while the seats play.
    source = patched("this.places = new Array(n).fill(null);", "this.places = new Array();")
    cases = judged(source, "tournaments", TOURNAMENTS)
    assert all(c.status == "failed" for c in cases)
    assert all(c.first["path"].startswith("standings()") and c.first["path"].endswith(".place") and c.breaks == "rules.cap-places"
               for c in cases), [(c.first, c.breaks) for c in cases]


def test_the_bundled_engine_refuses_answers_after_the_end():
    for family, ids in (("tournaments", TOURNAMENTS), ("hand", ())):
        cases = judged(SOURCE, family, ids)
        assert cases and all(c.status == "passed" for c in cases), family


GAME_OVER = "if (this.isOver) throw fieldError(GameOver, 'action', 'the tournament is over');"


IGNORED = ("      act: (answer) => game.act(answer),\n      submit: (answer) => game.submit(answer),\n"
           "      timeout: () => game.timeout(),",
           "      act: (answer) => (game.over ? null : game.act(answer)),\n"
           "      submit: (answer) => (game.over ? null : game.submit(answer)),\n"
           "      timeout: () => (game.over ? null : game.timeout()),")


@pytest.mark.parametrize("family,find,replace", [
    # R44's other option: a finished game ignores act, submit and timeout, a finished hand act.
    ("tournaments", *IGNORED),
    ("hand", "if (hand.done) throw fieldError(GameOver, 'action', 'the hand is over');", "if (hand.done) return null;"),
])
def test_answers_ignored_after_the_end_are_divergent_on_r44(family, find, replace):
    cases = judged(patched(find, replace), family, TOURNAMENTS if family == "tournaments" else ())
    # (a hand vector whose script does not finish its hand has nothing to probe: passed)
    over = [c for c in cases if c.status != "passed"]
    assert over and all(c.status == "divergent" and "R44" in c.rulings for c in over), \
        [(c.id, c.status, c.message) for c in over if c.status != "divergent"][:3]
    if family == "tournaments":
        assert len(over) == len(cases)


@pytest.mark.parametrize("family,find,replace", [
    ("tournaments", GAME_OVER, ";"),  # the finished game plays on: its last hand takes the answer
    ("hand", "if (hand.done) throw fieldError(GameOver, 'action', 'the hand is over');", ";"),
])
def test_answers_taken_after_the_end_that_change_the_game_fail(family, find, replace):
    cases = judged(patched(find, replace), family, TOURNAMENTS if family == "tournaments" else ())
    # Where the answer taken changes nothing reported (a hand whose last act leaves its result as
    # it was), that is R44's other option: divergent.
    assert any(c.status == "failed" and c.breaks == "rules.end" for c in cases)
    assert all((c.status == "failed" and c.breaks == "rules.end") or (c.status == "divergent" and "R44" in c.rulings)
               or c.status == "passed" for c in cases), [(c.id, c.status, c.breaks) for c in cases][:3]
    if family == "tournaments":
        assert all(c.status == "failed" for c in cases)


@pytest.mark.parametrize("family,find,replace", [
    ("tournaments", "        blinds: r.blinds.slice(),", "        blinds: r.blinds,"),  # log() hands out its records' lists
    ("tournaments", "        chips: r.chips.slice(),\n      }));", "        chips: r.chips,\n      }));"),
    ("hand", "chips: hand.stacks.slice() } : null),", "chips: hand.stacks } : null),"),  # result() hands out the hand's stacks
    ("hand", "      ids: ids.slice(),", "      ids: ids,"),  # the hand keeps the caller's ids
])
def test_values_shared_with_the_caller_are_divergent_on_r45(family, find, replace):
    cases = judged(patched(find, replace), family, TOURNAMENTS if family == "tournaments" else ())
    assert not [c for c in cases if c.status == "failed"]
    divergent = [c for c in cases if c.status == "divergent"]
    assert divergent and all("R45" in c.rulings for c in divergent)


def test_a_game_keeping_the_caller_s_stacks_option_is_divergent_on_r45():
    source = patched("        this.stacks = stacks.slice();\n      }", "        this.stacks = stacks;\n      }")
    tests = [t for t in load_tests(["tournaments"])["tournaments"]
             if isinstance(t["input"]["game"].get("options"), dict)
             and isinstance(t["input"]["game"]["options"].get("stacks"), list)  # (null stacks: none given, R42)
             and "error" not in t["expected"]]
    assert tests
    report = certify(QuickJSDriver(source, engine_name="variant.js", host=HOST), {"tournaments": tests}, {})
    assert [c.status for c in report.cases] == ["divergent"] * len(tests)
    assert all(c.rulings == ["R45"] and "options" in c.message for c in report.cases)
