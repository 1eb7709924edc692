"""The ``hand`` family (the hand-level API, docs/engine-api.md, createHand): the step judge on an
engine's hand trajectory (what the reference does with a hand vector is ``gamespec.play_hand``).

A trajectory is the protocol's result (docs/engine-protocol.md, hand): ``decisions[i]`` (the state
before answer i), ``again[i]`` (optional: a second ``state()`` after the runner edited the first,
which must equal ``decisions[i]``: clause ``state.fresh``, as in the hands family), ``actions[i]``
(the record ``act`` returned, or ``{"threw": {...}}``, after which the engine stops), ``over`` and
``result`` (``hand.result()``: the history entry and every seat's chips). Only the hand-level
fields of a state are judged (:data:`HAND_FIELDS`; extra fields such as ``history`` or
``tournament`` are ignored). The first divergence names the decision, the field, the expected and
actual values and the clause; a difference the reference reproduces under documented ruling
alternatives (reference/rulings.py, families ``hand``) is divergent, as for games.
"""
from __future__ import annotations

from reference.errors import HoldemError
from reference.hand import complete_deck
from reference.hand_api import create_hand, hand_result
from reference.state import hand_state

from conformance.vectors.gamespec import answer as decode_answer

from .js_values import js_text
from .refusals import is_refusal
from . import dealing
from .comparison import Comparison, _Stop, _thrown
from .field_clauses import clause_for
from .following import CANNOT_FOLLOW, asked_after_the_end, follow_state, replay_decisions
from .step_judge import GameVerdict, verdict
from .trajectory import Plan, attempt

FAMILY = "hand"
NEVER_ENDS = "a hand that never ends (the seat it waits on not reported)"
# The decision state's hand-level fields and a seat's (``name`` is optional and not judged).
HAND_FIELDS = ("handNumber", "street", "you", "board", "pots", "toCall", "minRaiseTo", "maxRaiseTo", "canCheck",
               "canAllIn", "currentBet", "lastFullRaise", "blinds", "buttonSeat", "smallBlindSeat", "bigBlindSeat",
               "seats", "actions")
SEAT_FIELDS = ("id", "seat", "stack", "bet", "total", "folded", "allIn", "out")


def hand_view(state: object) -> object:
    """An engine's decision state as judged: its hand-level fields only (absent ones stay absent)."""
    if not isinstance(state, dict):
        return state
    view = {k: state[k] for k in HAND_FIELDS if k in state}
    if isinstance(view.get("seats"), list):
        view["seats"] = [{k: s[k] for k in SEAT_FIELDS if k in s} if isinstance(s, dict) else s for s in view["seats"]]
    return view


def _action_view(action: object) -> object:
    """A refused answer as the reference reports it: ``{"threw": code}`` (the code is the contract's)."""
    if isinstance(action, dict) and isinstance(action.get("threw"), dict):
        return {"threw": action["threw"].get("code")}
    return action


class ReferenceHand:
    """The reference playing a hand vector: ``{"hand": spec, "rulings"?: profile, "dealt"?: cards by
    seat}`` (``dealt``: an engine's own dealing, followed: conformance.judge.dealing)."""

    def __init__(self, spec: dict) -> None:
        self.hand = create_hand(spec["hand"], rulings=spec.get("rulings"), dealt=spec.get("dealt"))

    def state(self) -> dict | None:
        return None if self.hand.done else hand_state(self.hand)

    def act(self, answer: object) -> dict:
        return attempt(self.hand.act, answer)

    # Following the engine (conformance.judge.following); after the hand's end too (a hand that never ends).
    def hand_now(self):
        return self.hand

    def follow_state(self, state: object) -> bool:
        return follow_state(self.hand, state)

    def follow_action(self, state: object, record: object) -> bool:
        if not self.follow_state(state):
            return False
        try:
            self.hand.apply_record(record)
        except CANNOT_FOLLOW:
            return False
        return True

    def auto_folded_sooner(self, state: object) -> bool:
        """A lone hand counts no timeouts: no auto-fold is set sooner (trajectory.ReferenceGame's)."""
        return False

    def end(self) -> dict:
        return {"over": self.hand.done, "result()": hand_result(self.hand)}


