"""Ruling profiles (reference.rulings): every documented alternative plays as docs/rulings.md says,
the default profile is today's behaviour, bad profiles are named, and any profile keeps the
invariants (chips conserved, every hand ends)."""
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from conformance.vectors.gamespec import STRATEGIES, game, tournament
from reference import Hand, OptionError, Tournament, build_pots, pinned_deck
from reference.cards import CANONICAL_DECK
from reference.hand import complete_deck
from reference.ruleset import CONTRACT_V1, SNG_3_V4
from reference.rulings import DEFAULT, RULINGS, Profile, profiles_to_try
from tests.scenario import play, table
from tests.test_invariants import check_hand_record, check_state

V4 = "holdem-sng-3-v4"


def check_down(t):
    """Play the tournament out, every seat checking or calling."""
    while not t.over:
        t.act("check" if t.decision_state()["canCheck"] else "call")


# -- the table of rulings ------------------------------------------------------------------------
def test_every_ruling_is_listed_with_its_default_among_its_options():
    documented = re.findall(r"^## (R\d+) ", (Path(__file__).resolve().parent.parent / "docs" / "rulings.md")
                            .read_text(encoding="utf-8"), re.M)
    assert list(RULINGS) == documented == [f"R{i}" for i in range(1, len(documented) + 1)]
    for rid, ruling in RULINGS.items():
        assert ruling.id == rid and ruling.default in ruling.options and ruling.options
        assert len(set(ruling.options)) == len(ruling.options)
        assert ruling.default_for(CONTRACT_V1) in ruling.options
    for rid in ("R1", "R2", "R4", "R5", "R6"):  # judged by properties or statistics instead
        assert RULINGS[rid].options == (RULINGS[rid].default,)


def test_defaults_depend_on_the_ruleset_where_the_ruleset_decides():
    assert RULINGS["R17"].default_for(CONTRACT_V1) == "button-relative"
    assert RULINGS["R17"].default_for(V4) == "seat-order"  # R27's tie-break by seat number
    assert RULINGS["R25"].default_for(V4) == "winners-needed-cards"
    assert RULINGS["R25"].default_for(CONTRACT_V1) == "all-showdown-hands"
    assert RULINGS["R22"].default_for(V4) == "as-timeout"
    assert RULINGS["R16"].default_for(V4) == "button-advances"  # v4's text, no transition (issue #14)
    assert RULINGS["R16"].default_for(CONTRACT_V1) == "big-blind-advances"
    assert RULINGS["R27"].default_for(V4) == "lower-seat"
    assert RULINGS["R31"].default_for(V4) == "contested-pots"
    # Each ruleset is its own defaults' fixed point.
    for rules in (CONTRACT_V1, SNG_3_V4):
        assert Profile({r.id: r.default_for(rules) for r in RULINGS.values()}).apply(rules) == rules


def test_profiles_to_try_singles_then_pairs_in_a_fixed_order():
    got = [dict(p) for p in profiles_to_try(["R15", "R8", "R8"])]
    assert got == [{"R8": "full-big-blind"}, {"R15": "folded-and-all-in"},
                   {"R8": "full-big-blind", "R15": "folded-and-all-in"}]
    assert list(profiles_to_try(["R16"])) == [] and list(profiles_to_try(["R16"], ruleset=V4)) == []  # the text decides
    # The first-winner options are ruled out by the text (issue #24): never tried as divergences.
    assert [dict(p) for p in profiles_to_try(["R13", "R14"], max_combined=3)] == [
        {"R13": "raw-layers"}, {"R14": "left-of-button"}, {"R13": "raw-layers", "R14": "left-of-button"}]
    assert list(profiles_to_try(["R1", "R2"])) == []  # nothing playable
    assert [dict(p) for p in profiles_to_try(["R15"], ruleset=V4)] == [{"R15": "folded-and-all-in"}]
    assert list(profiles_to_try(["R8", "R9", "R16"], max_combined=1)) == list(profiles_to_try(["R16", "R9", "R8"], 1))


