"""The JS helper globals (reference/js/poker-engine.js) against the Python reference.

``rng``/``dealHand`` (R1, R2) must equal reference/rng.py bit for bit; ``evaluate`` (R4, R5)
must agree with reference/evaluator.py on rank, value, name and best; ``equity`` (R6) must
return the bit-identical float as reference/equity.py when both draw from ``rng(seed)``.

Each test runs in QuickJS (the PyPI binding: our own trusted code, in process, one fresh
context for this module and this thread) and, where ``node`` is installed, in Node through
``require``. A test hands the engine a batch of JS expressions and gets back, per expression,
its JSON value or the error it threw.
"""
from __future__ import annotations

import importlib
import itertools
import json
import math
import random
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import quickjs
from hypothesis import given
from hypothesis import strategies as st

from conformance.host import jsvalue
from reference import adapter
from reference.cards import CANONICAL_DECK
from reference.errors import HoldemError
from reference.rng import MAX_SAFE_INTEGER, JSBigInt, JSNumberObject, deal_hand, rng

ENGINE = Path(__file__).resolve().parent.parent / "reference" / "js" / "poker-engine.js"
SOURCE = ENGINE.read_text()
CAT = 15**5



def _optional(module: str):
    """reference/evaluator.py and equity.py are written in parallel to the same rulings; the
    agreement tests skip until they exist. (The package may re-export functions of the same
    names, hence import_module rather than ``from reference import ...``.)"""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name != module:
            raise
        return None


py_evaluator = _optional("reference.evaluator")
py_equity = _optional("reference.equity")
needs_py_evaluator = pytest.mark.skipif(py_evaluator is None, reason="reference/evaluator.py does not exist yet")
needs_py_equity = pytest.mark.skipif(py_equity is None, reason="reference/equity.py does not exist yet")

# Runs a batch of thunks; each result is {"ok": value} or {"error": name, "message": text}.
BATCH = """JSON.stringify([%s].map(function (thunk) {
  try { return { ok: thunk() }; }
  catch (e) { return { error: e instanceof Error ? e.name : typeof e, message: String(e && e.message) }; }
}))"""


def lit(value) -> str:
    """A JS literal for a Python value: None -> null, NaN/Infinity as such, strings with \\u
    escapes so lone surrogates survive."""
    return json.dumps(value, ensure_ascii=True, allow_nan=True)


class Engine:
    def __init__(self):
        self._tables: dict[tuple, list[dict]] = {}

    def table(self, exprs: tuple) -> list[dict]:
        """run() once per table: parametrized cases share one batch (one node process)."""
        if exprs not in self._tables:
            self._tables[exprs] = self.run(list(exprs))
        return self._tables[exprs]


class QuickJS(Engine):
    name = "quickjs"

    def __init__(self):
        super().__init__()
        self.ctx = quickjs.Context()
        self.ctx.eval(SOURCE)

    def run(self, exprs: list[str]) -> list[dict]:
        thunks = ",\n".join(f"function () {{ return ({e}); }}" for e in exprs)
        return json.loads(self.ctx.eval(BATCH % thunks))


class Node(Engine):
    name = "node"

    def run(self, exprs: list[str]) -> list[dict]:
        thunks = ",\n".join(f"function () {{ return ({e}); }}" for e in exprs)
        script = f"const PokerEngine = require({lit(str(ENGINE))});\nprocess.stdout.write({BATCH % thunks});\n"
        done = subprocess.run(["node", "-"], input=script, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)


@pytest.fixture(scope="module", params=["quickjs", "node"])
def engine(request):
    if request.param == "node":
        if shutil.which("node") is None:
            pytest.skip("node is not installed")
        return Node()
    return QuickJS()


@pytest.fixture(scope="module")
def qjs():
    """A QuickJS engine alone, for tests that make many small calls."""
    return QuickJS()


def ok(results: list[dict]) -> list:
    for r in results:
        assert "ok" in r, r
    return [r["ok"] for r in results]


def v(rank, *tiebreak):
    """R4: rank * 15**5 plus the tiebreak ranks as base-15 digits, zero-padded on the right."""
    digits = list(tiebreak) + [0] * (5 - len(tiebreak))
    return rank * CAT + sum(t * 15 ** (4 - i) for i, t in enumerate(digits))


