"""Coverage-guided fuzzing (conformance/judge/fuzz_guided.py, issue #27 item 2): the corpus grows only
on new engine blocks, every mutated game is a game the reference plays (a valid hands vector),
the same seed and game count give the same games, and a bug in a region blind fuzzing never draws
(holdem-sng-3-v4 games) is found within a fixed number of guided games where the same number of
blind games does not find it. Counts, not times: nothing here can flake on a loaded machine."""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings, strategies as st

from conformance.cli.main import main
from conformance.host.jsvalue import decode
from conformance.host.node_worker import find_node
from conformance.judge import fuzz, fuzz_guided
from conformance.judge.engine_cert import start
from conformance.judge.engine_drivers import QuickJSDriver
from conformance.vectors import schemas, library as vectors
from js_vector_runner import ENGINE_PATH
from mutants.mutants import MUTANTS
from test_fuzz import hands_case, mutate
from test_mutants import CAUSE_BREAKS

needs_node = pytest.mark.skipif(find_node() is None, reason="node 20 or later is not installed")
SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
BOTH = ("contract-v1", fuzz_guided.V4)
# A holdem-sng-3-v4 bug (R26: auto-fold after the third timeout): blind fuzzing plays contract-v1 only.
RARE = next(m for m in MUTANTS if m["name"] == "v4-auto-fold-after-second-timeout")
RARE_SEED, RARE_GAMES = 1, 60  # guided finds it at game 14 (measured); blind cannot in any number


