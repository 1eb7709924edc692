"""The bundled JS engine's game API (PokerEngine.create, buildPots) inside QuickJS.

1. The golden vectors, run as docs/INTERPRETING.md says, with key order part of equality.
2. The API's edges: option errors naming the field, rejections, submit/timeout, game over.
3. A differential test: random games played move for move in the Python reference and in the
   JS engine must agree on every state, accept/reject decision (code and field), log record,
   history and standing.
"""
import json
import math
import random

import pytest
from hypothesis import given, strategies as st

from conformance.host.jsvalue import UNDEFINED, encode
from conformance.vectors.gamespec import tournament
from conformance.vectors.generators.tournaments import log_entry
from js_vector_runner import JSEngine, JSThrow, run_family
from reference.cards import CANONICAL_DECK
from reference.errors import HoldemError, IllegalAction
from reference.pots import build_pots


@pytest.fixture(scope="module")
def engine():
    return JSEngine()  # one QuickJS context for this module, used from this thread only


def js(engine, body):
    """Evaluate a JS function body in the engine's context; its return value as JSON data."""
    return json.loads(engine.ctx.eval(f"JSON.stringify((function () {{ 'use strict'; {body} }})())"))


def thrown(engine, body):
    """What the JS statements throw: name, field, code and whether it is an Error."""
    return js(engine, f"try {{ {body} }} catch (e) {{ return {{name: e.name, field: e.field, code: e.code === undefined"
                      f" ? null : e.code, error: e instanceof Error, message: e.message}}; }} return null;")


# -- 1. golden vectors ------------------------------------------------------------------------
@pytest.mark.parametrize("family", ["rng", "deck", "pots", "legality", "hands", "tournaments"])
def test_vector_family_passes_exactly(engine, family):
    verdicts = run_family(engine, family, key_order=True)
    bad = [f"{v.id}: {v.verdict} {v.detail}" for v in verdicts if v.verdict != "passed" or v.notes]
    assert verdicts and not bad, "\n".join(bad)


# -- 2. the API's edges -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "seats,options,field,python_rejects",
    [
        ("AB", {}, "seats", True),
        (["A"], {}, "seats", True),
        (["A"] * 10, {}, "seats", True),
        (["A", ""], {}, "seats[1]", True),
        (["A", 3], {}, "seats[1]", True),
        (["A", "B"], 5, "options", False),
        (["A", "B"], [], "options", False),
        (["A", "B"], {"ruleset": "no-such-rules"}, "ruleset", True),
        (["A", "B"], {"ruleset": None}, "ruleset", True),
        (["A", "B"], {"colour": "red"}, "colour", False),
        (["A", "B"], {"startingStack": 0}, "startingStack", True),
        (["A", "B"], {"startingStack": 1.5}, "startingStack", True),
        (["A", "B"], {"startingStack": "100"}, "startingStack", True),
        (["A", "B"], {"startingStack": True}, "startingStack", True),
        (["A", "B"], {"handsPerLevel": 0}, "handsPerLevel", True),
        (["A", "B"], {"timeLimitMs": -1}, "timeLimitMs", True),
        (["A", "B"], {"maxHands": 0}, "maxHands", True),
        (["A", "B"], {"blindSchedule": []}, "blindSchedule", True),
        (["A", "B"], {"blindSchedule": [[1]]}, "blindSchedule[0]", True),
        (["A", "B"], {"blindSchedule": [[1, 2], [0, 2]]}, "blindSchedule[1][0]", True),
        (["A", "B"], {"blindSchedule": [[1, "2"]]}, "blindSchedule[0][1]", True),
        (["A", "B"], {"blindSchedule": [[5, 2]]}, "blindSchedule[0]", True),
        (["A", "B"], {"stacks": [100]}, "stacks", True),
        (["A", "B"], {"stacks": [100, 0]}, "stacks[1]", True),
        (["A", "B"], {"stacks": [100, 2.5]}, "stacks[1]", True),
        (["A", "B"], {"decks": ["Ah"]}, "decks", False),
        (["A", "B"], {"decks": {"0": ["Ah"]}}, "decks", True),
        (["A", "B"], {"decks": {"01": ["Ah"]}}, "decks", False),
        (["A", "B"], {"decks": {"1": "AhKd"}}, "decks[1]", True),
        (["A", "B"], {"decks": {"1": []}}, "decks[1]", True),
        (["A", "B"], {"decks": {"1": ["Ah", "Xx"]}}, "decks[1][1]", True),
        (["A", "B"], {"decks": {"2": ["Ah", 5]}}, "decks[2][1]", True),
        (["A", "B"], {"decks": {"1": ["Ah", "Kd", "Ah"]}}, "decks[1][2]", True),
        (["A", "B"], {"controllers": ["bot"]}, "controllers", True),
        (["A", "B"], {"controllers": ["bot", "robot"]}, "controllers[1]", True),
    ],
)
def test_bad_seats_or_options_throw_naming_the_field(engine, seats, options, field, python_rejects):
    with pytest.raises(JSThrow) as exc:
        engine.call("create", seats=seats, options=options)
    assert (exc.value.name, exc.value.field) == ("OptionError", field)
    assert str(exc.value).startswith(f"OptionError: {field}: ")
    if python_rejects:  # the reference refuses the same game
        spec = {"seats": seats, "options": dict(options)}
        if "controllers" in options:  # a game-level key in specs (INTERPRETING.md)
            spec["controllers"] = spec["options"].pop("controllers")
        with pytest.raises(HoldemError):
            tournament(spec)


