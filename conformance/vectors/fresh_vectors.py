"""Fresh vectors: tests generated for one certification run from a seed, judged like the golden ones.

The golden vectors are public, so an engine could recognise them by id and echo their expected
results. Fresh tests are new inputs of the same families, in the same format, computed by the
reference for this run: an engine passes them only by computing. The seed makes a run
reproducible; by default it is derived from the engine's own bytes (docs/INTERPRETING.md), so
an engine cannot carry the answers to its own fresh tests, and an operator may pass any other.

Ids are ``FAMILY.fresh.K``. Rulings are flagged as in the golden families (R2 for deck orders,
R4 for values, R6 for the exact equity stream, R7 for dead layers, R8 and R13 in tournaments),
so an engine taking another reasonable option on a ruling is divergent on it here too, not broken.
"""
from __future__ import annotations

import hashlib
import math
import random

from reference.cards import CANONICAL_DECK
from reference.equity import equity, exact_equity
from reference.evaluator import evaluate
from reference.pots import build_pots
from reference.rng import deal_hand, mulberry32

from conformance.host.jsvalue import encode
from .gamespec import GAME_FAMILIES, STRATEGIES, game, pin_cards, tournament
from .generators import deck as deck_family
from .generators import equity as equity_family
from .generators import evaluate as evaluate_family
from .generators import hand as hand_family
from .generators import legality as legality_family
from .generators import pots as pots_family
from .generators import rng as rng_family
from .generators import tournaments as tournaments_family
from .vectorfile import make_test

# Tests per family and run: enough that echoing memorised answers cannot pass, few enough to
# add only seconds to a certification.
COUNTS = {"rng": 6, "deck": 6, "evaluate": 24, "equity": 4, "pots": 8, "legality": 16, "tournaments": 3, "hand": 24}
FAMILIES = tuple(COUNTS)


