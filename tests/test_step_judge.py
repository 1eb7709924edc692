"""The step judge (conformance/judge/step_judge.py): every step of a game compared with the reference;
a failure is the first divergence, naming the clause it breaks (issue #12)."""
import copy
import re

import pytest

from conformance.judge.engine_cert import certify, load_tests, start
from conformance.judge.families import RULESETS
from conformance.judge.family_judges import judge
from conformance.judge.engine_drivers import CommandDriver, QuickJSDriver, Run
from conformance.judge.comparison import differences
from conformance.judge.following import AUTO_FOLDED_SOONER
from conformance.judge.field_clauses import clause_for
from conformance.vectors.gamespec import game, hands_played, play_hand
from conformance.vectors.generators import hands, sng3v4
from conformance.vectors.vectorfile import make_test
from cli_helpers import reference_cmd_engine
from js_vector_runner import ENGINE_PATH
from mutants.mutants import BLIND_SPOT_MUTANTS, MUTANTS
from test_mutants import first_failure
from reference import adapter
from reference.scenario import pinned_deck

SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
CHECK_DOWN = ["call", "check"] + ["check"] * 6


def hand_test(slug: str, holes: dict, board: str, script: list, stacks=(1000, 1000)) -> dict:
    """A hands vector made as the golden ones are (vectorgen/hands.py), with its own pinned cards."""
    n = len(stacks)
    spec = game([f"P{i}" for i in range(n)], stacks=list(stacks), blindSchedule=[[50, 100]], maxHands=1,
                decks={1: pinned_deck(holes, n, 0, board)})
    expected, _ = hands.play(spec, script)
    return make_test(hands.NOTES, f"hands.{slug}", slug, ["rules.best-five"], {"game": spec, "script": script},
                     expected, ["Hand"])


# Showdowns the golden hands need not cover: what the showdown mutants break.
SHOWDOWN_TRAPS = [
    # seat 0: trips (7h 7c 7s) and the straight 6..T; seat 1: trips 7 with a king kicker.
    hand_test("trips-with-a-straight", {0: "7h6d", 1: "7dKc"}, "7c7s8d9hTc", CHECK_DOWN),
    # seat 0: aces, kings and queens: the queens are the kicker; seat 1: aces and kings, jack.
    hand_test("three-pairs-kicker", {0: "QhQd", 1: "Jc9d"}, "AcAsKdKh3c", CHECK_DOWN),
]


def odd_chip_split_v4() -> dict:
    """A holdem-sng-3-v4 hand (seed 3: button seat 2, blinds seats 0 and 1) whose board plays: the
    button raises to 25, the small blind folds, the big blind calls; 55 chips split two ways. The
    odd chip goes to the big blind (seat 1, first left of the button) under every R13 option."""
    spec = game(sng3v4.IDS, ruleset="holdem-sng-3-v4", seed=3,
                decks={1: pinned_deck({0: "2c3d", 1: "4c5d", 2: "6c7d"}, 3, 2, "AsKsQsJsTs")})
    steps = [{"type": "raise", "amount": 25}, "fold", "call"]
    expected = sng3v4.play(spec, steps, ["caller"] * 3)
    return make_test(sng3v4.NOTES, "sng3v4.odd-chip-split", "the board plays; one odd chip", ["rules.odd-chips"],
                     {"game": spec, "steps": steps, "strategies": ["caller"] * 3}, expected,
                     ["Sng", "Seating", "Clock", "Reveal", "Places"])


def test_the_bundled_engine_passes_the_extra_games():
    driver = QuickJSDriver(SOURCE, engine_name="poker-engine.js")
    try:
        _, _, runner = start(driver, ["hands", "sng3v4"])
        for family, test in [("hands", t) for t in SHOWDOWN_TRAPS] + [("sng3v4", odd_chip_split_v4())]:
            case = runner.vector(family, test)
            assert case.status == "passed", case.message
    finally:
        driver.close()


# Older single-rule mutants whose first divergence names their rule too.
BREAKS = {"refund-counted-as-award": "state.history-winners", "odd-chip-wrong-seat": "rules.odd-chips",
          "raise-without-responder": "rules.no-responder", "heads-up-big-blind-acts-first": "rules.heads-up-order",
          "call-not-capped": "return.call", "deal-from-the-button": "rules.deal-order"}
