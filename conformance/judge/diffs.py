"""Comparing what an engine did with what it should have done, and showing the difference
readably and boundedly (an outcome may be megabytes, a report line may not)."""
from __future__ import annotations

import json
import logging
import math
import re
import reprlib

from deepdiff import DeepDiff

from .comparison import ORDER_FREE, same
from .js_values import js_text


DIFF_LINES = 40
DEEPDIFF_MAX = 25 * DIFF_LINES  # DeepDiff stops after this many differences
# DeepDiff logs a warning whenever max_diffs stops it; we stop it on purpose (readable_diff).
logging.getLogger("deepdiff").setLevel(logging.ERROR)

# ---- comparison ---------------------------------------------------------------------------------

def _order_key(x: object) -> str:
    return json.dumps(x, sort_keys=True, default=repr)


def _equal_up_to_order(actual: object, expected: object, rulings: set[str]) -> bool:
    """``same``, except that ORDER_FREE lists may be permuted; the rulings used go to ``rulings``."""
    if isinstance(actual, dict) and isinstance(expected, dict):
        if actual.keys() != expected.keys():
            return False
        for key, e in expected.items():
            a = actual[key]
            if key in ORDER_FREE and isinstance(a, list) and isinstance(e, list) and not same(a, e):
                if len(a) == len(e) and same(sorted(a, key=_order_key), sorted(e, key=_order_key)):
                    rulings.add(ORDER_FREE[key])
                    continue
                return False
            if not _equal_up_to_order(a, e, rulings):
                return False
        return True
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(
            _equal_up_to_order(a, e, rulings) for a, e in zip(actual, expected))
    return same(actual, expected)


def compare(actual: object, expected: object) -> tuple[str, list[str]]:
    """``("equal", [])``, ``("order", rulings)`` when only ORDER_FREE lists differ in order, or ``("differ", [])``."""
    if same(actual, expected):
        return "equal", []
    rulings: set[str] = set()
    if _equal_up_to_order(actual, expected, rulings):
        return "order", sorted(rulings)
    return "differ", []


_ROOT_KEY = re.compile(r"\['([^'\]]*)'\]")


def _path(text: str) -> str:
    """deepdiff's root['a'][0]['b'] as a[0].b."""
    return _ROOT_KEY.sub(r".\1", text).replace("root.", "").replace("root[", "[")


# Bounded renderings of engine values: an outcome may be megabytes, a report line may not.
_SHOW = reprlib.Repr()
_SHOW.maxlevel, _SHOW.maxlist, _SHOW.maxdict, _SHOW.maxstring, _SHOW.maxother = 3, 8, 8, 120, 120


def show(value: object) -> str:
    """A value as Python shows it, cut to a few hundred characters at most."""
    return _SHOW.repr(value)


def _key(path: str, key: object) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}" if path else key
    return f"{path}[{show(key)}]"


def _changes(expected: object, actual: object, path: str, out: list[str]) -> None:
    """Append the differences of ``actual`` from ``expected`` to ``out``, stopping once it holds more
    than DIFF_LINES: one walk in step, never longer than the smaller value plus DIFF_LINES items,
    so a diff costs little whatever size the engine's answer is."""
    where = path or "the outcome"
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, e in expected.items():
            if len(out) > DIFF_LINES:
                return
            if key in actual:
                _changes(e, actual[key], _key(path, key), out)
            else:
                out.append(f"{_key(path, key)} removed (expected {show(e)})")
        for key in actual:
            if len(out) > DIFF_LINES:
                return
            if key not in expected:
                out.append(f"{_key(path, key)} added: {show(actual[key])}")
    elif isinstance(expected, list) and isinstance(actual, list):
        for k, (e, a) in enumerate(zip(expected, actual)):
            if len(out) > DIFF_LINES:
                return
            _changes(e, a, _key(path, k), out)
        if len(actual) != len(expected):
            extra = actual[len(expected):] if len(actual) > len(expected) else expected[len(actual):]
            out.append(f"{where} has {len(actual)} items, expected {len(expected)}: "
                       f"{'added' if len(actual) > len(expected) else 'missing'} {show(extra)}")
    elif not same(expected, actual):
        if type(expected) is not type(actual) and not (is_number(expected) and is_number(actual)):
            out.append(f"Type of {where} changed from {type(expected).__name__} to {type(actual).__name__} "
                       f"and value changed from {show(expected)} to {show(actual)}")
        else:
            out.append(f"Value of {where} changed from {show(expected)} to {show(actual)}")