def test_options_a_rulesets_text_rules_out_are_never_tried_under_it():
    # holdem-sng-3-v4's text decides the button and the reveal (issue #14): no alternative there,
    # so an engine taking v1's heads-up transition or showing unneeded cards fails under v4.
    assert RULINGS["R16"].options_for(V4) == ("button-advances",) and RULINGS["R16"].alternatives(V4) == ()
    assert RULINGS["R25"].options_for(V4) == ("winners-needed-cards",) and RULINGS["R25"].alternatives(V4) == ()
    # v1's text decides it too: "On the transition to heads-up, the big blind advances from the
    # previous big blind and the other survivor becomes the button" (issue #24).
    assert RULINGS["R16"].options_for(CONTRACT_V1) == ("big-blind-advances",) and RULINGS["R16"].alternatives(CONTRACT_V1) == ()
    assert RULINGS["R27"].alternatives(V4) == ("starting-stack",)
    assert [dict(p) for p in profiles_to_try(["R16", "R25", "R27", "R31"], ruleset=V4)] == [
        {"R27": "starting-stack"}, {"R31": "any-showdown-pot"}, {"R27": "starting-stack", "R31": "any-showdown-pot"}]


# Issue #24, item 1 (docs/rulings.md, Audit of the alternatives): options the contract's own words
# rule out, per ruleset, each with the clause an engine taking it breaks.
RULED_OUT = {
    "contract-v1": {("R9", "checker-reopened"): "rules.checker-convention",
                    ("R13", "first-winner-in-seat-order"): "rules.odd-chips",
                    ("R13", "first-winner-left-of-button"): "rules.odd-chips",
                    ("R15", "all-in"): "state.seats", ("R15", "neither"): "state.seats",
                    ("R16", "button-advances"): "rules.heads-up-transition",
                    ("R17", "seat-order"): "rules.simultaneous", ("R20", "amount-street-total"): "state.actions",
                    ("R25", "winners-needed-cards"): "rules.showdown-public", ("R27", "lower-seat"): "rules.simultaneous"},
    V4: {("R9", "checker-reopened"): "rules.checker-convention",
         ("R13", "first-winner-in-seat-order"): "rules.odd-chips",
         ("R13", "first-winner-left-of-button"): "rules.odd-chips",
         ("R15", "all-in"): "state.seats", ("R15", "neither"): "state.seats",
         ("R16", "big-blind-advances"): "rules.button", ("R17", "button-relative"): "rules.simultaneous",
         ("R20", "amount-street-total"): "state.actions", ("R25", "all-showdown-hands"): "rules.showdown-public"},
}


@pytest.mark.parametrize("ruleset", sorted(RULED_OUT))
def test_the_options_the_text_rules_out_are_records_with_the_words_and_the_clause(ruleset):
    from conformance.vectors.clauses import CLAUSES
    from reference.rulings import diagnoses_to_try, ruled_out_in
    # The contract's text, where this checkout has it beside it (it is not part of the repository).
    root = Path(__file__).resolve().parent.parent
    where = next((d for d in (root.parent / "shared" / "contract", root.parent.parent / "shared" / "contract")
                  if (d / "bot-contract-v1.md").is_file()), None)
    contract = " ".join(" ".join((where / n).read_text().split()) for n in ("bot-contract-v1.md", "holdem-sng-3-v4.md")) \
        if where else None
    got = {}
    for ruling in RULINGS.values():
        for record in ruling.ruled_out_for(ruleset):
            got[(ruling.id, record.option)] = record.clause
            assert record.clause in CLAUSES and record.ruleset == ruleset
            assert contract is None or " ".join(record.words.split()) in contract, record  # the contract's own words
            assert record.option not in ruling.alternatives(ruleset) and record.option != ruling.default_for(ruleset)
            assert Profile({ruling.id: record.option})  # still playable by the reference, for the diagnosis
    assert got == RULED_OUT[ruleset]
    assert RULINGS["R16"].alternatives(ruleset) == ()  # each ruleset's text decides the button (issue #24)
    singles = [dict(p) for p in diagnoses_to_try(["R9", "R10"], ruleset)]
    assert singles == [{"R9": "checker-reopened"}, {"R9": "checker-reopened", "R10": "responder-above-bet"}]
    assert [r.option for r in ruled_out_in({"R9": "checker-reopened", "R10": "responder-above-bet"}, ruleset)] == [
        "checker-reopened"]


