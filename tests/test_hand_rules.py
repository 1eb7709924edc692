"""Rule-by-rule tests of one hand (contract: Rules, Return values; rulings cited by id)."""
import pytest

from reference.errors import IllegalAction
from scenario import play, table

R = lambda amount: {"type": "raise", "amount": amount}  # noqa: E731


def state(t):
    return t.decision_state()


# -- order of action ------------------------------------------------------------------
def test_heads_up_button_posts_small_blind_acts_first_preflop_last_postflop():
    t = table([1000, 1000])
    s = state(t)
    assert (s["buttonSeat"], s["smallBlindSeat"], s["bigBlindSeat"]) == (0, 0, 1)
    assert s["you"]["seat"] == 0 and s["you"]["bet"] == 50 and s["toCall"] == 50
    play(t, "call")
    assert state(t)["you"]["seat"] == 1 and state(t)["canCheck"]  # the big blind's option
    play(t, "check")
    s = state(t)
    assert s["street"] == "flop" and s["you"]["seat"] == 1  # big blind first postflop


def test_multiway_preflop_starts_left_of_big_blind_postflop_left_of_button():
    t = table([1000] * 4)
    s = state(t)
    assert (s["buttonSeat"], s["smallBlindSeat"], s["bigBlindSeat"]) == (0, 1, 2)
    assert s["you"]["seat"] == 3
    play(t, "call", "call", "call")  # seat 3, button 0, small blind 1
    assert state(t)["you"]["seat"] == 2  # big blind's option
    play(t, "check")
    s = state(t)
    assert s["street"] == "flop" and s["you"]["seat"] == 1


# -- amounts -------------------------------------------------------------------------
def test_raise_amount_is_the_street_total_and_actions_record_added_chips():
    t = table([1000] * 3)
    play(t, R(300))  # seat 0 (button) opens to 300
    rec = play(t, R(900))[0]  # small blind (bet 50) raises to 900: adds 850
    assert rec == {"id": "s2", "street": "preflop", "type": "raise", "amount": 850}
    s = state(t)
    assert s["currentBet"] == 900 and s["lastFullRaise"] == 600 and s["minRaiseTo"] == 1500
    assert s["toCall"] == 800 and s["you"]["seat"] == 2


def test_minimum_opening_bet_is_the_big_blind():
    t = table([1000, 1000], board="2c7d9hJsQd")
    play(t, "call", "check")
    s = state(t)
    assert s["minRaiseTo"] == 100 and s["currentBet"] == 0
    with pytest.raises(IllegalAction) as exc:
        t.act(R(99))
    assert exc.value.code == "amount-below-min"
    play(t, R(100))
    assert state(t)["minRaiseTo"] == 200


def test_minimum_raise_increment_is_the_last_full_increment():
    t = table([5000] * 3)
    play(t, R(350))  # increment 250 over the big blind
    s = state(t)
    assert s["lastFullRaise"] == 250 and s["minRaiseTo"] == 600
    with pytest.raises(IllegalAction):
        t.act(R(599))


# -- short all-ins and reopening (R9) ---------------------------------------------------
def test_short_all_in_does_not_reopen_a_player_who_acted():
    # Seat 0 raises to 300; small blind shoves 450 total (increment 150 < 200); big blind folds.
    t = table([5000, 450, 5000])
    play(t, R(300), "allin", "fold")
    s = state(t)
    assert s["you"]["seat"] == 0 and s["toCall"] == 150
    assert s["minRaiseTo"] is None and s["canAllIn"] is False
    for bad in (R(1000), "allin"):
        with pytest.raises(IllegalAction):
            t.act(bad)
    play(t, "call")
    assert t.over


def test_short_all_in_leaves_unacted_players_free_to_raise():
    t = table([5000, 5000, 5000, 5000, 420])
    play(t, R(300))  # seat 3 (first to act) raises to 300: full, increment 200
    play(t, "allin")  # seat 4 shoves 420: increment 120, short
    s = state(t)
    assert s["you"]["seat"] == 0 and s["lastFullRaise"] == 200 and s["minRaiseTo"] == 620
    play(t, "call", "fold")  # button calls, small blind folds
    assert state(t)["minRaiseTo"] == 620  # the big blind has not acted
    play(t, "call")
    s = state(t)
    assert s["you"]["seat"] == 3 and s["minRaiseTo"] is None and s["toCall"] == 120


