"""The hand-level API (docs/engine-api.md, createHand): one hand from given seats, stacks, button,
blinds and pinned cards, outside any tournament (the ``hand`` conformance profile, issue #15).

A hand spec is ``{ids, stacks, button, smallBlindSeat, bigBlindSeat, blinds, deck, handNumber?}``;
:func:`create_hand` checks it (a bad field raises OptionError naming it) and deals a
:class:`reference.hand.Hand` (R3: the deck's cards first, R2: the unused ones after them in canonical
order; R15: a stack of 0 is a seat that is out). :func:`hand_result` is ``hand.result()``.
"""
from __future__ import annotations

import copy

from .errors import HoldemError, OptionError
from .hand import Hand
from .state import hand_state

MIN_SEATS, MAX_SEATS = 2, 9
SPEC_FIELDS = ("ids", "stacks", "button", "smallBlindSeat", "bigBlindSeat", "blinds", "deck", "handNumber")
REQUIRED = SPEC_FIELDS[:-1]
# Hand's keyword arguments -> the spec's field names (an error names the field the caller wrote).
_SPEC_NAME = {"small_blind_seat": "smallBlindSeat", "big_blind_seat": "bigBlindSeat"}


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_spec(spec: object) -> None:
    """OptionError naming the first field of ``spec`` that is not a hand spec's."""
    if not isinstance(spec, dict):
        raise OptionError("spec", f"expected an object, got {type(spec).__name__}")
    for key in spec:
        if key not in SPEC_FIELDS:
            raise OptionError(str(key), f"unknown hand field (known: {', '.join(SPEC_FIELDS)})")
    for key in REQUIRED:
        if key not in spec:
            raise OptionError(key, "missing")
    ids = spec["ids"]
    if not isinstance(ids, list) or not MIN_SEATS <= len(ids) <= MAX_SEATS:
        raise OptionError("ids", f"expected {MIN_SEATS} to {MAX_SEATS} seat ids, got {ids!r}"[:300])
    for i, x in enumerate(ids):
        if not isinstance(x, str) or not x or ids.index(x) < i:
            raise OptionError(f"ids[{i}]", f"expected a distinct non-empty string, got {x!r}"[:300])
    if not isinstance(spec["blinds"], list):
        raise OptionError("blinds", f"expected [small, big], got {spec['blinds']!r}"[:300])
    for field in ("button", "smallBlindSeat", "bigBlindSeat"):
        if not _int(spec[field]):
            raise OptionError(field, f"expected a seat index, got {spec[field]!r}"[:300])
    if "handNumber" in spec and not (_int(spec["handNumber"]) and spec["handNumber"] > 0):
        raise OptionError("handNumber", f"expected a positive integer, got {spec['handNumber']!r}"[:300])


def create_hand(spec: object, rulings=None, dealt: dict | None = None) -> Hand:
    """The hand of ``spec`` (see the module's text), playing ``rulings`` (reference.rulings); ``dealt``
    fixes the cards of some seats and of the board (reference.hand.deck_dealing)."""
    check_spec(spec)
    try:
        return Hand(ids=spec["ids"], stacks=spec["stacks"], button=spec["button"],
                    small_blind_seat=spec["smallBlindSeat"], big_blind_seat=spec["bigBlindSeat"],
                    blinds=tuple(spec["blinds"]), deck=spec["deck"], hand_number=spec.get("handNumber", 1),
                    rulings=rulings, dealt=dealt)
    except OptionError as exc:
        if exc.field not in _SPEC_NAME:
            raise
        raise OptionError(_SPEC_NAME[exc.field], exc.reason) from None


def hand_result(hand: Hand) -> dict | None:
    """``hand.result()``: None until the hand is over; then its history entry (R14, R25 n/a) and
    every seat's chips after it (refunds and awards included)."""
    if not hand.done:
        return None
    return {"result": hand.history_entry(), "chips": list(hand.stacks)}


def play_script(hand: Hand, answers, refused, edit=None) -> dict:
    """The protocol's result for a hand (docs/engine-protocol.md, hand): before each answer the
    state, then ``act``; a refused answer is recorded as ``{"threw": refused(exc)}`` and ends it.
    With ``edit`` (the runner's edits, reference.adapter.mutate) each state handed out is edited,
    then a second one is recorded in ``again`` (state.fresh)."""
    out: dict = {"decisions": [], **({"again": []} if edit else {}), "actions": []}
    for answer in answers:
        if hand.done:
            break
        state = hand_state(hand)
        out["decisions"].append(copy.deepcopy(state) if edit else state)
        if edit:
            edit(state)
            out["again"].append(hand_state(hand))
        try:
            out["actions"].append(hand.act(answer))
        except HoldemError as exc:
            out["actions"].append({"threw": refused(exc)})
            break
    return {**out, "over": hand.done, "result": hand_result(hand)}
