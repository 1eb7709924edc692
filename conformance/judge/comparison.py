"""Comparing an engine's step with the reference's (docs/INTERPRETING.md, Step judging): exact
equality of JavaScript values, every difference of two values as ``(path, expected, actual)``, and
a game's differences (:class:`Comparison`): the first of each cause a failure of its own, later
ones of the same cause counted under it."""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import orjson

from .difference_kinds import cause_key
from .field_clauses import (_context_clause, chips_moved, clause_for, folded_ids, numbered_otherwise, pots_unmerged,
                            pots_with_folded)

# Lists whose order is a ruling, not the contract: key -> ruling (INTERPRETING.md, Verdicts).
ORDER_FREE = {"showdown": "R14", "winners": "R14", "best": "R5"}
# The order a decision state's fields are compared in: causes before effects (the previous hands'
# results, then where the hand stands, then the seat to act's own figures).
STATE_ORDER = ("history", "handNumber", "tournament", "blinds", "buttonSeat", "smallBlindSeat", "bigBlindSeat",
               "street", "board", "actions", "seats", "you", "pots", "currentBet", "toCall", "lastFullRaise",
               "minRaiseTo", "maxRaiseTo", "canCheck", "canAllIn", "timeLimitMs")
LATER_SHOWN = 5  # later differences listed under the first (the rest are counted)
ANSWERS_SHOWN = 40  # answers of the divergent hand listed (earlier ones are counted)


def same(a: object, b: object) -> bool:
    """Exact equality of JavaScript values: numbers by value (1 == 1.0, NaN == NaN, -0 != 0),
    booleans never equal to numbers, objects by keys, arrays in order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if a != a or b != b:
            return a != a and b != b
        return a == b and (a != 0 or math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _identical(a: object, b: object) -> bool:
    """A fast path of a comparison (nearly every step of a game is equal): True only when
    :func:`same` holds. Python's ``==`` compares in C without encoding anything and rejects a
    difference at once; only what it cannot tell apart -- ``true`` from ``1``, ``-0`` from ``0``
    -- is then settled by orjson's key-sorted encoding of each side (orjson writes ``NaN`` as
    ``null``, but ``==`` has already told those apart), many times faster than ``json.dumps``.
    False (the slow path decides) for what orjson cannot encode."""
    try:
        return a == b and orjson.dumps(a, option=orjson.OPT_SORT_KEYS) == orjson.dumps(b, option=orjson.OPT_SORT_KEYS)
    except (TypeError, ValueError, RecursionError, orjson.JSONEncodeError):
        return False


def _order_key(x: object) -> str:
    return json.dumps(x, sort_keys=True, default=repr)


def _join(path: str, key: object) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def differences(expected: object, actual: object, path: str = "", reordered: list | None = None,
                order: tuple = ()) -> Iterator[tuple[str, object, object]]:
    """Every difference of ``actual`` from ``expected`` as ``(path, expected, actual)``, in a
    stable order (``order``'s keys first, then the expected's, then added ones); a missing or added
    key or list item is one difference. ORDER_FREE lists that differ only in order are not
    differences: ``(path, ruling)`` goes to ``reordered``."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        keys = [k for k in order if k in expected] + [k for k in expected if k not in order]
        for key in keys:
            where = _join(path, key)
            if key not in actual:
                yield where, expected[key], "(missing)"
                continue
            e, a = expected[key], actual[key]
            if isinstance(e, (dict, list)) and _identical(e, a):
                continue  # an equal part (most of a state that differs): nothing to walk
            if key in ORDER_FREE and isinstance(e, list) and isinstance(a, list) and not same(e, a) \
                    and len(a) == len(e) and same(sorted(a, key=_order_key), sorted(e, key=_order_key)):
                if reordered is not None:
                    reordered.append((where, ORDER_FREE[key]))
                continue
            if key in ("winners", "showdown") and isinstance(e, list) and isinstance(a, list):
                yield where, e, a  # judged as one list (field_clauses.award_difference, showdown_difference)
                continue
            if key == "chips" and chips_moved(e, a):
                yield where, e, a  # one behaviour (field_clauses.CHIPS_MOVED)
                continue
            if key == "pots" and (pots_unmerged(e, a) or pots_with_folded(e, a, folded_ids(actual))):
                yield where, e, a  # one behaviour (field_clauses.UNMERGED, FOLDED_ELIGIBLE)
                continue
            if key == "history":
                yield from record_differences(e, a, where, reordered)
                continue
            yield from differences(e, a, where, reordered)
        for key in actual:
            if key not in expected:
                yield _join(path, key), "(absent)", actual[key]
    elif isinstance(expected, list) and isinstance(actual, list):
        for k, (e, a) in enumerate(zip(expected, actual)):
            if isinstance(e, (dict, list)) and _identical(e, a):
                continue
            yield from differences(e, a, _join(path, k), reordered)
        # The first item one list has and the other lacks (an added item may be a runner's edit).
        if len(actual) > len(expected):
            yield _join(path, len(expected)), "(absent)", actual[len(expected)]
        elif len(expected) > len(actual):
            yield _join(path, len(actual)), expected[len(actual)], "(missing)"
    elif not same(expected, actual):
        yield path, expected, actual



