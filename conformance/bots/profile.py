"""Play-style statistics of each seat, from a finished tournament's hand records.

Input: the reference's hand records (``Tournament.hands`` or
``TournamentResult.hands``): per hand the blinds, blind seats, starting stacks,
hole cards of the seats dealt in, and the voluntary ``actions`` (``amount`` =
chips added, R20). Definitions, counted per seat over the hands it was dealt in:

``hands``
    hands dealt in (the seat received hole cards).
``vpip``
    share of those hands in which the seat voluntarily put chips in preflop: a
    call, raise or all-in before the flop. Posting a blind is not voluntary; a big
    blind that checks does not count.
``pfr``
    share of hands with a preflop raise: a ``raise``, or an ``allin`` that raised
    the preflop bet.
``aggressionFactor``
    (bets + raises) / calls over all streets, where a bet is the first wager of a
    postflop street, a raise any other wager above the street's current bet (an
    all-in that raises included), and a call a ``call`` or an all-in that does not
    raise. None when the seat never called (undefined).
``allInRate``
    share of hands in which a voluntary action of the seat committed its last chip
    (an ``allin``, or a call or raise of its whole stack).

Counts (``vpipHands``, ``pfrHands``, ``allInHands``, ``bets``, ``raises``,
``calls``, ``checks``, ``folds``) are kept so profiles of several tournaments add
up (:meth:`Profile.__add__`); rates are exact ratios of those integers.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Profile:
    hands: int = 0
    vpip_hands: int = 0
    pfr_hands: int = 0
    all_in_hands: int = 0
    bets: int = 0
    raises: int = 0
    calls: int = 0
    checks: int = 0
    folds: int = 0

    def __add__(self, other: "Profile") -> "Profile":
        return Profile(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)})

    def _rate(self, count: int) -> float | None:
        return count / self.hands if self.hands else None

    @property
    def vpip(self) -> float | None:
        return self._rate(self.vpip_hands)

    @property
    def pfr(self) -> float | None:
        return self._rate(self.pfr_hands)

    @property
    def all_in_rate(self) -> float | None:
        return self._rate(self.all_in_hands)

    @property
    def aggression_factor(self) -> float | None:
        return (self.bets + self.raises) / self.calls if self.calls else None

    def to_json(self) -> dict:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {
            "hands": self.hands, "vpip": r(self.vpip), "pfr": r(self.pfr),
            "aggressionFactor": r(self.aggression_factor), "allInRate": r(self.all_in_rate),
            "vpipHands": self.vpip_hands, "pfrHands": self.pfr_hands, "allInHands": self.all_in_hands,
            "bets": self.bets, "raises": self.raises, "calls": self.calls, "checks": self.checks, "folds": self.folds,
        }


def _seat_index(seat_id: str) -> int:
    return int(seat_id[1:]) - 1  # runner ids are s1..s9 in seat order


def _hand_counts(hand: dict) -> dict[str, dict[str, int]]:
    """Per seat id dealt in: the counters of one hand."""
    dealt = list(hand["holeCards"])
    stack = {i: hand["startStacks"][_seat_index(i)] for i in dealt}
    bet = dict.fromkeys(dealt, 0)
    small, big = hand["blinds"]
    sb_id, bb_id = f"s{hand['smallBlindSeat'] + 1}", f"s{hand['bigBlindSeat'] + 1}"
    for seat_id, blind in ((sb_id, small), (bb_id, big)):  # a short blind posts what it has (R8)
        posted = min(blind, stack[seat_id])
        bet[seat_id] += posted
        stack[seat_id] -= posted
    current = max(bet.values())
    street = "preflop"
    counts = {i: dict.fromkeys(("vpip", "pfr", "allin", "bets", "raises", "calls", "checks", "folds"), 0)
              for i in dealt}
    for action in hand["actions"]:
        if action["street"] != street:
            street, current, bet = action["street"], 0, dict.fromkeys(dealt, 0)
        c = counts[action["id"]]
        kind, amount = action["type"], action["amount"]
        if kind == "fold":
            c["folds"] += 1
        elif kind == "check":
            c["checks"] += 1
        else:
            bet[action["id"]] += amount
            stack[action["id"]] -= amount
            raised = bet[action["id"]] > current
            if not raised:
                c["calls"] += 1
            elif current == 0 and street != "preflop":
                c["bets"] += 1
            else:
                c["raises"] += 1
            current = max(current, bet[action["id"]])
            if street == "preflop":
                c["vpip"] = 1
                if raised:
                    c["pfr"] = 1
            if stack[action["id"]] == 0:
                c["allin"] = 1
    return counts


def profile_hands(hands: Iterable[dict]) -> dict[str, Profile]:
    """Each seat id's profile over the given hand records."""
    totals: dict[str, Profile] = {}
    for hand in hands:
        for seat_id, c in _hand_counts(hand).items():
            one = Profile(hands=1, vpip_hands=c["vpip"], pfr_hands=c["pfr"], all_in_hands=c["allin"],
                          bets=c["bets"], raises=c["raises"], calls=c["calls"], checks=c["checks"],
                          folds=c["folds"])
            totals[seat_id] = totals.get(seat_id, Profile()) + one
    return totals
