"""One hand of no-limit Texas Hold'em: blinds, dealing, betting, run-out, settlement.

The rules are the contract's (Rules, Return values); where it is silent the
rulings in docs/rulings.md decide, cited by id. Seats keep their original
indices; a seat with no chips at the start of the hand takes no part.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from .actions import Legal, check_legal, fallback, parse_answer
from .cards import CANONICAL_DECK, check_cards
from .errors import OptionError
from .evaluator import NAMES, hand_value
from .pots import layer_pots
from .ruleset import CONTRACT_V1, Ruleset
from .rulings import with_rulings

STREETS = ("preflop", "flop", "turn", "river")
_CATEGORY = 15**5


_FULL_DECK = frozenset(CANONICAL_DECK)


_COMPLETED: dict[tuple, list[str]] = {}  # complete_deck of valid decks (a judge replays a game's decks many times)


def complete_deck(cards: Sequence[str], field: str = "deck") -> list[str]:
    """A pinned deck: the given distinct cards first, then the unused ones in canonical order."""
    try:
        key = tuple(cards) if isinstance(cards, (list, tuple)) else None
        done = _COMPLETED.get(key) if key is not None else None
    except TypeError:  # an unhashable item: checked below
        key = done = None
    if done is not None:
        return list(done)
    whole = _complete_deck(cards, field)
    if key is not None:
        if len(_COMPLETED) >= 4096:
            _COMPLETED.clear()
        _COMPLETED[key] = whole
    return list(whole)


def _complete_deck(cards: Sequence[str], field: str) -> list[str]:
    given = check_cards(cards, field)
    if not 1 <= len(given) <= 52:
        raise OptionError(field, f"expected 1 to 52 cards, got {len(given)}")
    used = set(given)
    return given + [c for c in CANONICAL_DECK if c not in used]


def dealing_order(button: int, in_hand: Sequence[bool]) -> list[int]:
    """The seats in the hand clockwise from the first seat left of the button (R3's dealing order)."""
    n = len(in_hand)
    return [s for s in [*range(button + 1, n), *range(button + 1)] if in_hand[s]]


def deck_dealing(order: Sequence[int], dealt: dict, deck: Sequence[str]) -> list[str]:
    """A deck from which the contract's deal (R3: from the front, one card to each seat of ``order``
    twice, a burn before each street) gives the cards of ``dealt``: ``{"hole": {seat: cards},
    "board": cards}`` (an engine's own dealing, which the judge follows). A position ``dealt`` does
    not fix keeps ``deck``'s card when that card is free, else takes the first free card of ``deck``."""
    m = len(order)
    fixed: dict[int, str] = {}
    hole = dealt.get("hole") or {}
    for i, s in enumerate(order):
        for r, card in enumerate(list(hole.get(s) or ())[:2]):
            fixed[i + r * m] = card
    for j, card in enumerate(list(dealt.get("board") or ())[:5]):
        fixed[2 * m + 1 + j + (j - 2 if j >= 3 else 0)] = card
    taken = set(fixed.values())
    out = [fixed.get(p) for p in range(len(deck))]
    for p, card in enumerate(deck):
        if out[p] is None and card not in taken:
            out[p] = card
            taken.add(card)
    spare = iter([c for c in deck if c not in taken])
    return [card if card is not None else next(spare) for card in out]


def needed_hole_cards(hole: Sequence[str], board: Sequence[str]) -> list[str]:
    """R25: a smallest set of hole cards with which the (five-card) board realises the hand's value;
    among sets of one card, the first dealt. Board cards that realise the same value are preferred."""
    value = hand_value(list(hole) + list(board))
    for cards in ([], [hole[0]], [hole[1]]):
        if hand_value(cards + list(board)) == value:
            return cards
    return list(hole)


def _is_whole_deck(deck: object) -> bool:
    """A list of the 52 distinct cards (so nothing to complete or check further)."""
    try:
        return isinstance(deck, list) and len(deck) == 52 and set(deck) == _FULL_DECK
    except TypeError:  # an unhashable item: complete_deck names it
        return False


def _check_seats(ids: object, stacks: object, blinds: object) -> None:
    """Hand's own arguments, named in OptionError (the tournament checks its options likewise)."""
    if isinstance(ids, (str, bytes)) or not isinstance(ids, Sequence) or not all(isinstance(i, str) for i in ids):
        raise OptionError("ids", f"expected a list of id strings, got {ids!r}")
    if isinstance(stacks, (str, bytes)) or not isinstance(stacks, Sequence) or len(stacks) != len(ids):
        raise OptionError("stacks", f"expected {len(ids)} stacks, one per seat, got {stacks!r}")
    for i, c in enumerate(stacks):
        if isinstance(c, bool) or not isinstance(c, int) or c < 0:
            raise OptionError(f"stacks[{i}]", f"expected a non-negative integer, got {c!r}")
    if (not isinstance(blinds, (list, tuple)) or len(blinds) != 2
            or any(isinstance(b, bool) or not isinstance(b, int) or b <= 0 for b in blinds) or blinds[0] > blinds[1]):
        raise OptionError("blinds", f"expected (small, big) positive integers with small <= big, got {blinds!r}")


class Hand:
    """A hand in progress. Drive it with ``legal()`` and ``act(answer)`` until ``done``.

    ``stacks`` are the chips of every original seat at the start of the hand (0 for
    a seat that is out); ``button``, ``small_blind_seat`` and ``big_blind_seat`` are
    chosen by the caller (the tournament applies R16). ``deck`` is dealt from the
    front (R3). ``rulings`` (a ``reference.rulings.Profile`` or a plain dict) plays documented
    ruling alternatives; None plays the ruleset as it is. ``dealt`` (:func:`deck_dealing`) fixes the
    cards each seat and the board get, whatever the deck and the dealing rulings.
    """

    def __init__(
        self,
        *,
        ids: Sequence[str],
        stacks: Sequence[int],
        button: int,
        small_blind_seat: int,
        big_blind_seat: int,
        blinds: tuple[int, int],
        deck: Sequence[str],
        hand_number: int = 1,
        ruleset: Ruleset = CONTRACT_V1,
        auto_folded: Sequence[int] = (),
        rulings=None,
        dealt: dict | None = None,
    ):
        _check_seats(ids, stacks, blinds)
        ruleset = with_rulings(ruleset, rulings)
        n = len(ids)
        self.n = n
        self.ids = list(ids)
        self.hand_number = hand_number
        self.ruleset = ruleset
        self.start_stacks = list(stacks)
        self.stacks = list(stacks)
        self.in_hand = [c > 0 for c in stacks]
        if sum(self.in_hand) < 2:
            raise OptionError("stacks", "a hand needs at least two seats with chips")
        for field, seat in (("button", button), ("small_blind_seat", small_blind_seat), ("big_blind_seat", big_blind_seat)):
            if not (isinstance(seat, int) and 0 <= seat < n):
                raise OptionError(field, f"seat {seat!r} does not exist")
        if not (self.in_hand[small_blind_seat] and self.in_hand[big_blind_seat]) or small_blind_seat == big_blind_seat:
            raise OptionError("big_blind_seat", "the blinds must be two different seats with chips")
        self.button = button
        self.sb_seat = small_blind_seat
        self.bb_seat = big_blind_seat
        self.sb, self.bb = blinds
        # A whole deck (the tournament deals deal_hand's) is checked by one set comparison.
        self.deck = deck if _is_whole_deck(deck) else complete_deck(deck)
        if ruleset.deal_from == "back":  # R3's alternative: pop from the end
            self.deck = self.deck[::-1]
        # Ruling options the betting and settlement read, resolved once per hand.
        self._raise_needs_above_bet = ruleset.raise_responder == "responder-above-bet"  # R10
        self._record_street_total = ruleset.action_amount == "amount-street-total"  # R20
        self._dead_layer_alone = ruleset.dead_layer == "stand-alone"  # R7
        self.pos = 0
        # Seats in the hand, clockwise from the first seat left of the button:
        # the dealing order (R3), the odd-chip order (R13), the elimination order (R17).
        self.order = dealing_order(button, self.in_hand)
        if dealt is not None:
            self.deck = deck_dealing(self.order, dealt, self.deck)
        self._ring = self.order * 2  # going round from any index of order is one slice (R11)
        self.bet = [0] * n
        self.total = [0] * n
        self.folded = [not x for x in self.in_hand]
        # The street's currentBet at each seat's last voluntary action; None before it acts (R9).
        self.acted: list[int | None] = [None] * n
        self.street = 0
        self.board: list[str] = []
        self.actions: list[dict] = []
        self.refunds = [0] * n
        self.awards = [0] * n
        self.showdown: list[dict] = []  # every live hand (private record)
        self.public_showdown: list[dict] | None = None  # what the history shows, when it differs
        self.pots_awarded: list[dict] = []
        self.done = False
        self.to_act: int | None = None
        self._legal: Legal | None = None  # for the seat to act; reset by every action

        self._commit(small_blind_seat, min(self.sb, self.stacks[small_blind_seat]))
        self._commit(big_blind_seat, min(self.bb, self.stacks[big_blind_seat]))
        # The largest blind actually posted (R8); its alternative: the nominal big blind.
        self.current_bet = self.bb if ruleset.short_blind == "full-big-blind" else max(self.bet)
        self.last_full_raise = self.bb
        # Two rounds, one card at a time from the front (R3): the i-th seat of ``order`` gets
        # cards i and i + len(order).
        deck, m = self.deck, len(self.order)
        self.hole = {s: [deck[i], deck[i + m]] for i, s in enumerate(self.order)}
        self.pos = 2 * m
        # Persistent auto-fold (holdem-sng-3-v4): dealt in, blinds posted, never contests the pot.
        # A timeout can only auto-fold a seat that acts, so someone always contests (R26).
        if auto_folded and all(s in auto_folded for s in self.order):
            raise OptionError("auto_folded", "every seat in the hand is auto-folded: nobody could win")
        for s in auto_folded:
            if self.in_hand[s]:
                self.folded[s] = True
        self._advance(big_blind_seat)

    # -- reading ------------------------------------------------------------------
    def legal(self) -> Legal:
        """The betting fields for the seat to act (contract: toCall ... canAllIn; R10)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> Legal:
        s = self.to_act
        if s is None:
            raise OptionError("action", "no seat is to act: the hand is over")
        bet, stack, cb, lfr = self.bet[s], self.stacks[s], self.current_bet, self.last_full_raise
        max_to = bet + stack
        can_raise = max_to > cb and self._raise_open(s) and (
            self._others_can_exceed(s) if self._raise_needs_above_bet else self._others_can_respond(s))
        return Legal(min(cb - bet, stack) if cb > bet else 0, cb, cb + lfr if can_raise else None, max_to,
                     bet >= cb, stack > 0 and (can_raise or max_to <= cb), lfr)

    def _raise_open(self, s: int) -> bool:
        """R9: a seat that acted is reopened only by a full raise's worth faced since."""
        last = self.acted[s]
        if last is None or self.current_bet - last >= self.last_full_raise:
            return True
        # Optional house rule of other rulesets: a checker facing a short opening all-in may raise.
        return self.ruleset.checker_reopened_by_short_opening and last == 0 and self.current_bet > 0

    def _others_can_respond(self, s: int) -> bool:
        """R10: someone else still contesting the hand has chips to respond to ``s``."""
        stacks, folded = self.stacks, self.folded
        for o in self.order:
            if o != s and stacks[o] > 0 and not folded[o]:
                return True
        return False

    def _others_can_exceed(self, s: int) -> bool:
        """R10's alternative: someone else contesting the hand can put in more than currentBet."""
        stacks, folded, bet, cb = self.stacks, self.folded, self.bet, self.current_bet
        return any(o != s and stacks[o] > 0 and not folded[o] and bet[o] + stacks[o] > cb for o in self.order)

    def must_act(self, s: int) -> bool:
        """R11: whether seat ``s`` still has to act on this street (it owes chips, or has not acted
        while someone else could respond)."""
        return not self.folded[s] and self.stacks[s] > 0 and (
            self.bet[s] < self.current_bet or self.acted[s] is None and self._others_can_respond(s))

    def lone_solvent(self, s: int) -> bool:
        """Whether ``s`` is the only seat contesting the hand with chips behind."""
        return not self.folded[s] and self.stacks[s] > 0 and not self._others_can_respond(s)

    def pots(self, raw: bool = False) -> list[dict]:
        """Current contribution layers (provisional during the hand); ``raw``: unmerged (R13)."""
        # Every seat: one out of the hand contributed nothing, so it is in no layer.
        return layer_pots(self.ids, self.total, self.folded, self._dead_layer_alone, raw)

    @property
    def order_by_index(self) -> list[int]:
        return [s for s in range(self.n) if self.in_hand[s]]

    def live(self) -> list[int]:
        """Seats still contesting the hand, in seat-index order."""
        folded = self.folded
        return [s for s in range(self.n) if not folded[s]]  # seats out of the hand count as folded

    # -- acting -------------------------------------------------------------------
    def act(self, answer: object) -> dict:
        """Apply an answer in any accepted form; IllegalAction (nothing changed) if invalid."""
        kind, amount = parse_answer(answer, self.ruleset.vocabulary)
        check_legal(kind, amount, self.legal())
        return self.apply(kind, amount)

    def act_fallback(self) -> dict:
        """The contract's fallback for a missing or invalid answer: check if legal, else fold."""
        return self.apply(fallback(self.legal()), None)

    def apply(self, kind: str, amount: int | None) -> dict:
        """Apply an action already known to be legal; returns the ``actions`` entry."""
        s = self.to_act
        assert s is not None
        self._legal = None
        if kind == "bet":  # v4's opening bet is the contract's raise (R24)
            kind = "raise"
        bet, cb = self.bet[s], self.current_bet
        if kind == "fold":
            self.folded[s] = True
            add = 0
        elif kind == "check":
            add = 0
        elif kind == "call":
            add = min(cb - bet, self.stacks[s])
        elif kind == "raise":
            add = amount - bet  # type: ignore[operator]
        else:  # allin
            add = self.stacks[s]
        return self._commit_action(s, kind, add)

    def _commit_action(self, s: int, kind: str, add: int) -> dict:
        """Seat ``s`` adds ``add`` chips by an action of ``kind``; returns its ``actions`` entry."""
        bet, cb = self.bet[s], self.current_bet
        if add:
            self._commit(s, add)
            bet += add
            if bet > cb:
                if bet - cb >= self.last_full_raise:  # a full bet/raise (R9)
                    self.last_full_raise = bet - cb
                self.current_bet = cb = bet
        self.acted[s] = cb
        if self._record_street_total and add:  # R20's alternative: the street total after it
            add = bet
        record = {"id": self.ids[s], "street": STREETS[self.street], "type": kind, "amount": add}
        self.actions.append(record)
        self._advance(s)
        return record

    # -- following another table (the judge follows an engine: conformance.judge.following) ---------
    def take(self, state: Mapping) -> None:
        """Stand where a decision ``state`` of this hand says it stands: every seat's stack, street
        bet, total and folded flag, the street and its board, currentBet, lastFullRaise, the seat to
        act and the actions so far (the voluntary ones, from which each seat's last action on this
        street is rebuilt, R9). The cards not yet dealt stay this hand's own (the pinned deck, or the
        cards followed: ``dealt``). ValueError naming the field that cannot stand so."""
        seats = state["seats"]
        if not isinstance(seats, list) or len(seats) != self.n:
            raise ValueError("seats")
        for i in range(self.n):
            if not self.in_hand[i]:
                continue
            x = seats[i]
            for key in ("stack", "bet", "total"):
                if isinstance(x[key], bool) or not isinstance(x[key], int) or x[key] < 0:
                    raise ValueError(f"seats[{i}].{key}")
            if not isinstance(x["folded"], bool):
                raise ValueError(f"seats[{i}].folded")
        street = STREETS.index(state["street"])
        board = state["board"]
        if not isinstance(board, list) or len(board) != (0, 3, 4, 5)[street] or not all(isinstance(c, str) for c in board):
            raise ValueError("board")
        numbers = [state["currentBet"], state["lastFullRaise"]]
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in numbers):
            raise ValueError("currentBet")
        you = state["you"]["seat"]
        if not (isinstance(you, int) and not isinstance(you, bool) and 0 <= you < self.n and self.in_hand[you]):
            raise ValueError("you.seat")
        actions = state["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            raise ValueError("actions")
        # Chips committed this hand are the hand's start less the stack (nothing leaves the table
        # before the hand ends): where the state's totals do not add up to the chips the hand began
        # with, they are misstated (that field's difference), and the totals the pots and awards are
        # made of are the stacks' complements; where they do, chips moved between seats (a refund
        # paid to another seat, say) and the state's own accounting is followed.
        playing = [i for i in range(self.n) if self.in_hand[i]]
        conserved = sum(seats[i]["stack"] + seats[i]["total"] for i in playing) == sum(self.start_stacks[i] for i in playing)
        for i in playing:
            x = seats[i]
            committed = self.start_stacks[i] - x["stack"]
            total = x["total"] if conserved or committed < x["bet"] else committed
            self.stacks[i], self.bet[i], self.total[i], self.folded[i] = x["stack"], x["bet"], total, x["folded"]
        if street != self.street:
            self.pos = 2 * len(self.order) + (0, 4, 6, 8)[street]
        self.street, self.board = street, list(board)
        self.current_bet, self.last_full_raise = numbers
        self.actions = [dict(a) for a in actions]
        self.acted = self._acted_on_street()
        self.to_act, self.done, self._legal = you, False, None
        self.refunds, self.awards = [0] * self.n, [0] * self.n
        self.showdown, self.public_showdown, self.pots_awarded = [], None, []

    def _acted_on_street(self) -> list:
        """Each seat's currentBet at its last action on this street (None before it acts, R9),
        from the street's actions and the blinds posted."""
        street = STREETS[self.street]
        bets = [0] * self.n
        cb = 0
        if self.street == 0:  # the blinds posted (R8): the same as at the hand's start
            for s, blind in ((self.sb_seat, self.sb), (self.bb_seat, self.bb)):
                bets[s] = min(blind, self.start_stacks[s])
            cb = self.bb if self.ruleset.short_blind == "full-big-blind" else max(bets)
        seat_of = {x: i for i, x in enumerate(self.ids)}
        acted: list[int | None] = [None] * self.n
        for a in self.actions:
            s = seat_of.get(a.get("id"))
            amount = a.get("amount")
            if a.get("street") != street or s is None or isinstance(amount, bool) or not isinstance(amount, int):
                continue
            bets[s] = amount if self._record_street_total and amount else bets[s] + amount
            cb = max(cb, bets[s])
            acted[s] = cb
        return acted

    def apply_record(self, record: Mapping) -> dict:
        """Apply an action as another table recorded it (``{type, amount}``: the chips the seat to
        act added, R20's street total under its alternative), legal here or not; the record kept
        is that table's own. ValueError when it cannot be applied (amounts the stack cannot pay)."""
        s = self.to_act
        kind, amount = record["type"], record["amount"]
        if s is None or kind not in ("fold", "check", "call", "raise", "allin", "bet") \
                or isinstance(amount, bool) or not isinstance(amount, int):
            raise ValueError("action")
        add = amount - self.bet[s] if self._record_street_total and amount else amount
        if not 0 <= add <= self.stacks[s] or (kind == "fold" and add):
            raise ValueError("action.amount")
        self._legal = None
        if kind == "fold":
            self.folded[s] = True
        self._commit_action(s, kind, add)
        at = len(self.actions) - 1 - next(k for k, a in enumerate(reversed(self.actions)) if a["id"] == self.ids[s])
        self.actions[at] = dict(record)
        return dict(record)

    # -- internals ----------------------------------------------------------------
    def _commit(self, s: int, chips: int) -> None:
        self.stacks[s] -= chips
        self.bet[s] += chips
        self.total[s] += chips

    def _next_to_act(self, start: int) -> int | None:
        """The first seat that must act (R11) going round ``order`` from its index ``start``, or None:
        one with chips that owes some, or that has not acted yet while someone else could respond."""
        stacks, folded, bet, acted, cb = self.stacks, self.folded, self.bet, self.acted, self.current_bet
        for s in self._ring[start:start + len(self.order)]:
            if folded[s] or stacks[s] == 0:
                continue
            if bet[s] < cb or acted[s] is None and self._others_can_respond(s):
                return s
        return None

    def _advance(self, last: int) -> None:
        """After ``last`` (a seat in the hand) acted or posted: the next seat to act, or the hand's end."""
        folded = self.folded
        if folded.count(False) == 1:  # seats out of the hand count as folded
            self._refund_uncalled()
            self._award_fold(folded.index(False))
            return
        nxt = self._next_to_act(self.order.index(last) + 1)
        while nxt is None:
            self._refund_uncalled()
            live = self.live()
            stacks = self.stacks
            solvent = len([s for s in live if stacks[s] > 0])
            if self.street == 3 or solvent <= 1:
                self._run_out()
                self._settle_showdown(live)
                return
            self._next_street()
            nxt = self._next_to_act(0)  # order starts left of the button
        self.to_act = nxt

    def _next_street(self) -> None:
        self.street += 1
        start = self.pos + 1  # after the burn card
        self.pos = start + (3 if self.street == 1 else 1)
        self.board += self.deck[start:self.pos]
        self.bet = [0] * self.n
        self.acted = [None] * self.n
        self.current_bet = 0
        self.last_full_raise = self.bb

    def _run_out(self) -> None:
        while self.street < 3:
            self._next_street()

    def _refund_uncalled(self) -> None:
        """R12: the street's largest bet above the second largest goes back to its owner."""
        top, second = sorted(self.bet, reverse=True)[:2]  # a seat out of the hand bet 0: no matter
        if top > second:
            owner = self.bet.index(top)
            excess = top - second
            self.bet[owner] -= excess
            self.total[owner] -= excess
            self.stacks[owner] += excess
            self.refunds[owner] += excess

    def _award_fold(self, winner: int) -> None:
        pot = sum(self.total)
        self.pots_awarded = [{"amount": pot, "eligible": [self.ids[winner]], "winners": [self.ids[winner]]}]
        self.stacks[winner] += pot
        self.awards[winner] += pot
        self._finish()

    def _settle_showdown(self, live: list[int]) -> None:
        board = self.board
        values = {s: hand_value(self.hole[s] + board) for s in live}
        seat_of = {self.ids[s]: s for s in live}
        awarded = []
        settlement = self.ruleset.settlement
        # R13: the merged pots as ``pots`` shows them (alternative: the raw layers). Dead chips always
        # join the layer below here, so that every chip is won (R7's stand-alone layer is for display).
        pots = layer_pots(self.ids, self.total, self.folded, False, settlement == "raw-layers")
        # R13: odd chips one at a time clockwise from left of the button (alternatives: all of them
        # to the first winner in seat-index order, or to the first winner clockwise from left of the button).
        odd_order = int if settlement == "first-winner-in-seat-order" else self.order.index
        whole_remainder = settlement in ("first-winner-in-seat-order", "first-winner-left-of-button")
        for pot in pots:
            contenders = [seat_of[i] for i in pot["eligible"]]
            best = max([values[s] for s in contenders])
            winners = sorted([s for s in contenders if values[s] == best], key=odd_order)
            share, odd = divmod(pot["amount"], len(winners))
            for k, s in enumerate(winners):
                if whole_remainder:
                    won = share + (odd if k == 0 else 0)
                else:
                    won = share + (1 if k < odd else 0)
                self.stacks[s] += won
                self.awards[s] += won
            awarded.append({**pot, "winners": [self.ids[s] for s in sorted(winners)]})
        self.pots_awarded = awarded
        if self.ruleset.result_order == "left-of-button":  # R14's alternative
            live = [s for s in self.order if s in live]
        self.showdown = [
            {"id": self.ids[s], "cards": list(self.hole[s]), "hand": NAMES[values[s] // _CATEGORY]} for s in live
        ]
        if self.ruleset.showdown_reveal == "needed":  # R25: the cards needed by each awarded hand
            # R31: a pot with one eligible seat is awarded without a showdown (its alternative: it reveals too).
            every_pot = self.ruleset.reveal_uncontested_pots
            winners = {i for pot in awarded if every_pot or len(pot["eligible"]) > 1 for i in pot["winners"]}
            self.public_showdown = [dict(e, cards=needed_hole_cards(e["cards"], board))
                                    for e in self.showdown if e["id"] in winners]
        self._finish()

    def _finish(self) -> None:
        self.to_act = None
        self.done = True

    # -- results ------------------------------------------------------------------
    def _result_order(self) -> "list[int] | range":
        """R14: seat-index order; its alternative: clockwise from left of the button."""
        return self.order if self.ruleset.result_order == "left-of-button" else range(self.n)

    def history_entry(self) -> dict:
        """The public summary of the finished hand (contract: history entry; R14; R25 for v4)."""
        showdown = self.public_showdown if self.public_showdown is not None else self.showdown
        return {
            "handNumber": self.hand_number,
            "board": list(self.board),
            "showdown": [dict(e, cards=list(e["cards"])) for e in showdown],
            "winners": [{"id": self.ids[s], "amount": self.awards[s]} for s in self._result_order() if self.awards[s] > 0],
        }