# -- loading ------------------------------------------------------------------------------------
def test_loads_as_a_global_in_a_classic_script_and_as_module_exports_in_node(engine):
    (api,) = ok(engine.run(["[typeof globalThis.PokerEngine, Object.keys(PokerEngine), PokerEngine.version,"
                            " PokerEngine.CANONICAL_DECK, PokerEngine.cards.CANONICAL_DECK,"
                            " Object.isFrozen(PokerEngine.CANONICAL_DECK)]"]))
    where, keys, version, deck, cards_deck, frozen = api
    assert where == ("undefined" if engine.name == "node" else "object")
    assert {"version", "cards", "CANONICAL_DECK", "evaluate", "equity", "rng", "dealHand"} <= set(keys)
    assert isinstance(version, str) and version
    assert deck == cards_deck == list(CANONICAL_DECK)
    assert frozen


def test_a_worker_module_shim_does_not_capture_the_engine():
    """Bot workers define module/exports before the engine loads (contract); it stays a global."""
    ctx = quickjs.Context()
    ctx.eval("var module = { exports: {} }; var exports = module.exports;")
    ctx.eval(SOURCE)
    assert ctx.eval("typeof PokerEngine.evaluate") == "function"
    assert ctx.eval("Object.keys(module.exports).length") == 0


def test_loads_quickly_in_quickjs():
    ctx = quickjs.Context()
    start = time.process_time()
    ctx.eval(SOURCE)
    assert time.process_time() - start < 0.150  # tables are built at load


# -- rng (R1) -----------------------------------------------------------------------------------
SEEDS = [
    0, 1, 42, 7.0, 2**31, 2**32 - 1, 2**32, 2**32 + 5, 2**53, -1, -2**31, -2**32 - 3, 3.7, -3.7, 0.5,
    -0.0, 5e-324, 1e21, -1e21, 1.5e300, 123456789.987, math.nan, math.inf, -math.inf,
    "", "0", "42", "1e21", "abc", "seed with spaces", "ünïcödé", "😀", "a😀b", "\U0010ffff",
    "\ud800", "\udfff", "x\ud83d", "\ude00y", "\ud83d\ud83d", True, False, None,
    # A Python str holding a surrogate pair is one code point in JS; a reversed pair is two lone ones (R1).
    "\ud83d\ude00", "a\ud83d\ude00b", "\ud83d\ud83d\ude00", "\ude00\ud83d", "\udbff\udfff\ud800",
    [1, 2], [], [None, "a", 3.5], {"a": 1},
]


def test_rng_first_outputs_equal_the_python_reference(engine):
    exprs = ["(function (r) { return [r(), r(), r(), r(), r()]; })(PokerEngine.rng(%s))" % lit(s) for s in SEEDS]
    got = ok(engine.run(exprs))
    for seed, outputs in zip(SEEDS, got):
        r = rng(seed)
        assert outputs == [r() for _ in range(5)], seed


def test_rng_outputs_stay_in_unit_interval_over_a_long_stream(engine):
    (stream,) = ok(engine.run(["(function (r) { var a = []; for (var i = 0; i < 2000; i++) a.push(r()); return a; })"
                               "(PokerEngine.rng('long'))"]))
    r = rng("long")
    assert stream == [r() for _ in range(2000)]
    assert all(0 <= x < 1 for x in stream)


@given(st.one_of(st.integers(min_value=-2**80, max_value=2**80), st.floats(), st.text(max_size=12)))
def test_rng_equals_the_python_reference_for_any_number_or_string(qjs, seed):
    (outputs,) = ok(qjs.run(["(function (r) { return [r(), r(), r()]; })(PokerEngine.rng(%s))" % lit(seed)]))
    r = rng(seed)
    assert outputs == [r(), r(), r()]


@given(st.text(alphabet=st.sampled_from(["a", "\u00e9", "\U0001F600", "\ud83d", "\ude00", "\udbff", "\udc00"]),
               max_size=8))
def test_rng_hashes_surrogates_in_a_python_str_as_javascript_iterates_them(qjs, seed):
    # Surrogate pairs, lone and reversed surrogates mixed with astral characters (R1).
    (outputs,) = ok(qjs.run(["(function (r) { return [r(), r()]; })(PokerEngine.rng(%s))" % lit(seed)]))
    r = rng(seed)
    assert outputs == [r(), r()], ascii(seed)


R32_SEEDS = [  # (JS expression, the Python stand-in): BigInt, boxed Number, own toString -> String(seed)
    ("10n", JSBigInt(10)), ("-1n", JSBigInt(-1)), ("(2n ** 64n)", JSBigInt(2**64)), ("new Number(10)", JSNumberObject(10)),
    ("new Number(3.7)", JSNumberObject(3.7)), ("({ toString() { return 'abc'; } })", "abc"), ("Object('seed')", "seed"),
]