# What a spec field describes -> its clause (a valid hand refused naming the field: one cause).
_SPEC_CLAUSES = {"ids": "rules.seats", "stacks": "rules.seats", "button": "state.positions",
                 "smallBlindSeat": "state.positions", "bigBlindSeat": "state.positions", "blinds": "state.positions",
                 "deck": "rules.cards", "handNumber": "state.fields"}


def refused_at_creation(error: object) -> tuple[str, str]:
    """The clause and kind of a valid hand spec that ``createHand`` refused (issue #38, item 2): one
    cause naming what was refused -- the field the engine's error names (``field``, else the first
    spec field its message names), its clause the rule that field states."""
    named = error.get("field") if isinstance(error, dict) else None
    text = str(error.get("message") if isinstance(error, dict) else error)
    if not isinstance(named, str) or named.split("[")[0] not in _SPEC_CLAUSES:
        named = next((f for f in _SPEC_CLAUSES if f in text), None)
    if named is None:
        return "rules.seats", "a valid hand refused at creation"
    field = named.split("[")[0]
    return _SPEC_CLAUSES[field], f"a valid hand refused at creation (its {field})"


def _clause_for(path: str) -> str:
    """A field's clause in a lone hand: its number is the spec's, so a wrong one misreports the
    state's fields (in a tournament it is the count of hands played, rules.end)."""
    return "state.fields" if path == "state.handNumber" else clause_for(path)


def replay(spec: dict, trajectory: dict, *, stop: bool = False, lite: bool = False,
           seen: "dict | None" = None) -> Comparison:
    """Compare every step of an engine's hand ``trajectory`` with the reference playing ``spec``
    (``{"hand", "script", "rulings"?}``); ``stop``: at the first difference; ``lite``: Comparison.lite;
    ``seen``: :func:`views` of the trajectory (made once for all the replays of one verdict)."""
    out = Comparison(stop=stop, clause_of=_clause_for, lite=lite)
    try:
        _replay(out, spec, trajectory, seen)
    except _Stop:
        pass
    return out


def views(trajectory: dict) -> dict:
    """The trajectory as judged: its states' hand-level fields (hand_view), refusals as the reference reports them."""
    decisions = trajectory.get("decisions") if isinstance(trajectory.get("decisions"), list) else []
    actions = trajectory.get("actions") if isinstance(trajectory.get("actions"), list) else []
    seen = {"decisions": [hand_view(s) for s in decisions], "actions": [_action_view(a) for a in actions],
            "error": trajectory.get("error")}
    if isinstance(trajectory.get("again"), list):  # second states after the runner's edits: state.fresh
        seen["again"] = [hand_view(s) for s in trajectory["again"]]
    if isinstance(trajectory.get("waiting"), dict):  # the state after the script: tells a misstated last record
        seen["after"] = hand_view(trajectory["waiting"])
    return seen


def _replay(out: Comparison, spec: dict, trajectory: dict, seen: "dict | None" = None) -> None:
    ref = ReferenceHand(spec)
    script = [decode_answer(a) for a in spec["script"]]
    error = trajectory.get("error")
    if error is not None and not trajectory.get("decisions"):  # createHand refused a valid spec
        clause, kind = refused_at_creation(error)
        out.add(None, 0, "createHand", "a hand", {"error": _thrown(error)}, clause, kind=kind)
        return
    actions = trajectory.get("actions") if isinstance(trajectory.get("actions"), list) else []
    seen = views(trajectory) if seen is None else seen
    if not replay_decisions(ref, seen, Plan(tuple(script)), out, 0):
        return
    k = out.decisions
    refused = bool(actions) and is_refusal(seen["actions"][-1])
    if k < len(script) and not refused and (expected := ref.state()) is not None:
        out.add(expected["handNumber"], k, "state()", expected,
                {"error": _thrown(error)} if error else "(not recorded: the engine's hand ended)", "rules.end")
        return
    end = ref.end()
    if end["over"] is True and trajectory.get("over") is False:  # a hand that never ends: the seat it waits on
        if not asked_after_the_end(out, ref, None, k, hand_view(trajectory.get("waiting"))):
            out.add(None, None, "over", True, False, "rules.end", kind=NEVER_ENDS)
        return  # its result (null while not over) is that difference's consequence
    out.compare(None, None, "over", end["over"], trajectory.get("over"), clause="rules.end")
    ids = spec["hand"].get("ids") if isinstance(spec.get("hand"), dict) else None
    out.compare(None, None, "result()", _chips_from_own_awards(end["result()"], trajectory.get("result"),
                                                               ids if isinstance(ids, list) else []),
                trajectory.get("result"))