def test_cumulative_short_raises_reopen_once_a_full_raise_is_faced():
    # Flop, big blind 100: seat 1 bets 100, seat 2 all-in 150, seat 3 all-in 199 -> seat 1 faces 99: closed;
    # then seat 0 all-in 250 -> seat 1 faces 150 since its bet: reopened.
    t = table([5000, 5000, 250, 299, 350], board="2c7d9hJsQd")
    play(t, "call", "call", "call", "call", "check")  # preflop: 3,4,0,1 call; big blind 2 checks
    s = state(t)
    assert s["street"] == "flop" and s["you"]["seat"] == 1
    play(t, R(100))
    play(t, "allin")  # seat 2: 150 total on the street
    play(t, "allin")  # seat 3: 199
    s = state(t)
    assert s["you"]["seat"] == 4 and s["currentBet"] == 199
    play(t, "allin")  # seat 4: 250
    s = state(t)
    assert s["you"]["seat"] == 0 and s["minRaiseTo"] == 350  # never acted: may raise
    play(t, "call")
    s = state(t)
    assert s["you"]["seat"] == 1 and s["currentBet"] == 250
    assert s["minRaiseTo"] == 350 and s["canAllIn"] is True  # faced 150 >= 100: reopened


def test_reopening_counts_from_a_players_last_action_not_the_first():
    # Seat 0 raises to 300, seat 1 re-raises to 700, the big blind calls, seat 0 raises again to 1100
    # (its second action on the street), seat 1 calls, the big blind shoves 1300 (increment 200 < 400).
    # Seat 0 has faced 200 since its last action: not reopened (it faced 1000 since its first).
    t = table([5000, 5000, 1300, 5000])
    play(t, "fold", R(300), R(700), "call", R(1100), "call", "allin")
    s = state(t)
    assert s["you"]["seat"] == 0 and s["toCall"] == 200 and s["lastFullRaise"] == 400
    assert s["minRaiseTo"] is None and s["canAllIn"] is False
    with pytest.raises(IllegalAction):
        t.act(R(1700))
    play(t, "call")
    s = state(t)
    assert s["you"]["seat"] == 1 and s["toCall"] == 200 and s["minRaiseTo"] is None  # called 1100: 200 since


def test_cumulative_short_raises_below_a_full_raise_keep_it_closed():
    t = table([5000, 5000, 250, 299], board="2c7d9hJsQd")
    play(t, "call", "call", "call", "check")
    play(t, R(100), "allin", "allin")  # seat 1 bets 100, seats 2 and 3 shove to 150 and 199
    s = state(t)
    assert s["you"]["seat"] == 0 and s["minRaiseTo"] == 299
    play(t, "call")
    s = state(t)
    assert s["you"]["seat"] == 1 and s["minRaiseTo"] is None and s["toCall"] == 99


def test_checker_facing_only_a_short_opening_all_in_is_not_reopened():
    # House convention: seat 1 checks, seat 2 opens all-in for 60 (< big blind 100).
    t = table([5000, 5000, 160], board="2c7d9hJsQd")
    play(t, "call", "call", "check")
    s = state(t)
    assert s["street"] == "flop" and s["you"]["seat"] == 1
    play(t, "check", "allin")
    s = state(t)
    assert s["you"]["seat"] == 0 and s["currentBet"] == 60 and s["minRaiseTo"] == 160  # not yet acted
    play(t, "call")
    s = state(t)
    assert s["you"]["seat"] == 1 and s["toCall"] == 60 and s["minRaiseTo"] is None and not s["canAllIn"]


def test_full_opening_all_in_reopens_the_checker():
    t = table([5000, 5000, 250], board="2c7d9hJsQd")
    play(t, "call", "call", "check", "check", "allin")  # seat 2 bets 150 all-in: a full bet
    s = state(t)
    assert s["you"]["seat"] == 0 and s["lastFullRaise"] == 150
    play(t, "call")
    assert state(t)["minRaiseTo"] == 300  # seat 1, the checker, is reopened


def test_r9_short_raises_adding_up_to_a_full_bet_reopen_a_checker():
    # R9: the checker convention covers a short opening all-in alone. Seat 1 checks the flop, seat 2
    # opens all-in for 60, seat 3 all-in for 110 (both short): seat 1 now faces 110 >= a full bet (100).
    t = table([5000, 5000, 160, 210], board="2c7d9hJsQd")
    play(t, "call", "call", "call", "check")
    assert state(t)["street"] == "flop" and state(t)["you"]["seat"] == 1
    play(t, "check", "allin", "allin")
    s = state(t)
    assert s["you"]["seat"] == 0 and s["currentBet"] == 110 and s["lastFullRaise"] == 100
    play(t, "call")
    s = state(t)
    assert s["you"]["seat"] == 1 and s["toCall"] == 110 and s["minRaiseTo"] == 210 and s["canAllIn"]
    play(t, {"type": "raise", "amount": 210})  # the reopened checker raises