def test_rng_stringifies_bigints_boxed_numbers_and_objects_as_the_js_engine_does(qjs):
    exprs = ["(function (r) { return [r(), r()]; })(PokerEngine.rng(%s))" % js for js, _ in R32_SEEDS]
    for (js, seed), outputs in zip(R32_SEEDS, ok(qjs.run(exprs))):
        r = rng(seed)
        assert outputs == [r(), r()], js
    (ten,) = ok(qjs.run(["PokerEngine.rng(10n)() === PokerEngine.rng('10')() && PokerEngine.rng(10n)() !== PokerEngine.rng(10)()"]))
    assert ten is True  # R32 (a): rng(10n) == rng("10") != rng(10)
    # R32's alternative (b), played by the reference for the judge: the number they hold.
    assert rng(JSBigInt(10), numeric_like=True)() == rng(10)() != rng(JSBigInt(10))()
    assert rng(JSNumberObject(3.7), numeric_like=True)() == rng(3)()
    assert rng(JSBigInt(2**64), numeric_like=True)() == rng("18446744073709551616")()  # beyond the safe range
    # Vectors carry a BigInt as its JS literal: {"$js": "10n"} (conformance.host.jsvalue, reference.adapter).
    for value in (JSBigInt(10), JSBigInt(-2**64)):
        tagged = jsvalue.encode(value)
        assert tagged == {"$js": f"{int(value)}n"} and jsvalue.decode(tagged) == value
        assert type(jsvalue.decode(tagged)) is JSBigInt and type(adapter.decode(tagged)) is JSBigInt


# -- dealHand (R2) ------------------------------------------------------------------------------
DEAL_SEEDS = [0, 1, 42, -1, 3.7, 2**32 + 1, "abc", "😀", "\ud800", None, True, math.nan, ""]
HAND_NUMBERS = [1, 2, 12, 300, 2**31, 2**32 + 7, MAX_SAFE_INTEGER]


def test_deal_hand_equals_the_python_reference(engine):
    pairs = [(s, h) for s in DEAL_SEEDS for h in HAND_NUMBERS]
    got = ok(engine.run([f"PokerEngine.dealHand({lit(s)}, {lit(h)})" for s, h in pairs]))
    for (seed, hand), deck in zip(pairs, got):
        assert deck == deal_hand(seed, hand), (seed, hand)
        assert sorted(deck) == sorted(CANONICAL_DECK)


def test_deal_hand_returns_a_fresh_array_each_call(engine):
    (fresh,) = ok(engine.run(["(function () { var a = PokerEngine.dealHand(5, 1); a[0] = 'x';"
                              " return PokerEngine.dealHand(5, 1)[0] !== 'x'; })()"]))
    assert fresh


BAD_HAND_NUMBERS = [(0, "RangeError"), (-1, "RangeError"), (1.5, "RangeError"), (2**53, "RangeError"),
                    (math.nan, "RangeError"), (math.inf, "RangeError"), ("1", "TypeError"),
                    (None, "TypeError"), (True, "TypeError"), ([1], "TypeError")]


def test_deal_hand_rejects_a_hand_number_that_is_not_a_positive_safe_integer(engine):
    got = engine.run([f"PokerEngine.dealHand(42, {lit(h)})" for h, _ in BAD_HAND_NUMBERS])
    for (hand, kind), r in zip(BAD_HAND_NUMBERS, got):
        assert r.get("error") == kind, (hand, r)
        assert r["message"].startswith("dealHand: handNumber "), r
        with pytest.raises(HoldemError):  # and the Python reference refuses it too
            deal_hand(42, hand)


