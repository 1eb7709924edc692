"""Coverage-guided fuzzing (issue #27 item 2): a corpus of the fuzz games that reached engine blocks no
game before them reached, mutated (answers, stacks, seats, blinds, hand caps, seeds, pinned cards,
the ruleset), AFL-style, with V8's block coverage of the engine (``--coverage``, node host) as the
feedback.

The blind fuzzer (conformance/judge/fuzz.py) draws every game from one distribution, which saturates
what it can reach within a few hundred games. Feedback alone cannot go further; what does is
mutations that reach what that distribution rarely or never draws: every seat all-in (side pots,
eliminations, heads-up transitions), blinds at or above the stacks, equal and odd stacks, boards
that tie every hand (split pots, odd chips), long raise wars, runs of timeouts, holdem-sng-3-v4
games (its clock, words, auto-fold and recovery) when the run certifies that ruleset. Every
mutated game is played by the reference while its steps are drawn, exactly as a blind game: a game
the reference refuses (its options) is drawn again, never run; the shrinker is fuzz.py's.

Game ``k`` is a function of the seed, ``k`` and the blocks games ``0 .. k-1`` reached: for an engine
whose coverage is deterministic (the same game runs the same blocks), the same ``--fuzz-seed`` and
``--fuzz-games N`` play the same games.
"""
from __future__ import annotations

import random

from reference.cards import CANONICAL_DECK
from reference.errors import HoldemError

from conformance.host.jsvalue import decode
from conformance.vectors.gamespec import tournament

from . import fuzz
from .coverage import Script

FRESH = 0.2  # the share of games drawn blind (fuzz.generate) once the corpus holds a game
MUTATIONS = 4  # at most this many mutations stacked on one parent
TRIES = 8  # mutated games the reference refuses before a fresh game is drawn instead
V4 = "holdem-sng-3-v4"
ROYAL = ["As", "Ks", "Qs", "Js", "Ts"]  # a board every seat plays: every showdown a tie


# ---- answers ------------------------------------------------------------------------------------

def _shove(rnd, state, t):
    if state["canAllIn"] and rnd.random() < 0.8:
        return "allin"
    return fuzz._answer(rnd, state)


def _calldown(rnd, state, t):
    return ("check" if state["canCheck"] else "call") if rnd.random() < 0.85 else fuzz._answer(rnd, state)


def _raise_war(rnd, state, t):
    """Raises at and near the minimum, the maximum and one chip short: reopening, short all-ins."""
    if state["minRaiseTo"] is None or rnd.random() < 0.15:
        return fuzz._answer(rnd, state)
    low, high = min(state["minRaiseTo"], state["maxRaiseTo"]), state["maxRaiseTo"]
    return {"type": "raise", "amount": rnd.choice([low, low, high, max(low, high - 1), low + 1, low - 1])}


def _timeouts(rnd, state, t):
    return fuzz.TIMEOUT if rnd.random() < 0.6 else fuzz._answer(rnd, state)


def _odd(rnd, state, t):
    return rnd.choice(fuzz.ODD_ANSWERS) if rnd.random() < 0.5 else fuzz._near_limits(rnd, state)


def _v4(rnd, state, t):
    """holdem-sng-3-v4: its words, answers at or past the clock, recoveries of seats in auto-fold
    (only those: a refused recovery's reason is the engine's own text, which a hands game cannot
    judge; the sng3v4 family's vectors do), runs of timeouts towards auto-fold."""
    roll = rnd.random()
    folded = [s for s, f in enumerate(t.auto_folded) if f and not t.out[s] and t.hand.stacks[s] > 0]
    if roll < 0.15 and folded:
        return {"recover": rnd.choice(folded)}
    if roll < 0.35:
        limit = state["timeLimitMs"]
        return {"atMs": rnd.choice([0, limit - 1, limit, limit + 1]), "answer": fuzz._answer(rnd, state)}
    if roll < 0.55:
        low = state["minRaiseTo"] if state["minRaiseTo"] is not None else state["currentBet"] + 1
        return rnd.choice(["all_in", "bet", "ALL_IN", {"type": "bet", "amount": low}, {"type": "all_in"},
                           {"type": "bet", "amount": state["maxRaiseTo"]}])
    if roll < 0.75:
        return fuzz.TIMEOUT
    return fuzz._answer(rnd, state)