def seed_from(*parts: bytes | str) -> int:
    """A 32-bit fresh seed from the bytes that identify what is certified (engine, adapter...)."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big") + data)
    return int.from_bytes(digest.digest()[:4], "big")


def generate(seed: int, families=FAMILIES) -> dict[str, list[dict]]:
    """Fresh tests of ``families`` (those of FAMILIES among them) for ``seed``, deterministic."""
    out = {}
    for family in FAMILIES:
        if family in families:
            rnd = random.Random(f"holdem-conformance fresh {family} {seed}")
            out[family] = [_set_id(pin_cards(family, t) if family in GAME_FAMILIES else t, f"{family}.fresh.{k + 1}", seed)
                           for k, t in enumerate(_MAKERS[family](rnd, COUNTS[family]))]
    return out


def engine_seed(sources: list[str], adapter: str | None) -> int:
    """The default seed for a JavaScript engine: its preludes and engine text, and its adapter's
    (the one rule holdem-cert engine, certify and the pytest plugin share)."""
    return seed_from(*sources, adapter or "")


def summary(seed: int | None, tests: dict[str, list[dict]]) -> dict | None:
    """The report's ``fresh`` entry: the seed and how many fresh tests ``tests`` (engine_cert.load_tests's
    family -> tests) holds; None when there are none by choice."""
    if seed is None:
        return None
    return {"seed": seed, "tests": sum(1 for family in tests.values() for t in family
                                       if t["id"].split(".")[1:2] == ["fresh"])}


def _set_id(test: dict, test_id: str, seed: int) -> dict:
    test["id"] = test_id
    test["comment"] = f"fresh (seed {seed}): {test['comment']}"
    return test


def _rng(rnd: random.Random, count: int) -> list[dict]:
    seeds = []
    for k in range(count):
        kind = k % 3
        if kind == 0:
            seeds.append(rnd.randrange(-2**40, 2**40))
        elif kind == 1:
            seeds.append(rnd.uniform(-1e6, 1e6))
        else:  # code points from ASCII to the astral planes (no lone surrogates: some hosts cannot pass them)
            points = [rnd.choice((rnd.randrange(32, 127), rnd.randrange(0xA0, 0xD800), rnd.randrange(0x10000, 0x110000)))
                      for _ in range(rnd.randrange(1, 9))]
            seeds.append("".join(map(chr, points)))
    # Flagged by the seed as the golden vectors are (a string such as "9" is numeric: it rests on R1).
    return [rng_family.seed_test("", seed) for seed in seeds]


def _deck(rnd: random.Random, count: int) -> list[dict]:
    tests = []
    for _ in range(count):
        seed = rnd.choice((rnd.randrange(2**32), f"run-{rnd.randrange(10**9)}"))
        number = rnd.choice((rnd.randrange(1, 301), rnd.randrange(1, 2**53)))
        tests.append(make_test(deck_family.NOTES, "", f"dealHand({seed!r}, {number})", ["helper.deal-hand"],
                               {"seed": encode(seed), "handNumber": number}, {"deck": deal_hand(seed, number)},
                               ["Derivation"]))
    return tests


def _evaluate(rnd: random.Random, count: int) -> list[dict]:
    """Half values of 5..7 random cards, half orders of two hands sharing a five-card board (often
    close: same board, so the hole cards and kickers decide)."""
    tests = []
    for k in range(count):
        if k % 2 == 0:
            cards = rnd.sample(CANONICAL_DECK, 5 + k // 2 % 3)
            result = evaluate(cards)
            tests.append(make_test(evaluate_family.NOTES, "", f"{' '.join(cards)}: value {result['value']}",
                                   ["helper.evaluate"], {"cards": cards},
                                   {"value": result["value"], "name": result["name"], "rank": result["rank"]},
                                   ["ValueEncoding"]))
        else:
            dealt = rnd.sample(CANONICAL_DECK, 9)
            a, b = dealt[:2] + dealt[4:], dealt[2:4] + dealt[4:]
            diff = evaluate(a)["value"] - evaluate(b)["value"]
            order = (diff > 0) - (diff < 0)
            tests.append(make_test(evaluate_family.NOTES, "", f"{' '.join(a)} vs {' '.join(b)}: {order:+d}",
                                   ["helper.evaluate", "rules.best-five"], {"a": a, "b": b}, {"order": order}, ["Order"]))
    return tests


# A statistical spot is drawn again unless each outcome against one opponent (loss, tie, win) is
# impossible or expected at least this many times in the iterations: the tolerance (Z standard
# errors) assumes a near-normal sum, which a rare outcome's few occurrences are not.
MIN_EXPECTED_OUTCOMES = 20


def _outcome_probabilities(exact: dict) -> tuple[float, float, float]:
    """(loss, tie, win) against one opponent from the mean and variance of the share (0, 1/2, 1):
    E[share] - E[share^2] = tie / 4."""
    mean, second = exact["equity"], exact["variance"] + exact["equity"] ** 2
    tie = 4 * (mean - second)
    tie = 0.0 if abs(tie) < 1e-12 else tie
    win = mean - tie / 2
    win = 0.0 if abs(win) < 1e-12 else win
    loss = 1 - win - tie
    return (0.0 if abs(loss) < 1e-12 else loss), tie, win


def _equity(rnd: random.Random, count: int) -> list[dict]:
    """Statistical spots against one opponent whose exact equity enumerates quickly (river or
    turn) and whose Monte Carlo sum is near normal, and one exact stream under R6 (preflop)."""
    tests = []
    iterations = equity_family.ITERATIONS
    while len(tests) < count - 1:
        cards = rnd.sample(CANONICAL_DECK, 7)
        hole, board = cards[:2], cards[2:7 if len(tests) % 3 != 2 else 6]
        exact = exact_equity(hole, board, 1)
        if not all(p == 0 or p * iterations >= MIN_EXPECTED_OUTCOMES for p in _outcome_probabilities(exact)) \
                or exact["variance"] <= 0:
            continue  # a lopsided or certain spot: another one
        tolerance = equity_family.Z * math.sqrt(exact["variance"] / iterations)
        tests.append(make_test(equity_family.NOTES, "", f"{' '.join(hole)} on [{' '.join(board)}] vs 1",
                               ["helper.equity"], {"hole": hole, "board": board, "opponents": 1,
                                                   "iterations": iterations,
                                                   "random": {"kind": "mulberry32", "seed": rnd.randrange(1, 2**32)}},
                               {"equity": exact["equity"], "variance": exact["variance"], "tolerance": tolerance},
                               ["Statistical"]))
    hole, opponents, seed = rnd.sample(CANONICAL_DECK, 2), rnd.randrange(1, 9), rnd.randrange(1, 2**32)
    tests.append(make_test(equity_family.NOTES, "", f"{' '.join(hole)} vs {opponents}, 300 iterations, "
                           f"mulberry32({seed})", ["helper.equity"],
                           {"hole": hole, "board": [], "opponents": opponents, "iterations": 300,
                            "random": {"kind": "mulberry32", "seed": seed}},
                           equity_family.stream_expected(hole, [], opponents, 300, seed), ["ExactStream"]))
    return tests


def _pots(rnd: random.Random, count: int) -> list[dict]:
    tests = []
    for _ in range(count):
        n = rnd.randrange(2, 10)
        levels = [rnd.randrange(0, 2000, 25) for _ in range(rnd.randrange(1, 4))]
        contributions = [{"id": f"s{i + 1}", "committed": rnd.choice(levels), "folded": rnd.random() < 0.3}
                         for i in range(n)]
        pots = build_pots(contributions)
        committed = [c["committed"] for c in contributions]
        live = [c["committed"] for c in contributions if not c["folded"]]
        flags = ["Layers"]
        if any(c["folded"] and c["committed"] for c in contributions):
            flags.append("FoldedChips")
        if len(pots) < len({c for c in committed if c}):
            flags.append("Merge")
        if max(committed) and max(live, default=0) < max(committed):  # R7: a layer no live seat reaches
            flags.append("DeadLayer")
        tests.append(make_test(pots_family.NOTES, "", f"{n} contributions", ["state.pots"],
                               {"contributions": contributions}, {"pots": pots}, flags))
    return tests


def _random_answer(rnd: random.Random, state: dict) -> object:
    """A legal answer, varied: the prefix of a fresh legality test."""
    choices = ["call" if not state["canCheck"] else "check"]
    if not state["canCheck"]:
        choices.append("fold")
    if state["minRaiseTo"] is not None:  # a stack short of minRaiseTo raises exactly maxRaiseTo
        low = min(state["minRaiseTo"], state["maxRaiseTo"])
        choices.append({"type": "raise", "amount": rnd.randrange(low, state["maxRaiseTo"] + 1)})
    if state["canAllIn"]:
        choices.append("allin")
    return rnd.choice(choices)


def _candidate_answers(rnd: random.Random, state: dict) -> list:
    """Answers to judge, legal or not, around the state's own limits."""
    low = state["minRaiseTo"] if state["minRaiseTo"] is not None else state["currentBet"] + 100
    amounts = [low, low - 1, state["maxRaiseTo"], state["maxRaiseTo"] + 1, state["currentBet"],
               rnd.randrange(0, state["maxRaiseTo"] + 2)]
    return ["fold", "check", "call", "allin", "raise", "Call", {"type": "call", "amount": 7},
            {"type": "bet", "amount": low}, *({"type": "raise", "amount": a} for a in amounts)]


