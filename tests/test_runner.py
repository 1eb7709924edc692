"""The arena runner: seats in their own workers, fallbacks and error categories, R21 seeds,
determinism, state isolation; and the play-style profile of finished hands."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from conformance.bots.profile import Profile, profile_hands
from conformance.harness.runner import (BotSpec, RunnerOptions, judge, legal_from_state, percentile, replay_hashes,
                                run_tournament, seat_seed, state_hash)
from conformance.host.jsvalue import UNDEFINED
from conformance.host.worker import JSValue, Outcome, encode_state
from reference.actions import Legal
from reference.errors import OptionError
from reference.rng import fnv1a32, mulberry32
from reference.tournament import Tournament

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "tests" / "bots" / "bad"
GOOD = ROOT / "tests" / "bots" / "good"
SHORT = 300  # ms: a decision deadline where the deadline itself is not the subject
SLACK = 250  # ms: allowed beyond a deadline for the kill and the reap
# Answers legally and reports its first Math.random value in an ignored field.
REPORTER = BotSpec("reporter", "module.exports = function (s) {\n"
                   "  return { type: s.canCheck ? 'check' : 'fold', amount: Math.random() };\n};\n")


def house(bot_id: str) -> BotSpec:
    return BotSpec.from_file(ROOT / "bots" / f"{bot_id}.js")


def corpus(path: Path) -> BotSpec:
    return BotSpec.from_file(path, id=path.stem)


# ---- R21 -------------------------------------------------------------------------------

def test_seat_seed_is_the_fnv_state_of_botseed_and_seat_id():
    assert seat_seed(42, 0) == fnv1a32("42:s1")
    assert seat_seed(42, 8) == fnv1a32("42:s9")
    assert seat_seed(0, 0) == fnv1a32("0:s1")
    assert len({seat_seed(42, s) for s in range(9)}) == 9
    for bad in (-1, 2**32, True, 1.0, "7"):
        with pytest.raises(OptionError) as err:
            seat_seed(bad, 0)
        assert err.value.field == "bot_seed"


def first_randoms(result) -> dict[int, float]:
    """Each seat's first Math.random value, as the reporter bot sent it."""
    firsts: dict[int, float] = {}
    for d in result.decisions:
        firsts.setdefault(d.seat, d.answer["amount"])
    return firsts


def test_each_seat_gets_its_own_stream_from_one_botseed_independent_of_the_deck():
    options = RunnerOptions(decision_ms=SHORT, tournament={"max_hands": 3})  # every seat acts
    a = run_tournament([REPORTER] * 3, seed=5, bot_seed=42, options=options)
    b = run_tournament([REPORTER] * 3, seed=6, bot_seed=42, options=options)
    firsts = first_randoms(a)
    assert firsts == {s: mulberry32(seat_seed(42, s))() for s in range(3)}
    assert len(set(firsts.values())) == 3  # the same bot twice does not play in lockstep
    assert first_randoms(b) == firsts  # the deck seed does not move the bot seeds
    assert [s.bot_seed for s in a.seats] == [seat_seed(42, s) for s in range(3)]
    for s in a.seats:
        assert s.init["kind"] == "ok" and s.error_count == 0


def test_same_seeds_same_digest_and_timings_stay_out_of_it():
    bots = [house("equity-bot"), REPORTER, house("sample-tight")]
    options = RunnerOptions(tournament={"max_hands": 6})
    a = run_tournament(bots, seed=11, bot_seed=7, options=options)
    b = run_tournament(bots, seed=11, bot_seed=7, options=options)
    assert a.digest() == b.digest()
    assert a.to_json(timings=False) == b.to_json(timings=False)
    c = run_tournament(bots, seed=11, bot_seed=8, options=options)
    assert c.digest() != a.digest()  # the reporter's answers carry its stream
    text = str(a.to_json(timings=False))
    assert "wallMs" not in text and "cpuMs" not in text and "timing" not in text
    assert "wallMs" in str(a.to_json())


# ---- failures at the table ----------------------------------------------------------------