# -- who may act and raise (R10, R11) ---------------------------------------------------
def test_no_raise_when_no_opponent_can_respond():
    t = table([5000, 300, 5000])  # seat 1 small blind
    play(t, "fold", "allin")  # button folds; small blind shoves 300
    s = state(t)
    assert s["you"]["seat"] == 2 and s["toCall"] == 200
    assert s["minRaiseTo"] is None and s["canAllIn"] is False
    with pytest.raises(IllegalAction) as exc:
        t.act(R(1000))
    assert exc.value.code == "raise-not-allowed"


def test_lone_solvent_seat_acts_only_when_it_owes_chips():
    # Seat 0 calls all-in for 80, the small blind shoves 60: the big blind covers both and owes nothing.
    t = table([80, 60, 5000], holes={0: "AhAd", 1: "KhKd", 2: "2c7s"}, board="3c4d9hJsQd")
    play(t, "allin", "allin")
    assert t.over
    record = t.hands[0]
    assert [a["id"] for a in record["actions"]] == ["s1", "s2"]
    assert record["refunds"] == {"s3": 20}  # 100 posted, 80 matched (R12)
    assert len(record["history"]["board"]) == 5  # run out



# -- settlement -----------------------------------------------------------------------
def test_uncalled_excess_is_refunded_and_is_not_an_award():
    t = table([5000, 5000, 5000])
    play(t, R(1000), "fold", "fold")
    record = t.hands[0]
    assert record["refunds"] == {"s1": 900}
    assert record["history"]["winners"] == [{"id": "s1", "amount": 250}]  # gross: 100 + 50 + 100
    assert record["history"]["showdown"] == []  # a fold win reveals nothing
    assert record["endStacks"] == [5150, 4950, 4900]


def test_side_pots_of_three_layers_are_settled_separately():
    holes = {0: "AhAd", 1: "KhKd", 2: "QhQd", 3: "7c2c"}
    t = table([100, 300, 600, 1000], holes=holes, board="3c4d9hJs8s")
    play(t, "allin", "allin", "allin", "allin")  # seat 3 first, then 0, 1, 2
    record = t.hands[0]
    assert record["refunds"] == {"s4": 400}
    assert [(p["amount"], p["eligible"], p["winners"]) for p in record["pots"]] == [
        (400, ["s1", "s2", "s3", "s4"], ["s1"]),
        (600, ["s2", "s3", "s4"], ["s2"]),
        (600, ["s3", "s4"], ["s3"]),
    ]
    assert record["endStacks"] == [400, 600, 600, 400]
    shown = record["history"]["showdown"]
    assert [e["id"] for e in shown] == ["s1", "s2", "s3", "s4"]  # every live hand is public
    assert shown[0] == {"id": "s1", "cards": ["Ah", "Ad"], "hand": "One pair"}


def test_tied_winners_split_and_the_odd_chip_goes_left_of_the_button():
    # Board plays a royal flush for everyone; seat 1 folds; seats 0 and 2 split 227.
    t = table([1000] * 3, holes={0: "2c3d", 1: "4c5d", 2: "6c7d"}, board="AsKsQsJsTs", blinds=(25, 50))
    play(t, R(101), "fold", "call", "check", "check", "check", "check", "check", "check")
    record = t.hands[0]
    assert record["history"]["winners"] == [{"id": "s1", "amount": 113}, {"id": "s3", "amount": 114}]
    assert record["endStacks"] == [1012, 975, 1013]
    assert [e["hand"] for e in record["history"]["showdown"]] == ["Straight flush", "Straight flush"]


def test_two_odd_chips_go_one_each_clockwise_from_left_of_the_button():
    # Pot 326 split three ways (108 each, 2 left): seat 1 folded, so seats 2 and 3 get one each.
    holes = {0: "2c3d", 1: "4c5d", 2: "6c7d", 3: "8c9d"}
    t = table([1000] * 4, holes=holes, board="AsKsQsJsTs", blinds=(26, 50))
    play(t, R(100), "call", "fold", "call", *["check"] * 9)
    assert t.hands[0]["endStacks"] == [1008, 974, 1009, 1009]