def _nodes(value: object, limit: int) -> int:
    """How many values ``value`` holds, a string counting one per 64 characters (DeepDiff line-diffs
    long strings), counting no further than ``limit``."""
    count, todo = 0, [value]
    while todo and count <= limit:
        v = todo.pop()
        count += 1
        if isinstance(v, dict):
            todo.extend(v.keys())
            todo.extend(v.values())
        elif isinstance(v, list):
            todo.extend(v)
        elif isinstance(v, str):
            count += len(v) // 64
    return count


def _deepdiff_lines(expected: object, actual: object) -> list[str]:
    """DeepDiff's report, paths shown as a[0].b; stopped after a few more than DIFF_LINES changes,
    which keeps it fast on outcomes the size of the expected ones."""
    try:
        text = DeepDiff(expected, actual, ignore_numeric_type_changes=True, verbose_level=2,
                        max_diffs=DEEPDIFF_MAX).pretty()
    except Exception:  # noqa: BLE001 - an exotic value: the bounded walk below still reports
        return []
    return [_path(line) if len(line) <= 300 else _path(line[:300]) + " …" for line in text.splitlines() if line]


def readable_diff(expected: object, actual: object) -> str:
    """What changed from the expected to the actual outcome, one change a line (at most DIFF_LINES).

    DeepDiff writes it when the engine's outcome is of the expected outcome's order of size;
    DeepDiff's time grows with the outcome's size whatever its max_diffs, so anything larger, or a
    value DeepDiff cannot report on, goes to our in-step walk, which is bounded by DIFF_LINES.
    """
    lines: list[str] = []
    budget = 4 * _nodes(expected, 1 << 20) + 1000
    stopped = False  # the producer stopped before it saw every change: the count is a lower bound
    if _nodes(actual, budget) <= budget:
        lines = _deepdiff_lines(expected, actual)
        stopped = len(lines) >= DEEPDIFF_MAX
    if not lines:
        stopped = True
        try:
            _changes(expected, actual, "", lines)
        except RecursionError:  # decoding bounds depth; this is only a backstop
            lines.append("(the outcome is nested too deeply to compare further)")
    if not lines:
        return ""
    if len(lines) > DIFF_LINES:  # never cut silently: say how much is left out
        more = len(lines) - DIFF_LINES
        lines = lines[:DIFF_LINES] + [f"… and {'at least ' if stopped else ''}{more} more change{'s' * (more > 1)}"]
    return "\n".join(["(changes from the expected to the actual outcome)"] + lines)


def is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def is_finite(x: object) -> bool:
    return is_number(x) and math.isfinite(x)


def pots_differences(expected: list, actual: list) -> list[str]:
    """How ``actual`` pots differ from ``expected``, in the engine's terms (issue #38, item 5): per
    pot, the amount over or short and each seat eligible that should not be or missing, in
    JavaScript notation (a pot is ``{amount, eligible}``, docs/engine-api.md)."""
    lines: list[str] = []
    for k, (e, a) in enumerate(zip(expected, actual)):
        before = len(lines)
        if not isinstance(a, dict):
            lines.append(f"pots[{k}] is {js_text(a)}, expected {js_text(e)}")
            continue
        if not same(e.get("amount"), a.get("amount")):
            if is_number(a.get("amount")):
                gap = a["amount"] - e["amount"]
                lines.append(f"pots[{k}].amount is {js_text(a['amount'])}, expected {e['amount']}: "
                             f"{abs(gap)} {'over' if gap > 0 else 'short'}")
            else:
                lines.append(f"pots[{k}].amount is {js_text(a.get('amount'))}, expected {e['amount']}")
        eligible = a.get("eligible")
        if not isinstance(eligible, list):
            lines.append(f"pots[{k}].eligible is {js_text(eligible)}, expected {js_text(e['eligible'])}")
            continue
        for x in eligible:
            if x not in e["eligible"]:
                lines.append(f"pots[{k}]: {js_text(x)} is eligible and should not be")
        for x in e["eligible"]:
            if x not in eligible:
                lines.append(f"pots[{k}]: {js_text(x)} should be eligible and is not")
        if len(lines) == before and not same(eligible, e["eligible"]):
            lines.append(f"pots[{k}].eligible is {js_text(eligible)}, expected {js_text(e['eligible'])} (in seat order)")
    for k in range(len(expected), len(actual)):
        lines.append(f"pots[{k}] {js_text(actual[k])} should not be there")
    for k in range(len(actual), len(expected)):
        lines.append(f"pots[{k}] {js_text(expected[k])} is missing")
    return lines
