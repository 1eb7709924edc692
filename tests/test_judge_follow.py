"""Every bug of an engine in one run, each under its root cause (issue #38): the judge follows the
engine's own state through every transition (conformance/judge/following.py), so a defect at
decision 0 of every hand hides nothing after it, and each difference is classified by what differs.

The engines are the bundled JS engine with textual patches (as tests/mutants)."""
from conformance.judge import causes
from conformance.judge.engine_cert import certify
from conformance.judge.engine_drivers import CommandDriver, QuickJSDriver
from conformance.judge.hand_judge import NEVER_ENDS
from conformance.vectors.gamespec import play_hand
from conformance.vectors.vectorfile import make_test
from cli_helpers import reference_cmd_engine
from mutants.mutants import MUTANTS
from test_judge_causes import engine, run

# pokerkit's first defect (issue #38): the minimum raise shown as the big blind plus the small blind
# (a raise step of the small blind), in every hand's state where raising is open: decision 0 of every hand.
MIN_RAISE_BY_SMALL_BLIND = ("      minRaiseTo: legal.minRaiseTo,\n",
                            "      minRaiseTo: legal.minRaiseTo === null ? null : legal.currentBet + hand.sb,\n")


def _patch(name: str) -> tuple:
    m = next(m for m in MUTANTS if m["name"] == name)
    return m["find"], m["replace"]


def test_a_decision_0_defect_in_every_hand_hides_none_of_three_later_ones():
    source = engine(MIN_RAISE_BY_SMALL_BLIND, _patch("refund-counted-as-award"), _patch("wheel-not-a-straight"),
                    _patch("short-all-in-reopens"))
    report = run(source, ["hand"])
    found = causes.group(report.cases)
    assert sorted(c.breaks for c in found) == ["rules.short-allin", "rules.wheel", "state.history-winners",
                                              "state.min-raise-to"], [c.title() for c in found]
    first = next(c for c in found if c.breaks == "state.min-raise-to")
    assert first.example["first"]["decision"] == 0 and first.kind == "less than due"
    # every later cause shows where its own failure is, not the vector's decision-0 difference
    for cause in found:
        if cause is not first:
            assert cause.example["first"]["clause"] == cause.breaks
            assert cause.example["message"].startswith(("at ", "first divergence")) and cause.breaks in cause.example["message"]


def test_refunds_that_shift_the_winners_list_break_history_winners_in_every_family():
    source = engine(_patch("refund-counted-as-award"))
    report = run(source, ["hand", "hands", "tournaments"])
    found = causes.group(report.cases)
    assert found and {c.breaks for c in found} == {"state.history-winners"}, [c.title() for c in found]
    assert {c.group for c in report.cases if c.status == "failed"} == {"hand", "hands", "tournaments"}


# ---- the clause from what differs (issue #38, item 2): a test per kind ----------------------------

LONE_SOLVENT_ASKED = ("if (bet[s] < cb || (acted[s] === NOT_ACTED && solvent >= 2)) return s;",
                      "if (bet[s] < cb || (acted[s] === NOT_ACTED && solvent >= 1)) return s;")
BOARD_AFTER_FOLD_WIN = ("        this.refundUncalled();\n        this.awardFold(live[0]);",
                        "        this.refundUncalled();\n        while (this.street < 3) this.nextStreet();\n"
                        "        this.awardFold(live[0]);")
REFUSES_ONE_CHIP_STACKS = ("    const v = validatedHandSpec(spec);\n",
                           "    const v = validatedHandSpec(spec);\n    if (v.stacks.includes(1)) "
                           "throw Object.assign(new Error('stacks: a stack of one chip'), {field: 'stacks'});\n")


def _causes_of(source: str, only=None) -> list:
    return causes.group(run(source, ["hand"], only).cases)


def test_a_seat_asked_to_act_that_must_not_act_is_one_cause_of_the_lone_solvent_rule():
    found = _causes_of(engine(LONE_SOLVENT_ASKED))
    assert [(c.breaks, c.kind) for c in found] == [("rules.lone-solvent", "a seat asked to act that must not act")], \
        [c.title() for c in found]


# The same bug in the reference over --cmd (docs/engine-protocol.md, hand): a seat that has not acted
# is asked even when no one else can respond.
LONE_SOLVENT_ASKED_PY = """
from reference.hand import Hand


def _asks_the_lone_solvent(self, start):
    for s in self._ring[start:start + len(self.order)]:
        if not self.folded[s] and self.stacks[s] > 0 and (self.bet[s] < self.current_bet or self.acted[s] is None):
            return s
    return None


Hand._next_to_act = _asks_the_lone_solvent
"""


