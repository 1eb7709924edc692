"""The sng3v4 family's judge: the steps (timeouts, invalid answers, recovery) and the end of a
holdem-sng-3-v4 game (docs/INTERPRETING.md, sng3v4)."""
from __future__ import annotations

from collections import Counter

from .js_values import js_text
from . import sng3v4_text
from .diffs import is_number, show
from .families import FAMILY_RULESET
from .invariants import conserved, standings_chips
from .judged import NO_DECISIONS, Judged, game_judged, state_problem
from .refusals import code_of, refusal_note
from . import dealing
from .comparison import same
from .trajectory import Plan

# ---- sng3v4 (holdem-sng-3-v4) --------------------------------------------------------------------

V4_SEATS, V4_AUTO_FOLD_AFTER = 3, 3
V4_CLOCK_MS = {"bot": 15_000, "other": 45_000}  # the contract's action_clock_ms
V4_STANDING_FIELDS = ("id", "name", "place", "chips", "eliminatedInHand", "errors", "timeouts", "autoFolded")


def _is_recover(step: object) -> bool:
    return isinstance(step, dict) and "recover" in step


def _is_late(step: object, state: object) -> bool:
    """A timeout step, or an answer at or after the clock of the state it answers (INTERPRETING.md)."""
    if step == {"timeout": True}:
        return True
    limit = state.get("timeLimitMs") if isinstance(state, dict) else None
    return isinstance(step, dict) and "atMs" in step and is_number(limit) and step["atMs"] >= limit


def _step_views(outcomes: list, expected: list, notes: list[str]) -> list:
    """The step outcomes as compared: a refusal by its field and seat (its ``reason`` is the
    engine's own words); an invalid answer's rejection code as the vectors give it when the engine
    reports another one (a note, as in legality)."""
    views = []
    for k, outcome in enumerate(outcomes):
        if isinstance(outcome, dict) and "refused" in outcome:
            outcome = {key: outcome.get(key) for key in ("refused", "seat")}
            want = expected[k] if k < len(expected) and isinstance(expected[k], dict) else {}
            if "refused" in want:  # any refusal passes where one is due; its field is a note (refusals.py)
                if note := refusal_note(f"steps[{k}]: recover({want.get('seat')})", code_of(outcome, "refused"),
                                        want["refused"], "a field"):
                    notes.append(note)
                outcome["refused"] = want["refused"]
        elif k < len(expected) and isinstance(outcome, dict) and "error" in outcome:
            want, got = expected[k].get("error"), outcome["error"]
            # (a code, not "": falsy, it reads as no error at all)
            if isinstance(want, str) and want != "late" and isinstance(got, str) and got and got not in (want, "late"):
                notes.append(f"steps[{k}]: error code {js_text(got)}; the vectors give {js_text(want)} (reported, not failed)")
                outcome = {**outcome, "error": want}
        views.append(outcome)
    return views


class _V4Seats:
    """What the contract makes of the steps, seat by seat (ids): explicit timeouts, invalid answers
    (R22 counts them as timeouts, so after one the consecutive count is unknown), persistent
    auto-fold as ``[since, until]`` hand intervals (``until`` None while it lasts), and accepted
    recoveries waiting for the end of hand ``pending[seat]`` (None until a state shows the hand)."""

    def __init__(self) -> None:
        self.timeouts: Counter = Counter()
        self.invalid: Counter = Counter()
        self.consecutive: dict[str, int | None] = {}
        self.folded: dict[str, list[list]] = {}
        self.pending: dict[str, int | None] = {}
        self.last_hand = 0  # the hand of the latest state the steps showed

    def auto_folded(self, seat: str) -> bool:
        return bool(self.folded.get(seat)) and self.folded[seat][-1][1] is None

    def hand_seen(self, number: int) -> None:
        """A state of hand ``number``: a waiting recovery learns its hand, or took effect before this one."""
        self.last_hand = number
        for seat, until in list(self.pending.items()):
            if until is None:
                self.pending[seat] = number
            elif number > until:
                self.recovered(seat)

    def recovered(self, seat: str) -> None:
        self.folded[seat][-1][1] = self.pending.pop(seat)
        self.consecutive[seat] = 0


