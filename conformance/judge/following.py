"""Following an engine through a game (issue #38, item 1; docs/INTERPRETING.md, Step judging).

Every transition is judged from the engine's own previous state: the reference stands where the
engine's decision state says the hand stands (reference.hand.Hand.take: the seat it asks, the
amounts it accepted, the street it moved to, the board it dealt), applies the answer there and
compares the result with the engine's next state; an action record that differs is followed as the
engine recorded it (Hand.apply_record), and each award is judged from the engine's own
contributions and board. A derived field is judged against the engine's own other fields
(conformance.judge.derived_fields). So each difference is the engine's own: one that persists is
counted once under its cause, an independent one is a failure of its own (comparison.Comparison).

Who acts is judged first: when the engine asks another seat (or on another street) than the
reference would, that is one difference -- a seat asked to act that must not act (the lone
solvent seat that owes nothing: ``rules.lone-solvent``; one that already acted in a closed round, or
a folded or all-in seat: the acting order) or another seat asked -- and the rest of that state
follows from the engine's own choice (its derived fields still judged). At the engine's first
decision of a hand after a difference, the hands before are judged on their records, then the
reference is resynchronised to the engine's hand start (trajectory.ReferenceGame.resync).
"""
from __future__ import annotations

import json

from reference.actions import Legal, check_legal, parse_answer
from reference.errors import HoldemError, IllegalAction

from .comparison import MISSING, STATE_ORDER, Comparison, _identical, _thrown, differences, inside, same
from .derived_fields import from_own_fields, is_base, is_derived, top_field
from .field_clauses import _at, _auto_fold_differs, action_clause, auto_folded
from .refusals import code_of, is_refusal, refusal_note

MUST_NOT_ACT = "a seat asked to act that must not act"
AUTO_FOLDED = "a seat auto-folded otherwise (R26)"
# The engine's persistent auto-fold set by fewer consecutive timeouts than R22's count, whether a
# timeout that folds where checking is legal or a seat dealt in auto-folded shows it: one behaviour.
AUTO_FOLDED_SOONER = "persistent auto-fold before the third consecutive timeout (R22)"
# What a hand start is judged on before the reference takes the engine's (ReferenceGame.resync).
HAND_START = frozenset(("history", "handNumber", "tournament", "blinds", "buttonSeat", "smallBlindSeat", "bigBlindSeat"))
ACCEPTED = "an answer accepted where it must be refused"
REFUSED = "a valid answer refused"
# A second state() showing the runner's edits of the first: the engine hands out its own objects.
# One behaviour whatever field shows the edit (issue #38, item 3): one difference at the first.
HANDED_OUT = "a caller's edit of a state shows in the next state() (the engine's own objects handed out)"
# The driver's record after such a second state(): the game is not recorded further (engine_driver.js).
NOT_RECORDED = "not recorded further: a second state() differs"
OTHER_SEAT = "another seat asked to act than the one due"
EXHAUSTED = "the engine ran out of memory or stack inside a call"
CANNOT_FOLLOW = (HoldemError, ValueError, KeyError, TypeError, IndexError, AttributeError)


def follow_state(hand, state: object) -> bool:
    """Make ``hand`` (a reference.hand.Hand) stand where the engine's ``state`` says; False when it cannot."""
    try:
        hand.take(state)
    except CANNOT_FOLLOW:
        return False
    return True


def acting_clause(hand, seat: int) -> tuple[str, str]:
    """The clause and kind of the engine asking ``seat`` of ``hand`` (standing on the engine's state) to act."""
    order = "rules.heads-up-order" if sum(hand.in_hand) == 2 else "rules.multiway-order"
    if hand.must_act(seat):
        return order, OTHER_SEAT
    if hand.lone_solvent(seat):  # "A lone solvent seat only acts if it still owes chips."
        return "rules.lone-solvent", MUST_NOT_ACT
    return order, MUST_NOT_ACT


def _who_acts(state: dict) -> tuple:
    you = state.get("you")
    return state.get("street"), you.get("seat") if isinstance(you, dict) else None


