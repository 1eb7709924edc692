"""``rng(seed)`` (mulberry32) and ``deal_hand(seed, hand_number)``.

Seeds follow JavaScript: a finite number becomes ``seed >>> 0``; anything else
is stringified as ``String(seed)`` and hashed with 32-bit FNV-1a over Unicode
code points (ruling R1). ``deal_hand`` is derived from ``rng`` as ruling R2 says.
"""
from __future__ import annotations

import math
import re
from typing import Callable

from .cards import CANONICAL_DECK
from .errors import SeedError

MAX_SAFE_INTEGER = 2**53 - 1
_U32 = 0xFFFFFFFF


def js_number_string(x: float) -> str:
    """JavaScript's ``Number.prototype.toString()`` for a double (ECMA-262 Number::toString)."""
    if x != x:
        return "NaN"
    if x == 0:
        return "0"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x < 0:
        return "-" + js_number_string(-x)
    # Shortest round-trip digits, as both Python's repr and JS use.
    mantissa, _, exp = f"{x!r}".partition("e") if "e" in repr(x) else (repr(x), "", "0")
    digits = mantissa.replace(".", "").lstrip("0")
    point = mantissa.find(".") if "." in mantissa else len(mantissa)
    lead_zeros = len(mantissa.replace(".", "")) - len(mantissa.replace(".", "").lstrip("0"))
    n = point - lead_zeros + int(exp)  # position of the decimal point relative to digits
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    body = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{body}e{sign}{abs(e)}"


class JSBigInt(int):
    """A JavaScript BigInt seed (``10n``): ``String(10n)`` is ``"10"`` (R32)."""

    def __repr__(self) -> str:
        return f"{int(self)}n"


class JSNumberObject:
    """A boxed JavaScript Number (``new Number(x)``): an object, ``String()`` of its value (R32)."""

    def __init__(self, value: float):
        self.value = value

    def __repr__(self) -> str:
        return f"new Number({self.value!r})"


def js_string(value: object) -> str:
    """JavaScript's ``String(value)`` for the Python values that map onto JS ones.

    ``None`` stands for ``null``; lists and tuples are JS arrays (``join(',')``,
    with null elements empty); dicts are plain objects.
    """
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, JSBigInt):
        return str(int(value))
    if isinstance(value, JSNumberObject):
        return js_string(value.value)
    if isinstance(value, (int, float)):
        return js_number_string(_as_double(value, "seed"))
    if isinstance(value, (list, tuple)):
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    raise SeedError("seed", f"a {type(value).__name__} has no JavaScript equivalent")


def _as_double(value: int | float, field: str) -> float:
    try:
        return float(value)
    except OverflowError:
        raise SeedError(field, f"{value} is too large for a JavaScript number") from None


def to_uint32(x: float) -> int:
    """JavaScript's ``x >>> 0`` for a finite number: truncate toward zero, modulo 2**32."""
    return math.trunc(x) % 2**32


def js_code_points(text: str) -> str:
    """``text`` as JavaScript's ``for...of`` iterates it: a Python str may hold a surrogate pair as
    two characters, which JS reads as one code point; a lone surrogate stays one code point (R1)."""
    if text.isascii():
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def fnv1a32(text: str) -> int:
    """32-bit FNV-1a over the string's Unicode code points (not UTF-16 units, not bytes)."""
    h = 0x811C9DC5
    for ch in js_code_points(text):
        h = ((h ^ ord(ch)) * 0x01000193) & _U32
    return h


# JavaScript's StrWhiteSpaceChar (WhiteSpace and LineTerminator): what Number(text) trims.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000\ufeff"
_JS_DECIMAL = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")
_JS_RADIX = {"0x": (16, re.compile(r"0[xX][0-9a-fA-F]+")), "0o": (8, re.compile(r"0[oO][0-7]+")),
             "0b": (2, re.compile(r"0[bB][01]+"))}