def _chips_from_own_awards(expected: object, actual: object, ids: list) -> object:
    """The reference's ``result()`` with each seat's chips judged from the engine's own awards
    (issue #38, item 1): where the engine's winners differ (judged on their own,
    field_clauses.award_difference) and its chips are the reference's moved by exactly those
    awards, the chips are their consequence, not a difference of their own."""
    try:
        own = {w["id"]: w["amount"] for w in actual["result"]["winners"]}
        ours = {w["id"]: w["amount"] for w in expected["result"]["winners"]}
        if own == ours or len(ids) != len(expected["chips"]):
            return expected
        chips = [c - ours.get(i, 0) + own.get(i, 0) for i, c in zip(ids, expected["chips"])]
    except (KeyError, TypeError, AttributeError):
        return expected
    return {**expected, "chips": chips} if chips == actual.get("chips") else expected


def judge_hand(spec: dict, trajectory: object) -> GameVerdict:
    """The verdict on one engine hand: passed, divergent (only lists whose order is a ruling differ,
    or the reference under documented ruling alternatives reproduces every step) or failed at the
    first divergence."""
    if not isinstance(trajectory, dict):
        return GameVerdict("failed", f"the result is not an object: {js_text(trajectory)}"[:600])
    judged_views = views(trajectory)  # the same for every replay below (none changes them)

    def judged(spec: dict, prove_each: bool = True) -> GameVerdict:
        return verdict(replay(spec, trajectory, seen=judged_views), FAMILY, {},
                       lambda p: replay({**spec, "rulings": p}, trajectory, stop=True, seen=judged_views),
                       follow_under=(lambda p: replay({**spec, "rulings": p}, trajectory, lite=True, seen=judged_views))
                       if prove_each else None)

    # An engine's own dealing (issue #23): judged on the cards it dealt.
    hand, number = spec.get("hand") or {}, (spec.get("hand") or {}).get("handNumber", 1)
    try:
        decks = {number: complete_deck(hand["deck"])}
    except (HoldemError, KeyError, TypeError):
        decks = None
    stacks = hand.get("stacks") if isinstance(hand.get("stacks"), list) else []
    positions = {number: (hand.get("button"), [isinstance(c, int) and c > 0 for c in stacks])}

    def seen():
        return dealing.observe(trajectory, ids=hand.get("ids") if isinstance(hand.get("ids"), list) else None,
                               hand_number=number)

    def rejudge(dealt: dict) -> GameVerdict:
        return judged({**spec, "dealt": dealt[number]} if number in dealt else spec)

    other = decks is not None and dealing.deals_other_cards(trajectory, decks, hand.get("ids") if isinstance(
        hand.get("ids"), list) else None, number)
    if other:  # no full judging on the pinned cards (dealing.followed_first)
        quick = dealing.followed_first(
            lambda: replay(spec, trajectory, lite=True, seen=judged_views), seen, decks, rejudge,
            lambda c, irreproducible: verdict(c, FAMILY, {}, lambda p: replay(
                {**spec, "rulings": p}, trajectory, stop=True, seen=judged_views), outcome_only=True,
                irreproducible=irreproducible), positions,
            states=lambda: dealing.observe({"decisions": trajectory["decisions"]} if isinstance(
                trajectory.get("decisions"), list) else {}, ids=hand.get("ids") if isinstance(hand.get("ids"), list)
                else None, hand_number=number))
        if quick is not None:
            return quick
    first = judged(spec, prove_each=not other)  # dealing other cards: judged again on them (dealing.followed)
    if first.status != "failed" or decks is None:
        return first
    return dealing.followed(first, seen(), decks, rejudge, positions)
