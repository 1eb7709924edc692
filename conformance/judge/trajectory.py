"""A game's trajectory: what an engine did at every step of a game, and what the reference does
at the same steps (docs/INTERPRETING.md, Step judging).

An engine's trajectory is the outcome of a ``hands`` or ``tournaments`` run
(docs/engine-protocol.md): ``decisions`` (every decision state, recorded before the runner's
edits), ``actions`` (the action record ``act`` returned for each), ``again`` (a second ``state()``
after the edits; hands) or ``fresh`` (``{decision, state}``: a second ``state()`` at some
decisions; tournaments),
``over``, ``history`` (``history()``), ``log`` (``log()``, tournaments) and ``standings``.
The runner edits every state it receives at every depth (docs/INTERPRETING.md): an edit that
reaches the engine shows in a later state, ``history``, ``log`` or ``standings``.

The answers are a :class:`Plan`: a vector's script, then seat strategies, each applied to the
*engine's* state, so that after a divergence the reference is still fed the engine's answers.
"""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass

from reference.errors import HoldemError, IllegalAction, OptionError
from reference.state import HISTORY_LIMIT

from conformance.vectors.gamespec import STRATEGIES, answer as decode_answer, tournament
from . import awards, following
from .field_clauses import auto_folded

# The standings fields every family compares (docs/engine-protocol.md, tournaments); `errors`: the
# contract counts one per invalid or late answer (timing.fallback).
STANDING_FIELDS = ("id", "place", "chips", "eliminatedInHand", "errors")
TRAJECTORY_SHOWN = 30  # decision states of a failing game kept for the replayer, up to the divergence
LOG_KEYS = ("handNumber", "level", "blinds", "buttonSeat", "smallBlindSeat", "bigBlindSeat", "actions", "eliminated")


@dataclass(frozen=True)
class Plan:
    """How each decision is answered: ``script[k]`` for the first decisions, then
    ``strategies[state.you.seat]`` (INTERPRETING.md's seat strategies)."""

    script: tuple = ()
    strategies: tuple = ()

    @classmethod
    def of(cls, vector_input: dict) -> "Plan":
        return cls(tuple(decode_answer(a) for a in vector_input.get("script", ())),
                   tuple(vector_input.get("strategies", ())))

    def answer(self, k: int, state: object) -> object:
        """The answer to decision ``k`` given the engine's ``state``; KeyError/TypeError when a
        strategy cannot read that state (the engine's state is then already judged wrong)."""
        if k < len(self.script):
            return self.script[k]
        return STRATEGIES[self.strategies[state["you"]["seat"]]](state)


def expand(trajectory: dict) -> dict:
    """The trajectory with each decision state whole: a ``histories`` list (``{decision, present,
    history}`` at each decision where the state's history changed; the JS driver and a --cmd
    engine may record histories so, docs/engine-protocol.md) is put back into the states."""
    histories = trajectory.get("histories")
    decisions = trajectory.get("decisions")
    if not (isinstance(histories, list) and isinstance(decisions, list)):
        return trajectory
    changes = {h["decision"]: h for h in histories if isinstance(h, dict) and isinstance(h.get("decision"), int)}
    states, current = [], None
    for k, state in enumerate(decisions):
        current = changes.get(k, current)
        if isinstance(state, dict) and current is not None and current.get("present", True) and "history" not in state:
            state = {**state, "history": current.get("history")}
        states.append(state)
    return {**trajectory, "decisions": states}


def log_record(record: dict) -> dict:
    """The engine API's ``log()`` entry for one of the reference's hand records."""
    return {**{k: record[k] for k in LOG_KEYS}, "result": record["history"], "chips": record["endStacks"]}


def standings_view(standings: object, fields: tuple = STANDING_FIELDS) -> object:
    """Standings as compared: only ``fields`` of each entry."""
    if isinstance(standings, list) and all(isinstance(s, dict) for s in standings):
        return [{k: s[k] for k in fields if k in s} for s in standings]
    return standings