@pytest.mark.parametrize("bad, field, words", [
    ({"R99": "x"}, "rulings", "unknown ruling 'R99'"),
    ({"R3": "middle"}, "rulings.R3", "unknown option 'middle' (options: front, back)"),
    ({3: "back"}, "rulings", "unknown ruling 3"),
    (["R3"], "rulings", "expected a mapping"),
])
def test_bad_profiles_name_the_ruling_and_the_option(bad, field, words):
    for make in (Profile, lambda b: Tournament(["a", "b"], rulings=b), lambda b: tournament({"seats": ["a", "b"], "rulings": b})):
        with pytest.raises(OptionError) as exc:
            make(bad)
        assert exc.value.field == field and words in exc.value.reason
    with pytest.raises(OptionError) as exc:
        list(profiles_to_try(["R3", "R0"]))
    assert "R0" in str(exc.value)


def test_a_profile_is_immutable_hashable_and_ordered_by_ruling_number():
    p = Profile({"R16": "button-advances", "R3": "back"})
    assert list(p) == ["R3", "R16"] and p == {"R3": "back", "R16": "button-advances"}
    assert hash(p) == hash(Profile(dict(p))) and DEFAULT == {} and len(DEFAULT) == 0
    with pytest.raises(TypeError):
        p["R3"] = "front"  # type: ignore[index]


# -- the default profile is today's behaviour -------------------------------------------------------
def test_the_default_profile_changes_nothing():
    assert DEFAULT.apply(CONTRACT_V1) is CONTRACT_V1 and DEFAULT.apply(SNG_3_V4) is SNG_3_V4
    every_default = {r.id: r.default_for(CONTRACT_V1) for r in RULINGS.values()}
    for seed, n in ((1, 2), (2, 3), (3, 6), (4, 9)):
        base = game([f"p{i}" for i in range(n)], seed=seed, maxHands=30, startingStack=1500)
        plain, explicit = tournament(base), tournament({**base, "rulings": every_default})
        for t in (plain, explicit):
            while not t.over:
                t.act(STRATEGIES["cycler"](t.decision_state()))
        assert json.dumps(explicit.hands) == json.dumps(plain.hands) and explicit.standings() == plain.standings()


def test_gamespec_passes_rulings_on_and_game_writes_them_only_when_given():
    assert "rulings" not in game(["a", "b"], seed=1)
    spec = game(["a", "b"], rulings={"R16": "button-advances"}, seed=1)
    assert spec["rulings"] == {"R16": "button-advances"}
    assert tournament(spec).rulings == {"R16": "button-advances"}


# -- each alternative, in a pinned scenario ----------------------------------------------------------
def test_r3_back_deals_from_the_end_of_the_deck():
    holes = {0: "AhKh", 1: "2c3d"}
    deck = pinned_deck(holes, 2)
    front = Tournament(["a", "b"], decks={1: deck}, max_hands=1)
    back = Tournament(["a", "b"], decks={1: deck}, max_hands=1, rulings={"R3": "back"})
    assert front.hand.hole == {1: ["2c", "3d"], 0: ["Ah", "Kh"]}
    # Heads-up the non-button seat is dealt first: from the end, As (seat 1), Ks, Qs, Js.
    assert complete_deck(deck)[-4:] == ["Js", "Qs", "Ks", "As"]
    assert back.hand.hole == {1: ["As", "Qs"], 0: ["Ks", "Js"]}
    # pinned_deck under R3 back builds the deck that deals the same cards from the end.
    again = pinned_deck(holes, 2, board="5c6c7c8c9c", rulings={"R3": "back"})
    assert len(again) == 52 and again[-1] == "2c"
    t = table([1000, 1000], holes, "5c6c7c8c9c", rulings={"R3": "back"})
    assert t.hand.hole == {1: ["2c", "3d"], 0: ["Ah", "Kh"]}
    check_down(t)
    assert t.history[0]["board"] == ["5c", "6c", "7c", "8c", "9c"]


