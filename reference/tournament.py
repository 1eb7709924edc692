"""A tournament under a ruleset: seats, button and blinds, levels, eliminations, places.

``Tournament(names, seed=N, **options)`` deals every hand with ``deal_hand(seed, n)``
(or a pinned deck) and is driven one decision at a time: ``decision_state()`` for
the seat to act, then ``act(answer)`` (strict: an illegal answer raises
IllegalAction and changes nothing) or ``submit(answer)`` (the runner's way: an
invalid answer takes the contract's fallback and counts an error).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence

from .actions import Legal, check_legal, parse_answer
from .errors import GameOver, IllegalAction, OptionError
from .hand import STREETS, Hand, complete_deck
from .rng import deal_hand, rng, seed_to_uint32
from .ruleset import RULESETS, Ruleset, get_ruleset
from .rulings import as_profile
from .state import decision_state

_OPTION_NAMES = {
    "starting_stack": "starting_stack",
    "blind_schedule": "blind_schedule",
    "hands_per_level": "hands_per_level",
    "max_hands": "max_hands",
    "time_limit_ms": "time_limit_ms",
}


class Tournament:
    def __init__(
        self,
        names: Sequence[str],
        seed: object = 0,
        *,
        ruleset: "str | Ruleset" = "contract-v1",
        stacks: Sequence[int] | None = None,
        decks: "Mapping[int, Sequence[str]] | Callable[[int], Sequence[str]] | None" = None,
        controllers: Sequence[str] | None = None,
        rulings=None,
        dealt: "Mapping[int, dict] | None" = None,
        **options,
    ):
        """``options``: starting_stack, blind_schedule, hands_per_level, max_hands (None: no
        cap), time_limit_ms — each overrides the ruleset's value. ``stacks`` gives each seat
        its own starting chips (scenario tests); ``decks`` pins the deck of some hands
        (hand number -> cards, completed in canonical order; or a function of the number).
        ``controllers`` says who plays each named identity (``bot``, ``human`` or ``agent``):
        a ruleset with a human clock uses it whenever anyone is not a bot.
        ``rulings`` (a ``reference.rulings.Profile`` or a plain dict ruling id -> option) plays
        documented ruling alternatives (docs/rulings.md, "Playable").
        ``dealt`` (hand number -> ``{"hole": {seat: cards}, "board": cards}``) fixes the cards dealt
        in some hands (``reference.hand.deck_dealing``: an engine's own dealing, followed by the judge).
        """
        base = get_ruleset(ruleset)
        for key in options:
            if key not in _OPTION_NAMES:
                raise OptionError(key, f"unknown option (known: ruleset, stacks, decks, {', '.join(_OPTION_NAMES)})")
        # A registered ruleset is valid as it stands; options or a custom one are checked.
        known = not options and RULESETS.get(base.name) is base
        rules = base if known else _validated_ruleset(base.with_options(**options))
        self.rulings = as_profile(rulings)
        self.ruleset = rules = self.rulings.apply(rules)  # resolved once per game
        identities = _validated_names(names, rules)
        n = len(identities)
        self.n = n
        self.controllers = _validated_controllers(controllers, n)
        self.time_limit_ms = rules.time_limit_ms
        if rules.human_time_limit_ms is not None and any(c != "bot" for c in self.controllers):
            self.time_limit_ms = rules.human_time_limit_ms
        self.ids = [f"s{i + 1}" for i in range(n)]
        self.seed = seed
        seed32 = seed_to_uint32(seed)  # reject a seed with no JavaScript equivalent now, not at hand 1
        self._seed32 = seed32  # deal_hand(seed32, n) == deal_hand(seed, n), without hashing seed every hand
        # seat_of[k]: the seat of the k-th identity given; seat i shows names[i].
        self.seat_of, self._first_button = _seating(rules.seating, seed32, n)
        self.names = [""] * n
        for k, seat in enumerate(self.seat_of):
            self.names[seat] = identities[k]
        self._decks = _validated_decks(decks)
        self._dealt = dict(dealt or {})
        if stacks is None:
            self.stacks = [rules.starting_stack] * n
        else:
            if isinstance(stacks, (str, bytes)) or not isinstance(stacks, (list, tuple)) or len(stacks) != n:
                got = len(stacks) if isinstance(stacks, (list, tuple)) else repr(stacks)
                raise OptionError("stacks", f"expected {n} stacks, one per seat, got {got}")
            for i, c in enumerate(stacks):
                if isinstance(c, bool) or not isinstance(c, int) or c <= 0:
                    raise OptionError(f"stacks[{i}]", f"expected a positive integer, got {c!r}")
            self.stacks = list(stacks)
        self.out = [False] * n
        self.places: list[int | None] = [None] * n
        self.eliminated_in: list[int | None] = [None] * n
        self.errors = [0] * n
        self.consecutive_timeouts = [0] * n
        self.timeouts = [0] * n
        self.auto_folded = [False] * n
        self._recoveries: set[int] = set()
        self.history: list[dict] = []  # every public hand summary, oldest first
        self.hands: list[dict] = []  # full records (private cards included) for transcripts
        self.hand_number = 0
        self.hand: Hand | None = None
        self._button: int | None = None
        self._prev_bb: int | None = None
        self._prev_count = 0
        self.over = False
        self._next_hand()

    # -- driving ------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        return None if self.over else self.hand.to_act  # type: ignore[union-attr]

    def legal(self) -> Legal:
        self._require_live()
        return self.hand.legal()  # type: ignore[union-attr]

    def decision_state(self, history: bool = True) -> dict | None:
        """A fresh decision ``state`` for the seat to act, or None once the tournament is over.

        ``history=False``: ``"history"`` is None, for callers that read ``self.history`` themselves.
        """
        if self.over:
            return None
        return decision_state(self, history)

    def act(self, answer: object) -> dict:
        """Apply an answer in any accepted form; IllegalAction (nothing changed) if it is not legal."""
        self._require_live()
        kind, amount = parse_answer(answer, self.ruleset.vocabulary)
        check_legal(kind, amount, self.hand.legal())  # type: ignore[union-attr]
        self.consecutive_timeouts[self.hand.to_act] = 0  # type: ignore[union-attr,index]
        return self._apply(kind, amount)

    def submit(self, answer: object) -> tuple[dict, str | None]:
        """The runner's rule: an invalid answer becomes check-or-fold and counts one error.

        Returns the ``actions`` entry applied and the error code (None when accepted).
        """
        try:
            return self.act(answer), None
        except IllegalAction as exc:
            if self.ruleset.invalid_answer == "as-timeout":
                # v4: an invalid answer does not consume the turn; for a bot the clock then runs out (R22).
                return self.timeout(), exc.code
            return self.fallback(exc.code), exc.code

    def fallback(self, reason: str) -> dict:
        """A missing, late or invalid answer: check if legal, else fold; one error for the seat."""
        self._require_live()
        hand = self.hand
        self.errors[hand.to_act] += 1  # type: ignore[union-attr,index]
        legal = hand.legal()  # type: ignore[union-attr]
        return self._apply("check" if legal.can_check else "fold", None)

    def timeout(self) -> dict:
        """The seat to act let its clock run out.

        Contract v1: the fallback, one error. holdem-sng-3-v4: the first and second
        consecutive timeouts check if legal, else fold; the one that reaches
        ``timeouts_to_auto_fold`` sets persistent auto-fold and folds even when checking is legal.
        """
        self._require_live()
        limit = self.ruleset.timeouts_to_auto_fold
        if limit is None:
            return self.fallback("late")
        seat = self.hand.to_act  # type: ignore[union-attr]
        self.errors[seat] += 1
        self.timeouts[seat] += 1
        self.consecutive_timeouts[seat] += 1
        if self.consecutive_timeouts[seat] >= limit:
            self.auto_folded[seat] = True
            return self._apply("fold", None)
        legal = self.hand.legal()  # type: ignore[union-attr]
        return self._apply("check" if legal.can_check else "fold", None)

    def request_recovery(self, seat: int) -> None:
        """Queue recovery from auto-fold: it takes effect at the next hand boundary."""
        if self.ruleset.timeouts_to_auto_fold is None:
            raise OptionError("seat", f"{self.ruleset.name} has no auto-fold to recover from")
        if isinstance(seat, bool) or not (isinstance(seat, int) and 0 <= seat < self.n):
            # A string shown in double quotes, as the bundled engine's message shows it.
            shown = json.dumps(seat) if isinstance(seat, str) else repr(seat)
            raise OptionError("seat", f"seat {shown} does not exist")
        chips = self.hand.stacks[seat] if not self.over and self.hand is not None else self.stacks[seat]
        if self.out[seat] or chips == 0:
            raise OptionError("seat", f"seat {seat} has no chips: recovery is unavailable")
        if not self.auto_folded[seat]:
            raise OptionError("seat", f"seat {seat} is not in auto-fold")
        self._recoveries.add(seat)

    def _apply(self, kind: str, amount: int | None) -> dict:
        hand = self.hand
        record = hand.apply(kind, amount)  # type: ignore[union-attr]
        if hand.done:  # type: ignore[union-attr]
            self._finish_hand()
            self._next_hand()
        return dict(record)

    def apply_record(self, record: Mapping) -> dict:
        """Apply an action as another table recorded it (Hand.apply_record; the judge follows an
        engine), then end the hand as any action does. ValueError when it cannot be applied."""
        self._require_live()
        hand = self.hand
        out = hand.apply_record(record)  # type: ignore[union-attr]
        if hand.done:  # type: ignore[union-attr]
            self._finish_hand()
            self._next_hand()
        return out

    def _require_live(self) -> None:
        if self.over:
            raise GameOver("action", "the tournament is over")

    # -- hands --------------------------------------------------------------------
    def level(self, hand_number: int | None = None) -> int:
        """R18: one level every ``hands_per_level`` hands, stopping at the last."""
        number = self.hand_number if hand_number is None else hand_number
        return min((number - 1) // self.ruleset.hands_per_level, len(self.ruleset.blind_schedule) - 1)

    def _next_survivor(self, seat: int, out: "Sequence[bool] | None" = None) -> int:
        out = self.out if out is None else out
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if not out[s]:
                return s
        raise AssertionError("no survivor")

    def _positions(self) -> tuple[int, int, int]:
        """Button, small blind and big blind of the next hand (R16)."""
        return self._positions_after(self._button, self._prev_bb, self._prev_count, self.out)

    def _positions_after(self, button: "int | None", prev_bb: "int | None", prev_count: int,
                         out: Sequence[bool]) -> tuple[int, int, int]:
        """R16's positions of the hand after one with ``button``, big blind ``prev_bb`` and
        ``prev_count`` seats in play (None: the first hand), ``out`` the seats out after it."""
        button = self._first_button if button is None else self._next_survivor(button, out)
        if list(out).count(False) == 2:
            alive = [s for s in range(self.n) if not out[s]]
            if prev_count >= 3 and self.ruleset.heads_up == "big-blind-advances":  # the transition
                bb = self._next_survivor(prev_bb, out)  # type: ignore[arg-type]
                button = alive[0] if alive[1] == bb else alive[1]
            return button, button, self._next_survivor(button, out)
        sb = self._next_survivor(button, out)
        return button, sb, self._next_survivor(sb, out)

    def positions_after(self, record: Mapping, out: Sequence[bool]) -> tuple[int, int, int]:
        """R16's (button, small blind, big blind) of the hand after ``record`` (one of :attr:`hands`)
        had the seats ``out`` been out after it (the judge: another table's end of that hand)."""
        return self._positions_after(record["buttonSeat"], record["bigBlindSeat"],
                                     sum(1 for c in record["startStacks"] if c > 0), out)

    def _deck(self, number: int) -> list[str]:
        pinned = self._decks
        if callable(pinned):
            cards = pinned(number)
        elif pinned is not None and number in pinned:
            cards = pinned[number]
        else:
            return deal_hand(self._seed32, number)
        return complete_deck(cards, f"decks[{number}]")

    def _next_hand(self) -> None:
        while not self._is_over():
            for seat in self._recoveries:  # recovery takes effect at the hand boundary
                if self.stacks[seat] > 0:
                    self.auto_folded[seat] = False
                    self.consecutive_timeouts[seat] = 0
            self._recoveries.clear()
            self.hand_number += 1
            button, sb, bb = self._positions()
            self.hand = Hand(
                ids=self.ids,
                stacks=self.stacks,
                button=button,
                small_blind_seat=sb,
                big_blind_seat=bb,
                blinds=self.ruleset.blind_schedule[self.level()],
                deck=self._deck(self.hand_number),
                hand_number=self.hand_number,
                ruleset=self.ruleset,
                auto_folded=[s for s in range(self.n) if self.auto_folded[s]],
                dealt=self._dealt.get(self.hand_number),
            )
            self._button, self._prev_bb = button, bb
            self._prev_count = self.out.count(False)
            if not self.hand.done:
                return
            self._finish_hand()
        self.over = True

    def resume(self, hand_number: int, stacks: Sequence[int], positions: tuple[int, int, int], out: Sequence[bool],
               history: "list[dict] | None" = None, eliminated: "Mapping[int, tuple] | None" = None,
               blinds: "tuple[int, int] | None" = None, auto_folded: "Sequence[bool] | None" = None) -> None:
        """Start hand ``hand_number`` from another table's state (the judge resynchronises the
        reference to an engine's at the start of a hand): each seat's chips at the hand's start,
        the (button, small blind, big blind) seats, which seats are out (a seat newly out takes
        ``eliminated[seat]`` = (eliminatedInHand, place), by default the previous hand and no place)
        and the public history so far; ``blinds``: that table's (default: this level's);
        ``auto_folded``: its seats in holdem-sng-3-v4's auto-fold (default: this table's). OptionError
        when that table cannot start a hand."""
        for s in range(self.n):
            if out[s] and not self.out[s]:
                self.eliminated_in[s], self.places[s] = (eliminated or {}).get(s, (hand_number - 1, None))
            elif not out[s]:
                self.eliminated_in[s], self.places[s] = None, None
        self.out = [bool(x) for x in out]
        self.stacks = [0 if self.out[s] else int(c) for s, c in enumerate(stacks)]
        if auto_folded is not None and self.ruleset.timeouts_to_auto_fold is not None:
            # a seat out keeps this table's flag (a state shows no auto-fold of a seat out; it is
            # not cleared by busting: the standings' autoFolded)
            self.auto_folded = [self.auto_folded[s] if self.out[s] else bool(x) for s, x in enumerate(auto_folded)]
        # The hands this table played from ``hand_number`` on are its own, not that table's (it may
        # have played on alone, its seats sitting out in an auto-fold the other table's do not have).
        self.hands = [h for h in self.hands if h["handNumber"] < hand_number]
        self.history = history if history is not None else [e for e in self.history if e["handNumber"] < hand_number]
        self.hand_number, self.over = hand_number, False
        button, sb, bb = positions
        self.hand = Hand(ids=self.ids, stacks=self.stacks, button=button, small_blind_seat=sb, big_blind_seat=bb,
                         blinds=blinds or self.ruleset.blind_schedule[self.level()], deck=self._deck(hand_number),
                         hand_number=hand_number, ruleset=self.ruleset,
                         auto_folded=[s for s in range(self.n) if self.auto_folded[s]],
                         dealt=self._dealt.get(hand_number))
        self._button, self._prev_bb, self._prev_count = button, bb, self.out.count(False)
        if self.hand.done:
            self._finish_hand()
            self._next_hand()

    def _is_over(self) -> bool:
        if self.out.count(False) == 1:
            self.places[self.out.index(False)] = 1
            return True
        cap = self.ruleset.max_hands
        if cap is not None and self.hand_number >= cap:
            self._rank_survivors([s for s in range(self.n) if not self.out[s]])
            return True
        return False

    def _rank_survivors(self, survivors: list[int]) -> None:
        """Competition places by chips (1,1,3)."""
        for s in survivors:
            self.places[s] = 1 + sum(1 for o in survivors if self.stacks[o] > self.stacks[s])

    def _finish_hand(self) -> None:
        hand = self.hand
        assert hand is not None and hand.done
        self.stacks = list(hand.stacks)
        entry = hand.history_entry()
        self.history.append(entry)
        busted = [s for s in hand.order if self.stacks[s] == 0]
        survivors = self.out.count(False) - len(busted)
        # R17: larger starting-hand stack first, then button-relative order (hand.order);
        # holdem-sng-3-v4 breaks equal stacks by the lower seat number (R27; its alternative (a)
        # ignores the starting stacks).
        tie = hand.order.index if self.ruleset.equal_stack_order == "button" else int
        by_stack = self.ruleset.simultaneous_bust == "starting-stack"
        busted.sort(key=lambda s: (-hand.start_stacks[s] if by_stack else 0, tie(s)))
        for k, s in enumerate(busted):
            self.out[s] = True
            self.places[s] = survivors + 1 + k
            self.eliminated_in[s] = hand.hand_number
        self.hands.append(
            {
                "handNumber": hand.hand_number,
                "level": self.level(hand.hand_number),
                "blinds": [hand.sb, hand.bb],
                "buttonSeat": hand.button,
                "smallBlindSeat": hand.sb_seat,
                "bigBlindSeat": hand.bb_seat,
                "startStacks": list(hand.start_stacks),
                "holeCards": {self.ids[s]: list(c) for s, c in sorted(hand.hole.items())},
                "actions": [dict(a) for a in hand.actions],
                "refunds": {self.ids[s]: r for s, r in enumerate(hand.refunds) if r},
                "pots": [dict(p, eligible=list(p["eligible"]), winners=list(p["winners"])) for p in hand.pots_awarded],
                "endStacks": list(self.stacks),
                "eliminated": [self.ids[s] for s in busted],
                "history": entry,
            }
        )

    # -- results ------------------------------------------------------------------
    def standings(self) -> list[dict]:
        """Every seat: id, name, chips, place (None while still playing), eliminatedInHand, errors.

        While a hand is in play, ``chips`` are each seat's chips at its start (R43); R43's
        alternative ``live`` gives the hand's current stacks (behind, blinds and bets taken out)."""
        live = self.ruleset.standings_chips == "live" and not self.over and self.hand is not None
        stacks = self.hand.stacks if live else self.stacks  # type: ignore[union-attr]
        return [
            {
                "id": self.ids[s],
                "name": self.names[s],
                "seat": s,
                "chips": stacks[s],
                "place": self.places[s],
                "eliminatedInHand": self.eliminated_in[s],
                "errors": self.errors[s],
                **({"timeouts": self.timeouts[s], "autoFolded": self.auto_folded[s]}
                   if self.ruleset.timeouts_to_auto_fold is not None else {}),
            }
            for s in range(self.n)
        ]

    def public_history(self, limit: int | None = None) -> list[dict]:
        """Fresh copies of the public hand summaries, oldest first (the last ``limit`` if given)."""
        entries = self.history if limit is None else self.history[-limit:]
        return [
            {
                "handNumber": e["handNumber"],
                "board": list(e["board"]),
                "showdown": [dict(x, cards=list(x["cards"])) for x in e["showdown"]],
                "winners": [dict(w) for w in e["winners"]],
            }
            for e in entries
        ]

    @property
    def street(self) -> str | None:
        return None if self.over else STREETS[self.hand.street]  # type: ignore[union-attr]


def _seating(kind: str, seed32: int, n: int) -> tuple[list[int], int]:
    """Seat of each identity and the first button. "seeded" (R23): the stream
    ``rng("seating:<seed32>")`` shuffles the identities by Fisher-Yates (i from n-1 down to 1,
    ``j = floor(r() * (i + 1))``), then ``floor(r() * n)`` is the first button."""
    if kind == "fixed":
        return list(range(n)), 0
    stream = rng(f"seating:{seed32}")
    order = list(range(n))  # order[seat] = identity index
    for i in range(n - 1, 0, -1):
        j = int(stream() * (i + 1))
        order[i], order[j] = order[j], order[i]
    seat_of = [0] * n
    for seat, k in enumerate(order):
        seat_of[k] = seat
    return seat_of, int(stream() * n)


def _validated_controllers(controllers: object, n: int) -> list[str]:
    if controllers is None:
        return ["bot"] * n
    if not isinstance(controllers, (list, tuple)) or len(controllers) != n:
        raise OptionError("controllers", f"expected {n} controller types, one per identity")
    for i, c in enumerate(controllers):
        if c not in ("bot", "human", "agent"):
            raise OptionError(f"controllers[{i}]", f"expected 'bot', 'human' or 'agent', got {c!r}")
    return list(controllers)


def _validated_names(names: object, rules: Ruleset) -> list[str]:
    if isinstance(names, (str, bytes)) or not isinstance(names, (list, tuple)):
        raise OptionError("names", f"expected a list of seat names, got {type(names).__name__}")
    if not rules.min_seats <= len(names) <= rules.max_seats:
        raise OptionError("names", f"{rules.name} seats {rules.min_seats} to {rules.max_seats} players, got {len(names)}")
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name:
            raise OptionError(f"names[{i}]", f"expected a non-empty string, got {name!r}")
        if rules.distinct_names and name in names[:i]:
            raise OptionError(f"names[{i}]", f"{rules.name} needs distinct identities; {name!r} repeats")
    return list(names)


def _positive_int(value: object, field: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise OptionError(field, f"expected a positive integer, got {value!r}")


def _validated_ruleset(rules: Ruleset) -> Ruleset:
    _positive_int(rules.starting_stack, "starting_stack")
    _positive_int(rules.hands_per_level, "hands_per_level")
    _positive_int(rules.time_limit_ms, "time_limit_ms")
    if rules.max_hands is not None:
        _positive_int(rules.max_hands, "max_hands")
    schedule = rules.blind_schedule
    if not isinstance(schedule, (list, tuple)) or not schedule:
        raise OptionError("blind_schedule", "expected a non-empty list of [small, big] pairs")
    for i, level in enumerate(schedule):
        if not isinstance(level, (list, tuple)) or len(level) != 2:
            raise OptionError(f"blind_schedule[{i}]", f"expected [small, big], got {level!r}")
        small, big = level
        _positive_int(small, f"blind_schedule[{i}][0]")
        _positive_int(big, f"blind_schedule[{i}][1]")
        if small > big:
            raise OptionError(f"blind_schedule[{i}]", f"small blind {small} exceeds big blind {big}")
    return Ruleset(**{**rules.__dict__, "blind_schedule": tuple(tuple(level) for level in schedule)})


def _validated_decks(decks: object):
    if decks is None or callable(decks):
        return decks
    if not isinstance(decks, Mapping):
        raise OptionError("decks", "expected a mapping hand number -> cards, or a function")
    for number, cards in decks.items():
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise OptionError("decks", f"hand number {number!r} is not a positive integer")
        complete_deck(cards, f"decks[{number}]")
    return dict(decks)