def judge_state(out: Comparison, ref, hand, at: int, expected: dict, state: object, hand_start_judged: bool = False,
                root: str = "state") -> None:
    """One decision state of the engine judged against the reference's ``expected`` (its own next
    state after following the engine's previous one); ``hand_start_judged``: its HAND_START fields
    were judged before the reference was resynchronised to them; ``root``: the state's path (a
    holdem-sng-3-v4 step's ``steps[k].state``)."""
    if _identical(expected, state):
        return
    if not isinstance(state, dict):
        out.compare(hand, at, root, expected, state, STATE_ORDER)
        return

    def kept(where: str) -> bool:
        return not hand_start_judged or top_field(where, root) not in HAND_START

    if _auto_fold_differs(expected, state) and ref.follow_state(state):  # R26: who is auto-folded decides
        _auto_fold_difference(out, ref, hand, at, root, expected, state)
        _judge_derived(out, hand, at, expected, ref.state(), state, kept, root)
        return
    own, theirs = _who_acts(expected), _who_acts(state)
    if own != theirs and isinstance(theirs[1], int) and not isinstance(theirs[1], bool) \
            and ref.follow_state(state):
        clause, kind = acting_clause(ref.hand_now(), theirs[1])
        if own[0] != theirs[0]:
            out.add(hand, at, f"{root}.street", own[0], theirs[0], clause, kind=kind)
        else:
            out.add(hand, at, f"{root}.you.seat", own[1], theirs[1], clause, kind=kind)
        _judge_derived(out, hand, at, expected, ref.state(), state, kept, root)
        return
    clean = out.compare(hand, at, root, expected, state, STATE_ORDER,
                        only=lambda where: is_base(where, root) and kept(where))
    followed = ref.state() if not clean and ref.follow_state(state) else expected
    _judge_derived(out, hand, at, expected, followed, state, kept, root)


def _judge_derived(out: Comparison, hand, at: int, expected: dict, followed: dict, state: dict, kept,
                   root: str = "state") -> None:
    """The derived fields of the engine's ``state``: each wrong only when it is neither the
    reference's own (``expected``) nor what the engine's own other fields give (``followed``: the
    reference standing on the engine's state, derived_fields.from_own_fields): one wrong field, be
    it the base or the derived one, is one difference."""
    def judged(where: str) -> bool:
        inside = where[len(root):]
        return is_derived(where, root) and kept(where) and not same(_at(state, inside), _at(expected, inside))

    out.compare(hand, at, root, from_own_fields(followed, state), state, STATE_ORDER, only=judged)


def _auto_fold_difference(out: Comparison, ref, hand, at: int, root: str, expected: dict, state: dict) -> None:
    """Seats auto-folded otherwise (R26): one difference; where the engine auto-folded them after
    fewer consecutive timeouts than R22's count, that count's (timing.fallback), the reference then
    auto-folding at the engine's count (ReferenceGame.auto_folded_sooner); where the game's timeouts
    already differed, their consequence, counted under the first of them."""
    out.auto_folded_otherwise.update(x.get("id") for k, x in enumerate(state["seats"])
                                     if auto_folded(expected, k) != auto_folded(state, k) and isinstance(x, dict))
    sooner = ref.auto_folded_sooner(state)
    timeouts = next((d for d in out.firsts if d.clause == "timing.fallback"), None)
    if timeouts is not None:
        _count_under(out, timeouts)
    elif sooner:
        out.add(hand, at, f"{root}.seats", expected.get("seats"), state.get("seats"), "timing.fallback",
                kind=AUTO_FOLDED_SOONER)
    else:
        out.add(hand, at, f"{root}.seats", expected.get("seats"), state.get("seats"), "rules.elimination", kind=AUTO_FOLDED)


def _count_under(out: Comparison, cause) -> None:
    """One more difference of ``cause`` (a difference of ``out.firsts``), counted under it."""
    if cause is out.first:
        out.later_count += 1
    else:
        cause.counted += 1


def _auto_fold_cause(out: Comparison):
    """The game's first R26 auto-fold difference (a seat auto-folded otherwise, or the timeouts that
    auto-fold: timing.fallback), or None."""
    return next((d for d in out.firsts if d.kind == AUTO_FOLDED or d.clause == "timing.fallback"), None)


def hand_in_play(ref) -> "int | None":
    """The number of the hand the reference is playing (a game's first, or the one its steps began)."""
    hand = ref.hand_now()
    return None if hand is None or hand.done else hand.hand_number


