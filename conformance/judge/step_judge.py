"""The step judge: an engine's game trajectory (:mod:`conformance.judge.trajectory`) compared step by
step, every field, with the reference playing the same game (docs/INTERPRETING.md, Step judging).

A failure is the *first divergence*: the hand, the decision index, the field path, the expected
and actual values, the one clause that governs that field (``breaks``) and the answers that led
there; later differences are counted under it. A difference is "divergent on Rn" only when the
reference under Rn's documented alternative (alone or combined) reproduces the whole trajectory
(:func:`judge_game` with ``rulings``).
"""
from __future__ import annotations

import contextvars
import json
import math
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

import orjson

from reference.rulings import RULINGS, diagnoses_to_try, profiles_to_try, ruled_out_in

from conformance.vectors.clauses import CLAUSES
from .refusals import code_of, is_refusal, refusal_note
from conformance.vectors.gamespec import answer as decode_answer
from .trajectory import STANDING_FIELDS, Plan, ReferenceGame, expand, standings_view

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


# ---- the clause that governs a field ------------------------------------------------------------

# A decision state's field -> its clause (contract, Decision state).
STATE_CLAUSES = {
    "handNumber": "rules.end", "street": "rules.raise-total", "board": "rules.burn", "pots": "state.pots",
    "toCall": "state.to-call", "currentBet": "state.to-call", "minRaiseTo": "state.min-raise-to",
    "maxRaiseTo": "state.max-raise-to", "canCheck": "state.can-check", "canAllIn": "state.can-allin",
    "lastFullRaise": "state.last-full-raise", "blinds": "rules.levels", "buttonSeat": "rules.button",
    "smallBlindSeat": "state.positions", "bigBlindSeat": "state.positions", "seats": "state.seats",
    "actions": "state.actions", "tournament": "state.tournament", "timeLimitMs": "state.tournament",
    "you": "state.you",
}
# A hand record's field (history entry, log record) -> its clause.
RECORD_CLAUSES = {
    "board": "rules.burn", "showdown": "rules.showdown-public", "winners": "state.history-winners",
    "level": "rules.levels", "blinds": "rules.levels", "buttonSeat": "rules.button",
    "smallBlindSeat": "rules.heads-up-transition", "bigBlindSeat": "rules.heads-up-transition",
    "actions": "state.actions", "eliminated": "rules.simultaneous", "chips": "rules.side-pots",
}
STANDING_CLAUSES = {"place": "rules.cap-places", "chips": "rules.side-pots", "eliminatedInHand": "rules.elimination",
                    "id": "rules.seats"}
_INDEX = re.compile(r"\[\d+\]")


def _fields(path: str) -> list[str]:
    """``state.history[1].showdown[0].hand`` -> ``['state', 'history', 'showdown', 'hand']``."""
    return [p for p in _INDEX.sub("", path).split(".") if p]


def _record_clause(parts: list[str]) -> str:
    """The clause of a field of a hand record (``parts`` start inside the record)."""
    if not parts:
        return "state.history"
    if parts[0] == "result":
        parts = parts[1:] or ["winners"]
    if parts[0] == "showdown" and parts[-1] == "hand":
        return "rules.best-five"
    if parts[0] == "winners" and parts[-1] == "id":
        return "rules.best-five"  # who won: the hands' ranking decides
    if parts[0] == "showdown" and parts[-1] == "cards":
        # The cards shown (the dealing itself is judged and followed first, conformance.judge.dealing):
        # which cards are public is the reveal rule (v4: only the cards the winner's hand needs).
        return "rules.showdown-public"
    if parts[0] in ("length", "handNumber"):
        return "state.history"  # entries missing, extra or out of order
    return RECORD_CLAUSES.get(parts[0], "state.history")


def clause_for(path: str) -> str:
    """The one contract clause that governs the field at ``path`` of a step (see :func:`judge_game`)."""
    parts = _fields(path)
    head, rest = parts[0], parts[1:]
    if head in ("state", "again", "stateAfter"):
        if head == "again":
            return "state.fresh"
        if not rest or rest[0] == "length":
            return "state.fields"
        if rest[0] == "history":
            return "state.history" if len(rest) == 1 or rest[1] == "length" else _record_clause(rest[1:])
        if rest[0] == "you":
            if rest[1:2] == ["cards"]:
                return "rules.deal-order"
            if rest[1:2] in (["seat"], ["id"]):
                return "rules.multiway-order"
            return "state.you"
        if rest[0] == "seats" and rest[-1] == "out":
            return "rules.elimination"
        if rest[0] == "board" and rest[-1] == "length":
            return "state.board"
        if rest[:2] == ["tournament", "level"]:
            return "rules.levels"
        return STATE_CLAUSES.get(rest[0], "state.fields")
    if head == "act":
        return "return.forms"
    if head == "steps":  # a holdem-sng-3-v4 step: its state, or what the clock and auto-fold made of it
        return clause_for(".".join(["state"] + rest[1:])) if rest[:1] == ["state"] else "timing.fallback"
    if head == "state()":
        return "rules.end"
    if head == "result()":  # a lone hand's result (hand_judge): its history entry, or its chips
        return _record_clause(rest)
    if head in ("history()", "log()"):
        return "state.history" if not rest or rest == ["length"] else _record_clause(rest)
    if head == "standings()":
        return STANDING_CLAUSES.get(rest[0], "rules.cap-places") if rest else "rules.cap-places"
    if head == "over":
        return "rules.end"
    return "state.fields"


