"""rng (R1), deal_hand (R2) and cards: seeds as JavaScript sees them, FNV-1a over code points."""
import json
import shutil
import subprocess

import pytest
from hypothesis import given, strategies as st

from reference.cards import CANONICAL_DECK, check_card
from reference.errors import CardError, SeedError
from reference.rng import deal_hand, fnv1a32, js_number_string, mulberry32, rng, seed_to_uint32

NODE = shutil.which("node")
MULBERRY_JS = """
function m(a){return function(){a|=0;a=a+0x6D2B79F5|0;var t=Math.imul(a^a>>>15,1|a);
t=t+Math.imul(t^t>>>7,61|t)^t;return((t^t>>>14)>>>0)/4294967296}}
function fnv(s){let h=0x811c9dc5;for(const ch of s){h^=ch.codePointAt(0);h=Math.imul(h,0x01000193)>>>0;}return h>>>0}
function seed(s){return (typeof s==='number'&&Number.isFinite(s))?s>>>0:fnv(String(s))}
"""


def first(seed, k=5):
    r = rng(seed)
    return [r() for _ in range(k)]


@pytest.mark.parametrize("seed,state", [(0, 0), (-1, 4294967295), (3.7, 3), (-3.7, 4294967293), (2**32, 0),
                                        (2**32 + 5, 5), (1e21, int(1e21) % 2**32), (-0.0, 0), (4294967296.5, 0)])
def test_finite_numbers_become_unsigned_32_bit(seed, state):
    assert seed_to_uint32(seed) == state
    stream = mulberry32(state)
    assert first(seed) == [stream() for _ in range(5)]


def test_fnv1a_published_vectors():
    assert fnv1a32("") == 0x811C9DC5 and fnv1a32("a") == 0xE40C292C and fnv1a32("foobar") == 0xBF9CF968


def test_fnv1a_iterates_code_points_not_utf16_units_or_bytes():
    expected = ((0x811C9DC5 ^ 0x1F600) * 0x01000193) % 2**32
    assert fnv1a32("😀") == expected
    utf16 = 0x811C9DC5
    for unit in (0xD83D, 0xDE00):
        utf16 = ((utf16 ^ unit) * 0x01000193) % 2**32
    assert fnv1a32("😀") != utf16
    assert fnv1a32("😀") != fnv1a32("😀".encode().decode("latin-1"))


@pytest.mark.parametrize("seed,text", [(float("nan"), "NaN"), (float("inf"), "Infinity"), (float("-inf"), "-Infinity"),
                                       (True, "true"), (None, "null"), ([1, None, "a"], "1,,a"), ({}, "[object Object]")])
def test_other_seeds_are_stringified_as_javascript_does(seed, text):
    assert first(seed) == first(text)


def test_numeric_string_is_hashed_not_parsed():
    assert first("3") != first(3)


@given(st.one_of(st.integers(-2**60, 2**60), st.floats(allow_nan=True), st.text(max_size=8)))
def test_outputs_are_in_unit_interval_and_deterministic(seed):
    values = first(seed, 20)
    assert values == first(seed, 20) and all(0 <= v < 1 for v in values)


def test_seed_without_javascript_equivalent_is_an_error():
    with pytest.raises(SeedError) as exc:
        rng(object())
    assert exc.value.field == "seed"


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_agrees_with_the_javascript_original_in_node():
    seeds = [0, 1, -1, 3.7, 1e21, 2**31, "abc", "", "😀x", "\ud800", "NaN"]
    script = MULBERRY_JS + "const seeds=" + json.dumps(seeds) + ";"  # ASCII escapes carry the lone surrogate
    script += "console.log(JSON.stringify(seeds.map(s=>{const r=m(seed(s));return [r(),r(),r()]})))"
    out = subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [first(s, 3) for s in seeds]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_js_number_string_matches_node():
    numbers = [1e21, 1e20, 1.5e-7, 1e-6, 123.456, 0.1, 2**53, 1.7976931348623157e308, 5e-324, -42.5, 100, 1e-7]
    out = subprocess.run([NODE, "-e", f"console.log(JSON.stringify({json.dumps(numbers)}.map(String)))"],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [js_number_string(x) for x in numbers]


# -- deal_hand (R2, R3) ------------------------------------------------------------------
def derive(seed, number):
    """R2 written out independently: rng("<seed32>:<n>") drives Fisher-Yates over the canonical deck."""
    stream = rng(f"{seed_to_uint32(seed)}:{number}")
    deck = [r + s for s in "cdhs" for r in "23456789TJQKA"]
    for i in range(51, 0, -1):
        j = int(stream() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@given(st.one_of(st.integers(-2**40, 2**40), st.text(max_size=6)), st.integers(1, 2**53 - 1))
def test_deal_hand_follows_the_ruling_and_is_a_permutation(seed, number):
    deck = deal_hand(seed, number)
    assert deck == derive(seed, number) and sorted(deck) == sorted(CANONICAL_DECK)


def test_deal_hand_depends_only_on_its_arguments():
    assert deal_hand(42, 1) == deal_hand(42, 1) == deal_hand(42.9, 1.0)
    assert deal_hand(42, 1) != deal_hand(42, 2) and deal_hand(42, 1) != deal_hand(43, 1)
    deck = deal_hand(42, 1)
    deck.pop()
    assert len(deal_hand(42, 1)) == 52  # a fresh list every call


@pytest.mark.parametrize("number", [0, -1, 1.5, 2**53, "1", True, None, float("nan")])
def test_deal_hand_rejects_bad_hand_numbers(number):
    with pytest.raises(SeedError) as exc:
        deal_hand(1, number)
    assert exc.value.field == "handNumber"


@pytest.mark.parametrize("card", ["ah", "1h", "10h", "Ax", "A", "Ahh", "", 5, None, ["Ah"], {"r": "A"}])
def test_bad_cards_are_named(card):
    with pytest.raises(CardError) as exc:
        check_card(card)
    assert repr(card) in str(exc.value)