ALL = BLIND_SPOT_MUTANTS + [dict(m, breaks=BREAKS[m["name"]]) for m in MUTANTS if m["name"] in BREAKS]


@pytest.mark.parametrize("mutant", ALL, ids=[m["name"] for m in ALL])
def test_a_blind_spot_mutant_fails_at_its_first_divergence_naming_the_rule(mutant):
    assert SOURCE.count(mutant["find"]) == 1
    family = mutant["family_expected_to_fail"]
    extra = {"hands": SHOWDOWN_TRAPS, "sng3v4": [odd_chip_split_v4()]}.get(family, [])
    case = first_failure(SOURCE.replace(mutant["find"], mutant["replace"]), family, extra)
    assert case is not None, f"{mutant['name']} survives {family}"
    assert case.breaks == mutant["breaks"], (case.id, case.message)
    assert f"breaks {mutant['breaks']}" in case.message
    if case.group != "smoke":
        # "kind": a dealing difference's (conformance/judge/dealing.py), who is asked to act
        # (conformance/judge/following.py) and what differs classified (conformance/judge/field_clauses.py:
        # a record's awards or showdown, a seat's chips, the button, the level, a history's records as a
        # list), a second state() showing the runner's edits (following.HANDED_OUT) and an answer accepted
        # where it must be refused, or refused where valid (a legality act, a holdem-sng-3-v4 step)
        assert set(case.first) - {"kind"} == {"hand", "decision", "path", "expected", "actual", "clause"}
        classified = case.first["path"].endswith(("you.seat", ".street", ".winners", ".showdown", ".stack", ".bet",
                                                  ".total", "Seat", ".level")) \
            or re.fullmatch(r"act|steps\[\d+\]", case.first["path"]) is not None \
            or ".blinds" in case.first["path"] or case.first["path"].startswith("again") \
            or re.search(r"history(\(\))?\[\d+\](\.handNumber)?$", case.first["path"]) is not None
        assert ("kind" in case.first) == (case.breaks in ("rules.deal-order", "rules.burn") or classified)


def test_a_failure_is_the_first_divergence_and_counts_the_later_ones():
    test = next(t for t in load_tests(["tournaments"])["tournaments"] if t["id"] == "tournaments.six-seats-mixed")
    driver = QuickJSDriver(SOURCE, engine_name="poker-engine.js")
    try:
        driver.start()
        run = driver.run("tournaments", test)
    finally:
        driver.close()
    assert judge("tournaments", test, run).status == "passed"
    hands = [state["handNumber"] for state in run.value["decisions"]]
    assert hands[39] == hands[40] == 8 and hands[41] == 9
    r = copy.deepcopy(run.value)
    r["actions"][39]["amount"] += 1  # one action record misstated; nothing else
    r["decisions"][40]["pots"][0]["amount"] += 5  # in the same hand: independent (issue #38)
    r["decisions"][41]["pots"][0]["amount"] += 5  # the next hand: the same cause, counted under the first pots one
    j = judge("tournaments", test, Run("result", r))
    assert j.status == "failed"
    # The check was applied as answered (the next state is the one the answer gives): only the
    # record is misstated, which breaks the record's own rule, not the check's ("`amount` is
    # additional chips committed by that action ... Fold/check amounts are zero": state.actions).
    assert r["actions"][39]["type"] == "check"
    assert (j.first.decision, j.first.path, j.first.clause) == (39, "action.amount", "state.actions")
    # the misstated record alone: the next state is the one the answer gives, not the record (no cascade)
    assert [(d.hand, d.decision, d.path, d.clause, d.counted) for d in j.failures] == [
        (8, 39, "action.amount", "state.actions", 0), (8, 40, "state.pots[0].amount", "state.pots", 1)]
    assert "1 more independent difference" in j.message and "hand 8, decision 40 state.pots[0].amount" in j.message
    assert "(1 later difference of the same cause counted under it)" in j.diff
    assert j.answers and all(isinstance(a, (dict, str)) for a in j.answers)