def v4_clause_for(path: str) -> str:
    """:func:`clause_for` in a holdem-sng-3-v4 game, whose own rules have the clauses its vectors
    cite (generators/sng3v4.py's flags): the decision clock is R22's (``timing.fallback``), a
    recovery's taking effect R26's (``rules.elimination``: auto-folded seats and their recovery)."""
    parts = _fields(path)
    if parts[-1] == "timeLimitMs" and parts[0] in ("state", "steps"):
        return "timing.fallback"
    if parts[:2] == ["steps", "recovered"] or parts[-1] == "autoFolded":
        return "rules.elimination"
    return clause_for(path)


def action_clause(answer: object, expected: object, actual: object) -> str:
    """The clause of an action that differs: the return-value rule of the answer's kind."""
    kind = answer.get("type") if isinstance(answer, dict) else answer
    if isinstance(expected, dict) and isinstance(actual, dict) and "threw" not in expected and "threw" not in actual:
        if kind == "raise":
            return "rules.raise-total"
    clause = f"return.{kind}" if isinstance(kind, str) else "return.forms"
    return clause if clause in CLAUSES else "return.forms"


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


_WINNER_AMOUNT = re.compile(r"^(.*\.winners)\[\d+\]\.amount$")
_TOKEN = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def _at(root: object, path: str) -> object:
    """The value at ``path`` (``.key`` and ``[i]`` steps) inside ``root``, or None."""
    for key, index in _TOKEN.findall(path):
        try:
            root = root[int(index)] if index else root[key]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
    return root


def _context_clause(path: str, expected: object, actual: object) -> str | None:
    """A clause that the values around ``path`` decide, or None (then the path's own applies):
    who is to act heads-up (rules.heads-up-order); the button heads-up (rules.heads-up-transition); a winner's amount when the same seats won the
    same total, one chip moved between them (a split's odd chips, rules.odd-chips), more chips
    awarded than due (a refund counted, state.history-winners), the same chips to other seats (the
    ranking, rules.best-five) or shared otherwise among the same seats (rules.side-pots)."""
    if path.startswith(".state.") and isinstance(expected, dict) and isinstance(expected.get("state"), dict) \
            and isinstance(actual, dict):  # a step's record (state, action, error): its state decides
        return _context_clause(path[len(".state"):], expected["state"], actual.get("state"))
    if isinstance(expected, dict) and isinstance(actual, dict) and _auto_fold_differs(expected, actual):
        return "rules.elimination"  # who is auto-folded (R26) decides what differs: the pots, the folds
    if path == ".minRaiseTo" and _at(expected, path) is None and isinstance(expected, dict) \
            and _at(actual, path) is not None:
        if _reopened(expected):
            return "rules.short-allin"
        if not _responders(expected):  # no other seat has chips to answer a raise (R10)
            return "rules.no-responder"
    if path in (".you.seat", ".you.id", ".buttonSeat"):
        seats = _at(expected, ".seats")
        live = sum(1 for x in seats if isinstance(x, dict) and not x.get("out")) if isinstance(seats, list) else 0
        if path == ".buttonSeat":  # heads-up, the button follows the transition's rule
            return "rules.heads-up-transition" if live == 2 else None
        return "rules.heads-up-order" if live == 2 else "rules.multiway-order"
    match = _WINNER_AMOUNT.match(path)
    if not match:
        return None
    e, a = _at(expected, match.group(1)), _at(actual, match.group(1))
    try:
        awarded, due = sum(w["amount"] for w in a), sum(w["amount"] for w in e)
        if [w["id"] for w in e] == [w["id"] for w in a] and len(e) > 1 and awarded == due \
                and all(abs(x["amount"] - y["amount"]) <= 1 for x, y in zip(e, a)):
            return "rules.odd-chips"
        if awarded > due:  # more chips awarded than the pots hold: a refund counted as an award
            return "state.history-winners"
        if awarded == due:  # the same chips shared otherwise: among other seats the showdown's
            # ranking decided who won; among the same seats, which pots each could win
            return "rules.best-five" if {w["id"] for w in e} != {w["id"] for w in a} else "rules.side-pots"
    except (TypeError, KeyError):
        pass
    return None


