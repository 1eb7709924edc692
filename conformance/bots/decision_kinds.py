"""Kinds of decision a bot faces, and a battery stratified by them (issue #18 item 2).

A bot that is wrong about one rule is wrong only in the states where that rule
matters: calling when it could check needs states with a free check, raising when
``minRaiseTo`` is null needs states where raising is closed. :func:`decision_kinds`
names the kinds the contract distinguishes that a state shows (a state usually
shows several); :func:`stratified_states` plays seeded reference tournaments and
keeps states until every kind has at least ``per_kind`` of them, so that each
single-rule mistake is met by many states, not one.

Kinds (:data:`KINDS`):

``free-check-preflop``   ``canCheck`` before the flop: the big blind's option.
``free-check-postflop``  ``canCheck`` on the flop, turn or river.
``facing-bet``           ``toCall > 0`` and the call leaves chips behind.
``facing-short-all-in``  a wager on this street raised by less than a full raise.
``raise-with-chips-in``  raising is open and ``you.bet > 0``: the raise-to amount is a
                         street total, not the chips added.
``raise-closed``         ``minRaiseTo`` null with chips behind a call: the action was not
                         reopened (``canAllIn`` false).
``min-raise-null``       ``minRaiseTo`` null, for any reason.
``min-raise-above-max``  ``minRaiseTo > maxRaiseTo``: only the all-in raise is possible.
``call-capped-all-in``   ``toCall >= you.stack``: a call puts the whole stack in.
``heads-up``             two seats still in the tournament.
``nine-handed``          nine seats still in the tournament.
``first-decision``       nobody has acted voluntarily yet in this hand.
``late-tournament``      hand 20 or later (long history, risen blinds).
``short-stack``          at most 10 big blinds (stack plus bet).
``one-chip``             one chip behind.

The generator is a pure function of ``(per_kind, seed)``: a :class:`random.Random`
seeded with ``seed`` draws every game and every choice.
"""
from __future__ import annotations

import itertools
import threading
from collections import Counter
from random import Random

from reference.tournament import Tournament

from conformance.vectors.gamespec import STRATEGIES

KINDS = ("free-check-preflop", "free-check-postflop", "facing-bet", "facing-short-all-in", "raise-with-chips-in",
         "raise-closed", "min-raise-null", "min-raise-above-max", "call-capped-all-in", "heads-up", "nine-handed",
         "first-decision", "late-tournament", "short-stack", "one-chip")
LATE_HAND = 20  # a decision of this hand number or later is late in the tournament
SHORT_BIG_BLINDS = 10
# Stacks of the generated games: deep, short (short blinds, short all-ins), one and two chips.
STACKS = (20000, 10000, 3000, 1000, 400, 250, 160, 120, 99, 60, 2, 1)
SCHEDULES = (((50, 100),), ((25, 50), (50, 100), (100, 200)), ((10, 20), (20, 40), (40, 80), (80, 160)))
SEAT_COUNTS = (2, 9, 3, 6)
KEEP_CHANCE = 0.25  # a state is considered with this chance, so that a few games do not supply everything
MAX_GAMES = 4000  # a bound on the search; the report counts what was found
KIND_SEED = 18  # seed of the certification battery's stratified part (bot_cert)


def street_short_all_in(state: dict) -> bool:
    """Whether a wager on this street raised by less than a full raise (only an all-in can)."""
    actions = [a for a in state["actions"] if a["street"] == state["street"]]
    bet = {s["id"]: s["bet"] for s in state["seats"]}
    for a in actions:  # back to the bets the street started with (the blinds preflop)
        bet[a["id"]] -= a["amount"]
    current, full = max(bet.values()), state["blinds"][1]
    for a in actions:
        bet[a["id"]] += a["amount"]
        if bet[a["id"]] > current:
            if bet[a["id"]] - current < full:
                return True
            current, full = bet[a["id"]], bet[a["id"]] - current
    return False


