"""The Python reference speaking the engine protocol of ``holdem-cert engine --cmd``.

    holdem-cert engine --cmd "python -m reference.adapter"

One JSON object per line on stdin, one answer per line on stdout (docs/engine-protocol.md):
``start`` -> the implementation, ``run`` -> the vector's outcome, ``stop`` -> exit. It uses only
the reference package, as an engine in another language would use only its own code: the seat
strategies and the ``{"$js": ...}`` tags are implemented here from docs/INTERPRETING.md.
"""
from __future__ import annotations

import copy
import json
import math
import re
import sys
import traceback
from collections.abc import Mapping
from itertools import combinations

from .cards import CANONICAL_DECK
from .equity import equity
from .errors import HoldemError, IllegalAction, OptionError
from .evaluator import evaluate, hand_value
from .hand_api import create_hand, play_script
from .pots import build_pots
from .rng import JSBigInt, deal_hand, mulberry32, rng
from .state import hand_state
from .tournament import Tournament

VERSION = "0.1.0"
FNV_OFFSET, FNV_PRIME = 0x811C9DC5, 0x01000193


class _Undefined:
    """JavaScript ``undefined`` as a vector input (an answer); the reference rejects it like any non-answer."""


UNDEFINED = _Undefined()
_SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
_BIGINT_TAG = re.compile(r"-?[0-9]{1,100}n")  # a BigInt seed as its JS literal (R32)