def _auto_fold_differs(expected: dict, actual: dict) -> bool:
    """Whether a seat is auto-folded (R26) in one state and not in the other: an auto-fold not
    applied, or a recovery not taken into effect."""
    seats = expected.get("seats")
    return isinstance(seats, list) and isinstance(actual.get("seats"), list) and \
        len(seats) == len(actual["seats"]) and "actions" in expected and \
        any(_auto_folded(expected, k) != _auto_folded(actual, k) for k in range(len(seats)))


def _auto_folded(state: dict, k: int) -> bool:
    """Whether seat ``k`` of ``state`` is folded without a fold of its own in the hand's actions
    and is not out: folded by holdem-sng-3-v4's auto-fold (R26), which contract v1 never does."""
    try:
        seat = state["seats"][k]
        return seat["folded"] is True and not seat.get("out") and not any(
            a["id"] == seat["id"] and a["type"] == "fold" for a in state["actions"])
    except (KeyError, TypeError, IndexError):
        return False


def _responders(state: dict) -> bool:
    """Whether a seat other than the one to act is in the hand with chips behind."""
    try:
        you = state["you"]["id"]
        return any(x["id"] != you and not x["folded"] and not x.get("out") and x["stack"] > 0 for x in state["seats"])
    except (KeyError, TypeError):
        return True


def _reopened(state: dict) -> bool:
    """A raise offered where the reference closes it for a seat that already acted this street while
    someone else can still respond: the reopening rule (only a full raise reopens), not R10."""
    try:
        you, street = state["you"], state["street"]
        acted = any(a["id"] == you["id"] and a["street"] == street for a in state["actions"])
        others = any(x["id"] != you["id"] and not x["folded"] and not x.get("out") and x["stack"] > 0
                     for x in state["seats"])
        return acted and others
    except (KeyError, TypeError):
        return False


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
    # Judging on after a failure (issue #23, item 2): the first divergence of every hand after which
    # the reference was resynchronised to the engine (firsts[0] is ``first``); ``open`` is the
    # divergence of the hand in progress, under which its later differences are counted, and
    # ``diverged`` maps each such hand's number to it (a hand record that differs at the end of the
    # game counts under its hand's divergence).
    firsts: list = field(default_factory=list)
    open: Divergence | None = None
    diverged: dict = field(default_factory=dict)
    # The reference's positions of each hand it played: number -> (button, seats in the hand).
    positions: dict = field(default_factory=dict)

    def add(self, hand, decision, path, expected, actual, clause: str | None = None) -> None:
        if is_edit(actual):
            clause = "state.fresh"
        d = Divergence(hand, decision, path, expected, actual, clause or self.clause_of(path))
        under = self.open
        if under is None and self.first is not None:
            under = self.diverged.get(hand if hand is not None else _record_hand(path))
        if under is None:
            if self.first is None:
                self.first = d
                self.answers_at = list(self.answers)
                if self.stop:
                    raise _Stop
            self.firsts.append(d)
            self.open = d
            if hand is not None:
                self.diverged.setdefault(hand, d)
        elif under is self.first:
            self.later_count += 1
            if len(self.later) < LATER_SHOWN:
                self.later.append(d)
        else:
            under.counted += 1

    def resynchronised(self) -> None:
        """The reference now stands where the engine does: a later difference is a new divergence."""
        self.open = None

    def compare(self, hand, decision, path, expected, actual, order: tuple = (), clause: str | None = None) -> bool:
        """Add every difference at ``path``; True when there was none."""
        if _identical(expected, actual):
            return True
        clean = True
        for where, e, a in differences(expected, actual, path, self.reordered, order):
            self.add(hand, decision, where, e, a, clause or _context_clause(where[len(path):], expected, actual))
            clean = False
            if self.lite:
                break
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
        fed = getattr(self, "answers_at", self.answers)
        shown = [{"hand": h, "decision": k, "answer": _plain(a, 200)} for h, k, a in fed[-ANSWERS_SHOWN:]]
        return ([f"… {len(fed) - len(shown)} earlier answers"] if len(fed) > len(shown) else []) + shown


_RECORD = re.compile(r"^(?:history\(\)|log\(\))\[(\d+)\]")


def _record_hand(path: str) -> int | None:
    """The hand a difference at the end of the game is about: the number of a hand record
    (``history()[i]``, ``log()[i]``: hands are numbered from 1 in order), else None."""
    m = _RECORD.match(path)
    return int(m.group(1)) + 1 if m else None


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


