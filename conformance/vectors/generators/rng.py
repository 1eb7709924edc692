"""Family ``rng``: seeds -> the first outputs of ``PokerEngine.rng(seed)`` (R1).

A seed's flag, and with it the rulings its vector rests on, comes from the seed alone
(:func:`seed_flag`), for the golden and the fresh vectors alike: every numeric string rests on R1
("42" and "9" alike), every boolean too; null and the blank string rest on no ruling (R1's options
name numeric strings and booleans, nothing else)."""
import math

from reference.rng import JSBigInt, is_numeric_string, rng

from conformance.host.jsvalue import encode
from conformance.vectors.vectorfile import make_test

OUTPUTS = 8
NOTES = {
    "Numeric": {"description": "a finite number seed becomes seed >>> 0", "clauses": ["helper.rng"], "ruling": None},
    "Negative": {"description": "negative numbers wrap modulo 2^32 (-1 -> 4294967295)", "clauses": ["helper.rng"], "ruling": None},
    "Fractional": {"description": "fractions truncate toward zero before wrapping", "clauses": ["helper.rng"], "ruling": None},
    "Huge": {"description": "numbers beyond 2^32 reduce modulo 2^32, as >>> 0 does", "clauses": ["helper.rng"], "ruling": None},
    "String": {"description": "other seeds are String()-ed and FNV-1a hashed over code points", "clauses": ["helper.rng"], "ruling": None},
    "NonFinite": {"description": "NaN and Infinity are not finite numbers: they are stringified", "clauses": ["helper.rng"], "ruling": None},
    "Astral": {"description": "astral-plane characters hash as one code point, not two UTF-16 units", "clauses": ["helper.rng"], "ruling": None},
    "NumericString": {"description": "a numeric string is not a number: it is String()-ed and hashed (R1 reads "
                      "'numeric' as typeof 'number'; numeric strings are one of R1's options)", "clauses": ["helper.rng"],
                      "ruling": "R1"},
    "Boolean": {"description": "a boolean is not a number: String(seed) is hashed (R1 reads 'numeric' as typeof "
                "'number'; booleans are one of R1's options)", "clauses": ["helper.rng"], "ruling": "R1"},
    "Null": {"description": "null is not numeric under any of R1's options: String(null), 'null', is hashed",
             "clauses": ["helper.rng"], "ruling": None},
    "BigInt": {"description": "a BigInt is not a number: String(seed) is hashed, so rng(10n) is rng('10') (R32)", "clauses": ["helper.rng"], "ruling": "R32"},
}

SEEDS = [  # slug, seed: each flag is seed_flag(seed)
    ("zero", 0), ("one", 1), ("42", 42), ("2p31", 2**31), ("max-u32", 2**32 - 1),
    ("minus-one", -1), ("minus-42", -42), ("minus-2p31", -(2**31)),
    ("3.7", 3.7), ("minus-3.7", -3.7), ("half", 0.5), ("tiny", 1e-9),
    ("2p32", 2**32), ("2p32-plus-5", 2**32 + 5), ("max-safe", 2**53 - 1), ("1e21", 1e21),
    ("max-double", 1.7976931348623157e308), ("minus-1e300", -1e300),
    ("abc", "abc"), ("seed", "seed"), ("numeric-string-42", "42"), ("numeric-string-9", "9"),
    ("empty", ""), ("accented", "\u00e9t\u00e9"), ("cjk", "\u65e5\u672c"), ("lone-surrogate", "\ud800"),
    ("emoji", "\U0001F600"), ("emoji-inside", "a\U0001F600b"), ("math-fraktur", "\U0001D518\U0001D52B"),
    ("nan", math.nan), ("infinity", math.inf), ("minus-infinity", -math.inf),
    ("true", True), ("false", False), ("null", None),
    ("bigint-10", JSBigInt(10)), ("bigint-minus-1", JSBigInt(-1)), ("bigint-2p64", JSBigInt(2**64)),
]


def seed_flag(seed: object) -> str:
    """The flag of a seed's vector, by one rule for every vector of the family (golden or fresh)."""
    if isinstance(seed, JSBigInt):
        return "BigInt"
    if isinstance(seed, bool):
        return "Boolean"
    if seed is None:
        return "Null"
    if isinstance(seed, (int, float)):
        if not math.isfinite(seed):
            return "NonFinite"
        if seed != math.trunc(seed):
            return "Fractional"
        return "Huge" if abs(seed) >= 2**32 else "Negative" if seed < 0 else "Numeric"
    if is_numeric_string(seed):
        return "NumericString"
    return "Astral" if any(ord(ch) >= 0x10000 for ch in seed) else "String"


def seed_test(test_id: str, seed: object) -> dict:
    """The vector of ``seed``: its first OUTPUTS values, flagged by :func:`seed_flag`."""
    stream = rng(seed)
    return make_test(NOTES, test_id, f"rng({seed!r}): the first {OUTPUTS} outputs", ["helper.rng"],
                     {"seed": encode(seed), "count": OUTPUTS}, {"values": [stream() for _ in range(OUTPUTS)]},
                     [seed_flag(seed)])


def generate() -> list[dict]:
    return [seed_test(f"rng.{slug}", seed) for slug, seed in SEEDS]
