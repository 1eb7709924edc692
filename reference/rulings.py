"""Ruling profiles: which documented option of each ruling (docs/rulings.md) the reference plays.

A difference from the reference is "divergent on Rn" only when the reference under one of Rn's
documented alternatives reproduces the engine exactly (issue #12); this module names those
alternatives and turns a choice of them (a ``Profile``) into ruleset parameters, once per game or
hand, so the hot paths read plain ruleset fields as they always did.

``RULINGS`` lists every ruling; one with a single option has no playable alternative (its procedure
is judged by properties or statistics instead: R1, R2, R4, R5, R6, ...).
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace

from .errors import OptionError
from .ruleset import CONTRACT_V1, Ruleset, get_ruleset

GAMES = ("legality", "hands", "tournaments", "runner", "sng3v4")  # vector families that play games
HAND = GAMES + ("hand",)  # rulings a lone hand plays too (the hand family, reference/hand_api.py)


@dataclass(frozen=True)
class Ruling:
    id: str
    title: str
    options: tuple[str, ...]  # playable options, the default among them
    default: str  # our choice (under contract v1 when the ruleset decides; see default_for)
    families: tuple[str, ...]  # vector families whose outcomes the ruling can change
    # Options a ruleset's own text rules out (docs/rulings.md, Audit of the alternatives): not a
    # reasonable reading there, so never its default nor an alternative (an engine taking one fails
    # with the record's clause; it is not divergent). The reference still plays them, so that a
    # failure can say which one reproduces it: a diagnosis, not an excuse.
    ruled_out: tuple["RuledOut", ...] = ()

    def ruled_out_for(self, ruleset: "str | Ruleset" = CONTRACT_V1) -> tuple["RuledOut", ...]:
        """The records of the options ``ruleset``'s text rules out, in documented order."""
        name = get_ruleset(ruleset).name
        mine = {r.option: r for r in self.ruled_out if r.ruleset == name}
        return tuple(mine[o] for o in self.options if o in mine)

    def options_for(self, ruleset: "str | Ruleset" = CONTRACT_V1) -> tuple[str, ...]:
        """The options that are reasonable readings of ``ruleset``'s text, in documented order."""
        out = {r.option for r in self.ruled_out_for(ruleset)}
        return tuple(o for o in self.options if o not in out)

    def default_for(self, ruleset: "str | Ruleset" = CONTRACT_V1) -> str:
        """The option ``ruleset`` plays when no profile says otherwise."""
        setting = _SETTINGS.get(self.id)
        if setting is None:
            return self.default
        field, values = setting
        current = getattr(get_ruleset(ruleset), field)
        for option in self.options_for(ruleset):
            if values.get(option, option) == current:
                return option
        raise AssertionError(f"{self.id}: ruleset value {current!r} is no option")

    def alternatives(self, ruleset: "str | Ruleset" = CONTRACT_V1) -> tuple[str, ...]:
        default = self.default_for(ruleset)
        return tuple(o for o in self.options_for(ruleset) if o != default)


@dataclass(frozen=True)
class RuledOut:
    """An option of ``ruling`` that ``ruleset``'s text rules out: ``words`` are the text's, and an
    engine following the option breaks ``clause`` (conformance/vectors/clauses.py)."""

    ruling: str
    option: str
    ruleset: str
    clause: str
    words: str

    def text(self) -> str:
        return f"{self.ruling} = {self.option!r}, which {self.ruleset}'s text rules out ({self.words!r})"


V1, V4 = "contract-v1", "holdem-sng-3-v4"
# The contract's words, quoted once (bot-contract-v1.md, holdem-sng-3-v4.md).
_CHECKER = "The house convention also does not reopen a checker facing only a short opening all-in."
_V4_REOPEN = ("An all-in below a full minimum raise does not reopen betting for a player whose action was already "
              "complete, according to standard no-limit rules.")
_ODD_V1 = "Tied winners split each pot; odd chips go clockwise starting immediately left of the button."
_ODD_V4 = "Tied pots split equally. Odd chips are awarded clockwise beginning with the first tied winner left of the button."
_FOLDED = "`folded` means not contesting this hand"
_EQUAL_V1 = "Equal starting stacks use button-relative order: the first seat left of the button ranks higher."
_EQUAL_V4 = ("If simultaneous elimination produces equal final stacks, lower seat number receives the better "
             "persisted finish position.")
