"""pokerkit (PyPI) speaking the engine protocol: the ``hand`` profile, over ``--cmd``.

    holdem-cert engine --cmd "python -m conformance.implementations.pokerkit_engine"

An adapter renames and reshapes; it never decides a rule (docs/adapters.md). pokerkit's
``NoLimitTexasHoldem`` in tournament mode plays every betting decision and settles the pots; this
module only translates:

- seats: pokerkit numbers the players of a hand by position (3+ players: small blind first,
  the button last; heads-up: the big blind first, the button second), which is the contract's
  dealing order (R3) from left of the button; seats with 0 chips are left out and mapped back.
  A spec whose blinds are not where pokerkit puts them is answered ``skipped``.
- cards: pokerkit deals nothing by itself here; every card it asks for (hole cards one at a
  time, burns, boards) is the next card of the pinned deck.
- the decision state's fields are pokerkit's numbers renamed: ``toCall`` its calling amount,
  ``currentBet`` its largest bet, ``lastFullRaise`` its minimum raise increment, ``minRaiseTo``
  that increment above the largest bet when pokerkit allows a raise (pokerkit caps it at the
  stack; the contract does not), ``pots`` the contribution layers of the seats' totals (what the
  judged ``seats[].total`` and ``folded`` already say; pokerkit's own pots hold only collected bets).
- answers: the contract's answer forms (R19) are read with the contract's parser, then given to
  pokerkit: ``check`` and ``call`` are its ``check_or_call`` when its calling amount is (not) 0,
  ``allin`` a raise to the whole stack, or a call when the stack does not exceed the bet.
  pokerkit's refusals are thrown with its message and, where the message names a contract reason,
  the contract's code.
- the result: every live hand is shown at a showdown (the contract makes every live hand public;
  pokerkit leaves showing to the player); ``winners`` are pokerkit's chip pushes, ``chips`` its
  final stacks.
"""
from __future__ import annotations

import sys
import traceback
from importlib.metadata import version

from pokerkit import Automation, Mode, NoLimitTexasHoldem

from reference.actions import parse_answer
from reference.adapter import decode, serve
from reference.errors import HoldemError, OptionError
from reference.hand import STREETS, complete_deck
from reference.hand_api import check_spec
from reference.pots import layer_pots

NAME = "pokerkit"
VERSION = version("pokerkit")
# pokerkit posts the blinds, collects bets (refunding the uncalled excess) and kills beaten hands
# itself; the adapter deals the pinned cards, shows the hands and pushes the chips, to see them.
AUTOMATIONS = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
               Automation.HAND_KILLING)


class Skip(Exception):
    """The spec asks for something pokerkit cannot express."""


class Refused(Exception):
    """pokerkit (or the answer's syntax) refused an answer: thrown with ``field`` (and ``code``)."""

    def __init__(self, field: str, message: str, code: str | None = None):
        super().__init__(message)
        self.field, self.code = field, code


def _card(card) -> str:
    return f"{card.rank}{card.suit}"