def test_a_hand_that_never_ends_over_cmd_names_the_seat_it_waits_on_as_the_js_driver_does(tmp_path):
    """Heads-up, the small blind calls all-in for less than the big blind: the hand runs out, the big
    blind (the lone solvent seat, owing nothing) must not act. The engine asks it after the script's
    last answer: the hand never ends. Over --cmd, ``waiting`` (the state it waits on, as
    ``python -m reference.adapter`` reports it) names the seat, the same difference the JS driver
    gives; without ``waiting`` the hand fails at ``over`` (rules.end), as documented."""
    deck = ["Kh", "Qh", "7c", "Ah", "Kd", "Qd", "2c", "Ad", "4c", "3c", "4d", "9h"]
    spec = {"ids": ["s1", "s2"], "stacks": [15, 1000], "button": 0, "smallBlindSeat": 0, "bigBlindSeat": 1,
            "blinds": [10, 20], "deck": deck, "handNumber": 1}
    vector_input = {"hand": spec, "script": ["allin"]}
    test = make_test({}, "hand.lone-solvent-short-call", "the lone solvent seat owes nothing", ["rules.lone-solvent"],
                     vector_input, play_hand(vector_input), [])
    assert test["expected"]["over"] is True
    asked = {"breaks": "rules.lone-solvent", "kind": "a seat asked to act that must not act", "decision": 1,
             "path": "state.you.seat", "actual": 1}

    def first(driver) -> dict:
        case = certify(driver, {"hand": [test]}, {}).cases[0]
        assert case.status == "failed", case.message
        return {"breaks": case.breaks, **{k: case.first.get(k) for k in ("kind", "decision", "path", "actual")}}

    assert first(QuickJSDriver(engine(LONE_SOLVENT_ASKED), engine_name="lone-solvent.js")) == asked
    assert first(CommandDriver(reference_cmd_engine(tmp_path, prelude=LONE_SOLVENT_ASKED_PY))) == asked
    silent = reference_cmd_engine(tmp_path, 'if isinstance(reply.get("result"), dict):\n'
                                  '    reply["result"].pop("waiting", None)', name="silent.py", prelude=LONE_SOLVENT_ASKED_PY)
    assert first(CommandDriver(silent)) == {"breaks": "rules.end", "kind": NEVER_ENDS, "decision": None,
                                            "path": "over", "actual": False}


def test_a_board_dealt_after_a_fold_win_breaks_secrecy():
    found = _causes_of(engine(BOARD_AFTER_FOLD_WIN))
    assert [(c.breaks, c.kind) for c in found] == [
        ("state.secrecy", "a board dealt after a fold win (deck cards the hand never dealt)")], [c.title() for c in found]


def test_a_valid_hand_refused_at_creation_is_one_cause_naming_what_was_refused():
    found = _causes_of(engine(REFUSES_ONE_CHIP_STACKS))
    assert [(c.breaks, c.kind) for c in found] == [("rules.seats", "a valid hand refused at creation (its stacks)")], \
        [c.title() for c in found]
    assert found[0].count > 1


def test_the_odd_chip_and_the_wheel_have_their_own_clauses():
    for name, clause in (("odd-chip-wrong-seat", "rules.odd-chips"), ("wheel-not-a-straight", "rules.wheel")):
        found = _causes_of(engine(_patch(name)))
        assert [c.breaks for c in found] == [clause], (name, [c.title() for c in found])


def _record(winners, showdown=(), board=("2c", "7d", "9h", "Js", "Kd")):
    return {"board": list(board), "showdown": list(showdown),
            "winners": [{"id": i, "amount": a} for i, a in winners]}