def decision_kinds(state: dict) -> set[str]:
    """Which of :data:`KINDS` a decision state shows."""
    you = state["you"]
    to_call, min_raise, max_raise = state["toCall"], state["minRaiseTo"], state["maxRaiseTo"]
    kinds = set()
    if state["canCheck"]:
        kinds.add("free-check-preflop" if state["street"] == "preflop" else "free-check-postflop")
    if 0 < to_call < you["stack"]:
        kinds.add("facing-bet")
    if to_call > 0 and street_short_all_in(state):
        kinds.add("facing-short-all-in")
    if min_raise is not None and you["bet"] > 0:
        kinds.add("raise-with-chips-in")
    if min_raise is None:
        kinds.add("min-raise-null")
        if to_call < you["stack"]:
            kinds.add("raise-closed")
    elif min_raise > max_raise:
        kinds.add("min-raise-above-max")
    if to_call > 0 and to_call >= you["stack"]:
        kinds.add("call-capped-all-in")
    live = sum(1 for s in state["seats"] if not s["out"])
    if live == 2:
        kinds.add("heads-up")
    elif live == 9:
        kinds.add("nine-handed")
    if not state["actions"]:
        kinds.add("first-decision")
    if state["handNumber"] >= LATE_HAND:
        kinds.add("late-tournament")
    if you["stack"] + you["bet"] <= SHORT_BIG_BLINDS * state["blinds"][1]:
        kinds.add("short-stack")
    if you["stack"] == 1:
        kinds.add("one-chip")
    return kinds


def _game(rng: Random) -> tuple[int, Tournament]:
    n = rng.choice(SEAT_COUNTS)
    return n, Tournament([f"P{s}" for s in range(n)], seed=rng.randrange(2**32),
                      stacks=[rng.choice(STACKS) for _ in range(n)], blind_schedule=rng.choice(SCHEDULES),
                      hands_per_level=rng.choice((1, 3, 12)), max_hands=rng.choice((3, 8, 30)))


def generate(per_kind: int, seed: int) -> list[dict]:
    """The states :func:`stratified_states` returns, generated."""
    rng = Random(seed)
    names = sorted(STRATEGIES)
    counts: Counter = Counter()
    kept: list[dict] = []
    for _ in range(MAX_GAMES):
        if all(counts[k] >= per_kind for k in KINDS):
            break
        n, t = _game(rng)
        strategies = [STRATEGIES[rng.choice(names)] for _ in range(n)]
        while not t.over:
            state = t.decision_state()
            if rng.random() < KEEP_CHANCE:
                kinds = decision_kinds(state)
                if any(counts[k] < per_kind for k in kinds):
                    kept.append(state)
                    counts.update(kinds)
            t.act(strategies[state["you"]["seat"]](state))
    return kept


_cache: dict[tuple[int, int], list[dict]] = {}
_lock = threading.Lock()


def stratified_states(per_kind: int, seed: int) -> list[dict]:
    """Decision states from seeded reference games until every kind has ``per_kind`` of them (or
    :data:`MAX_GAMES` games were played); the same list for the same arguments. (The default
    battery's are shipped: :mod:`conformance.bots.battery_file`.)"""
    with _lock:
        if (per_kind, seed) not in _cache:
            _cache[per_kind, seed] = generate(per_kind, seed) if per_kind else []
        return list(_cache[per_kind, seed])


def covering_order(states: list[dict]) -> list[int]:
    """The indices of ``states`` in the order that meets every kind soonest (#35 item 4: a battery
    cut short has still met each kind): round r takes, for each kind in :data:`KINDS` met fewer than
    r times so far, the first state not yet taken that shows it; the states no round took follow in
    their order."""
    shown = [decision_kinds(s) for s in states]
    taken: list[int] = []
    met: Counter = Counter()
    for round_ in itertools.count(1):
        before = len(taken)
        for kind in KINDS:
            if met[kind] < round_:
                i = next((i for i, kinds in enumerate(shown) if kind in kinds and i not in taken), None)
                if i is not None:
                    taken.append(i)
                    met.update(shown[i])
        if len(taken) == before:
            break
    return taken + [i for i in range(len(states)) if i not in taken]


def kind_counts(states: list[dict]) -> dict[str, int]:
    """How many of the states show each kind, in :data:`KINDS` order."""
    counts = Counter(k for s in states for k in decision_kinds(s))
    return {k: counts[k] for k in KINDS}