def attempt(act, answer: object) -> dict:
    """``act(answer)``'s action record, or ``{"threw": code}`` when the answer is illegal (the
    exception's name when the game or hand is over)."""
    try:
        return act(answer)
    except IllegalAction as exc:
        return {"threw": exc.code}
    except HoldemError as exc:
        return {"threw": type(exc).__name__}


_PLAIN = (str, int, float, bool, type(None))


def _copied(value: object) -> object:
    """``copy.deepcopy`` of an engine's JSON-like value (dicts and lists of plain values: several
    times faster); anything else is deep-copied."""
    kind = type(value)
    if kind is dict:
        return {k: _copied(v) for k, v in value.items()}
    if kind is list:
        return [_copied(v) for v in value]
    return value if kind in _PLAIN else copy.deepcopy(value)


class ReferenceGame:
    """The reference playing the vector's game step by step (same cards, same answers)."""

    def __init__(self, spec: dict, log: object = None, standings: object = None) -> None:
        self.t = tournament(spec)
        self._history: tuple | None = None  # (t.history, its length, its public copy)
        # the engine's own end of the game (its ``log()`` and ``standings``): the hands it played
        # without a decision state are followed from it (:meth:`follow_skipped`)
        self._log, self._standings = awards.by_hand(log), standings
        self._decided = 0  # the engine's latest hand with a decision state (follow_skipped)

    def state(self) -> dict | None:
        """The reference's decision state (``t.decision_state()``), its ``history`` shared by the
        states of a hand (the judge only reads them; the list is made again when a hand ends or a
        resynchronisation replaces the records)."""
        state = self.t.decision_state(history=False)
        if state is None:
            return None
        records = self.t.history
        if self._history is None or self._history[0] is not records or self._history[1] != len(records):
            self._history = (records, len(records), self.t.public_history(HISTORY_LIMIT))
        state["history"] = self._history[2]
        return state

    def positions(self) -> dict:
        """Each hand's (button, seats in the hand) as the reference played it."""
        out = {r["handNumber"]: (r["buttonSeat"], [c > 0 for c in r["startStacks"]]) for r in self.t.hands}
        hand = self.t.hand
        if hand is not None and not self.t.over:
            out[hand.hand_number] = (hand.button, list(hand.in_hand))
        return out

    def resync(self, state: dict, standings: object = None) -> bool:
        """Stand where the engine stands at its first decision of a hand (issue #23, item 2): its
        hand number, each seat's chips at the hand's start (stack plus what it has put in), its
        button and blinds seats, the seats it has out (eliminated in the hand and at the place its
        ``standings`` give) and its public history; the reference deals and plays the hand by its
        own rules from there (its blinds and auto-folded seats the engine's too). False when that state
        cannot start a hand."""
        try:
            seats = state["seats"]
            out = [bool(x["out"]) for x in seats]
            stacks = [x["stack"] + x["total"] for x in seats]
            hand = self.t.hand
            if state.get("street") == "preflop" and hand is not None and hand.hand_number == state.get("handNumber") \
                    and len(seats) == len(hand.start_stacks):
                # before the flop a seat's total is its street bet (nothing was committed before):
                # where the engine's total alone disagrees with this table's chips, its bet is taken
                # (the total's difference is judged as such, not carried into every later hand)
                stacks = [c if c == own or x["stack"] + x["bet"] != own else own
                          for c, own, x in zip(stacks, hand.start_stacks, seats)]
            positions = (state["buttonSeat"], state["smallBlindSeat"], state["bigBlindSeat"])
            number = state["handNumber"]
            if not (len(seats) == self.t.n and all(isinstance(c, int) and not isinstance(c, bool) and c >= 0
                                                   for c in stacks) and isinstance(number, int) and number >= 1):
                return False
            eliminated = self._eliminated(standings)
            history = state.get("history")
            if isinstance(history, list) and all(isinstance(e, dict) and isinstance(e.get("handNumber"), int)
                                                 and e["handNumber"] < number for e in history):
                # (records of hands numbered from this one on: the engine numbers its records
                # otherwise, judged as such; this table keeps its own records, aligned with its hands)
                # the engine's records in the reference's own order (oldest first): an engine listing
                # them otherwise was judged on that (comparison.record_differences), not again here
                history = sorted(history, key=lambda e: e["handNumber"])
                first = history[0]["handNumber"] if history else number
                history = [e for e in self.t.history if e["handNumber"] < first] + _copied(history)
            else:
                history = None
            blinds = state.get("blinds")
            blinds = tuple(blinds) if isinstance(blinds, list) and len(blinds) == 2 else None
            self.t.resume(number, stacks, positions, out, history, eliminated, blinds,
                          [auto_folded(state, k) for k in range(self.t.n)])
        except (HoldemError, KeyError, TypeError, IndexError, ValueError, AttributeError):
            return False
        return True

    def _eliminated(self, standings: object) -> dict:
        """seat -> (eliminatedInHand, place) of the engine's ``standings`` (its seats out)."""
        eliminated = {}
        for x in standings if isinstance(standings, list) else ():
            if isinstance(x, dict) and isinstance(x.get("eliminatedInHand"), int) and x.get("id") in self.t.ids:
                eliminated[self.t.ids.index(x["id"])] = (x["eliminatedInHand"], x.get("place"))
        return eliminated

    def follow_skipped(self, state: object) -> bool:
        """Before the engine's first decision of a hand: the hands it played since its last decision
        state without one (all in on the blinds, say) where this table did not play them as it did --
        it never reached one (lost in the hand before), or it played one from another award of the
        hand before -- are played from the engine's own ``log()`` end of the hand before (its chips,
        positions and blinds). So their records are judged from the engine's own stacks, that
        earlier difference is not counted again in each of them, and this table's next hand is
        the engine's (issue #38, item 1). True when it played one."""
        number = state.get("handNumber") if isinstance(state, dict) else None
        if not (isinstance(number, int) and not isinstance(number, bool)):
            return False
        start, self._decided = self._decided + 1, max(self._decided, number)
        theirs, played = self._log, False
        for m in range(max(start, 2), number):
            ours = awards.by_hand(self.t.hands)
            if m not in theirs or m - 1 not in theirs:
                continue
            if m in ours and not (m - 1 in ours and awards.awards_differ(ours[m - 1].get("history"),
                                                                           theirs[m - 1].get("result"))):
                continue
            if not self._play_from_log(m):
                return played
            played = True
        return played

    def start_after_awards(self, state: object) -> bool:
        """At the engine's first decision of hand n (``state``), where this table awarded hand n - 1
        otherwise than the engine's record of it (its state's history, else its ``log()``): this
        table starts hand n again from the engine's chips at the end of that hand -- the seats out
        that leaves, then the positions the rules give after this table's own hand n - 1 (R16: the
        button moving on, the heads-up transition) -- so the award's difference is not counted again
        as another button (issue #38, item 1), while positions the rules do not give still differ.
        True when it did."""
        try:
            number, seats = state["handNumber"], state["seats"]
            ours = awards.by_hand(self.t.hands).get(number - 1)
            # the engine's record of that hand: its log()'s, else its state's history where that numbers
            # its records as the hands before this one (one numbered otherwise is judged as such)
            records = awards.by_hand(state.get("history"))
            theirs = (self._log.get(number - 1) or {}).get("result") \
                or (records.get(number - 1) if max(records, default=0) < number else None)
            chips = [x["stack"] + x["total"] for x in seats]
            if ours is None or not awards.awards_differ(ours["history"], theirs) or len(chips) != self.t.n \
                    or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in chips):
                return False
            out = [c == 0 for c in chips]
            self.t.resume(number, chips, self.t.positions_after(ours, out), out, None,
                          self._eliminated(self._standings))
        except (HoldemError, KeyError, TypeError, IndexError, ValueError, AttributeError, AssertionError):
            return False
        return True

    def _play_from_log(self, m: int) -> bool:
        """Hand ``m`` played from the engine's ``log()`` end of hand ``m - 1``, as far as it goes
        without a decision; False when this table cannot start it so or asks for a decision in it
        (the engine asked none: its next decision state is judged against that)."""
        return self._resume_from_log(m) and (self.t.over or self.t.hand is None or self.t.hand.hand_number != m)

    def _resume_from_log(self, m: int) -> bool:
        """This table started at hand ``m`` as the engine's ``log()`` ends hand ``m - 1`` (its chips)
        and starts hand ``m`` (its positions and blinds); False when it cannot be."""
        try:
            chips, record = self._log[m - 1]["chips"], self._log[m]
            blinds = record.get("blinds")
            self.t.resume(m, chips, (record["buttonSeat"], record["smallBlindSeat"], record["bigBlindSeat"]),
                          [c == 0 for c in chips], None, self._eliminated(self._standings),
                          tuple(blinds) if isinstance(blinds, list) and len(blinds) == 2 else None)
        except (HoldemError, KeyError, TypeError, IndexError, ValueError, AttributeError):
            return False
        return True

    def follow_ending(self, plan: Plan, answered: int, after: int) -> None:
        """The hands the engine played after its last decision (in hand ``after``), where no decision
        state resynchronises: after a hand whose award in its ``log()`` differs from this table's, the
        next is played again from the engine's own end of that hand (its chips, positions and
        blinds; ``plan`` answering from decision ``answered``), so each award is judged from the
        engine's own stacks and that difference is not counted again (issue #38, item 1)."""
        theirs = self._log
        number = after
        while True:
            ours = awards.by_hand(self.t.hands)
            differs = [n for n in sorted(ours) if n >= number and n + 1 in theirs and n in theirs
                       and awards.awards_differ(ours[n].get("history"), theirs[n].get("result"))]
            if not differs:
                return
            n = differs[0]
            if not self._resume_from_log(n + 1):
                return
            try:
                self.play_out(plan, answered)
            except (HoldemError, KeyError, TypeError, IndexError, ValueError, AttributeError):
                return
            number = n + 1

    def _auto_fold_differs(self, state: object) -> list[int]:
        """The seats in play in the engine's decision ``state`` whose holdem-sng-3-v4 auto-fold (R26)
        differs from this table's (there: folded without a fold of its own)."""
        seats = state.get("seats") if isinstance(state, dict) else None
        if not (isinstance(seats, list) and len(seats) == self.t.n):
            return []
        return [k for k in range(self.t.n) if isinstance(seats[k], dict) and not seats[k].get("out")
                and self.t.auto_folded[k] != auto_folded(state, k)]

    def auto_folded_otherwise(self, state: object) -> set:
        """The ids of the seats whose auto-fold in this table differs from the engine's ``state``."""
        return {self.t.ids[k] for k in self._auto_fold_differs(state)}

    def showdowns_followed(self, records: list, theirs: object) -> list[int]:
        """The places in this table's public hand ``records`` whose showdown follows from the
        engine's own awards in its records ``theirs`` (conformance.judge.awards)."""
        return awards.showdowns_followed(records, theirs, self.t.hands, self.t.ids, self.t.ruleset)

    def log_followed(self, log: list, theirs: object) -> tuple[list, list[int]]:
        """This table's ``log()`` records judged from the engine's own awards in its ``log()``
        ``theirs`` (their chips), and the places whose showdown follows from them (awards.py)."""
        return awards.log_followed(log, theirs, self.t.hands, self.t.ids, self.t.ruleset)

    def act(self, answer: object) -> dict:
        """The action record, or ``{"threw": code}`` when the answer is illegal here."""
        return attempt(self.t.act, answer)

    def standings_in_play(self, standings: object) -> tuple:
        """(the reference's, the engine's ``standings``) as compared while a hand is in play: place
        and eliminatedInHand null for a seat still playing, chips at the hand's start (R43)."""
        return standings_view(self.t.standings()), standings_view(standings)

    # Following the engine inside a hand (conformance.judge.following).
    def hand_now(self):
        return self.t.hand

    def _same_hand(self, state: object) -> bool:
        return not self.t.over and self.t.hand is not None and isinstance(state, dict) \
            and state.get("handNumber") == self.t.hand.hand_number

    def follow_state(self, state: object) -> bool:
        """Stand where the engine's decision ``state`` of the hand in play says (reference.hand.Hand.take)."""
        return self._same_hand(state) and following.follow_state(self.t.hand, state)

    def follow_action(self, state: object, record: object) -> bool:
        """From the engine's ``state``, its action ``record`` applied as it recorded it."""
        if not self.follow_state(state):
            return False
        try:
            self.t.apply_record(record)
        except following.CANNOT_FOLLOW:
            return False
        return True

    def auto_fold_count(self, state: object, record: object) -> "int | None":
        """The engine's count of consecutive timeouts that auto-folds, where its timeout ``record``
        from its ``state`` shows one below this table's: a fold where its state lets the seat check
        is the fold holdem-sng-3-v4 makes only on setting persistent auto-fold (R22), at this
        table's count of the seat's consecutive timeouts (this timeout's included); else None."""
        try:
            seat = state["you"]["seat"]
            limit = self.t.ruleset.timeouts_to_auto_fold
            if record["type"] == "fold" and state["canCheck"] is True and limit \
                    and self._same_hand(state) and not self.t.auto_folded[seat]:
                count = self.t.consecutive_timeouts[seat]
                return count if 0 < count < limit else None
        except (KeyError, TypeError, IndexError):
            pass
        return None

    def follow_timeout(self, state: object, record: object) -> None:
        """Before the engine's timeout ``record`` from its ``state`` is followed: where it auto-folds
        sooner (:meth:`auto_fold_count`), the seat's auto-fold and the engine's count follow it."""
        count = self.auto_fold_count(state, record)
        if count is not None:
            self._auto_fold_at(state["you"]["seat"], count)

    def auto_folded_sooner(self, state: object) -> bool:
        """Whether the engine's decision ``state`` shows in persistent auto-fold (R26) seats that
        this table has not auto-folded, each after fewer consecutive timeouts than this table's
        count (R22), and no other auto-fold differs: then the engine's count (the smallest of
        theirs) is taken as this table's and those seats auto-folded (issue #38: the reference
        follows the engine's own timeout handling)."""
        limit = self.t.ruleset.timeouts_to_auto_fold
        differing = self._auto_fold_differs(state)
        if not (limit and differing) or any(self.t.auto_folded[k] or not 0 < self.t.consecutive_timeouts[k] < limit
                                            for k in differing):
            return False
        count = min(self.t.consecutive_timeouts[k] for k in differing)
        for k in differing:
            self._auto_fold_at(k, count)
        return True

    def _auto_fold_at(self, seat: int, count: int) -> None:
        """``seat`` in persistent auto-fold as the engine put it there, after ``count`` consecutive
        timeouts: that count taken as this table's, so its later timeouts and invalid answers, a
        recovery among them, are judged from there (issue #38)."""
        self.t.ruleset = dataclasses.replace(self.t.ruleset, timeouts_to_auto_fold=count)
        self.t.auto_folded[seat] = True
        self.t.consecutive_timeouts[seat] = count

    def step(self, step: object, clock: object = None) -> dict:
        """One holdem-sng-3-v4 step (INTERPRETING.md, sng3v4) as the engine reports it: a recovery
        request, a timeout (or an answer at or after the clock) or a timely answer. ``clock``: the
        engine's own ``timeLimitMs`` when its state is followed (a clock that differs is its
        state's difference; the step is judged on that clock, issue #38), else the reference's."""
        if isinstance(step, dict) and "recover" in step:
            try:
                self.t.request_recovery(step["recover"])
            except OptionError as exc:
                return {"refused": exc.field, "seat": step["recover"]}
            return {"recovered": step["recover"]}
        state = self.state()
        if state is None:
            return {"error": "the game is over"}
        if not (isinstance(clock, int) and not isinstance(clock, bool) and clock > 0):
            clock = state["timeLimitMs"]
        if step == {"timeout": True} or (isinstance(step, dict) and "atMs" in step and step["atMs"] >= clock):
            return {"state": state, "action": self.t.timeout(), "error": "late"}
        action, error = self.t.submit(decode_answer(step["answer"] if isinstance(step, dict) and "atMs" in step else step))
        return {"state": state, "action": action, "error": error}

    def play_out(self, plan: Plan, k: int = 0) -> None:
        """Answer every remaining decision as ``plan`` answers the reference's own states (the first
        as its decision ``k``)."""
        while (state := self.state()) is not None:
            self.t.act(plan.answer(k, state))
            k += 1

    def ending(self, with_log: bool, fields: tuple = STANDING_FIELDS) -> dict:
        end = {"history": self.t.public_history(), "standings": standings_view(self.t.standings(), fields),
               "over": self.t.over}
        if with_log:
            end["log"] = [log_record(r) for r in self.t.hands]
        return end


