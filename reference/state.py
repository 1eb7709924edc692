"""The decision ``state`` object (contract, Decision state): a fresh plain dict per decision.

Its functions read a :class:`reference.tournament.Tournament` ``t``, which calls them; this module
does not import it, so the two modules do not import each other (issue #16)."""
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
    s = hand.to_act
    legal = hand.legal()
    rules = t.ruleset
    return {
        "handNumber": hand.hand_number,
        "street": STREETS[hand.street],
        "you": {
            "id": t.ids[s],
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
        "seats": [_seat(t, i) for i in range(t.n)],
        "actions": [dict(a) for a in hand.actions],
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


def _seat(t, i: int) -> dict:
    hand = t.hand
    assert hand is not None
    if not hand.in_hand[i]:  # eliminated before this hand (R15)
        folded, all_in = OUT_SEAT_FLAGS[t.ruleset.out_seat_flags]
        return {"id": t.ids[i], "name": t.names[i], "seat": i, "stack": 0, "bet": 0, "total": 0,
                "folded": folded, "allIn": all_in, "out": True}
    return {
        "id": t.ids[i],
        "name": t.names[i],
        "seat": i,
        "stack": hand.stacks[i],
        "bet": hand.bet[i],
        "total": hand.total[i],
        "folded": hand.folded[i],
        "allIn": hand.stacks[i] == 0 and not hand.folded[i],
        "out": False,
    }