def test_r7_stand_alone_keeps_the_dead_top_layer_apart():
    contributions = [{"id": "a", "committed": 100, "folded": False}, {"id": "b", "committed": 300, "folded": True},
                     {"id": "c", "committed": 50, "folded": False}]
    assert build_pots(contributions) == [{"amount": 150, "eligible": ["a", "c"]}, {"amount": 300, "eligible": ["a"]}]
    assert build_pots(contributions, {"R7": "stand-alone"}) == [
        {"amount": 150, "eligible": ["a", "c"]}, {"amount": 100, "eligible": ["a"]}, {"amount": 200, "eligible": []}]
    everyone_folded = [dict(x, folded=True) for x in contributions]
    assert build_pots(everyone_folded) == build_pots(everyone_folded, {"R7": "stand-alone"}) == [
        {"amount": 450, "eligible": []}]


def test_r8_full_big_blind_makes_the_nominal_big_blind_the_current_bet():
    # Button 0, small blind 1 (50), big blind 2 short: 40 all-in.
    default = table([1000, 1000, 40]).decision_state()
    assert (default["currentBet"], default["toCall"], default["minRaiseTo"]) == (50, 50, 150)
    full = table([1000, 1000, 40], rulings={"R8": "full-big-blind"}).decision_state()
    assert (full["currentBet"], full["toCall"], full["minRaiseTo"]) == (100, 100, 200)
    # Heads-up, a short big blind: by default nobody acts; under full-big-blind the button owes 50.
    assert table([1000, 40]).over
    t = table([1000, 40], rulings={"R8": "full-big-blind"})
    s = t.decision_state()
    assert (s["you"]["seat"], s["currentBet"], s["toCall"], s["minRaiseTo"], s["canAllIn"]) == (0, 100, 50, None, False)
    play(t, "call")
    assert t.hands[0]["refunds"] == {"s1": 60} and sum(p["amount"] for p in t.hands[0]["pots"]) == 80


def test_a_hand_alone_plays_under_a_profile():
    def hand(rulings=None):
        return Hand(ids=["a", "b", "c"], stacks=[1000, 1000, 40], button=0, small_blind_seat=1, big_blind_seat=2,
                    blinds=(50, 100), deck=list(CANONICAL_DECK), rulings=rulings)
    assert (hand().legal().current_bet, hand().hole[1]) == (50, ["2c", "5c"])
    both = hand({"R8": "full-big-blind", "R3": "back"})
    assert (both.legal().current_bet, both.hole[1]) == (100, ["As", "Js"])


def test_r9_checker_reopened_by_a_short_opening_all_in():
    def flop(rulings=None):
        t = table([1000, 1000, 160], rulings=rulings)
        play(t, "call", "call", "check", "check", "allin", "call")  # seat 2 opens the flop all-in for 60
        return t.decision_state()
    s = flop()
    assert (s["you"]["seat"], s["toCall"], s["minRaiseTo"], s["canAllIn"]) == (1, 60, None, False)
    s = flop({"R9": "checker-reopened"})
    assert (s["you"]["seat"], s["toCall"], s["minRaiseTo"], s["canAllIn"]) == (1, 60, 160, True)


def test_r10_responder_above_bet_closes_the_raise_when_nobody_can_put_in_more():
    def flop(rulings=None):
        t = table([1000, 150, 200], rulings=rulings)
        play(t, "call", "call", "check", "check", "allin")  # seat 1 keeps 50; seat 2 bets its last 100
        return t.decision_state()
    s = flop()
    assert (s["you"]["seat"], s["currentBet"], s["minRaiseTo"], s["canAllIn"]) == (0, 100, 200, True)
    s = flop({"R10": "responder-above-bet"})
    assert (s["you"]["seat"], s["currentBet"], s["minRaiseTo"], s["canAllIn"]) == (0, 100, None, False)