def is_numeric_string(text: str) -> bool:
    """Whether ``Number(text)`` is a finite number for a string that is not blank: R1's "numeric
    string" (``"42"``, ``" 9 "``, ``"-3.5e2"``, ``"0x1F"``), the reading R1 leaves open. A blank
    string is no numeric string (``Number("")`` is 0 only by JavaScript's coercion of emptiness)."""
    body = text.strip(_JS_SPACE)
    if not body:
        return False
    radix = _JS_RADIX.get(body[:2].lower())
    try:
        if radix is not None:
            return radix[1].fullmatch(body) is not None and math.isfinite(float(int(body[2:], radix[0])))
        return _JS_DECIMAL.fullmatch(body) is not None and math.isfinite(float(body))
    except OverflowError:  # beyond the largest double: Number() gives Infinity
        return False


def seed_to_uint32(seed: object, numeric_like: bool = False) -> int:
    """The 32-bit state ``rng(seed)`` starts from. ``numeric_like`` plays R32's alternative: a
    BigInt in the safe-integer range and a boxed finite Number count as the number they hold."""
    if numeric_like:
        if isinstance(seed, JSBigInt) and abs(seed) <= MAX_SAFE_INTEGER:
            seed = int(seed)
        elif isinstance(seed, JSNumberObject):
            seed = seed.value
    if isinstance(seed, JSBigInt):  # R32: a BigInt is another seed, stringified
        return fnv1a32(js_string(seed))
    if isinstance(seed, (int, float)) and not isinstance(seed, bool):
        x = _as_double(seed, "seed")
        if math.isfinite(x):
            return to_uint32(x)
    return fnv1a32(js_string(seed))


def mulberry32(state: int) -> Callable[[], float]:
    """The mulberry32 generator from a 32-bit state: a function returning floats in [0, 1)."""
    a = state & _U32

    def next_float() -> float:
        nonlocal a
        a = (a + 0x6D2B79F5) & _U32
        t = ((a ^ (a >> 15)) * (a | 1)) & _U32
        t = ((t + (((t ^ (t >> 7)) * (t | 61)) & _U32)) & _U32) ^ t
        return ((t ^ (t >> 14)) & _U32) / 4294967296

    return next_float


def rng(seed: object, numeric_like: bool = False) -> Callable[[], float]:
    """``PokerEngine.rng(seed)``: a mulberry32 function producing values in [0, 1) (R1; R32's
    alternative with ``numeric_like``)."""
    return mulberry32(seed_to_uint32(seed, numeric_like))


def check_hand_number(hand_number: object) -> int:
    """A positive safe integer (an integral float is the same JS number)."""
    if isinstance(hand_number, bool) or not isinstance(hand_number, (int, float)):
        raise SeedError("handNumber", f"expected a positive safe integer, got {hand_number!r}")
    if isinstance(hand_number, float):
        if not hand_number.is_integer():
            raise SeedError("handNumber", f"expected a positive safe integer, got {hand_number!r}")
        hand_number = int(hand_number)
    if not 1 <= hand_number <= MAX_SAFE_INTEGER:
        raise SeedError("handNumber", f"must be between 1 and {MAX_SAFE_INTEGER}, got {hand_number}")
    return hand_number


def deal_hand(seed: object, hand_number: object) -> list[str]:
    """``PokerEngine.dealHand(seed, handNumber)``: a fresh 52-card order (ruling R2).

    The stream is ``rng("<seed32>:<handNumber>")`` where seed32 is the state
    ``rng(seed)`` would start from; the canonical deck (suit-major ``2c..As``)
    is shuffled by Fisher-Yates from the last index down. Card 0 is dealt first (R3).
    """
    n = check_hand_number(hand_number)
    # mulberry32 inlined: dealing is on every hand's path (same arithmetic as mulberry32 above).
    a = fnv1a32(f"{seed_to_uint32(seed)}:{n}")
    deck = list(CANONICAL_DECK)
    mask = _U32
    for i in range(51, 0, -1):
        a = (a + 0x6D2B79F5) & mask
        t = ((a ^ (a >> 15)) * (a | 1)) & mask
        t = ((t + (((t ^ (t >> 7)) * (t | 61)) & mask)) & mask) ^ t
        j = ((t ^ (t >> 14)) & mask) * (i + 1) >> 32  # floor(x * (i + 1)) with x = value / 2^32
        deck[i], deck[j] = deck[j], deck[i]
    return deck