def _legality(rnd: random.Random, count: int) -> list[dict]:
    """Random single-hand games (stacks above the big blind: no blind puts a seat all-in, so no R8), a
    random legal prefix, then one answer that may be legal or not."""
    tests = []
    while len(tests) < count:
        n = rnd.randrange(2, 7)
        spec = game([f"P{i}" for i in range(n)], seed=rnd.randrange(2**32), maxHands=1,
                    stacks=[rnd.randrange(101, 12001) for _ in range(n)])
        t = tournament(spec)
        prefix = []
        for _ in range(rnd.randrange(0, 9)):
            state = t.decision_state()
            if state is None:
                break
            answer = _random_answer(rnd, state)
            t.act(answer)
            prefix.append(answer)
        state = t.decision_state()
        if state is None:  # the hand ended inside the prefix: draw another game
            continue
        raw = rnd.choice(_candidate_answers(rnd, state))
        tests.append(legality_family.legality_test("", ["return.forms"], spec, prefix, raw, []))
    return tests


def _tournaments(rnd: random.Random, count: int) -> list[dict]:
    tests = []
    for _ in range(count):
        n = rnd.randrange(2, 10)
        strategies = [rnd.choice(sorted(STRATEGIES)) for _ in range(n)]
        spec = game([f"P{i}" for i in range(n)], seed=rnd.randrange(2**32), maxHands=rnd.randrange(10, 61),
                    stacks=[rnd.randrange(200, 6001, 50) for _ in range(n)])
        expected, flags = tournaments_family.play(spec, strategies)
        tests.append(make_test(tournaments_family.NOTES, "", f"{n} seats, strategies {', '.join(strategies)}",
                               ["rules.end"], {"game": spec, "strategies": strategies}, expected, flags))
    return tests


def _hand(rnd: random.Random, count: int) -> list[dict]:
    """Lone hands (the hand profile): 2-9 seats, uneven, one-chip and short stacks, short blinds,
    seats out, pinned decks of any length, scripts of legal answers in every form and refused ones
    (generators/hand.py, random_test)."""
    return [hand_family.random_test(rnd, "", "a random hand") for _ in range(count)]


_MAKERS = {"rng": _rng, "deck": _deck, "evaluate": _evaluate, "equity": _equity, "pots": _pots, "legality": _legality,
           "tournaments": _tournaments, "hand": _hand}
