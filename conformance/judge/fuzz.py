"""Differential fuzzing (issue #12, item 6): fresh random tournaments played by the engine and the
reference with every step compared (conformance.judge.step_judge), within a time budget, reproducible
by seed; the first failing game is shrunk to a short one and printed as a ``hands`` vector.

A fuzz game is a ``hands`` vector whose answers are all ``steps`` (docs/engine-protocol.md): each
step is an answer given to ``game.submit`` (legal or not: wrong types, amounts off by one, raises
when closed, strings, null, NaN...) or ``{"timeout": true}`` for ``game.timeout()``. The answer
list is scripted per game (drawn while the reference plays it), so both sides replay exactly the
same answers. Every hand's deck is pinned (``decks``). Game ``k`` of seed ``s`` depends on
``(s, k)`` alone: by default a fixed number of games runs (DEFAULT_GAMES), so the report is the
same on any machine under any load; a time budget (``--fuzz-seconds``) decides only how many run,
and ``--fuzz-games N`` reruns exactly those.
"""
from __future__ import annotations

import copy
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from reference.cards import CANONICAL_DECK
from reference.errors import HoldemError

from conformance.host.jsvalue import decode, encode
from conformance.vectors.gamespec import game, tournament
from conformance.vectors.vectorfile import make_test
from .dealing import DEALT_OTHER_CARDS
from .difference_kinds import cause_key

FUZZ_GROUP = "fuzz"  # the report's family row for the fuzz games
FUZZ_FAMILY = "hands"  # the vector family a fuzz game is (contract-v1)
# The default: a count, not a time budget (issue #25): the same games, report and verdict on a quiet
# or a loaded machine. The mutants only fuzzing catches fail by game 35 at the latest over seeds
# 1-20 (bench/bench_fuzz.py --catch; median game 4); 100 games cost about 2.5 s on the node host.
DEFAULT_GAMES = 100
MAX_STEPS = 300  # answers per game: long enough for several hands, short enough to judge quickly
MAX_SHRINK_RUNS = 60  # engine runs the shrinker may spend
TIMEOUT = {"timeout": True}
CLAUSES = ["rules.end", "state.fields", "return.forms", "timing.fallback"]
# Answers no decision accepts (R-independent rejections, docs/engine-api.md's codes). "bet" alone is
# no contract-v1 word (`malformed`), where v4's vocabulary would make it a bet without an amount
# (`raise-without-amount`): an engine applying v4's words to every game is told apart (docs/mutation.md).
ODD_ANSWERS = [None, float("nan"), "", "RAISE", 7, True, [], {}, {"type": "raise"}, {"type": "raise", "amount": "100"},
               {"type": "raise", "amount": 1.5}, {"type": "raise", "amount": float("inf")}, {"type": "bet", "amount": 2},
               {"type": "call", "amount": 7}, {"type": "allin", "amount": 0}, "Check", " fold", "bet"]


def _legal(rnd: random.Random, state: dict) -> object:
    choices = ["check" if state["canCheck"] else "call"]
    if not state["canCheck"]:
        choices.append("fold")
    if state["minRaiseTo"] is not None:  # a stack short of minRaiseTo raises exactly maxRaiseTo
        low = min(state["minRaiseTo"], state["maxRaiseTo"])
        choices += [{"type": "raise", "amount": low}, {"type": "raise", "amount": rnd.randrange(low, state["maxRaiseTo"] + 1)}]
    if state["canAllIn"]:
        choices.append("allin")
    return rnd.choice(choices)


def _near_limits(rnd: random.Random, state: dict) -> object:
    """An answer at or next to the state's limits: often illegal by one chip, or a raise when closed."""
    low = state["minRaiseTo"] if state["minRaiseTo"] is not None else state["currentBet"] + 1
    amount = rnd.choice([low - 1, low, low + 1, state["maxRaiseTo"], state["maxRaiseTo"] + 1, state["currentBet"], 0, -1])
    return rnd.choice([{"type": "raise", "amount": amount}, "check", "call", "allin", "raise"])


def _answer(rnd: random.Random, state: dict) -> object:
    roll = rnd.random()
    if roll < 0.08:
        return TIMEOUT
    if roll < 0.16:
        return rnd.choice(ODD_ANSWERS)
    if roll < 0.30:
        return _near_limits(rnd, state)
    return _legal(rnd, state)