def _sng3v4_steps_problem(game: dict, steps: list, outcomes: list, expected: list, seats: _V4Seats) -> str | None:
    """What the contract decides about the steps, whatever the rulings: the clock (15,000 ms, or
    45,000 ms with a human or agent); a timeout checks if legal, else folds, and the third
    consecutive one folds and sets persistent auto-fold (a valid action resets the count); a seat
    in auto-fold is not asked to act; recovery is accepted only from auto-fold and takes effect at
    the end of the hand in progress. Fills ``seats``. A state equal to the vector's needs no schema check."""
    controllers = game.get("controllers") or ["bot"] * V4_SEATS
    clock = V4_CLOCK_MS["bot"] if all(c == "bot" for c in controllers) else V4_CLOCK_MS["other"]
    if len(outcomes) != len(steps):
        return f"{len(outcomes)} step outcomes for {len(steps)} steps"
    for k, (step, outcome) in enumerate(zip(steps, outcomes)):
        where = f"steps[{k}]"
        if not isinstance(outcome, dict):
            return f"{where} is {js_text(outcome)}, not an outcome"
        if _is_recover(step):
            asked = step["recover"]
            if not (isinstance(asked, int) and not isinstance(asked, bool) and 0 <= asked < V4_SEATS):
                if "refused" not in outcome:  # no seat (3, the string "0"): nothing to recover
                    return f"{where}: recovery of {show(asked)}, which is no seat, was not refused"
                continue
            seat = f"s{asked + 1}"
            if "recovered" in outcome:
                if not seats.auto_folded(seat):
                    return f"{where}: recovery of seat {step['recover']}, which is not in auto-fold, was accepted"
                seats.pending.setdefault(seat, None)
            elif seat in seats.pending and seats.auto_folded(seat):
                # A queued recovery keeps the seat in auto-fold (with chips) until the boundary.
                return f"{where}: recovery of seat {step['recover']} was refused while its earlier request waits " \
                       f"for the end of the hand (it is still in auto-fold)"
            elif "refused" not in outcome:
                return f"{where}: expected {{recovered}} or a refusal, got {show(outcome)}"
            continue
        state, action = outcome.get("state"), outcome.get("action")
        known = k < len(expected) and isinstance(expected[k], dict) and same(state, expected[k].get("state"))
        if not known and (problem := state_problem(state, f"{where}.state")):
            return problem
        if state["timeLimitMs"] != clock and "timeLimitMs" not in game["options"]:
            return f"{where}.state.timeLimitMs is {state['timeLimitMs']}; the clock of this table is {clock} ms"
        if not (isinstance(action, dict) and isinstance(action.get("type"), str)):
            return f"{where}.action is {js_text(action)}, not an action"
        seat, kind, number = state["you"]["id"], action["type"], state["handNumber"]
        seats.hand_seen(number)
        if seats.auto_folded(seat):
            return f"{where}: {seat} is asked to act in hand {number}, in persistent auto-fold since hand " \
                   f"{seats.folded[seat][-1][0]}" + (" (a recovery takes effect at the end of the hand in progress)"
                                                      if seat in seats.pending else "")
        if not _is_late(step, state):
            if outcome.get("error") is None:
                seats.consecutive[seat] = 0  # a valid voluntary action
            else:
                seats.invalid[seat] += 1
                seats.consecutive[seat] = None
            continue
        seats.timeouts[seat] += 1
        if outcome.get("error") != "late":
            return f"{where}: a timeout's error is {js_text(outcome.get('error'))}, expected 'late'"
        if kind not in ("check", "fold") or (kind == "check" and not state["canCheck"]):
            return f"{where}: a timeout {kind}s; it may only check (when legal) or fold"
        count = seats.consecutive.get(seat, 0)
        if count is None:
            continue
        seats.consecutive[seat] = count = count + 1
        if count >= V4_AUTO_FOLD_AFTER:
            if kind != "fold":
                return f"{where}: {seat}'s consecutive timeout {count} {kind}s; it must fold (persistent auto-fold)"
            seats.folded.setdefault(seat, []).append([number, None])
        elif state["canCheck"] and kind != "check":
            return f"{where}: {seat}'s consecutive timeout {count} folds; it must check when checking is legal"
    return None