_AMOUNT = "`amount` is additional chips committed by that action, NOT its raise-to amount."
_HEADS_UP_V1 = ("Normally the next surviving seat becomes the button. On the transition to heads-up, the big blind "
                "advances from the previous big blind and the other survivor becomes the button.")
_HEADS_UP_V4 = "The button advances clockwise to the next participant with chips after each hand."
_PUBLIC_V1 = "All live hands at showdown are public, including an eliminated player's shown hand."
_PUBLIC_V4 = "Only cards needed to establish an awarded showdown hand are public after hand completion"
_BUST_V1 = "Simultaneous eliminations rank larger starting-hand stacks higher."


def _r(id: str, title: str, options: str, families: tuple[str, ...],
       *ruled_out: tuple[str, str, str, str]) -> Ruling:
    """``ruled_out``: (ruleset, options its text rules out (space-separated), clause, the words)."""
    names = tuple(options.split())
    out = tuple(RuledOut(id, o, ruleset, clause, words) for ruleset, opts, clause, words in ruled_out
                for o in opts.split())
    assert all(r.option in names for r in out), id
    return Ruling(id, title, names, names[0], families, out)


_ALL = (
    _r("R1", "rng seed normalisation", "code-point-fnv1a", ("rng",)),
    _r("R2", "dealHand derivation", "fnv1a-mulberry32-fisher-yates", ("deck",)),
    _r("R3", "which end of the deck is dealt", "front back", HAND),
    _r("R4", "evaluate value encoding and names", "base-15", ("evaluate",)),
    _r("R5", "evaluate best order and choice", "group-significance", ("evaluate",)),
    _r("R6", "equity arguments and sampling procedure", "partial-fisher-yates", ("equity",)),
    _r("R7", "build_pots: a layer nobody can win", "join-below stand-alone", ("pots",)),
    _r("R8", "short (all-in) blinds", "actual-blind full-big-blind", HAND),
    _r("R9", "the reopening model", "checker-convention checker-reopened", HAND,
       (V1, "checker-reopened", "rules.checker-convention", _CHECKER),
       (V4, "checker-reopened", "rules.checker-convention", _V4_REOPEN)),
    _r("R10", "when raising is not permitted", "responder-with-chips responder-above-bet", HAND),
    _r("R11", "action order and round closure", "contract-order", HAND),
    _r("R12", "uncalled excess", "refund-at-round-close", HAND),
    _r("R13", "splitting and odd chips", "merged-pots raw-layers first-winner-in-seat-order first-winner-left-of-button",
       HAND, (V1, "first-winner-in-seat-order first-winner-left-of-button", "rules.odd-chips", _ODD_V1),
       (V4, "first-winner-in-seat-order first-winner-left-of-button", "rules.odd-chips", _ODD_V4)),
    _r("R14", "order of showdown and winners", "seat-index left-of-button", HAND),
    _r("R15", "eliminated seats in state.seats", "folded all-in folded-and-all-in neither", HAND,
       (V1, "all-in neither", "state.seats", _FOLDED), (V4, "all-in neither", "state.seats", _FOLDED)),
    # Each ruleset's text decides (issue #14, issue #24): v1's heads-up transition, v4's "The button
    # advances clockwise to the next participant with chips"; the other is a diagnosis only.
    _r("R16", "button, blinds and the heads-up transition", "big-blind-advances button-advances", GAMES,
       (V1, "button-advances", "rules.heads-up-transition", _HEADS_UP_V1),
       (V4, "big-blind-advances", "rules.button", _HEADS_UP_V4)),
    _r("R17", "eliminations and places", "button-relative seat-order", GAMES,
       (V1, "seat-order", "rules.simultaneous", _EQUAL_V1), (V4, "button-relative", "rules.simultaneous", _EQUAL_V4)),
    _r("R18", "blind levels", "by-hand-number", GAMES),
    _r("R19", "parsing the bot's answer", "strict", HAND),
    _r("R20", "actions entries", "chips-added amount-street-total", HAND,
       (V1, "amount-street-total", "state.actions", _AMOUNT), (V4, "amount-street-total", "state.actions", _AMOUNT)),
    _r("R21", "per-seat Math.random seeds", "hash-of-seat", ("runner",)),
    _r("R22", "sng3v4: invalid answers", "as-timeout immediate-fallback", ("sng3v4",)),
    _r("R23", "sng3v4: seating and the first button", "seeded-fisher-yates", ("sng3v4",)),
    _r("R24", "sng3v4: action vocabulary", "contract-words", ("sng3v4",)),
    # v4's text: "Only cards needed to establish an awarded showdown hand are public" (issue #14).
    _r("R25", "sng3v4: public showdown cards", "winners-needed-cards all-showdown-hands", ("sng3v4",),
       (V1, "winners-needed-cards", "rules.showdown-public", _PUBLIC_V1),
       (V4, "all-showdown-hands", "rules.showdown-public", _PUBLIC_V4)),
    _r("R26", "sng3v4: auto-folded seats", "dealt-in-folded", ("sng3v4",)),
    _r("R27", "sng3v4: simultaneous eliminations", "starting-stack lower-seat", ("sng3v4",),
       (V1, "lower-seat", "rules.simultaneous", _BUST_V1)),
    _r("R28", "exports = ... is not an export", "commonjs", ()),
    _r("R29", "roster bounds and text", "bounded", ()),
    _r("R30", "static lint: clocks, entropy and the environment", "probes-warn", ()),
    _r("R31", "sng3v4: an uncontested side pot reveals nothing", "contested-pots any-showdown-pot", ("sng3v4",)),
    # Played by reference.rng's numeric_like argument, not by a ruleset field.
    _r("R32", "rng: BigInt, boxed Number and objects as seeds", "other-seeds-stringified numeric-like", ("rng",)),
    _r("R33", "certifying the decision deadline outside the arena", "retime-medians", ()),
    _r("R34", "a worker's answers and messages: Unicode text, bounded", "bounded", ()),
    _r("R35", "worker globals checked by identity", "identity", ()),
    _r("R36", "bot battery seat names and ids drawn from the botSeed", "drawn", ()),
    _r("R37", "hand profile: an engine that deals from its own shuffled deck", "cards-by-position", ()),
    _r("R38", "engine API: invalid input is refused", "refuse", ("pots", "hand", "tournaments", "sng3v4")),
    _r("R39", "the bot worker's globals: a classic Web Worker's", "worker-global-scope", ()),
    # Played by reference.evaluator.evaluate_array_like, not by a ruleset field.
    _r("R40", "evaluate: an array-like object as cards", "refuse accept-array-like", ("evaluate",)),
    # Played by the adapter's random of kind omitted (reference.adapter.random_argument).
    _r("R41", "equity without random", "math-random random-required", ("equity",)),
    # Played by reference.adapter.given_options (null exists only in the engine API's JSON), and proven by the
    # judge on a create refusal (conformance.judge.family_judges), not searched over replays.
    _r("R42", "engine API: null for the options, stacks, decks or controllers", "none-given refuse", ()),
    _r("R43", "standings during a game: each seat's chips at the hand in play's start", "hand-start live",
       ("tournaments", "sng3v4")),
    # Recognised by the driver's probe (family_judges.after_the_end), not played by the reference.
    _r("R44", "answers once the game or hand is over are refused", "refuse", ()),
    _r("R45", "values the engine API hands out or takes in are not shared", "copies", ()),
)
RULINGS: dict[str, Ruling] = {r.id: r for r in _ALL}