FIVE_WAY = dict(stacks=[100] * 5, blinds=(3, 3), board="AsKdQhJc5s",
                holes={0: "2h3h", 1: "4c4d", 2: "6c7d", 3: "Tc9c", 4: "Td9d"})


def five_way(rulings=None):
    # Seat 3 raises to 6, seats 4 and 0 call, the blinds (3 each) fold; seats 3 and 4 tie.
    t = table(rulings=rulings, **FIVE_WAY)
    play(t, {"type": "raise", "amount": 6}, "call", "call", "fold", "fold")
    check_down(t)
    return t.hands[0]


def test_r13_raw_layers_split_each_layer_with_its_own_odd_chip():
    merged = five_way()
    assert merged["pots"] == [{"amount": 24, "eligible": ["s1", "s4", "s5"], "winners": ["s4", "s5"]}]
    assert merged["endStacks"] == [94, 97, 97, 106, 106]
    raw = five_way({"R13": "raw-layers"})
    assert [p["amount"] for p in raw["pots"]] == [15, 9]  # 5 x 3 and 3 x 3: an odd chip in each
    assert raw["endStacks"] == [94, 97, 97, 107, 105]  # seat 3 is first left of the button twice


def split_three_way(rulings=None):
    # Blinds 1/2; the button (seat 0) calls, the small blind folds, the big blind checks: a pot
    # of 5 split by seats 0 and 2 (the board plays).
    t = table([100, 100, 100], {0: "2c3d", 1: "2d3c", 2: "2h3s"}, "AsKdQhJcTs", blinds=(1, 2), rulings=rulings)
    play(t, "call", "fold", "check")
    check_down(t)
    return t


def test_r13_first_winner_in_seat_order_takes_the_odd_chips():
    assert split_three_way().hands[0]["endStacks"] == [100, 99, 101]  # seat 2 is left of the button
    assert split_three_way({"R13": "first-winner-in-seat-order"}).hands[0]["endStacks"] == [101, 99, 100]
    # Three winners of a pot of 8 (blinds 2/2, the small blind folds): two odd chips, one each to
    # seats 2 and 3 clockwise by default; both to seat 0 under the alternative.
    def three_winners(rulings=None):
        t = table([100] * 4, {0: "2c3d", 1: "2d3c", 2: "2h3s", 3: "2s3h"}, "AsKdQhJcTs", blinds=(2, 2), rulings=rulings)
        play(t, "call", "call", "fold", "check")
        check_down(t)
        return t.hands[0]["endStacks"]
    assert three_winners() == [100, 98, 101, 101]
    assert three_winners({"R13": "first-winner-in-seat-order"}) == [102, 98, 100, 100]
    # pokerkit's rule (docs/implementations.md): both to the first winner clockwise from left of the button.
    assert three_winners({"R13": "first-winner-left-of-button"}) == [100, 98, 102, 100]


def test_r14_left_of_button_orders_showdown_and_winners_clockwise():
    def entry(rulings=None):
        t = table([100, 100, 100], {0: "2c3d", 1: "4d5c", 2: "2h3s"}, "AsKdQhJcTs", blinds=(1, 2), rulings=rulings)
        play(t, "call", "call", "check")
        check_down(t)
        return t.history[0]
    default, clockwise = entry(), entry({"R14": "left-of-button"})
    assert [e["id"] for e in default["showdown"]] == ["s1", "s2", "s3"]
    assert [w["id"] for w in default["winners"]] == ["s1", "s2", "s3"]
    assert [e["id"] for e in clockwise["showdown"]] == ["s2", "s3", "s1"]
    assert [w["id"] for w in clockwise["winners"]] == ["s2", "s3", "s1"]
    assert sorted(map(json.dumps, default["winners"])) == sorted(map(json.dumps, clockwise["winners"]))


@pytest.mark.parametrize("option, folded, all_in", [
    ("folded", True, False), ("all-in", False, True), ("folded-and-all-in", True, True), ("neither", False, False)])