def test_an_answer_both_sides_refuse_differs_in_its_fallback_not_in_its_word():
    """The big blind's second invalid answer in a row (a call where it can check) is its second
    timeout under R22 (as-timeout): check. An engine that already auto-folds there (the mutant
    v4-auto-fold-after-second-timeout) refuses the call as the reference does; what differs is the
    fallback (timing.fallback), not the call's rule (return.call)."""
    mutant = next(m for m in MUTANTS if m["name"] == "v4-auto-fold-after-second-timeout")
    spec = game(sng3v4.IDS, ruleset="holdem-sng-3-v4", seed=3,
                decks={1: pinned_deck({0: "2c3d", 1: "4c5d", 2: "6c7d"}, 3, 2, "AsKsQsJsTs")})
    # button (seat 2) calls, the small blind completes, the big blind answers "" (timeout 1: check);
    # on the flop the small blind checks and the big blind answers call (timeout 2)
    steps = ["call", "call", "", "check", {"type": "call"}]
    test = make_test(sng3v4.NOTES, "sng3v4.second-invalid-answer", "two invalid answers", ["timing.fallback"],
                     {"game": spec, "steps": steps, "strategies": ["caller"] * 3},
                     sng3v4.play(spec, steps, ["caller"] * 3), ["Sng", "Clock"])
    cases = {}
    for name, source in (("engine", SOURCE), ("mutant", SOURCE.replace(mutant["find"], mutant["replace"]))):
        driver = QuickJSDriver(source, engine_name=f"{name}.js")
        try:
            _, _, runner = start(driver, ["sng3v4"])
            cases[name] = runner.vector("sng3v4", test)
        finally:
            driver.close()
    assert cases["engine"].status == "passed", cases["engine"].message
    case = cases["mutant"]
    assert case.status == "failed" and case.breaks == "timing.fallback", case.message
    assert (case.first["decision"], case.first["path"], case.first["expected"], case.first["actual"]) == (
        4, "steps[4].action.type", "check", "fold")
    # processed as a timeout, the fold is the engine's auto-fold before R22's third (issue #38): one
    # kind with a timeout's fold where checking is legal and a seat dealt in auto-folded sooner
    assert case.first["kind"] == AUTO_FOLDED_SOONER


def test_hands_without_a_decision_state_fail_at_that_decision():
    test = next(t for t in load_tests(["hands"])["hands"] if t["id"] == "hands.heads-up-streets")
    result = adapter.run_hands(adapter.decode(test["input"]))
    assert judge("hands", test, Run("result", result)).status == "passed"
    cut = dict(result, decisions=result["decisions"][:3], again=result["again"][:3], actions=result["actions"][:3],
               error={"at": "state() before answer 3", "name": "Error", "message": "boom"})
    j = judge("hands", test, Run("result", cut))
    assert j.status == "failed" and j.first.decision == 3 and j.first.path == "state()"


def test_differences_walk_in_order_and_mark_reordered_lists():
    found = list(differences({"a": 1, "b": [1, 2], "showdown": [1, 2]}, {"b": [1, 3, 4], "a": 2, "showdown": [2, 1]},
                             "x", reordered := []))
    assert found == [("x.a", 1, 2), ("x.b[1]", 2, 3), ("x.b[2]", "(absent)", 4)]
    assert reordered == [("x.showdown", "R14")]


@pytest.mark.parametrize("path, clause", [
    ("state.history[3].showdown[0].hand", "rules.best-five"),
    ("state.history.length", "state.history"),
    ("state.minRaiseTo", "state.min-raise-to"),
    ("again.pots[0].amount", "state.fresh"),
    ("log()[2].chips[1]", "rules.side-pots"),
    ("history()[0].winners[0].amount", "state.history-winners"),
    ("standings()[1].place", "rules.cap-places"),
    # found by mutation testing (bench/README.md): a v4 step's state, a record list, the game's end
    ("steps[3].state.pots[0].amount", "state.pots"),
    ("steps[3].action.type", "timing.fallback"),
    ("history()", "state.history"),
    ("log().length", "state.history"),
    ("over", "rules.end"),
    ("state()", "rules.end"),
])
def test_the_clause_of_a_field(path, clause):
    assert clause_for(path) == clause


# ---- pinned cards (issue #12, item 2) -------------------------------------------------------------

OWN_SHUFFLE = ("const stream = rng(`${seedState(seed)}:${handNumber}`);",
               "const stream = rng(`own:${seedState(seed)}:${handNumber}`);")
EXPORTED_DEAL_DIFFERS = ("    dealHand,\n    create,", "    dealHand: (seed, n) => dealHand(seed, n).reverse(),\n    create,")
NOT_DIGEST = [f for f in RULESETS["contract-v1"] if f != "evaluate"]  # the five-card digest is slow; unaffected