def replay(spec: dict, trajectory: dict, plan: Plan, *, required: int | None = None, with_log: bool = False,
           v4_steps: list | None = None, standing_fields: tuple = STANDING_FIELDS, stop: bool = False,
           lite: bool = False) -> Comparison:
    """Play ``spec`` on the reference, answering each decision as ``plan`` answers the engine's
    state, and compare every step of ``trajectory``. ``required``: the number of decisions the
    engine had to record (a hands script's length; None: to the end of the game). ``with_log``:
    compare ``log()`` too. ``v4_steps``: holdem-sng-3-v4 steps played first (their outcomes are
    the trajectory's ``steps``). A trajectory without ``decisions`` (an engine that reports only
    the end, docs/engine-protocol.md) is judged on its steps and its end: the reference then plays
    the plan on its own states. ``stop``: at the first difference. ``lite``: :attr:`Comparison.lite`."""
    out = Comparison(stop=stop, clause_of=clause_for if v4_steps is None else v4_clause_for, lite=lite)
    try:
        _replay(out, spec, trajectory, plan, required, with_log, v4_steps, standing_fields)
    except _Stop:
        pass
    return out


def _replay(out: Comparison, spec, trajectory, plan, required, with_log, v4_steps, standing_fields) -> None:
    ref = ReferenceGame(spec)
    try:
        _replay_game(out, ref, trajectory, plan, required, with_log, v4_steps, standing_fields)
    finally:
        if not out.stop:
            out.positions = ref.positions()


def _replay_game(out: Comparison, ref: ReferenceGame, trajectory, plan, required, with_log, v4_steps,
                 standing_fields) -> None:
    trajectory = expand(trajectory)
    error = trajectory.get("error")
    in_step = _replay_v4_steps(ref, v4_steps or [], trajectory.get("steps"), out, error)
    if not in_step:
        return
    if in_step == ENDED:
        error = None  # both games ended there: not an error of the engine's
    if "decisions" not in trajectory and required is None:
        ref.play_out(plan)
    else:
        in_step = _replay_decisions(ref, trajectory, plan, out, len(v4_steps or ()))
    if in_step:
        offset = len(v4_steps or ())
        decisions = out.decisions
        expected = ref.state()
        if required is not None and decisions < required:
            hand = expected["handNumber"] if expected else None
            out.add(hand, offset + decisions, "state()", expected, {"error": _thrown(error)} if error else None)
        elif required is None and expected is not None:
            out.add(expected["handNumber"], offset + decisions, "state()", expected,
                    {"error": _thrown(error)} if error else "null (the engine's game ended)")
        elif error:
            out.add(None, None, "error", None, _thrown(error), "state.fields")
        end = ref.ending(with_log, standing_fields)
        actual_end = {"history": trajectory.get("history"), "log": trajectory.get("log"),
                      "standings": standings_view(trajectory.get("standings"), standing_fields),
                      "over": trajectory.get("over")}
        for key in ("history", "log", "standings", "over"):
            if key in end and (key in trajectory or "decisions" in trajectory):
                path = key if key == "over" else f"{key}()"
                out.compare(None, None, path, end[key], actual_end[key])


ENDED = "ended"  # _replay_v4_steps: the engine's game and the reference's ended at the same step


def _game_over_at(error: object, k: int) -> bool:
    """The engine's trajectory stopped at step ``k`` because its game was over (state() gave null)."""
    return isinstance(error, dict) and error.get("at") == f"state() at steps[{k}]" and \
        isinstance(error.get("message"), str) and (error["message"].startswith("returned null")
                                                    or error["message"] == "the game is over")


def _replay_v4_steps(ref: ReferenceGame, steps: list, outcomes: object, out: Comparison,
                     error: object = None) -> "bool | str":
    """Compare each sng3v4 step's outcome; False when the reference cannot follow further, ENDED
    when the engine's game ended at the step where the reference's did (a fuzz game replayed under
    an alternative that ends it sooner: its end is then compared)."""
    outcomes = outcomes if isinstance(outcomes, list) else []
    for k, step in enumerate(steps):
        want = ref.step(step)
        hand = want["state"]["handNumber"] if isinstance(want.get("state"), dict) else None
        out.answers.append((hand, k, step))
        if k >= len(outcomes):
            if want == {"error": "the game is over"} and _game_over_at(error, k):
                return ENDED
            out.add(hand, k, f"steps[{k}]", want, MISSING, "timing.fallback")
            return False
        got = outcomes[k]
        out.compare(hand, k, f"steps[{k}]", want, got, ("state", "action", "error"),
                    clause=None if "state" not in want else _step_clause(step, want, got))
        if "error" in want and "state" not in want:  # the reference's game is over
            return False
    return True


def _step_clause(step: object, want: dict, got: object) -> str | None:
    """The clause of a v4 step's action or error: a timely answer's is its word's (the answers
    holdem-sng-3-v4 accepts, "bet" and "allin" among them: return.*), a timeout's the fallback's;
    its state's fields keep their own (None)."""
    timely = not (step == {"timeout": True} or want.get("error") == "late")
    if not timely or not isinstance(got, dict) or not _identical(want.get("state"), got.get("state")):
        return None
    answer = decode_answer(step["answer"] if isinstance(step, dict) and "answer" in step else step)
    return action_clause(answer, want.get("action"), got.get("action"))