def hand_start(out: Comparison, ref, at: int, state: object, standings: object, lost: bool,
               root: str = "state") -> "bool | None":
    """The engine's first decision of a hand (a game's, ``ref`` a trajectory.ReferenceGame): when it
    is not the reference's own next one (or the reference lost the engine), the hands before (their
    records), the hand number, the level, blinds and positions are judged from the reference's own
    next hand, then the reference is resynchronised to the engine's hand start, from which the rest
    is judged. True when resynchronised, None when there was no need, False when it cannot be."""
    if hasattr(ref, "follow_skipped") and ref.follow_skipped(state):
        lost = False  # the hands the engine played without a decision, played from its log() (trajectory.py)
    if not lost and hasattr(ref, "start_after_awards"):
        ref.start_after_awards(state)  # the hand before awarded otherwise: its positions from the engine's chips
    before = None if lost else ref.state()
    if not lost and before is None and isinstance(state, dict) and (cause := _auto_fold_cause(out)) is not None:
        # the reference's game ended with seats sitting out in an auto-fold the engine's does not
        # have (R26): that difference's consequence; the reference follows the engine's next hand
        # (and those seats end in the engine's own auto-fold: step_judge.auto_fold_followed)
        _count_under(out, cause)
        out.auto_folded_otherwise.update(ref.auto_folded_otherwise(state))
    elif not lost and (before is None or _identical(before, state)):
        return None
    if before is not None and isinstance(state, dict):
        auto_fold = _auto_fold_differs(before, state)  # holdem-sng-3-v4 (R26): who is dealt in auto-folded
        # a showdown that follows from the engine's own awards is the award's difference (awards.py)
        followed = {f"{root}.history[{k}].showdown" for k in ref.showdowns_followed(before.get("history") or [],
                                                                                   state.get("history"))}
        # the records of hands the reference could not follow to their end: counted under the
        # difference that lost them (Comparison.lost_records)
        lost = out.lost_records(f"{root}.history", before.get("history"), state.get("history"))
        if out.first is not None and any(differs for _, differs in lost):
            out.later_count += 1
        lost = [where for where, _ in lost]
        if not (auto_fold and before["handNumber"] != state.get("handNumber")):
            # (else the reference played other hands than the engine's, some without a decision, as
            # its seats sat out: their records, number and positions are the auto-fold's consequence)
            out.compare(before["handNumber"], at, root, before, state, STATE_ORDER,
                        only=lambda where: top_field(where, root) in HAND_START and where not in followed
                        and not inside(where, lost))
        if auto_fold:
            _auto_fold_difference(out, ref, before["handNumber"], at, root, before, state)
    if not ref.resync(state, standings):
        out.unfollowed(at, state.get("handNumber") if isinstance(state, dict) else None)
        return False
    out.differed = False
    return True


