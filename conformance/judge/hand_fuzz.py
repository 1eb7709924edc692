"""Random hands for the hand profile (issue #36, item 1): the report's ``hand-fuzz`` row.

The hand profile's fuzz games are lone hands (``hand`` vectors, docs/engine-api.md, createHand),
as the tournament profile's are ``hands`` games (conformance/judge/fuzz.py, which runs both): 2-9
seats, uneven, one-chip and short stacks, short blinds, seats out, pinned decks of any length,
scripts of legal answers in every form and answers that may be refused, drawn while the reference
plays the hand (conformance/vectors/generators/hand.py, random_test). Hand ``k`` of seed ``s``
depends on ``(s, k)`` alone. A failing hand is shrunk (fewer answers, seats, chips, cards) to a
hand vector that can join the golden set. With the engine's block coverage (``--coverage``, node
host) the hands are coverage-guided: :class:`HandGuide` mutates the hands that reached new blocks
(stacks, seats, blinds, pinned cards, answers), with fuzz_guided.Guide's corpus and feedback.
"""
from __future__ import annotations

import random

from reference.cards import CANONICAL_DECK
from reference.errors import HoldemError

from conformance.vectors.generators import hand as hand_family
from . import cert_profiles, fuzz, fuzz_guided

GROUP = cert_profiles.FUZZ_GROUPS["hand"]  # the report's row of the random hands


def generate(seed: int, k: int) -> dict:
    """Random hand ``k`` of ``seed``: a function of the two alone."""
    rnd = random.Random(f"holdem-conformance hand fuzz {seed} {k}")
    return hand_family.random_test(rnd, f"hand.fuzz.{seed}.{k}", "a random hand")


# ---- shrinking ----------------------------------------------------------------------------------

def _without_seat(spec: dict, i: int) -> dict:
    """``spec`` without seat ``i`` (not the button or a blind), the later seats' indices moved down."""
    at = lambda j: j - (j > i)  # noqa: E731
    return {**spec, "ids": [x for j, x in enumerate(spec["ids"]) if j != i],
            "stacks": [c for j, c in enumerate(spec["stacks"]) if j != i], "button": at(spec["button"]),
            "smallBlindSeat": at(spec["smallBlindSeat"]), "bigBlindSeat": at(spec["bigBlindSeat"])}