class Counter:
    """A stand-in for the engine's coverage: each game "reaches" the blocks of its own shape."""

    def __init__(self, guide_of=lambda: None) -> None:
        self.guide_of = guide_of

    def __call__(self) -> set:
        test = self.guide_of()._last
        g = test["input"]["game"]
        return {len(g["seats"]), 100 + len(test["input"]["steps"]) // 10, 200 + ("ruleset" in g["options"])}


def guide(seed: int, rulesets=("contract-v1",)) -> fuzz_guided.Guide:
    counter = Counter()
    g = fuzz_guided.Guide(seed, counter, rulesets)
    counter.guide_of = lambda: g
    return g


def games(g: fuzz_guided.Guide, n: int) -> list[dict]:
    out = []
    for k in range(n):
        out.append(copy.deepcopy(g.game(k)))
        g.after()
    return out


# ---- the corpus ---------------------------------------------------------------------------------

def test_the_corpus_grows_only_on_new_blocks():
    answers = iter([{1, 2}, {2}, {1}, {3}, set(), {3, 4}])
    g = fuzz_guided.Guide(5, lambda: next(answers))
    sizes = []
    for k in range(6):
        g.game(k)
        g.after()
        sizes.append(len(g.corpus))
    assert sizes == [1, 1, 1, 2, 2, 3]
    assert g.reached == {1, 2, 3, 4} and [found for _, found in g.corpus] == [2, 1, 1]


def test_the_first_games_are_blind_and_later_ones_mostly_mutated():
    g = guide(3)
    played = games(g, 40)
    assert json.dumps(played[0]) == json.dumps(fuzz.generate(3, 0))  # an empty corpus: a blind game
    assert g.mutated >= 20 and g.summary()["mode"] == "guided"


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_mutated_games_are_games_the_reference_plays(seed, v4):
    g = guide(seed, BOTH if v4 else ("contract-v1",))
    played = games(g, 25)
    family = copy.deepcopy(vectors.load("hands"))
    family["tests"] = played
    family["numberOfTests"] = len(played)
    assert schemas.errors("vectors/hands", family) == []
    for test in played:
        spec = test["input"]["game"]
        steps = [s if s == fuzz.TIMEOUT else decode(s) for s in test["input"]["steps"]]
        kept, t = fuzz.play_steps(spec, steps)  # the reference accepts the options and plays every step
        assert len(kept) == len(steps) and len(steps) <= fuzz.MAX_STEPS
        assert len(spec["options"]["decks"]) >= len(t.hands)  # every hand it plays has its deck pinned
        assert v4 or spec["options"].get("ruleset") in (None, "contract-v1")
    assert g.mutated > 0


def test_the_same_seed_and_feedback_give_the_same_games():
    first, again = games(guide(9, BOTH), 30), games(guide(9, BOTH), 30)
    assert json.dumps(first) == json.dumps(again)
    assert json.dumps(first) != json.dumps(games(guide(10, BOTH), 30))


def test_guidance_needs_the_engine_coverage():
    driver = QuickJSDriver(SOURCE, engine_name="engine.js")  # QuickJS: no block coverage
    with pytest.raises(ValueError, match="--coverage"):
        fuzz_guided.guide_for(driver, 1)


# ---- on the engine (node host, V8's coverage) ------------------------------------------------------

def guided_run(source: str, seed: int, n: int, rulesets=("contract-v1",), guided=True):
    driver = QuickJSDriver(source, engine_name="engine.js", host="node", coverage=True)
    try:
        _, _, runner = start(driver, ["hands"])
        g = fuzz_guided.guide_for(driver, seed, rulesets)
        seen = []
        if guided:
            game = g.game
            g.game = lambda k: seen.append(json.dumps(game(k))) or json.loads(seen[-1])
        out = fuzz.run(runner, seed, seconds=None, games=n, guide=g if guided else None)
        return out, g, seen
    finally:
        driver.close()


@needs_node
def test_the_same_seed_and_count_replay_the_same_games_on_the_engine():
    a, ga, seen_a = guided_run(SOURCE, 4, 30, BOTH)
    b, gb, seen_b = guided_run(SOURCE, 4, 30, BOTH)
    assert [c.status for c in a.cases] == ["passed"] * 30, [c.message for c in a.cases if c.status != "passed"]
    assert seen_a == seen_b and ga.reached == gb.reached and len(ga.corpus) == len(gb.corpus) > 1
    assert any('"holdem-sng-3-v4"' in s for s in seen_a)


@needs_node
def test_a_bug_blind_fuzzing_never_draws_is_found_by_guided_fuzzing_and_shrunk():
    source = mutate(RARE)
    blind, _, _ = guided_run(source, RARE_SEED, RARE_GAMES, guided=False)
    assert [c.status for c in blind.cases] == ["passed"] * RARE_GAMES  # the same count, blind: not found
    out, _, seen = guided_run(source, RARE_SEED, RARE_GAMES, BOTH)
    failed = out.cases[-1]
    assert failed.status == "failed" and out.games < RARE_GAMES, [c.status for c in out.cases]
    assert all(c.status == "passed" for c in out.cases[:-1])
    assert "shrunk in" in failed.message and 0 < out.shrink_runs <= fuzz.MAX_SHRINK_RUNS
    assert fuzz.size(out.vector) <= fuzz.size(json.loads(seen[-1]))
    vector = json.loads(json.dumps(out.vector))  # as pasted into vectors/hands
    # The clause the mutant breaks (test_mutants'), named by the game and kept by the shrinker: in
    # the shrunk game a seat's second consecutive invalid answer (an R22 timeout) folds where it
    # must check, a fallback difference, not the refused word's rule (return.call).
    assert failed.breaks == CAUSE_BREAKS[RARE["name"]] == "timing.fallback"
    assert hands_case(source, vector).breaks == failed.breaks
    assert hands_case(SOURCE, vector).status == "passed"


@needs_node
def test_the_engine_command_fuzzes_guided_with_coverage_and_blind_when_asked(tmp_path, capsys):
    reports = {}
    for name, extra in (("a", []), ("b", []), ("blind", ["--fuzz-blind"])):
        out = tmp_path / f"{name}.json"
        code = main(["engine", str(ENGINE_PATH), "--family", "hands", "--no-fresh", "--coverage", "--fuzz-seed", "77",
                     "--fuzz-games", "12", "--json", str(out), "--quiet", *extra])
        assert code == 0, capsys.readouterr()
        reports[name] = json.loads(out.read_text())
    guided = reports["a"]["engine"]["fuzz"]
    assert guided["mode"] == "guided" and guided["games"] == 12 and guided["corpus"] >= 1
    assert guided == reports["b"]["engine"]["fuzz"]
    assert reports["a"]["coverage"]["total"] == reports["b"]["coverage"]["total"]
    assert reports["blind"]["engine"]["fuzz"] == {"seed": 77, "games": 12, "budgetSeconds": None}
    assert "coverage-guided fuzz games, seed 77 (--fuzz-seed 77 --fuzz-games 12 --coverage)" in capsys.readouterr().out