def test_defaults_undefined_options_and_no_cap(engine):
    state = js(engine, "return PokerEngine.create(['A', 'B'], {seed: undefined, maxHands: null}).state();")
    assert state == tournament({"seats": ["A", "B"], "options": {"maxHands": None}}).decision_state()
    assert state["tournament"]["maxHands"] is None
    assert js(engine, "return PokerEngine.create(['A', 'B']).state();") == tournament({"seats": ["A", "B"]}).decision_state()


def test_illegal_answer_throws_an_error_with_code_and_field_and_changes_nothing(engine):
    info = thrown(engine, "globalThis.g = PokerEngine.create(['A', 'B', 'C']); globalThis.before = JSON.stringify(g.state());"
                          "g.act({type: 'raise', amount: 150});")
    assert info["error"] and info["name"] == "IllegalAction"
    assert (info["code"], info["field"]) == ("amount-below-min", "amount")
    assert info["message"].startswith("amount: ")
    assert js(engine, "return JSON.stringify(g.state()) === before && g.standings()[0].errors === 0;")


def test_submit_and_timeout_apply_the_fallback_and_count_errors(engine):
    result = js(engine, """
        const g = PokerEngine.create(['A', 'B'], {maxHands: 1});
        const out = [g.submit('call'), g.submit('raise'), g.timeout()];
        out.push(g.standings().map((s) => s.errors));
        return out;""")
    assert result[0] == {"action": {"id": "s1", "street": "preflop", "type": "call", "amount": 50}, "error": None}
    # The big blind may check: an invalid answer becomes a check.
    assert result[1] == {"action": {"id": "s2", "street": "preflop", "type": "check", "amount": 0},
                         "error": "raise-without-amount"}
    assert result[2] == {"action": {"id": "s2", "street": "flop", "type": "check", "amount": 0}, "error": "late"}
    assert result[3] == [0, 2]


def test_game_over_reads_null_and_refuses_answers(engine):
    result = js(engine, """
        const g = PokerEngine.create(['A', 'B'], {maxHands: 1});
        g.act('fold');
        const refusals = [];
        for (const f of [() => g.act('fold'), () => g.submit('fold'), () => g.timeout()]) {
          try { f(); refusals.push(null); } catch (e) { refusals.push([e.name, e.field, e instanceof Error]); }
        }
        return {over: g.over, state: g.state(), refusals, places: g.standings().map((s) => s.place)};""")
    assert result["over"] is True and result["state"] is None
    assert result["refusals"] == [["GameOver", "action", True]] * 3
    assert result["places"] == [2, 1]


