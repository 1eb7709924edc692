"""The smoke tier: before any vector, one deck, one 3-seat hand to a showdown, one heads-up hand
won by a fold (and a lone hand for the hand profile), each state checked against its schema."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from conformance.vectors import schemas
from conformance.vectors.clauses import CLAUSES
from conformance.vectors.gamespec import GAME_FAMILIES
from .js_values import js_text
from .diffs import show
from .engine_drivers import COMMONJS, Run
from .invariants import conserved, standings_chips
from .judged import failure_text, state_problem, thrown_text
from .comparison import edited_path

# ---- the smoke tier -----------------------------------------------------------------------------

def _smoke_test(slug: str, clauses: list[str], comment: str, data: dict) -> dict:
    return {"id": f"smoke.{slug}", "comment": comment, "clauses": clauses, "flags": [], "rulings": [],
            "result": "valid", "input": data}


def _leaked(state: object, where: str) -> str | None:
    """A runner's edit of an earlier state showing in ``state``: the engine hands out its own objects."""
    if edit := edited_path(state):
        return (f"{where}: {edit[0]} is {show(edit[1])}, which the runner wrote into an earlier state: the "
                f"engine hands out its own objects -- breaks state.fresh ({CLAUSES['state.fresh'][1]})")
    return None


def _smoke_hand(showdown: int) -> Callable[[dict, dict], str | None]:
    """A check that the hand ran through the game API to its end with ``showdown`` hands shown."""
    def check(test: dict, r: dict) -> str | None:
        if "error" in r:
            return f"the hand stopped {failure_text(r['error'])}"
        decisions = r.get("decisions")
        for k, state in enumerate(decisions if isinstance(decisions, list) else []):
            if problem := _leaked(state, f"state() before answer {k}"):
                return problem
            if problem := state_problem(state, f"state() before answer {k}"):
                return f"{problem} (schemas/state.schema.json)"
        if r.get("over") is not True:
            return f"game.over is {js_text(r.get('over'))} after the hand (maxHands 1)"
        history = r.get("history")
        if not isinstance(history, list) or len(history) != 1:
            return f"history() is {js_text(history)}"[:300] + ": expected one entry"
        problems = schemas.errors("history-entry", history[0], limit=1)
        if problems:
            return f"history()[0]: {problems[0]}"
        if len(history[0]["showdown"]) != showdown:
            return f"history()[0].showdown has {len(history[0]['showdown'])} entries, expected {showdown}"
        return conserved(test["input"]["game"], standings_chips(r.get("standings")))
    return check


BREAKS = re.compile(r" -- breaks ([a-z.-]+) \(")  # the clause a smoke problem names (step_judge.describe's form)
SHOWDOWN_SCRIPT = ["call", "call", "check"] + ["check"] * 9  # 3 seats call and check to the river
# (family, test, check(test, result) -> problem or None)
SMOKE_HANDS = [
    ("hands", _smoke_test("showdown", ["state.fields", "rules.showdown-public", "rules.end"],
                          "3 seats, maxHands 1: everyone calls and checks to a showdown",
                          {"game": {"seats": ["A", "B", "C"], "options": {"seed": 1, "maxHands": 1}},
                           "script": SHOWDOWN_SCRIPT}), _smoke_hand(3)),
    ("hands", _smoke_test("fold-out", ["state.fields", "rules.fold-private", "rules.end"],
                          "2 seats, maxHands 1: the button folds",
                          {"game": {"seats": ["A", "B"], "options": {"seed": 1, "maxHands": 1}}, "script": ["fold"]}),
     _smoke_hand(0)),
]