POLICIES = {"blind": lambda rnd, state, t: fuzz._answer(rnd, state), "shove": _shove, "calldown": _calldown,
            "raise-war": _raise_war, "timeouts": _timeouts, "odd": _odd, "v4": _v4}


# ---- games --------------------------------------------------------------------------------------

def _options(spec: dict) -> dict:
    return spec["options"]


def _resize(rnd, spec: dict, n: int) -> None:
    o = _options(spec)
    stacks = list(o["stacks"])
    while len(stacks) < n:
        stacks.append(rnd.choice(stacks))
    spec["seats"] = [f"P{i}" for i in range(n)]
    o["stacks"] = stacks[:n]


def mutated_stacks(rnd, stacks: list[int], big: int) -> list[int]:
    """Other stacks for the same seats (a tournament's, hand_fuzz's lone hand's) around the big blind."""
    n = len(stacks)
    kind = rnd.randrange(6)
    if kind == 0:  # equal: ties at elimination (R17, R27)
        return [rnd.choice([1, 2, big, big + 1, rnd.randrange(1, 5000)])] * n
    if kind == 1:  # about one blind each: all-ins on the blinds
        return [max(1, big + rnd.randrange(-2, 3)) for _ in range(n)]
    if kind == 2:  # huge against tiny
        return [rnd.choice([1, 3, 10 ** rnd.randrange(5, 10)]) for _ in range(n)]
    if kind == 3:  # odd, uneven: odd chips in split pots
        return [2 * rnd.randrange(1, 800) + 1 for _ in range(n)]
    if kind == 4:  # one seat changed
        stacks, i = list(stacks), rnd.randrange(n)
        stacks[i] = rnd.choice([1, 2, max(1, stacks[i] // 2), stacks[i] * 3 + 1, big - 1 or 1])
        return stacks
    return [rnd.randrange(1, 6) for _ in range(n)]  # all short


def _m_stacks(rnd, spec, rulesets):
    o = _options(spec)
    o["stacks"] = mutated_stacks(rnd, o["stacks"], o["blindSchedule"][0][1])


def _m_seats(rnd, spec, rulesets):
    if _options(spec).get("ruleset") == V4:
        return
    _resize(rnd, spec, rnd.choice([2, 2, 3, rnd.randrange(2, 10), 9]))


def _m_blinds(rnd, spec, rulesets):
    o = _options(spec)
    top = max(o["stacks"])
    kind = rnd.randrange(5)
    if kind == 0:  # blinds at or above the stacks
        small = rnd.choice([max(1, top // 2), top, max(1, min(o["stacks"]))])
        o["blindSchedule"] = [[small, small * 2]]
    elif kind == 1:  # small == big, odd big blinds
        small = rnd.randrange(1, 60)
        o["blindSchedule"] = [[small, rnd.choice([small, small * 2 + 1])]]
    elif kind == 2:  # many levels, one hand each
        small, levels = rnd.choice([1, 2, 5]), []
        for _ in range(rnd.randrange(3, 9)):
            levels.append([small, small * 2])
            small *= rnd.choice([2, 3])
        o["blindSchedule"], o["handsPerLevel"] = levels, 1
    elif kind == 3:
        o["handsPerLevel"] = rnd.randrange(1, 4)
    else:
        o["blindSchedule"] = fuzz._schedule(rnd)


def _m_hands(rnd, spec, rulesets):
    o = _options(spec)
    o["maxHands"] = rnd.choice([1, 2, o["maxHands"] * 2, rnd.randrange(1, 60)])
    _fill_decks(rnd, spec)


def _m_seed(rnd, spec, rulesets):
    o = _options(spec)
    o["seed"] = rnd.choice([rnd.randrange(0, 2 ** 32), -rnd.randrange(1, 1000), 2 ** 32 + rnd.randrange(9),
                            "seed-" + str(rnd.randrange(100)), "\U0001F0A1" + chr(rnd.randrange(0x4E00, 0x4F00)), ""])


def _m_decks(rnd, spec, rulesets):
    """Pinned decks that tie: a royal flush on the board for the seats dealt (every showdown split,
    odd chips; how many are dealt in after eliminations is a guess), else two cards swapped."""
    o = _options(spec)
    hands = [int(k) for k in o["decks"]]
    for number in rnd.sample(hands, max(1, len(hands) // rnd.choice([1, 2, 4]))):
        deck = list(o["decks"][str(number)])
        if rnd.random() < 0.75:
            m = rnd.choice([len(spec["seats"]), rnd.randrange(2, len(spec["seats"]) + 1)])
            board = dict(zip([2 * m + 1, 2 * m + 2, 2 * m + 3, 2 * m + 5, 2 * m + 7], ROYAL))  # R3: burns between
            rest = iter([c for c in deck if c not in ROYAL])
            deck = [board[p] if p in board else next(rest) for p in range(52)]
        else:
            i, j = rnd.randrange(52), rnd.randrange(52)
            deck[i], deck[j] = deck[j], deck[i]
        o["decks"][str(number)] = deck


def _m_ruleset(rnd, spec, rulesets):
    o = _options(spec)
    if o.get("ruleset") == V4:
        del o["ruleset"]
        o.pop("timeLimitMs", None)
    elif V4 in rulesets:
        o["ruleset"] = V4
        _resize(rnd, spec, 3)
        if rnd.random() < 0.3:
            o["timeLimitMs"] = rnd.choice([1, 2, 100, 15000])


OPERATORS = {"stacks": _m_stacks, "seats": _m_seats, "blinds": _m_blinds, "hands": _m_hands, "seed": _m_seed,
             "decks": _m_decks, "ruleset": _m_ruleset}


def _fill_decks(rnd, spec: dict) -> None:
    """Every hand up to the cap with its deck pinned (fuzz games pin every hand's cards)."""
    o = _options(spec)
    for number in range(1, o["maxHands"] + 1):
        o["decks"].setdefault(str(number), rnd.sample(CANONICAL_DECK, 52))


def play(rnd: random.Random, spec: dict, prefix: list, policy: str) -> list:
    """The steps of a game: ``prefix`` (a parent's steps, as they are) then answers of ``policy``
    drawn while the reference plays, up to fuzz.MAX_STEPS. Raises HoldemError for options the
    reference refuses."""
    t = tournament(spec)
    steps: list = []
    for step in prefix:
        if len(steps) >= fuzz.MAX_STEPS or t.decision_state() is None:
            break
        fuzz.apply_step(t, step)
        steps.append(step)
    answer = POLICIES[policy]
    while len(steps) < fuzz.MAX_STEPS and (state := t.decision_state()) is not None:
        step = answer(rnd, state, t)
        fuzz.apply_step(t, step)
        steps.append(step)
    return steps


def _copy_spec(spec: dict) -> dict:
    o = spec["options"]
    return {**spec, "seats": list(spec["seats"]),
            "options": {**o, "stacks": list(o["stacks"]), "blindSchedule": [list(x) for x in o["blindSchedule"]],
                        "decks": dict(o["decks"])}}


def _steps_of(test: dict) -> list:
    return [s if s == fuzz.TIMEOUT else decode(s) for s in test["input"]["steps"]]


class Guide:
    """The corpus and the mutations of one guided run: ``game(k)`` gives fuzz game ``k``; ``after()``,
    once the engine has played it, asks ``blocks()`` which engine blocks it reached and keeps the
    game in the corpus when one of them is new (AFL's rule: the corpus grows only on new blocks)."""

    def __init__(self, seed: int, blocks, rulesets: tuple = ("contract-v1",), blind=fuzz.generate) -> None:
        self.seed = seed
        self.blind = blind  # (seed, k) -> a blind game (hand_fuzz.HandGuide: a random hand)
        self.blocks = blocks  # () -> the blocks run since the last call (Feedback.blocks)
        self.rulesets = tuple(rulesets)
        self.corpus: list[tuple[dict, int]] = []  # (game, how many blocks it reached first)
        self.reached: set[int] = set()
        self.mutated = 0  # games made by mutation (the rest drawn blind)
        self._last: dict | None = None

    def game(self, k: int) -> dict:
        rnd = random.Random(f"holdem-conformance guided fuzz {self.seed} {k}")
        test = self._mutant(rnd, k) if self.corpus and rnd.random() >= FRESH else None
        self.mutated += test is not None
        self._last = test if test is not None else self.blind(self.seed, k)
        return self._last

    def _mutant(self, rnd: random.Random, k: int) -> dict | None:
        # Parents that found more, and newer ones, more often (AFL's favoured entries, simply).
        weights = [found + i / len(self.corpus) for i, (_, found) in enumerate(self.corpus)]
        parent = rnd.choices(self.corpus, weights)[0][0]
        for _ in range(TRIES):
            spec = _copy_spec(parent["input"]["game"])
            steps = _steps_of(parent)
            changed = False
            for _ in range(rnd.randrange(1, MUTATIONS + 1)):
                name = rnd.choice(list(OPERATORS) + ["answers"] * 3)
                if name != "answers":
                    OPERATORS[name](rnd, spec, self.rulesets)
                    changed = True
            _fill_decks(rnd, spec)
            # Answers: the parent's up to a random step (or none after an option changed), then a policy's.
            prefix = [] if changed and rnd.random() < 0.5 else steps[:rnd.randrange(len(steps) + 1)]
            policies = [p for p in POLICIES if p != "v4" or spec["options"].get("ruleset") == V4]
            try:
                played = play(rnd, spec, prefix, rnd.choice(policies))
                return fuzz.fuzz_test(spec, played, f"hands.fuzz.{self.seed}.{k}")
            except HoldemError:  # options the contract refuses: mutate again
                continue
        return None

    def after(self) -> bool:
        """Keep the last game if it reached a block no game before it did; whether it was kept."""
        new = self.blocks() - self.reached
        if new and self._last is not None:
            self.reached |= new
            self.corpus.append((self._last, len(new)))
        return bool(new)

    def summary(self) -> dict:
        return {"mode": "guided", "corpus": len(self.corpus), "mutated": self.mutated, "blocks": len(self.reached)}


class Feedback:
    """The engine blocks each game reached, from the driver's coverage (engine_drivers.QuickJSDriver
    with ``coverage``): the counts are taken after every game (a take costs a few milliseconds:
    bench/bench_fuzz.py), besides the driver's own takes; every snapshot stays in the driver's log
    for the report, under the fuzz part."""

    def __init__(self, driver) -> None:
        self.driver = driver
        self.script = Script([("engine", driver.engine_source)])
        self.positions = [b.at for b in self.script.files[0].blocks]
        driver.take_coverage()  # what ran before the fuzz games is the part before's
        self._seen = len(driver.coverage.snapshots)

    def __call__(self) -> set[int]:
        """The blocks (indices among the engine source's) run since the last call."""
        self.driver.take_coverage()
        snapshots = self.driver.coverage.snapshots[self._seen:]
        self._seen = len(self.driver.coverage.snapshots)
        out: set[int] = set()
        for _, functions in snapshots:
            counts = self.script.counts(functions)
            out.update(i for i, at in enumerate(self.positions) if counts[at] > 0)
        return out


def guide_for(driver, seed: int, rulesets: tuple = ("contract-v1",)) -> Guide:
    """A guide fed by ``driver``'s coverage; ValueError when it collects none."""
    if not available(driver):
        raise ValueError("guided fuzzing needs the engine's block coverage (--coverage, on the node host)")
    return Guide(seed, Feedback(driver), rulesets)


def available(driver) -> bool:
    """Whether ``driver`` collects the engine's block coverage (QuickJSDriver on node with coverage)."""
    return getattr(driver, "coverage", None) is not None and hasattr(driver, "take_coverage")
