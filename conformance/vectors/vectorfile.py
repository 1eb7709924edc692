"""Golden vector files: their layout, canonical bytes, and structural checks.

A file (``vectors/<family>/<family>.json``) is modelled on Wycheproof's: a header
(family, schema, contract version, generator, ``numberOfTests``, ``notes`` that
explain every flag with its clauses and ruling) and ``tests``, each with a stable
``id``, the clause ids it exercises, its flags and rulings, a ``result``
(``valid`` / ``invalid`` / ``acceptable``), ``input`` and ``expected``.
docs/INTERPRETING.md says how a runner judges each family.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable

from .clauses import CLAUSES

GENERATOR = {"name": "holdem-conformance reference", "version": "0.1.0"}
SCHEMA_BASE = "https://holdem-conformance.dev/schemas/"
CONTRACT_VERSION = 1
RESULTS = ("valid", "invalid", "acceptable")
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$")
RULING_PATTERN = re.compile(r"^R[1-9][0-9]*$")


def schema_id(family: str) -> str:
    return f"{SCHEMA_BASE}vectors/{family}.schema.json"


def ruling_key(ruling: str) -> int:
    return int(ruling[1:])


def make_test(
    notes: dict[str, dict],
    id: str,
    comment: str,
    clauses: Iterable[str],
    input: dict,
    expected: dict,
    flags: Iterable[str] = (),
    result: str | None = None,
) -> dict:
    """One test. Its rulings are those of its flags; a test resting on a ruling is
    ``acceptable`` unless it must be rejected whatever the ruling (``invalid``)."""
    flags = sorted(set(flags))
    for f in flags:
        if f not in notes:
            raise KeyError(f"test {id}: flag {f!r} has no note")
    clauses = sorted(set(clauses) | {c for f in flags for c in notes[f]["clauses"]})
    for c in clauses:
        if c not in CLAUSES:
            raise KeyError(f"test {id}: unknown clause {c!r}")
    rulings = sorted({notes[f]["ruling"] for f in flags if notes[f].get("ruling")}, key=ruling_key)
    if result is None:
        result = "acceptable" if rulings else "valid"
    return {
        "id": id,
        "comment": comment,
        "clauses": clauses,
        "flags": flags,
        "rulings": rulings,
        "result": result,
        "input": input,
        "expected": expected,
    }


def document(family: str, notes: dict[str, dict], tests: list[dict]) -> dict:
    used = {f for t in tests for f in t["flags"]}
    return {
        "family": family,
        "schema": schema_id(family),
        "contractVersion": CONTRACT_VERSION,
        "generator": dict(GENERATOR),
        "numberOfTests": len(tests),
        "notes": {f: notes[f] for f in sorted(used)},
        "tests": tests,
    }


def _compact(value: object) -> str:
    # ASCII escapes keep the bytes canonical (and carry lone surrogates safely).
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def dumps(doc: dict) -> str:
    """Canonical text: a readable header, then one test per line (diff-friendly, compact)."""
    lines = ["{"]
    for key in ("family", "schema", "contractVersion", "generator", "numberOfTests"):
        lines.append(f" {_compact(key)}:{_compact(doc[key])},")
    lines.append(' "notes":{')
    notes = list(doc["notes"].items())
    for i, (flag, note) in enumerate(notes):
        lines.append(f"  {_compact(flag)}:{_compact(note)}{',' if i < len(notes) - 1 else ''}")
    lines.append(" },")
    lines.append(' "tests":[')
    tests = doc["tests"]
    for i, test in enumerate(tests):
        lines.append(f"  {_compact(test)}{',' if i < len(tests) - 1 else ''}")
    lines.append(" ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def structural_problems(doc: dict, family: str) -> list[str]:
    """What is wrong with a vector document beyond its JSON Schema: ids, counts, flags, clauses."""
    problems = []
    tests = doc.get("tests", [])
    if doc.get("family") != family:
        problems.append(f"family is {doc.get('family')!r}, expected {family!r}")
    if doc.get("numberOfTests") != len(tests):
        problems.append(f"numberOfTests is {doc.get('numberOfTests')}, but there are {len(tests)} tests")
    seen: set[str] = set()
    notes = doc.get("notes", {})
    for t in tests:
        tid = t.get("id")
        if tid in seen:
            problems.append(f"duplicate test id {tid!r}")
        seen.add(tid)
        if not isinstance(tid, str) or not ID_PATTERN.match(tid) or not tid.startswith(family + "."):
            problems.append(f"test id {tid!r} is not '{family}.<slug>'")
        for f in t.get("flags", []):
            if f not in notes:
                problems.append(f"test {tid}: flag {f!r} is not defined in notes")
        for c in t.get("clauses", []):
            if c not in CLAUSES:
                problems.append(f"test {tid}: unknown clause {c!r}")
        if not t.get("clauses"):
            problems.append(f"test {tid}: cites no clause")
        expected_rulings = sorted({notes[f].get("ruling") for f in t.get("flags", []) if f in notes and notes[f].get("ruling")}, key=ruling_key)
        if t.get("rulings") != expected_rulings:
            problems.append(f"test {tid}: rulings {t.get('rulings')} differ from its flags' {expected_rulings}")
        if t.get("result") == "acceptable" and not t.get("rulings"):
            problems.append(f"test {tid}: acceptable but rests on no ruling")
    return problems
