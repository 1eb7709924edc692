"""holdem-sng-3-v4 steps judged step by step (docs/INTERPRETING.md, sng3v4): a sng3v4 vector's steps,
and a hands vector's fuzz steps, come before its decisions. Each step is judged as a game's decision
is (conformance.judge.following): its state against the reference's own next state (or the one the
answer gives, where only a record was misstated), then its outcome -- a timeout or a timely
answer's action and error on the engine's own clock -- the reference following the engine's record.
"""
from __future__ import annotations

from conformance.vectors.gamespec import answer as decode_answer
from .comparison import MISSING, Comparison, _identical
from .field_clauses import action_clause
from .following import (ACCEPTED, AUTO_FOLDED_SOONER, REFUSED, allowed_by, count_differences, exhausted_at,
                        hand_in_play, hand_start, judge_state, negative_chips)
from .refusals import code_of, refusal_note
from .trajectory import ReferenceGame

ENDED = "ended"  # replay_v4_steps: the engine's game and the reference's ended at the same step


def _game_over_at(error: object, k: int) -> bool:
    """The engine's trajectory stopped at step ``k`` because its game was over (state() gave null)."""
    return isinstance(error, dict) and error.get("at") == f"state() at steps[{k}]" and \
        isinstance(error.get("message"), str) and (error["message"].startswith("returned null")
                                                    or error["message"] == "the game is over")


