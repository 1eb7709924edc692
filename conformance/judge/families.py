"""The vector families the judge knows and the rulesets their games are played under."""

# The families docs/INTERPRETING.md defines a runner for, in running order (a new vector family
# needs a driver and a judge here before it can be certified).
FAMILIES = ("rng", "deck", "evaluate", "equity", "pots", "legality", "hands", "hand", "tournaments", "sng3v4")
# What certification for a ruleset runs: the ruleset-independent helper families and its games.
HELPER_FAMILIES = ("rng", "deck", "evaluate", "equity", "pots")
RULESETS = {
    "contract-v1": HELPER_FAMILIES + ("legality", "hands", "tournaments"),
    "holdem-sng-3-v4": HELPER_FAMILIES + ("sng3v4",),
}
DEFAULT_RULESET = "contract-v1"
# Families whose games are played under a ruleset an engine may lack (docs/engine-api.md, ruleset).
FAMILY_RULESET = {"sng3v4": "holdem-sng-3-v4"}
RULESET_NOT_SUPPORTED = "ruleset not supported"
OPTIONAL = frozenset({"pots"})  # an extension: an engine without it has the family skipped
DEFAULT_STARTING_STACK = {"contract-v1": 10_000, "holdem-sng-3-v4": 500}  # by the game's ruleset option
