"""holdem-sng-3-v4 in the bundled JS engine's game API (PokerEngine.create with ruleset
"holdem-sng-3-v4") inside QuickJS.

1. The sng3v4 golden vectors, run as docs/INTERPRETING.md says, with key order part of equality.
2. The v4 edges: option errors, recovery refusals (field ``seat``), the v4 words, the reveal (R25:
   only the hole cards a winner's hand needs, board cards preferred).
3. R5's choice of ``best``: the engine's ``evaluate(...).best`` equals the reference's.
4. A differential test: random v4 games (answers in every form, timeouts, invalid answers, recovery
   requests) played move for move in ``reference.Tournament(..., ruleset="holdem-sng-3-v4")`` and
   in the JS engine must agree on every state, outcome, refusal and standing, and on the log.
"""
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from conformance.host.jsvalue import encode
from conformance.vectors import library as vectors
from conformance.vectors.gamespec import tournament
from conformance.vectors.generators.tournaments import log_entry
from js_vector_runner import JSEngine, JSThrow, run_family
from reference.cards import CANONICAL_DECK
from reference.errors import IllegalAction, OptionError
from reference.evaluator import evaluate
from reference.hand import needed_hole_cards
from test_js_game import ODD, PLAY

V4 = "holdem-sng-3-v4"


@pytest.fixture(scope="module")
def engine():
    return JSEngine()  # one QuickJS context for this module, used from this thread only


def spec(seats=("alice", "bob", "carol"), controllers=None, **options):
    game = {"seats": list(seats), "options": {"ruleset": V4, **options}}
    if controllers is not None:
        game["controllers"] = controllers
    return game


def _dump(value):
    return json.dumps(value)  # order of keys, true vs 1 and 1 vs 1.0 all count


# -- 1. golden vectors ------------------------------------------------------------------------
def test_sng3v4_vectors_pass_exactly(engine):
    verdicts = run_family(engine, "sng3v4", key_order=True)
    bad = [f"{v.id}: {v.verdict} {v.detail}" for v in verdicts if v.verdict != "passed" or v.notes]
    assert len(verdicts) == vectors.load("sng3v4")["numberOfTests"] and not bad, "\n".join(bad)


# -- 2. edges -----------------------------------------------------------------------------------
@pytest.mark.parametrize("seats,options,field", [
    (["A", "B"], {}, "seats"),
    (["A", "B", "C", "D"], {}, "seats"),
    (["A", "B", "A"], {}, "seats[2]"),
    (["A", "B", "C"], {"controllers": ["bot", "bot"]}, "controllers"),
    (["A", "B", "C"], {"controllers": ["bot", "bot", "alien"]}, "controllers[2]"),
])
def test_bad_v4_games_throw_naming_the_field_as_the_reference_refuses(engine, seats, options, field):
    with pytest.raises(JSThrow) as exc:
        engine.call("create", seats=seats, options={"ruleset": V4, **options})
    assert (exc.value.name, exc.value.field) == ("OptionError", field)
    controllers = options.get("controllers")
    with pytest.raises(OptionError):
        tournament(spec(seats, controllers))


def test_v4_parameters_seating_and_clock(engine):
    for seed in range(12):
        for controllers in (None, ["bot", "agent", "bot"]):
            game = spec(controllers=controllers, seed=seed)
            state = engine.create(game).state()
            assert _dump(state) == _dump(tournament(game).decision_state())
    state = engine.create(spec(controllers=["human", "bot", "bot"])).state()
    assert state["timeLimitMs"] == 45000 and state["tournament"] == {
        "startingStack": 500, "maxHands": None, "handsPerLevel": 10, "level": 0,
        "blindSchedule": [[5, 10], [10, 20], [20, 40], [40, 80], [80, 160], [160, 320]]}
    # Every seating and first button shows up over a few seeds (R23).
    seen = {(tuple(s["name"] for s in engine.create(spec(seed=k)).state()["seats"]),
             engine.create(spec(seed=k)).state()["buttonSeat"]) for k in range(120)}
    assert len(seen) == 18