def test_r15_seat_flags_of_an_eliminated_seat(option, folded, all_in):
    # Hand 1: the big blind (seat 2) posts its last 50; the button folds; the small blind's aces win.
    rulings = None if option == "folded" else {"R15": option}
    t = table([1000, 1000, 50], {0: "2c3d", 1: "AsAh", 2: "7c2d"}, "KsQdJh4c5h", max_hands=2, rulings=rulings)
    play(t, "fold")
    seat = t.decision_state()["seats"][2]
    assert t.hand_number == 2 and seat["out"]
    assert (seat["folded"], seat["allIn"]) == (folded, all_in)


def test_r16_button_advances_without_the_heads_up_transition():
    def hand_two(rulings=None):
        t = table([100, 1000, 1000], {0: "2c3d", 1: "AsAh", 2: "KsKh"}, "9c8d4h5s7c", max_hands=2, rulings=rulings)
        play(t, "allin", "call", "check", *["check"] * 6)  # seat 0 busts in hand 1
        s = t.decision_state()
        return s["handNumber"], s["buttonSeat"], s["smallBlindSeat"], s["bigBlindSeat"]
    assert hand_two() == (2, 2, 2, 1)  # the big blind advances from seat 2 to seat 1
    assert hand_two({"R16": "button-advances"}) == (2, 1, 1, 2)  # the button advances from seat 0


def bust_two(stacks, rulings=None, ruleset="contract-v1", button=0, aces=2):
    """Everyone all-in in hand 1; seat ``aces`` holds the aces and wins."""
    holes = {0: "2c3d", 1: "4c5d", 2: "6c7d"}
    holes[aces], holes[(aces + 1) % 3] = "AsAh", holes[aces]
    deck = pinned_deck(holes, 3, button, "KsQdJh9c8h")
    t = Tournament(["a", "b", "c"], seed=3, stacks=stacks, decks={1: deck}, ruleset=ruleset, rulings=rulings)
    while not t.over and t.hand_number == 1:
        s = t.decision_state()
        t.act("allin" if s["canAllIn"] else "check" if s["canCheck"] else "call")
    return t


def test_r17_seat_order_ranks_equal_stacks_by_seat_number():
    # Seats 0 (the button) and 1 bust together with equal stacks: button-relative puts seat 1 first.
    assert bust_two([100, 100, 1000]).places[:2] == [3, 2]
    assert bust_two([100, 100, 1000], {"R17": "seat-order"}).places[:2] == [2, 3]


def test_r20_amount_street_total_records_the_street_total():
    def small_blind_call(rulings=None):
        t = table([1000, 1000, 1000], rulings=rulings)
        return play(t, {"type": "raise", "amount": 300}, "call")
    assert [a["amount"] for a in small_blind_call()] == [300, 250]
    assert [a["amount"] for a in small_blind_call({"R20": "amount-street-total"})] == [300, 300]


def test_r22_immediate_fallback_does_not_count_a_timeout():
    for rulings, timeouts, auto_folded in ((None, 3, True), ({"R22": "immediate-fallback"}, 0, False)):
        t = Tournament(["a", "b", "c"], seed=1, ruleset=V4, rulings=rulings)
        seat = t.to_act
        for _ in range(3):  # three invalid answers from one seat, the others check or call
            while t.to_act != seat:
                t.act("check" if t.decision_state()["canCheck"] else "call")
            t.submit("raise")
        assert (t.timeouts[seat], t.errors[seat], t.auto_folded[seat]) == (timeouts, 3, auto_folded)


def sng_bust_two(rulings=None):
    button = Tournament(["a", "b", "c"], seed=3, ruleset=V4).decision_state()["buttonSeat"]
    return bust_two([300, 800, 400], rulings, V4, button, aces=1), button


def test_r25_all_showdown_hands_reveals_every_live_hand():
    t, _ = sng_bust_two()
    assert [(e["id"], e["cards"]) for e in t.history[0]["showdown"]] == [("s2", ["As", "Ah"])]
    t, _ = sng_bust_two({"R25": "all-showdown-hands"})
    assert [(e["id"], e["cards"]) for e in t.history[0]["showdown"]] == [
        ("s1", ["2c", "3d"]), ("s2", ["As", "Ah"]), ("s3", ["4c", "5d"])]


