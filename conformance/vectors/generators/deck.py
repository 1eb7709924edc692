"""Family ``deck``: ``dealHand(seed, handNumber)`` orders (R2) and its argument errors."""
import math

from reference.rng import MAX_SAFE_INTEGER, deal_hand

from conformance.host.jsvalue import encode
from conformance.vectors.vectorfile import make_test

NOTES = {
    "Derivation": {"description": "the exact order follows our derivation from rng; any function of the two arguments "
                   "only is conformant, so a different permutation is divergent, not broken", "clauses": ["helper.deal-hand"], "ruling": "R2"},
    "SeededGame": {"description": "a seeded game deals exactly what the engine's own dealHand(seed, n) returns: "
                   "played again with those decks pinned, every hand is the same, whatever the derivation (R2) "
                   "and whichever end is dealt (R3)", "clauses": ["helper.deal-hand", "determinism.engine"], "ruling": None},
    "NullDecks": {"description": "decks: null, or null or no options at all, is none given (R42): the seed deals "
                  "every hand; an engine refusing it is divergent on R42", "clauses": ["helper.deal-hand"], "ruling": "R42"},
    "BadHandNumber": {"description": "handNumber must be a positive safe integer: the call throws (the text says what a "
                      "handNumber is, not that dealHand throws: R2's choice, so a well-formed deck instead is divergent)",
                      "clauses": ["helper.deal-hand-errors"], "ruling": "R2"},
}

SEEDS = [0, 1, 42, 2024, 4294967295, -1, 3.7, "arena", "", "\U0001F600"]
NUMBERS = [1, 2, 3, 12, 13, 300, 1000000, MAX_SAFE_INTEGER]
BAD = [("zero", 0), ("negative", -1), ("fraction", 1.5), ("unsafe", 2**53), ("string", "1"), ("nan", math.nan),
       ("infinity", math.inf), ("null", None), ("boolean", True)]


def generate() -> list[dict]:
    tests = []
    for i, seed in enumerate(SEEDS):
        for number in NUMBERS:
            tests.append(make_test(
                NOTES, f"deck.seed{i}.hand{number}", f"dealHand({seed!r}, {number})", ["helper.deal-hand"],
                {"seed": encode(seed), "handNumber": number}, {"deck": deal_hand(seed, number)}, ["Derivation"],
            ))
    for slug, number in BAD:
        tests.append(make_test(
            NOTES, f"deck.bad-hand-number.{slug}", f"dealHand(1, {number!r}) throws", ["helper.deal-hand-errors"],
            {"seed": 1, "handNumber": encode(number)}, {"error": "handNumber"}, ["BadHandNumber"],
        ))
    for seats, seed in GAMES:
        tests.append(make_test(
            NOTES, f"deck.seeded-game.{seats}-seats", f"{seats} callers, seed {seed}: the game deals its own dealHand",
            ["helper.deal-hand"], seeded_game(seats, seed), {"same": True}, ["SeededGame"]))
    return tests + null_decks_games()


def null_decks_games() -> list[dict]:
    """A seeded game given ``decks: null`` (R42: no decks pinned, the seed deals; docs/mutation.md, lines
    864-1414): judged against itself with its own dealHand decks pinned, so no shuffle is the reference's."""
    vector_input = seeded_game(3, 42)
    vector_input["game"]["options"]["decks"] = None
    # null options: the default game (seed 0, no cap), played again with no decks pinned (shovers: a few hands).
    no_options = {"game": {"seats": ["P0", "P1", "P2"], "options": None}, "strategies": ["shover"] * 3}
    return [make_test(NOTES, "deck.seeded-game.null-decks", "3 callers, seed 42, decks null: the seed deals (R42)",
                      ["helper.deal-hand"], vector_input, {"same": True}, ["SeededGame", "NullDecks"]),
            make_test(NOTES, "deck.seeded-game.null-options", "3 shovers, options null: the default game (R42)",
                      ["helper.deal-hand"], no_options, {"same": True}, ["SeededGame", "NullDecks"]),
            # create(seats) with no options at all: the same default game.
            make_test(NOTES, "deck.seeded-game.no-options", "3 shovers, no options argument: the default game (R42)",
                      ["helper.deal-hand"], {**no_options, "game": {"seats": ["P0", "P1", "P2"]}}, {"same": True},
                      ["SeededGame", "NullDecks"])]


GAMES = [(2, 5), (3, 42), (9, 7)]
GAME_HANDS = 3


def seeded_game(seats: int, seed: object) -> dict:
    """A deck vector's game: ``seats`` callers (every hand to a showdown: all cards shown) for
    GAME_HANDS hands from ``seed``, played seeded and then with the engine's own decks pinned."""
    return {"game": {"seats": [f"P{k}" for k in range(seats)], "options": {"seed": seed, "maxHands": GAME_HANDS}},
            "strategies": ["caller"] * seats}