def _replay_decisions(ref: ReferenceGame, trajectory: dict, plan: Plan, out: Comparison, offset: int) -> bool:
    """Compare every recorded decision and action; False when the reference cannot follow further.

    After a divergence, at the engine's first decision of another hand, the reference is
    resynchronised to the engine's state (ReferenceGame.resync) and judging goes on (issue #23,
    item 2); until then the rest of the hand is counted under the divergence, and decisions the
    reference cannot follow (it refused the answer, its game ended) are skipped."""
    decisions = trajectory.get("decisions") if isinstance(trajectory.get("decisions"), list) else []
    actions = trajectory.get("actions") if isinstance(trajectory.get("actions"), list) else []
    again = trajectory.get("again") if isinstance(trajectory.get("again"), list) else None
    # Second states after the runner's edits: every one (hands), or some (tournaments: `fresh`).
    fresh = {f.get("decision"): f.get("state") for f in trajectory.get("fresh") or [] if isinstance(f, dict)}
    error = trajectory.get("error")
    lost = False  # the reference cannot follow the rest of the engine's hand
    open_hand = None  # the engine's hand number of the open divergence
    for k, state in enumerate(decisions):
        at = offset + k  # the decision index reported (sng3v4 steps come first)
        out.decisions = k + 1
        engine_hand = state.get("handNumber") if isinstance(state, dict) else None
        if out.open is not None and not out.stop and engine_hand != open_hand and isinstance(engine_hand, int) \
                and hasattr(ref, "resync"):  # a lone hand (hand_judge) has no next hand
            if not ref.resync(state, trajectory.get("standings")):
                return False
            out.resynchronised()
            lost = False
        if lost:
            continue
        expected = ref.state()
        opened = out.open
        if expected is None:
            out.add(engine_hand, at, "state()", "null (the game is over)", state)
            lost = True
            open_hand = engine_hand
            continue
        hand = expected["handNumber"]
        out.compare(hand, at, "state", expected, state, STATE_ORDER)
        second = again[k] if again is not None and k < len(again) else fresh.get(k, state)
        if second is not state:
            out.compare(hand, at, "again", state, second, STATE_ORDER, clause="state.fresh")
        try:
            answer = plan.answer(k, state)
        except (KeyError, TypeError, IndexError, AttributeError):
            out.add(hand, at, "state", expected, state, "state.fields")
            lost, open_hand = True, engine_hand
            continue
        out.answers.append((hand, at, answer))
        want = ref.act(answer)
        if k >= len(actions):
            out.add(hand, at, "action", want, {"error": _thrown(error)} if error else MISSING,
                    action_clause(answer, want, None))
            return False
        got = actions[k]
        if is_refusal(want) and is_refusal(got):  # any refusal passes where one is due (refusals.py)
            if note := refusal_note(f"decision {at}: the refusal of {json.dumps(answer, default=repr)}",
                                    code_of(got["threw"]), code_of(want["threw"])):
                out.notes.append(note)
            continue
        if not out.compare(hand, at, "action", want, got, clause=action_clause(answer, want, got)) \
                and "threw" in want:
            lost = True  # the reference cannot follow an answer it refuses
        if out.open is not opened:
            open_hand = engine_hand
    return not lost


# ---- verdicts -----------------------------------------------------------------------------------

@dataclass
class GameVerdict:
    status: str  # passed, divergent or failed
    message: str = ""
    first: Divergence | None = None
    later: int = 0
    answers: list = field(default_factory=list)
    rulings: list = field(default_factory=list)
    alternative: dict | None = None  # the ruling options the engine follows (divergent)
    details: str = ""
    diagnosis: dict | None = None  # failed, but reproduced under options the text rules out (search)
    notes: list = field(default_factory=list)  # reported, not failed
    positions: dict = field(default_factory=dict)  # the reference's positions (Comparison.positions)
    # Every failure of the game (failed): the first divergence of each hand judged after a
    # resynchronisation (issue #23), ``first`` among them, and a dealing difference (dealing.py).
    failures: list = field(default_factory=list)

    @property
    def breaks(self) -> str | None:
        return self.first.clause if self.first is not None and self.status == "failed" else None


