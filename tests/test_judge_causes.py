"""The judge sees past the first difference (issue #23): it follows an engine's own dealing, judges
on after a failure, and groups the failures of a run by root cause (conformance/judge/causes.py).

The engines are the bundled JS engine with textual patches (as tests/mutants): one that deals from
the lowest seat instead of left of the button, the same with the short-all-in-reopens bug, and the
suite's single-rule mutants.
"""
import copy

from conformance.judge import causes
from conformance.judge.engine_cert import certify, load_tests
from conformance.judge.engine_drivers import QuickJSDriver, Run
from conformance.judge.verdicts import Case
from conformance.judge.family_judges import judge
from js_vector_runner import ENGINE_PATH
from mutants.mutants import MUTANTS
from reference.cards import CANONICAL_DECK
from reference.hand import Hand, deck_dealing, dealing_order

SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
# Hole cards one round at a time from the lowest seat (not from left of the button).
DEAL_FROM_SEAT_0 = ("for (const s of this.order) this.hole[s].push(this.draw());",
                    "for (const s of [...this.order].sort((a, b) => a - b)) this.hole[s].push(this.draw());")
NO_BURN = ("this.draw(); // burn", "// no burn")
REOPENS = next((m["find"], m["replace"]) for m in MUTANTS if m["name"] == "short-all-in-reopens")


def engine(*patches) -> str:
    source = SOURCE
    for find, replace in patches:
        assert source.count(find) == 1, find
        source = source.replace(find, replace)
    return source


def run(source: str, families: list[str], only=None):
    tests = load_tests(families)
    if only is not None:
        tests = {f: [t for t in ts if only(t)] for f, ts in tests.items()}
    return certify(QuickJSDriver(source, engine_name="test-engine.js"), tests, {})


def test_deck_dealing_inverts_the_deal():
    order = dealing_order(2, [True, True, False, True, True])
    assert order == [3, 4, 0, 1]
    dealt = {"hole": {0: ["As", "Ks"], 3: ["2c", "7d"]}, "board": ["Qh", "Jh", "Th", "9h", "8h"]}
    deck = deck_dealing(order, dealt, CANONICAL_DECK)
    assert sorted(deck) == sorted(CANONICAL_DECK)
    hand = Hand(ids=["a", "b", "c", "d", "e"], stacks=[100, 100, 0, 100, 100], button=2, small_blind_seat=3,
                big_blind_seat=4, blinds=(1, 2), deck=deck)
    assert hand.hole[0] == ["As", "Ks"] and hand.hole[3] == ["2c", "7d"]
    # The same cards whatever end the deck is dealt from (R3 = back): dealt fixes who gets what.
    back = Hand(ids=["a", "b", "c", "d", "e"], stacks=[100, 100, 0, 100, 100], button=2, small_blind_seat=3,
                big_blind_seat=4, blinds=(1, 2), deck=CANONICAL_DECK, rulings={"R3": "back"}, dealt=dealt)
    assert back.hole[0] == ["As", "Ks"] and back.hole[3] == ["2c", "7d"]
    for hand in (hand, back):
        while not hand.done:
            hand.act("call" if not hand.legal().can_check else "check")
        assert hand.board == dealt["board"]


def test_a_deal_order_only_engine_has_one_cause_in_every_game_family():
    picked = {"hands": 30, "tournaments": 2, "legality": 6, "hand": 12, "sng3v4": 2}
    seen = {}

    def only(test):
        family = test["id"].split(".")[0]
        seen[family] = seen.get(family, 0) + 1
        return seen[family] <= picked[family]

    report = run(engine(DEAL_FROM_SEAT_0), list(picked), only)
    failed = [c for c in report.cases if c.status == "failed"]
    assert {c.group for c in failed} == set(picked), report.counts()
    for case in failed:
        assert [f["clause"] for f in case.failures] == ["rules.deal-order"], (case.id, case.message)
        assert case.breaks == "rules.deal-order" and "judged on the cards it dealt" in case.message, case.id
    found = causes.group(report.cases)
    assert [(c.breaks, c.count) for c in found] == [("rules.deal-order", len(failed))]
    assert sorted(found[0].vectors) == sorted(c.id for c in failed)