def _sng3v4_end_problem(game: dict, seats: _V4Seats, log: object, standings: object) -> str | None:
    """The end of a v4 game: every chip accounted for, one participant with chips and places 1..3
    (no hand cap), the timeouts and auto-fold the steps imply, no pot won in auto-fold, the button
    and blinds as v4's text moves them, and no showdown cards of a seat that won nothing nor any
    card the winner's hand does not need."""
    if not (isinstance(log, list) and all(isinstance(e, dict) for e in log)):
        return "log() is not a list of hand records"
    if not (isinstance(standings, list) and len(standings) == V4_SEATS and all(isinstance(s, dict) for s in standings)):
        return f"standings() is not {V4_SEATS} entries"
    chips = standings_chips(standings)
    if problem := conserved(game, chips):
        return problem
    # The log is every hand played, in order, each ending with every chip in play, the last as the
    # standings end (a ruling may change who sits where, never drop or misstate a hand).
    numbers = [e.get("handNumber") for e in log]
    if numbers != list(range(1, len(log) + 1)):
        return f"log() hand numbers are {show(numbers)}: expected every hand from 1 in order"
    for entry in log:
        if problem := conserved(game, entry.get("chips")):
            return f"log() hand {entry['handNumber']}: {problem.replace('standings', 'chips after the hand')}"
    if log and log[-1]["chips"] != chips:
        return f"the last hand ends with chips {log[-1]['chips']}, the standings with {chips}"
    if len(log) < seats.last_hand:
        return f"log() has {len(log)} hands; the steps were played in hand {seats.last_hand}"
    if problem := sng3v4_text.button_problem(log):
        return problem
    out_in = [s.get("eliminatedInHand") for s in standings if isinstance(s.get("eliminatedInHand"), int)]
    if out_in and max(out_in) > len(log):
        return f"a seat was eliminated in hand {max(out_in)}; log() has {len(log)} hands"
    if "maxHands" not in game["options"]:  # no hand cap: the game ends with one participant
        if sorted(chips)[-2] != 0:
            return f"the game ended with chips {chips}: exactly one participant must have chips"
        if sorted(s.get("place") for s in standings if isinstance(s.get("place"), int)) != [1, 2, 3]:
            return f"places are {[s.get('place') for s in standings]}, expected 1, 2 and 3"
    last = max((e.get("handNumber") for e in log if isinstance(e.get("handNumber"), int)), default=0)
    for seat, until in list(seats.pending.items()):
        if until is None:
            # Requested after the last step's state: the hand then in progress is that state's
            # hand, or the next one if the step's action ended it; take the later (a bound).
            seats.pending[seat] = until = seats.last_hand + 1
        if last > until:  # the strategies played past the hand of the request
            seats.recovered(seat)
    for s in standings:
        seat = s.get("id")
        explicit, invalid = seats.timeouts[seat], seats.invalid[seat]
        if not (isinstance(s.get("timeouts"), int) and explicit <= s["timeouts"] <= explicit + invalid):
            return f"{seat}: timeouts is {js_text(s.get('timeouts'))}; the steps timed it out {explicit} times" + \
                (f" (and gave {invalid} invalid answers, R22)" if invalid else "")
        if invalid or seat in seats.pending:
            continue
        if s.get("autoFolded") is not seats.auto_folded(seat):
            return f"{seat}: autoFolded is {js_text(s.get('autoFolded'))}, expected {js_text(seats.auto_folded(seat))} " + \
                ("(persistent auto-fold since hand %d)" % seats.folded[seat][-1][0] if seats.auto_folded(seat)
                 else "(never three consecutive timeouts, or recovered)")
    for entry in log:
        result = entry.get("result") if isinstance(entry.get("result"), dict) else {}
        winners = {w.get("id") for w in result.get("winners", []) if isinstance(w, dict)}
        number = entry.get("handNumber")
        for seat, intervals in seats.folded.items():
            for since, until in intervals:
                if seat in winners and isinstance(number, int) and since <= number and (until is None or number <= until):
                    return f"hand {number}: {seat} wins chips in persistent auto-fold (since hand {since})"
        for shown in result.get("showdown", []):
            if not isinstance(shown, dict) or shown.get("id") not in winners:
                return f"hand {number}: the showdown shows {js_text(shown)}, which won nothing: only cards needed to " \
                       "establish an awarded hand are public"
            if problem := sng3v4_text.reveal_problem(number, shown, result.get("board")):
                return problem
    return None


def sng3v4_problem(test: dict, r: dict) -> str | None:
    """Why an sng3v4 outcome (``{steps, log, standings}``) breaks the v4 contract, or None when it
    is well formed: a different well-formed outcome is divergent on the vector's rulings."""
    game, steps = test["input"]["game"], test["input"]["steps"]
    seats = _V4Seats()
    outcomes = r.get("steps") if isinstance(r.get("steps"), list) else []
    return (_sng3v4_steps_problem(game, steps, outcomes, test["expected"]["steps"], seats)
            or _sng3v4_end_problem(game, seats, r.get("log"), r.get("standings")))


def judge_sng3v4(test: dict, r: dict) -> Judged:
    """The steps, then every decision of the strategies, step by step against the reference
    under holdem-sng-3-v4; an outcome that breaks the v4 contract's ruling-independent rules
    (sng3v4_problem) is not searched for a ruling alternative."""
    i, e = test["input"], test["expected"]
    notes: list[str] = []
    if isinstance(r.get("steps"), list):
        r = {**r, "steps": _step_views(r["steps"], e["steps"], notes)}
    game = i["game"]
    spec = {**game, "options": {**game["options"], "ruleset": FAMILY_RULESET["sng3v4"]}}
    j = game_judged(dealing.judge_game(spec, r, Plan.of(i), family="sng3v4", with_log=True, v4_steps=i["steps"],
                                standing_fields=V4_STANDING_FIELDS, broken=lambda: sng3v4_problem(test, r)))
    j.notes = notes + j.notes + ([NO_DECISIONS] if "decisions" not in r else [])
    return j
