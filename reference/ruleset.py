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

    def with_options(self, **options) -> "Ruleset":
        """A copy with some parameters changed; unknown names are an OptionError."""
        known = set(self.__dataclass_fields__)
        for key in options:
            if key not in known:
                raise OptionError(key, f"unknown option (known: {', '.join(sorted(known))})")
        return replace(self, **options)


CONTRACT_V1 = Ruleset(name="contract-v1")

RULESETS: dict[str, Ruleset] = {CONTRACT_V1.name: CONTRACT_V1}


def get_ruleset(name_or_ruleset: "str | Ruleset") -> Ruleset:
    if isinstance(name_or_ruleset, Ruleset):
        return name_or_ruleset
    try:
        return RULESETS[name_or_ruleset]
    except (KeyError, TypeError):
        raise OptionError("ruleset", f"unknown ruleset {name_or_ruleset!r} (known: {', '.join(RULESETS)})") from None