def test_wheel_is_a_five_high_straight_and_loses_to_six_high():
    t = table([1000, 1000], holes={0: "Ah2d", 1: "6h7d"}, board="3c4d5s9hKc")
    play(t, "allin", "call")
    record = t.hands[0]
    assert [e["hand"] for e in record["history"]["showdown"]] == ["Straight", "Straight"]
    assert record["history"]["winners"] == [{"id": "s2", "amount": 2000}]
    assert t.standings()[0]["place"] == 2 and t.standings()[1]["place"] == 1


def test_run_out_when_betting_is_closed_deals_the_whole_board_with_burns():
    holes = {0: "AhAd", 1: "KhKd"}
    t = table([1000, 1000], holes=holes, board="2c7d9hJsQd")
    play(t, "allin", "call")
    assert t.hands[0]["history"]["board"] == ["2c", "7d", "9h", "Js", "Qd"]


# -- short blinds (R8) ---------------------------------------------------------------
def test_short_big_blind_sets_current_bet_to_the_actual_blind():
    t = table([5000, 5000, 60])
    s = state(t)
    assert s["blinds"] == [50, 100] and s["currentBet"] == 60 and s["toCall"] == 60
    assert s["lastFullRaise"] == 100 and s["minRaiseTo"] == 160
    assert s["seats"][2]["allIn"] is True and s["seats"][2]["bet"] == 60


def test_short_small_blind_posts_what_it_has():
    t = table([5000, 30, 5000])
    s = state(t)
    assert s["seats"][1]["bet"] == 30 and s["seats"][1]["allIn"] and s["currentBet"] == 100


def test_all_players_all_in_from_the_blinds_play_no_decision():
    t = table([50, 100], holes={0: "AhAd", 1: "KhKd"}, board="2c7d9hJsQd")
    assert t.over and t.hands[0]["actions"] == []
    assert t.hands[0]["refunds"] == {"s2": 50}


# -- return values ---------------------------------------------------------------------
INVALID = [
    ("check", "check-not-allowed"),
    ("raise", "raise-without-amount"),
    ("bet", "malformed"),
    ("Fold", "malformed"),
    (" fold", "malformed"),
    (5, "malformed"),
    (None, "malformed"),
    (["fold"], "malformed"),
    ({"type": "bet", "amount": 300}, "unknown-type"),
    ({"type": "Raise", "amount": 300}, "unknown-type"),
    ({"amount": 300}, "unknown-type"),
    ({"type": "raise"}, "amount-missing"),
    ({"type": "raise", "amount": "300"}, "amount-not-safe-integer"),
    ({"type": "raise", "amount": 300.5}, "amount-not-safe-integer"),
    ({"type": "raise", "amount": float("nan")}, "amount-not-safe-integer"),
    ({"type": "raise", "amount": float("inf")}, "amount-not-safe-integer"),
    ({"type": "raise", "amount": 1e21}, "amount-not-safe-integer"),
    ({"type": "raise", "amount": 2**53}, "amount-not-safe-integer"),
    ({"type": "raise", "amount": True}, "amount-not-safe-integer"),
    ({"type": "raise", "amount": 100}, "amount-not-above-current-bet"),
    ({"type": "raise", "amount": -5}, "amount-not-above-current-bet"),
    ({"type": "raise", "amount": 150}, "amount-below-min"),
    ({"type": "raise", "amount": 10001}, "amount-above-max"),
]


@pytest.mark.parametrize("answer,code", INVALID, ids=[f"{i}-{c}" for i, (_, c) in enumerate(INVALID)])
def test_invalid_answers_are_rejected_with_a_reason_and_change_nothing(answer, code):
    t = table([10000] * 3)
    before = state(t)
    with pytest.raises(IllegalAction) as exc:
        t.act(answer)
    assert exc.value.code == code and str(exc.value)
    assert state(t) == before and t.errors == [0, 0, 0]


VALID = [
    ("fold", ("fold", 0)),
    ({"type": "fold", "note": "extra fields are ignored"}, ("fold", 0)),
    ("call", ("call", 100)),
    ({"type": "call", "amount": 99999}, ("call", 100)),  # only a raise's amount is used
    ({"type": "raise", "amount": 200}, ("raise", 200)),
    ({"type": "raise", "amount": 200.0}, ("raise", 200)),  # the same JS number
    ({"type": "raise", "amount": 10000}, ("raise", 10000)),
    ("allin", ("allin", 10000)),
    ({"type": "allin"}, ("allin", 10000)),
]


