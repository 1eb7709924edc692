"""Family ``tournaments``: seeds and deterministic seat strategies -> the per-hand log (positions,
level, actions, results, eliminations) and the final standings."""
from reference.adapter import run_tournaments

from conformance.vectors.gamespec import STRATEGIES, game, tournament
from conformance.vectors.vectorfile import make_test
from .hands import merged_odd_chips_matter

NOTES = {
    "Tournament": {"description": "play each seat's strategy (INTERPRETING.md) to the end; the log and standings must match",
                   "clauses": ["rules.button", "rules.levels", "rules.elimination", "rules.end", "rules.seats",
                               "rules.deal-order", "determinism.engine", "state.history"], "ruling": None},
    "HeadsUpTransition": {"description": "the table goes from three or more seats to two", "clauses": ["rules.heads-up-transition"], "ruling": None},
    "Simultaneous": {"description": "two or more seats are eliminated in one hand", "clauses": ["rules.simultaneous"], "ruling": None},
    "EqualStartStacks": {"description": "seats eliminated together had equal starting stacks: button-relative order decides",
                         "clauses": ["rules.simultaneous"], "ruling": None},
    "Defaults": {"description": "default starting stack and blind schedule", "clauses": ["rules.starting-stack", "rules.blind-schedule",
                 "rules.levels"], "ruling": None},
    "HandCap": {"description": "the hand cap ends the tournament: competition places by chips", "clauses": ["rules.cap-places"], "ruling": None},
    "ShortBlind": {"description": "some blind is short (all-in): currentBet is the largest blind posted", "clauses": ["state.to-call"], "ruling": "R8"},
    "MergedOddChips": {"description": "some split moves odd chips per merged pot, not per raw layer", "clauses": ["rules.odd-chips"], "ruling": "R13"},
    "BadOptions": {"description": "invalid seats or options (docs/engine-api.md): create throws; error names the field the "
                   "reference names (a note only). An engine taking them is divergent on R38 for that alone: the game "
                   "it then plays must deal no card twice and keep the table's chips",
                   "clauses": ["rules.seats", "rules.deck-distinct", "rules.chips-conserved"], "ruling": "R38"},
    "NullOption": {"description": "null given for stacks or controllers: create takes it as the option not given, the "
                   "default (R42); an engine refusing it is divergent on R42",
                   "clauses": ["rules.seats"], "ruling": "R42"},
    "RepeatedIdentities": {"description": "holdem-sng-3-v4 with a repeated identity: its text says \"Exactly three distinct "
                           "identities start the game\", so create throws and taking it fails (expected.breaks)",
                           "clauses": ["rules.distinct-identities"], "ruling": None},
}


def log_entry(record: dict) -> dict:
    keys = ("handNumber", "level", "blinds", "buttonSeat", "smallBlindSeat", "bigBlindSeat", "actions", "eliminated")
    entry = {k: record[k] for k in keys}
    entry["result"] = record["history"]
    entry["chips"] = record["endStacks"]
    return entry


def play(spec: dict, strategies: list[str]) -> tuple[dict, set[str]]:
    t = tournament(spec)
    flags = {"Tournament"}
    if not {"startingStack", "stacks", "blindSchedule"} & set(spec["options"]):
        flags.add("Defaults")
    while not t.over:
        hand = t.hand
        seat = t.to_act
        t.act(STRATEGIES[strategies[seat]](t.decision_state()))
        if hand.done and merged_odd_chips_matter(hand):
            flags.add("MergedOddChips")
    counts = []
    for record in t.hands:
        sb, bb = record["smallBlindSeat"], record["bigBlindSeat"]
        if record["startStacks"][sb] < record["blinds"][0] or record["startStacks"][bb] < record["blinds"][1]:
            flags.add("ShortBlind")
        counts.append(sum(1 for c in record["startStacks"] if c > 0))
        out = record["eliminated"]
        if len(out) > 1:
            flags.add("Simultaneous")
            starts = [record["startStacks"][int(i[1:]) - 1] for i in out]
            if len(set(starts)) < len(starts):
                flags.add("EqualStartStacks")
    if any(a >= 3 and b == 2 for a, b in zip(counts, counts[1:])):
        flags.add("HeadsUpTransition")
    if sum(1 for x in t.standings() if x["eliminatedInHand"] is None) > 1:
        flags.add("HandCap")
    standings = [{k: x[k] for k in ("id", "place", "chips", "eliminatedInHand")} for x in t.standings()]
    return {"log": [log_entry(r) for r in t.hands], "standings": standings}, flags


def first_seed(seats, strategies, wanted: str, **options) -> int:
    """The first seed from 1 whose tournament shows ``wanted`` (deterministic search)."""
    for seed in range(1, 500):
        _, flags = play(game(seats, seed=seed, **options), strategies)
        if wanted in flags:
            return seed
    raise ValueError(f"no seed shows {wanted}")


