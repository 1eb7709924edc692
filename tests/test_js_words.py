"""Messages a bot author reads name values in JavaScript words: null, undefined, BigInt, the
number 1.5, the string "x"; never Python's (None, NoneType, JSValue(...), nan, 'x')."""
import math

import pytest

from conformance.host.jsvalue import UNDEFINED
from conformance.host.worker import JSValue
from reference.actions import js_describe, parse_answer
from reference.errors import IllegalAction


@pytest.mark.parametrize("value, words", [
    (None, "null"), (UNDEFINED, "undefined"), (True, "true"), (3, "the number 3"), (2.0, "the number 2"),
    (1.5, "the number 1.5"), (math.nan, "the number NaN"), (-math.inf, "the number -Infinity"),
    ("call", 'the string "call"'), ([1, 2], "an array of 2"), ({"type": 1}, "an object"),
    (JSValue("bigint", "12"), "BigInt 12n"), (JSValue("function", "act"), "a function act"),
])
def test_values_in_javascript_words(value, words):
    assert js_describe(value) == words


@pytest.mark.parametrize("answer, message", [
    ({"type": None}, "unknown action type null"),
    ({"type": UNDEFINED}, "unknown action type undefined"),
    ({"type": "shove"}, 'unknown action type "shove"'),
    (None, "got null"),
    (JSValue("bigint", "12"), "got BigInt 12n"),
    ({"type": "raise", "amount": None}, "must be a number, got null"),
    ({"type": "raise", "amount": math.nan}, "must be a safe integer, got NaN"),
    ("shove", 'unknown action string "shove"'),
])
def test_answer_messages_use_javascript_words(answer, message):
    with pytest.raises(IllegalAction) as err:
        parse_answer(answer)
    text = str(err.value)
    assert message in text
    for python in ("None", "JSValue", "nan", "'"):
        assert python not in text, text