def _stacks(rnd: random.Random, n: int) -> list[int]:
    kind = rnd.random()
    if kind < 0.25:  # one-chip stacks among others
        return [rnd.choice([1, 1, 2, rnd.randrange(1, 400)]) for _ in range(n)]
    if kind < 0.5:  # uneven
        return [rnd.choice([rnd.randrange(1, 50), rnd.randrange(50, 1000), rnd.randrange(1000, 20000)]) for _ in range(n)]
    return [rnd.randrange(100, 3001) for _ in range(n)]


def _schedule(rnd: random.Random) -> list[list[int]]:
    levels, small = [], rnd.choice([1, 1, 2, 5, 10, 25, 50])
    for _ in range(rnd.randrange(1, 5)):
        big = small * 2 if rnd.random() < 0.7 else rnd.randrange(small, small * 3 + 1)
        levels.append([small, big])
        small = max(small + 1, small * rnd.choice([1, 2, 3]))
    return levels


def random_spec(rnd: random.Random) -> dict:
    """A game: 2-9 seats, uneven and one-chip stacks, a random blind schedule and hand cap, every
    hand's deck pinned."""
    n = rnd.randrange(2, 10)
    max_hands = rnd.randrange(1, 26)
    decks = {n_: rnd.sample(CANONICAL_DECK, 52) for n_ in range(1, max_hands + 1)}
    return game([f"P{i}" for i in range(n)], stacks=_stacks(rnd, n), blindSchedule=_schedule(rnd),
                handsPerLevel=rnd.randrange(1, 6), maxHands=max_hands, decks=decks)


def apply_step(t, step: object) -> None:
    """One step on the reference's tournament ``t``, as the engine driver plays it (engine_driver.js,
    step): a timeout, a holdem-sng-3-v4 recovery request (refused or not: both sides say so) or an
    answer at a virtual time (late from the clock on), else an answer to ``submit``."""
    if step == TIMEOUT:
        t.timeout()
    elif isinstance(step, dict) and "recover" in step:
        try:
            t.request_recovery(step["recover"])
        except HoldemError:
            pass
    elif isinstance(step, dict) and "atMs" in step:
        if step["atMs"] >= t.decision_state()["timeLimitMs"]:
            t.timeout()
        else:
            t.submit(step["answer"])
    else:
        t.submit(step)


def play_steps(spec: dict, steps: list) -> tuple[list, object]:
    """``steps`` cut where the reference's game ends, and the reference's tournament after them."""
    t = tournament(spec)
    kept = []
    for step in steps:
        if t.decision_state() is None:
            break
        apply_step(t, step)
        kept.append(step)
    return kept, t


def fuzz_test(spec: dict, steps: list, test_id: str) -> dict:
    """The ``hands`` vector of a fuzz game: steps the reference can play, decks only for the hands
    it plays, and the reference's history and chips as its expected outcome."""
    steps, t = play_steps(spec, steps)
    played = len(t.hands) + (t.decision_state() is not None)
    options = spec["options"]
    options = {**options, "maxHands": max(1, min(options["maxHands"], played)),
               "decks": {k: v for k, v in options["decks"].items() if int(k) <= max(1, played)}}
    spec = {**spec, "options": options}
    steps, t = play_steps(spec, steps)
    expected = {"decisions": [], "actions": [], "history": t.public_history(), "chips": [s["chips"] for s in t.standings()]}
    test = make_test({}, "", f"{len(spec['seats'])} seats, {len(steps)} steps", CLAUSES,
                     {"game": spec, "steps": [s if s == TIMEOUT else encode(s) for s in steps], "script": []},
                     expected, [])
    test["id"] = test_id
    return test


def generate(seed: int, k: int) -> dict:
    """Fuzz game ``k`` of ``seed``: a function of the two alone."""
    rnd = random.Random(f"holdem-conformance fuzz {seed} {k}")
    while True:
        spec = random_spec(rnd)
        try:
            t = tournament(spec)
        except HoldemError:  # options the contract refuses (e.g. a blind schedule): draw again
            continue
        steps = []
        while len(steps) < MAX_STEPS and (state := t.decision_state()) is not None:
            step = _answer(rnd, state)
            apply_step(t, step)
            steps.append(step)
        return fuzz_test(spec, steps, f"hands.fuzz.{seed}.{k}")


# ---- shrinking ----------------------------------------------------------------------------------