class PokerkitHand:
    """One hand of the hand-level API (docs/engine-api.md) over a pokerkit state."""

    def __init__(self, spec: dict):
        check_spec(spec)  # the API's spec shape (its fields named); pokerkit checks the chips
        self.ids = list(spec["ids"])
        stacks = list(spec["stacks"]) if isinstance(spec["stacks"], list) else None
        n = len(self.ids)
        # What laying the seats out needs (one stack per seat, two players): refused naming the field.
        if stacks is None or len(stacks) != n:
            raise OptionError("stacks", f"expected {n} stacks, one per seat, got {spec['stacks']!r}"[:300])
        if sum(1 for c in stacks if isinstance(c, (int, float)) and c > 0) < 2:
            raise OptionError("stacks", "a hand needs at least two seats with chips")
        self.n = n
        self.button, self.sb_seat, self.bb_seat = spec["button"], spec["smallBlindSeat"], spec["bigBlindSeat"]
        self.blinds = list(spec["blinds"])
        self.hand_number = spec.get("handNumber", 1)
        self.in_hand = [c > 0 for c in stacks]
        # pokerkit's player k is seat order[k]: clockwise from left of the button.
        start = self.button + 1
        self.order = [s % n for s in range(start, start + n) if self.in_hand[s % n]]
        heads_up = len(self.order) == 2
        expected = (self.order[1], self.order[1], self.order[0]) if heads_up else \
            (self.order[-1], self.order[0], self.order[1])
        if (self.button, self.sb_seat, self.bb_seat) != expected:
            raise Skip(f"pokerkit puts the button and blinds by position (button {expected[0]}, small blind "
                       f"{expected[1]}, big blind {expected[2]} for these seats); the spec has {self.button}, "
                       f"{self.sb_seat}, {self.bb_seat}")
        self.index = {s: k for k, s in enumerate(self.order)}
        self.deck = iter(complete_deck(spec["deck"]))
        sb, bb = self.blinds
        self.state = NoLimitTexasHoldem.create_state(
            AUTOMATIONS, True, 0, (sb, bb), bb, [stacks[s] for s in self.order], len(self.order),
            mode=Mode.TOURNAMENT)
        self.start = [stacks[s] for s in self.order]
        self.actions: list[dict] = []
        self.pushed = [0] * len(self.order)
        self.shown: dict[int, tuple] = {}  # pokerkit player -> the hole cards it showed
        self._advance()

    # -- pokerkit's own steps between decisions -------------------------------------------------
    def _advance(self) -> None:
        """Deal what pokerkit asks for from the pinned deck, show every live hand, push the pots."""
        st = self.state
        while True:
            if st.can_burn_card():
                st.burn_card(next(self.deck))
            elif st.can_deal_hole():
                st.deal_hole(next(self.deck))
            elif st.can_deal_board():
                st.deal_board("".join(next(self.deck) for _ in range(st.board_dealing_count)))
            elif st.can_show_or_muck_hole_cards():
                shown = st.show_or_muck_hole_cards(True)  # read now: pokerkit kills beaten hands later
                self.shown[shown.player_index] = shown.hole_cards
            elif st.can_push_chips():
                for k, amount in enumerate(st.push_chips().amounts):
                    self.pushed[k] += amount
            elif st.can_pull_chips():
                st.pull_chips()
            else:
                return

    # -- the API ---------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return not self.state.status

    def _seat_numbers(self, s: int) -> tuple[int, int, int, bool]:
        """(stack, bet, total, folded) of seat ``s`` from pokerkit's player."""
        if not self.in_hand[s]:
            return 0, 0, 0, True  # a seat pokerkit never sees: out (R15's chosen flags)
        k, st = self.index[s], self.state
        stack, bet = st.stacks[k], st.bets[k]
        return stack, bet, self.start[k] - stack, not st.statuses[k]

    def state_view(self) -> dict | None:
        st = self.state
        k = st.actor_index
        if self.over or k is None:
            return None
        s = self.order[k]
        stack, bet, total, _ = self._seat_numbers(s)
        current = max(st.bets)
        to_call = st.checking_or_calling_amount
        increment = max(st.completion_betting_or_raising_amount, st.street.min_completion_betting_or_raising_amount)
        min_raise_to = None if st.min_completion_betting_or_raising_to_amount is None else current + increment
        numbers = [self._seat_numbers(i) for i in range(self.n)]
        return {
            "handNumber": self.hand_number,
            "street": STREETS[st.street_index],
            "you": {"id": self.ids[s], "seat": s, "cards": [_card(c) for c in st.hole_cards[k]],
                    "stack": stack, "bet": bet, "total": total},
            "board": [_card(c) for c in st.get_board_cards(0)],
            "pots": layer_pots(self.ids, [x[2] for x in numbers], [x[3] for x in numbers]),
            "toCall": to_call,
            "minRaiseTo": min_raise_to,
            "maxRaiseTo": bet + stack,
            "canCheck": to_call == 0,
            "canAllIn": stack > 0 and (min_raise_to is not None or bet + stack <= current),
            "currentBet": current,
            "lastFullRaise": increment,
            "blinds": list(self.blinds),
            "buttonSeat": self.button,
            "smallBlindSeat": self.sb_seat,
            "bigBlindSeat": self.bb_seat,
            "seats": [{"id": self.ids[i], "seat": i, "stack": x[0], "bet": x[1], "total": x[2], "folded": x[3],
                       "allIn": x[0] == 0 and not x[3], "out": not self.in_hand[i]} for i, x in enumerate(numbers)],
            "actions": [dict(a) for a in self.actions],
        }

    def act(self, answer: object) -> dict:
        st = self.state
        if self.over or st.actor_index is None:
            raise Refused("action", "the hand is over")
        try:
            kind, amount = parse_answer(answer)
        except HoldemError as exc:
            raise Refused(exc.field, exc.reason, getattr(exc, "code", None)) from None
        k = st.actor_index
        street, bet, stack, owed = STREETS[st.street_index], st.bets[k], st.stacks[k], st.checking_or_calling_amount
        try:
            if kind == "fold":
                st.fold()
                added = 0
            elif kind in ("check", "call"):
                if (kind == "check") != (owed == 0):  # pokerkit's check_or_call would do the other one
                    raise Refused("type", f"pokerkit's check_or_call would {'call ' + str(owed) if owed else 'check'} here",
                                  f"{kind}-not-allowed")
                added = st.check_or_call().amount
            elif kind == "raise" or bet + stack > max(st.bets):
                to = bet + stack if kind == "allin" else amount
                st.complete_bet_or_raise_to(to)
                added = to - bet
            else:  # an all-in that does not exceed the largest bet is pokerkit's call
                added = st.check_or_call().amount
        except ValueError as exc:
            code = _code(kind, str(exc))
            if code == "amount-below-min" and amount <= max(st.bets):  # the contract names this case apart
                code = "amount-not-above-current-bet"
            raise Refused("amount" if kind == "raise" else "type", f"pokerkit: {exc}", code) from None
        record = {"id": self.ids[self.order[k]], "street": street, "type": kind, "amount": added}
        self.actions.append(record)
        self._advance()
        return dict(record)

    def result(self) -> dict | None:
        if not self.over:
            return None
        st = self.state
        board = [_card(c) for c in st.get_board_cards(0)]
        showdown = []
        if len(self.shown) > 1:  # pokerkit's own evaluator names each hand (its labels are the contract's names)
            for k in sorted(self.shown, key=self.order.__getitem__):
                hole = self.shown[k]
                label = st.hand_types[0].from_game(hole, st.get_board_cards(0)).entry.label.value
                showdown.append({"id": self.ids[self.order[k]], "cards": [_card(c) for c in hole], "hand": label})
        winners = [{"id": self.ids[s], "amount": self.pushed[self.index[s]]}
                   for s in range(self.n) if self.in_hand[s] and self.pushed[self.index[s]] > 0]
        chips = [st.stacks[self.index[s]] if self.in_hand[s] else 0 for s in range(self.n)]
        return {"result": {"handNumber": self.hand_number, "board": board, "showdown": showdown, "winners": winners},
                "chips": chips}