def test_award_differences_are_classified_by_what_differs():
    from conformance.judge.field_clauses import award_difference
    two = [{"id": "a", "cards": ["Ah", "Qc"]}, {"id": "b", "cards": ["As", "Qd"]}, {"id": "c", "cards": ["3h", "4c"]}]
    tie = _record([("a", 51), ("b", 50)], two)
    assert award_difference(tie, _record([("a", 51), ("b", 50), ("c", 20)], two)) == (
        "state.history-winners", "more awarded than won (a refund counted as an award)")
    assert award_difference(tie, _record([("a", 50), ("b", 51)], two))[0] == "rules.odd-chips"
    # two chips moved between tied winners: not one odd chip, the pots shared otherwise (bound found by mutmut)
    assert award_difference(tie, _record([("a", 49), ("b", 52)], two))[0] == "rules.side-pots"
    assert award_difference(tie, _record([("a", 50), ("b", 50)], two)) == ("rules.odd-chips", "an odd chip not awarded")
    assert award_difference(tie, _record([("a", 101)], two)) == ("rules.split", "a tie not split")
    assert award_difference(_record([("c", 101)], two), _record([("a", 101)], two)) == (
        "rules.best-five", "hands ranked otherwise (a shown hand's name, another winner)")
    wheel = _record([("c", 100)], [{"id": "c", "cards": ["Ah", "4c"]}, {"id": "a", "cards": ["Kh", "Kc"]}],
                    board=("2c", "3d", "5h", "9s", "Kd"))
    assert award_difference(wheel, _record([("a", 100)], wheel["showdown"], wheel["board"]))[0] == "rules.wheel"
    layered = _record([("a", 300), ("b", 100)], two)
    assert award_difference(layered, _record([("a", 200), ("b", 200)], two))[0] == "rules.side-pots"


def test_another_seat_asked_in_a_state_compared_whole_is_the_acting_order_heads_up_or_multiway():
    """A state compared as a whole (a legality vector's): who is asked is the acting order's rule,
    heads-up's where two seats are not out (bound found by mutmut)."""
    from conformance.judge.comparison import Comparison

    def clause(seats: int, out: int = 0) -> str:
        state = {"you": {"seat": 0}, "seats": [{"seat": k, "out": k < out} for k in range(seats)]}
        c = Comparison()
        c.compare(1, 0, "state", state, {**state, "you": {"seat": seats - 1}})
        return c.first.clause

    assert clause(2) == clause(4, out=2) == "rules.heads-up-order"
    assert clause(3) == "rules.multiway-order"


def test_another_button_is_the_heads_up_transition_with_two_seats_in_else_the_button_rule():
    from conformance.judge.comparison import Comparison

    def clause(seats: int, out: int = 0) -> tuple:
        state = {"buttonSeat": 0, "seats": [{"seat": k, "out": k < out} for k in range(seats)]}
        c = Comparison()
        c.compare(1, 0, "state", state, {**state, "buttonSeat": seats - 1})
        return c.first.clause, c.first.kind

    assert clause(2) == clause(4, out=2) == ("rules.heads-up-transition", "another button (and the blinds after it)")
    assert clause(3) == ("rules.button", "another button (and the blinds after it)")


def test_a_pots_difference_says_which_seat_is_eligible_and_which_amount_is_short_in_javascript_notation():
    from conformance.judge.diffs import pots_differences
    lines = pots_differences([{"amount": 300, "eligible": ["a", "b"]}, {"amount": 400, "eligible": ["a"]}],
                             [{"amount": 300, "eligible": ["a", "b", "c"]}, {"amount": 300, "eligible": ["a"]},
                              {"amount": 100, "eligible": ["b"]}])
    assert lines == ['pots[0]: "c" is eligible and should not be', "pots[1].amount is 300, expected 400: 100 short",
                     'pots[2] {"amount":100,"eligible":["b"]} should not be there']


def test_a_v4_step_is_judged_on_the_engine_clock_and_a_timeout_fold_where_check_is_legal_follows_its_auto_fold():
    """Issue #38, item 3: a holdem-sng-3-v4 step judged from the engine's own state is late by the
    engine's clock (``timeLimitMs``), and its timeout fold where checking is legal puts the seat in
    auto-fold at the reference's count of its consecutive timeouts (the engine's count, R22)."""
    from conformance.judge.trajectory import ReferenceGame
    spec = {"seats": ["a", "b", "c"], "options": {"ruleset": "holdem-sng-3-v4", "seed": 9}}
    answer = {"answer": "call", "atMs": 10_000}
    assert ReferenceGame(spec).state()["timeLimitMs"] == 15_000
    assert ReferenceGame(spec).step(answer)["error"] is None  # timely on the reference's own clock
    assert ReferenceGame(spec).step(answer, 5_000)["error"] == "late"  # late on the engine's
    ref = ReferenceGame(spec)
    ref.act("call"), ref.act("call")  # the button and the small blind call: the big blind may check
    state = ref.state()
    seat = state["you"]["seat"]
    assert state["canCheck"] and ref.step({"timeout": True})["action"]["type"] == "check"
    fold = {"id": state["you"]["id"], "street": "preflop", "type": "fold", "amount": 0}
    ref.follow_timeout({**state, "canCheck": False}, fold)  # a fold where checking is not legal: no auto-fold
    assert not ref.t.auto_folded[seat] and ref.t.ruleset.timeouts_to_auto_fold == 3
    ref.follow_timeout(state, fold)
    assert ref.t.auto_folded[seat] and ref.t.ruleset.timeouts_to_auto_fold == 1


