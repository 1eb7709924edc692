"""Root causes: every failure of a run grouped by what it breaks (issue #23, item 3).

A failed vector holds one failure or several (a game's dealing difference and the first
divergence of each hand judged on after it: Case.failures). A cause is the failures that break
one rule of the text (a clause, or the clauses of one rule: ONE_RULE), at the same field (list
indices dropped), with the same kind of difference ("null where a value is due", "more than
due", ...). Where the reference under a ruling option the text rules out reproduces some of them,
the cause names that option for the clause it reproduces (a diagnosis, not an excuse). Each cause
carries its count, the clauses it breaks, the vectors it covers, and its smallest example: the
failure reached in the fewest decisions, preferring one that is its vector's first failure (the
vector's reproduction then shows it).

A run of hundreds of failures reads as its handful of causes: the terminal, the JSON report
(``causes``) and the HTML page show them first, the per-vector list below.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from conformance.vectors.clauses import CLAUSES
from .dealing import DEALT_OTHER_CARDS
from .js_values import js_text
from .difference_kinds import field_of, kind_of, rule_of
from .verdicts import Case, Report

def _failures(case: Case) -> list[dict]:
    """A failed case's failures; one made from its message when the judge recorded none."""
    if case.failures:
        return case.failures
    if case.first is not None:
        return [{**case.first, "later": case.later}]
    clause = case.breaks or (case.clauses[0] if case.clauses else None)
    return [{"hand": None, "decision": None, "path": None, "clause": clause, "kind": case.kind or behaviour(case.message)}]


_CALL = re.compile(r"\b([A-Za-z_$][\w$.]*)\((?:[^()]|\([^()]*\))*\)")
_RETURNED = re.compile(r"\b(returned|got|threw) .*$")
# "rank 3, expected 5" -> "another rank": the behaviour, in words (no "rank N..N" mask)
_EXPECTED = re.compile(r"\b([A-Za-z][\w.]*) (?:-?[\d.]+|undefined|null|true|false|\"[^\"]*\"), expected [^;,)]+")


def behaviour(message: str) -> str:
    """A failure's message without its vector's particulars (issue #38, items 3 and 5): a call's
    arguments (``evaluate([...])`` -> ``evaluate(…)``) and what came back (``returned …``) are the
    vector's, not the behaviour; no number is masked (a title says what it says or nothing)."""
    text = _CALL.sub(lambda m: f"{m.group(1)}(…)", message.split(";")[0])
    text = _EXPECTED.sub(lambda m: f"another {m.group(1)}", text)
    return _RETURNED.sub(lambda m: f"{m.group(1)} another value", text)[:160]


@dataclass
class Cause:
    breaks: str | None
    field: str
    kind: str
    alternative: dict | None  # the ruled-out options that reproduce some of its failures
    count: int = 0
    vectors: list = field(default_factory=list)
    example: dict | None = None  # {"vector", "first", "repro"?}: the smallest example
    clauses: list = field(default_factory=list)  # every clause it breaks, the rule's first one first
    reproduces: dict = field(default_factory=dict)  # clause -> the option reproducing its failures
    _rank: tuple = ()

    classified: bool = False  # the kind names the behaviour whatever field shows it (difference_kinds.cause_key)

    def key(self) -> tuple:
        return (rule_of(self.breaks), "" if self.classified else self.field, self.kind)

    def add(self, clause: str | None, alternative: dict | None) -> None:
        """One more failure of this cause, breaking ``clause``, reproduced under ``alternative``."""
        if clause and clause not in self.clauses:
            self.clauses.append(clause)
            self.clauses.sort(key=lambda c: (c != rule_of(c), c))  # the rule's first clause first
            self.breaks = self.clauses[0]
        if alternative:
            self.alternative = {**(self.alternative or {}), **alternative}
            self.reproduces.setdefault(clause or "", {}).update(alternative)

    def as_json(self) -> dict:
        summary = CLAUSES[self.breaks][1] if self.breaks in CLAUSES else None
        return {"breaks": self.breaks, **({"summary": summary} if summary else {}),
                **({"clauses": list(self.clauses)} if len(self.clauses) > 1 else {}), "field": self.field,
                "kind": self.kind, **({"alternative": self.alternative} if self.alternative else {}),
                # which clause's failures the alternative reproduces, when the cause breaks several
                **({"reproduces": {c: dict(o) for c, o in sorted(self.reproduces.items())}}
                   if self.reproduces and len(self.clauses) > 1 else {}),
                "count": self.count, "vectors": list(self.vectors), "example": self.example}

    def title(self) -> str:
        what = f"{self.field}: {self.kind}" if self.field else self.kind
        alt = ""
        for clause, options in sorted(self.reproduces.items()):
            part = f"its {clause} failures" if len(self.clauses) > 1 else "it"
            alt += (" (the reference under " + ", ".join(f"{r} = {o}" for r, o in sorted(options.items()))
                    + f" reproduces {part}: a diagnosis, not an excuse)")
        return f"breaks {' and '.join(self.clauses) or self.breaks or '(no clause)'}: {what}{alt}"