CASES = [
    # slug, seats, strategies, options, (flag to search a seed for, or None)
    ("two-seats-min-raisers", 2, ["min-raiser", "caller"], {"seed": 7}, None),
    ("three-callers-cap", 3, ["caller"] * 3, {"seed": 11, "maxHands": 40}, None),
    ("three-checkers-equal-at-cap", 3, ["checker"] * 3, {"seed": 1, "maxHands": 6}, None),
    ("four-checkers-cap", 4, ["checker"] * 4, {"seed": 1, "maxHands": 6}, None),
    ("levels-advance-and-stop", 3, ["caller", "checker", "cycler"], {"seed": 3, "handsPerLevel": 2,
                                                                      "blindSchedule": [[10, 20], [20, 40], [40, 80]], "maxHands": 12}, None),
    ("shovers-simultaneous-equal", 3, ["shover"] * 3, {}, "EqualStartStacks"),
    ("shovers-simultaneous-unequal", 4, ["shover"] * 4, {"stacks": [3000, 2000, 1500, 1000]}, "Simultaneous"),
    ("heads-up-transition", 3, ["cycler", "shover", "caller"], {}, "HeadsUpTransition"),
    ("six-seats-mixed", 6, ["cycler", "caller", "min-raiser", "checker", "shover", "cycler"], {"seed": 2026}, None),
    ("nine-seats-cyclers", 9, ["cycler"] * 9, {"seed": 9}, None),
    ("nine-seats-checkers-full-cap", 9, ["checker"] * 9, {"seed": 300}, None),
]


SEATS = ["A", "B", "C"]
# slug, seats, options: what docs/engine-api.md defines as invalid (R38: create refuses it).
BAD = [
    ("unknown-ruleset", SEATS, {"ruleset": "holdem-limit"}), ("ruleset-not-a-string", SEATS, {"ruleset": 1}),
    # Every option the ruleset would give a default to is given: nothing else refuses the name.
    ("unknown-ruleset-every-option-given", SEATS, {"ruleset": "holdem-limit", "startingStack": 1000,
                                                   "blindSchedule": [[50, 100]], "handsPerLevel": 12, "maxHands": 300,
                                                   "timeLimitMs": 1000}),
    ("unknown-option", SEATS, {"ante": 10}), ("options-not-an-object", SEATS, 5),
    ("zero-starting-stack", SEATS, {"startingStack": 0}), ("fractional-hands-per-level", SEATS, {"handsPerLevel": 1.5}),
    ("string-time-limit", SEATS, {"timeLimitMs": "1000"}), ("zero-max-hands", SEATS, {"maxHands": 0}),
    ("empty-blind-schedule", SEATS, {"blindSchedule": []}), ("blind-level-not-a-pair", SEATS, {"blindSchedule": [[50, 100, 200]]}),
    ("zero-small-blind", SEATS, {"blindSchedule": [[0, 100]]}), ("fractional-big-blind", SEATS, {"blindSchedule": [[50, 100.5]]}),
    ("small-blind-above-big", SEATS, {"blindSchedule": [[200, 100]]}),
    ("seats-not-an-array", "ABC", {}), ("one-seat", ["A"], {}), ("ten-seats", [f"P{i}" for i in range(10)], {}),
    ("empty-seat-name", ["A", "", "C"], {}), ("seat-name-not-a-string", ["A", 2, "C"], {}),
    ("controllers-wrong-length", SEATS, {"controllers": ["bot", "bot"]}),
    ("unknown-controller", SEATS, {"controllers": ["bot", "robot", "bot"]}),
    ("decks-not-an-object", SEATS, {"decks": [["Ah"]]}), ("decks-empty-array", SEATS, {"decks": []}),
    ("deck-hand-number-zero", SEATS, {"decks": {"0": ["Ah"]}}),
    # Hand numbers are the whole key's digits: no sign, no exponent.
    ("deck-hand-number-negative", SEATS, {"decks": {"-1": ["Ah"]}}),
    ("deck-hand-number-exponent", SEATS, {"decks": {"1e3": ["Ah"]}}),
    ("deck-not-an-array", SEATS, {"decks": {"1": "AhKd"}}), ("deck-bad-card", SEATS, {"decks": {"1": ["Ah", "1d"]}}),
    ("deck-card-not-a-string", SEATS, {"decks": {"1": ["Ah", 7]}}),
    # An object with a length and numbered cards is not an array of cards.
    ("deck-array-like", SEATS, {"decks": {"1": {"0": "Ah", "length": 1}}}),
    ("deck-duplicate-card", SEATS, {"decks": {"1": ["Ah", "Kd", "Ah"]}}), ("deck-empty", SEATS, {"decks": {"1": []}}),
    ("stacks-wrong-length", SEATS, {"stacks": [100, 100]}), ("zero-stack", SEATS, {"stacks": [100, 0, 100]}),
]
# slug, seats, options: input the ruleset's own text rules out (not R38's to rule on): taking it fails.
RULED_OUT = [("v4-repeated-identity", ["A", "A", "B"], {"ruleset": "holdem-sng-3-v4"})]


