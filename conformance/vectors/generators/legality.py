"""Family ``legality``: a decision state and an answer -> the accepted action, or the rejection
and its reason, for every return-value rule (contract: Return values; R19)."""
import math

from reference.errors import IllegalAction
from reference.rng import JSBigInt

from conformance.host.jsvalue import UNDEFINED, encode
from conformance.vectors.gamespec import game, tournament
from conformance.vectors.vectorfile import make_test

NOTES = {
    "Accepted": {"description": "the answer is legal: the engine applies it and records this action", "clauses": ["return.forms"], "ruling": None},
    "Rejected": {"description": "the answer is not legal: the engine rejects it, changing nothing; the runner's fallback "
                 "(check if legal, else fold; one error) gives the action in 'fallback'", "clauses": ["return.forms", "timing.fallback"], "ruling": None},
    "ShortBlind": {"description": "the state follows from a short all-in blind (currentBet is the largest posted blind)", "clauses": ["state.to-call"], "ruling": "R8"},
}

R = lambda amount: {"type": "raise", "amount": amount}  # noqa: E731
THREE = game(["A", "B", "C"], maxHands=1)  # seat 0 first to act: toCall 100, minRaiseTo 200, maxRaiseTo 10000
HEADS_UP_OPTION = (game(["A", "B"], maxHands=1), ["call"])  # big blind may check or raise
FLOP = (game(["A", "B"], maxHands=1), ["call", "check"])  # the big blind opens the flop
SHORT_REOPEN = (game(["A", "B", "C"], maxHands=1, stacks=[5000, 450, 5000]), [R(300), "allin", "fold"])  # raise closed
SHORT_STACK = (game(["A", "B", "C", "D"], maxHands=1, stacks=[5000, 5000, 5000, 150]), [])  # minRaiseTo > maxRaiseTo
SHORT_BLIND = (game(["A", "B", "C"], maxHands=1, stacks=[5000, 5000, 60]), [])
# Seat 0 raised to 300 and again to 1100 (its second action on the street); the big blind's short
# all-in to 1300 (increment 200 < 400) leaves seat 0 facing 200 since its last action: closed.
SECOND_RAISE_CLOSED = (game(["A", "B", "C", "D"], maxHands=1, stacks=[5000, 5000, 1300, 5000]),
                       ["fold", R(300), R(700), "call", R(1100), "call", "allin"])
CAPPED_CALL = (game(["A", "B", "C"], maxHands=1, stacks=[70, 5000, 5000]), [])
# R9: seat 1 checks the flop, seats 2 and 3 go all-in short (60, then 110): seat 1 faces 110 since its
# check, a full bet, so it is reopened (the checker convention covers a short opening all-in alone).
CHECKER_REOPENED = (game(["A", "B", "C", "D"], maxHands=1, stacks=[5000, 5000, 160, 210]),
                    ["call", "call", "call", "check", "check", "allin", "allin", "call"])
# Every option of docs/engine-api.md that contract-v1 games take, given explicitly (the ruleset named,
# its defaults overridden; a deck pinned by its first card alone, the least a pinned deck may list),
# at a table where the same bot sits twice ("even if the same bot sits multiple times": names need
# not be distinct in contract-v1).
EVERY_OPTION = (game(["A", "A", "B"], ruleset="contract-v1", seed=3, startingStack=2000, blindSchedule=[[10, 20], [20, 40]],
                     handsPerLevel=5, maxHands=1, timeLimitMs=500, decks={1: ["As"]}), [])