def replay_v4_steps(ref: ReferenceGame, steps: list, outcomes: object, out: Comparison,
                     error: object = None, standings: object = None) -> "bool | str":
    """Compare each sng3v4 step's outcome, following the engine (conformance.judge.following): its
    state before the step judged and followed, then the step applied there, an action record that
    differs followed as the engine recorded it; False when the reference cannot follow further,
    ENDED when the engine's game ended at the step where the reference's did (a fuzz game replayed
    under an alternative that ends it sooner: its end is then compared)."""
    outcomes = outcomes if isinstance(outcomes, list) else []
    engine_hand_before = hand_in_play(ref)
    # after an action record that differs, the reference's next state had the engine done what the
    # reference did (as following.replay_decisions judges a game's decisions: a record misstated)
    as_answered = None
    lost_in = None  # the hand in which the reference could not follow the engine's record (until the next)
    for k, step in enumerate(steps):
        got = outcomes[k] if k < len(outcomes) else None
        seen = got.get("state") if isinstance(got, dict) else None
        judged = False
        if negative_chips(out, k, seen):
            return False
        if lost_in is not None and isinstance(seen, dict) and seen.get("handNumber") == lost_in:
            # the rest of a hand the reference cannot follow (as a game's decisions: following.py)
            out.answers.append((lost_in, k, step))
            continue
        # a hand the reference could not follow ended: the engine's next one is not judged against
        # the reference's own next hand (it has none), only resynchronised to (following.hand_start)
        lost, lost_in = lost_in is not None, None
        if isinstance(seen, dict) and not out.stop and not (isinstance(step, dict) and "recover" in step):
            engine_hand = seen.get("handNumber")
            resynchronised = False
            if engine_hand != engine_hand_before and isinstance(engine_hand, int):
                started = hand_start(out, ref, k, seen, standings, lost, root=f"steps[{k}].state")
                if started is False:
                    return False
                resynchronised = bool(started)
            engine_hand_before = engine_hand
            own = ref.state()
            if own is not None and not resynchronised and as_answered is not None \
                    and count_differences(as_answered, seen) < count_differences(own, seen):
                judge_state(out, ref, own["handNumber"], k, as_answered, seen, False, root=f"steps[{k}].state")
                ref.follow_state(seen)  # the record misstated: the hand played on as answered
                judged = True
            elif own is not None:
                judge_state(out, ref, own["handNumber"], k, own, seen, resynchronised, root=f"steps[{k}].state")
                judged = True
        as_answered = None
        # the step on the engine's own clock once its state is judged (a clock that differs is that state's difference)
        want = ref.step(step, seen.get("timeLimitMs") if judged else None)
        hand = want["state"]["handNumber"] if isinstance(want.get("state"), dict) else None
        out.answers.append((hand, k, step))
        if got is None:
            if want == {"error": "the game is over"} and _game_over_at(error, k):
                return ENDED
            if out.first is not None and _game_over_at(error, k):
                out.later_count += 1  # its game ended sooner after a difference: that difference's consequence
            elif not exhausted_at(out, hand, k, f"steps[{k}]", want, error):
                out.add(hand, k, f"steps[{k}]", want, MISSING, "timing.fallback")
            return False
        if judged and isinstance(got, dict):  # the state is judged: the step's own outcome
            mine, theirs = {x: v for x, v in want.items() if x != "state"}, {x: v for x, v in got.items() if x != "state"}
            if _answer_refused(mine) and _answer_refused(theirs) and mine.get("error") != theirs.get("error") \
                    and isinstance(theirs.get("error"), str) and theirs["error"]:
                # any refusal passes where one is due; its code is a note (refusals.py), as in sng3v4's own
                # steps -- a code, not "" (falsy: a caller reading `if (r.error)` sees no error at all)
                if note := refusal_note(f"steps[{k}]", code_of(theirs.get("error")), code_of(mine.get("error"))):
                    out.notes.append(note)
                theirs = {**theirs, "error": mine.get("error")}
            # A timeout, or an answer both refuse (processed as one, R22), that folds where checking is
            # legal: the engine's auto-fold at a lower count (R22)
            as_timeout = want.get("error") == "late" or (want.get("error") is not None and got.get("error") is not None)
            sooner = as_timeout and ref.auto_fold_count(seen, got.get("action")) is not None
            typed = f"steps[{k}].action.type"
            if sooner:
                out.add(hand, k, typed, want["action"]["type"], got["action"]["type"], "timing.fallback",
                        kind=AUTO_FOLDED_SOONER)
            clause = _step_clause(step, {**want, "state": seen}, got)
            settled = not as_timeout and _answer_refused(want) != _answer_refused(got) and isinstance(got.get("action"), dict)
            if settled:
                # A timely answer accepted where it must be refused, or refused where it is valid: one
                # difference (its answer's rule), none of its own where the engine's own state allows
                # what it did (that state's, judged above), as a game's decision is (following.py)
                given = decode_answer(step["answer"] if isinstance(step, dict) and "atMs" in step else step)
                if allowed_by(seen, given) != (not _answer_refused(got)):
                    e, a = ({"threw": x["error"]} if _answer_refused(x) else x.get("action") for x in (want, got))
                    out.add(hand, k, f"steps[{k}]", mine, theirs, action_clause(given, e, a),
                            kind=REFUSED if _answer_refused(got) else ACCEPTED)
            if not _identical(mine, theirs) and isinstance(got.get("action"), dict) and "threw" not in got["action"]:
                answered = ref.state() if not _identical(want.get("action"), got["action"]) else None
                if as_timeout:  # the engine's own timeout handling: its auto-fold too
                    ref.follow_timeout(seen, got["action"])
                followed = ref.follow_action(seen, got["action"])
                if not followed and isinstance(seen, dict):
                    lost_in = seen.get("handNumber")
                    out.unfollowed(k, lost_in)
                nxt = outcomes[k + 1].get("state") if k + 1 < len(outcomes) and isinstance(outcomes[k + 1], dict) else None
                # Only the record misstated (the next state is the one the answer gives): the record's
                # own rule, state.actions (following.replay_decisions), not the answer's
                if followed and answered is not None and isinstance(nxt, dict) and isinstance(seen, dict) \
                        and nxt.get("handNumber") == seen.get("handNumber") and (now := ref.state()) is not None \
                        and count_differences(answered, nxt) < count_differences(now, nxt):
                    as_answered = answered
                    if _identical(want.get("error"), got.get("error")):
                        clause = "state.actions"
            if not settled:
                out.compare(hand, k, f"steps[{k}]", mine, theirs, ("action", "error"), clause=clause,
                            only=(lambda where: where != typed) if sooner else None)
        elif isinstance(step, dict) and "recover" in step and isinstance(got, dict) and set(want) != set(got):
            out.add(hand, k, f"steps[{k}]", want, got, "rules.elimination",  # R26: one difference, not one per key
                    kind="a recovery refused where it is due" if "refused" in got else "a recovery granted where it is refused")
        else:
            out.compare(hand, k, f"steps[{k}]", want, got, ("state", "action", "error"),
                        clause=None if "state" not in want else _step_clause(step, want, got))
        if "error" in want and "state" not in want:  # the reference's game is over
            return False
    return True


def _answer_refused(outcome: dict) -> bool:
    """Whether a v4 step's outcome refused a timely answer (an error other than "late": its fallback applied)."""
    return outcome.get("error") not in (None, "late")


def _step_clause(step: object, want: dict, got: object) -> str | None:
    """The clause of a v4 step's action or error: a timely answer's is its word's (the answers
    holdem-sng-3-v4 accepts, "bet" and "allin" among them: return.*), a timeout's the fallback's;
    its state's fields keep their own (None)."""
    timely = not (step == {"timeout": True} or want.get("error") == "late")
    if not timely or not isinstance(got, dict) or not _identical(want.get("state"), got.get("state")):
        return None
    if want.get("error") is not None and got.get("error") is not None:
        # An answer both refuse: what the step did is the fallback ("fallback check else fold"; in
        # holdem-sng-3-v4 processed as a timeout, R22, its count setting auto-fold), not the word's rule.
        return None
    answer = decode_answer(step["answer"] if isinstance(step, dict) and "answer" in step else step)
    return action_clause(answer, want.get("action"), got.get("action"))