# Ruling id -> (the Ruleset field that plays it, option -> field value); an option missing from
# the value map is stored under its own name.
_SETTINGS: dict[str, tuple[str, dict[str, object]]] = {
    "R3": ("deal_from", {}),
    "R7": ("dead_layer", {}),
    "R8": ("short_blind", {}),
    "R9": ("checker_reopened_by_short_opening", {"checker-convention": False, "checker-reopened": True}),
    "R10": ("raise_responder", {}),
    "R13": ("settlement", {}),
    "R14": ("result_order", {}),
    "R15": ("out_seat_flags", {}),
    "R16": ("heads_up", {}),
    "R17": ("equal_stack_order", {"button-relative": "button", "seat-order": "seat"}),
    "R20": ("action_amount", {}),
    "R22": ("invalid_answer", {}),
    "R25": ("showdown_reveal", {"winners-needed-cards": "needed", "all-showdown-hands": "all-live"}),
    "R27": ("simultaneous_bust", {}),
    "R31": ("reveal_uncontested_pots", {"contested-pots": False, "any-showdown-pot": True}),
    "R43": ("standings_chips", {}),
}


def _number(ruling_id: str) -> int:
    return int(ruling_id[1:])


class Profile(Mapping):
    """An immutable, validated choice ruling id -> option; rulings not named play their default."""

    __slots__ = ("_choices",)

    def __init__(self, choices: "Mapping[str, str] | None" = None):
        if choices is None:
            choices = {}
        if not isinstance(choices, Mapping):
            raise OptionError("rulings", f"expected a mapping ruling id -> option, got {type(choices).__name__}")
        for rid, option in choices.items():
            ruling = RULINGS.get(rid) if isinstance(rid, str) else None
            if ruling is None:
                raise OptionError("rulings", f"unknown ruling {rid!r} (known: R1 to R{len(RULINGS)})")
            if option not in ruling.options:
                raise OptionError(f"rulings.{rid}", f"unknown option {option!r} (options: {', '.join(ruling.options)})")
        self._choices = {rid: choices[rid] for rid in sorted(choices, key=_number)}

    def __getitem__(self, ruling_id: str) -> str:
        return self._choices[ruling_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._choices)

    def __len__(self) -> int:
        return len(self._choices)

    def __hash__(self) -> int:
        return hash(tuple(self._choices.items()))

    def __repr__(self) -> str:
        return f"Profile({self._choices!r})"

    def apply(self, ruleset: Ruleset) -> Ruleset:
        """``ruleset`` playing these options (the same object when nothing changes)."""
        fields = {}
        for rid, option in self._choices.items():
            setting = _SETTINGS.get(rid)
            if setting is not None:  # a single-option ruling changes nothing
                field, values = setting
                fields[field] = values.get(option, option)
        if all(getattr(ruleset, f) == v for f, v in fields.items()):
            return ruleset
        return replace(ruleset, **fields)