def _variants(test: dict, first: dict | None):
    """Smaller hands than ``test``, most promising first: cut after the first divergence, fewer
    answers, a seat fewer (not the button or a blind), halved stacks, fewer pinned cards."""
    spec, script = test["input"]["hand"], test["input"]["script"]
    if first and isinstance(first.get("decision"), int) and first["decision"] + 1 < len(script):
        yield spec, script[:first["decision"] + 1]
    if len(script) > 1:
        yield spec, script[:len(script) // 2]
        yield spec, script[:-1]
    positions = {spec["button"], spec["smallBlindSeat"], spec["bigBlindSeat"]}
    for i in range(len(spec["ids"])) if len(spec["ids"]) > 2 else ():
        if i not in positions:
            yield _without_seat(spec, i), script
    if any(c > 1 for c in spec["stacks"]):
        yield {**spec, "stacks": [c if c <= 1 else c // 2 for c in spec["stacks"]]}, script
    if len(spec["deck"]) > 1:
        yield {**spec, "deck": spec["deck"][:len(spec["deck"]) // 2]}, script


def size(test: dict) -> tuple:
    """How big a hand is, as the shrinker orders hands: answers, seats, chips, pinned cards."""
    spec = test["input"]["hand"]
    return len(test["input"]["script"]), len(spec["ids"]), sum(spec["stacks"]), len(spec["deck"])


def _candidate(spec: dict, script: list, test_id: str) -> dict:
    """The hand vector of a smaller hand (HoldemError when the reference refuses its spec)."""
    return hand_family.hand_test({"hand": spec, "script": script}, test_id, "shrunk")


def shrink(test: dict, judge_test, cause: object, first: dict | None,
           max_runs: int = fuzz.MAX_SHRINK_RUNS) -> tuple[dict, int]:
    """A smaller hand that still shows ``cause``: fuzz.shrink's delta debugging over hands."""
    return fuzz.shrink(test, judge_test, cause, first, max_runs, variants=_variants, make=_candidate, measure=size)


def _shrunk(test: dict) -> str:
    spec = test["input"]["hand"]
    return (f"{sum(c > 0 for c in spec['stacks'])} seats in the hand, {len(test['input']['script'])} answers "
            "(the report's vector: a hand vector that can join the golden set)")


HANDS = fuzz.FuzzKind("hand", "hand", GROUP, "handFuzz", generate, shrink, _shrunk)


# ---- coverage-guided ----------------------------------------------------------------------------

def _shove(rnd, state):
    return "allin" if state["canAllIn"] and rnd.random() < 0.8 else hand_family.blind_answer(rnd, state)


def _calldown(rnd, state):
    return ("check" if state["canCheck"] else "call") if rnd.random() < 0.85 else hand_family.blind_answer(rnd, state)


def _raise_war(rnd, state):
    """Raises at and near the minimum and the maximum: reopening, short all-ins."""
    if state["minRaiseTo"] is None or rnd.random() < 0.15:
        return hand_family.blind_answer(rnd, state)
    low, high = min(state["minRaiseTo"], state["maxRaiseTo"]), state["maxRaiseTo"]
    return {"type": "raise", "amount": rnd.choice([low, low, high, max(low, high - 1), low + 1, low - 1])}


POLICIES = {"blind": hand_family.blind_answer, "shove": _shove, "calldown": _calldown, "raise-war": _raise_war,
            "odd": lambda rnd, state: hand_family.blind_answer(rnd, state, illegal=0.5)}


def _m_stacks(rnd, spec):
    spec["stacks"] = fuzz_guided.mutated_stacks(rnd, spec["stacks"], spec["blinds"][1])


def _m_seats(rnd, spec):
    n = rnd.choice([2, 3, rnd.randrange(2, 10), 7, 8, 9])
    stacks = list(spec["stacks"])
    while len(stacks) < n:
        stacks.append(rnd.choice(stacks))
    spec["stacks"], spec["ids"] = stacks[:n], [f"s{i + 1}" for i in range(n)]


def _m_out(rnd, spec):
    """A seat out of the hand (R15), or every seat back in."""
    if rnd.random() < 0.5 and sum(c > 0 for c in spec["stacks"]) > 2:
        spec["stacks"][rnd.randrange(len(spec["stacks"]))] = 0
    else:
        spec["stacks"] = [c or rnd.randrange(1, 500) for c in spec["stacks"]]


def _m_blinds(rnd, spec):
    top, kind = max(spec["stacks"]), rnd.randrange(3)
    if kind == 0:  # at or above the stacks
        small = rnd.choice([max(1, top // 2), top, max(1, min(c for c in spec["stacks"] if c))])
        spec["blinds"] = [small, small * 2]
    elif kind == 1:  # small == big, odd big blinds
        small = rnd.randrange(1, 60)
        spec["blinds"] = [small, rnd.choice([small, small * 2 + 1])]
    else:  # a short blind after the positions are set
        spec["shortBlind"] = True


def _m_deck(rnd, spec):
    """A royal flush on the board for the seats dealt (every showdown a tie: split pots, odd
    chips), two cards swapped, or a deck cut short (the rest in canonical order, R3)."""
    deck = spec["deck"] + [c for c in rnd.sample(CANONICAL_DECK, 52) if c not in spec["deck"]]
    kind = rnd.randrange(3)
    if kind == 0:
        m = sum(c > 0 for c in spec["stacks"])
        board = dict(zip([2 * m + 1, 2 * m + 2, 2 * m + 3, 2 * m + 5, 2 * m + 7], fuzz_guided.ROYAL))  # burns between
        rest = iter([c for c in deck if c not in fuzz_guided.ROYAL])
        deck = [board[p] if p in board else next(rest) for p in range(52)]
    elif kind == 1:
        i, j = rnd.randrange(52), rnd.randrange(52)
        deck[i], deck[j] = deck[j], deck[i]
    else:
        deck = deck[:rnd.randrange(1, 53)]
    spec["deck"] = deck


OPERATORS = {"stacks": _m_stacks, "seats": _m_seats, "out": _m_out, "blinds": _m_blinds, "deck": _m_deck}


def _seated(rnd, spec: dict) -> dict:
    """The mutated spec made valid as random_spec makes one: two seats with chips at least, the
    button on one, the blinds after it (a short big blind when asked)."""
    stacks = spec["stacks"]
    if sum(c > 0 for c in stacks) < 2:
        for i in rnd.sample(range(len(stacks)), 2):
            stacks[i] = stacks[i] or rnd.randrange(1, 500)
    live = [i for i, c in enumerate(stacks) if c > 0]
    button = spec["button"] if spec["button"] in live else rnd.choice(live)
    sb, bb = hand_family.blind_seats(stacks, button)
    if spec.pop("shortBlind", False) and spec["blinds"][1] > 1:
        stacks[bb] = rnd.randrange(1, spec["blinds"][1])
    return {**spec, "stacks": stacks, "button": button, "smallBlindSeat": sb, "bigBlindSeat": bb}


class HandGuide(fuzz_guided.Guide):
    """fuzz_guided.Guide's corpus and feedback over lone hands: a mutant stacks one to four
    mutations of a corpus hand (stacks, seats, seats out, blinds, pinned cards, answers), then
    keeps the parent's answers up to a random one (none after a spec change, half the time) and
    draws the rest from one policy (blind, all-in, call down, raise wars, odd answers)."""

    def __init__(self, seed: int, blocks) -> None:
        super().__init__(seed, blocks, blind=generate)

    def _mutant(self, rnd: random.Random, k: int) -> dict | None:
        weights = [found + i / len(self.corpus) for i, (_, found) in enumerate(self.corpus)]
        parent = rnd.choices(self.corpus, weights)[0][0]
        for _ in range(fuzz_guided.TRIES):
            spec = {**parent["input"]["hand"], "stacks": list(parent["input"]["hand"]["stacks"]),
                    "ids": list(parent["input"]["hand"]["ids"]), "deck": list(parent["input"]["hand"]["deck"])}
            script, changed = parent["input"]["script"], False
            for _ in range(rnd.randrange(1, fuzz_guided.MUTATIONS + 1)):
                name = rnd.choice(list(OPERATORS) + ["answers"] * 2)
                if name != "answers":
                    OPERATORS[name](rnd, spec)
                    changed = True
            spec = _seated(rnd, spec)
            prefix = [] if changed and rnd.random() < 0.5 else script[:rnd.randrange(len(script) + 1)]
            try:
                played = hand_family.random_script(rnd, spec, prefix, POLICIES[rnd.choice(list(POLICIES))])
                return hand_family.hand_test({"hand": spec, "script": played}, f"hand.fuzz.{self.seed}.{k}",
                                             "a mutated random hand")
            except HoldemError:  # a spec the reference refuses: mutate again
                continue
        return None


def guide_for(driver, seed: int) -> HandGuide:
    """A guide fed by ``driver``'s coverage; ValueError when it collects none."""
    if not fuzz_guided.available(driver):
        raise ValueError("guided fuzzing needs the engine's block coverage (--coverage, on the node host)")
    return HandGuide(seed, fuzz_guided.Feedback(driver))
