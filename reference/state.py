"""The decision ``state`` object (contract, Decision state): a fresh plain dict per decision.

Its functions read a :class:`reference.tournament.Tournament` ``t``, which calls them, or a
:class:`reference.hand.Hand` (``hand_state``: a lone hand's); this module does not import them, so the two modules do not import each other (issue #16)."""
from __future__ import annotations

from .hand import STREETS

HISTORY_LIMIT = 20
# R15: an eliminated seat's (folded, allIn) under each option (ours: "folded").
OUT_SEAT_FLAGS = {"folded": (True, False), "all-in": (False, True), "folded-and-all-in": (True, True),
                  "neither": (False, False)}


def decision_state(t, history: bool = True) -> dict:
    """The state for the seat to act. ``history=False`` leaves ``"history": None`` in its place,
    for a caller that takes the entries from ``t.history`` itself (the arena runner sends each
    finished hand once, see ``conformance.host.worker.StateWire``)."""
    hand = t.hand
    assert hand is not None and hand.to_act is not None
    rules = t.ruleset
    return {
        **hand_state(hand, t.names),
        "history": t.public_history(HISTORY_LIMIT) if history else None,
        "tournament": {
            "startingStack": rules.starting_stack,
            "maxHands": rules.max_hands,
            "handsPerLevel": rules.hands_per_level,
            "level": t.level(),
            "blindSchedule": [list(level) for level in rules.blind_schedule],
        },
        "timeLimitMs": t.time_limit_ms,
    }


def hand_state(hand, names: "list[str] | None" = None) -> dict:
    """The hand-level fields of the decision state for the seat to act (docs/engine-api.md,
    createHand): every field but ``history``, ``tournament`` and ``timeLimitMs``. ``names``: the
    seats' names (a tournament's); a lone hand has none, and its seats carry no ``name``."""
    s = hand.to_act
    assert s is not None
    legal = hand.legal()
    return {
        "handNumber": hand.hand_number,
        "street": STREETS[hand.street],
        "you": {
            "id": hand.ids[s],
            "seat": s,
            "cards": list(hand.hole[s]),
            "stack": hand.stacks[s],
            "bet": hand.bet[s],
            "total": hand.total[s],
        },
        "board": list(hand.board),
        "pots": hand.pots(),
        "toCall": legal.to_call,
        "minRaiseTo": legal.min_raise_to,
        "maxRaiseTo": legal.max_raise_to,
        "canCheck": legal.can_check,
        "canAllIn": legal.can_allin,
        "currentBet": legal.current_bet,
        "lastFullRaise": legal.last_full_raise,
        "blinds": [hand.sb, hand.bb],
        "buttonSeat": hand.button,
        "smallBlindSeat": hand.sb_seat,
        "bigBlindSeat": hand.bb_seat,
        "seats": [_seat(hand, i, names) for i in range(hand.n)],
        "actions": [dict(a) for a in hand.actions],
    }


def _seat(hand, i: int, names: "list[str] | None") -> dict:
    name = {"name": names[i]} if names is not None else {}
    if not hand.in_hand[i]:  # out before this hand (R15)
        folded, all_in = OUT_SEAT_FLAGS[hand.ruleset.out_seat_flags]
        return {"id": hand.ids[i], **name, "seat": i, "stack": 0, "bet": 0, "total": 0,
                "folded": folded, "allIn": all_in, "out": True}
    return {
        "id": hand.ids[i],
        **name,
        "seat": i,
        "stack": hand.stacks[i],
        "bet": hand.bet[i],
        "total": hand.total[i],
        "folded": hand.folded[i],
        "allIn": hand.stacks[i] == 0 and not hand.folded[i],
        "out": False,
    }
