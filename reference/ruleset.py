"""Rulesets: every parameter and house convention of a tournament in one object.

``CONTRACT_V1`` is bot-contract-v1; other rulesets are further instances of
``Ruleset`` (never forks of the engine).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .errors import OptionError

DEFAULT_BLIND_SCHEDULE = (
    (50, 100), (100, 200), (150, 300), (200, 400), (300, 600),
    (400, 800), (600, 1200), (800, 1600), (1000, 2000), (1500, 3000),
)


@dataclass(frozen=True)
class Ruleset:
    name: str
    min_seats: int = 2
    max_seats: int = 9
    starting_stack: int = 10_000
    blind_schedule: tuple[tuple[int, int], ...] = DEFAULT_BLIND_SCHEDULE
    hands_per_level: int = 12
    max_hands: int | None = 300  # None: no hand cap
    time_limit_ms: int = 1000
    init_time_limit_ms: int = 5000
    # The house convention of contract v1 (R9): a checker facing only a short
    # opening all-in is not reopened. False gives the checker the raise right.
    checker_reopened_by_short_opening: bool = False
    # Seats and button: "fixed" (seat i is names[i], first button seat 0) or "seeded" (R23).
    seating: str = "fixed"
    distinct_names: bool = False  # each seat a distinct identity
    # The clock when a human or agent participates (None: the same as time_limit_ms).
    human_time_limit_ms: int | None = None
    # Consecutive timeouts that set persistent auto-fold (None: never; contract v1).
    timeouts_to_auto_fold: int | None = None
    # Which cards a showdown makes public: "all-live" (v1) or "needed" (R25).
    showdown_reveal: str = "all-live"
    # With "needed": whether a pot with one eligible seat reveals its winner's needed cards (R31).
    reveal_uncontested_pots: bool = False
    # Tie-break among seats eliminated in one hand with equal starting stacks (R17, R27).
    equal_stack_order: str = "button"  # or "seat"
    # Answer words besides the contract's: "v4" adds bet and all_in (R24).
    vocabulary: str = "contract"
    # Ruling options without a parameter above, named as in reference.rulings (set them through a
    # ruling profile; the defaults are our choices).
    deal_from: str = "front"  # R3
    dead_layer: str = "join-below"  # R7
    short_blind: str = "actual-blind"  # R8
    raise_responder: str = "responder-with-chips"  # R10
    settlement: str = "merged-pots"  # R13
    result_order: str = "seat-index"  # R14
    out_seat_flags: str = "folded"  # R15
    heads_up: str = "big-blind-advances"  # R16 (holdem-sng-3-v4's text: button-advances)
    action_amount: str = "chips-added"  # R20
    invalid_answer: str = "immediate-fallback"  # R22 (contract v1 has no turn to run out)
    simultaneous_bust: str = "starting-stack"  # R17; holdem-sng-3-v4: lower-seat (R27)
    standings_chips: str = "hand-start"  # R43: standings' chips while a hand is in play (or "live")

    def with_options(self, **options) -> "Ruleset":
        """A copy with some parameters changed; unknown names are an OptionError."""
        known = set(self.__dataclass_fields__)
        for key in options:
            if key not in known:
                raise OptionError(key, f"unknown option (known: {', '.join(sorted(known))})")
        return replace(self, **options)


CONTRACT_V1 = Ruleset(name="contract-v1")

# holdem-sng-3-v4: three identities, 500 chips, levels by completed hand number (1-10, 11-20, ...),
# no hand cap, a 15 s bot clock (45 s with a human or agent), auto-fold after three timeouts.
SNG_3_V4 = Ruleset(
    name="holdem-sng-3-v4",
    min_seats=3,
    max_seats=3,
    starting_stack=500,
    blind_schedule=((5, 10), (10, 20), (20, 40), (40, 80), (80, 160), (160, 320)),
    hands_per_level=10,
    max_hands=None,
    time_limit_ms=15_000,
    human_time_limit_ms=45_000,
    seating="seeded",
    distinct_names=True,
    timeouts_to_auto_fold=3,
    showdown_reveal="needed",
    equal_stack_order="seat",
    vocabulary="v4",
    invalid_answer="as-timeout",
    heads_up="button-advances",  # its text has no heads-up transition (R16)
    simultaneous_bust="lower-seat",  # "equal final stacks -> lower seat number" (R27)
)

RULESETS: dict[str, Ruleset] = {r.name: r for r in (CONTRACT_V1, SNG_3_V4)}


def get_ruleset(name_or_ruleset: "str | Ruleset") -> Ruleset:
    if isinstance(name_or_ruleset, Ruleset):
        return name_or_ruleset
    try:
        return RULESETS[name_or_ruleset]
    except (KeyError, TypeError):
        raise OptionError("ruleset", f"unknown ruleset {name_or_ruleset!r} (known: {', '.join(RULESETS)})") from None