def test_every_read_is_a_fresh_copy_and_only_the_api_is_exposed(engine):
    result = js(engine, """
        const g = PokerEngine.create(['A', 'B', 'C'], {maxHands: 3, seed: 5});
        while (!g.over) g.act(g.state().canCheck ? 'check' : 'call');
        const before = JSON.stringify([g.standings(), g.history(), g.log()]);
        g.standings()[0].chips = -1; g.history()[0].winners.length = 0; g.log()[0].actions.length = 0;
        g.log()[0].result.board.length = 0; g.log()[0].chips[0] = -1;
        return {same: JSON.stringify([g.standings(), g.history(), g.log()]) === before, keys: Object.keys(g),
                frozen: Object.isFrozen(g)};""")
    assert result == {"same": True, "keys": ["over", "state", "standings", "history", "log", "act", "submit", "timeout",
                                                       "recover"],
                      "frozen": True}


@pytest.mark.parametrize(
    "bad,field",
    [
        ("x", "contributions"),
        ([5], "contributions[0]"),
        ([[1]], "contributions[0]"),
        ([{"id": "a", "committed": 1}], "contributions[0].folded"),
        ([{"id": "a", "committed": -1, "folded": False}], "contributions[0].committed"),
        ([{"id": "a", "committed": 1.5, "folded": False}], "contributions[0].committed"),
        ([{"id": "a", "committed": True, "folded": False}], "contributions[0].committed"),
        ([{"id": "", "committed": 1, "folded": False}], "contributions[0].id"),
        ([{"id": "a", "committed": 1, "folded": False}, {"id": "a", "committed": 2, "folded": False}], "contributions[1].id"),
        ([{"id": "a", "committed": 1, "folded": "no"}], "contributions[0].folded"),
    ],
)
def test_build_pots_names_the_field_as_the_reference_does(engine, bad, field):
    with pytest.raises(JSThrow) as exc:
        engine.call("buildPots", contributions=bad)
    assert (exc.value.name, exc.value.field) == ("PotsError", field)
    with pytest.raises(HoldemError) as ref:
        build_pots(bad)
    assert ref.value.field == field


@given(st.lists(st.tuples(st.integers(0, 1000), st.booleans()), max_size=9))
def test_build_pots_matches_the_reference(engine, entries):
    contributions = [{"id": f"s{i + 1}", "committed": a, "folded": f} for i, (a, f) in enumerate(entries)]
    assert engine.call("buildPots", contributions=contributions) == build_pots(contributions)


# -- 3. differential: the Python reference and the JS engine, move for move -------------------
def _raise(amount):
    return lambda s: {"type": "raise", "amount": amount(s)}


def _min_to(s):
    return s["minRaiseTo"] if s["minRaiseTo"] is not None else s["currentBet"] + s["lastFullRaise"]


# Answer makers: mostly plausible play, so that games get somewhere, and every odd form the
# contract mentions (R19). "timeout" is the runner's late answer.
PLAY = [
    lambda s: "check" if s["canCheck"] else "call",
    lambda s: "check" if s["canCheck"] else "fold",
    lambda s: "allin",
    _raise(_min_to),
    _raise(_min_to),
    _raise(lambda s: s["maxRaiseTo"]),
    _raise(lambda s: (_min_to(s) + s["maxRaiseTo"]) // 2),
]
ODD = [
    lambda s: "fold",
    lambda s: "check",
    lambda s: "call",
    lambda s: {"type": "allin"},
    _raise(lambda s: _min_to(s) - 1),
    _raise(lambda s: s["currentBet"]),
    _raise(lambda s: s["maxRaiseTo"] + 1),
    _raise(lambda s: float(_min_to(s))),
    _raise(lambda s: _min_to(s) + 0.5),
    _raise(lambda s: str(_min_to(s))),
    _raise(lambda s: math.nan),
    _raise(lambda s: math.inf),
    _raise(lambda s: 1e21),
    _raise(lambda s: 2**53),
    _raise(lambda s: -0.0),
    _raise(lambda s: True),
    _raise(lambda s: None),
    _raise(lambda s: UNDEFINED),
    lambda s: {"type": "raise"},
    lambda s: "raise",
    lambda s: {"type": "bet", "amount": 100},
    lambda s: "bet",
    lambda s: "Fold",
    lambda s: {"type": "Check"},
    lambda s: {"type": True},
    lambda s: {"kind": "fold"},
    lambda s: {"type": "call", "amount": 5, "why": "odds"},
    lambda s: None,
    lambda s: UNDEFINED,
    lambda s: 3,
    lambda s: ["fold"],
    lambda s: "timeout",
]


def pick(rnd, state: dict):
    """One answer: three in four from PLAY."""
    return rnd.choice(ODD if rnd.random() < 0.25 else PLAY)(state)


SEEDS = st.one_of(
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=4),
)