def test_a_deal_order_engine_with_one_betting_bug_has_two_causes():
    report = run(engine(DEAL_FROM_SEAT_0, REOPENS), ["hands"])
    alone = run(engine(REOPENS), ["hands"])
    found = causes.group(report.cases)
    # Two causes: the dealing, and the reopening bug. The bug breaks both clauses of the text's rule
    # on short all-ins (a short all-in reopens no one who acted; a checker facing only a short opening
    # all-in is not reopened, R9's ruled-out option reproducing that part): one cause naming both,
    # the same as when the engine deals the contract's way.
    assert sorted(c.breaks for c in found) == ["rules.deal-order", "rules.short-allin"], [c.title() for c in found]
    reopen = next(c for c in found if c.breaks == "rules.short-allin")
    assert reopen.clauses == ["rules.short-allin", "rules.checker-convention"]
    assert reopen.reproduces == {"rules.checker-convention": {"R9": "checker-reopened"}}
    assert "reproduces its rules.checker-convention failures" in reopen.title()
    assert reopen.as_json()["clauses"] == reopen.clauses
    assert reopen.as_json()["reproduces"] == {"rules.checker-convention": {"R9": "checker-reopened"}}
    betting = [c for c in causes.group(alone.cases)]
    assert [(c.key(), c.clauses) for c in betting] == [(reopen.key(), reopen.clauses)]
    # The betting bug is found in the same vectors as when the engine deals the contract's way.
    assert sorted(reopen.vectors) == sorted(betting[0].vectors) and reopen.count == betting[0].count
    assert reopen.kind == "a raise offered where raising is closed" and reopen.field == "state.minRaiseTo"
    assert reopen.example["first"]["clause"] == "rules.short-allin"


def failed_case(cid, clause, alternative=None):
    """A failed case with one failure: a raise offered where raising is closed."""
    return Case(id=cid, group="hands", status="failed", message="m", failures=[
        {"hand": 1, "decision": 3, "path": "state.minRaiseTo", "expected": None, "actual": 40,
         "clause": clause, **({"alternative": alternative} if alternative else {})}])


def test_failures_of_different_rules_are_not_one_cause():
    """The same field and kind of difference under clauses of different rules are different bugs:
    a raise offered with no one to respond is not the short all-in rule's."""
    found = causes.group([failed_case("hands.a", "rules.short-allin"),
                          failed_case("hands.b", "rules.no-responder"),
                          failed_case("hands.c", "rules.checker-convention")])
    assert sorted((c.breaks, tuple(c.clauses), c.count) for c in found) == [
        ("rules.no-responder", ("rules.no-responder",), 1),
        ("rules.short-allin", ("rules.short-allin", "rules.checker-convention"), 2)]
    assert all("clauses" not in c.as_json() for c in found if c.breaks == "rules.no-responder")


def test_a_cause_of_one_rules_clauses_shows_each_clause_and_the_part_its_option_reproduces():
    """The JSON, the terminal title and the HTML page name every clause of the cause, and the
    ruled-out option as a diagnosis of the part it reproduces (not of the whole cause)."""
    from conformance.report.html import _causes

    [cause] = causes.group([failed_case("hands.a", "rules.short-allin"),
                            failed_case("hands.c", "rules.checker-convention", {"R9": "checker-reopened"})])
    data = cause.as_json()
    assert data["breaks"] == "rules.short-allin" and data["clauses"] == ["rules.short-allin", "rules.checker-convention"]
    assert data["reproduces"] == {"rules.checker-convention": {"R9": "checker-reopened"}}
    assert cause.title().startswith("breaks rules.short-allin and rules.checker-convention: state.minRaiseTo")
    page = _causes([data])
    assert "<code>rules.short-allin</code>" in page and "<code>rules.checker-convention</code>" in page
    assert ("the reference under R9 = checker-reopened reproduces its rules.checker-convention failures: "
            "a diagnosis, not an excuse") in page
    # one clause, one option: the option reproduces the cause itself
    [alone] = causes.group([failed_case("hands.c", "rules.checker-convention", {"R9": "checker-reopened"})])
    assert "reproduces" not in alone.as_json()
    assert "R9 = checker-reopened reproduces it: a diagnosis, not an excuse" in _causes([alone.as_json()])