def _cause(f: dict) -> "Cause":
    path = f.get("path")
    kind = f.get("kind") or kind_of(path or "", f.get("expected"), f.get("actual"))
    where = "the deal" if kind == DEALT_OTHER_CARDS else field_of(path)  # wherever the cards were seen
    cause = Cause(f.get("clause"), where, kind, None, classified=bool(f.get("kind")))
    cause.add(f.get("clause"), f.get("alternative"))
    return cause


def _judged_failures(case: Case) -> list[dict]:
    """A failed case's failures, the one its diagnosis explains carrying it: a failure reproduced
    under an option the text rules out is a diagnosis, not an excuse (issue #24). That is the first
    failure judged on the engine's cards (after a dealing failure)."""
    failures = _failures(case)
    if case.diagnosis:
        k = next((k for k, f in enumerate(failures) if f.get("kind") != DEALT_OTHER_CARDS), None)
        if k is not None and not failures[k].get("alternative"):
            failures = failures[:k] + [{**failures[k], "alternative": case.diagnosis}] + failures[k + 1:]
    return failures


def first_cause(case: Case) -> "Cause":
    """The cause of a failed case's first failure (uncounted)."""
    return _cause(_judged_failures(case)[0])


def group(cases: list[Case]) -> list[Cause]:
    """The causes of the failed ``cases``, the most frequent first (then by clause)."""
    causes: dict[tuple, Cause] = {}
    for case in cases:
        if case.status != "failed":
            continue
        for k, f in enumerate(_judged_failures(case)):
            one = _cause(f)
            cause = causes.setdefault(one.key(), one)
            if cause is not one:
                cause.add(f.get("clause"), one.alternative)
            cause.count += 1
            if case.id not in cause.vectors:
                cause.vectors.append(case.id)
            decision = f.get("decision")
            rank = (k != 0, decision if isinstance(decision, int) else 1 << 40, len(cause.vectors))
            if cause.example is None or rank < cause._rank:
                cause._rank = rank
                cause.example = {"vector": case.id, "family": case.group,
                                 "first": {key: f.get(key) for key in ("hand", "decision", "path", "expected",
                                                                       "actual", "clause") if key in f},
                                 "message": (_failure_text(f) if k else case.message)[:400]}
    return sorted(causes.values(), key=lambda c: (-c.count, c.breaks or "", c.field, c.kind))


def _failure_text(f: dict) -> str:
    """A failure of a game in words (the example of a cause that is not its vector's first failure)."""
    where = ", ".join(x for x in (f"hand {f['hand']}" if f.get("hand") is not None else None,
                                  f"decision {f['decision']}" if f.get("decision") is not None else None) if x)
    summary = CLAUSES[f["clause"]][1] if f.get("clause") in CLAUSES else ""
    return (f"at {where or 'the end of the game'}: {f.get('path')} expected {js_text(f.get('expected'))}, got "
            f"{js_text(f.get('actual'))} -- breaks {f.get('clause')}" + (f" ({summary})" if summary else ""))


def attach_repro(report: Report, causes: list[Cause]) -> None:
    """Each cause's example gets a reproduction of that failure (issue #38, item 3): its vector's
    (conformance.report.repro, attached to the failed cases) when the example is that vector's first
    failure; else, for a JavaScript reproduction, the same script checking the example's own
    failure (its hand, decision, field and expected value: the engine's game is played to it) in a
    file of its own; a --cmd reproduction's lines play the whole vector and print every failure."""
    cases = {c.id: c for c in report.cases if c.repro}
    for number, cause in enumerate(causes):
        case = cases.get(cause.example["vector"]) if cause.example else None
        if case is None:
            continue
        repro = case.repro
        cause.example["repro"] = {k: v for k, v in repro.items() if k in ("file", "run", "kind")}
        if not (cause._rank and cause._rank[0]):
            continue
        if repro.get("kind") == "javascript" and _FIRST.search(repro.get("script", "")):
            own = {k: cause.example["first"].get(k) for k in ("hand", "decision", "path", "expected", "actual", "clause")}
            script = _FIRST.sub(lambda _: f"const FIRST = {json.dumps(own)};", repro["script"], count=1)
            name = re.sub(r"\.js$", f".cause-{number + 1}.js", repro["file"])
            cause.example["repro"] = {"kind": "javascript", "file": name, "script": script,
                                      "run": [r.replace(repro["file"], name) for r in repro.get("run", [])]}
        else:
            cause.example["repro"]["note"] = "the vector's reproduction shows every failure of the vector, this one among them"


_FIRST = re.compile(r"^const FIRST = .*;$", re.M)
