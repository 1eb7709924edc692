"""JavaScript values that JSON cannot carry, as tagged objects: ``{"$js": "NaN"}``.

Used in vector inputs (seeds such as NaN) and wherever a JS value crosses a JSON
boundary. Tags: ``NaN``, ``Infinity``, ``-Infinity``, ``undefined``, and a BigInt as its JS
literal (``{"$js": "10n"}``, at most BIGINT_DIGITS digits; ``reference.rng.JSBigInt`` in Python, R32).
"""
from __future__ import annotations

import math
import re

from reference.rng import JSBigInt

TAG = "$js"
MAX_DEPTH = 64  # far deeper than any outcome or input of the contract
BIGINT_DIGITS = 100  # far more than any seed needs; bounds int() on engine data
_BIGINT = re.compile(r"-?[0-9]{1,%d}n" % BIGINT_DIGITS)


class Undefined:
    """JavaScript ``undefined`` on the Python side (``None`` is ``null``)."""

    def __repr__(self) -> str:
        return "undefined"


UNDEFINED = Undefined()
_SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def encode(value: object) -> object:
    if isinstance(value, JSBigInt):
        return {TAG: f"{int(value)}n"}
    if isinstance(value, float) and not math.isfinite(value):
        return {TAG: "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")}
    if value is UNDEFINED:
        return {TAG: "undefined"}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return value


def decode(value: object, depth: int = 0) -> object:
    """The Python value of tagged JSON data; ValueError for an unknown tag or data nested deeper
    than MAX_DEPTH levels (it may come from an engine: it must not exhaust our stack)."""
    if depth > MAX_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, dict):
        if set(value) == {TAG}:
            tag = value[TAG]
            if tag == "undefined":
                return UNDEFINED
            if isinstance(tag, str) and tag in _SPECIAL:
                return _SPECIAL[tag]
            if isinstance(tag, str) and _BIGINT.fullmatch(tag):
                return JSBigInt(tag[:-1])
            raise ValueError(f"unknown {TAG} tag {tag!r}"[:200])
        return {k: decode(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v, depth + 1) for v in value]
    return value