def test_an_engine_with_its_own_shuffle_is_judged_on_its_rules_not_its_cards():
    assert SOURCE.count(OWN_SHUFFLE[0]) == 1
    source = SOURCE.replace(*OWN_SHUFFLE)
    report = certify(QuickJSDriver(source, engine_name="own-shuffle.js"), load_tests(NOT_DIGEST, fresh_seed=5), {})
    assert report.ok, [(c.id, c.message) for c in report.cases if c.status == "failed"][:3]
    divergent = [c for c in report.cases if c.status == "divergent"]
    assert divergent and {c.group for c in divergent} == {"deck"} and {r for c in divergent for r in c.rulings} == {"R2"}
    assert all(c.status == "passed" for c in report.cases if "seeded-game" in c.id)


def test_an_exported_deal_hand_other_than_the_games_deal_fails():
    assert SOURCE.count(EXPORTED_DEAL_DIFFERS[0]) == 1
    case = first_failure(SOURCE.replace(*EXPORTED_DEAL_DIFFERS), "deck")
    assert case is not None and case.id.startswith("deck.seeded-game.") and case.breaks == "helper.deal-hand", case
    assert "deals other cards than its own dealHand" in case.message


def test_every_game_vector_pins_every_hand_it_plays():
    for family in ("legality", "hands", "tournaments", "sng3v4"):
        for test in load_tests([family], fresh_seed=3)[family]:
            if "error" in test["expected"]:  # a game the reference refuses (R38): nothing is dealt
                continue
            decks = test["input"]["game"]["options"].get("decks", {})
            assert sorted(map(int, decks)) == list(range(1, hands_played(family, test) + 1)), test["id"]


# ---- divergent only when proven (issue #12, item 3) ------------------------------------------------

OTHER_EQUITY_PROCEDURE = ("j = k + Math.floor(x * (len - k));", "j = len - 1 - Math.floor(x * (len - k));")


def test_another_equity_procedure_is_divergent_on_r6_only_where_it_is_statistically_right():
    assert SOURCE.count(OTHER_EQUITY_PROCEDURE[0]) == 1
    source = SOURCE.replace(*OTHER_EQUITY_PROCEDURE)
    report = certify(QuickJSDriver(source, engine_name="other-sampling.js"), load_tests(["equity"], fresh_seed=4), {})
    assert report.ok, [(c.id, c.message) for c in report.cases if c.status == "failed"]
    divergent = [c for c in report.cases if c.status == "divergent"]
    assert divergent and all(c.rulings == ["R6"] and "within tolerance" in c.message for c in divergent)
    assert {c.id for c in divergent} >= {t["id"] for t in load_tests(["equity"])["equity"] if "value" in t["expected"]}


def test_an_exact_stream_far_from_the_equity_fails():
    test = next(t for t in load_tests(["equity"])["equity"] if t["id"] == "equity.stream.flop-two")
    e = test["expected"]
    assert judge("equity", test, Run("result", {"equity": e["value"]})).status == "passed"
    near = e["equity"] + e["tolerance"] / 2
    assert judge("equity", test, Run("result", {"equity": near})).status == "divergent"
    far = judge("equity", test, Run("result", {"equity": min(1.0, e["equity"] + 2 * e["tolerance"])}))
    assert far.status == "failed" and "no sampling procedure (R6) explains it" in far.message


R3_BACK = ("    draw() { return this.deck[this.pos++]; }", "    draw() { return this.deck[51 - this.pos++]; }")
R8_FULL_BIG_BLIND = ("this.currentBet = Math.max(this.bet[sbSeat], this.bet[bbSeat]); // the largest blind posted (R8)",
                     "this.currentBet = this.bb;")


# R9's checker-reopened is an option the contract's text rules out ("The house convention also does
# not reopen a checker facing only a short opening all-in"; issue #24): an engine taking it fails
# (tests/test_text_rulings.py), it is no longer divergent.


@pytest.mark.parametrize("patch, ruling, option", [(R3_BACK, "R3", "back"), (R8_FULL_BIG_BLIND, "R8", "full-big-blind")],
                         ids=["R3-back", "R8-full-big-blind"])