# -- evaluate (R4, R5) --------------------------------------------------------------------------
# (cards, rank, name, value, best in R5's order)
CATEGORIES = [
    ("Ac Ad Ah Ks Kc", 6, "Full house", 5308875, "Ac Ad Ah Ks Kc"),  # the contract's example
    ("Ah Kd 9c 7s 3h 2d 4c", 0, "High card", v(0, 14, 13, 9, 7, 4), "Ah Kd 9c 7s 4c"),
    ("9c 9d Ah 7s 5h 3d 2c", 1, "One pair", v(1, 9, 14, 7, 5), "9c 9d Ah 7s 5h"),
    ("5c Kd 5h Ks 2c 2d 9h", 2, "Two pair", v(2, 13, 5, 9), "Kd Ks 5c 5h 9h"),
    ("5c Kd 5h Ks 9c 9d 2h", 2, "Two pair", v(2, 13, 9, 5), "Kd Ks 9c 9d 5c"),  # third pair kicks
    ("Qs 2c Qd 8h Qh 4c 3d", 3, "Three of a kind", v(3, 12, 8, 4), "Qs Qd Qh 8h 4c"),
    ("9h 8c 7d 6s 5h 5c 2d", 4, "Straight", v(4, 9), "9h 8c 7d 6s 5h"),
    ("Ac 2d 3h 4s 5c Kd Kh", 4, "Straight", v(4, 5), "5c 4s 3h 2d Ac"),  # the wheel
    ("Ac 2d 3h 4s 5c 6d Kh", 4, "Straight", v(4, 6), "6d 5c 4s 3h 2d"),  # six-high beats the wheel
    ("Ts Jh Qd Kc Ah 9c 2d", 4, "Straight", v(4, 14), "Ah Kc Qd Jh Ts"),
    ("9h Kh 2h 7h Jh Ah 3s", 5, "Flush", v(5, 14, 13, 11, 9, 7), "Ah Kh Jh 9h 7h"),
    ("2h 3h 4h 5h 7h 6c 8d", 5, "Flush", v(5, 7, 5, 4, 3, 2), "7h 5h 4h 3h 2h"),  # beats the straight
    ("3c 3d 3h 2c 2d 2h Ah", 6, "Full house", v(6, 3, 2), "3c 3d 3h 2c 2d"),  # two trips
    ("Jc Jd Jh 4c 4d 9s 9h", 6, "Full house", v(6, 11, 9), "Jc Jd Jh 9s 9h"),
    ("7c 7d 7h 7s Kc Kd Ah", 7, "Four of a kind", v(7, 7, 14), "7c 7d 7h 7s Ah"),
    ("2s 2c Kd 2h Kh 2d Ks", 7, "Four of a kind", v(7, 2, 13), "2s 2c 2h 2d Kd"),  # trips as kicker
    ("9d 8d 7d 6d 5d Td Ad", 8, "Straight flush", v(8, 10), "Td 9d 8d 7d 6d"),
    ("Ah 2h 3h 4h 5h 6c Kd", 8, "Straight flush", v(8, 5), "5h 4h 3h 2h Ah"),  # steel wheel
    ("Th Jh Qh Kh Ah Ac Ad", 8, "Straight flush", v(8, 14), "Ah Kh Qh Jh Th"),  # a royal flush
    ("Ks Qs Js Ts 9s", 8, "Straight flush", v(8, 13), "Ks Qs Js Ts 9s"),
    ("2c 3c 4c 5c 7d 8d", 0, "High card", v(0, 8, 7, 5, 4, 3), "8d 7d 5c 4c 3c"),
]


CATEGORY_EXPRS = tuple(f"PokerEngine.evaluate({lit(c[0].split())})" for c in CATEGORIES)


@pytest.mark.parametrize("i", range(len(CATEGORIES)), ids=[c[0] for c in CATEGORIES])
def test_evaluate_categories_values_names_and_best(engine, i):
    cards, rank, name, value, best = CATEGORIES[i]
    (got,) = ok([engine.table(CATEGORY_EXPRS)[i]])
    assert got == {"rank": rank, "value": value, "name": name, "best": best.split()}


# Pools the random hands are drawn from: uniform, few ranks (pairs up to quads, wheels with
# a paired rank), suit-heavy (flushes, straight flushes) and a run of five ranks (straights
# with a paired rank or trips, full houses).
POOLS = (list(CANONICAL_DECK), [c for c in CANONICAL_DECK if c[0] in "A2345K"],
         [c for c in CANONICAL_DECK if c[1] in "hs"], [c for c in CANONICAL_DECK if c[0] in "6789T"])