@st.composite
def games(draw):
    n = draw(st.integers(2, 9))
    options = {"seed": draw(SEEDS), "maxHands": draw(st.integers(1, 16))}
    if draw(st.booleans()):
        options["stacks"] = draw(st.lists(st.one_of(st.integers(1, 300), st.integers(301, 5000)), min_size=n, max_size=n))
    else:
        options["startingStack"] = draw(st.sampled_from([300, 1000, 10000]))
    if draw(st.booleans()):
        levels = draw(st.lists(st.integers(2, 400), min_size=1, max_size=4))
        options["blindSchedule"] = [[draw(st.integers(1, big)), big] for big in levels]
    options["handsPerLevel"] = draw(st.integers(1, 5))
    if draw(st.booleans()):
        options["timeLimitMs"] = draw(st.integers(1, 60000))
    if draw(st.integers(0, 3)) == 0:
        deck = draw(st.permutations(CANONICAL_DECK))
        options["decks"] = {str(draw(st.integers(1, 3))): deck[: draw(st.integers(1, 52))]}
    names = [draw(st.sampled_from(["Ann", "Bob", "Cy", "Ann Lee", "é"])) for _ in range(n)]
    spec = {"seats": names, "options": options}
    if draw(st.booleans()):
        spec["controllers"] = draw(st.lists(st.sampled_from(["bot", "human", "agent"]), min_size=n, max_size=n))
    return spec


def _dump(value):
    return json.dumps(value)  # order of keys, true vs 1 and 1 vs 1.0 all count


@given(spec=games(), policy=st.integers(0, 2**32 - 1))
def test_random_games_agree_with_the_reference(engine, spec, policy):
    rnd = random.Random(policy)  # the answers; drawn here so that long games are not cut short
    ref = tournament(spec)
    game = engine.create(spec)
    for step in range(5000):
        state = ref.decision_state()
        assert _dump(game.state()) == _dump(state), f"state at step {step}"
        if state is None:
            break
        answer = pick(rnd, state)
        if answer == "timeout":
            assert game.timeout() == {"action": ref.timeout(), "error": "late"}
            continue
        if rnd.random() < 0.3:  # the runner's rule in one call
            record, code = ref.submit(answer)
            assert _dump(game.submit(encode(answer))) == _dump({"action": record, "error": code})
            continue
        try:
            expected = ("accepted", ref.act(answer))
        except IllegalAction as exc:
            expected = ("rejected", exc.code, exc.field)
        try:
            actual = ("accepted", game.act(encode(answer)))
        except JSThrow as exc:
            assert exc.name == "IllegalAction"
            actual = ("rejected", exc.code, exc.field)
        assert _dump(actual) == _dump(expected), f"answer {answer!r} at step {step}"
        if expected[0] == "rejected":
            assert _dump(game.state()) == _dump(ref.decision_state())
            record, code = ref.submit(answer)
            assert _dump(game.submit(encode(answer))) == _dump({"action": record, "error": code})
    assert ref.over and game.over
    assert _dump(game.log()) == _dump([log_entry(r) for r in ref.hands])
    assert _dump(game.history()) == _dump(ref.public_history())
    assert _dump(game.standings()) == _dump(ref.standings())
    game.close()
