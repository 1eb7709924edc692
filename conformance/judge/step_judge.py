"""The step judge: an engine's game trajectory (:mod:`conformance.judge.trajectory`) compared step by
step, every field, with the reference playing the same game (docs/INTERPRETING.md, Step judging).

Every transition is judged from the engine's own previous state (conformance.judge.following): a
failure names the hand, the decision index, the field path, the expected and actual values, the
one clause that governs that field (``breaks``) and the answers that led there; each independent
difference is a failure of its own, one that persists is counted under its cause
(conformance.judge.comparison). A difference is "divergent on Rn" only when the reference under
Rn's documented alternative (alone or combined) reproduces it (conformance.judge.proof).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

from conformance.vectors.clauses import CLAUSES
from .comparison import (ANSWERS_SHOWN, LATER_SHOWN, STATE_ORDER, Comparison, Divergence, _identical,  # noqa: F401
                         _plain, _Stop, _thrown, inside, reach, same, transition)
from .derived_fields import from_own_fields, is_base, is_derived
from .field_clauses import _at, action_clause, clause_for, v4_clause_for
from .following import ACCEPTED, REFUSED, allowed_by, count_differences, exhausted_at, judge_state, replay_decisions
from .proof import (Proof, _default_followed_note, _number, _profile_text, _ruleset_of, pair_alternatives, search,
                    single_alternatives)
from .trajectory import STANDING_FIELDS, Plan, ReferenceGame, expand, standings_view
from .v4_steps import ENDED, replay_v4_steps


def replay(spec: dict, trajectory: dict, plan: Plan, *, required: int | None = None, with_log: bool = False,
           v4_steps: list | None = None, standing_fields: tuple = STANDING_FIELDS, stop: bool = False,
           lite: bool = False, decisions_only: bool = False) -> Comparison:
    """Play ``spec`` on the reference, answering each decision as ``plan`` answers the engine's
    state, and compare every step of ``trajectory``. ``required``: the number of decisions the
    engine had to record (a hands script's length; None: to the end of the game). ``with_log``:
    compare ``log()`` too. ``v4_steps``: holdem-sng-3-v4 steps played first (their outcomes are
    the trajectory's ``steps``). A trajectory without ``decisions`` (an engine that reports only
    the end, docs/engine-protocol.md) is judged on its steps and its end: the reference then plays
    the plan on its own states. ``stop``: at the first difference. ``lite``: :attr:`Comparison.lite`.
    ``decisions_only``: the recorded decisions alone, not the game's end (a legality vector's prefix)."""
    out = Comparison(stop=stop, clause_of=clause_for if v4_steps is None else v4_clause_for, lite=lite)
    try:
        _replay(out, spec, trajectory, plan, required, with_log, v4_steps, standing_fields, decisions_only)
    except _Stop:
        pass
    return out


def _replay(out: Comparison, spec, trajectory, plan, required, with_log, v4_steps, standing_fields,
            decisions_only=False) -> None:
    ref = ReferenceGame(spec, trajectory.get("log") if isinstance(trajectory, dict) else None,
                        trajectory.get("standings") if isinstance(trajectory, dict) else None)
    try:
        _replay_game(out, ref, trajectory, plan, required, with_log, v4_steps, standing_fields, decisions_only)
    finally:
        if not out.stop:
            out.positions = ref.positions()


def _replay_game(out: Comparison, ref: ReferenceGame, trajectory, plan, required, with_log, v4_steps,
                 standing_fields, decisions_only=False) -> None:
    trajectory = expand(trajectory)
    error = trajectory.get("error")
    in_step = replay_v4_steps(ref, v4_steps or [], trajectory.get("steps"), out, error, trajectory.get("standings"))
    if not in_step:
        return
    if in_step == ENDED:
        error = None  # both games ended there: not an error of the engine's
    if "decisions" not in trajectory and required is None:
        ref.play_out(plan)
        if not v4_steps:  # (a holdem-sng-3-v4 game's steps are followed; its protocol reports the end after them)
            out.notes.append(END_ONLY)
    else:
        in_step = replay_decisions(ref, trajectory, plan, out, len(v4_steps or ()))
    if in_step and not decisions_only:
        offset = len(v4_steps or ())
        decisions = out.decisions
        expected = ref.state()
        hand = expected["handNumber"] if expected else None
        short, unfinished = required is not None and decisions < required, required is None and expected is not None
        if (short or unfinished) and exhausted_at(out, hand, offset + decisions, "state()", expected, error):
            pass  # the engine's game recorded up to a call that exhausted memory or stack
        elif short:
            out.add(hand, offset + decisions, "state()", expected, {"error": _thrown(error)} if error else None)
        elif unfinished:
            out.add(expected["handNumber"], offset + decisions, "state()", expected,
                    {"error": _thrown(error)} if error else "null (the engine's game ended)")
        elif error:
            out.add(None, None, "error", None, _thrown(error), "state.fields")
        decided = [x.get("handNumber") for x in trajectory.get("decisions") or () if isinstance(x, dict)]
        if with_log and decided and isinstance(decided[-1], int):
            ref.follow_ending(plan, out.decisions, decided[-1])
        end = ref.ending(with_log, standing_fields)
        actual_end = {"history": trajectory.get("history"), "log": trajectory.get("log"),
                      "standings": standings_view(trajectory.get("standings"), standing_fields),
                      "over": trajectory.get("over")}
        if all(actual_end[key] is None for key in ("history", "log", "standings", "over")) \
                and any(key in trajectory for key in ("decisions", "steps", "over")):
            # the game's end not reported (the engine stopped): one difference, not one per record;
            # after a difference, that difference's consequence (counted under the game's first)
            if out.first is not None:
                out.later_count += 1
            else:
                out.add(None, None, "over", end["over"], {"error": _thrown(error)} if error else None, "rules.end",
                        kind="the game's end not reported")
            return
        for key in ("history", "log", "standings", "over"):
            if key in end and (key in trajectory or "decisions" in trajectory):
                path = key if key == "over" else f"{key}()"
                expected = end[key]
                # each award judged from the engine's own: what follows from it is not counted again (awards.py)
                followed = []
                if key == "history" and isinstance(expected, list):
                    followed = [f"history()[{k}].showdown" for k in ref.showdowns_followed(expected, actual_end[key])]
                elif key == "log" and isinstance(expected, list):
                    expected, shown = ref.log_followed(expected, actual_end[key])
                    followed = [f"log()[{k}].result.showdown" for k in shown]
                # the records of hands the reference could not follow: that difference's consequence
                lost = out.lost_records(path, expected, actual_end[key]) if key in ("history", "log") else []
                if out.first is not None:
                    out.later_count += sum(differs for _, differs in lost)
                lost = [where for where, _ in lost]
                if key == "standings" and (out.differed or _end_records_differ(out)) \
                        and standings_follow(actual_end[key], expected):
                    expected = actual_end[key]  # the records' differences' consequence, not one of its own
                if key == "standings" and out.auto_folded_otherwise:
                    expected = auto_fold_followed(expected, actual_end[key], out.auto_folded_otherwise)
                out.compare(None, None, path, expected, actual_end[key],
                            only=(lambda where: where not in followed and not inside(where, lost))
                            if followed or lost else None)


def auto_fold_followed(ours: object, standings: object, seats: set) -> object:
    """The reference's final ``ours`` with the engine's own ``autoFolded`` for each of ``seats``
    (ids): a seat whose auto-fold differed during the game (R26, one difference) ends in the
    engine's own auto-fold, that difference's consequence (issue #38, item 3)."""
    if not (isinstance(ours, list) and isinstance(standings, list)):
        return ours
    theirs = {x.get("id"): x for x in standings if isinstance(x, dict)}
    return [{**x, "autoFolded": theirs[x["id"]]["autoFolded"]}
            if isinstance(x, dict) and x.get("id") in seats and "autoFolded" in x and "autoFolded" in theirs.get(x["id"], {})
            else x for x in ours]


def _end_records_differ(out: Comparison) -> bool:
    """Whether a hand record of the game's end (``history()``, ``log()``) differed (comparison.transition)."""
    return any(t[1] in ("history()", "log()") for t in out.seen)


def standings_follow(standings: object, ours: object) -> bool:
    """Whether an engine's final ``standings`` follow from its own chips by the contract's rules (the
    chips the reference's hold in all; survivors by chips with competition places, the eliminated
    below them in distinct places): after a hand record that differs, its standings are judged so,
    not against the reference's own last hand (issue #38, item 1)."""
    try:
        chips = [x["chips"] for x in standings]
        if sorted(x["id"] for x in standings) != sorted(x["id"] for x in ours) or \
                sum(chips) != sum(x["chips"] for x in ours):
            return False
        alive = [x for x in standings if x["chips"] > 0]
        if any(x["place"] != 1 + sum(1 for o in alive if o["chips"] > x["chips"]) for x in alive):
            return False
        places = [x["place"] for x in standings if x["chips"] == 0]
        return len(set(places)) == len(places) and all(isinstance(p, int) and p > len(alive) for p in places)
    except (KeyError, TypeError):
        return False


# A game whose engine reported only its end (docs/engine-protocol.md): said on its vector.
END_ONLY = ("the engine reported only the game's end (history, log, standings): judged on it, not followed "
            "decision by decision")


# ---- verdicts -----------------------------------------------------------------------------------

@dataclass
class GameVerdict:
    status: str  # passed, divergent or failed
    message: str = ""
    first: Divergence | None = None
    later: int = 0
    answers: list = field(default_factory=list)
    rulings: list = field(default_factory=list)
    alternative: dict | None = None  # the ruling options the engine follows (divergent)
    details: str = ""
    diagnosis: dict | None = None  # failed, but reproduced under options the text rules out (search)
    notes: list = field(default_factory=list)  # reported, not failed
    positions: dict = field(default_factory=dict)  # the reference's positions (Comparison.positions)
    # Every failure of the game (failed): the first divergence of each hand judged after a
    # resynchronisation (issue #23), ``first`` among them, and a dealing difference (dealing.py).
    failures: list = field(default_factory=list)

    @property
    def breaks(self) -> str | None:
        return self.first.clause if self.first is not None and self.status == "failed" else None


INDEPENDENT_SHOWN = 20  # independent differences of a game listed in its details (the rest are counted)


def _differences(n: int) -> str:
    return f"{n} difference{'s' if n != 1 else ''}"


def describe(c: Comparison) -> tuple[str, str]:
    """The one-line message and the detail lines of a comparison with differences: the first, the
    later ones of its cause counted under it, then each independent difference (its own cause)."""
    d = c.first
    summary = CLAUSES[d.clause][1]
    message = (f"first divergence at {d.where()}: {d.path} expected {_show(d.expected)}, got {_show(d.actual)} "
               f"-- breaks {d.clause} ({summary})")
    if c.later_count:
        message += f"; {c.later_count} later difference{'s' if c.later_count > 1 else ''} of the same cause counted under it"
    others = c.firsts[1:]
    if others:
        message += (f"; judged on the engine's own states, {len(others)} more independent "
                    f"difference{'s' if len(others) > 1 else ''}: "
                    + ", ".join(f"{o.where()} {o.path} (breaks {o.clause})" for o in others[:LATER_SHOWN])
                    + (" …" if len(others) > LATER_SHOWN else ""))
    total = 1 + c.later_count + sum(1 + o.counted for o in others)
    lines = [f"first divergence ({_differences(total)} in all, {len(c.firsts)} independent)",
             f"  {d.where()}: {d.path}: expected {_show(d.expected)}, got {_show(d.actual)}"]
    for later in c.later:
        lines.append(f"  the same cause, {later.where()}: {later.path}: expected {_show(later.expected)}, "
                     f"got {_show(later.actual)}")
    if c.later_count > len(c.later):
        lines.append(f"  … and {c.later_count - len(c.later)} more")
    for o in others[:INDEPENDENT_SHOWN]:
        lines.append(f"independent, {o.where()}: {o.path}: expected {_show(o.expected)}, got {_show(o.actual)} "
                     f"-- breaks {o.clause}" + (f" ({o.counted} later difference{'s' if o.counted > 1 else ''} of "
                                                 "the same cause counted under it)" if o.counted else ""))
    if len(others) > INDEPENDENT_SHOWN:
        lines.append(f"… and {len(others) - INDEPENDENT_SHOWN} more independent differences")
    answers = c.answers_json()
    if answers:
        lines.append("answers that led there: " + ", ".join(
            a if isinstance(a, str) else f"#{a['decision']} {json.dumps(a['answer'])}" for a in answers))
    return message, "\n".join(lines)


def _show(value: object) -> str:
    text = value if isinstance(value, str) and value.startswith("(") else json.dumps(_plain(value, 200), default=repr)
    return text if len(text) <= 240 else text[:240] + " …"


# ---- the verdict on a game -----------------------------------------------------------------------

def judge_game(spec: dict, trajectory: dict, plan: Plan, *, family: str, broken=lambda: None, prove_each: bool = True,
               **how) -> GameVerdict:
    """The verdict on one engine game of ``family``: passed when every step equals the
    reference's; divergent when only ORDER_FREE lists differ in order (R14, R5), or when the
    reference under documented ruling alternatives reproduces the whole trajectory (:func:`prove`);
    else failed at the first divergence. ``broken()`` says which rule every ruling keeps the
    trajectory breaks (None: none): then no alternative is tried. ``prove_each``: prove each difference
    on its own (:func:`explain`; not for a game judged again on the engine's own cards, dealing.py).
    ``how``: :func:`replay`'s options."""
    c = replay(spec, trajectory, plan, **how)
    return verdict(c, family, spec, lambda p: replay({**spec, "rulings": p}, trajectory, plan, stop=True, **how),
                   broken, follow_under=(lambda p: replay({**spec, "rulings": p}, trajectory, plan, lite=True, **how))
                   if prove_each else None)


def verdict(c: Comparison, family: str, spec: dict, replay_under, broken=lambda: None,
            outcome_only: bool = False, irreproducible: bool = False, follow_under=None) -> GameVerdict:
    """The verdict on a replay ``c`` of a ``family`` vector: passed or divergent on order alone; else
    divergent when ``replay_under(profile)`` reproduces every step under some documented ruling
    alternative (:func:`prove`; not tried when ``broken()`` names a rule every ruling keeps); else
    failed at the first divergence. ``outcome_only``: a failure's message may leave out what
    ``broken()`` names (asked only when an alternative reproduces the game: without one the game
    fails either way); its status, answers and every other verdict are exact (dealing.judge_game).
    ``irreproducible``: the caller knows that no profile can reproduce the game (dealing.followed_first:
    cards no deal of the pinned decks gives), so none is searched for. ``follow_under(profile)``: a
    full replay under a profile, with which each difference is proven on its own (:func:`explain`)."""
    if c.first is None:
        v = _with_notes(_order_only(c), c)
        if note := _default_followed_note(family, spec, replay_under):
            v.notes.append(note)
        return v
    return _with_notes(_differing(c, family, spec, replay_under, broken, outcome_only, irreproducible, follow_under), c)


def _with_notes(v: GameVerdict, c: Comparison) -> GameVerdict:
    v.notes = list(c.notes)
    return v


def _differing(c: Comparison, family: str, spec: dict, replay_under, broken, outcome_only: bool = False,
               irreproducible: bool = False, follow_under=None) -> GameVerdict:
    if outcome_only:  # the search first: broken() only matters when it finds a profile
        proof = None if irreproducible else search(family, spec, reach(c), replay_under, _first_of(c))
        problem = broken() if proof is not None else None
        if problem:
            proof = None
    else:
        problem = broken()
        proof = None if problem else search(family, spec, reach(c), replay_under, _first_of(c))
    if proof is not None and not proof.ruled_out:
        return GameVerdict("divergent", f"the reference under {_profile_text(proof.profile)} reproduces every step",
                           rulings=sorted(set(proof.profile) | proof.comparison.rulings, key=_number),
                           alternative=proof.profile)
    if proof is not None:
        return _diagnosed(c, proof, replay_under, "every step")
    # Each difference proven on its own where there are several (one alone: the search above tried it).
    explained = {} if problem or follow_under is None or len(c.firsts) < 2 else explain(family, spec, c, follow_under)
    if explained and len(explained) == len(c.firsts):  # every difference proven on its own
        profile = {r: o for p in explained.values() for r, o in p.items()}
        return GameVerdict("divergent", "each difference is reproduced, from the engine's own state, by the reference "
                           "under " + "; ".join(f"{d.where()} {d.path}: {_profile_text(p)}"
                                                for d, p in zip(c.firsts, explained.values())),
                           rulings=sorted(profile, key=_number), alternative=profile)
    if explained:  # the vector fails with the differences no alternative reproduces
        proven = "; ".join(f"{d.where()} {d.path} divergent on {_profile_text(p)}"
                           for d, p in zip([d for d in c.firsts if id(d) in explained], explained.values()))
        c = _without(c, explained)
        message, details = describe(c)
        message += f"; proven divergences: {proven}"
    else:
        message, details = describe(c)
    if problem:
        message += f"; no ruling alternative can reproduce it: {problem}"
    return GameVerdict("failed", message, c.first, c.later_count, c.answers_json(), details=details,
                       failures=list(c.firsts), positions=c.positions)


def _first_of(c: Comparison) -> tuple:
    return c.first.path, c.first.expected


def explain(family: str, spec: dict, c: Comparison, follow_under) -> dict:
    """The differences of ``c`` that a documented ruling alternative proves on their own (issue #38,
    item 1): under it, judged from the engine's own states (``follow_under(profile)``, a full
    replay), the reference reproduces that transition. ``{id(difference): profile}`` in ``c.firsts``'
    order; one engine plays one option of a ruling, so the first profile that explains a difference
    is kept for every difference it explains. Single alternatives first; then, for the differences
    still unexplained, the pairs holding an alternative that changed what differs at one of their
    transitions without reproducing it (proof.pair_alternatives: an engine following two
    alternatives at once shows both in one state; bounded by the family's pairs)."""
    explained: dict = {}
    changed: list = []  # the single alternatives that changed an unexplained difference

    def judge_under(profile: dict) -> None:
        under = follow_under(dict(profile))
        for d in c.firsts:
            followed = under.lost_at is None or (d.decision is not None and d.decision < under.lost_at)
            if id(d) in explained or not followed:
                continue
            if transition(d) not in under.seen:
                explained[id(d)] = dict(profile)
            elif len(profile) == 1 and under.first_at.get(transition(d)) != c.first_at.get(transition(d)) \
                    and profile not in changed:
                changed.append(dict(profile))

    for profile in single_alternatives(family, spec):
        if len(explained) == len(c.firsts):
            break
        judge_under(profile)
    for profile in pair_alternatives(family, spec, changed) if changed else []:
        if len(explained) == len(c.firsts):
            break
        judge_under(profile)
    return {id(d): explained[id(d)] for d in c.firsts if id(d) in explained}


def _without(c: Comparison, explained: dict) -> Comparison:
    """``c`` without the differences ``explained`` proves divergent (its first the first that is not)."""
    kept = [d for d in c.firsts if id(d) not in explained]
    out = replace(c, firsts=kept, first=kept[0], later=[] if kept[0] is not c.first else c.later,
                  later_count=kept[0].counted if kept[0] is not c.first else c.later_count)
    if kept[0] is not c.first:
        kept[0].counted = 0
    return out


def _diagnosed(c: Comparison, proof: "Proof", replay_under, what: str) -> GameVerdict:
    """A failure that an option the text rules out reproduces: it breaks that option's clause, at
    the first step where the option shows (judged under the playable alternatives of the same
    proof, when there are any: the choices the engine follows); the option is named as a diagnosis."""
    record = proof.ruled_out[0]
    playable = {rid: o for rid, o in proof.profile.items() if rid not in {r.ruling for r in proof.ruled_out}}
    base = replay_under(playable) if playable else c
    if base.first is None:  # cannot be (the playable part alone would have proven a divergence)
        base = c
    first = replace(base.first, clause=record.clause)
    base.first = first
    if base.firsts:
        base.firsts[0] = first
    message, details = describe(base)
    if playable:
        message = f"under {_profile_text(playable)} (a documented alternative it follows): {message}"
    message += (f"; the reference under {_profile_text(proof.profile)} reproduces {what}: a diagnosis, not an excuse: "
                + "; ".join(r.text() for r in proof.ruled_out))
    return GameVerdict("failed", message, first, base.later_count, base.answers_json(), details=details,
                       failures=list(base.firsts) or [first], positions=c.positions or base.positions,
                       diagnosis=proof.profile)


def _order_only(c: Comparison) -> GameVerdict:
    if c.rulings:
        return GameVerdict("divergent", "differs only in the order of lists whose order is a ruling",
                           rulings=sorted(c.rulings), details=c.reordered_text())
    return GameVerdict("passed")


LEGALITY_ORDER = ("state", "act", "stateAfter", "fallback", "error")


def compare_views(expected: dict, actual: dict, hand, decision: int, answer: object, stop: bool = False) -> Comparison:
    """One decision judged on views (legality): ``state``, ``act``, ``stateAfter``, ``fallback``."""
    c = Comparison(stop=stop)
    c.answers = [(hand, decision, answer)]
    if (own_views := _from_own_state(expected, actual, answer)) is not None:
        expected = {**{k: v for k, v in expected.items() if k not in _AFTER_THE_STATE}, **own_views}
    # An answer accepted where it must be refused (or refused where accepted) is one difference: the
    # state after a refusal and submit's fallback then show the same behaviour again.
    settled = (expected.get("act") == "throws") != (actual.get("act") == "throws")
    # ...and where the engine's own state allows what it did (or refuses it), that state's difference
    # (judged above): not one of its own (following.replay_decisions judges a game's acts so)
    own = settled and allowed_by(actual.get("state"), answer) == (actual.get("act") != "throws") \
        and not _identical(expected.get("state"), actual.get("state"))
    try:
        for key in LEGALITY_ORDER:
            if key not in expected and key not in actual or settled and key in ("stateAfter", "fallback") \
                    or own and key == "act":
                continue
            e, a = expected.get(key, "(absent)"), actual.get(key, "(absent)")
            clause = {"act": action_clause(answer, e, a), "fallback": "timing.fallback",
                      "error": "state.fields"}.get(key)
            if key == "act" and not settled and _record_misstated(expected, actual, answer):
                clause = "state.actions"  # only the record: "`amount` is additional chips committed by that action"
            if key == "act" and settled:  # accepted where refused, or refused where valid: one difference
                c.add(hand, decision, key, e, a, clause, kind=REFUSED if a == "throws" else ACCEPTED)
                continue
            if key in ("state", "stateAfter") and isinstance(e, dict) and isinstance(a, dict) \
                    and callable(expected.get("_game")):
                # judged as a game's decision state is: another seat asked to act is one difference, a
                # derived field against the engine's own others (following.py); after a refusal both
                # keep, the state is the one before the act
                judge_state(c, expected["_game"](), hand, decision, e, a, root=key)
                continue
            if key in ("state", "stateAfter") and isinstance(e, dict) and isinstance(a, dict):
                # derived fields against the engine's own others (derived_fields): one wrong field, one difference
                c.compare(hand, decision, key, e, a, STATE_ORDER, only=lambda where, key=key: is_base(where, key))
                c.compare(hand, decision, key, from_own_fields(e, a), a, STATE_ORDER,
                          only=lambda where, e=e, a=a, key=key: is_derived(where, key)
                          and not same(_at(a, where[len(key):]), _at(e, where[len(key):])))
                continue
            c.compare(hand, decision, key, e, a, STATE_ORDER, clause=clause)
    except _Stop:
        pass
    return c


_AFTER_THE_STATE = ("act", "stateAfter", "fallback")


def _from_own_state(expected: dict, actual: dict, answer: object) -> "dict | None":
    """Where the engine's state after the prefix differs from the reference's (judged as such), what
    the reference does with the answer from the engine's own state (issue #38, item 1: each
    transition judged from the engine's own previous state): its ``act`` (or refusal, the
    ``stateAfter`` it and the ``fallback`` submit gives), so another seat asked is one difference, not
    one more in the act's record; None when the states are the same or the engine's cannot be followed."""
    game, state = expected.get("_game"), actual.get("state")
    if not callable(game) or not isinstance(state, dict) or _identical(expected.get("state"), state):
        return None
    ref = game()
    if not ref.follow_state(state):
        return None
    act = ref.act(answer)
    if "threw" not in act:
        return {"act": {"action": act}}
    views = {"act": "throws"}
    if "stateAfter" in actual:  # (a refused prefix answer's state alone has neither: family_judges._prefix_refused)
        views["stateAfter"] = ref.state()
    if "fallback" in actual:
        fallback = game()
        if not fallback.follow_state(state):
            return None
        views["fallback"] = fallback.t.submit(answer)[0]
    return views


def _record_misstated(expected: dict, actual: dict, answer: object) -> bool:
    """Whether a legality act the engine accepted, recording an action that differs, left the state
    the answer gives (the reference's own next state) rather than the one its record gives (the
    reference following that record from the engine's state): then only the record is misstated
    (following.replay_decisions judges a game's decisions so). ``actual["next"]``: the engine's
    state after the act (the driver's, docs/engine-protocol.md)."""
    game, after, act = expected.get("_game"), actual.get("next"), actual.get("act")
    if not (callable(game) and isinstance(after, dict) and isinstance(act, dict) and isinstance(act.get("action"), dict)):
        return False
    answered, followed = game(), game()
    if "threw" in answered.act(answer):
        return False
    mine = answered.state()
    if not followed.follow_action(actual.get("state"), act["action"]):  # (more chips than the seat has)
        return mine is not None and _identical(mine, after)
    theirs = followed.state()
    return mine is not None and theirs is not None and count_differences(mine, after) < count_differences(theirs, after)


def judge_views(spec: dict, decision: int, answer: object, actual: dict, views, family: str) -> GameVerdict:
    """Like :func:`judge_game` for a one-decision vector: ``views(spec)`` is what the reference does
    with ``spec`` (with a ``rulings`` profile when one is tried)."""
    expected = views(spec)
    hand = expected["state"]["handNumber"] if isinstance(expected.get("state"), dict) else None
    c = compare_views(expected, actual, hand, decision, answer)

    def replay_under(p: dict) -> Comparison:
        return compare_views(views({**spec, "rulings": p}), actual, hand, decision, answer, stop=True)

    if c.first is None:
        v = _order_only(c)
        if note := _default_followed_note(family, spec, replay_under):
            v.notes.append(note)
        return v
    proof = search(family, spec, 0, replay_under)
    if proof is not None and not proof.ruled_out:
        return GameVerdict("divergent", f"the reference under {_profile_text(proof.profile)} reproduces it",
                           rulings=sorted(set(proof.profile) | proof.comparison.rulings, key=_number),
                           alternative=proof.profile)
    if proof is not None:
        return _diagnosed(c, proof, replay_under, "it")
    message, details = describe(c)
    return GameVerdict("failed", message, c.first, c.later_count, c.answers_json(), details=details,
                       failures=list(c.firsts), positions=c.positions)