def describe(c: Comparison) -> tuple[str, str]:
    """The one-line message and the detail lines of a comparison with differences."""
    d = c.first
    summary = CLAUSES[d.clause][1]
    total = 1 + c.later_count
    message = (f"first divergence at {d.where()}: {d.path} expected {_show(d.expected)}, got {_show(d.actual)} "
               f"-- breaks {d.clause} ({summary})")
    if c.later_count:
        message += f"; {c.later_count} later difference{'s' if c.later_count > 1 else ''} counted under it"
    others = c.firsts[1:]
    if others:
        message += (f"; judged on from the next hand, {len(others)} more divergence{'s' if len(others) > 1 else ''}: "
                    + ", ".join(f"{o.where()} {o.path} (breaks {o.clause})" for o in others[:LATER_SHOWN])
                    + (" …" if len(others) > LATER_SHOWN else ""))
    total += sum(1 + o.counted for o in others)
    lines = [f"first divergence ({total} difference{'s' if total > 1 else ''} in all)",
             f"  {d.where()}: {d.path}: expected {_show(d.expected)}, got {_show(d.actual)}"]
    for later in c.later:
        lines.append(f"  later, {later.where()}: {later.path}: expected {_show(later.expected)}, got {_show(later.actual)}")
    if c.later_count > len(c.later):
        lines.append(f"  … and {c.later_count - len(c.later)} more")
    for o in others:
        lines.append(f"then, the reference resynchronised at the start of the hand: {o.where()}: {o.path}: expected "
                     f"{_show(o.expected)}, got {_show(o.actual)} -- breaks {o.clause}"
                     + (f" ({o.counted} later difference{'s' if o.counted > 1 else ''} counted under it)" if o.counted else ""))
    answers = c.answers_json()
    if answers:
        lines.append("answers that led there: " + ", ".join(
            a if isinstance(a, str) else f"#{a['decision']} {json.dumps(a['answer'])}" for a in answers))
    return message, "\n".join(lines)


def _show(value: object) -> str:
    text = value if isinstance(value, str) and value.startswith("(") else json.dumps(_plain(value, 200), default=repr)
    return text if len(text) <= 240 else text[:240] + " …"


# ---- one engine, one set of choices (issue #24, item 3) ------------------------------------------

_ENGINE: contextvars.ContextVar = contextvars.ContextVar("engine_choices", default=None)


class EngineChoices:
    """The documented ruling alternatives one engine was proven to follow, with the first vector
    that proved each. While :meth:`judging`, every vector of every family (sng3v4 and fuzz games
    included) is judged under them first (:func:`search`), and a vector where the engine follows
    another option, or the default where its choice would differ, is told so (a note)."""

    def __init__(self) -> None:
        self.follows: dict[str, tuple[str, str]] = {}  # ruling -> (option, the vector that proved it)

    def profile(self) -> dict:
        return {rid: option for rid, (option, _) in self.follows.items()}

    @contextmanager
    def judging(self):
        token = _ENGINE.set(self)
        try:
            yield self
        finally:
            _ENGINE.reset(token)

    def record(self, vector: str, alternative: "dict | None") -> list[str]:
        """Learn the alternative a divergent ``vector`` follows; notes on options that contradict earlier ones."""
        notes = []
        for rid, option in sorted((alternative or {}).items(), key=lambda item: _number(item[0])):
            if rid not in self.follows:
                self.follows[rid] = (option, vector)
            elif self.follows[rid][0] != option:
                known, where = self.follows[rid]
                notes.append(f"inconsistent choices: this vector follows {rid} = {option!r}, {where} follows "
                             f"{rid} = {known!r} (one engine plays one option of a ruling everywhere)")
        return notes


def _known(family: str, ruleset: str) -> dict:
    """The engine's proven choices that can change ``family`` under ``ruleset`` (R3 is the dealing's:
    conformance.judge.dealing follows it on the cards)."""
    choices = _ENGINE.get()
    if choices is None:
        return {}
    return {rid: option for rid, option in choices.profile().items()
            if rid != "R3" and family in RULINGS[rid].families and option in RULINGS[rid].alternatives(ruleset)}


def _default_followed_note(family: str, spec: dict, replay_under) -> str | None:
    """For a vector the default reproduces: a note when the engine's proven choices would have
    played it otherwise (it follows the default here, an alternative elsewhere)."""
    known = _known(family, _ruleset_of(spec))
    if not known:
        return None
    c = replay_under(known)
    if c.first is None:
        return None
    choices = _ENGINE.get()
    where = "; ".join(f"{rid} = {option!r} in {choices.follows[rid][1]}" for rid, option in sorted(known.items()))
    return (f"inconsistent choices: this vector follows the default where the engine's proven alternatives ({where}) "
            f"play it otherwise (at {c.first.where()}: {c.first.path}); one engine plays one option of a ruling everywhere")


def _ruleset_of(spec: dict) -> str:
    return (spec.get("options") or {}).get("ruleset", "contract-v1")


