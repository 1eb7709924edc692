"""Family ``hand``: one hand through the hand-level API (docs/engine-api.md, createHand) -> every
decision state's hand-level fields, every action, ``over`` and ``hand.result()``.

The hands are those the other game families play, taken out of their games: each hand of the
``hands`` scenarios and showdowns, of the ``legality`` games (up to the answer judged, refused or
not), of the ``tournaments`` games (out seats, short blinds, heads-up) and of a few random games (uneven
and one-chip stacks, every legal answer form). A hand's spec is its seats, stacks at the start, button, blinds and
the cards it deals as a pinned prefix (R3: dealt from the front; the rest of the deck is completed
in canonical order); its script is the answers given in it. Each vector is checked
to end as the hand did in its game.
"""
from __future__ import annotations

import random
from collections import defaultdict

from reference.adapter import run_hand
from reference.cards import CANONICAL_DECK
from reference.errors import HoldemError, IllegalAction
from reference.hand_api import create_hand
from reference.state import hand_state

from conformance.host.jsvalue import encode

from ..gamespec import STRATEGIES, answer as decode_answer, game, play_hand, tournament
from ..vectorfile import make_test
from . import hands, legality, tournaments
from .hands import merged_odd_chips_matter

NOTES = {
    "Hand": {"description": "createHand(spec), then state() before each answer of the script and act(answer); every "
                            "state's hand-level fields, every action, over and result() must match. The spec's deck "
                            "is dealt from the front (R3), completed with the unused cards in canonical order",
             "clauses": ["state.fields", "state.you", "state.pots", "state.to-call", "state.min-raise-to",
                         "state.max-raise-to", "state.can-check", "state.can-allin", "state.last-full-raise",
                         "state.positions", "state.seats", "state.actions", "state.board", "rules.deal-order",
                         "rules.burn", "rules.end"], "ruling": "R3"},
    "ShortBlind": {"description": "a blind is short (all-in): currentBet is the largest blind posted",
                   "clauses": ["state.to-call"], "ruling": "R8"},
    "OutSeat": {"description": "a seat with no chips is out of the hand: dealt nothing, shown out in seats",
                "clauses": ["rules.elimination", "state.seats"], "ruling": "R15"},
    "Refund": {"description": "an uncalled bet is returned to its owner at the close of a round",
               "clauses": ["rules.refund"], "ruling": "R12"},
    "OddChips": {"description": "a pot splits unevenly: odd chips one at a time clockwise from left of the button",
                 "clauses": ["rules.odd-chips", "rules.split"], "ruling": "R13"},
    "MergedOddChips": {"description": "odd chips are split per merged pot; per raw layer they would land differently",
                       "clauses": ["rules.odd-chips"], "ruling": "R13"},
    "Showdown": {"description": "the hand goes to a showdown: the best five of seven cards, the showdown and winners "
                                "lists in seat-index order",
                 "clauses": ["rules.best-five", "rules.showdown-public", "state.history-winners"], "ruling": "R14"},
    "Refused": {"description": "the script's last answer is not legal: act throws (with the contract's code) and "
                               "changes nothing; the hand stops there",
                "clauses": ["return.forms"], "ruling": "R19"},
    "Unfinished": {"description": "the script ends before the hand: over is false and result() null",
                   "clauses": ["rules.end"], "ruling": None},
    "HeadsUp": {"description": "two seats in the hand: the button posts the small blind and acts first preflop",
                "clauses": ["rules.heads-up-order"], "ruling": None},
    "AfterTheEnd": {"description": "the script goes on after the hand ends: state() is null (docs/engine-api.md) and the "
                                   "answers left are not given", "clauses": ["rules.end"], "ruling": None},
    "BadSpec": {"description": "an invalid spec (docs/engine-api.md, createHand): createHand throws; error names the field "
                "the reference names (a note only). An engine taking it is divergent on R38 for that alone: the hand it "
                "then plays (the script: three calls of the big blind) must deal no card twice and keep its chips",
                "clauses": ["rules.seats", "rules.deck-distinct", "rules.chips-conserved"], "ruling": "R38"},
}

_SPEC = {"ids": ["s1", "s2", "s3"], "stacks": [1000, 1000, 1000], "button": 0, "smallBlindSeat": 1, "bigBlindSeat": 2,
         "blinds": [50, 100], "deck": ["Ah", "Kd"]}


def _with(**fields) -> dict:
    return {**_SPEC, **fields}


def _without(field: str) -> dict:
    return {k: v for k, v in _SPEC.items() if k != field}


