"""Games described as data (vector inputs): ``{"seats": [...], "options": {...}}`` -> a Tournament,
and the deterministic seat strategies used by tournament vectors (see docs/INTERPRETING.md)."""
from __future__ import annotations

from reference.adapter import given_options
from reference.hand_api import create_hand, play_script
from reference.rng import deal_hand, seed_to_uint32
from reference.tournament import Tournament

from conformance.host.jsvalue import decode

# Engine-API option names (docs/engine-api.md) -> reference keyword arguments.
OPTION_NAMES = {
    "seed": "seed",
    "ruleset": "ruleset",
    "startingStack": "starting_stack",
    "stacks": "stacks",
    "blindSchedule": "blind_schedule",
    "handsPerLevel": "hands_per_level",
    "maxHands": "max_hands",
    "timeLimitMs": "time_limit_ms",
    "decks": "decks",
    "controllers": "controllers",
}


def tournament(spec: dict) -> Tournament:
    """``{"seats", "options", "controllers"?, "rulings"?, "dealt"?}`` -> a Tournament; ``rulings`` (ruling
    id -> option, see reference.rulings) replays a game under documented ruling alternatives;
    ``dealt`` (hand number -> cards by seat) deals an engine's own cards (conformance.judge.dealing)."""
    options = {"controllers": spec.get("controllers")}
    for key, value in given_options(spec).items():  # null as the engine API reads it (R42)
        if key not in OPTION_NAMES:
            raise KeyError(f"unknown game option {key!r}")
        if key == "decks":
            value = {int(k): v for k, v in value.items()}
        options[OPTION_NAMES[key]] = value
    return Tournament(spec["seats"], rulings=spec.get("rulings"), dealt=spec.get("dealt"), **options)


def play_hand(vector_input: dict, rulings=None) -> dict:
    """What the reference does with a ``hand`` vector's input ``{"hand": spec, "script"}`` (a lone
    hand, docs/engine-api.md, createHand): the protocol's result, a refused answer recorded as
    ``{"threw": {"code", "field"}}``; ``rulings`` plays documented ruling alternatives."""
    hand = create_hand(vector_input["hand"], rulings=rulings)
    return play_script(hand, [answer(a) for a in vector_input["script"]],
                       lambda exc: {"code": exc.code, "field": exc.field})


def game(seats: list[str], rulings: "dict[str, str] | None" = None, **options) -> dict:
    """A game spec from engine-API option names (maxHands=None means no cap); ``rulings`` only
    when given, so specs without it stay as they were."""
    opts = {k: v for k, v in options.items()}
    if "decks" in opts:
        opts["decks"] = {str(k): v for k, v in opts["decks"].items()}
    spec = {"seats": list(seats), "options": opts}
    if rulings:
        spec["rulings"] = dict(rulings)
    return spec


# Vector families whose tests are games (every hand's cards pinned, judged step by step).
GAME_FAMILIES = frozenset({"legality", "hands", "tournaments", "sng3v4"})


def hands_played(family: str, test: dict) -> int:
    """How many hands the reference plays in a game vector of ``family`` (none where it refuses the game)."""
    if "error" in test["expected"]:
        return 0
    if family == "legality":
        return test["input"]["state"]["handNumber"]
    if family == "hands":
        return len(test["expected"]["history"])
    return len(test["expected"]["log"])


def pin_cards(family: str, test: dict) -> dict:
    """``test`` with every hand the reference plays dealt from a pinned deck (the ``decks`` option;
    those its seed gives, R2), so that no rules verdict depends on how an engine shuffles: R2 is
    judged in the deck family alone (issue #12). Decks already pinned stay; a game the reference
    refuses (invalid options, R38) is left as it is."""
    if "error" in test["expected"]:
        return test
    options = test["input"]["game"]["options"]
    seed32 = seed_to_uint32(options.get("seed", 0))
    decks = dict(options.get("decks", {}))
    for number in range(1, hands_played(family, test) + 1):
        decks.setdefault(str(number), deal_hand(seed32, number))
    options["decks"] = dict(sorted(decks.items(), key=lambda item: int(item[0])))
    return test


def answer(value: object) -> object:
    """A scripted answer as stored in a vector (JS values tagged) -> the Python value."""
    return decode(value)


# -- strategies: deterministic functions of the decision state ---------------------------
def _check_or(state: dict, otherwise: str) -> str:
    return "check" if state["canCheck"] else otherwise


def caller(state: dict) -> object:
    return _check_or(state, "call")


def checker(state: dict) -> object:
    return _check_or(state, "fold")


def shover(state: dict) -> object:
    return "allin" if state["canAllIn"] else _check_or(state, "call")


def min_raiser(state: dict) -> object:
    if state["minRaiseTo"] is not None:
        return {"type": "raise", "amount": min(state["minRaiseTo"], state["maxRaiseTo"])}
    return _check_or(state, "call")


def cycler(state: dict) -> object:
    """Varies by hand number and the number of actions so far."""
    pick = (state["handNumber"] + len(state["actions"])) % 4
    return (caller, min_raiser, checker, shover)[pick](state)


STRATEGIES = {"caller": caller, "checker": checker, "shover": shover, "min-raiser": min_raiser, "cycler": cycler}