def legality_views(spec: dict, prefix: list, answer: object) -> dict:
    """What the reference does with a legality vector's game (docs/engine-protocol.md, legality):
    ``state`` after the prefix, ``act`` (``{"action"}`` or ``"throws"``), ``stateAfter`` a
    refused act, and the ``fallback`` a refused answer gets from ``submit``."""
    ref = legality_game(spec, prefix)
    answer = decode_answer(answer)
    # "_game": the reference standing at ``state`` again, to follow the engine's own state there
    # (step_judge.compare_views: following.judge_state)
    view = {"state": ref.state(), "_game": lambda: legality_game(spec, prefix)}
    act = ref.act(answer)
    if "threw" in act:
        view["act"] = "throws"
        view["stateAfter"] = ref.state()
        view["fallback"] = legality_game(spec, prefix).t.submit(answer)[0]
    else:
        view["act"] = {"action": act}
    return view


def legality_game(spec: dict, prefix: list) -> ReferenceGame:
    """The reference's game of ``spec`` after the ``prefix`` answers."""
    ref = ReferenceGame(spec)
    for a in prefix:
        ref.t.act(decode_answer(a))
    return ref


def divergence_offset(family: str, vector_input: dict) -> int:
    """The index of the first recorded decision: the steps come first where a game has them (sng3v4,
    and a hands vector's fuzz steps: step_judge numbers its decisions after them)."""
    return len(vector_input.get("steps") or ()) if family in ("sng3v4", "hands") else 0


