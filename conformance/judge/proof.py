"""Proving a divergence (docs/INTERPRETING.md, Proving a divergence): the documented ruling
alternatives under which the reference reproduces an engine, and the choices one engine was proven
to follow (:class:`EngineChoices`: one engine plays one option of a ruling everywhere)."""
from __future__ import annotations

import contextvars
from contextlib import contextmanager
from dataclasses import dataclass, field

from reference.rulings import RULINGS, diagnoses_to_try, profiles_to_try, ruled_out_in

from .comparison import Comparison, reach

_ENGINE: contextvars.ContextVar = contextvars.ContextVar("engine_choices", default=None)


class EngineChoices:
    """The documented ruling alternatives one engine was proven to follow, with the first vector
    that proved each. While :meth:`judging`, every vector of every family (sng3v4 and fuzz games
    included) is judged under them first (:func:`search`), and a vector where the engine follows
    another option, or the default where its choice would differ, is told so (a note)."""

    def __init__(self) -> None:
        self.follows: dict[str, tuple[str, str]] = {}  # ruling -> (option, the vector that proved it)

    def profile(self) -> dict:
        return {rid: option for rid, (option, _) in self.follows.items()}

    @contextmanager
    def judging(self):
        token = _ENGINE.set(self)
        try:
            yield self
        finally:
            _ENGINE.reset(token)

    def record(self, vector: str, alternative: "dict | None") -> list[str]:
        """Learn the alternative a divergent ``vector`` follows; notes on options that contradict earlier ones."""
        notes = []
        for rid, option in sorted((alternative or {}).items(), key=lambda item: _number(item[0])):
            if rid not in self.follows:
                self.follows[rid] = (option, vector)
            elif self.follows[rid][0] != option:
                known, where = self.follows[rid]
                notes.append(f"inconsistent choices: this vector follows {rid} = {option!r}, {where} follows "
                             f"{rid} = {known!r} (one engine plays one option of a ruling everywhere)")
        return notes


def _known(family: str, ruleset: str) -> dict:
    """The engine's proven choices that can change ``family`` under ``ruleset`` (R3 is the dealing's:
    conformance.judge.dealing follows it on the cards)."""
    choices = _ENGINE.get()
    if choices is None:
        return {}
    return {rid: option for rid, option in choices.profile().items()
            if rid != "R3" and family in RULINGS[rid].families and option in RULINGS[rid].alternatives(ruleset)}


def _default_followed_note(family: str, spec: dict, replay_under) -> str | None:
    """For a vector the default reproduces: a note when the engine's proven choices would have
    played it otherwise (it follows the default here, an alternative elsewhere)."""
    known = _known(family, _ruleset_of(spec))
    if not known:
        return None
    c = replay_under(known)
    if c.first is None:
        return None
    choices = _ENGINE.get()
    where = "; ".join(f"{rid} = {option!r} in {choices.follows[rid][1]}" for rid, option in sorted(known.items()))
    return (f"inconsistent choices: this vector follows the default where the engine's proven alternatives ({where}) "
            f"play it otherwise (at {c.first.where()}: {c.first.path}); one engine plays one option of a ruling everywhere")


def _ruleset_of(spec: dict) -> str:
    return (spec.get("options") or {}).get("ruleset", "contract-v1")


def _profile_text(profile: dict) -> str:
    return ", ".join(f"{r} = {option!r}" for r, option in sorted(profile.items()))


def _number(ruling_id: str) -> int:
    return int(ruling_id[1:])


@dataclass
class Proof:
    """A profile under which the reference reproduces the engine exactly; ``ruled_out``: the records
    of its options that the ruleset's text rules out (then it is a diagnosis of a failure, not a divergence)."""

    profile: dict
    comparison: Comparison
    ruled_out: list = field(default_factory=list)


def prove(family: str, spec: dict, base: int, replay_under) -> tuple[dict, Comparison] | None:
    """The documented ruling alternative (:func:`search`) under which the reference reproduces the
    engine exactly, with that replay's comparison; or None (also when only options the text rules
    out reproduce it)."""
    proof = search(family, spec, base, replay_under)
    return None if proof is None or proof.ruled_out else (proof.profile, proof.comparison)


