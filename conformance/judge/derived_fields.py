"""The decision state's fields the contract defines from its other fields (issue #38, item 1).

``toCall`` is the capped call (``min(currentBet - you.bet, you.stack)``), ``minRaiseTo``
``currentBet + lastFullRaise`` or null where raising is closed, ``maxRaiseTo`` ``you.bet +
you.stack``, ``canCheck`` and ``canAllIn`` follow from the same figures, ``pots`` are the merged
layers of the seats' contributions and ``you`` repeats the acting seat's entry of ``seats``
(contract, Decision state). An engine's derived field is judged against the engine's own other
fields: where those differ from the reference's (each such difference judged on its own), the
reference stands on the engine's state (conformance.judge.following) and derives these fields from
it, so one wrong field is one difference, not a cascade through every field computed from it.
"""
from __future__ import annotations

DERIVED = frozenset(("toCall", "minRaiseTo", "maxRaiseTo", "canCheck", "canAllIn", "pots", "you"))


def top_field(path: str, under: str) -> str:
    """The decision state's field a difference at ``path`` (inside ``under``) is in."""
    rest = path[len(under):].lstrip(".")
    for stop in (".", "["):
        rest = rest.split(stop, 1)[0]
    return rest


def is_derived(path: str, under: str = "state") -> bool:
    return top_field(path, under) in DERIVED


def is_base(path: str, under: str = "state") -> bool:
    return top_field(path, under) not in DERIVED


def _int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def from_own_fields(expected: dict, state: dict) -> dict:
    """``expected`` (the reference standing on the engine's state) with the betting fields the
    contract defines by formula computed from the engine's own figures: the capped ``toCall``,
    ``maxRaiseTo``, ``canCheck`` and ``canAllIn`` (an all-in is a raise where raising is open --
    the engine's own ``minRaiseTo`` says whether -- or a call of at most the stack). A figure the
    engine gives in no usable form leaves the reference's value."""
    you = state.get("you")
    if not isinstance(you, dict):
        return expected
    bet, stack, current = you.get("bet"), you.get("stack"), state.get("currentBet")
    if not (_int(bet) and _int(stack) and _int(current)):
        return expected
    own = {"toCall": min(current - bet, stack) if current > bet else 0, "maxRaiseTo": bet + stack,
           "canCheck": bet >= current}
    max_to, min_to = state.get("maxRaiseTo"), state.get("minRaiseTo")
    if _int(max_to) and (min_to is None or _int(min_to)):
        own["canAllIn"] = stack > 0 and (min_to is not None or max_to <= current)
    seats, seat = state.get("seats"), you.get("seat")
    if isinstance(expected.get("you"), dict) and isinstance(seats, list) and _int(seat) and 0 <= seat < len(seats) \
            and isinstance(seats[seat], dict):
        # ``you`` repeats the acting seat's entry: its chips are judged against the engine's own entry
        own["you"] = {**expected["you"], **{k: seats[seat][k] for k in ("stack", "bet", "total") if k in seats[seat]}}
    return {**expected, **{k: v for k, v in own.items() if k in expected}}