def test_a_second_bug_in_a_later_hand_is_found_after_resynchronising():
    """A misstated action in one hand, an independent one in a later hand: two failures, each the
    first divergence of its hand; the first hand's consequences are counted under it."""
    test = next(t for t in load_tests(["tournaments"])["tournaments"] if t["id"] == "tournaments.six-seats-mixed")
    driver = QuickJSDriver(SOURCE, engine_name="poker-engine.js")
    try:
        driver.start()
        r = driver.run("tournaments", test).value
    finally:
        driver.close()
    hands = [state["handNumber"] for state in r["decisions"]]
    k = hands.index(3)  # hand 3's first decision
    late = hands.index(9)
    r = copy.deepcopy(r)
    r["actions"][k]["amount"] += 1
    r["decisions"][late]["currentBet"] += 1
    j = judge("tournaments", test, Run("result", r))
    assert j.status == "failed"
    assert [(d.hand, d.decision) for d in j.failures] == [(3, k), (9, late)]
    assert j.failures[1].path == "state.currentBet"


def test_a_recovery_not_taken_into_effect_names_r26s_elimination_clause_whatever_field_shows_it():
    """holdem-sng-3-v4 (R26): the reference's seat has recovered and is in the hand, the engine's
    stays auto-folded (folded with no fold of its own); the pots show it first, the clause is
    rules.elimination. The same pots difference with the same seats folded is not R26's."""
    from conformance.judge.field_clauses import _context_clause

    def state(folded: bool, pot: int) -> dict:
        return {"seats": [{"id": "a", "folded": False, "out": False}, {"id": "b", "folded": folded, "out": False},
                          {"id": "c", "folded": False, "out": False}],
                "actions": [{"id": "a", "type": "call"}], "pots": [{"amount": pot, "eligible": ["a", "b", "c"]}]}
    recovered, kept_folded = state(False, 60), state(True, 40)
    assert _context_clause(".pots[0].amount", recovered, kept_folded) == "rules.elimination"
    # inside a step's record (state, action, error): its state decides
    assert _context_clause(".state.pots[0].amount", {"state": recovered, "action": None},
                           {"state": kept_folded, "action": None}) == "rules.elimination"
    assert _context_clause(".pots[0].amount", state(False, 60), state(False, 40)) is None
    # a seat that folded on its own is no auto-fold
    folded_itself = state(True, 40)
    folded_itself["actions"].append({"id": "b", "type": "fold"})
    assert _context_clause(".pots[0].amount", {**recovered, "actions": folded_itself["actions"]}, folded_itself) is None


def test_seats_out_in_one_hand_placed_in_another_order_is_the_simultaneous_rule_whichever_record_shows_it():
    """Issue #38 item 2: the order of a hand's simultaneous eliminations (R17) shows in the log's
    `eliminated` and in the standings read while a game is in play (R43): one behaviour; seats out in
    different hands, or other places, are not it."""
    from conformance.judge.field_clauses import SIMULTANEOUS_ORDER, _context_clause
    rec = lambda *seats: [{"handNumber": 3, "eliminated": list(seats)}]
    assert _context_clause("[0].eliminated[0]", rec("a", "b"), rec("b", "a")) == ("rules.simultaneous", SIMULTANEOUS_ORDER)
    assert _context_clause("[0].eliminated[0]", rec("a", "b"), rec("c", "a")) != ("rules.simultaneous", SIMULTANEOUS_ORDER)
    entry = lambda i, place, hand: {"id": i, "place": place, "eliminatedInHand": hand, "chips": 0 if hand else 9}
    ours = [entry("a", 3, 4), entry("b", 2, 4), entry("c", None, None)]
    swapped = [entry("a", 2, 4), entry("b", 3, 4), entry("c", None, None)]
    assert _context_clause("[0].place", ours, swapped) == ("rules.simultaneous", SIMULTANEOUS_ORDER)
    apart = [entry("a", 2, 5), entry("b", 3, 4), entry("c", None, None)]  # out in another hand: not the order
    assert _context_clause("[0].place", ours, apart) != ("rules.simultaneous", SIMULTANEOUS_ORDER)
    other = [entry("a", 1, 4), entry("b", 3, 4), entry("c", None, None)]  # a place no seat of that hand had
    assert _context_clause("[0].place", ours, other) != ("rules.simultaneous", SIMULTANEOUS_ORDER)