def failing_game(family: str, vector_input: dict, outcome: object, first: dict | None) -> dict | None:
    """The engine's decision states up to and including the first divergence (the last
    TRAJECTORY_SHOWN of them), for the replayer: ``{"states", "step", "decision"}`` where ``step``
    is the divergent state's index in ``states`` (None: the divergence comes after the last one,
    at the end of the game) and ``decision`` the first state's decision index."""
    if family not in ("hands", "tournaments", "sng3v4") or first is None or not isinstance(outcome, dict):
        return None
    outcome = expand(outcome)
    offset = divergence_offset(family, vector_input)
    steps = outcome.get("steps") if isinstance(outcome.get("steps"), list) else []
    decisions = outcome.get("decisions") if isinstance(outcome.get("decisions"), list) else []
    numbered = [(k, o.get("state")) for k, o in enumerate(steps) if isinstance(o, dict)]
    numbered += [(offset + k, state) for k, state in enumerate(decisions)]
    at = first.get("decision")
    numbered = [(k, state) for k, state in numbered if isinstance(state, dict) and (at is None or k <= at)]
    numbered = numbered[-TRAJECTORY_SHOWN:]
    if not numbered:
        return None
    step = len(numbered) - 1 if at is not None and numbered[-1][0] == at else None
    return {"states": [state for _, state in numbered], "step": step, "decision": numbered[0][0]}
