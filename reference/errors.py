"""Exceptions raised by the reference engine.

Every public entry point rejects bad input with one of these. Each carries the
name of the offending ``field`` and a human ``reason``; ``str(exc)`` is
``"<field>: <reason>"`` so the CLI can print it as is.
"""


class HoldemError(ValueError):
    """Base class: bad input to a public entry point."""

    def __init__(self, field: str, reason: str):
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")


class CardError(HoldemError):
    """A card string is malformed, or cards are duplicated."""


class SeedError(HoldemError):
    """A seed or hand number is not acceptable."""


class EvaluateError(HoldemError):
    """``evaluate`` got a bad card count, a malformed card or a duplicate."""


class EquityError(HoldemError):
    """``equity`` got an invalid parameter."""


class PotsError(HoldemError):
    """``build_pots`` got malformed contributions."""


class OptionError(HoldemError):
    """A tournament option (names, seats, stacks, schedule, deck...) is invalid."""


class IllegalAction(HoldemError):
    """An answer is not a legal action for the seat to act.

    ``field`` is the part of the answer at fault (``type`` or ``amount``, or
    ``action`` for the answer as a whole); ``code`` is a stable machine-readable
    reason used by vectors and reports.
    """

    def __init__(self, field: str, reason: str, code: str):
        self.code = code
        super().__init__(field, reason)


class GameOver(HoldemError):
    """An action was submitted after the tournament ended."""