def test_broken_seats_take_the_fallback_while_the_others_keep_playing():
    bots = [house("sample-caller"), corpus(BAD / "act-loop.js"), corpus(BAD / "throw-string.js"),
            corpus(BAD / "syntax-error.js"), corpus(BAD / "always-check.js"), house("equity-bot")]
    result = run_tournament(bots, seed=3, bot_seed=9,
                            options=RunnerOptions(init_ms=2000, decision_ms=SHORT, tournament={"max_hands": 6}))
    caller, looper, thrower, unparsable, checker, equity = result.seats
    assert len(result.hands) == 6 and all(s["place"] is not None for s in result.standings)
    for s in (caller, equity):
        assert s.error_count == 0 and s.terminated is None and s.decisions > 0

    assert looper.errors["late"] == 1 and looper.errors["missing"] == looper.decisions - 1
    assert looper.terminated["decision"] is not None
    late = [d for d in result.decisions if d.error == "late"]
    assert late and all(d.wall_ms <= SHORT + SLACK for d in late)
    assert {d.code for d in result.decisions if d.seat == 1 and d.error == "missing"} <= {"terminated"}

    assert thrower.errors["throwing"] == thrower.decisions > 1 and thrower.terminated is None

    assert unparsable.init["kind"] == "syntax" and unparsable.terminated is not None
    assert unparsable.errors["missing"] == unparsable.decisions > 0
    assert {d.code for d in result.decisions if d.seat == 3} == {"init-failed"}

    # An invalid action alone does not terminate a healthy worker: it answers again.
    assert checker.errors["engine-invalid"] > 0 and checker.terminated is None
    assert any(d.seat == 4 and d.error is None for d in result.decisions)

    for s, standing in zip(result.seats, result.standings):
        assert standing["errors"] == s.error_count
    for d in result.decisions:
        if d.error is not None:
            assert d.action["type"] in ("check", "fold")
    # Every applied action, fallbacks included, was legal where it was applied.
    assert replay_hashes(result) is None


def test_a_bot_mutating_its_state_changes_nothing_in_the_engine():
    bots = [corpus(GOOD / "mutating-state.js"), house("sample-caller"), corpus(GOOD / "mutating-state.js")]
    result = run_tournament(bots, seed=4, bot_seed=2, options=RunnerOptions(tournament={"max_hands": 8}))
    assert all(s.error_count == 0 for s in result.seats)
    assert replay_hashes(result) is None


def test_replay_detects_a_state_that_differs_from_its_hash():
    result = run_tournament([house("check-fold"), house("sample-caller")], seed=4, bot_seed=2,
                            options=RunnerOptions(tournament={"max_hands": 2}))
    assert replay_hashes(result) is None
    record = result.decisions[3]
    result.decisions[3] = type(record)(**{**record.__dict__, "state_hash": "0" * 64})
    assert replay_hashes(result) == 3


def test_options_are_validated_by_field():
    with pytest.raises(OptionError) as err:
        RunnerOptions(decision_ms=0)
    assert err.value.field == "decision_ms"
    with pytest.raises(OptionError) as err:
        RunnerOptions(tournament={"ruleset": "holdem-sng-3-v4"})
    assert err.value.field == "tournament.ruleset"
    with pytest.raises(OptionError) as err:
        run_tournament([REPORTER, REPORTER], seed=1, bot_seed=2**32)
    assert err.value.field == "bot_seed"


# ---- judging one outcome ----------------------------------------------------------------------

LEGAL = Legal(to_call=100, current_bet=100, min_raise_to=200, max_raise_to=1000, can_check=False, can_allin=True,
              last_full_raise=100)