def test_r27_simultaneous_eliminations_rank_by_seat_and_starting_stack_is_the_alternative():
    # Issue #14's case: stacks 300/800/400, seat 1's aces bust seats 0 and 2 together.
    t, _ = sng_bust_two()
    assert [s for s in range(3) if t.out[s]] == [0, 2]
    assert (t.places[0], t.places[2]) == (2, 3)  # (a), v4's text: equal final stacks (0), the lower seat
    t, _ = sng_bust_two({"R27": "starting-stack"})
    assert (t.places[0], t.places[2]) == (3, 2)  # (b): seat 2 started with 400, seat 0 with 300


# -- any profile keeps the invariants -----------------------------------------------------------------
BROADWAY = ["As", "Kd", "Qh", "Jc", "Ts"]  # a board that plays for everyone: every showdown splits
BURNS = ["2s", "3s", "4s"]
HOLES = [c for c in CANONICAL_DECK if c not in BROADWAY + BURNS]  # 2c..Kc first: no better hand


def split_deck(dealt: int, from_back: bool) -> list[str]:
    """A deck that deals ``dealt`` seats low hole cards and the broadway board (burns included)."""
    deck = complete_deck(HOLES[:2 * dealt] + BURNS[:1] + BROADWAY[:3] + BURNS[1:2] + BROADWAY[3:4]
                         + BURNS[2:] + BROADWAY[4:])
    return deck[::-1] if from_back else deck


@given(
    profile=st.fixed_dictionaries({}, optional={
        r.id: st.sampled_from(r.alternatives()) for r in RULINGS.values() if r.alternatives()}),
    n=st.sampled_from([2, 3, 6]),
    stacks=st.lists(st.one_of(st.integers(1, 300), st.integers(1000, 5000)), min_size=6, max_size=6),
    seed=st.integers(0, 2**32 - 1),
    splits=st.sampled_from([True, False]),  # True first: hypothesis favours it
    data=st.data(),
)
def test_any_profile_conserves_chips_and_ends_every_hand(profile, n, stacks, seed, splits, data):
    stacks = stacks[:n]
    decks = None
    if splits:  # every hand a split pot, so odd chips and their order are exercised
        decks = lambda number: split_deck(n if t is None else sum(c > 0 for c in t.stacks), profile.get("R3") == "back")
    t = None
    t = Tournament([f"p{i}" for i in range(n)], seed=seed, stacks=stacks, max_hands=25, rulings=profile, decks=decks,
                   blind_schedule=[[5, 10], [15, 30], [25, 50]], hands_per_level=5)
    chips = sum(stacks)
    # Calls first: hypothesis favours early elements, and showdowns need calls.
    answers = st.sampled_from(["call", "check", "allin", {"type": "raise", "amount": 120}, "raise", "fold"])
    for _ in range(25 * 40):  # a bound on decisions: every hand ends, so the tournament does
        if t.over:
            break
        check_state(t.decision_state(), chips)
        t.submit(data.draw(answers))
    assert t.over
    for record in t.hands:
        if "R20" not in profile:  # the commitment sum reads amounts as chips added
            check_hand_record(record, n)
        assert sum(record["startStacks"]) == sum(record["endStacks"]) == chips
    assert sum(x["chips"] for x in t.standings()) == chips


def test_docs_name_every_playable_option():
    text = (Path(__file__).resolve().parent.parent / "docs" / "rulings.md").read_text()
    sections = {m.group(1): m.group(0) for m in re.finditer(r"^## (R\d+) .*?(?=^## |\Z)", text, re.M | re.S)}
    for rid, ruling in RULINGS.items():
        assert rid in sections, rid
        assert "**Playable:**" in sections[rid], rid
        for option in ruling.options if len(ruling.options) > 1 else ():
            assert f"`{option}`" in sections[rid], (rid, option)