# slug, spec: what docs/engine-api.md defines as an invalid spec (R38: createHand refuses it).
BAD_SPECS = [
    ("spec-not-an-object", "s1 s2 s3"), ("unknown-field", _with(ante=10)), ("missing-deck", _without("deck")),
    ("missing-ids", _without("ids")), ("one-id", _with(ids=["s1"], stacks=[1000])), ("ids-not-an-array", _with(ids="s1 s2 s3")),
    ("duplicate-id", _with(ids=["s1", "s2", "s1"])), ("empty-id", _with(ids=["s1", "", "s3"])),
    ("ten-ids", _with(ids=[f"s{i}" for i in range(1, 11)], stacks=[1000] * 10)), ("id-not-a-string", _with(ids=["s1", 2, "s3"])),
    ("stacks-wrong-length", _with(stacks=[1000, 1000])), ("negative-stack", _with(stacks=[1000, -1, 1000])),
    ("fractional-stack", _with(stacks=[1000, 10.5, 1000])), ("small-blind-above-big", _with(blinds=[200, 100])),
    ("zero-blind", _with(blinds=[0, 100])), ("blinds-not-a-pair", _with(blinds=[50])),
    ("fractional-big-blind", _with(blinds=[50, 100.5])), ("blinds-three-items", _with(blinds=[50, 100, 200])),
    # An object shaped like the pair (indices and a length) is not an array.
    ("blinds-not-an-array", _with(blinds={"0": 50, "1": 100, "length": 2})),
    ("one-seat-with-chips", _with(stacks=[1000, 0, 0])), ("no-such-button", _with(button=3)),
    ("negative-small-blind-seat", _with(smallBlindSeat=-1)), ("blinds-on-one-seat", _with(smallBlindSeat=2)),
    ("big-blind-on-an-out-seat", _with(stacks=[1000, 1000, 0])), ("small-blind-on-an-out-seat", _with(stacks=[1000, 0, 1000])), ("zero-hand-number", _with(handNumber=0)),
    ("deck-duplicate-card", _with(deck=["Ah", "Ah"])), ("deck-bad-card", _with(deck=["Ah", "Kx"])),
    ("deck-empty", _with(deck=[])),
]


# What an engine that takes an invalid spec is asked to play (R38: judged by the rules every hand
# keeps): the preflop round of three seats calling the big blind, each state showing the hole cards
# of the seat to act, and the flop dealt. (Not to the showdown: poker-ts, given a fractional stack,
# never ends the turn's betting, and a hang costs a long wait.)
TAKEN_SCRIPT = ["call", "call", "check"]


def refused_field(vector_input: dict) -> str:
    """The field the reference names in refusing the spec."""
    out = run_hand(vector_input)
    if "error" not in out or out["error"].get("at") != "createHand":
        raise AssertionError(f"the reference accepts the spec {vector_input['hand']!r}")
    return out["error"]["field"]

RANDOM_GAMES = 12  # random games of uneven and one-chip stacks, answered in every legal form
HANDS_PER_GAME = 12  # the first hands of each longer game, then those with an out seat up to MAX_HAND
MAX_HAND = 20
STOP = object()


def _cards_dealt(seats_in_hand: int, board: list) -> int:
    """Hole cards, then burn + flop, burn + turn, burn + river as far as the board went (R3)."""
    b = len(board)
    return 2 * seats_in_hand + b + (b >= 3) + (b >= 4) + (b >= 5)


def game_hands(spec: dict, next_answer, keep_refused: bool = False) -> list[tuple[dict, list, dict | None]]:
    """Play ``spec`` on the reference with ``next_answer(k, state)`` (an answer or STOP) and cut it
    into hands: ``(hand spec, the hand's answers, its game record or None when
    unfinished)``. A refused answer gets the game's fallback, or with ``keep_refused`` ends the game
    there (kept as the hand's last answer)."""
    t = tournament(spec)
    answers: dict[int, list] = defaultdict(list)
    k = 0
    while (state := t.decision_state()) is not None:
        raw = next_answer(k, state)
        if raw is STOP:
            break
        number, k = state["handNumber"], k + 1
        try:
            t.act(raw)
        except IllegalAction:
            if keep_refused:
                answers[number].append(encode(raw))
                break
            raw = "check" if state["canCheck"] else "fold"
            t.act(raw)
        answers[number].append(encode(raw))
    out = []
    for record in t.hands:
        n = record["handNumber"]
        deck = t._deck(n)[:_cards_dealt(sum(1 for c in record["startStacks"] if c > 0), record["history"]["board"])]
        hand_spec = {"ids": list(t.ids), "stacks": list(record["startStacks"]), "button": record["buttonSeat"],
                     "smallBlindSeat": record["smallBlindSeat"], "bigBlindSeat": record["bigBlindSeat"],
                     "blinds": list(record["blinds"]), "deck": deck, "handNumber": n}
        out.append((hand_spec, answers[n], record))
    if not t.over:
        h = t.hand
        hand_spec = {"ids": list(t.ids), "stacks": list(h.start_stacks), "button": h.button,
                     "smallBlindSeat": h.sb_seat, "bigBlindSeat": h.bb_seat, "blinds": [h.sb, h.bb],
                     "deck": list(h.deck[:h.pos]), "handNumber": h.hand_number}
        out.append((hand_spec, answers[h.hand_number], None))
    return out


