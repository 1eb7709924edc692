"""Family ``rng``: seeds -> the first outputs of ``PokerEngine.rng(seed)`` (R1)."""
import math

from reference.rng import JSBigInt, rng

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
    "OtherType": {"description": "booleans and null are stringified as JavaScript does (R1)", "clauses": ["helper.rng"], "ruling": "R1"},
    "BigInt": {"description": "a BigInt is not a number: String(seed) is hashed, so rng(10n) is rng('10') (R32)", "clauses": ["helper.rng"], "ruling": "R32"},
}

SEEDS = [
    ("Numeric", "zero", 0), ("Numeric", "one", 1), ("Numeric", "42", 42), ("Numeric", "2p31", 2**31),
    ("Numeric", "max-u32", 2**32 - 1),
    ("Negative", "minus-one", -1), ("Negative", "minus-42", -42), ("Negative", "minus-2p31", -(2**31)),
    ("Fractional", "3.7", 3.7), ("Fractional", "minus-3.7", -3.7), ("Fractional", "half", 0.5), ("Fractional", "tiny", 1e-9),
    ("Huge", "2p32", 2**32), ("Huge", "2p32-plus-5", 2**32 + 5), ("Huge", "max-safe", 2**53 - 1), ("Huge", "1e21", 1e21),
    ("Huge", "max-double", 1.7976931348623157e308), ("Huge", "minus-1e300", -1e300),
    ("String", "abc", "abc"), ("String", "seed", "seed"), ("NumericString", "numeric-string-42", "42"),
    ("String", "empty", ""), ("String", "accented", "\u00e9t\u00e9"), ("String", "cjk", "\u65e5\u672c"),
    ("String", "lone-surrogate", "\ud800"),
    ("Astral", "emoji", "\U0001F600"), ("Astral", "emoji-inside", "a\U0001F600b"), ("Astral", "math-fraktur", "\U0001D518\U0001D52B"),
    ("NonFinite", "nan", math.nan), ("NonFinite", "infinity", math.inf), ("NonFinite", "minus-infinity", -math.inf),
    ("OtherType", "true", True), ("OtherType", "false", False), ("OtherType", "null", None),
    ("BigInt", "bigint-10", JSBigInt(10)), ("BigInt", "bigint-minus-1", JSBigInt(-1)),
    ("BigInt", "bigint-2p64", JSBigInt(2**64)),
]


def generate() -> list[dict]:
    tests = []
    for flag, slug, seed in SEEDS:
        stream = rng(seed)
        tests.append(make_test(
            NOTES, f"rng.{slug}", f"rng({seed!r}): the first {OUTPUTS} outputs", ["helper.rng"],
            {"seed": encode(seed), "count": OUTPUTS}, {"values": [stream() for _ in range(OUTPUTS)]}, [flag],
        ))
    return tests
