"""JavaScript values that JSON cannot carry, as tagged objects: ``{"$js": "NaN"}``.

Used in vector inputs (seeds such as NaN) and wherever a JS value crosses a JSON
boundary. Tags: ``NaN``, ``Infinity``, ``-Infinity``, ``undefined``.
"""
from __future__ import annotations

import math

TAG = "$js"


class Undefined:
    """JavaScript ``undefined`` on the Python side (``None`` is ``null``)."""

    def __repr__(self) -> str:
        return "undefined"


UNDEFINED = Undefined()
_SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def encode(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        return {TAG: "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")}
    if value is UNDEFINED:
        return {TAG: "undefined"}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return value


def decode(value: object) -> object:
    if isinstance(value, dict):
        if set(value) == {TAG}:
            tag = value[TAG]
            return UNDEFINED if tag == "undefined" else _SPECIAL[tag]
        return {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value