def search(family: str, spec: dict, base: int, replay_under, first: "tuple | None" = None) -> Proof | None:
    """The first profile under which the reference reproduces the engine exactly, or None.

    ``replay_under(profile)`` replays under a profile, stopping at the first difference; ``base``
    is how far the default replay matched (:func:`reach`), ``first`` its first difference's (path,
    expected). First the alternatives the engine was proven to follow elsewhere
    (:class:`EngineChoices`), alone and with each other single alternative; then every single
    alternative of a ruling that can change ``family`` (documented order), then every pair of
    alternatives of which at least one alone matched further than the default, or changed what
    differs first (a pair of two that each change nothing of the first difference would not explain
    it; an engine following two alternatives at once shows both in one state, where each alone
    leaves the other's difference). Only then the options the ruleset's text rules out, alone and
    in such pairs (reference.rulings.diagnoses_to_try): a profile with one of them is a diagnosis.
    """
    ruleset = _ruleset_of(spec)
    ids = [rid for rid, ruling in RULINGS.items() if family in ruling.families]
    known = _known(family, ruleset)
    tried = set()

    def attempt(profile: dict) -> Comparison | None:
        key = tuple(sorted(profile.items()))
        if key in tried:
            return None
        tried.add(key)
        return replay_under(dict(profile))

    if known:
        for extra in [{}] + [dict(p) for p in profiles_to_try([r for r in ids if r not in known], 1, ruleset)]:
            profile = {**known, **extra}
            c = attempt(profile)
            if c is not None and c.first is None:
                return Proof(profile, c)
    promising = set()
    for profile in profiles_to_try(ids, 1, ruleset):
        c = attempt(dict(profile))
        if c is not None and c.first is None:
            return Proof(dict(profile), c)
        if c is not None and (reach(c) > base or _changed_first(c, base, first)):
            promising |= set(profile.items())
    for profile in profiles_to_try(ids, 2, ruleset):
        if len(profile) == 2 and promising & set(profile.items()):
            c = attempt(dict(profile))
            if c is not None and c.first is None:
                return Proof(dict(profile), c)
    for profile in diagnoses_to_try(ids, ruleset):
        if len(profile) == 1 or promising & set(profile.items()):
            c = replay_under(dict(profile))
            if c.first is None:
                return Proof(dict(profile), c, ruled_out_in(profile, ruleset))
            if len(profile) == 1 and (reach(c) > base or _changed_first(c, base, first)):
                promising |= set(profile.items())
    return None


def _changed_first(c: Comparison, base: int, first: "tuple | None") -> bool:
    """Whether a replay under an alternative differs first at the default's first decision but in
    another way there (another field, or another value expected)."""
    return first is not None and c.first is not None and reach(c) == base and (c.first.path, c.first.expected) != first


def pair_alternatives(family: str, spec: dict, around: list) -> list[dict]:
    """The pairs of alternatives of two rulings that can change ``family``, each holding one of the
    single alternatives ``around`` (profiles that changed a difference without reproducing it): at
    most every pair of the family's alternatives (15 for six of them), for a difference that two
    alternatives together explain (step_judge.explain). R3's change (other cards dealt) is left out of
    ``around``: conformance.judge.dealing follows it on the engine's own cards (as :func:`_known` does)."""
    ruleset = _ruleset_of(spec)
    ids = [rid for rid, ruling in RULINGS.items() if family in ruling.families]
    near = {item for profile in around for item in profile.items() if item[0] != "R3"}
    return [dict(p) for p in profiles_to_try(ids, 2, ruleset) if len(p) == 2 and near & set(dict(p).items())]


def single_alternatives(family: str, spec: dict) -> list[dict]:
    """Every single documented alternative that can change ``family`` (the engine's proven choices
    first), for proving each difference on its own (step_judge.explain)."""
    ruleset = _ruleset_of(spec)
    ids = [rid for rid, ruling in RULINGS.items() if family in ruling.families]
    known = [{rid: option} for rid, option in _known(family, ruleset).items()]
    return known + [dict(p) for p in profiles_to_try(ids, 1, ruleset) if dict(p) not in known]