def decode(value: object) -> object:
    """A vector input with its ``{"$js": ...}`` tags made Python values."""
    if isinstance(value, dict):
        if set(value) == {"$js"}:
            tag = value["$js"]
            if isinstance(tag, str) and _BIGINT_TAG.fullmatch(tag):
                return JSBigInt(tag[:-1])  # a BigInt seed (R32)
            return UNDEFINED if tag == "undefined" else _SPECIAL[tag]
        return {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value


def encode(value: object) -> object:
    """A result as JSON: non-finite numbers tagged."""
    if isinstance(value, float) and not math.isfinite(value):
        return {"$js": "NaN" if value != value else "Infinity" if value > 0 else "-Infinity"}
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    return value


def thrown(exc: Exception) -> dict:
    out = {"name": type(exc).__name__, "message": str(exc)}
    if isinstance(exc, HoldemError):
        out["field"] = exc.field
    code = getattr(exc, "code", None)
    if isinstance(code, str):
        out["code"] = code
    return out


def failure(at: str, exc: Exception) -> dict:
    return {"at": at, **thrown(exc)}


# ---- helpers ------------------------------------------------------------------------------------

def run_rng(i: dict) -> dict:
    try:
        r = rng(i["seed"])
        return {"values": [r() for _ in range(i["count"])]}
    except HoldemError as exc:
        return {"threw": thrown(exc)}


def run_deck(i: dict) -> dict:
    if "game" in i:  # a seeded game, then the same game with its dealHand decks pinned
        options = i["game"].get("options") or {}  # null or no options: none given (R42), as the JS driver reads it
        try:
            decks = {str(n): deal_hand(options.get("seed", 0), n) for n in range(1, (options.get("maxHands") or 0) + 1)}
        except HoldemError as exc:
            return {"threw": thrown(exc)}
        pinned = {**i["game"], "options": {**options, "decks": decks}}
        return {key: play_out(create(game), i["strategies"]) for key, game in (("seeded", i["game"]), ("pinned", pinned))}
    try:
        return {"deck": deal_hand(i["seed"], i["handNumber"]), "again": deal_hand(i["seed"], i["handNumber"])}
    except HoldemError as exc:
        return {"threw": thrown(exc)}


def five_card_digest() -> dict:
    """INTERPRETING.md, evaluate.digest.five-card: every five-card hand in canonical index order."""
    values = [hand_value(hand) for hand in combinations(CANONICAL_DECK, 5)]
    classes = {v: k for k, v in enumerate(sorted(set(values)))}
    counts = [0] * 9
    h = FNV_OFFSET
    for v in values:
        counts[v // 15**5] += 1  # R4: value = rank * 15^5 + tiebreaks
        h = ((h ^ classes[v]) * FNV_PRIME) & 0xFFFFFFFF
    return {"hands": len(values), "categoryCounts": counts, "distinctValues": len(classes), "classHash": h}


def run_evaluate(i: dict) -> dict:
    if i.get("digest") == "five-card":
        return five_card_digest()
    try:
        if "a" in i:
            return {"a": evaluate(i["a"]), "b": evaluate(i["b"])}
        result = evaluate(i["cards"])
    except HoldemError as exc:
        return {"threw": thrown(exc)}
    return {"result": result, "bestValue": evaluate(result["best"])["value"]}


def random_argument(spec: dict, counter: list | None = None) -> object:
    """The vector's ``random`` (docs/engine-protocol.md): ``counted`` is mulberry32 whose calls are
    counted in ``counter[0]``; ``omitted`` stands for no argument, which the contract's JavaScript
    equity takes as Math.random (R41): here an unseeded stand-in, which a vector omitting it never calls
    (no opponents)."""
    if spec["kind"] == "mulberry32":
        return mulberry32(spec["seed"])
    if spec["kind"] == "constant":
        return lambda: spec["value"]
    if spec["kind"] == "counted":
        stream = mulberry32(spec["seed"])

        def counted() -> float:
            counter[0] += 1
            return stream()
        return counted
    if spec["kind"] == "omitted":
        return _math_random
    return spec["value"]


def _math_random() -> float:
    raise AssertionError("Math.random's stand-in was called: no vector omitting random may draw")


def run_equity(i: dict) -> dict:
    counter = [0]
    try:
        value = equity(i["hole"], i["board"], i["opponents"], i["iterations"], random_argument(i["random"], counter))
    except HoldemError as exc:
        return {"threw": thrown(exc)}
    return {"equity": value, "calls": counter[0]} if i["random"]["kind"] == "counted" else {"equity": value}


def run_pots(i: dict) -> dict:
    try:
        return {"pots": build_pots(i["contributions"])}
    except HoldemError as exc:
        return {"threw": thrown(exc)}


# ---- games (the engine API of docs/engine-api.md, played on the reference) ------------------------

OPTIONS = {"seed": "seed", "ruleset": "ruleset", "startingStack": "starting_stack", "stacks": "stacks",
           "blindSchedule": "blind_schedule", "handsPerLevel": "hands_per_level", "maxHands": "max_hands",
           "timeLimitMs": "time_limit_ms", "decks": "decks", "controllers": "controllers"}
V4 = "holdem-sng-3-v4"


# The reference's argument names -> the engine API's (docs/engine-api.md), for the field a refusal names.
API_NAMES = {**{name: key for key, name in OPTIONS.items()}, "names": "seats"}
_FIELD_HEAD = re.compile(r"[a-z_]+")


# Options whose null is "none given" (R42, docs/rulings.md): the default, like the options argument's own null.
NULL_IS_UNSET = ("stacks", "decks", "controllers")


def given_options(game: dict) -> dict:
    """A game spec's ``options`` (engine-API names) as the engine API reads them: null or no options at
    all, and null for stacks, decks or controllers, is that option not given (R42's default); under the
    spec's ``rulings`` R42 = ``refuse`` it is refused, as invalid input (R38). Other values as given."""
    rulings = game.get("rulings")  # a ruling profile (a mapping); another value is refused by Tournament
    refuse = isinstance(rulings, Mapping) and rulings.get("R42") == "refuse"
    raw = game.get("options")
    if raw is None:  # null, or create(seats) with no options at all
        if refuse:
            raise OptionError("options", "expected an object (R42 = 'refuse': null or no options is refused)")
        return {}
    if not isinstance(raw, dict):
        raise OptionError("options", f"expected an object, got {type(raw).__name__}")
    for key in NULL_IS_UNSET:
        if key in raw and raw[key] is None and refuse:
            raise OptionError(key, "null is no value of this option (R42 = 'refuse')")
    return {key: value for key, value in raw.items() if not (value is None and key in NULL_IS_UNSET)}


def create(game: dict) -> Tournament:
    """``{seats, options}`` (and a game's ``controllers``, INTERPRETING.md) -> a Tournament; invalid
    seats or options raise naming the field as the engine API does (``startingStack``, ``seats[1]``)."""
    options = {}
    for key, value in given_options(game).items():
        if key not in OPTIONS:
            raise HoldemError(key, "unknown game option")
        if key == "decks":
            if not isinstance(value, dict):
                raise OptionError("decks", f"expected an object hand number -> cards, got {type(value).__name__}")
            value = {int(n) if n.isdigit() else n: cards for n, cards in value.items()}
        options[OPTIONS[key]] = value
    if "controllers" in game:
        options["controllers"] = game["controllers"]
    if game.get("rulings"):  # a ruling profile (reference.rulings): the suite's own replays, never an engine's input
        options["rulings"] = game["rulings"]
    try:
        return Tournament(game["seats"], **options)
    except HoldemError as exc:
        head = _FIELD_HEAD.match(exc.field)
        if head is None or head.group() not in API_NAMES or isinstance(exc, IllegalAction):
            raise
        raise type(exc)(API_NAMES[head.group()] + exc.field[head.end():], exc.reason) from None


def prepared(i: dict) -> tuple[Tournament | None, dict | None]:
    try:
        game = create(i["game"])
    except HoldemError as exc:
        return None, failure("create", exc)
    for k, answer in enumerate(i["prefix"]):
        try:
            game.act(answer)
        except HoldemError as exc:
            return None, failure(f"act(prefix[{k}])", exc)
    return game, None


def run_legality(i: dict) -> dict:
    game, error = prepared(i)
    if error:
        return {"error": error}
    out = {"state": game.decision_state()}
    try:
        out["act"] = {"action": game.act(i["answer"])}
    except HoldemError as exc:
        out["act"] = {"threw": thrown(exc)}
        out["stateAfter"] = game.decision_state()
    fresh, error = prepared(i)
    if error:
        return {**out, "error": error}
    action, code = fresh.submit(i["answer"])
    out["submit"] = {"action": action, "error": code}
    return out


def _junk(value: object) -> object:
    return not value if isinstance(value, bool) else -7 if isinstance(value, (int, float)) else "mutated"


def mutate(value: object) -> None:
    """The runner's edits of a state it received (docs/engine-protocol.md): every field at every
    depth overwritten, every list grown; the reference's states are fresh, so nothing leaks."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)):
                mutate(item)
            else:
                value[key] = _junk(item)
        value["mutated"] = True
    elif isinstance(value, list):
        for k, item in enumerate(value):
            if isinstance(item, (dict, list)):
                mutate(item)
            else:
                value[k] = _junk(item)
        value.append({"handNumber": -1, "mutated": True})


def finish(game: Tournament, out: dict) -> dict:
    return {**out, "over": game.over, "history": game.public_history(), "standings": game.standings()}


def run_hands(i: dict) -> dict:
    out: dict = {"decisions": [], "again": [], "actions": []}
    try:
        game = create(i["game"])
    except HoldemError as exc:
        return {**out, "error": failure("create", exc)}
    if "steps" in i:  # fuzz games (conformance/judge/fuzz.py): answers through submit, timeouts
        out["steps"] = []
        for k, step in enumerate(i["steps"]):
            if game.decision_state() is None:
                return finish(game, {**out, "error": {"at": f"state() at steps[{k}]", "message": "the game is over"}})
            out["steps"].append(sng3v4_step(game, step))
    for k, answer in enumerate(i["script"]):
        state = game.decision_state()
        if state is None:
            return finish(game, {**out, "error": {"at": f"state() before answer {k}", "message": "the game is over"}})
        out["decisions"].append(copy.deepcopy(state))
        mutate(state)
        out["again"].append(game.decision_state())
        try:
            out["actions"].append(game.act(answer))
        except HoldemError as exc:
            return finish(game, {**out, "error": failure(f"act(answer {k})", exc)})
    return finish(game, out)


def _caller(s: dict) -> object:
    return "check" if s["canCheck"] else "call"


def _checker(s: dict) -> object:
    return "check" if s["canCheck"] else "fold"


def _shover(s: dict) -> object:
    return "allin" if s["canAllIn"] else _caller(s)


def _min_raiser(s: dict) -> object:
    if s["minRaiseTo"] is not None:
        return {"type": "raise", "amount": min(s["minRaiseTo"], s["maxRaiseTo"])}
    return _caller(s)


def _cycler(s: dict) -> object:
    return (_caller, _min_raiser, _checker, _shover)[(s["handNumber"] + len(s["actions"])) % 4](s)


STRATEGIES = {"caller": _caller, "checker": _checker, "shover": _shover, "min-raiser": _min_raiser, "cycler": _cycler}
LOG_KEYS = ("handNumber", "level", "blinds", "buttonSeat", "smallBlindSeat", "bigBlindSeat", "actions", "eliminated")


def play_out(game: Tournament, strategies: list[str], trajectory: bool = False) -> dict:
    """Answer with the seat strategies to the end: the game's log and standings; with
    ``trajectory`` (tournaments), every decision state (its history in ``histories``, once per
    change), every action, and history() and over (docs/engine-protocol.md)."""
    out: dict = {"decisions": [], "histories": [], "standingsAt": [], "actions": []} if trajectory else {}
    last, hand = None, None
    while (state := game.decision_state()) is not None:
        answer = STRATEGIES[strategies[state["you"]["seat"]]](state)
        if trajectory:
            if state["handNumber"] != hand:  # the standings while a hand is in play (R43)
                hand = state["handNumber"]
                out["standingsAt"].append({"decision": len(out["decisions"]), "standings": game.standings()})
            recorded = copy.deepcopy(state)
            history = recorded.pop("history")
            if history != last:
                out["histories"].append({"decision": len(out["decisions"]), "present": True, "history": history})
                last = history
            out["decisions"].append(recorded)
            mutate(state)
        action = game.act(answer)
        if trajectory:
            out["actions"].append(action)
    log = [{**{k: h[k] for k in LOG_KEYS}, "result": h["history"], "chips": h["endStacks"]} for h in game.hands]
    out.update(log=log, standings=game.standings())
    if trajectory:
        out.update(history=game.public_history(), over=game.over)
    return out


def run_tournaments(i: dict) -> dict:
    try:
        game = create(i["game"])
    except HoldemError as exc:
        return {"error": failure("create", exc)}
    return play_out(game, i["strategies"], trajectory=True)


def sng3v4_step(game: Tournament, step: object) -> dict:
    """One step (INTERPRETING.md, sng3v4): a recovery request, a timeout, a late or timely answer."""
    if isinstance(step, dict) and "recover" in step:
        try:
            game.request_recovery(step["recover"])
        except OptionError as exc:
            return {"refused": exc.field, "seat": step["recover"], "reason": exc.reason}
        return {"recovered": step["recover"]}
    state = game.decision_state()
    if step == {"timeout": True} or (isinstance(step, dict) and "atMs" in step and step["atMs"] >= state["timeLimitMs"]):
        return {"state": state, "action": game.timeout(), "error": "late"}
    action, error = game.submit(step["answer"] if isinstance(step, dict) and "atMs" in step else step)
    return {"state": state, "action": action, "error": error}


def run_sng3v4(i: dict) -> dict:
    try:
        game = create({**i["game"], "options": {**i["game"]["options"], "ruleset": V4}})
    except HoldemError as exc:
        return {"steps": [], "error": failure("create", exc)}
    return {"steps": [sng3v4_step(game, step) for step in i["steps"]], **play_out(game, i["strategies"], trajectory=True)}


def run_hand(i: dict) -> dict:
    """The hand-level API (docs/engine-protocol.md, hand): before each answer the state, the runner's
    edits of it and a second state (again), then act."""
    try:
        hand = create_hand(i["hand"])
    except HoldemError as exc:
        return {"error": failure("createHand", exc)}
    out = play_script(hand, i["script"], thrown, edit=mutate)
    if not hand.done and len(out["actions"]) == len(i["script"]):
        # A hand not over after the script: the state it waits on (the seat it asks), as the JS
        # driver reports it, so that a --cmd engine built on this loop can report it too.
        out["waiting"] = hand_state(hand)
    return out


FAMILIES = {"rng": run_rng, "deck": run_deck, "evaluate": run_evaluate, "equity": run_equity, "pots": run_pots,
            "legality": run_legality, "hands": run_hands, "tournaments": run_tournaments, "sng3v4": run_sng3v4, "hand": run_hand}
# The conformance profiles it implements (docs/engine-protocol.md, start).
PROFILES = ["helpers", "hand", "tournament", "sng3v4"]


# ---- the protocol ---------------------------------------------------------------------------------

def answer(request: dict) -> dict | None:
    """The response to one request (None for stop)."""
    cmd = request.get("cmd")
    if cmd == "start":
        return {"version": 1, "implementation": {"name": "holdem-reference", "version": VERSION,
                                                 "language": "python"}, "profiles": PROFILES}
    seq = request.get("seq")
    vector = request.get("vector") or {}
    family = vector.get("family")
    if cmd != "run" or family not in FAMILIES:
        return {"seq": seq, "errored": {"context": f"unsupported request: cmd {cmd!r}, family {family!r}"}}
    try:
        return {"seq": seq, "result": encode(FAMILIES[family](decode(vector["test"]["input"])))}
    except Exception:  # noqa: BLE001 - a bug here is reported to the runner, not a dead process
        return {"seq": seq, "errored": {"context": traceback.format_exc()}}


def serve(respond) -> int:
    """The protocol's loop: one request per line on stdin, ``respond(request)`` as one line on
    stdout, until ``stop`` (shared by every ``--cmd`` engine written in Python here)."""
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("cmd") == "stop":
            return 0
        sys.stdout.write(json.dumps(respond(request), allow_nan=False) + "\n")
        sys.stdout.flush()
    return 0


def main() -> int:
    return serve(answer)


if __name__ == "__main__":
    sys.exit(main())