def test_recovery_refusals_name_the_seat(engine):
    game = engine.create(spec(seed=4))
    ref = tournament(spec(seed=4))
    for seat in (-1, 3, 1.5, "0", None, True):
        with pytest.raises(JSThrow) as exc:
            game.recover(seat)
        assert (exc.value.name, exc.value.field) == ("OptionError", "seat")
    with pytest.raises(JSThrow, match="seat: seat 0 is not in auto-fold"):
        game.recover(0)
    with pytest.raises(OptionError, match="seat 0 is not in auto-fold"):
        ref.request_recovery(0)
    v1 = engine.create({"seats": ["A", "B"], "options": {}})
    with pytest.raises(JSThrow, match="seat: contract-v1 has no auto-fold to recover from") as exc:
        v1.recover(0)
    assert exc.value.field == "seat"


def test_v4_words_only_under_v4(engine):
    v1 = engine.create({"seats": ["A", "B", "C"], "options": {}})
    for answer, code in (("all_in", "malformed"), ({"type": "all_in"}, "unknown-type"), ("bet", "malformed"),
                         ({"type": "bet", "amount": 300}, "unknown-type")):
        with pytest.raises(JSThrow) as exc:
            v1.act(answer)
        assert exc.value.code == code
    game = engine.create(spec(seed=1))
    for answer, code, field in (("bet", "raise-without-amount", "action"),
                                ({"type": "bet"}, "amount-missing", "amount"),
                                ({"type": "bet", "amount": 30}, "bet-not-allowed", "type")):
        with pytest.raises(JSThrow) as exc:
            game.act(answer)
        assert (exc.value.code, exc.value.field) == (code, field)
    for answer in ("call", "call", "check"):  # to the flop, where a bet opens the street
        game.act(answer)
    bet = game.act({"type": "bet", "amount": 30})
    assert (bet["street"], bet["type"], bet["amount"]) == ("flop", "raise", 30)  # recorded as the contract's raise
    assert game.act("all_in")["type"] == "allin"


def test_showdown_shows_only_the_hole_cards_each_winners_hand_needs(engine):
    game = engine.create(spec(seed=3))
    ref = tournament(spec(seed=3))
    while len(game.history()) < 30:
        state = game.state()
        answer = "check" if state["canCheck"] else "call"
        game.act(answer)
        ref.act(answer)
    showdowns = [e for e in game.history() if e["showdown"]]
    assert showdowns and _dump(game.history()) == _dump(ref.public_history())
    for entry, record in ((e, r) for e, r in zip(game.history(), ref.hands) if e["showdown"]):
        winners = {w["id"] for w in entry["winners"]}
        for shown in entry["showdown"]:
            assert shown["id"] in winners
            hole = record["holeCards"][shown["id"]]
            assert shown["cards"] == needed_hole_cards(hole, entry["board"])


# -- 3. R5's best -------------------------------------------------------------
@given(st.integers(5, 7).flatmap(lambda n: st.permutations(CANONICAL_DECK).map(lambda d: d[:n])))
def test_evaluate_best_is_the_reference_choice(engine, cards):
    best = json.loads(engine.ctx.eval(f"JSON.stringify(PokerEngine.evaluate({json.dumps(cards)}).best)"))
    assert best == evaluate(cards)["best"]


# -- 4. differential: random v4 games -------------------------------------------------------------
V4_ODD = [
    lambda s: "all_in",
    lambda s: {"type": "all_in"},
    lambda s: {"type": "all_in", "amount": 1},
    lambda s: "bet",
    lambda s: {"type": "bet"},
    lambda s: {"type": "bet", "amount": s["maxRaiseTo"]},
    lambda s: {"type": "bet", "amount": s["currentBet"] + s["lastFullRaise"]},
    lambda s: {"type": "bet", "amount": "20"},
    lambda s: "All_in",
]