def _v4_game_at_hand_2(timeouts: int):
    """A holdem-sng-3-v4 reference game whose first seat to act timed out ``timeouts`` times (0 or 1)
    in hand 1 (a fold: it faces the big blind), standing at hand 2's first decision; and that seat."""
    from conformance.judge.trajectory import ReferenceGame
    ref = ReferenceGame({"seats": ["a", "b", "c"], "options": {"ruleset": "holdem-sng-3-v4", "seed": 9}})
    seat = ref.state()["you"]["seat"]
    ref.step({"timeout": True} if timeouts else "fold")
    while ref.t.hand_number == 1:
        ref.t.act("check" if ref.state()["canCheck"] else "call")
    return ref, seat


def _dealt_in_auto_folded(state: dict, seat: int) -> dict:
    return {**state, "seats": [{**x, "folded": x["folded"] or k == seat} for k, x in enumerate(state["seats"])]}


def test_a_seat_the_engine_deals_in_auto_folded_after_fewer_timeouts_than_the_count_sets_the_engines_count():
    """Issue #38: a v4 seat the engine's state shows auto-folded (folded, no fold of its own) after
    one consecutive timeout is auto-folded at the engine's count, which the reference takes as its
    own (R22's count, timing.fallback); a seat without a timeout auto-folded so is no count."""
    ref, seat = _v4_game_at_hand_2(timeouts=1)
    assert ref.t.consecutive_timeouts[seat] == 1 and not ref.t.auto_folded[seat]
    assert ref.auto_folded_sooner(_dealt_in_auto_folded(ref.state(), seat))
    assert ref.t.auto_folded[seat] and ref.t.ruleset.timeouts_to_auto_fold == 1
    ref, seat = _v4_game_at_hand_2(timeouts=0)
    assert not ref.auto_folded_sooner(_dealt_in_auto_folded(ref.state(), seat))
    assert not ref.t.auto_folded[seat] and ref.t.ruleset.timeouts_to_auto_fold == 3
    assert not ref.auto_folded_sooner(ref.state())  # no auto-fold differs


def test_a_resynchronised_reference_keeps_no_record_of_the_hands_it_played_past_the_engines_hand():
    """Issue #38: resuming at the engine's hand N, the reference drops its own records of hands N and
    later (hands it played alone, its seats sitting out in an auto-fold the engine's do not have):
    log() and history() are compared on the hands it follows."""
    ref, _ = _v4_game_at_hand_2(timeouts=0)
    engine_hand_2 = ref.state()
    for _ in range(2):  # the reference plays hands 2 and 3 on its own
        number = ref.t.hand_number
        while ref.t.hand_number == number:
            ref.t.act("check" if ref.state()["canCheck"] else "call")
    assert [h["handNumber"] for h in ref.t.hands] == [1, 2, 3]
    assert ref.resync({**engine_hand_2, "history": None})
    assert [h["handNumber"] for h in ref.t.hands] == [1] and [e["handNumber"] for e in ref.t.history] == [1]
    assert ref.state() == {**engine_hand_2, "history": ref.state()["history"]}


def test_a_lone_hand_state_with_a_seat_folded_without_a_fold_of_its_own_is_one_difference():
    """A lone hand (no timeouts, no auto-fold count) is judged as before: a seat folded without a fold
    of its own is one difference of who sits out (rules.elimination), the rest followed."""
    from conformance.judge.comparison import Comparison
    from conformance.judge.engine_cert import load_tests
    from conformance.judge.following import AUTO_FOLDED, judge_state
    from conformance.judge.hand_judge import ReferenceHand
    test = load_tests(["hand"])["hand"][0]
    ref = ReferenceHand({"hand": test["input"]["hand"]})
    state = ref.state()
    other = next(k for k in range(len(state["seats"])) if k != state["you"]["seat"])
    out = Comparison()
    judge_state(out, ref, state["handNumber"], 0, state, _dealt_in_auto_folded(state, other))
    assert [(d.path, d.clause, d.kind) for d in out.firsts] == [("state.seats", "rules.elimination", AUTO_FOLDED)]