def test_an_engine_following_a_ruling_alternative_is_divergent_on_exactly_that_ruling(patch, ruling, option):
    assert SOURCE.count(patch[0]) == 1
    families = ["legality", "hands", "tournaments"]
    report = certify(QuickJSDriver(SOURCE.replace(*patch), engine_name="alternative.js"),
                     load_tests(families), {})
    assert report.ok, [(c.id, c.message) for c in report.cases if c.status == "failed"][:3]
    divergent = [c for c in report.cases if c.status == "divergent"]
    assert divergent and all(c.alternative == {ruling: option} and c.rulings == [ruling] for c in divergent)
    assert f"follows {ruling} = {option}" in report.verdict


# An engine that follows two alternatives at once (the reference over --cmd under R8's full-big-blind
# and R15's folded-and-all-in): in hand.random.0.h2 (a seat out of chips, a short big blind) both
# show in decision 0's state, where each alone leaves the other's difference.
TWO_ALTERNATIVES = {"R8": "full-big-blind", "R15": "folded-and-all-in"}
TWO_ALTERNATIVES_ENGINE = f"""
import reference.adapter as _adapter, reference.hand_api as _hand_api
_adapter.create_hand = lambda spec, rulings=None: _hand_api.create_hand(spec, rulings={TWO_ALTERNATIVES!r})
"""
# ... and a bug of its own later in the hand: the second fold recorded as adding one chip.
MISSTATED_FOLD = """
result = reply.get("result")
if isinstance(result, dict) and len(result.get("actions") or []) == 2:
    result["actions"][1]["amount"] = 1
"""


def test_a_difference_that_two_alternatives_together_explain_is_proven_divergent_on_both(tmp_path):
    test = next(t for t in load_tests(["hand"])["hand"] if t["id"] == "hand.random.0.h2")
    for profile in ({"R8": "full-big-blind"}, {"R15": "folded-and-all-in"}):  # each alone differs at decision 0
        alone = play_hand(test["input"], rulings=profile)["decisions"][0]
        assert alone != play_hand(test["input"], rulings=TWO_ALTERNATIVES)["decisions"][0] != test["expected"]["decisions"][0]
    # judged alone (no choice learned from other vectors): the pair reproduces every step
    case = certify(CommandDriver(reference_cmd_engine(tmp_path, prelude=TWO_ALTERNATIVES_ENGINE)), {"hand": [test]},
                   {}).cases[0]
    assert (case.status, case.alternative) == ("divergent", TWO_ALTERNATIVES), case.message
    # with an independent bug no profile reproduces the game: decision 0's differences are each proven
    # on the pair from the engine's own state (step_judge.explain), the bug alone fails
    buggy = reference_cmd_engine(tmp_path, MISSTATED_FOLD, name="buggy.py", prelude=TWO_ALTERNATIVES_ENGINE)
    case = certify(CommandDriver(buggy), {"hand": [test]}, {}).cases[0]
    assert case.status == "failed" and [(f["decision"], f["path"]) for f in case.failures] == [(1, "action.amount")]
    assert "proven divergences: hand 2, decision 0 state.seats[2].allIn divergent on " \
           "R15 = 'folded-and-all-in', R8 = 'full-big-blind'" in case.message


@pytest.mark.parametrize("name", ["refund-counted-as-award"])
def test_a_bug_in_an_acceptable_vector_is_not_divergent(name):
    """A rule bug in vectors resting on a ruling (R8, R13): no alternative reproduces it, so it fails."""
    mutant = next(m for m in MUTANTS if m["name"] == name)
    driver = QuickJSDriver(SOURCE.replace(mutant["find"], mutant["replace"]), engine_name=f"{name}.js")
    families = ["legality", "hands", "tournaments"]
    try:
        _, _, runner = start(driver, families)
        cases = [runner.vector(f, t) for f, tests in load_tests(families).items() for t in tests
                 if t["result"] == "acceptable"]
    finally:
        driver.close()
    assert cases and not [(c.id, c.message) for c in cases if c.status == "divergent"]
    assert [c for c in cases if c.status == "failed"]


def test_a_diff_that_is_cut_says_how_much_is_left_out():
    from conformance.judge.diffs import DIFF_LINES, readable_diff
    diff = readable_diff({f"v{k}": k for k in range(50)}, {f"v{k}": k + 1 for k in range(50)})  # DeepDiff's
    assert diff.splitlines()[-1] == f"… and {50 - DIFF_LINES} more changes"
    big = {f"k{k}": k for k in range(10_000)}  # too large for DeepDiff: the bounded walk, which stops early
    walked = readable_diff({"k": 1}, big)
    assert walked.splitlines()[-1].startswith("… and at least ")