def _smoke_lone_hand(test: dict, r: dict) -> str | None:
    """A check that a lone hand (the hand-level API) ran to its end and kept every chip."""
    if "error" in r:
        return f"the hand stopped {failure_text(r['error'])}"
    decisions = r.get("decisions") if isinstance(r.get("decisions"), list) else []
    again = r.get("again") if isinstance(r.get("again"), list) else []
    for k, state in enumerate(decisions):
        if problem := _leaked(state, f"state() before answer {k}") or (
                k < len(again) and _leaked(again[k], f"second state() before answer {k}")):
            return problem
        if problems := schemas.errors("hand-state", state, limit=1):
            return f"state() before answer {k}: {problems[0]} (schemas/hand-state.schema.json)"
    actions = r.get("actions") if isinstance(r.get("actions"), list) else []
    if any(isinstance(a, dict) and "threw" in a for a in actions):
        return f"act threw {thrown_text(next(a['threw'] for a in actions if isinstance(a, dict) and 'threw' in a))}"
    if r.get("over") is not True:
        return f"hand.over is {show(r.get('over'))} after the script (check or call to the end)"
    result = r.get("result")
    if not isinstance(result, dict) or not isinstance(result.get("chips"), list):
        return f"hand.result() is {show(result)}: expected {{result, chips}}"
    if problems := schemas.errors("history-entry", result.get("result"), limit=1):
        return f"hand.result().result: {problems[0]}"
    spec = test["input"]["hand"]
    chips = result["chips"]
    if not all(isinstance(c, int) and not isinstance(c, bool) for c in chips) or sum(chips) != sum(spec["stacks"]):
        return f"hand.result().chips {show(chips)} do not hold the {sum(spec['stacks'])} chips the hand started with"
    return None


SMOKE_LONE_HAND = ("hand", _smoke_test("lone-hand", ["rules.end", "state.history"],
                                       "createHand: 3 seats call and check to a showdown",
                                       {"hand": {"ids": ["s1", "s2", "s3"], "stacks": [1000, 1000, 1000], "button": 0,
                                                 "smallBlindSeat": 1, "bigBlindSeat": 2, "blinds": [10, 20],
                                                 "deck": ["Ah", "Kd", "7c", "As", "Kh", "2d"]},
                                        "script": SHOWDOWN_SCRIPT}), _smoke_lone_hand)


def _smoke_module(test: dict, r: dict) -> str | None:
    """A check that the engine's text, run as Node runs a CommonJS module, exports the API the classic
    load defines as PokerEngine, and leaves the global alone (engine_driver.js, commonjs)."""
    breaks = f"breaks engine.commonjs ({CLAUSES['engine.commonjs'][1]})"
    if r.get("definedGlobal"):
        return f"loaded as a CommonJS module it assigned the global PokerEngine -- {breaks}"
    if "loadThrew" in r:
        return f"loaded as a CommonJS module it threw {thrown_text(r['loadThrew'])} -- {breaks}"
    if r.get("type") not in ("object", "function"):
        return f"loaded as a CommonJS module its module.exports is {r.get('type')}, not the API -- {breaks}"
    differs = [d for d in r.get("differs") or [] if isinstance(d, dict)]
    named = [f"module.exports.{d.get('name')} is not a function" if d.get("missing") else
             f"module.exports.{d.get('name')} gives {d.get('exported')} where the global's gives {d.get('global')}"
             for d in differs]  # every function that differs, not the first only
    return f"loaded as a CommonJS module, {'; '.join(named)} -- {breaks}" if named else None


SMOKE_MODULE = (COMMONJS, _smoke_test("module", ["engine.commonjs"],
                                      "required as a CommonJS module (Node's wrapper), the engine exports the API "
                                      "the global PokerEngine is, and sets no global", {}), _smoke_module)


def smoke_tests(families: Iterable[str], commonjs: bool = False) -> list[tuple]:
    """The smoke vectors for a selection of families: the two hands when a game family is
    selected, the lone hand when the hand family is; with ``commonjs`` (a JavaScript engine's
    certification), the CommonJS check first. (dealHand is not among them: only the deck family
    needs it, and an engine without it is reported there, issue #12.)"""
    chosen = set(families)
    return (([SMOKE_MODULE] if commonjs else []) + (SMOKE_HANDS if GAME_FAMILIES & chosen else [])
            + ([SMOKE_LONE_HAND] if "hand" in chosen else []))


def smoke_problem(test: dict, check: Callable[[dict, dict], str | None], run: Run) -> str | None:
    if run.kind != "result":
        return f"skipped: {run.value}" if run.kind == "skipped" else str(run.value)
    r = run.value
    if not isinstance(r, dict):
        return f"the driver's result is not an object: {js_text(r)}"[:300]
    if "missing" in r:
        return f"{r['missing']} is not a function"
    if "threw" in r:
        return f"threw {thrown_text(r['threw'])}"
    return check(test, r)