def _scripted(script: list):
    answers = [decode_answer(a) for a in script]
    return lambda k, state: answers[k] if k < len(answers) else STOP


def _strategies(names: list):
    return lambda k, state: STRATEGIES[names[state["you"]["seat"]]](state)


def _any_legal(rnd: random.Random, state: dict) -> object:
    """A legal answer in any of the contract's forms (strings, objects, extra fields ignored)."""
    kinds = ["check" if state["canCheck"] else "call", "fold"] + (["allin"] if state["canAllIn"] else [])
    if state["minRaiseTo"] is not None:  # a stack short of minRaiseTo raises exactly maxRaiseTo
        low = min(state["minRaiseTo"], state["maxRaiseTo"])
        kinds.append({"type": "raise", "amount": rnd.choice([low, state["maxRaiseTo"], rnd.randrange(low, state["maxRaiseTo"] + 1)])})
    kind = rnd.choice(kinds)
    if isinstance(kind, str) and rnd.random() < 0.3:
        return {"type": kind, **({"note": "extra fields are ignored"} if rnd.random() < 0.3 else {})}
    return kind


def _flags(vector_input: dict, expected: dict) -> list[str]:
    spec = vector_input["hand"]
    hand = create_hand(spec)
    for a in vector_input["script"]:
        if hand.done:
            break
        try:
            hand.act(decode_answer(a))
        except IllegalAction:
            break
    flags = ["Hand"]
    stacks, (sb, bb) = spec["stacks"], spec["blinds"]
    if stacks[spec["smallBlindSeat"]] < sb or stacks[spec["bigBlindSeat"]] < bb:
        flags.append("ShortBlind")
    if 0 in stacks:
        flags.append("OutSeat")
    if sum(1 for c in stacks if c > 0) == 2:
        flags.append("HeadsUp")
    if any(hand.refunds):
        flags.append("Refund")
    if expected["actions"] and "threw" in expected["actions"][-1]:
        flags.append("Refused")
    if not hand.done:
        flags.append("Unfinished")
    elif hand.showdown:
        flags.append("Showdown")
        if any(p["amount"] % len(p["winners"]) for p in hand.pots_awarded):
            flags.append("OddChips")
        if merged_odd_chips_matter(hand):
            flags.append("MergedOddChips")
    return flags


def _sources() -> list[tuple[str, list[str], dict, object, bool]]:
    """(id stem, clauses, game spec, next_answer, keep_refused) for every game the hands come from."""
    out = []
    for t in hands.generate():
        out.append((t["id"], t["clauses"], t["input"]["game"], _scripted(t["input"]["script"]), False))
    for t in legality.generate():
        i = t["input"]
        out.append((t["id"], t["clauses"], i["game"], _scripted(i["prefix"] + [i["answer"]]), True))
    for t in tournaments.generate():
        if "error" in t["expected"]:
            continue  # refused games (R38): no hand to take out
        out.append((t["id"], ["rules.button", "rules.seats"], t["input"]["game"],
                    _strategies(t["input"]["strategies"]), False))
    rnd = random.Random("holdem-conformance hand vectors")
    for k in range(RANDOM_GAMES):
        n = rnd.randrange(2, 10)
        stacks = [rnd.choice([1, 2, rnd.randrange(1, 60), rnd.randrange(60, 1500), rnd.randrange(1500, 20000)])
                  for _ in range(n)]
        small = rnd.choice([1, 2, 5, 10, 25])
        spec = game([f"P{i}" for i in range(n)], seed=rnd.randrange(2**32), stacks=stacks, maxHands=rnd.randrange(1, 21),
                    blindSchedule=[[small, small * rnd.choice([1, 2, 2, 3])]])
        out.append((f"random.{k}", ["return.forms"], spec, lambda j, state, r=random.Random(k): _any_legal(r, state),
                    False))
    return out


