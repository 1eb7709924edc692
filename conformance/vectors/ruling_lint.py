"""Which rulings a vector's result depends on, found by playing it on the reference under every
playable alternative (issue #24, item 2; docs/rulings.md, Audit of the alternatives).

Where an alternative gives another result, the vector rests on that ruling: it must name it
(``rulings``, through a flag whose note names the ruling), else an engine that took that reasonable
reading would be judged by a ruling the vector does not declare. :func:`problems` is the lint.
R3 (which end of the deck is dealt) is not played: every pinned card would differ, and the judge
follows an engine's own dealing on the cards it shows (conformance.judge.dealing).
"""
from __future__ import annotations

import json

from reference import adapter
from reference.errors import HoldemError
from reference.hand_api import create_hand, play_script
from reference.pots import build_pots
from reference.rulings import RULINGS, profiles_to_try

FOLLOWED = ("R3",)  # played on the cards by the judge, not by a profile
FAMILIES = ("pots", "legality", "hands", "hand", "tournaments", "sng3v4")
# Families whose flags are derived at generation (conformance.vectors.library.generate) and linted in
# tests/test_text_rulings.py: all of them (tournaments and sng3v4 cost about 20-30 s of CPU each).
DERIVED = FAMILIES
# The clause a derived flag cites: what the ruling governs (docs/rulings.md).
RULING_CLAUSE = {"R7": "state.pots", "R8": "state.to-call", "R9": "rules.checker-convention",
                 "R10": "rules.no-responder", "R13": "rules.odd-chips", "R14": "state.history",
                 "R15": "state.seats", "R16": "rules.heads-up-transition", "R17": "rules.simultaneous",
                 "R20": "state.actions", "R22": "timing.fallback", "R43": "rules.side-pots", "R25": "rules.showdown-public",
                 "R27": "rules.simultaneous", "R31": "rules.showdown-public"}


def _ruleset(family: str, test: dict) -> str:
    if family == "sng3v4":
        return "holdem-sng-3-v4"
    game = test["input"].get("game") or {}
    return (game.get("options") or {}).get("ruleset", "contract-v1")


def outcome(family: str, test: dict, profile: dict | None = None) -> object:
    """What the reference makes of ``test``'s input playing ``profile`` (None: the defaults)."""
    i = test["input"]
    if family == "pots":
        try:
            return {"pots": build_pots(i["contributions"], profile)}
        except HoldemError as exc:
            return {"threw": adapter.thrown(exc)}
    if family == "hand":
        try:
            hand = create_hand(i["hand"], rulings=profile)
        except HoldemError as exc:
            return {"error": adapter.failure("createHand", exc)}
        return play_script(hand, i["script"], adapter.thrown, edit=adapter.mutate)
    game = {**i["game"], "rulings": profile} if profile else i["game"]
    try:
        return adapter.FAMILIES[family]({**i, "game": game})
    except HoldemError as exc:  # the steps cannot all be played under the alternative (its game ended)
        return {"error": adapter.failure("the steps", exc)}


# depends_on's answers by (family, input): generating a family and linting it play the same
# alternatives (`holdem-cert vectors check` does both); the answer reads nothing but the input.
_DEPENDS: dict[tuple[str, str], dict[str, str]] = {}


def depends_on(family: str, test: dict) -> dict[str, str]:
    """Ruling -> the first of its playable alternatives under which the reference gives ``test``
    another result (R3 left out)."""
    if "error" in test["expected"]:
        return {}  # input the reference refuses (R38) plays no ruling: it is refused before any is played
    key = (family, json.dumps(test["input"], sort_keys=True, default=repr))
    if key not in _DEPENDS:
        _DEPENDS[key] = _depends_on(family, test)
    return dict(_DEPENDS[key])


def _depends_on(family: str, test: dict) -> dict[str, str]:
    ids = [rid for rid, r in RULINGS.items() if family in r.families and rid not in FOLLOWED]
    base = json.dumps(outcome(family, test), sort_keys=True, default=repr)
    out: dict[str, str] = {}
    for profile in profiles_to_try(ids, 1, _ruleset(family, test)):
        (rid, option), = profile.items()
        if rid not in out and json.dumps(outcome(family, test, dict(profile)), sort_keys=True, default=repr) != base:
            out[rid] = option
    return out


def problems(family: str, tests: list[dict]) -> list[str]:
    """The lint: every vector whose result depends on a ruling it does not name."""
    out = []
    for test in tests:
        for rid, option in depends_on(family, test).items():
            if rid not in test.get("rulings", []):
                out.append(f"{test['id']}: the reference under {rid} = {option!r} gives another result, "
                           f"but the vector does not name {rid}")
    return out


def flag_of(ruling: str) -> str:
    return f"RestsOn{ruling}"


def derive(family: str, test: dict, notes: dict) -> dict:
    """``test`` with a flag for every ruling its result depends on that it does not name yet (its
    note added to ``notes``): its rulings then name them, and a valid test becomes acceptable."""
    missing = [rid for rid in depends_on(family, test) if rid not in test["rulings"]]
    if not missing:
        return test
    for rid in missing:
        notes.setdefault(flag_of(rid), {
            "description": f"derived: the reference under an alternative of {rid} (reference/rulings.py) gives "
                           "this vector another result", "clauses": [RULING_CLAUSE.get(rid, "state.fields")],
            "ruling": rid})
    flags = sorted(set(test["flags"]) | {flag_of(rid) for rid in missing})
    rulings = sorted(set(test["rulings"]) | set(missing), key=lambda r: int(r[1:]))
    clauses = sorted(set(test["clauses"]) | {notes[flag_of(rid)]["clauses"][0] for rid in missing})
    result = "acceptable" if test["result"] == "valid" else test["result"]
    return {**test, "clauses": clauses, "flags": flags, "rulings": rulings, "result": result}
