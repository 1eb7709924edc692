"""holdem-sng-3-v4 as a second ruleset instance: format, blinds, seating, clock, auto-fold,
recovery, showdown reveal, places, and its invariants after every transition."""
import json

import pytest
from hypothesis import given, strategies as st

from reference.cards import CANONICAL_DECK
from reference.errors import IllegalAction, OptionError
from reference.evaluator import hand_value
from reference.hand import needed_hole_cards
from reference.scenario import pinned_deck
from reference.ruleset import SNG_3_V4
from reference.tournament import Tournament

V4 = "holdem-sng-3-v4"
IDS = ["alice", "bob", "carol"]


def sng(seed=1, **options):
    return Tournament(IDS, seed=seed, ruleset=V4, **options)


def test_format_three_identities_500_chips_no_cap():
    t = sng()
    s = t.decision_state()
    assert sorted(t.names) == sorted(IDS) and sum(x["stack"] + x["total"] for x in s["seats"]) == 1500
    assert s["tournament"]["maxHands"] is None and s["tournament"]["startingStack"] == 500
    assert s["timeLimitMs"] == 15000
    for bad in (["a", "b"], ["a", "b", "c", "d"], ["a", "b", "a"]):
        with pytest.raises(OptionError):
            Tournament(bad, ruleset=V4)


def test_human_or_agent_clock_is_45_seconds():
    assert sng(controllers=["bot", "human", "bot"]).decision_state()["timeLimitMs"] == 45000
    assert sng(controllers=["agent", "bot", "bot"]).decision_state()["timeLimitMs"] == 45000
    with pytest.raises(OptionError) as exc:
        sng(controllers=["bot", "robot", "bot"])
    assert exc.value.field == "controllers[1]"


def test_blinds_by_completed_hand_number():
    t = sng()
    seen = {}
    while t.hand_number <= 52 and not t.over:
        s = t.decision_state()
        seen[s["handNumber"]] = tuple(s["blinds"])
        t.act("check" if s["canCheck"] else "fold")
    expected = {1: (5, 10), 10: (5, 10), 11: (10, 20), 20: (10, 20), 21: (20, 40), 31: (40, 80), 41: (80, 160), 51: (160, 320)}
    assert {k: seen[k] for k in expected if k in seen} == {k: v for k, v in expected.items() if k in seen}
    assert 51 in seen


def test_seating_and_first_button_come_from_the_seed_and_are_unbiased():
    seen_buttons, seen_orders = set(), set()
    for seed in range(60):
        t = sng(seed)
        seen_buttons.add(t.decision_state()["buttonSeat"])
        seen_orders.add(tuple(t.names))
        assert sng(seed).names == t.names  # deterministic
    assert seen_buttons == {0, 1, 2} and len(seen_orders) == 6


def test_vocabulary_bet_and_all_in_map_onto_the_contract():
    t = sng()
    with pytest.raises(IllegalAction) as exc:  # preflop the big blind is already a bet
        t.act({"type": "bet", "amount": 30})
    assert exc.value.code == "bet-not-allowed"
    record = t.act({"type": "all_in"})
    assert record["type"] == "allin"
    with pytest.raises(IllegalAction) as exc:
        t.act("bet")
    assert exc.value.code == "raise-without-amount"


def test_three_consecutive_timeouts_set_persistent_auto_fold():
    t = sng()
    seat = t.to_act
    kinds = []
    while t.timeouts[seat] < 3:
        if t.to_act == seat:
            kinds.append((t.decision_state()["canCheck"], t.timeout()["type"]))
        else:
            t.act("call" if not t.decision_state()["canCheck"] else "check")
    assert [k for _, k in kinds[:2]] == ["check" if c else "fold" for c, _ in kinds[:2]]
    assert kinds[2][1] == "fold" and t.auto_folded[seat]
    # From now on the seat never acts, still posts blinds and wins nothing.
    before = t.stacks[seat]
    for _ in range(40):
        if t.over:
            break
        assert t.to_act != seat
        t.act("check" if t.decision_state()["canCheck"] else "call")
    assert t.stacks[seat] <= before
    assert all(w["id"] != t.ids[seat] for h in t.history[-30:] for w in h["winners"])


def test_voluntary_action_resets_consecutive_not_lifetime_timeouts():
    t = sng()
    seat = t.to_act
    t.timeout()
    while t.to_act != seat:
        t.act("check" if t.decision_state()["canCheck"] else "call")
    t.act("check" if t.decision_state()["canCheck"] else "call")
    assert t.consecutive_timeouts[seat] == 0 and t.timeouts[seat] == 1


def test_invalid_answer_counts_as_a_timeout():
    t = sng()
    seat = t.to_act
    record, code = t.submit("raise")
    assert code == "raise-without-amount" and t.timeouts[seat] == 1 and record["type"] in ("check", "fold")


def auto_fold(t, seat):
    while not t.auto_folded[seat]:
        if t.to_act == seat:
            t.timeout()
        else:
            t.act("check" if t.decision_state()["canCheck"] else "call")


