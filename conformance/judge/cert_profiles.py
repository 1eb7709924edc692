"""Conformance profiles (issue #15): what an engine implements, each certified on its own.

- ``helpers``: rng, deck (dealHand), evaluate, equity, and pots (optional);
- ``hand``: one hand through the hand-level API (docs/engine-api.md, createHand);
- ``tournament``: the contract-v1 tournament (legality, hands, tournaments; the fuzz games);
- ``sng3v4``: the holdem-sng-3-v4 tournament.

An engine declares the profiles it implements (``PokerEngine.profiles``; the protocol's ``start``
answer, ``profiles``); one that declares nothing implements ``helpers`` and ``tournament`` (and
``sng3v4`` when asked for), as before profiles existed. A profile asked for but not implemented is
"not implemented": nothing of it runs, and it is neither a crash nor a failure. Each profile that
runs gets its own verdict: "certified" (no failure, no required family skipped entirely),
"not certified", "incomplete" (nothing failed, but the suite itself erred on some vector: a suite
error, never the engine's failure), or "not implemented" when the engine skipped every one of its
vectors.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from .verdicts import STATUSES, SUITE_ERROR

PROFILES: dict[str, tuple[str, ...]] = {
    "helpers": ("rng", "deck", "evaluate", "equity", "pots"),
    "hand": ("hand",),
    "tournament": ("legality", "hands", "tournaments"),
    "sng3v4": ("sng3v4",),
}
# What an engine that declares nothing implements (sng3v4 too when asked for: its games are then
# skipped when the engine refuses the ruleset, as they always were).
UNDECLARED = ("helpers", "tournament", "sng3v4")
# What --ruleset NAME asks for when no --profile is given.
RULESET_PROFILES = {"contract-v1": ("helpers", "tournament"), "holdem-sng-3-v4": ("helpers", "sng3v4")}
# The engine functions each profile calls (the rest of PokerEngine may be missing).
FUNCTIONS = {"helpers": ("rng", "dealHand", "evaluate", "equity", "buildPots"), "hand": ("createHand",),
             "tournament": ("create",), "sng3v4": ("create",)}
# The report's extra rows of fuzz games, by profile: the tournament's hands games (conformance/judge/fuzz.py)
# and the hand profile's random hands (conformance/judge/hand_fuzz.py).
FUZZ_GROUPS = {"tournament": "fuzz", "hand": "hand-fuzz"}
CERTIFIED, NOT_CERTIFIED, NOT_IMPLEMENTED = "certified", "not certified", "not implemented"
# "incomplete": no failure, but some vector was not judged because the suite itself erred on it.
INCOMPLETE = "incomplete"


def profile_of(family: str) -> str | None:
    return next((p for p, families in PROFILES.items() if family in families), None)


def profiles_of(families: Iterable[str]) -> tuple[str, ...]:
    """The profiles the ``families`` belong to, in PROFILES order."""
    chosen = {profile_of(f) for f in families}
    return tuple(p for p in PROFILES if p in chosen)


def families_of(profiles: Iterable[str]) -> list[str]:
    chosen = set(profiles)
    return [f for p, families in PROFILES.items() if p in chosen for f in families]


def declared(value: object) -> tuple[str, ...] | None:
    """The profiles an engine declares (unknown names ignored), or None when it declares nothing
    usable (absent, not a list)."""
    if not isinstance(value, (list, tuple)):
        return None
    names = {v for v in value if isinstance(v, str)}
    return tuple(p for p in PROFILES if p in names)


def asked_under(asked: Sequence[str] | None, ruleset: str) -> Sequence[str] | None:
    """The profiles asked for: ``asked``, else --ruleset NAME's (other than contract-v1, whose
    default is what the engine declares)."""
    return asked or (RULESET_PROFILES[ruleset] if ruleset != "contract-v1" else asked)


def select(asked: Sequence[str] | None, declared_profiles: Sequence[str] | None,
           ruleset: str = "contract-v1") -> tuple[list[str], list[str]]:
    """(the profiles to run, the profiles asked for that the engine does not implement).
    ``asked`` None or empty: every profile the engine declares (one that declares nothing: the
    ruleset's default, helpers and tournament for contract-v1)."""
    if not asked:
        asked = declared_profiles if declared_profiles is not None else RULESET_PROFILES[ruleset]
    implemented = UNDECLARED if declared_profiles is None else declared_profiles
    run = [p for p in PROFILES if p in asked and p in implemented]
    return run, [p for p in PROFILES if p in asked and p not in run]


def needed_missing(missing: Iterable[str], profiles: Iterable[str]) -> list[str]:
    """Of the ``PokerEngine.X`` functions an engine lacks, those the run profiles call."""
    needed = {f"PokerEngine.{f}" for p in profiles for f in FUNCTIONS[p]}
    return [m for m in missing if m in needed]


def _counts(counts: dict[str, dict[str, int]], groups: Iterable[str]) -> dict[str, int]:
    total: Counter = Counter()
    for g in groups:
        total.update(counts.get(g, {}))
    return {s: total[s] for s in STATUSES}


def matrix(counts: dict[str, dict[str, int]], run: Sequence[str], not_implemented: Sequence[str], *,
           smoke_failed: bool, problems: dict[str, list[str]]) -> dict[str, dict]:
    """Per profile asked for: its verdict, passed/failed/divergent/skipped over its families, the
    families' own counts and, when not certified, why. ``problems``: family -> reasons (failures,
    families skipped entirely, a ruleset refused for some games only)."""
    out: dict[str, dict] = {}
    for p in PROFILES:
        if p in not_implemented:
            out[p] = {"verdict": NOT_IMPLEMENTED, **dict.fromkeys(STATUSES, 0), "families": {},
                      "reasons": ["the engine does not declare it"]}
            continue
        if p not in run:
            continue
        groups = [f for f in PROFILES[p] if f in counts] + ([FUZZ_GROUPS[p]] if FUZZ_GROUPS.get(p) in counts else [])
        total = _counts(counts, groups)
        reasons = [r for g in groups for r in problems.get(g, [])]
        ran = sum(total.values())
        if smoke_failed:
            verdict, reasons = NOT_CERTIFIED, ["the smoke tier failed"]
        elif ran and total["skipped"] == ran:
            verdict, reasons = NOT_IMPLEMENTED, ["the engine skipped every vector"]
        elif reasons or not ran or any(f not in counts for f in PROFILES[p]):
            verdict = NOT_CERTIFIED
            if not ran or any(f not in counts for f in PROFILES[p]):
                reasons = reasons + ["not every family was run"]
        elif total[SUITE_ERROR]:  # nothing failed, but not everything was judged: the suite's fault
            verdict, reasons = INCOMPLETE, [suite_errors_text(total[SUITE_ERROR])]
        else:
            verdict = CERTIFIED
        out[p] = {"verdict": verdict, **total, "families": {g: counts[g] for g in groups},
                  **({"reasons": reasons} if reasons else {})}
    return out


def suite_errors_text(n: int, where: str = "") -> str:
    """Why a run with suite errors is not certified, in words that never blame the engine."""
    return (f"{n} suite error{'s' if n != 1 else ''}{' in ' + where if where else ''} (the suite's own driver or "
            "strategies crashed: not judged, not the engine's failure; please report it)")


def headline(profiles: dict[str, dict]) -> str:
    """``certified for helpers, hand; not certified for tournament; not implemented: sng3v4``."""
    by = {v: [p for p, row in profiles.items() if row["verdict"] == v]
          for v in (CERTIFIED, NOT_CERTIFIED, INCOMPLETE, NOT_IMPLEMENTED)}
    parts = []
    if by[CERTIFIED]:
        parts.append(f"certified for {', '.join(by[CERTIFIED])}")
    if by[NOT_CERTIFIED]:
        parts.append(f"not certified for {', '.join(by[NOT_CERTIFIED])}")
    if by[INCOMPLETE]:
        parts.append(f"incomplete for {', '.join(by[INCOMPLETE])}")
    if by[NOT_IMPLEMENTED]:
        parts.append(f"not implemented: {', '.join(by[NOT_IMPLEMENTED])}")
    return "; ".join(parts)