def _variants(test: dict, first: dict | None):
    """Smaller games than ``test``, most promising first: cut after the first divergence, fewer
    hands, fewer seats, fewer steps, one blind level, smaller stacks."""
    spec, steps = test["input"]["game"], test["input"]["steps"]
    options = spec["options"]
    if first and isinstance(first.get("decision"), int) and first["decision"] + 1 < len(steps):
        yield spec, steps[:first["decision"] + 1]
    if first and isinstance(first.get("hand"), int) and first["hand"] < options["maxHands"]:
        yield {**spec, "options": {**options, "maxHands": first["hand"]}}, steps
    if options["maxHands"] > 1:
        yield {**spec, "options": {**options, "maxHands": options["maxHands"] - 1}}, steps
    for i in range(len(spec["seats"])) if len(spec["seats"]) > 2 else ():
        seats = [s for j, s in enumerate(spec["seats"]) if j != i]
        stacks = [s for j, s in enumerate(options["stacks"]) if j != i]
        yield {**spec, "seats": seats, "options": {**options, "stacks": stacks}}, steps
    if len(steps) > 1:
        yield spec, steps[:len(steps) // 2]
        yield spec, steps[:-1]
    if len(options["blindSchedule"]) > 1:
        yield {**spec, "options": {**options, "blindSchedule": options["blindSchedule"][:1]}}, steps
    if any(s > 1 for s in options["stacks"]):
        yield {**spec, "options": {**options, "stacks": [max(1, s // 2) for s in options["stacks"]]}}, steps


class ShrinkStopped(Exception):
    """Raised by a shrinker's judge that cannot run the engine any more: keep the best so far."""


def shrink(test: dict, judge_test, cause: object, first: dict | None, max_runs: int = MAX_SHRINK_RUNS, *,
           variants=None, make=None, measure=None) -> tuple[dict, int]:
    """A smaller game that still shows ``cause`` (deterministic delta debugging: accept the first
    smaller variant that still does, until none does or ``max_runs`` engine runs are spent): the
    cause shrunk is kept, not merely a failure (issue #38, item 3). ``judge_test(test)`` -> every
    cause the game shows, ``{cause: its failure}`` (``failure_causes``). Returns the game and the runs.
    ``variants(test, first)``, ``make(spec, answers, id)`` and ``measure(test)`` shrink another kind
    of game (hand_fuzz.py's lone hands); by default a fuzz game's."""
    variants, measure = variants or _variants, measure or size
    make = make or (lambda spec, steps, test_id: fuzz_test(spec, [_decoded(s) for s in steps], test_id))
    runs = 0
    improved = True
    while improved and runs < max_runs:
        improved = False
        for spec, steps in variants(test, first):
            if runs >= max_runs:
                break
            try:
                candidate = make(spec, steps, test["id"])
            except HoldemError:
                continue
            if measure(candidate) >= measure(test):
                continue
            runs += 1
            try:
                found = judge_test(candidate)
            except ShrinkStopped:
                return test, runs
            if cause in found:
                test, first, improved = candidate, found[cause], True
                break
    return test, runs


def failure_causes(case) -> dict:
    """A failed case's causes (difference_kinds.cause_key), each with its first failure."""
    if case.status != "failed":
        return {}
    found: dict = {}
    for f in case.failures or ([case.first] if case.first else []):
        found.setdefault(cause_key(f.get("clause"), f.get("path"), f.get("expected"), f.get("actual"), f.get("kind")), f)
    return found


def _decoded(step: object) -> object:
    return step if step == TIMEOUT else decode(step)


def size(test: dict) -> tuple:
    """How big a game is, as the shrinker orders games: steps, hands, seats, levels, chips."""
    spec = test["input"]["game"]
    return (len(test["input"]["steps"]), spec["options"]["maxHands"], len(spec["seats"]),
            len(spec["options"]["blindSchedule"]), sum(spec["options"]["stacks"]))


# ---- running ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FuzzKind:
    """What one fuzz row plays: the tournament profile's ``hands`` games (GAMES) or the hand
    profile's lone hands (conformance/judge/hand_fuzz.py, HANDS). ``key`` is the report's entry
    (``engine.fuzz``, ``engine.handFuzz``); ``shrunk(test)`` says what the shrunk game is."""

    profile: str
    family: str
    group: str
    key: str
    generate: Callable[[int, int], dict]  # game k of a seed
    shrink: Callable  # (test, judge_test, clause, first) -> (a smaller test, engine runs)
    shrunk: Callable[[dict], str]


GAMES = FuzzKind("tournament", FUZZ_FAMILY, FUZZ_GROUP, "fuzz", generate, shrink, lambda test: (
    f"{len(test['input']['game']['seats'])} seats, {test['input']['game']['options']['maxHands']} hands, "
    f"{len(test['input']['steps'])} steps (the report's vector: a hands vector that can join the golden set)"))


@dataclass(frozen=True)
class FuzzPlan:
    """What to fuzz: the seed, and an exact number of games or (games None) a time budget; ``guided``:
    the games come from a coverage-guided corpus (conformance/judge/fuzz_guided.py; needs --coverage)."""

    seed: int
    seconds: float | None = None  # a time budget, used only when games is None
    games: int | None = DEFAULT_GAMES  # exactly this many games (then the time does not matter)
    guided: bool = False


@dataclass
class FuzzRun:
    seed: int
    games: int = 0  # games run (a rerun with --fuzz-games games reproduces them)
    seconds: float = 0.0
    cases: list = field(default_factory=list)
    vector: dict | None = None  # the first failure, shrunk
    shrink_runs: int = 0


def run_plan(runner, plan: FuzzPlan, on_case=lambda case: None, guide=None, kind: FuzzKind = GAMES) -> FuzzRun:
    return run(runner, plan.seed, seconds=plan.seconds, games=plan.games, on_case=on_case, guide=guide, kind=kind)


def run(runner, seed: int, *, seconds: float | None = None, games: int | None = None,
        clock=time.monotonic, on_case=lambda case: None, guide=None, kind: FuzzKind = GAMES) -> FuzzRun:
    """Play fuzz games ``0, 1, ...`` of ``seed`` through ``runner`` (engine_cert.Runner) until
    ``games`` have run or, with ``games`` None, ``seconds`` have passed (checked between games;
    neither given: DEFAULT_GAMES), stopping at the first failure, which is shrunk. One report Case
    per game, in the ``fuzz`` group. ``guide`` (fuzz_guided.Guide) gives the games instead of
    :func:`generate` and hears after each. ``kind``: what the games are (the hand profile's: HANDS
    of hand_fuzz.py, its own group and shrinker)."""
    if games is None and seconds is None:
        games = DEFAULT_GAMES
    out = FuzzRun(seed)
    start = clock()
    while (games is None or out.games < games) and (games is not None or clock() - start < seconds):
        test = kind.generate(seed, out.games) if guide is None else guide.game(out.games)
        kept = copy.deepcopy(test)  # the game as generated, for the shrinker
        case = runner.vector(kind.family, test)
        case.group = kind.group
        out.games += 1
        out.cases.append(case)
        on_case(case)
        if case.status == "failed":
            _shrink_failure(runner, case, kept, out, kind)
        if case.status in ("failed", "skipped"):  # skipped: the runner gave up on a hanging engine
            break
        if guide is not None:
            guide.after()
    out.seconds = clock() - start
    return out


def _shrink_failure(runner, case, test: dict, out: FuzzRun, kind: FuzzKind = GAMES) -> None:
    def judge_test(candidate: dict):
        if runner.abandoned(kind.family):  # the engine hangs or dies: no more runs
            raise ShrinkStopped
        return failure_causes(runner.vector(kind.family, candidate))

    test["id"] = f"{kind.family}.fuzz-{out.seed}-{out.games - 1}"
    out.vector = case.vector = test
    if case.breaks is None:  # no divergence to keep (the engine hung, died or answered garbage)
        case.message += "; the game is the report's vector (not shrunk: no step diverged)"
        return
    # The cause shrunk: the first that is not the engine's own dealing (which every game shows).
    causes = failure_causes(case)
    cause, first = next(((k, f) for k, f in causes.items() if f.get("kind") != DEALT_OTHER_CARDS),
                        next(iter(causes.items())))
    test, out.shrink_runs = kind.shrink(test, judge_test, cause, first)
    out.vector = case.vector = test
    try:  # the shrunk game's own first divergence, where its reproduction points (one more engine run)
        # the shrunk game's failure of the cause shrunk (its reproduction shows that cause)
        case.vector_first = judge_test(test).get(cause, case.first) if out.shrink_runs else first
    except ShrinkStopped:
        case.vector_first = None
    case.message += f"; shrunk in {out.shrink_runs} engine runs to {kind.shrunk(test)}"