def generate() -> list[dict]:
    tests, seen = [], set()
    for stem, clauses, spec, next_answer, keep_refused in _sources():
        stem = stem.split(".", 1)[1] if stem.startswith(("hands.", "tournaments.", "legality.")) else stem
        for k, (hand_spec, script, record) in enumerate(game_hands(spec, next_answer, keep_refused)):
            number = hand_spec["handNumber"]
            if number > MAX_HAND or (number > HANDS_PER_GAME and 0 not in hand_spec["stacks"]):
                continue
            vector_input = {"hand": hand_spec, "script": script}
            key = repr(vector_input)
            if key in seen:
                continue
            seen.add(key)
            expected = play_hand(vector_input)
            if record is not None and expected["result"]["chips"] != record["endStacks"]:
                raise AssertionError(f"{stem} hand {record['handNumber']}: the lone hand ends "
                                     f"{expected['result']['chips']}, the game's {record['endStacks']}")
            flags = _flags(vector_input, expected)
            n = sum(1 for c in hand_spec["stacks"] if c > 0)
            tests.append(make_test(NOTES, f"hand.{stem}.h{hand_spec['handNumber']}",
                                   f"{n} seats in the hand, {len(script)} answers ({stem}, hand {hand_spec['handNumber']})",
                                   clauses, vector_input, expected, flags))
    # Heads-up, the button (small blind) folds: the hand is over and the script's check is never asked for.
    vector_input = {"hand": _with(ids=["s1", "s2"], stacks=[1000, 1000], smallBlindSeat=0, bigBlindSeat=1),
                    "script": ["fold", "check"]}
    expected = play_hand(vector_input)
    if not expected["over"] or len(expected["actions"]) != 1:
        raise AssertionError("hand.answers-after-the-end: the hand must end at its first answer")
    tests.append(make_test(NOTES, "hand.answers-after-the-end", "2 seats in the hand, 2 answers, the hand ends at the first",
                           ["rules.end"], vector_input, expected, _flags(vector_input, expected) + ["AfterTheEnd"]))
    for slug, spec in BAD_SPECS + LIST_LIKE_SPECS:
        vector_input = {"hand": spec, "script": TAKEN_SCRIPT}
        field = refused_field(vector_input)
        tests.append(make_test(NOTES, f"hand.error.{slug}", f"createHand throws ({field})", ["rules.seats"],
                               vector_input, {"error": field}, ["BadSpec"]))
    return tests

# Not arrays, yet indexed, sliced and searched like one (a string of distinct letters): refused by
# the array check alone (R38), which an engine that takes them is divergent for.
LIST_LIKE_SPECS = [("ids-a-string-of-distinct-letters", _with(ids="abc"))]


# ---- random hands: the fresh hand tests and the hand profile's fuzz games (issue #36, item 1) ----

MAX_ANSWERS = 60  # answers in a random hand's script (a nine-seat raise war stays well within it)
# Answers no decision accepts (wrong types, non-numbers, unknown words; docs/engine-api.md's codes).
ODD_ANSWERS = [None, float("nan"), "", "RAISE", 7, True, [], {}, {"type": "raise"}, {"type": "raise", "amount": "100"},
               {"type": "raise", "amount": 1.5}, {"type": "raise", "amount": float("inf")}, {"type": "bet", "amount": 2},
               {"type": "allin", "amount": 0}, " fold", {"type": "shove"}]


def _stack(rnd: random.Random, big: int) -> int:
    """One chip, two, about a blind, a few dozen blinds, hundreds of blinds: uneven on purpose."""
    return rnd.choice([1, 2, rnd.randrange(1, 3 * big + 2), rnd.randrange(big, 40 * big + 1),
                       rnd.randrange(40 * big, 400 * big + 1)])