@st.composite
def v4_games(draw):
    options = {"seed": draw(st.integers(-(2**33), 2**33) | st.text(max_size=3))}
    if draw(st.booleans()):
        # Equal stacks often, for simultaneous eliminations from equal stacks (R27).
        options["stacks"] = draw(st.lists(st.sampled_from([15, 40, 100, 500]) | st.integers(1, 600), min_size=3, max_size=3))
    if draw(st.integers(0, 3)) == 0:
        options["maxHands"] = draw(st.integers(1, 30))
    if draw(st.integers(0, 3)) == 0:
        options["handsPerLevel"] = draw(st.integers(1, 4))
    names = draw(st.lists(st.sampled_from(["Ann", "Bob", "Cy", "Dee", "é"]), min_size=3, max_size=3, unique=True))
    game = spec(names, **options)
    if draw(st.booleans()):
        game["controllers"] = draw(st.lists(st.sampled_from(["bot", "human", "agent"]), min_size=3, max_size=3))
    return game


def _recover(ref, game, seat) -> None:
    """A recovery request to both: accepted by both, or refused alike (field and message)."""
    try:
        ref.request_recovery(seat)
        expected = None
    except OptionError as exc:
        expected = ("OptionError", exc.field, str(exc))
    try:
        game.recover(seat)
        actual = None
    except JSThrow as exc:
        actual = (exc.name, exc.field, str(exc).split(": ", 1)[1])
    assert actual == expected, f"recover({seat})"


def _step(ref, game, rnd, state, timeout_rate) -> str:
    """One random event, applied to both; returns its kind."""
    roll = rnd.random()
    if roll < timeout_rate:
        assert game.timeout() == {"action": ref.timeout(), "error": "late"}
        return "timeout"
    if roll < timeout_rate + 0.1:  # mostly for a seat in auto-fold (as the reference has it), else any seat
        folded = [s for s in range(3) if ref.auto_folded[s]]
        _recover(ref, game, rnd.choice(folded) if folded and rnd.random() < 0.7 else rnd.choice([0, 1, 2, -1, 3]))
        return "recover"
    roll = rnd.random()
    answer = rnd.choice(V4_ODD if roll < 0.15 else ODD if roll < 0.3 else PLAY)(state)
    if answer == "timeout":  # ODD's late answer
        assert game.timeout() == {"action": ref.timeout(), "error": "late"}
        return "timeout"
    if rnd.random() < 0.5:  # the runner's rule in one call
        record, code = ref.submit(answer)
        assert _dump(game.submit(encode(answer))) == _dump({"action": record, "error": code})
        return "submit"
    try:
        expected = ("accepted", ref.act(answer))
    except IllegalAction as exc:
        expected = ("rejected", exc.code, exc.field)
    try:
        actual = ("accepted", game.act(encode(answer)))
    except JSThrow as exc:
        assert exc.name == "IllegalAction"
        actual = ("rejected", exc.code, exc.field)
    assert _dump(actual) == _dump(expected), f"answer {answer!r}"
    return "act"


@settings(max_examples=60, deadline=None)
@given(game_spec=v4_games(), policy=st.integers(0, 2**32 - 1))
def test_random_v4_games_agree_with_the_reference(engine, game_spec, policy):
    rnd = random.Random(policy)  # the events; drawn here so that long games are not cut short
    timeout_rate = rnd.choice([0.05, 0.15, 0.3])
    ref = tournament(game_spec)
    game = engine.create(game_spec)
    assert _dump(game.standings()) == _dump(ref.standings())
    for step in range(3000):
        state = ref.decision_state()
        assert _dump(game.state()) == _dump(state), f"state at step {step}"
        if state is None:
            break
        kind = _step(ref, game, rnd, state, timeout_rate)
        if kind != "act" or ref.over:
            assert _dump(game.standings()) == _dump(ref.standings()), f"standings after a {kind} at step {step}"
    else:
        raise AssertionError("the game did not end within 3000 events")
    for seat in range(3):  # recovery requested after the end
        _recover(ref, game, seat)
    assert _dump(game.log()) == _dump([log_entry(r) for r in ref.hands])
    assert _dump(game.history()) == _dump(ref.public_history())
    assert _dump(game.standings()) == _dump(ref.standings())
    game.close()
