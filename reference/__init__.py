"""The reference engine: bot-contract v1's rules, exactly, in Python.

Public API: ``evaluate``, ``rng``, ``deal_hand``, ``build_pots``, ``equity``,
``exact_equity``, ``Tournament``, ``Hand``, the rulesets and the exceptions.
"""
from .errors import (
    CardError, EquityError, EvaluateError, GameOver, HoldemError, IllegalAction,
    OptionError, PotsError, SeedError,
)
from .evaluator import evaluate
from .equity import equity, exact_equity
from .hand import Hand
from .pots import build_pots
from .rng import deal_hand, rng
from .ruleset import CONTRACT_V1, RULESETS, Ruleset, get_ruleset
from .scenario import pinned_deck
from .tournament import Tournament

__all__ = [
    "CONTRACT_V1", "CardError", "EquityError", "EvaluateError", "GameOver", "Hand", "HoldemError",
    "IllegalAction", "OptionError", "PotsError", "RULESETS", "Ruleset", "SeedError", "Tournament",
    "build_pots", "deal_hand", "equity", "evaluate", "exact_equity", "get_ruleset", "pinned_deck", "rng",
]