def test_recovery_takes_effect_at_the_next_hand_and_resets_timeouts():
    t = sng()
    seat = t.to_act
    auto_fold(t, seat)
    number = t.hand_number
    t.request_recovery(seat)
    assert t.auto_folded[seat]  # not before the hand boundary
    while t.hand_number == number:
        t.act("check" if t.decision_state()["canCheck"] else "call")
    assert not t.auto_folded[seat] and t.consecutive_timeouts[seat] == 0 and t.timeouts[seat] == 3
    with pytest.raises(OptionError):
        t.request_recovery(seat)  # not in auto-fold any more


def test_timeouts_alone_end_the_game_with_one_participant_holding_chips():
    # R26: the last seat to act is never auto-folded in the same hand as the others, so the game
    # cannot stall: the last active seat collects the blinds of the auto-folded ones.
    t = sng()
    while not t.over:
        t.timeout()
    assert sorted(t.stacks) == [0, 0, 1500] and sorted(t.places) == [1, 2, 3]


def test_showdown_reveals_only_the_cards_each_winners_hand_needs():
    # R25: a smallest set of hole cards that, with the board, realises the winner's value.
    for seed in (5, 6, 11):
        t = sng(seed=seed)
        while not t.over:
            t.act("check" if t.decision_state()["canCheck"] else "call")
        shown = 0
        for entry, record in zip(t.history, t.hands):
            winners = {w["id"] for w in entry["winners"]}
            assert {e["id"] for e in entry["showdown"]} <= winners
            for e in entry["showdown"]:
                hole, board = record["holeCards"][e["id"]], entry["board"]
                value = hand_value(hole + board)
                assert set(e["cards"]) <= set(hole) and hand_value(e["cards"] + board) == value
                assert all(hand_value([c for c in e["cards"] if c != x] + board) != value for x in e["cards"])
                shown += 1
        assert shown > 0


@pytest.mark.parametrize("hole, board, needed", [
    ("Kc 9d", "9h Td Jc Qs 2c", ["Kc"]),  # issue #14: the board's 9h completes the king-high straight
    ("9d Kc", "9h Td Jc Qs 2c", ["Kc"]),
    ("9c 9d", "Ah Ad Kc Kd 2s", ["9c"]),  # either nine is the kicker: the first dealt
    ("2c 3d", "Ah Kd Qc Js Ts", []),  # the board plays
    ("Ac Ad", "2h 7d 9c Js Ts", ["Ac", "Ad"]),
    ("Ah 2c", "Kh 9h 5h 3h 4d", ["Ah"]),  # the flush needs the ace alone (the wheel, lower, would need both)
    ("Ah 2h", "Kh 9h 5h 3c 4d", ["Ah", "2h"]),  # the flush needs both hearts
])
def test_needed_hole_cards_prefer_board_cards_realising_the_same_value(hole, board, needed):
    assert needed_hole_cards(hole.split(), board.split()) == needed


@given(st.permutations(CANONICAL_DECK).map(lambda d: (d[:2], d[2:7])))
def test_needed_hole_cards_are_a_smallest_set_realising_the_value(cards):
    hole, board = cards
    needed, value = needed_hole_cards(hole, board), hand_value(hole + board)
    assert hand_value(needed + board) == value and set(needed) <= set(hole)
    smaller = [[]] if len(needed) == 1 else [[], [hole[0]], [hole[1]]] if len(needed) == 2 else []
    assert all(hand_value(c + board) != value for c in smaller)
    if needed == [hole[1]]:  # the first dealt card when either would do
        assert hand_value([hole[0]] + board) != value


def test_the_issues_reveal_example_in_a_v4_showdown():
    # Seed 7: button 2, small blind 0, big blind 1. Seat 0 holds Kc 9d and wins on 9h Td Jc Qs 2c.
    deck = pinned_deck({0: "Kc9d", 1: "2d3d", 2: "4s5s"}, 3, 2, "9hTdJcQs2c")
    t = sng(seed=7, decks={1: deck})
    while t.hand_number == 1:
        t.act("check" if t.decision_state()["canCheck"] else "call")
    assert t.history[0]["showdown"] == [{"id": "s1", "cards": ["Kc"], "hand": "Straight"}]


def uncontested_side_pot(rulings=None, main_pot_winner=0):
    """Seed 7 (button 2): seat 0 is all-in for 100 preflop; seats 1 and 2 build a side pot on the
    flop and seat 2 folds the turn, so the side pot has one eligible seat (seat 1)."""
    holes = {0: "AsAh", 1: "KcKd", 2: "2c3d"}
    if main_pot_winner == 1:
        holes[0], holes[1] = "QcQd", "AsAh"
    deck = pinned_deck(holes, 3, 2, "7h8s9dJc4s")
    t = sng(seed=7, stacks=[100, 500, 500], decks={1: deck}, rulings=rulings)
    play = [{"type": "raise", "amount": 30}, "allin", "call", "call",  # preflop: 2, 0, 1, 2
            {"type": "bet", "amount": 50}, "call",  # flop: seat 1 bets, seat 2 calls
            {"type": "bet", "amount": 100}, "fold"]  # turn: seat 2 folds
    for answer in play:
        t.act(answer)
    return t