def replay_decisions(ref, trajectory: dict, plan, out: Comparison, offset: int) -> bool:
    """Compare every recorded decision and action, following the engine (the module's text); False
    when the reference cannot follow further. ``ref``: trajectory.ReferenceGame or
    hand_judge.ReferenceHand (a lone hand has no next hand to resynchronise to)."""
    decisions = trajectory.get("decisions") if isinstance(trajectory.get("decisions"), list) else []
    actions = trajectory.get("actions") if isinstance(trajectory.get("actions"), list) else []
    again = trajectory.get("again") if isinstance(trajectory.get("again"), list) else None
    # Second states after the runner's edits: every one (hands), or some (tournaments: `fresh`).
    fresh = {f.get("decision"): f.get("state") for f in trajectory.get("fresh") or [] if isinstance(f, dict)}
    # Standings read at a hand's first decision (tournaments, sng3v4: R43).
    in_play = {f.get("decision"): f.get("standings") for f in trajectory.get("standingsAt") or [] if isinstance(f, dict)}
    error = trajectory.get("error")
    lost = False  # the reference cannot follow the rest of the engine's hand
    engine_hand_before = hand_in_play(ref)  # (the steps before the decisions may have begun it)
    # After an action record that differs, the reference's next state had the engine done what the
    # reference did: an engine whose next state is that one misstated only the record (one difference).
    as_answered = None
    for k, state in enumerate(decisions):
        at = offset + k  # the decision index reported (sng3v4 steps come first)
        out.decisions = k + 1
        if negative_chips(out, at, state):
            return False
        engine_hand = state.get("handNumber") if isinstance(state, dict) else None
        resynchronised = False
        if engine_hand != engine_hand_before and isinstance(engine_hand, int) and not out.stop \
                and hasattr(ref, "resync"):
            started = hand_start(out, ref, at, state, trajectory.get("standings"), lost)
            if started is False:
                return False
            if started:
                lost, resynchronised = False, True
        engine_hand_before = engine_hand
        if lost:
            continue
        expected = ref.state()
        if expected is None:
            if not asked_after_the_end(out, ref, engine_hand, at, state):
                out.add(engine_hand, at, "state()", "null (the game is over)", state)
                lost = True
                out.unfollowed(at, engine_hand)
                continue
        elif as_answered is not None and count_differences(as_answered, state) < count_differences(expected, state):
            judge_state(out, ref, expected["handNumber"], at, as_answered, state, resynchronised)
            ref.follow_state(state)  # the record misstated: the hand played on as answered
        else:
            judge_state(out, ref, expected["handNumber"], at, expected, state, resynchronised)
        as_answered = None
        hand = engine_hand if expected is None else expected["handNumber"]
        if k in in_play and expected is not None and hasattr(ref, "standings_in_play"):
            out.compare(hand, at, "standings()", *ref.standings_in_play(in_play[k]))
        second = again[k] if again is not None and k < len(again) else fresh.get(k, state)
        if second is not state and not _identical(state, second):
            where, e, a = next(differences(state, second, "again", None, STATE_ORDER), ("again", state, second))
            out.add(hand, at, where, e, a, "state.fresh", kind=HANDED_OUT)
        try:
            answer = plan.answer(k, state)
        except (KeyError, TypeError, IndexError, AttributeError):
            out.add(hand, at, "state", expected, state, "state.fields")
            lost = True
            out.unfollowed(at, engine_hand)
            continue
        out.answers.append((hand, at, answer))
        want = ref.act(answer)
        if k >= len(actions):
            # an answer the engine threw on where a refusal is due, or as its own state refuses it
            # (that state's difference): no difference of its own
            if exhausted_at(out, hand, at, "action", want, error):
                pass
            elif not (error and (is_refusal(want) or allowed_by(state, answer) is False or _not_recorded(error))):
                out.add(hand, at, "action", want, {"error": _thrown(error)} if error else MISSING,
                        action_clause(answer, want, None))
            out.unfollowed(at, engine_hand)
            return False
        got = actions[k]
        if is_refusal(want) and is_refusal(got):  # any refusal passes where one is due (refusals.py)
            if note := refusal_note(f"decision {at}: the refusal of {json.dumps(answer, default=repr)}",
                                    code_of(got["threw"]), code_of(want["threw"])):
                out.notes.append(note)
            continue
        if is_refusal(want) != is_refusal(got) and isinstance(got, dict):
            # Accepted where the reference refuses, or refused where it accepts: as the engine's own
            # state allows it, the difference is that state's (judged above); else one difference.
            if allowed_by(state, answer) != (not is_refusal(got)):
                out.add(hand, at, "action", want, got, action_clause(answer, want, got),
                        kind=REFUSED if is_refusal(got) else ACCEPTED)
            as_answered = None
            lost = not (ref.follow_state(state) if is_refusal(got) else ref.follow_action(state, got))
            if lost:
                out.unfollowed(at, engine_hand)
            continue
        if _identical(want, got):
            continue
        # the engine's own action followed: as it recorded it, or (refused) the state it kept
        as_answered = None if is_refusal(got) else ref.state()
        followed = ref.follow_state(state) if is_refusal(got) else ref.follow_action(state, got)
        # the next state: the next decision's, or (the last one) the state the engine's run ended
        # waiting in (``after``: a lone hand's, hand_judge.views)
        nxt = decisions[k + 1] if k + 1 < len(decisions) else trajectory.get("after")
        # Only the record misstated (the next state is the one the answer gives, as judged there): the
        # record's own rule, "`amount` is additional chips committed by that action ... Fold/check
        # amounts are zero" (state.actions); else the engine applied the answer otherwise (its rule).
        # A record that cannot be followed (more chips than the seat has) is misstated when the next
        # state is exactly the answer's.
        misstated = as_answered is not None and isinstance(nxt, dict) and nxt.get("handNumber") == engine_hand \
            and (_identical(as_answered, nxt) if not followed else (record_followed := ref.state()) is not None
                 and count_differences(as_answered, nxt) < count_differences(record_followed, nxt))
        out.compare(hand, at, "action", want, got, clause="state.actions" if misstated else action_clause(answer, want, got))
        lost = not (followed or misstated)
        if lost:
            out.unfollowed(at, engine_hand)
    return not lost


