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

import re
from dataclasses import dataclass, field

from conformance.vectors.clauses import CLAUSES
from .dealing import DEALT_OTHER_CARDS
from .verdicts import Case, Report

# Clauses that state one rule of the text: bot-contract-v1's paragraph on short all-ins ("Short
# all-ins are accepted, but do not by themselves reopen a player who already acted. [...] The house
# convention also does not reopen a checker facing only a short opening all-in."). An engine whose
# short all-in reopens the betting breaks both clauses with one bug: one cause, naming both. A clause
# maps to the rule's first clause; other clauses are each a rule of their own.
ONE_RULE = {"rules.checker-convention": "rules.short-allin"}


def rule_of(clause: str | None) -> str:
    return ONE_RULE.get(clause or "", clause or "")


_INDEX = re.compile(r"\[\d+\]")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
ABSENT, MISSING = "(absent)", "(missing)"


# Where a hand record is seen: a state's history, history(), log()'s result, a lone hand's result -> one field.
_RECORD = re.compile(r"^(?:steps\[\]\.)?(?:state\.history\[\]|history\(\)\[\]|log\(\)\[\]\.result|result\(\)\.result)\.")


def field_of(path: str | None) -> str:
    """A failure's field: its path with list indices dropped, a hand record's field named alike
    wherever the record is seen (``history()[3].winners[0].amount`` and
    ``state.history[2].winners[1].amount`` -> ``history.winners[].amount``)."""
    if not path:
        return ""
    return _RECORD.sub("history.", _INDEX.sub("[]", path))


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def kind_of(path: str, expected: object, actual: object) -> str:
    """The kind of a difference, in words."""
    leaf = field_of(path).rsplit(".", 1)[-1]
    if expected == ABSENT:
        return "an entry or field that should not be there"
    if isinstance(actual, str) and actual.startswith(MISSING[:-1]):
        return "missing"
    if expected is None and actual is not None:
        if leaf == "minRaiseTo":
            return "a raise offered where raising is closed"
        return "a value where null is due"
    if actual is None:
        return "null where a value is due"
    if leaf == "cards" or (isinstance(expected, list) and isinstance(actual, list)):
        if isinstance(expected, list) and isinstance(actual, list) and set(map(str, expected)) < set(map(str, actual)):
            return "more shown than due"
        return "other cards" if leaf in ("cards", "board") else "another list"
    if isinstance(expected, bool) or isinstance(actual, bool):
        return f"{_word(actual)} where {_word(expected)} is due"
    if _is_number(expected) and _is_number(actual):
        if leaf == "amount" and "winners" in path and actual > expected:
            return "more awarded than due"
        return "more than due" if actual > expected else "less than due"
    return "another value"


def _word(x: object) -> str:
    return "true" if x is True else "false" if x is False else type(x).__name__


def _failures(case: Case) -> list[dict]:
    """A failed case's failures; one made from its message when the judge recorded none."""
    if case.failures:
        return case.failures
    if case.first is not None:
        return [{**case.first, "later": case.later}]
    clause = case.breaks or (case.clauses[0] if case.clauses else None)
    text = _NUMBER.sub("N", _QUOTED.sub("…", case.message.split(";")[0]))[:160]
    return [{"hand": None, "decision": None, "path": None, "clause": clause, "kind": text}]


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

    def key(self) -> tuple:
        return (rule_of(self.breaks), self.field, self.kind)

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
    cause = Cause(f.get("clause"), where, kind, None)
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
                                 "message": case.message[:400]}
    return sorted(causes.values(), key=lambda c: (-c.count, c.breaks or "", c.field, c.kind))


def attach_repro(report: Report, causes: list[Cause]) -> None:
    """Each cause's example gets its vector's reproduction (conformance.report.repro, attached
    to the failed cases) when the example is that vector's first failure."""
    repro = {c.id: c.repro for c in report.cases if c.repro}
    for cause in causes:
        if cause.example and cause.example["vector"] in repro:
            cause.example["repro"] = {k: v for k, v in repro[cause.example["vector"]].items()
                                      if k in ("file", "run", "kind")}
            if cause._rank and cause._rank[0]:
                cause.example["repro"]["note"] = ("the vector's first failure is another cause's; the "
                                                  "reproduction stops there")