def judge_game(spec: dict, trajectory: dict, plan: Plan, *, family: str, broken=lambda: None, **how) -> GameVerdict:
    """The verdict on one engine game of ``family``: passed when every step equals the
    reference's; divergent when only ORDER_FREE lists differ in order (R14, R5), or when the
    reference under documented ruling alternatives reproduces the whole trajectory (:func:`prove`);
    else failed at the first divergence. ``broken()`` says which rule every ruling keeps the
    trajectory breaks (None: none): then no alternative is tried. ``how``: :func:`replay`'s options."""
    c = replay(spec, trajectory, plan, **how)
    return verdict(c, family, spec, lambda p: replay({**spec, "rulings": p}, trajectory, plan, stop=True, **how),
                   broken)


def verdict(c: Comparison, family: str, spec: dict, replay_under, broken=lambda: None,
            outcome_only: bool = False, irreproducible: bool = False) -> GameVerdict:
    """The verdict on a replay ``c`` of a ``family`` vector: passed or divergent on order alone; else
    divergent when ``replay_under(profile)`` reproduces every step under some documented ruling
    alternative (:func:`prove`; not tried when ``broken()`` names a rule every ruling keeps); else
    failed at the first divergence. ``outcome_only``: a failure's message may leave out what
    ``broken()`` names (asked only when an alternative reproduces the game: without one the game
    fails either way); its status, answers and every other verdict are exact (dealing.judge_game).
    ``irreproducible``: the caller knows that no profile can reproduce the game (dealing.followed_first:
    cards no deal of the pinned decks gives), so none is searched for."""
    if c.first is None:
        v = _with_notes(_order_only(c), c)
        if note := _default_followed_note(family, spec, replay_under):
            v.notes.append(note)
        return v
    return _with_notes(_differing(c, family, spec, replay_under, broken, outcome_only, irreproducible), c)


def _with_notes(v: GameVerdict, c: Comparison) -> GameVerdict:
    v.notes = list(c.notes)
    return v


def _differing(c: Comparison, family: str, spec: dict, replay_under, broken, outcome_only: bool = False,
               irreproducible: bool = False) -> GameVerdict:
    if outcome_only:  # the search first: broken() only matters when it finds a profile
        proof = None if irreproducible else search(family, spec, reach(c), replay_under)
        problem = broken() if proof is not None else None
        if problem:
            proof = None
    else:
        problem = broken()
        proof = None if problem else search(family, spec, reach(c), replay_under)
    if proof is not None and not proof.ruled_out:
        return GameVerdict("divergent", f"the reference under {_profile_text(proof.profile)} reproduces every step",
                           rulings=sorted(set(proof.profile) | proof.comparison.rulings, key=_number),
                           alternative=proof.profile)
    if proof is not None:
        return _diagnosed(c, proof, replay_under, "every step")
    message, details = describe(c)
    if problem:
        message += f"; no ruling alternative can reproduce it: {problem}"
    return GameVerdict("failed", message, c.first, c.later_count, c.answers_json(), details=details,
                       failures=list(c.firsts), positions=c.positions)


def _diagnosed(c: Comparison, proof: "Proof", replay_under, what: str) -> GameVerdict:
    """A failure that an option the text rules out reproduces: it breaks that option's clause, at
    the first step where the option shows (judged under the playable alternatives of the same
    proof, when there are any: the choices the engine follows); the option is named as a diagnosis."""
    record = proof.ruled_out[0]
    playable = {rid: o for rid, o in proof.profile.items() if rid not in {r.ruling for r in proof.ruled_out}}
    base = replay_under(playable) if playable else c
    if base.first is None:  # cannot be (the playable part alone would have proven a divergence)
        base = c
    first = replace(base.first, clause=record.clause)
    base.first = first
    if base.firsts:
        base.firsts[0] = first
    message, details = describe(base)
    if playable:
        message = f"under {_profile_text(playable)} (a documented alternative it follows): {message}"
    message += (f"; the reference under {_profile_text(proof.profile)} reproduces {what}: a diagnosis, not an excuse: "
                + "; ".join(r.text() for r in proof.ruled_out))
    return GameVerdict("failed", message, first, base.later_count, base.answers_json(), details=details,
                       failures=list(base.firsts) or [first], positions=c.positions or base.positions,
                       diagnosis=proof.profile)


def _order_only(c: Comparison) -> GameVerdict:
    if c.rulings:
        return GameVerdict("divergent", "differs only in the order of lists whose order is a ruling",
                           rulings=sorted(c.rulings), details=c.reordered_text())
    return GameVerdict("passed")


LEGALITY_ORDER = ("state", "act", "stateAfter", "fallback", "error")


def compare_views(expected: dict, actual: dict, hand, decision: int, answer: object, stop: bool = False) -> Comparison:
    """One decision judged on views (legality): ``state``, ``act``, ``stateAfter``, ``fallback``."""
    c = Comparison(stop=stop)
    c.answers = [(hand, decision, answer)]
    try:
        for key in LEGALITY_ORDER:
            if key not in expected and key not in actual:
                continue
            e, a = expected.get(key, "(absent)"), actual.get(key, "(absent)")
            clause = {"act": action_clause(answer, e, a), "fallback": "timing.fallback",
                      "error": "state.fields"}.get(key)
            c.compare(hand, decision, key, e, a, STATE_ORDER, clause=clause)
    except _Stop:
        pass
    return c