def negative_chips(out: Comparison, at: int, state: object) -> bool:
    """After a difference, an engine state holding a seat with negative chips (an uncapped call's
    stack, say): a game the rules cannot reach, so the reference cannot follow it further -- its
    eliminations, positions and standings follow from those chips, the consequence of that
    difference, not failures of their own (issue #38). Noted; True when so."""
    seats = state.get("seats") if isinstance(state, dict) else None
    if out.first is None or not isinstance(seats, list):
        return False
    below = [x.get("id") for x in seats if isinstance(x, dict) and isinstance(x.get("stack"), (int, float))
             and not isinstance(x.get("stack"), bool) and x["stack"] < 0]
    if not below:
        return False
    out.notes.append(f"decision {at}: the engine's seat {', '.join(map(str, below))} holds negative chips: a game the "
                     "rules cannot reach, not followed further (what follows is the game's first difference's consequence)")
    out.unfollowed(at, state.get("handNumber"))
    return True


def exhausted_at(out: Comparison, hand, at: "int | None", where: str, expected: object, error: object) -> bool:
    """The engine's game recorded up to a call that exhausted memory or stack (the driver's
    ``error.exhausted``): after a difference, that difference's consequence (as a game that ended
    sooner), noted; else one difference of its own. False when ``error`` is no such thing."""
    if not (isinstance(error, dict) and error.get("exhausted") is True):
        return False
    if out.first is not None:
        out.later_count += 1
        out.notes.append(f"{_thrown(error)}: after the game's first difference, counted under it (its consequence)")
    else:
        out.add(hand, at, where, expected, {"error": _thrown(error)}, "determinism.engine", kind=EXHAUSTED)
    return True


def _not_recorded(error: object) -> bool:
    """Whether the driver stopped recording after a second state() that differs (judged there, HANDED_OUT)."""
    return isinstance(error, dict) and str(error.get("message", "")).startswith(NOT_RECORDED)


def allowed_by(state: object, answer: object) -> "bool | None":
    """Whether the engine's own decision ``state`` allows ``answer`` (its toCall, currentBet,
    minRaiseTo, maxRaiseTo, canCheck, canAllIn and lastFullRaise, by the contract's return-value
    rules); None when those fields cannot say."""
    try:
        legal = Legal(state["toCall"], state["currentBet"], state["minRaiseTo"], state["maxRaiseTo"], state["canCheck"],
                      state["canAllIn"], state["lastFullRaise"])
        kind, amount = parse_answer(answer)
    except IllegalAction:
        return False
    except (KeyError, TypeError):
        return None
    try:
        check_legal(kind, amount, legal)
    except IllegalAction:
        return False
    except (TypeError, AssertionError):
        return None
    return True


def count_differences(expected: object, state: object) -> int:
    return sum(1 for _ in differences(expected, state))


def asked_after_the_end(out: Comparison, ref, engine_hand, at: int, state: object) -> bool:
    """The engine asks a seat to act where the reference's hand is over (a hand that never ends):
    one difference naming the seat it waits on, and the reference follows (a lone hand); False
    when it cannot (a game: its next hand has begun)."""
    if not isinstance(state, dict) or not isinstance(state.get("you"), dict) or not ref.follow_state(state):
        return False
    seat = state["you"].get("seat")
    clause, kind = acting_clause(ref.hand_now(), seat)
    out.add(engine_hand, at, "state.you.seat", "(none: the hand is over)", seat, clause, kind=kind)
    return True