def test_r29_an_uncontested_side_pot_reveals_nothing():
    t = uncontested_side_pot()
    record = t.hands[0]
    assert [(p["amount"], p["eligible"], p["winners"]) for p in record["pots"]] == [
        (300, ["s1", "s2"], ["s1"]), (100, ["s2"], ["s2"])]
    assert [e["id"] for e in t.history[0]["showdown"]] == ["s1"]  # seat 1 won only the uncontested pot
    # R31's alternative: any pot awarded in a hand with a showdown reveals its winner's needed cards.
    alt = uncontested_side_pot({"R31": "any-showdown-pot"})
    assert [(e["id"], e["cards"]) for e in alt.history[0]["showdown"]] == [("s1", ["As", "Ah"]), ("s2", ["Kc", "Kd"])]
    # Winning a contested pot reveals the winner's needed cards, whatever else it won.
    both = uncontested_side_pot(main_pot_winner=1)
    assert [(e["id"], e["cards"]) for e in both.history[0]["showdown"]] == [("s2", ["As", "Ah"])]


def test_button_advances_to_the_next_participant_with_chips_at_heads_up():
    # Issue #14, seed 7: hand 1 has button 2, small blind 0, big blind 1; seat 2 shoves and busts.
    def after_the_bust(rulings=None):
        deck = pinned_deck({0: "AsAh", 1: "7c8d", 2: "2c3d"}, 3, 2, "KsQdJh9c4h")
        t = sng(seed=7, decks={1: deck}, rulings=rulings)
        first = t.decision_state()
        assert (first["buttonSeat"], first["smallBlindSeat"], first["bigBlindSeat"]) == (2, 0, 1)
        for answer in ("allin", "call", "fold"):  # seats 2, 0, 1
            t.act(answer)
        assert t.out == [False, False, True] and t.hand_number == 2
        s = t.decision_state()
        return s["buttonSeat"], s["smallBlindSeat"], s["bigBlindSeat"]
    # v4's text: the button advances to the next participant with chips (0), who posts the small blind.
    assert after_the_bust() == (0, 0, 1)
    # Contract v1's heads-up transition (the big blind advances from 1 to 0) is not v4's rule.
    assert after_the_bust({"R16": "big-blind-advances"}) == (1, 1, 0)


def test_equal_stacks_eliminated_together_rank_by_lower_seat():
    # All three shove every hand; find a hand that eliminates two seats with equal starting stacks.
    for seed in range(1, 200):
        t = sng(seed)
        while not t.over:
            s = t.decision_state()
            t.act("allin" if s["canAllIn"] else ("check" if s["canCheck"] else "call"))
        for r in t.hands:
            out = r["eliminated"]
            if len(out) == 2:
                seats = [int(i[1:]) - 1 for i in out]
                if r["startStacks"][seats[0]] == r["startStacks"][seats[1]]:
                    assert seats[0] < seats[1]
                    return
    pytest.fail("no seed gave a simultaneous elimination with equal stacks")


@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_invariants_after_every_transition(seed, data):
    t = sng(seed)
    for _ in range(300):
        if t.over:
            break
        hand = t.hand
        cards = [c for hole in hand.hole.values() for c in hole] + hand.board
        assert len(cards) == len(set(cards))  # no card twice
        assert min(hand.stacks) >= 0 and min(hand.total) >= 0
        assert sum(hand.stacks) + sum(hand.total) == 1500
        s = t.decision_state()
        event = data.draw(st.sampled_from(["timeout", "answer", "answer", "answer", "recover"]))
        if event == "timeout":
            t.timeout()
        elif event == "recover":
            seat = data.draw(st.integers(0, 2))
            try:
                t.request_recovery(seat)
            except OptionError:
                pass
        else:
            t.submit(data.draw(st.sampled_from(["fold", "check", "call", "allin", {"type": "bet", "amount": 20},
                                                {"type": "raise", "amount": s["minRaiseTo"] or 0}])))
    for r in t.hands:
        assert sum(w["amount"] for w in r["history"]["winners"]) == sum(p["amount"] for p in r["pots"])
        assert sum(r["endStacks"]) == 1500
    if t.over:
        assert sum(1 for c in t.stacks if c > 0) == 1  # a finished game: one participant has chips


def test_contract_v1_is_untouched_by_the_second_instance():
    assert SNG_3_V4.name == V4 and Tournament(["a", "b"]).ruleset.timeouts_to_auto_fold is None
    t = Tournament(["a", "b", "c"], seed=1)
    assert t.names == ["a", "b", "c"] and t.decision_state()["buttonSeat"] == 0
    assert json.dumps(t.decision_state()["tournament"]["blindSchedule"][0]) == "[50, 100]"


def test_a_hand_where_everyone_is_auto_folded_is_refused():
    from reference.hand import Hand

    with pytest.raises(OptionError) as exc:
        Hand(ids=["s1", "s2"], stacks=[100, 100], button=0, small_blind_seat=0, big_blind_seat=1,
             blinds=(5, 10), deck=["Ah"], ruleset=SNG_3_V4, auto_folded=[0, 1])
    assert exc.value.field == "auto_folded"