def judge_views(spec: dict, decision: int, answer: object, actual: dict, views, family: str) -> GameVerdict:
    """Like :func:`judge_game` for a one-decision vector: ``views(spec)`` is what the reference does
    with ``spec`` (with a ``rulings`` profile when one is tried)."""
    expected = views(spec)
    hand = expected["state"]["handNumber"] if isinstance(expected.get("state"), dict) else None
    c = compare_views(expected, actual, hand, decision, answer)

    def replay_under(p: dict) -> Comparison:
        return compare_views(views({**spec, "rulings": p}), actual, hand, decision, answer, stop=True)

    if c.first is None:
        v = _order_only(c)
        if note := _default_followed_note(family, spec, replay_under):
            v.notes.append(note)
        return v
    proof = search(family, spec, 0, replay_under)
    if proof is not None and not proof.ruled_out:
        return GameVerdict("divergent", f"the reference under {_profile_text(proof.profile)} reproduces it",
                           rulings=sorted(set(proof.profile) | proof.comparison.rulings, key=_number),
                           alternative=proof.profile)
    if proof is not None:
        return _diagnosed(c, proof, replay_under, "it")
    message, details = describe(c)
    return GameVerdict("failed", message, c.first, c.later_count, c.answers_json(), details=details,
                       failures=list(c.firsts), positions=c.positions)


def _profile_text(profile: dict) -> str:
    return ", ".join(f"{r} = {option!r}" for r, option in sorted(profile.items()))


def _number(ruling_id: str) -> int:
    return int(ruling_id[1:])


@dataclass
class Proof:
    """A profile under which the reference reproduces the engine exactly; ``ruled_out``: the records
    of its options that the ruleset's text rules out (then it is a diagnosis of a failure, not a divergence)."""

    profile: dict
    comparison: Comparison
    ruled_out: list = field(default_factory=list)


def prove(family: str, spec: dict, base: int, replay_under) -> tuple[dict, Comparison] | None:
    """The documented ruling alternative (:func:`search`) under which the reference reproduces the
    engine exactly, with that replay's comparison; or None (also when only options the text rules
    out reproduce it)."""
    proof = search(family, spec, base, replay_under)
    return None if proof is None or proof.ruled_out else (proof.profile, proof.comparison)


def search(family: str, spec: dict, base: int, replay_under) -> Proof | None:
    """The first profile under which the reference reproduces the engine exactly, or None.

    ``replay_under(profile)`` replays under a profile, stopping at the first difference; ``base``
    is how far the default replay matched (:func:`reach`). First the alternatives the engine was
    proven to follow elsewhere (:class:`EngineChoices`), alone and with each other single
    alternative; then every single alternative of a ruling that can change ``family`` (documented
    order), then every pair of alternatives of which at least one alone matched further than the
    default (a pair of two that each change nothing earlier would not explain a difference the
    default shows first). Only then the options the ruleset's text rules out, alone and in such
    pairs (reference.rulings.diagnoses_to_try): a profile with one of them is a diagnosis.
    """
    ruleset = _ruleset_of(spec)
    ids = [rid for rid, ruling in RULINGS.items() if family in ruling.families]
    known = _known(family, ruleset)
    tried = set()

    def attempt(profile: dict) -> Comparison | None:
        key = tuple(sorted(profile.items()))
        if key in tried:
            return None
        tried.add(key)
        return replay_under(dict(profile))

    if known:
        for extra in [{}] + [dict(p) for p in profiles_to_try([r for r in ids if r not in known], 1, ruleset)]:
            profile = {**known, **extra}
            c = attempt(profile)
            if c is not None and c.first is None:
                return Proof(profile, c)
    promising = set()
    for profile in profiles_to_try(ids, 1, ruleset):
        c = attempt(dict(profile))
        if c is not None and c.first is None:
            return Proof(dict(profile), c)
        if c is not None and reach(c) > base:
            promising |= set(profile.items())
    for profile in profiles_to_try(ids, 2, ruleset):
        if len(profile) == 2 and promising & set(profile.items()):
            c = attempt(dict(profile))
            if c is not None and c.first is None:
                return Proof(dict(profile), c)
    for profile in diagnoses_to_try(ids, ruleset):
        if len(profile) == 1 or promising & set(profile.items()):
            c = replay_under(dict(profile))
            if c.first is None:
                return Proof(dict(profile), c, ruled_out_in(profile, ruleset))
            if len(profile) == 1 and reach(c) > base:
                promising |= set(profile.items())
    return None
