"""A tournament under a ruleset: seats, button and blinds, levels, eliminations, places.

``Tournament(names, seed=N, **options)`` deals every hand with ``deal_hand(seed, n)``
(or a pinned deck) and is driven one decision at a time: ``decision_state()`` for
the seat to act, then ``act(answer)`` (strict: an illegal answer raises
IllegalAction and changes nothing) or ``submit(answer)`` (the runner's way: an
invalid answer takes the contract's fallback and counts an error).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .actions import Legal, check_legal, parse_answer
from .errors import GameOver, IllegalAction, OptionError
from .hand import STREETS, Hand, complete_deck
from .rng import deal_hand, seed_to_uint32
from .ruleset import Ruleset, get_ruleset

HISTORY_LIMIT = 20
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
        **options,
    ):
        """``options``: starting_stack, blind_schedule, hands_per_level, max_hands (None: no
        cap), time_limit_ms — each overrides the ruleset's value. ``stacks`` gives each seat
        its own starting chips (scenario tests); ``decks`` pins the deck of some hands
        (hand number -> cards, completed in canonical order; or a function of the number).
        """
        base = get_ruleset(ruleset)
        for key in options:
            if key not in _OPTION_NAMES:
                raise OptionError(key, f"unknown option (known: ruleset, stacks, decks, {', '.join(_OPTION_NAMES)})")
        self.ruleset = rules = _validated_ruleset(base.with_options(**options)) if options else _validated_ruleset(base)
        self.names = _validated_names(names, rules)
        n = len(self.names)
        self.n = n
        self.ids = [f"s{i + 1}" for i in range(n)]
        self.seed = seed
        seed_to_uint32(seed)  # reject a seed with no JavaScript equivalent now, not at hand 1
        self._decks = _validated_decks(decks)
        if stacks is None:
            self.stacks = [rules.starting_stack] * n
        else:
            if len(stacks) != n:
                raise OptionError("stacks", f"expected {n} stacks, one per seat, got {len(stacks)}")
            for i, c in enumerate(stacks):
                if isinstance(c, bool) or not isinstance(c, int) or c <= 0:
                    raise OptionError(f"stacks[{i}]", f"expected a positive integer, got {c!r}")
            self.stacks = list(stacks)
        self.out = [False] * n
        self.places: list[int | None] = [None] * n
        self.eliminated_in: list[int | None] = [None] * n
        self.errors = [0] * n
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

    def decision_state(self) -> dict | None:
        """A fresh decision ``state`` for the seat to act, or None once the tournament is over."""
        if self.over:
            return None
        from .state import decision_state

        return decision_state(self)

    def act(self, answer: object) -> dict:
        """Apply an answer in any accepted form; IllegalAction (nothing changed) if it is not legal."""
        self._require_live()
        kind, amount = parse_answer(answer)
        check_legal(kind, amount, self.hand.legal())  # type: ignore[union-attr]
        return self._apply(kind, amount)

    def submit(self, answer: object) -> tuple[dict, str | None]:
        """The runner's rule: an invalid answer becomes check-or-fold and counts one error.

        Returns the ``actions`` entry applied and the error code (None when accepted).
        """
        try:
            return self.act(answer), None
        except IllegalAction as exc:
            return self.fallback(exc.code), exc.code

    def fallback(self, reason: str) -> dict:
        """A missing, late or invalid answer: check if legal, else fold; one error for the seat."""
        self._require_live()
        hand = self.hand
        self.errors[hand.to_act] += 1  # type: ignore[union-attr,index]
        legal = hand.legal()  # type: ignore[union-attr]
        return self._apply("check" if legal.can_check else "fold", None)

    def _apply(self, kind: str, amount: int | None) -> dict:
        hand = self.hand
        record = hand.apply(kind, amount)  # type: ignore[union-attr]
        if hand.done:  # type: ignore[union-attr]
            self._finish_hand()
            self._next_hand()
        return dict(record)

    def _require_live(self) -> None:
        if self.over:
            raise GameOver("action", "the tournament is over")

    # -- hands --------------------------------------------------------------------
    def level(self, hand_number: int | None = None) -> int:
        """R18: one level every ``hands_per_level`` hands, stopping at the last."""
        number = self.hand_number if hand_number is None else hand_number
        return min((number - 1) // self.ruleset.hands_per_level, len(self.ruleset.blind_schedule) - 1)

    def _next_survivor(self, seat: int) -> int:
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if not self.out[s]:
                return s
        raise AssertionError("no survivor")

    def _positions(self) -> tuple[int, int, int]:
        """Button, small blind and big blind of the next hand (R16)."""
        alive = [s for s in range(self.n) if not self.out[s]]
        button = alive[0] if self._button is None else self._next_survivor(self._button)
        if len(alive) == 2:
            if self._prev_count >= 3:  # the heads-up transition
                bb = self._next_survivor(self._prev_bb)  # type: ignore[arg-type]
                button = alive[0] if alive[1] == bb else alive[1]
            return button, button, self._next_survivor(button)
        sb = self._next_survivor(button)
        return button, sb, self._next_survivor(sb)

    def _deck(self, number: int) -> list[str]:
        pinned = self._decks
        if callable(pinned):
            cards = pinned(number)
        elif pinned is not None and number in pinned:
            cards = pinned[number]
        else:
            return deal_hand(self.seed, number)
        return complete_deck(cards, f"decks[{number}]")

    def _next_hand(self) -> None:
        while not self._is_over():
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
            )
            self._button, self._prev_bb = button, bb
            self._prev_count = sum(1 for o in self.out if not o)
            if not self.hand.done:
                return
            self._finish_hand()
        self.over = True

    def _is_over(self) -> bool:
        survivors = [s for s in range(self.n) if not self.out[s]]
        if len(survivors) == 1:
            self.places[survivors[0]] = 1
            return True
        cap = self.ruleset.max_hands
        if cap is not None and self.hand_number >= cap:
            # Competition places by chips for the survivors (1,1,3).
            for s in survivors:
                self.places[s] = 1 + sum(1 for o in survivors if self.stacks[o] > self.stacks[s])
            return True
        return False

    def _finish_hand(self) -> None:
        hand = self.hand
        assert hand is not None and hand.done
        self.stacks = list(hand.stacks)
        entry = hand.history_entry()
        self.history.append(entry)
        busted = [s for s in hand.order if self.stacks[s] == 0]
        survivors = sum(1 for s in range(self.n) if not self.out[s]) - len(busted)
        # R17: larger starting-hand stack first, then button-relative order (hand.order).
        busted.sort(key=lambda s: (-hand.start_stacks[s], hand.order.index(s)))
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
        """Every seat: id, name, chips, place (None while still playing), eliminatedInHand, errors."""
        return [
            {
                "id": self.ids[s],
                "name": self.names[s],
                "seat": s,
                "chips": self.stacks[s],
                "place": self.places[s],
                "eliminatedInHand": self.eliminated_in[s],
                "errors": self.errors[s],
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


def _validated_names(names: object, rules: Ruleset) -> list[str]:
    if isinstance(names, (str, bytes)) or not isinstance(names, (list, tuple)):
        raise OptionError("names", f"expected a list of seat names, got {type(names).__name__}")
    if not rules.min_seats <= len(names) <= rules.max_seats:
        raise OptionError("names", f"{rules.name} seats {rules.min_seats} to {rules.max_seats} players, got {len(names)}")
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name:
            raise OptionError(f"names[{i}]", f"expected a non-empty string, got {name!r}")
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