def _numbers(records: object) -> "list | None":
    """The hand numbers of a list of hand records (a history), or None when they cannot align it
    (not a list of records, each with its own integer ``handNumber``)."""
    if not isinstance(records, list):
        return None
    numbers = [r.get("handNumber") if isinstance(r, dict) else None for r in records]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers) or len(set(numbers)) < len(numbers):
        return None
    return numbers


def inside(where: str, paths: "Iterable[str]") -> bool:
    """Whether the path ``where`` is one of ``paths`` (list items, records) or inside one."""
    return any(where == p or where.startswith((p + ".", p + "[")) for p in paths)


def record_differences(expected: object, actual: object, path: str, reordered: list | None = None
                       ) -> Iterator[tuple[str, object, object]]:
    """The differences of a list of hand records (a state's ``history``, ``history()``): when the
    engine lists other records or in another order (an entry missing, one too many, newest first)
    that is one difference, the whole list's (field_clauses.records_difference), and each record is
    compared with the reference's record of the same hand -- not with whichever stands at its index,
    which would count one misplaced list as a difference of every field of every record (issue #38,
    item 3). Records are aligned by hand number only where that matches more of them than their
    places do (a hand numbered otherwise is that record's own difference, field by field)."""
    e_numbers, a_numbers = _numbers(expected), _numbers(actual)
    if e_numbers is None or a_numbers is None or e_numbers == a_numbers:
        yield from differences(expected, actual, path, reordered)
        return
    if numbered_otherwise(expected, actual):
        # the same records numbered otherwise (field_clauses.NUMBERED_OTHERWISE): by place, their
        # numbers alone differ -- whichever of them happen to match another record's
        yield from differences(expected, actual, path, reordered)
        return
    theirs = {n: k for k, n in enumerate(a_numbers)}
    by_place = sum(1 for e, a in zip(expected, actual) if not _identical(e, a)) + abs(len(expected) - len(actual))
    matched = [(e, theirs[n]) for e, n in zip(expected, e_numbers) if n in theirs]
    by_number = sum(1 for e, k in matched if not _identical(e, actual[k])) + \
        max(len(expected), len(actual)) - len(matched)
    if by_number >= by_place:
        yield from differences(expected, actual, path, reordered)
        return
    # the list's one difference at its first hand number out of place: small, and what a
    # reproduction looks at (the whole list would be cut to the report's size)
    i = next(k for k, (x, y) in enumerate(zip(e_numbers + [None], a_numbers + [None])) if x != y)
    if i < min(len(expected), len(actual)):
        yield f"{_join(path, i)}.handNumber", e_numbers[i], a_numbers[i]
    else:
        yield _join(path, i), expected[i] if i < len(expected) else "(absent)", \
            actual[i] if i < len(actual) else "(missing)"
    for e, k in matched:
        if not _identical(e, actual[k]):
            yield from differences(e, actual[k], _join(path, k), reordered)


# What the runner writes into every state it receives (engine_drivers.DRIVER_JS, mutate): seen in
# a later step, the engine kept a reference to what it handed out.
EDITS = (-7, "mutated")


def is_edit(value: object) -> bool:
    if isinstance(value, dict):
        return value.get("mutated") is True
    return not isinstance(value, bool) and any(same(value, e) for e in EDITS)


