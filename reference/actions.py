"""The bot's answer: parsing (R19) and the return-value rules (contract, Return values)."""
from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import NamedTuple

from .errors import IllegalAction
from .rng import MAX_SAFE_INTEGER, JSBigInt

ACTION_TYPES = ("fold", "check", "call", "raise", "allin")
STRING_FORMS = ("fold", "check", "call", "allin")
# holdem-sng-3-v4's words mapped onto the contract's (R24): all_in is allin; bet is a raise that
# opens a street (only when nothing is bet yet).
V4_WORDS = {"all_in": "allin", "bet": "bet"}
_NO_WORDS: dict[str, str] = {}  # the contract's vocabulary: no extra words (never mutated)


class Legal(NamedTuple):
    """What the seat to act may do (the decision state's betting fields)."""

    to_call: int
    current_bet: int
    min_raise_to: int | None
    max_raise_to: int
    can_check: bool
    can_allin: bool
    last_full_raise: int


def parse_answer(answer: object, vocabulary: str = "contract") -> tuple[str, int | None]:
    """An answer in any accepted form -> ``(type, amount)``; amount only for raise (and v4's bet).

    Raises IllegalAction (code ``malformed``, ``raise-without-amount``,
    ``unknown-type``, ``amount-missing`` or ``amount-not-safe-integer``).
    """
    words = V4_WORDS if vocabulary == "v4" else _NO_WORDS
    if isinstance(answer, str):
        if answer in STRING_FORMS:
            return answer, None
        if answer in ("raise", "bet") and (answer == "raise" or words):
            raise IllegalAction("action", f'"{answer}" alone is invalid: it lacks an amount', "raise-without-amount")
        if answer in words:
            return words[answer], None
        raise IllegalAction("action", f"unknown action string {json.dumps(answer, ensure_ascii=False)[:60]} (accepted: {', '.join(STRING_FORMS)})", "malformed")
    if not isinstance(answer, Mapping):
        raise IllegalAction("action", f"expected a string or an object with a type, got {js_describe(answer)}", "malformed")
    kind = answer.get("type")
    if isinstance(kind, str) and kind in words:
        kind = words[kind]
    elif not isinstance(kind, str) or kind not in ACTION_TYPES:
        what = json.dumps(kind) if isinstance(kind, str) else js_describe(kind)
        if "type" not in answer:  # an absent field reads as undefined in JavaScript, not null
            what = "undefined"
        raise IllegalAction("type", f"unknown action type {what} (accepted: {', '.join(ACTION_TYPES)})", "unknown-type")
    if kind not in ("raise", "bet"):
        return kind, None
    if "amount" not in answer:
        raise IllegalAction("amount", "a raise needs an amount (the street total)", "amount-missing")
    return kind, safe_integer(answer["amount"])


def safe_integer(amount: object) -> int:
    """JavaScript's Number.isSafeInteger on a Python value (an integral float counts; a BigInt, a
    JSBigInt here, is no Number)."""
    if isinstance(amount, (bool, JSBigInt)) or not isinstance(amount, (int, float)):
        raise IllegalAction("amount", f"must be a number, got {js_describe(amount)}", "amount-not-safe-integer")
    if isinstance(amount, float):
        if not math.isfinite(amount) or not amount.is_integer():
            raise IllegalAction("amount", f"must be a safe integer, got {js_number(amount)}", "amount-not-safe-integer")
        amount = int(amount)
    if abs(amount) > MAX_SAFE_INTEGER:
        raise IllegalAction("amount", f"must be a safe integer, got {amount}", "amount-not-safe-integer")
    return amount


def check_legal(kind: str, amount: int | None, legal: Legal) -> None:
    """Raise IllegalAction unless ``(kind, amount)`` is legal under ``legal``."""
    if kind == "check" and not legal.can_check:
        raise IllegalAction("type", f"check is not legal: {legal.to_call} to call", "check-not-allowed")
    if kind == "call" and legal.can_check:
        raise IllegalAction("type", "call is not legal when checking is possible", "call-not-allowed")
    if kind == "allin" and not legal.can_allin:
        raise IllegalAction("type", "all-in is not legal: it would be a raise and raising is closed", "allin-not-allowed")
    if kind == "bet" and legal.current_bet > 0:
        raise IllegalAction("type", f"bet only opens a street; {legal.current_bet} is already bet: raise", "bet-not-allowed")
    if kind not in ("raise", "bet"):
        return
    if legal.min_raise_to is None:
        raise IllegalAction("type", "raising is not permitted (minRaiseTo is null)", "raise-not-allowed")
    assert amount is not None
    if amount <= legal.current_bet:
        raise IllegalAction("amount", f"{amount} does not exceed currentBet {legal.current_bet}", "amount-not-above-current-bet")
    if amount > legal.max_raise_to:
        raise IllegalAction("amount", f"{amount} exceeds maxRaiseTo {legal.max_raise_to}", "amount-above-max")
    if amount < legal.min_raise_to and amount != legal.max_raise_to:
        raise IllegalAction(
            "amount",
            f"{amount} is below minRaiseTo {legal.min_raise_to} and is not the all-in {legal.max_raise_to}",
            "amount-below-min",
        )


def fallback(legal: Legal) -> str:
    """The contract's fallback: check if legal, otherwise fold."""
    return "check" if legal.can_check else "fold"


def js_describe(value: object) -> str:
    """A value in the words of the JavaScript that produced it (a bot author reads these): null,
    undefined, true, the number 1.5, the string "x", an array, an object, BigInt 12n; never a
    Python type name."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {js_number(value)}"
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        return f"the string {text if len(text) <= 42 else text[:40] + '…'}"
    if isinstance(value, (list, tuple)):
        return f"an array of {len(value)}"
    if isinstance(value, Mapping):
        return "an object"
    tag, info = getattr(value, "tag", None), getattr(value, "info", None)  # the host's JSValue
    if tag == "bigint":
        return f"BigInt {info}n"
    if tag == "toolong":  # a string past the answer bound (R34): only its length crossed
        return f"a string of {info} characters"
    if tag in ("symbol", "function", "promise"):
        return f"a {tag}" + (f" {info}" if isinstance(info, str) and info else "")
    if tag is not None:
        return f"a JavaScript {tag}"
    return str(value)[:40]  # undefined's str is "undefined"


def js_number(value: float) -> str:
    """A number as JavaScript prints it (1, 1.5, NaN, Infinity)."""
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e21 else repr(value)


def js_text(value: object) -> str:
    """A transported value written as a JavaScript literal (null, true, NaN, "x", 12n,
    {type: "raise", amount: 5000}): how a report shows a bot's answer and a state's fields."""
    if value is None or isinstance(value, bool):
        return js_describe(value)
    if isinstance(value, (int, float)):
        return "-0" if value == 0 and math.copysign(1, value) < 0 else js_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(js_text(v) for v in value[:8]) + (", ..." if len(value) > 8 else "") + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {js_text(v)}" for k, v in list(value.items())[:8]) + "}"
    if getattr(value, "tag", None) == "bigint":
        return f"{value.info}n"  # type: ignore[attr-defined]
    return js_describe(value)  # undefined, and what has no literal (a symbol, a function, a promise)