@pytest.mark.parametrize("outcome, category, code", [
    (Outcome("ok", "call"), None, None),
    (Outcome("ok", {"type": "raise", "amount": 300}), None, None),
    (Outcome("ok", {"type": "raise", "amount": 1000.0}), None, None),
    (Outcome("ok", {"type": "fold", "amount": UNDEFINED}), None, None),
    (Outcome("ok", UNDEFINED), "missing", "undefined"),
    (Outcome("ok", None), "malformed", "malformed"),
    (Outcome("ok", "raise"), "malformed", "raise-without-amount"),
    (Outcome("ok", {"type": "raise", "amount": UNDEFINED}), "malformed", "amount-missing"),
    (Outcome("ok", {"type": "raise", "amount": float("nan")}), "malformed", "amount-not-safe-integer"),
    (Outcome("ok", {"type": "raise", "amount": 2**53 + 2}), "malformed", "amount-not-safe-integer"),
    (Outcome("ok", {"type": JSValue("object"), "amount": UNDEFINED}), "malformed", "unknown-type"),
    (Outcome("ok", {"type": "bet", "amount": 300}), "malformed", "unknown-type"),
    (Outcome("ok", JSValue("promise")), "malformed", "promise"),
    (Outcome("ok", JSValue("array")), "malformed", "malformed"),
    (Outcome("ok", "check"), "engine-invalid", "check-not-allowed"),
    (Outcome("ok", {"type": "raise", "amount": 150}), "engine-invalid", "amount-below-min"),
    (Outcome("throw", error={"where": "act", "name": None, "message": "x"}), "throwing", "throw"),
    (Outcome("late", error={"message": "no answer within 1000 ms"}), "late", "late"),
    (Outcome("memory", error={"message": "out of memory"}), "missing", "memory"),
    (Outcome("crash", error={"message": "killed"}), "missing", "crash"),
    (Outcome("malformed", error={"message": "bad line"}), "malformed", "bad-response"),
    (Outcome("dead", error={"message": "late"}), "missing", "terminated"),
])
def test_judge(outcome, category, code):
    verdict = judge(outcome, LEGAL)
    assert (verdict.category, verdict.code) == (category, code)
    if category is None:
        assert verdict.kind is not None and verdict.detail == ""


def test_legal_from_state_and_state_hash():
    t = Tournament(["A", "B", "C"], seed=1)
    state = t.decision_state()
    assert legal_from_state(state) == t.legal()
    assert state_hash(state) == state_hash(t.decision_state())
    # The hash covers exactly the bytes the worker receives, key order included.
    assert state_hash(state) == hashlib.sha256(encode_state(state)).hexdigest()
    assert state_hash(state) != state_hash(dict(reversed(list(state.items()))))
    state["you"]["stack"] -= 1
    assert state_hash(state) != state_hash(t.decision_state())


def test_percentile_is_nearest_rank():
    assert percentile([], 50) is None
    assert percentile([3.0], 95) == 3.0
    values = [float(x) for x in range(1, 21)]
    assert percentile(values, 50) == 10.0
    assert percentile(values, 95) == 19.0
    assert percentile(list(reversed(values)), 100) == 20.0


# ---- profile ---------------------------------------------------------------------------------

def test_profile_counts_one_scripted_hand():
    # Seat 0 (s1) is the button, s2 the small blind, s3 the big blind; preflop starts at s1.
    t = Tournament(["A", "B", "C"], seed=1, max_hands=1)
    script = [
        {"type": "raise", "amount": 300},  # s1 raises preflop
        "call",                            # s2 calls (a voluntary call from the small blind)
        "fold",                            # s3 folds its big blind
        "check",                           # flop: s2
        {"type": "raise", "amount": 400},  # s1 bets the flop
        "call",                            # s2
        "check", "check",                  # turn
        "allin",                           # river: s2 bets its whole stack
        "call",                            # s1 calls with its last chip
    ]
    for answer in script:
        t.act(answer)
    assert t.over
    p = profile_hands(t.hands)
    assert p["s1"] == Profile(hands=1, vpip_hands=1, pfr_hands=1, all_in_hands=1, bets=1, raises=1, calls=1,
                              checks=1, folds=0)
    assert p["s2"] == Profile(hands=1, vpip_hands=1, pfr_hands=0, all_in_hands=1, bets=1, raises=0, calls=2,
                              checks=2, folds=0)
    assert p["s3"] == Profile(hands=1, folds=1)
    assert p["s1"].aggression_factor == 2.0 and p["s2"].aggression_factor == 0.5
    assert p["s3"].aggression_factor is None
    assert p["s3"].vpip == 0.0 and p["s1"].pfr == 1.0
    assert (p["s1"] + p["s3"]).to_json()["hands"] == 2


def test_profile_short_blind_is_not_voluntary_and_checking_big_blind_is_not_vpip():
    # s3 (big blind) has 60 chips: its blind is short (R8); everyone else just calls or checks.
    t = Tournament(["A", "B", "C"], seed=2, max_hands=1, stacks=[10000, 10000, 60])
    while not t.over:
        state = t.decision_state()
        t.act("check" if state["canCheck"] else "call")
    p = profile_hands(t.hands)
    assert p["s1"].vpip_hands == 1 and p["s2"].vpip_hands == 1
    assert p["s3"].vpip_hands == 0 and p["s3"].all_in_hands == 0  # all-in by its blind, not by choice
    assert p["s1"].raises == p["s2"].raises == 0