@pytest.mark.parametrize("answer,expected", VALID)
def test_valid_answer_forms(answer, expected):
    t = table([10000] * 3)
    record = t.act(answer)
    assert (record["type"], record["amount"]) == expected


def test_call_is_invalid_when_checking_is_possible():
    t = table([1000, 1000])
    play(t, "call")
    with pytest.raises(IllegalAction) as exc:
        t.act("call")
    assert exc.value.code == "call-not-allowed"


def test_short_all_in_raise_by_amount_is_exactly_max_raise_to():
    t = table([5000, 5000, 5000, 150])
    s = state(t)
    assert s["you"]["seat"] == 3 and s["minRaiseTo"] == 200 and s["maxRaiseTo"] == 150
    with pytest.raises(IllegalAction) as exc:
        t.act(R(149))
    assert exc.value.code == "amount-below-min"
    record = t.act(R(150))
    assert record == {"id": "s4", "street": "preflop", "type": "raise", "amount": 150}
    assert state(t)["currentBet"] == 150 and state(t)["lastFullRaise"] == 100


def test_fallback_is_check_if_legal_else_fold_and_counts_an_error():
    t = table([1000, 1000, 1000])
    record, code = t.submit("raise")
    assert code == "raise-without-amount" and record["type"] == "fold" and t.errors == [1, 0, 0]
    t.submit("call")
    record, code = t.submit({"type": "bet"})  # the big blind can check
    assert code == "unknown-type" and record["type"] == "check" and t.errors == [1, 0, 1]
    assert t.street == "flop"


# -- reference.Hand's own arguments ----------------------------------------------------------
def _hand_args(**changes):
    from reference.rng import deal_hand

    args = dict(ids=["a", "b", "c"], stacks=[100, 100, 100], button=0, small_blind_seat=1, big_blind_seat=2,
                blinds=(5, 10), deck=deal_hand(1, 1))
    args.update(changes)
    return args


def _repeated_card_deck():
    from reference.rng import deal_hand

    deck = deal_hand(1, 1)
    deck[5] = deck[6]
    return deck


@pytest.mark.parametrize("changes, field", [
    ({"deck": _repeated_card_deck()}, "deck[6]"),  # a whole-length deck with a repeat: no card dealt twice
    ({"deck": ["Ah"] * 52}, "deck[1]"),
    ({"deck": None}, "deck"),
    ({"deck": "AhKd"}, "deck"),
    ({"blinds": (-5, 10)}, "blinds"),
    ({"blinds": (50, 10)}, "blinds"),
    ({"blinds": (0, 0)}, "blinds"),
    ({"blinds": 10}, "blinds"),
    ({"stacks": [100, 100]}, "stacks"),
    ({"stacks": 100}, "stacks"),
    ({"stacks": [100, "x", 100]}, "stacks[1]"),
    ({"stacks": [100, -5, 100]}, "stacks[1]"),
    ({"ids": "abc"}, "ids"),
    ({"button": 3}, "button"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_hand_rejects_bad_arguments_naming_them(changes, field):
    from reference import Hand
    from reference.errors import HoldemError

    with pytest.raises(HoldemError) as exc:
        Hand(**_hand_args(**changes))
    assert exc.value.field == field


def test_hand_accepts_a_whole_deck_as_given_and_completes_a_partial_one():
    from reference import Hand
    from reference.cards import CANONICAL_DECK

    whole = list(reversed(CANONICAL_DECK))
    assert Hand(**_hand_args(deck=whole)).deck == whole
    partial = Hand(**_hand_args(deck=["Ah", "Kd"])).deck
    assert partial[:2] == ["Ah", "Kd"] and sorted(partial) == sorted(CANONICAL_DECK)


def test_a_bigint_amount_is_no_number():
    # Number.isSafeInteger(300n) is false: a raise to a BigInt is invalid, as in the JavaScript engine
    # (found by mutation testing, issue #37; vector legality.raise-bigint-amount).
    from reference.rng import JSBigInt
    t = table([5000] * 3)
    with pytest.raises(IllegalAction) as exc:
        t.act(R(JSBigInt(300)))
    assert exc.value.code == "amount-not-safe-integer"
    play(t, R(300))
    assert state(t)["currentBet"] == 300