def edited_path(value: object, path: str = "") -> tuple[str, object] | None:
    """The first place in ``value`` holding a runner's edit, as ``(path, value)``, or None."""
    if is_edit(value):
        return path or "(the state)", value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if found := edited_path(item, _join(path, key)):
            return found
    return None


# ---- divergences --------------------------------------------------------------------------------

@dataclass
class Divergence:
    """One difference: where (hand, decision index, field path) and what."""

    hand: int | None
    decision: int | None
    path: str
    expected: object
    actual: object
    clause: str
    counted: int = 0  # the later differences of its hand counted under it (a hand's first divergence)
    kind: str | None = None  # the kind of difference where the path does not tell it (dealing.py)
    answered: int = -1  # how many answers the replay had fed when it was found (Comparison.answers_json)

    def as_json(self) -> dict:
        return {"hand": self.hand, "decision": self.decision, "path": self.path, "expected": _plain(self.expected),
                "actual": _plain(self.actual), "clause": self.clause, **({"kind": self.kind} if self.kind else {})}

    def where(self) -> str:
        at = [f"hand {self.hand}" if self.hand is not None else None,
              f"decision {self.decision}" if self.decision is not None else None]
        return ", ".join(a for a in at if a) or "the end of the game"


def _plain(value: object, limit: int = 600) -> object:
    """A JSON-safe, size-bounded copy of a value for the report."""
    try:
        text = json.dumps(value, allow_nan=False, default=repr)
    except (ValueError, RecursionError):
        text = json.dumps(repr(value)[:limit])
    if len(text) <= limit:
        return json.loads(text)
    return text[:limit] + f" … ({len(text)} characters)"


