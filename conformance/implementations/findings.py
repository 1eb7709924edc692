"""Findings: the judge's differences in a real implementation, grouped and explained.

The judge reports each failed vector with the clause of its first divergence, and each divergent
vector with the rulings whose alternatives reproduce it. ``findings.toml`` holds the hand-written
explanations (what the engine does, the clause or ruling, a reproduction, bug or not); ``explain``
assigns every failure and divergence of one implementation to the first finding it fits and counts
them. A difference no finding explains is listed as such, so a new one is never hidden.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

FINDINGS = Path(__file__).with_name("findings.toml")
KINDS = ("bug", "ruling", "convention", "adapter")
UNEXPLAINED = "unexplained"


@dataclass(frozen=True)
class Finding:
    implementation: str
    id: str
    kind: str
    title: str
    what: str
    reproduction: str
    vectors: tuple[str, ...] = ()  # vectors it explains whatever their symptom; the first shows it
    clauses: tuple[str, ...] = ()  # a failure whose first divergence breaks one of these
    where: str = ""  # a failure whose message or diff matches this pattern (with the clauses: both)
    ruling: str = ""  # a divergence proven on this ruling (kind "ruling")
    upstream: str = ""

    def fits_failure(self, failure: dict) -> bool:
        if not (self.clauses or self.where):
            return False
        text = f"{failure.get('message', '')}\n{failure.get('diff', '')}"
        return (not self.clauses or any(c in self.clauses for c in _clauses(failure))) and (
            not self.where or re.search(self.where, text) is not None)

    def fits_divergence(self, divergence: dict) -> bool:
        return bool(self.ruling) and self.ruling in (divergence.get("rulings") or [])


def load(path: Path = FINDINGS) -> list[Finding]:
    """The findings of ``path``, checked: known kinds, distinct ids per implementation."""
    with open(path, "rb") as fh:
        entries = tomllib.load(fh).get("finding", [])
    out: list[Finding] = []
    seen = set()
    for k, entry in enumerate(entries):
        try:
            finding = Finding(**{key: tuple(v) if isinstance(v, list) else v for key, v in entry.items()})
        except TypeError as exc:
            raise ValueError(f"{path.name}: finding {k + 1}: {exc}") from None
        if finding.kind not in KINDS:
            raise ValueError(f"{path.name}: finding {finding.id}: kind {finding.kind!r} is not one of {', '.join(KINDS)}")
        if (finding.implementation, finding.id) in seen:
            raise ValueError(f"{path.name}: finding {finding.id} of {finding.implementation} twice")
        seen.add((finding.implementation, finding.id))
        out.append(finding)
    return out


def of(implementation: str, findings: list[Finding] | None = None) -> list[Finding]:
    """The hand-written findings of ``implementation`` (findings.toml), in the file's order."""
    return [f for f in (load() if findings is None else findings) if f.implementation == implementation]


def match(mine: list[Finding], item: dict, divergent: bool = False) -> Finding | None:
    """The finding that explains one failure (or proven divergence): the first that lists its
    vector, else the first it fits."""
    return next((f for f in mine if item.get("id") in f.vectors), None) or next(
        (f for f in mine if (f.fits_divergence(item) if divergent else f.fits_failure(item))), None)


def explain(implementation: str, failures: list[dict], divergences: list[dict],
            findings: list[Finding] | None = None) -> list[dict]:
    """The findings of ``implementation`` with the vectors they explain (each vector once), the
    not-judged ones (kind ``adapter``), then what nothing explains."""
    mine = of(implementation, findings)
    groups: dict[str, list[dict]] = {f.id: [] for f in mine}
    rest: list[dict] = []
    for item, divergent in [(x, False) for x in failures] + [(x, True) for x in divergences]:
        owner = match(mine, item, divergent)
        (groups[owner.id] if owner else rest).append(item)
    out = []
    for f in mine:
        hits = groups[f.id]
        if not hits and f.kind != "adapter":
            continue  # not seen in this run
        out.append({**described(f), "vectors": len(hits), "first": _first(hits)})
    if rest:
        out.append({"id": UNEXPLAINED, "kind": UNEXPLAINED, "title": "Differences no finding explains yet",
                    "clauses": sorted({c for x in rest for c in _clauses(x)}), "ruling": None, "example": None,
                    "what": "", "reproduction": "", "upstream": None, "vectors": len(rest), "first": _first(rest)})
    return out


def described(f: Finding) -> dict:
    """A finding as the table's JSON shows it."""
    return {"id": f.id, "kind": f.kind, "title": f.title, "clauses": list(f.clauses), "ruling": f.ruling or None,
            "example": f.vectors[0] if f.vectors else None, "what": " ".join(f.what.split()),
            "reproduction": f.reproduction, "upstream": f.upstream or None}


def _clauses(item: dict) -> list[str]:
    """The clause a failure's first divergence breaks (the report's ``breaks``), else its vector's clauses."""
    c = item.get("breaks") or item.get("clause") or []
    return [c] if isinstance(c, str) else list(c)


def _first(items: list[dict]) -> dict | None:
    if not items:
        return None
    x = items[0]
    return {"id": x.get("id"), "message": x.get("message", "")}