DEFAULT = Profile()


def as_profile(rulings: "Profile | Mapping[str, str] | None") -> Profile:
    """A ``rulings=`` argument (None, a Profile or a plain dict) as a validated Profile."""
    if rulings is None:
        return DEFAULT
    return rulings if isinstance(rulings, Profile) else Profile(rulings)


def with_rulings(ruleset: Ruleset, rulings: "Profile | Mapping[str, str] | None") -> Ruleset:
    return ruleset if rulings is None else as_profile(rulings).apply(ruleset)


def profiles_to_try(ruling_ids: Iterable[str], max_combined: int = 2,
                    ruleset: "str | Ruleset" = CONTRACT_V1) -> Iterator[Profile]:
    """The alternative profiles over ``ruling_ids``: every single alternative (rulings by number,
    options in documented order), then every combination of 2 .. ``max_combined`` alternatives
    of distinct rulings in the same order. Defaults are ``ruleset``'s."""
    if isinstance(max_combined, bool) or not isinstance(max_combined, int) or max_combined < 1:
        raise OptionError("max_combined", f"expected a positive integer, got {max_combined!r}")
    ids = []
    for rid in ruling_ids:
        if rid not in RULINGS:
            raise OptionError("ruling_ids", f"unknown ruling {rid!r}")
        if rid not in ids:
            ids.append(rid)
    ids.sort(key=_number)
    alternatives = [(rid, option) for rid in ids for option in RULINGS[rid].alternatives(ruleset)]
    for size in range(1, max_combined + 1):
        for combo in itertools.combinations(alternatives, size):
            if len({rid for rid, _ in combo}) == size:
                yield Profile(dict(combo))


def ruled_out_in(profile: "Mapping[str, str]", ruleset: "str | Ruleset" = CONTRACT_V1) -> list[RuledOut]:
    """The records of the options in ``profile`` that ``ruleset``'s text rules out."""
    out = []
    for rid, option in sorted(profile.items(), key=lambda item: _number(item[0])):
        out += [r for r in RULINGS[rid].ruled_out_for(ruleset) if r.option == option]
    return out


def diagnoses_to_try(ruling_ids: Iterable[str], ruleset: "str | Ruleset" = CONTRACT_V1) -> Iterator[Profile]:
    """The profiles that replay options ``ruleset``'s text rules out (for a diagnosis, never a
    divergence): every single ruled-out option (rulings by number, options in documented order),
    then each paired with every playable alternative or ruled-out option of another ruling."""
    ids = sorted({rid for rid in ruling_ids if rid in RULINGS}, key=_number)
    out = [(rid, r.option) for rid in ids for r in RULINGS[rid].ruled_out_for(ruleset)]
    playable = [(rid, option) for rid in ids for option in RULINGS[rid].alternatives(ruleset)]
    for item in out:
        yield Profile(dict([item]))
    seen = set()
    for a in out:
        for b in playable + out:
            pair = frozenset((a, b))
            if a[0] != b[0] and pair not in seen:
                seen.add(pair)
                yield Profile(dict(sorted(pair, key=lambda item: _number(item[0]))))
