"""The committed golden vectors: regenerate (byte-identical), check, and clause coverage."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from conformance.outfiles import write_text
from conformance.resources import VECTOR_DIR
from . import ruling_lint, schemas
from .clauses import CLAUSES, NOT_BY_VECTOR
from .gamespec import GAME_FAMILIES, pin_cards
from .generators import FAMILIES
from .vectorfile import document, dumps, structural_problems



def path_of(family: str, root: Path = VECTOR_DIR) -> Path:
    return root / family / f"{family}.json"


def generate(family: str) -> str:
    module = FAMILIES[family]
    tests = module.generate()
    if family in GAME_FAMILIES:
        tests = [pin_cards(family, t) for t in tests]
    notes = dict(module.NOTES)
    if family in ruling_lint.DERIVED:  # the rulings a result depends on, found by playing them (issue #24)
        tests = [ruling_lint.derive(family, t, notes) for t in tests]
    return dumps(document(family, notes, tests))


def regenerate(root: Path = VECTOR_DIR, families: list[str] | None = None) -> dict[str, int]:
    """Rewrite the vector files; returns tests per family. Generation happens before any write."""
    texts = {f: generate(f) for f in (families or list(FAMILIES))}
    for family, text in texts.items():
        path_of(family, root).parent.mkdir(parents=True, exist_ok=True)
        write_text(path_of(family, root), text)
    return {f: json.loads(t)["numberOfTests"] for f, t in texts.items()}


def load(family: str, root: Path = VECTOR_DIR) -> dict:
    return json.loads(path_of(family, root).read_text(encoding="utf-8"))


def check(root: Path = VECTOR_DIR, families: list[str] | None = None) -> list[str]:
    """Every problem with the committed vectors: missing, unparsable, schema, structure, stale."""
    problems = []
    for family in families or list(FAMILIES):
        path = path_of(family, root)
        if not path.is_file():
            problems.append(f"{family}: {path} is missing (run 'holdem-cert vectors regenerate')")
            continue
        text = path.read_text(encoding="utf-8")
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            problems.append(f"{family}: not JSON: {exc}")
            continue
        problems += [f"{family}: schema: {e}" for e in schemas.errors(f"vectors/{family}", doc)]
        problems += [f"{family}: {p}" for p in structural_problems(doc, family)]
        if text != generate(family):
            problems.append(f"{family}: differs from a fresh generation (run 'holdem-cert vectors regenerate' and review the diff)")
    extra = sorted(p.name for p in root.iterdir() if p.is_dir() and p.name not in FAMILIES) if root.is_dir() else []
    problems += [f"{name}: not a known vector family" for name in extra]
    return problems


def coverage(root: Path = VECTOR_DIR) -> tuple[Counter, int]:
    """Vectors per clause id over the committed files, and the number of vectors."""
    counts: Counter = Counter()
    total = 0
    for family in FAMILIES:
        if not path_of(family, root).is_file():
            continue
        for test in load(family, root)["tests"]:
            total += 1
            counts.update(test["clauses"])
    return counts, total


def uncovered(counts: Counter) -> list[str]:
    """The clauses no vector holds, but those checked otherwise (clauses.NOT_BY_VECTOR)."""
    return [c for c in CLAUSES if counts[c] == 0 and c not in NOT_BY_VECTOR]