def random_spec(rnd: random.Random) -> dict:
    """A valid hand spec (docs/engine-api.md, createHand): 2-9 seats, uneven and one-chip stacks,
    sometimes seats out (R15), the blinds after a live button as a game would put them (heads-up
    the button posts the small blind), often a short blind (R8), a pinned deck of any length (R3)."""
    n = rnd.randrange(2, 10)
    small = rnd.choice([1, 1, 2, 5, 10, 25, 50])
    big = rnd.choice([small, small * 2, small * 2, small * 3, small * 2 + 1])
    stacks = [_stack(rnd, big) for _ in range(n)]
    if rnd.random() < 0.25:  # seats out of the hand, at least two keep chips
        for i in rnd.sample(range(n), rnd.randrange(0, n - 1)):
            stacks[i] = 0
    button = rnd.choice([i for i, c in enumerate(stacks) if c > 0])
    sb, bb = blind_seats(stacks, button)
    if big > 1 and rnd.random() < 0.4:  # a short big blind (R8)
        stacks[bb] = rnd.randrange(1, big)
    if small > 1 and rnd.random() < 0.25:  # a short small blind
        stacks[sb] = rnd.randrange(1, small)
    deck = rnd.sample(CANONICAL_DECK, 52)
    deck = deck[:rnd.choice([52, min(52, 2 * sum(c > 0 for c in stacks) + 8), rnd.randrange(1, 53)])]
    spec = {"ids": [f"s{i + 1}" for i in range(n)], "stacks": stacks, "button": button, "smallBlindSeat": sb,
            "bigBlindSeat": bb, "blinds": [small, big], "deck": deck}
    if rnd.random() < 0.3:
        spec["handNumber"] = rnd.randrange(1, 500)
    return spec


def blind_seats(stacks: list[int], button: int) -> tuple[int, int]:
    """The blinds after ``button`` as a game puts them: the next two seats with chips clockwise;
    heads-up the button posts the small blind."""
    live = [i for i, c in enumerate(stacks) if c > 0]
    after = live[live.index(button) + 1:] + live[:live.index(button) + 1]  # clockwise from left of the button
    return (button, after[0]) if len(live) == 2 else (after[0], after[1])


def _illegal(rnd: random.Random, state: dict) -> object:
    """An answer at or next to the state's limits (often one chip off, or a raise when closed), or one
    of the odd answers; the reference decides whether it is legal."""
    if rnd.random() < 0.5:
        return rnd.choice(ODD_ANSWERS)
    low = state["minRaiseTo"] if state["minRaiseTo"] is not None else state["currentBet"] + 1
    amount = rnd.choice([low - 1, state["maxRaiseTo"] + 1, state["currentBet"], 0, -1, low])
    return rnd.choice([{"type": "raise", "amount": amount}, "check", "call", "allin", "raise"])


def blind_answer(rnd: random.Random, state: dict, illegal: float = 0.06) -> object:
    """A legal answer in any form, or with probability ``illegal`` one that may be refused."""
    return _illegal(rnd, state) if rnd.random() < illegal else _any_legal(rnd, state)


def random_script(rnd: random.Random, spec: dict, prefix: list = (), policy=blind_answer) -> list:
    """Answers drawn while the reference plays ``spec``: ``prefix`` (encoded answers, as far as the
    hand goes), then ``policy(rnd, state)``'s (blind_answer: legal ones in every form, sometimes one
    that may be refused). A refused answer ends the script, as act's refusal ends a hand vector;
    sometimes the script stops early or goes on after the end."""
    hand = create_hand(spec)
    script: list = []
    given = iter(decode_answer(a) for a in prefix)
    while not hand.done and len(script) < MAX_ANSWERS:
        raw = next(given, STOP)
        raw = policy(rnd, hand_state(hand)) if raw is STOP else raw
        script.append(encode(raw))
        try:
            hand.act(raw)
        except HoldemError:
            return script
        if rnd.random() < 0.02:
            return script  # unfinished: the hand is not over when the script ends
    if hand.done and rnd.random() < 0.1:
        script.append("check")  # after the end: never asked for
    return script


def random_test(rnd: random.Random, test_id: str, what: str) -> dict:
    """A random hand vector (random_spec, random_script) with the reference's trajectory as expected."""
    spec = random_spec(rnd)
    vector_input = {"hand": spec, "script": random_script(rnd, spec)}
    return hand_test(vector_input, test_id, what)


def hand_test(vector_input: dict, test_id: str, what: str) -> dict:
    """The hand vector of ``vector_input``: the reference's trajectory expected, its flags."""
    expected = play_hand(vector_input)
    flags = _flags(vector_input, expected)
    if expected["over"] and len(expected["actions"]) < len(vector_input["script"]) and "Refused" not in flags:
        flags.append("AfterTheEnd")
    n = sum(1 for c in vector_input["hand"]["stacks"] if c > 0)
    return make_test(NOTES, test_id, f"{n} seats in the hand, {len(vector_input['script'])} answers ({what})",
                     ["return.forms"], vector_input, expected, flags)