# pokerkit's reasons for refusing a bet or raise, and the contract's code for the same reason.
_RAISE_REFUSALS = (("below the minimum", "amount-below-min"), ("above the maximum", "amount-above-max"),
                   ("cannot raise", "raise-not-allowed"), ("cannot be raised", "raise-not-allowed"),
                   ("already covered", "raise-not-allowed"), ("no reason to complete", "raise-not-allowed"))


def _code(kind: str, message: str) -> str | None:
    """The contract's code for pokerkit's refusal, when its message names the same reason."""
    if kind not in ("raise", "allin"):
        return None  # pokerkit refuses a fold only where the contract has no refusal at all
    for words, code in _RAISE_REFUSALS:
        if words in message:
            return "allin-not-allowed" if kind == "allin" and code == "raise-not-allowed" else code
    return None


def thrown(exc: Exception) -> dict:
    out = {"name": type(exc).__name__, "message": str(exc)}
    field = getattr(exc, "field", None)
    if isinstance(field, str):
        out["field"] = field
    code = getattr(exc, "code", None)
    if isinstance(code, str):
        out["code"] = code
    return out


def run_hand(i: dict) -> dict:
    """The ``hand`` family (docs/engine-protocol.md): the state before each answer, then act."""
    try:
        hand = PokerkitHand(i["hand"])
    except (ValueError, TypeError) as exc:  # the spec's shape (HoldemError names the field) or pokerkit's check
        return {"error": {"at": "createHand", **thrown(exc)}}
    out: dict = {"decisions": [], "actions": []}
    for a in i["script"]:
        state = hand.state_view()
        if state is None:
            break
        out["decisions"].append(state)
        try:
            out["actions"].append(hand.act(decode(a)))
        except Refused as exc:
            out["actions"].append({"threw": thrown(exc)})
            break
    out.update(over=hand.over, result=hand.result())
    return out


def answer(request: dict) -> dict:
    if request.get("cmd") == "start":
        return {"version": 1, "implementation": {"name": NAME, "version": VERSION, "language": "python"},
                "profiles": ["hand"]}
    seq = request.get("seq")
    vector = request.get("vector") or {}
    if vector.get("family") != "hand":
        return {"seq": seq, "skipped": {"reason": f"pokerkit implements the hand profile only, not {vector.get('family')!r}"}}
    try:
        return {"seq": seq, "result": run_hand(vector["test"]["input"])}
    except Skip as exc:
        return {"seq": seq, "skipped": {"reason": str(exc)}}
    except Exception:  # noqa: BLE001 - pokerkit or adapter trouble is reported, never a dead process
        return {"seq": seq, "errored": {"context": traceback.format_exc()}}


def main() -> int:
    return serve(answer)


if __name__ == "__main__":
    sys.exit(main())