def refused_field(vector_input: dict) -> str:
    """The field the reference names in refusing the game (through the engine API's names)."""
    out = run_tournaments(vector_input)
    if "error" not in out or out["error"].get("at") != "create":
        raise AssertionError(f"the reference accepts {vector_input['game']!r}")
    return out["error"]["field"]


def controller_cases() -> list[dict]:
    """A contract-v1 game whose seats are not all bots (docs/engine-api.md, `controllers`): the
    contract's 1000 ms decision clock holds whoever plays; only holdem-sng-3-v4 gives a human or an
    agent its 45,000 ms clock (R22)."""
    spec = {**game(["P0", "P1", "P2"], seed=5, maxHands=4), "controllers": ["human", "bot", "agent"]}
    strategies = ["caller", "checker", "cycler"]
    expected, flags = play(spec, strategies)
    return [make_test(NOTES, "tournaments.human-and-agent-keep-the-contract-clock",
                      "3 seats, a human and an agent among them, contract-v1's clock", ["rules.end", "state.tournament"],
                      {"game": spec, "strategies": strategies}, expected, flags)]


def generate() -> list[dict]:
    tests = controller_cases()
    for slug, n, strategies, options, wanted in CASES:
        seats = [f"P{i}" for i in range(n)]
        if wanted:
            options = {**options, "seed": first_seed(seats, strategies, wanted, **options)}
        spec = game(seats, **options)
        expected, flags = play(spec, strategies)
        tests.append(make_test(NOTES, f"tournaments.{slug}", f"{n} seats, strategies {', '.join(strategies)}",
                               ["rules.end"], {"game": spec, "strategies": strategies}, expected, flags))
    for slug, seats, options in BAD + RULED_OUT:
        tests.append(refused(slug, seats, options, ruled_out=(slug, seats, options) in RULED_OUT))
    return tests + mutation_answers()


def refused(slug: str, seats: object, options: object, ruled_out: bool = False) -> dict:
    """The vector of a game create must refuse (R38; ``ruled_out``: the ruleset's own text rules it out)."""
    # A strategy for every seat the engine may play if it takes the game (ten seats too: R38);
    # shovers, so that a game taken ends within a few hands and every showdown shows its cards.
    vector_input = {"game": {"seats": seats, "options": options}, "strategies": ["shover"] * max(3, len(seats))}
    field = refused_field(vector_input)
    if ruled_out:
        return make_test(NOTES, f"tournaments.error.{slug}", f"create throws ({field}): the ruleset's text",
                         ["rules.seats"], vector_input, {"error": field, "breaks": "rules.distinct-identities"},
                         ["RepeatedIdentities"], result="invalid")
    return make_test(NOTES, f"tournaments.error.{slug}", f"create throws ({field})", ["rules.seats"],
                     vector_input, {"error": field}, ["BadOptions"])


def mutation_answers() -> list[dict]:
    """Vectors added for survivors of the bundled engine's mutants (docs/mutation.md, lines 864-1414)."""
    # A ruleset name inside an array is no string, though String(["contract-v1"]) names a ruleset:
    # refused (R38), where an engine that tests only `name in RULESETS` takes it.
    tests = [refused("ruleset-in-an-array", SEATS, {"ruleset": ["contract-v1"]})]
    # null for stacks or controllers is the option not given (R42): the default game; an engine that
    # refuses it is divergent on R42 (the reference under R42 = 'refuse' refuses it too).
    for slug, options in NULL_OPTIONS:
        spec = game(SEATS, **options)
        expected, flags = play(spec, ["shover"] * len(SEATS))
        tests.append(make_test(NOTES, f"tournaments.{slug}", "create takes null as the option not given (R42)",
                               ["rules.end"], {"game": spec, "strategies": ["shover"] * len(SEATS)}, expected,
                               flags | {"NullOption"}))
    return tests


# slug, options: null for an option whose null is "none given" (R42); decks and the whole options
# are not here: their null leaves the game's cards to the engine's own shuffle, which no vector may
# judge (R2: game judging pins every deck).
NULL_OPTIONS = [("null-stacks", {"seed": 7, "stacks": None, "startingStack": 300}),
                ("null-controllers", {"seed": 7, "controllers": None, "startingStack": 300})]