@dataclass
class Comparison:
    """The differences of one replay: the first one in full, later ones counted."""

    first: Divergence | None = None
    later: list[Divergence] = field(default_factory=list)
    later_count: int = 0
    answers: list = field(default_factory=list)  # (hand, decision, answer) fed so far
    reordered: list = field(default_factory=list)  # (path, ruling): ORDER_FREE lists in another order
    decisions: int = 0  # engine decisions compared
    notes: list = field(default_factory=list)  # what is reported, not failed (a refusal's code: refusals.py)

    stop: bool = False  # stop at the first difference (a ruling alternative that differs is of no use)
    # Only the first difference of each compare() is added (the replay goes on exactly as in full):
    # ``first``, ``answers``, ``positions``, ``notes`` and whether a compare differed are those of
    # a full replay, the later differences' counts and lists are not (dealing.judge_game: a verdict
    # replaced by the one judged on the engine's own cards needs no more).
    lite: bool = False
    clause_of: Callable[[str], str] = clause_for  # a field's clause (a lone hand's differs: hand_judge)
    # Every transition is judged from the engine's own previous state (issue #38, item 1), so each
    # difference is the engine's own: the first one of each cause (difference_kinds.cause_key: its
    # rule, field and kind) is a failure of the game (``firsts``, ``first`` among them), a later one
    # of the same cause is counted under it (a difference that persists counts once).
    firsts: list = field(default_factory=list)
    by_cause: dict = field(default_factory=dict)
    seen: set = field(default_factory=set)  # the transitions that differ (transition()), however counted
    # Each transition that differs -> its first difference's (path, expected): what an alternative
    # changed there without reproducing it (proof.pair_alternatives).
    first_at: dict = field(default_factory=dict)
    lost_at: int | None = None  # the first decision from which the reference could not follow the engine
    lost_hands: set = field(default_factory=set)  # the hands it could not follow to their end (unfollowed)
    differed: bool = False  # a difference since the engine's hand started (the next one resynchronises)
    # The ids of the seats whose holdem-sng-3-v4 auto-fold (R26) differed (following._auto_fold_difference).
    auto_folded_otherwise: set = field(default_factory=set)
    # The reference's positions of each hand it played: number -> (button, seats in the hand).
    positions: dict = field(default_factory=dict)

    def add(self, hand, decision, path, expected, actual, clause: str | None = None, kind: str | None = None) -> None:
        if is_edit(actual):
            clause = "state.fresh"
        d = Divergence(hand, decision, path, expected, actual, clause or self.clause_of(path), kind=kind)
        self.differed = True
        self.seen.add(transition(d))
        self.first_at.setdefault(transition(d), (d.path, d.expected))
        d.answered = len(self.answers)
        if self.first is None:
            self.first = d
            if self.stop:
                raise _Stop
        key = cause_key(d.clause, path, expected, actual, kind)
        under = self.by_cause.get(key)
        if under is None:
            self.by_cause[key] = d
            self.firsts.append(d)
        elif under is self.first:
            self.later_count += 1
            if len(self.later) < LATER_SHOWN:
                self.later.append(d)
        else:
            under.counted += 1

    def unfollowed(self, decision: int, hand: object = None) -> None:
        """The reference could not follow the engine from ``decision`` (until the next hand) of
        ``hand``: that hand's records at the game's end are its own play, not the engine's."""
        if self.lost_at is None:
            self.lost_at = decision
        if isinstance(hand, int) and not isinstance(hand, bool):
            self.lost_hands.add(hand)

    def lost_records(self, path: str, ours: object, theirs: object) -> list[tuple[str, bool]]:
        """The engine's hand records in ``theirs`` (a history or ``log()`` at ``path``) of the hands the
        reference could not follow to their end (:attr:`lost_hands`), as (path, whether it differs
        from the reference's record of that hand in ``ours``): the reference's records of them are its
        own play, not the engine's, so a difference there is the consequence of the one that lost it."""
        if not (self.lost_hands and isinstance(theirs, list)):
            return []
        mine = {r.get("handNumber"): r for r in ours if isinstance(r, dict)} if isinstance(ours, list) else {}
        return [(_join(path, k), not _identical(mine.get(r["handNumber"]), r)) for k, r in enumerate(theirs)
                if isinstance(r, dict) and r.get("handNumber") in self.lost_hands]

    def compare(self, hand, decision, path, expected, actual, order: tuple = (), clause: str | None = None,
                only: "Callable[[str], bool] | None" = None) -> bool:
        """Add every difference at ``path`` (``only``: those whose path it accepts, the values
        around them still deciding their clause); True when there was none."""
        if _identical(expected, actual):
            return True
        clean = True
        reordered = self.reordered if only is None else []
        # the game's end's history() is a list of hand records, aligned as a state's history is
        walk = record_differences(expected, actual, path, reordered) if path == "history()" \
            else differences(expected, actual, path, reordered, order)
        for where, e, a in walk:
            if only is not None and not only(where):
                continue
            found = clause or _context_clause(where[len(path):], expected, actual)
            found, kind = found if isinstance(found, tuple) else (found, None)
            self.add(hand, decision, where, e, a, found, kind=kind)
            clean = False
            if self.lite:
                break
        if only is not None:
            self.reordered += [(where, ruling) for where, ruling in reordered if only(where)]
        return clean

    @property
    def rulings(self) -> set:
        return {r for _, r in self.reordered}

    def reordered_text(self) -> str:
        shown = [f"  {path} in another order ({ruling})" for path, ruling in self.reordered[:LATER_SHOWN]]
        more = len(self.reordered) - len(shown)
        return "\n".join(["(lists whose order is a ruling)"] + shown + ([f"  … and {more} more"] if more else []))

    def answers_json(self) -> list:
        """The answers that led to the first divergence: the last ANSWERS_SHOWN (earlier ones counted)."""
        fed = self.answers[:self.first.answered] if self.first is not None and self.first.answered >= 0 else self.answers
        shown = [{"hand": h, "decision": k, "answer": _plain(a, 200)} for h, k, a in fed[-ANSWERS_SHOWN:]]
        return ([f"… {len(fed) - len(shown)} earlier answers"] if len(fed) > len(shown) else []) + shown


def transition(d: Divergence) -> tuple:
    """The step a difference is in: its decision, or (at the end of a game) the record it is in."""
    return (d.hand, d.decision) if d.decision is not None else (d.hand, d.path.split(".")[0].split("[")[0])


class _Stop(Exception):
    """Raised by a stopping Comparison at its first difference."""


def reach(c: Comparison) -> int:
    """How far a replay matched: the decision of its first difference (the end counts as past
    every decision)."""
    return 1 << 40 if c.first is None or c.first.decision is None else c.first.decision


MISSING = "(not recorded: the engine stopped)"


def _thrown(error: object) -> str:
    if not isinstance(error, dict):
        return repr(error)
    return f"{error.get('at')}: {error.get('name') or ''}{': ' if error.get('name') else ''}{error.get('message')}"