def random_hands(seed: int, count: int) -> list[list[str]]:
    """5-, 6- and 7-card hands from each of POOLS in turn."""
    rnd = random.Random(seed)
    return [rnd.sample(POOLS[i % len(POOLS)], 5 + (i // len(POOLS)) % 3) for i in range(count)]


HANDS = random_hands(20240519, 4000)


@needs_py_evaluator
def test_evaluate_agrees_with_the_python_reference_on_random_hands(engine):
    got = ok(engine.run([f"PokerEngine.evaluate({lit(h)})" for h in HANDS]))
    for hand, result in zip(HANDS, got):
        expected = py_evaluator.evaluate(hand)
        assert (result["rank"], result["value"], result["name"]) == (
            expected["rank"], expected["value"], expected["name"]), hand
        # R5 pins the reference's choice and order; both references follow it.
        assert result["best"] == expected["best"], hand
    assert {r["rank"] for r in got} == set(range(9))  # every category was exercised
    # and the special straights: wheels (plain and suited) and straights with a paired rank
    assert {(r["rank"], r["value"]) for r in got} >= {(4, v(4, 5)), (8, v(8, 5))}
    assert any(r["rank"] == 4 and len({c[0] for c in h}) < len(h) for h, r in zip(HANDS, got))


def first_repeat(hand: list[str]) -> tuple[int, int]:
    """(i, j): the first card in reading order that repeats an earlier one, cards[j]."""
    for i, card in enumerate(hand):
        if card in hand[:i]:
            return i, hand.index(card)
    raise AssertionError(hand)


def test_evaluate_refuses_a_repeated_card_whatever_hand_it_would_make(engine):
    """A repeat looks like a pair, trips or a flush card to a fast evaluator: still refused,
    naming the first repeat in reading order."""
    rnd = random.Random(7)
    hands = []
    for hand in HANDS[:1200]:
        hand = list(hand)
        for _ in range(1 + rnd.randrange(2)):  # one or two repeats
            i, j = rnd.sample(range(len(hand)), 2)
            hand[i] = hand[j]
        hands.append(hand)
    got = engine.run([f"PokerEngine.evaluate({lit(h)})" for h in hands])
    for hand, r in zip(hands, got):
        i, j = first_repeat(hand)
        assert r.get("error") == "RangeError", (hand, r)
        assert r["message"] == f'evaluate: cards[{i}] "{hand[i]}" duplicates cards[{j}]', (hand, r)


# evaluate's fast paths are straight-line code per hand shape; these two compare it with the
# Python reference on every 5-card hand and on many 6- and 7-card ones: the value and the
# input positions of ``best`` (so its order too), hand by hand.
EVERY_FIVE_CARD_HAND = """(function () {
  var deck = PokerEngine.CANONICAL_DECK, evaluate = PokerEngine.evaluate, h = ['', '', '', '', ''];
  var counts = [0, 0, 0, 0, 0, 0, 0, 0, 0], seen = new Set(), hash = 0x811c9dc5 | 0, a, b, c, d, e, r, p, i;
  for (a = 0; a < 48; a++) { h[0] = deck[a];
  for (b = a + 1; b < 49; b++) { h[1] = deck[b];
  for (c = b + 1; c < 50; c++) { h[2] = deck[c];
  for (d = c + 1; d < 51; d++) { h[3] = deck[d];
  for (e = d + 1; e < 52; e++) { h[4] = deck[e];
    r = evaluate(h);
    counts[r.rank]++; seen.add(r.value);
    for (p = 0, i = 4; i >= 0; i--) p = p * 8 + h.indexOf(r.best[i]);
    hash = Math.imul(hash ^ r.value, 16777619);
    hash = Math.imul(hash ^ p, 16777619);
  }}}}}
  return JSON.stringify({counts: counts, distinct: seen.size, hash: hash >>> 0});
})()"""


def best_positions(hand, best) -> int:
    """The input positions of best's cards, as octal digits, best[0] lowest."""
    p = 0
    for card in reversed(best):
        p = p * 8 + hand.index(card)
    return p


@needs_py_evaluator
def test_evaluate_agrees_with_the_python_reference_on_every_five_card_hand(qjs):
    got = json.loads(qjs.ctx.eval(EVERY_FIVE_CARD_HAND))
    assert got["counts"] == [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
    assert got["distinct"] == 7_462
    expected = 0x811C9DC5
    for hand in itertools.combinations(CANONICAL_DECK, 5):
        r = py_evaluator.evaluate(hand)
        expected = ((expected ^ r["value"]) * 16777619) & 0xFFFFFFFF
        expected = ((expected ^ best_positions(hand, r["best"])) * 16777619) & 0xFFFFFFFF
    assert got["hash"] == expected


@needs_py_evaluator
def test_evaluate_agrees_with_the_python_reference_on_many_six_and_seven_card_hands(qjs):
    rnd = random.Random(20261130)
    hands = [rnd.sample(CANONICAL_DECK, 6 + i % 2) for i in range(200_000)]
    qjs.ctx.set("HANDS_JSON", json.dumps(hands))
    got = json.loads(qjs.ctx.eval("""(function () {
      var hands = JSON.parse(HANDS_JSON), out = [];
      for (var i = 0; i < hands.length; i++) {
        var h = hands[i], r = PokerEngine.evaluate(h), p = 0;
        for (var k = 4; k >= 0; k--) p = p * 8 + h.indexOf(r.best[k]);
        out.push([r.value, p]);
      }
      return JSON.stringify(out);
    })()"""))
    for hand, result in zip(hands, got):
        r = py_evaluator.evaluate(hand)
        assert result == [r["value"], best_positions(hand, r["best"])], hand
    assert len(got) == len(hands)


def test_evaluate_best_is_five_distinct_input_cards_with_the_same_value(engine):
    got = ok(engine.run([f"(function (h) {{ var r = PokerEngine.evaluate(h);"
                         f" return [r.value, r.best, PokerEngine.evaluate(r.best).value]; }})({lit(h)})"
                         for h in HANDS]))
    for hand, (value, best, best_value) in zip(HANDS, got):
        assert len(best) == len(set(best)) == 5 and set(best) <= set(hand), hand
        assert best_value == value, hand


BAD_EVALUATE = [
    ('"AcAdAhKsKc"', "TypeError", "evaluate: cards must be an array"),
    ("null", "TypeError", "evaluate: cards must be an array"),
    ("undefined", "TypeError", "evaluate: cards must be an array"),
    ('{ length: 5, 0: "Ac", 1: "Ad", 2: "Ah", 3: "Ks", 4: "Kc" }', "TypeError", "evaluate: cards must be an array"),
    ('["Ac", "Ad", "Ah", "Ks"]', "RangeError", "evaluate: cards must hold 5 to 7 cards, got 4"),
    ('["Ac", "Ad", "Ah", "Ks", "Kc", "Qs", "Qd", "Qh"]', "RangeError", "evaluate: cards must hold 5 to 7 cards, got 8"),
    ("[]", "RangeError", "evaluate: cards must hold 5 to 7 cards, got 0"),
    ('["Ac", "Ad", "1x", "Ks", "Kc"]', "RangeError", 'evaluate: cards[2] "1x" is not a card'),
    ('["Ac", "Ad", "ah", "Ks", "Kc"]', "RangeError", 'evaluate: cards[2] "ah" is not a card'),
    ('["Ac", "Ad", "AH", "Ks", "Kc"]', "RangeError", 'evaluate: cards[2] "AH" is not a card'),
    ('["Ac", "Ad", "Ahh", "Ks", "Kc"]', "RangeError", 'evaluate: cards[2] "Ahh" is not a card'),
    ('["Ac", "Ad", "", "Ks", "Kc"]', "RangeError", 'evaluate: cards[2] "" is not a card'),
    ('["Ac", "Ad", "10h", "Ks", "Kc"]', "RangeError", 'evaluate: cards[2] "10h" is not a card'),
    ('["Ac", "Ad", 5, "Ks", "Kc"]', "TypeError", "evaluate: cards[2] 5 is not a card string"),
    ('["Ac", "Ad", null, "Ks", "Kc"]', "TypeError", "evaluate: cards[2] null is not a card string"),
    ('["Ac", "Ad", ["Ah"], "Ks", "Kc"]', "TypeError", "evaluate: cards[2] an array is not a card string"),
    ('["Ac", "Ad", new String("Ah"), "Ks", "Kc"]', "TypeError", "evaluate: cards[2] an object is not a card string"),
    ('["Ac", "Ad", { toString() { return "Ah"; } }, "Ks", "Kc"]', "TypeError", "evaluate: cards[2] an object"),
    ('["Ac", , "Ah", "Ks", "Kc"]', "TypeError", "evaluate: cards[1] undefined is not a card string"),
    ('["Ac", "Ad", "Ah", "Ks", "Ad"]', "RangeError", 'evaluate: cards[4] "Ad" duplicates cards[1]'),
    ('["Ac", "Ad", "Ac", "Ad", "Kc"]', "RangeError", 'evaluate: cards[2] "Ac" duplicates cards[0]'),
    ('["2c", "3c", "4c", "5c", "6c", "7c", "2c"]', "RangeError", 'evaluate: cards[6] "2c" duplicates cards[0]'),
    # the first fault in reading order, as the Python reference reports it
    ('["Ac", "Ac", "1x", "Ks", "Kc"]', "RangeError", 'evaluate: cards[1] "Ac" duplicates cards[0]'),
    ('["Ac", "1x", "Ac", "Ks", "Kc"]', "RangeError", 'evaluate: cards[1] "1x" is not a card'),
]


BAD_EVALUATE_EXPRS = tuple(f"PokerEngine.evaluate({b[0]})" for b in BAD_EVALUATE)


@pytest.mark.parametrize("i", range(len(BAD_EVALUATE)), ids=[b[0] for b in BAD_EVALUATE])
def test_evaluate_rejects_bad_input_naming_the_argument(engine, i):
    _, kind, message = BAD_EVALUATE[i]
    r = engine.table(BAD_EVALUATE_EXPRS)[i]
    assert r.get("error") == kind, r
    assert r["message"].startswith(message), r


def test_evaluate_after_an_error_is_unaffected(engine):
    """evaluate keeps scratch state between calls; a throw halfway must not leak into the next."""
    got = engine.run(['PokerEngine.evaluate(["Ac", "Ad", "Ah", "Ks", "Ks"])',
                      'PokerEngine.evaluate(["Ac", "Ad", "Ah", "Ks", "zz"])',
                      'PokerEngine.evaluate(["Ac", "Ad", "Ah", "Ks", "Kc"])'])
    assert [r.get("error") for r in got[:2]] == ["RangeError", "RangeError"]
    assert got[2]["ok"]["best"] == ["Ac", "Ad", "Ah", "Ks", "Kc"]


# -- equity (R6) --------------------------------------------------------------------------------
def equity_expr(hole, board, opponents, iterations, seed) -> str:
    return (f"PokerEngine.equity({lit(hole)}, {lit(board)}, {lit(opponents)}, {lit(iterations)},"
            f" PokerEngine.rng({lit(seed)}))")


SPOTS = [  # (hole, board, opponents, iterations, seed)
    (["Ah", "As"], [], 1, 3000, "eq-1"),
    (["7c", "2d"], [], 8, 400, "eq-2"),
    (["Kh", "Qh"], ["Jh", "Th", "2c"], 2, 2000, 3),
    (["9s", "9d"], ["9h", "4c", "4d", "Ks"], 3, 1500, -4),
    (["Ac", "Kc"], ["2h", "3d", "5s", "8c", "Jd"], 4, 1500, 5.5),
    (["5h", "4h"], ["3h"], 5, 800, "😀"),
    (["Td", "9d"], ["8d", "7d"], 6, 600, None),
    (["2c", "3d"], ["Ah", "Kh", "Qh", "Jh", "Th"], 3, 50, "board plays"),
]


@needs_py_equity
def test_equity_is_bit_identical_to_the_python_reference(engine):
    got = ok(engine.run([equity_expr(*spot) for spot in SPOTS]))
    for (hole, board, opponents, iterations, seed), result in zip(SPOTS, got):
        expected = py_equity.equity(hole, board, opponents, iterations, rng(seed))
        assert float(result).hex() == expected.hex(), (hole, board, opponents)


def test_equity_counts_ties_fractionally_and_is_plausible(engine):
    tie, aces, seven_deuce = ok(engine.run([equity_expr(*SPOTS[-1]), equity_expr(*SPOTS[0]),
                                            equity_expr(*SPOTS[1])]))
    assert tie == 0.25  # the board's royal flush: four-way split every time
    assert 0.82 < aces < 0.88  # AA heads-up is about 85%
    assert 0 <= seven_deuce < 0.15


def test_equity_draws_exactly_the_prescribed_number_of_randoms(engine):
    (calls,) = ok(engine.run(["(function () { var n = 0; var r = PokerEngine.rng(9);"
                              " PokerEngine.equity(['Ah', 'Kd'], ['2c', '7d', 'Qs'], 3, 100,"
                              " function () { n++; return r(); }); return n; })()"]))
    assert calls == 100 * ((5 - 3) + 2 * 3)


def test_equity_with_no_opponents_is_one_without_calling_random(engine):
    (got,) = ok(engine.run(["(function () { var n = 0;"
                            " var e = PokerEngine.equity(['Ah', 'Kd'], [], 0, 100, function () { n++; return 0.5; });"
                            " return [e, n]; })()"]))
    assert got == [1, 0]


def test_equity_without_random_uses_math_random(engine):
    (got,) = ok(engine.run([
        "(function () { var saved = Math.random, n = 0; var r = PokerEngine.rng('m');"
        " Math.random = function () { n++; return r(); };"
        " try { var e = PokerEngine.equity(['Ah', 'Kd'], [], 2, 50); } finally { Math.random = saved; }"
        " return [e, n, PokerEngine.equity(['Ah', 'Kd'], [], 2, 50, PokerEngine.rng('m'))]; })()"]))
    implicit, calls, explicit = got
    assert calls == 50 * (5 + 4)
    assert implicit == explicit


HOLE = '["Ah", "Kd"]'
BAD_EQUITY = [  # (arguments, error, message prefix)
    ('"AhKd", [], 1, 10', "TypeError", "equity: holeCards must be an array"),
    ('null, [], 1, 10', "TypeError", "equity: holeCards must be an array"),
    ('["Ah"], [], 1, 10', "RangeError", "equity: holeCards must hold exactly 2 cards, got 1"),
    ('["Ah", "Kd", "Qc"], [], 1, 10', "RangeError", "equity: holeCards must hold exactly 2 cards, got 3"),
    ('["Ah", "Ah"], [], 1, 10', "RangeError", 'equity: holeCards[1] "Ah" duplicates holeCards[0]'),
    ('["Ah", "Kx"], [], 1, 10', "RangeError", 'equity: holeCards[1] "Kx" is not a card'),
    ('["Ah", 7], [], 1, 10', "TypeError", "equity: holeCards[1] 7 is not a card string"),
    (f'{HOLE}, "2c3c4c", 1, 10', "TypeError", "equity: board must be an array"),
    (f'{HOLE}, undefined, 1, 10', "TypeError", "equity: board must be an array"),
    (f'{HOLE}, ["2c", "3c", "4c", "5c", "6c", "7c"], 1, 10', "RangeError", "equity: board must hold 0 to 5 cards, got 6"),
    (f'{HOLE}, ["2c", "Kd"], 1, 10', "RangeError", 'equity: board[1] "Kd" duplicates holeCards[1]'),
    (f'{HOLE}, ["2c", "3c", "2c"], 1, 10', "RangeError", 'equity: board[2] "2c" duplicates board[0]'),
    (f'{HOLE}, ["2c", "xx"], 1, 10', "RangeError", 'equity: board[1] "xx" is not a card'),
    (f'{HOLE}, [], -1, 10', "RangeError", "equity: opponents must be an integer 0 to 8, got -1"),
    (f'{HOLE}, [], 9, 10', "RangeError", "equity: opponents must be an integer 0 to 8, got 9"),
    (f'{HOLE}, [], 1.5, 10', "RangeError", "equity: opponents must be an integer 0 to 8, got 1.5"),
    (f'{HOLE}, [], NaN, 10', "RangeError", "equity: opponents must be an integer 0 to 8, got NaN"),
    (f'{HOLE}, [], "2", 10', "TypeError", 'equity: opponents must be an integer 0 to 8, got "2"'),
    (f'{HOLE}, [], undefined, 10', "TypeError", "equity: opponents must be an integer 0 to 8, got undefined"),
    (f'{HOLE}, [], 1, 0', "RangeError", "equity: iterations must be a positive safe integer, got 0"),
    (f'{HOLE}, [], 1, -5', "RangeError", "equity: iterations must be a positive safe integer, got -5"),
    (f'{HOLE}, [], 1, 2.5', "RangeError", "equity: iterations must be a positive safe integer, got 2.5"),
    (f'{HOLE}, [], 1, 2 ** 53', "RangeError", "equity: iterations must be a positive safe integer"),
    (f'{HOLE}, [], 1, Infinity', "RangeError", "equity: iterations must be a positive safe integer"),
    (f'{HOLE}, [], 1, "10"', "TypeError", 'equity: iterations must be a positive safe integer, got "10"'),
    (f'{HOLE}, [], 1, 10, null', "TypeError", "equity: random must be a function"),
    (f'{HOLE}, [], 1, 10, 0.5', "TypeError", "equity: random must be a function"),
    (f'{HOLE}, [], 0, 10, {{}}', "TypeError", "equity: random must be a function"),
    (f'{HOLE}, [], 1, 10, () => 1', "RangeError", "equity: random() returned 1, expected a number in [0,1)"),
    (f'{HOLE}, [], 1, 10, () => -0.25', "RangeError", "equity: random() returned -0.25"),
    (f'{HOLE}, [], 1, 10, () => NaN', "RangeError", "equity: random() returned NaN"),
    (f'{HOLE}, [], 1, 10, () => "0.5"', "RangeError", 'equity: random() returned "0.5"'),
    (f'{HOLE}, [], 1, 10, () => undefined', "RangeError", "equity: random() returned undefined"),
]


BAD_EQUITY_EXPRS = tuple(f"PokerEngine.equity({b[0]})" for b in BAD_EQUITY)


@pytest.mark.parametrize("i", range(len(BAD_EQUITY)), ids=[b[0] for b in BAD_EQUITY])
def test_equity_rejects_bad_arguments_naming_them(engine, i):
    _, kind, message = BAD_EQUITY[i]
    r = engine.table(BAD_EQUITY_EXPRS)[i]
    assert r.get("error") == kind, r
    assert r["message"].startswith(message), r