CASES = [
    # (slug, clauses, (game, prefix), answer, extra flags)
    ("fold-facing-bet", ["return.fold"], (THREE, []), "fold", []),
    ("fold-when-check-possible", ["return.fold"], HEADS_UP_OPTION, "fold", []),
    ("fold-object", ["return.fold"], (THREE, []), {"type": "fold"}, []),
    ("check-when-possible", ["return.check"], HEADS_UP_OPTION, "check", []),
    ("check-facing-bet", ["return.check"], (THREE, []), "check", []),
    ("call-facing-bet", ["return.call"], (THREE, []), "call", []),
    ("call-object", ["return.call"], (THREE, []), {"type": "call"}, []),
    ("call-when-check-possible", ["return.call"], HEADS_UP_OPTION, "call", []),
    ("call-capped-at-stack", ["return.call", "state.to-call"], CAPPED_CALL, "call", []),
    ("call-in-a-game-given-every-option", ["return.call", "state.tournament", "rules.seats"], EVERY_OPTION, "call", []),
    ("raise-minimum", ["return.raise", "rules.raise-total"], (THREE, []), R(200), []),
    ("raise-maximum", ["return.raise"], (THREE, []), R(10000), []),
    ("raise-below-minimum", ["return.raise", "rules.min-raise"], (THREE, []), R(199), []),
    ("raise-not-above-current-bet", ["return.raise"], (THREE, []), R(100), []),
    ("raise-negative", ["return.raise"], (THREE, []), R(-300), []),
    ("raise-above-maximum", ["return.raise"], (THREE, []), R(10001), []),
    ("raise-fraction", ["return.raise"], (THREE, []), R(300.5), []),
    ("raise-string-amount", ["return.raise"], (THREE, []), R("300"), []),
    ("raise-nan", ["return.raise"], (THREE, []), R(math.nan), []),
    ("raise-infinity", ["return.raise"], (THREE, []), R(math.inf), []),
    ("raise-1e21", ["return.raise"], (THREE, []), R(1e21), []),
    ("raise-unsafe-integer", ["return.raise"], (THREE, []), R(2**53), []),
    # A BigInt is no Number: Number.isSafeInteger(300n) is false, so the raise is invalid (the fallback).
    ("raise-bigint-amount", ["return.raise"], (THREE, []), R(JSBigInt(300)), []),
    ("raise-missing-amount", ["return.raise"], (THREE, []), {"type": "raise"}, []),
    ("raise-string-alone", ["return.raise-alone"], (THREE, []), "raise", []),
    ("raise-short-all-in-exact", ["return.raise", "state.min-raise-to"], SHORT_STACK, R(150), []),
    ("raise-short-all-in-not-exact", ["return.raise", "state.min-raise-to"], SHORT_STACK, R(149), []),
    ("raise-when-closed", ["return.raise", "rules.short-allin"], SHORT_REOPEN, R(1000), []),
    ("raise-when-closed-since-last-action", ["return.raise", "rules.short-allin"], SECOND_RAISE_CLOSED, R(1700), []),
    ("allin-when-closed-since-last-action", ["return.allin", "state.can-allin"], SECOND_RAISE_CLOSED, "allin", []),
    ("raise-checker-reopened-by-short-raises-adding-up", ["return.raise", "rules.short-allin"], CHECKER_REOPENED, R(210), []),
    ("raise-opens-the-flop", ["return.no-bet", "rules.min-open"], FLOP, R(100), []),
    ("open-below-big-blind", ["return.raise", "rules.min-open"], FLOP, R(99), []),
    ("bet-type", ["return.no-bet"], (THREE, []), {"type": "bet", "amount": 300}, []),
    ("bet-string", ["return.no-bet"], (THREE, []), "bet", []),
    ("allin-legal", ["return.allin"], (THREE, []), "allin", []),
    ("allin-object", ["return.allin"], (THREE, []), {"type": "allin"}, []),
    ("allin-when-closed", ["return.allin", "state.can-allin"], SHORT_REOPEN, "allin", []),
    # Seat 0 raised to 300, the small blind's short all-in to 450 closed its raise right; its 400 chips only call.
    ("allin-call-when-closed", ["return.allin", "state.can-allin"], (game(["A", "B", "C"], maxHands=1, stacks=[400, 450, 5000]),
                                                                     [R(300), "allin", "fold"]), "allin", []),
    ("extra-fields-ignored", ["return.extra-fields"], (THREE, []), {"type": "call", "amount": 5, "reason": "odds"}, []),
    ("extra-fields-raise", ["return.extra-fields"], (THREE, []), {"type": "raise", "amount": 300, "note": {"x": 1}}, []),
    ("uppercase-string", ["return.forms"], (THREE, []), "Fold", []),
    ("number", ["return.forms"], (THREE, []), 3, []),
    ("null", ["return.forms"], (THREE, []), None, []),
    ("undefined", ["return.forms"], (THREE, []), UNDEFINED, []),
    ("array", ["return.forms"], (THREE, []), ["fold"], []),
    ("unknown-type", ["return.forms"], (THREE, []), {"type": "muck"}, []),
    # Malformed answers whose rendering in an error text could itself throw (a BigInt in JSON, an
    # object whose toString is not a function): the fallback still applies (issue #37).
    ("bigint", ["return.forms"], (THREE, []), JSBigInt(3), []),
    ("type-object-without-tostring", ["return.forms"], (THREE, []), {"type": {"toString": None}}, []),
    ("short-blind-call", ["return.call", "state.to-call"], SHORT_BLIND, "call", ["ShortBlind"]),
    ("short-blind-min-raise", ["return.raise", "state.min-raise-to"], SHORT_BLIND, R(160), ["ShortBlind"]),
    ("short-blind-below-min-raise", ["return.raise"], SHORT_BLIND, R(159), ["ShortBlind"]),
]


def legality_test(test_id: str, clauses: list[str], spec: dict, prefix: list, raw: object, flags: list[str]) -> dict:
    """The vector for answering ``raw`` in the game ``spec`` after the answers ``prefix``."""
    t = tournament(spec)
    for a in prefix:
        t.act(a)
    state = t.decision_state()
    try:
        record = t.act(raw)
        expected, outcome = {"accepted": record}, "Accepted"
    except IllegalAction as exc:
        record, _ = t.submit(raw)
        expected, outcome = {"rejected": exc.code, "field": exc.field, "fallback": record}, "Rejected"
    return make_test(
        NOTES, test_id, f"answer {raw!r} -> {outcome.lower()}", clauses,
        {"game": spec, "prefix": prefix, "state": state, "answer": encode(raw)},
        expected, [outcome, *flags], result=None if outcome == "Accepted" or flags else "invalid",
    )


def generate() -> list[dict]:
    return [legality_test(f"legality.{slug}", clauses, spec, prefix, raw, flags)
            for slug, clauses, (spec, prefix), raw, flags in CASES]
