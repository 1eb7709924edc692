"""The arena runner: a tournament played the way the arena plays it (bot contract v1).

The Python reference deals and settles; each seat's bot runs in its own worker process
(``RunnerOptions.bot_host``: ``quickjs``, :class:`conformance.host.worker.Worker`, or ``node``,
V8 as the arena's browsers, :class:`conformance.host.node_worker.NodeWorker`; issue #35), even
when the same bot sits twice, with the engine helper (``PokerEngine``) loaded before the bot. The
result records the host that played (``botHost``). The
contract's "Timing, failures and lifecycle" rules apply:

- initialisation has ``init_ms`` (default 5000) and each decision ``decision_ms``
  (default 1000), wall-clock, message delivery included;
- a late, missing, malformed, throwing or engine-invalid answer counts one error
  for the seat and takes the fallback: check if legal, else fold;
- a timed-out or broken worker (late, out of memory, crashed, unreadable
  response, failed to load) is terminated; its later decisions take the
  fallback and count errors (category ``missing``);
- a throw or an invalid action alone does not terminate a healthy worker.

Error categories and their codes:

``late``            no answer by the deadline (code ``late``).
``missing``         no answer: ``undefined`` returned (``undefined``); the worker broke
                    while answering (``memory``, ``crash``); or it was already gone
                    (``init-failed``, ``terminated``).
``malformed``       not an answer (ruling R19): the reference's parse codes
                    (``malformed``, ``raise-without-amount``, ``unknown-type``,
                    ``amount-missing``, ``amount-not-safe-integer``), ``promise`` for a
                    thenable, ``bad-response`` for an unreadable worker response.
``throwing``        act threw, or reading the answer's ``type``/``amount``/``then``
                    threw (code ``throw``).
``engine-invalid``  a well-formed action the state does not allow: the reference's
                    legality codes (``check-not-allowed``, ``amount-below-min``, ...).

Each seat's ``Math.random`` seed comes from one ``bot_seed`` (ruling R21,
:func:`seat_seed`), independent of the deck seed.

``RunnerOptions.ruleset`` picks the reference ruleset. Under ``holdem-sng-3-v4``
(R22) the bot clock is the ruleset's (15,000 ms unless ``decision_ms`` says
otherwise), the identities are seated by the seed (R23: ``bots[k]`` sits in seat
``Tournament.seat_of[k]``, not seat ``k``), v4's words ``bet`` and ``all_in`` are
answers, and every error goes through ``Tournament.timeout()``: a bot without a
valid answer lets its clock run out, and three in a row set persistent auto-fold.
The runner never requests recovery: the contract gives a bot no way to ask.

A decision record holds the sha256 of the state's exact bytes as the bot receives
them (:func:`state_hash`), computed before the state is sent. The pipe carries each
finished hand's history entry to a worker only once (``host.StateWire``); the worker
rebuilds the very same state. Timings (``wallMs``,
``cpuMs``, percentiles) are measurements: :meth:`TournamentResult.to_json` with
``timings=False`` and :meth:`TournamentResult.digest` leave them out, so two runs
with the same seeds, bots and options compare equal.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from reference.actions import Legal, check_legal, parse_answer
from reference.errors import IllegalAction, OptionError
from reference.rng import seed_to_uint32
from reference.ruleset import get_ruleset
from reference.state import HISTORY_LIMIT
from reference.tournament import Tournament

from conformance.errors import UsageError
from conformance.host import bot_host
from conformance.host.bounds import MAX_ANSWER_CHARS, extend_bounded
from conformance.host.jsvalue import UNDEFINED
from conformance.host.worker import MAX_UINT32, TAG_INFO, HistoryEncoder, JSValue, Outcome, StateWire, Worker, encode_state, thrown_text

ROOT = Path(__file__).resolve().parents[2]
ENGINE_PATH = ROOT / "reference" / "js" / "poker-engine.js"

CATEGORIES = ("late", "missing", "malformed", "throwing", "engine-invalid")
# Tournament options a runner may set; everything else is contract v1 as written.
TOURNAMENT_OPTIONS = ("starting_stack", "blind_schedule", "hands_per_level", "max_hands", "stacks")
_FATAL_KINDS = frozenset({"late", "memory", "crash", "malformed"})


def bundled_engine() -> str:
    """The engine helper every worker loads before the bot (``PokerEngine``)."""
    return ENGINE_PATH.read_text(encoding="utf-8")


def check_bot_seed(bot_seed: object, field_name: str = "bot_seed") -> int:
    if isinstance(bot_seed, bool) or not isinstance(bot_seed, int) or not 0 <= bot_seed <= MAX_UINT32:
        raise OptionError(field_name, f"expected an unsigned 32-bit integer 0..{MAX_UINT32}, got {bot_seed!r}")
    return bot_seed


def seat_seed(bot_seed: int, seat: int) -> int:
    """R21: the ``Math.random`` seed of seat ``seat`` (zero-based original index).

    The 32-bit state ``PokerEngine.rng`` starts from for the string
    ``"<botSeed>:s<seat+1>"`` (R1: FNV-1a over code points), e.g. ``"42:s1"`` for
    seat 0. It depends on the botSeed and the seat only: not on the deck seed,
    the bot or the names, and two copies of one bot get different streams.
    """
    check_bot_seed(bot_seed)
    return seed_to_uint32(f"{bot_seed}:s{seat + 1}")


def canonical_json(value: object) -> bytes:
    """Sorted keys, no whitespace, UTF-8, no NaN (RFC 8785 for integer and string data)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def state_hash(state: Mapping, encoded: bytes | None = None) -> str:
    """sha256 of the state's bytes as the bot receives them (``host.encode_state``; the runner
    passes ``StateWire.full``, the same bytes): compact UTF-8 JSON, keys in the reference's
    fixed order. The reference builds every state in the
    same key order, so equal states hash equally."""
    return hashlib.sha256(encoded if encoded is not None else encode_state(state)).hexdigest()


def percentile(values: Sequence[float], p: float) -> float | None:
    """Nearest-rank percentile: the smallest value with at least p% of the values at or below it."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def timing_summary(wall: Sequence[float], cpu: Sequence[float]) -> dict:
    """p50/p95/max of decision wall time and CPU time, in ms (None when nothing was measured)."""
    def r(x: float | None) -> float | None:
        return None if x is None else round(x, 3)

    return {
        "decisions": len(wall),
        "wallP50": r(percentile(wall, 50)), "wallP95": r(percentile(wall, 95)),
        "wallMax": r(max(wall, default=None)),
        "cpuP50": r(percentile(cpu, 50)), "cpuP95": r(percentile(cpu, 95)),
        "cpuMax": r(max(cpu, default=None)),
    }


def timing_by_hands(records: Sequence["DecisionRecord"], seat: int | None, width: int = 50) -> list[dict]:
    """``timing_summary`` of one seat's decisions (``None``: every seat's) per range of hand numbers
    (1-50, 51-100, ...): a bot slow only late in a tournament, or slowed by a leak, shows late."""
    ranges: dict[int, tuple[list, list]] = {}
    for r in records:
        if seat in (None, r.seat) and r.outcome != "dead":  # a dead worker was not asked
            wall, cpu = ranges.setdefault((r.hand_number - 1) // width, ([], []))
            wall.append(r.wall_ms)
            if r.cpu_ms is not None:
                cpu.append(r.cpu_ms)
    return [{"hands": f"{k * width + 1}-{(k + 1) * width}", **timing_summary(*ranges[k])} for k in sorted(ranges)]


def answer_json(value: object) -> object:
    """A transported answer as JSON, JS-only values tagged as in the worker protocol."""
    if value is UNDEFINED:
        return {"$": "undefined"}
    if isinstance(value, JSValue):
        if value.tag == "throwing":
            info = value.info
            return {"$": "throwing", "name": info["name"], "message": info["message"],
                    "value": answer_json(info["value"])}
        key = TAG_INFO.get(value.tag)
        return {"$": value.tag, key: value.info} if key else {"$": value.tag}
    if isinstance(value, float) and (not math.isfinite(value) or (value == 0 and math.copysign(1, value) < 0)):
        text = "NaN" if value != value else "-0" if value == 0 else "Infinity" if value > 0 else "-Infinity"
        return {"$": "number", "value": text}
    if isinstance(value, dict):
        return {k: answer_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [answer_json(v) for v in value]
    return value


def legal_from_state(state: Mapping) -> Legal:
    """The betting fields of a decision state as the reference's :class:`Legal`."""
    return Legal(to_call=state["toCall"], current_bet=state["currentBet"], min_raise_to=state["minRaiseTo"],
                 max_raise_to=state["maxRaiseTo"], can_check=state["canCheck"], can_allin=state["canAllIn"],
                 last_full_raise=state["lastFullRaise"])


@dataclass(frozen=True)
class Judgement:
    """What a worker's outcome amounts to: an accepted action, or an error category and code."""

    category: str | None  # None: accepted
    code: str | None
    detail: str
    kind: str | None = None  # the accepted action type
    amount: int | None = None  # a raise's raise-to amount

    @property
    def answer(self) -> object:
        """The accepted action in the contract's answer form (v4's ``bet`` keeps its amount too)."""
        return self.kind if self.amount is None else {"type": self.kind, "amount": self.amount}


def judge(outcome: Outcome, legal: Legal, vocabulary: str = "contract") -> Judgement:
    """Classify one decision's outcome by the contract's return-value rules (R19, Return values);
    ``vocabulary`` ``"v4"`` also accepts holdem-sng-3-v4's words (R24)."""
    kind = outcome.kind
    error = outcome.error or {}
    if kind == "ok":
        answer = outcome.answer
        if answer is UNDEFINED:
            return Judgement("missing", "undefined", "act returned undefined")
        if isinstance(answer, JSValue):
            if answer.tag == "toolong":
                return Judgement("malformed", "too-long", f"act returned a string of {answer.info} characters, "
                                 f"more than the bound of {MAX_ANSWER_CHARS} (R34)")
            if answer.tag == "promise":
                return Judgement("malformed", "promise", "act returned a Promise; answers must be synchronous")
            return Judgement("malformed", "malformed", f"act returned a JavaScript {answer.tag}, not an answer")
        if isinstance(answer, dict):  # the host transports type and amount; an absent field is undefined
            answer = {k: v for k, v in answer.items() if v is not UNDEFINED}
            for key in ("type", "amount"):
                value = answer.get(key)
                if isinstance(value, JSValue) and value.tag == "toolong":
                    return Judgement("malformed", "too-long", f"{key}: a string of {value.info} characters, "
                                     f"more than the bound of {MAX_ANSWER_CHARS} (R34)")
            if isinstance(answer.get("type"), JSValue):
                return Judgement("malformed", "unknown-type",
                                 f"type: a JavaScript {answer['type'].tag}, not an action type string")
        try:
            action, amount = parse_answer(answer, vocabulary)
        except IllegalAction as exc:
            return Judgement("malformed", exc.code, str(exc))
        try:
            check_legal(action, amount, legal)
        except IllegalAction as exc:
            return Judgement("engine-invalid", exc.code, str(exc))
        return Judgement(None, None, "", action, amount)
    if kind == "throw":
        return Judgement("throwing", "throw", f"{error.get('where', 'act')} threw {thrown_text(error)}")
    if kind == "late":
        return Judgement("late", "late", error.get("message", "no answer by the deadline"))
    if kind in ("memory", "crash"):
        return Judgement("missing", kind, error.get("message", kind))
    if kind == "malformed":
        return Judgement("malformed", "bad-response", error.get("message", "unreadable response"))
    if kind == "dead":
        return Judgement("missing", "terminated", f"the worker was terminated earlier ({error.get('message')})")
    raise ValueError(f"unexpected outcome kind {kind!r} for a decision")


@dataclass(frozen=True)
class BotSpec:
    """A bot to seat: ``id`` names it in reports, ``name`` is its seat name (default: the id)."""

    id: str
    source: str
    name: str | None = None

    @classmethod
    def from_file(cls, path: "str | Path", id: str | None = None, name: str | None = None) -> "BotSpec":
        path = Path(path)
        return cls(id or path.stem, path.read_text(encoding="utf-8"), name)

    @property
    def seat_name(self) -> str:
        return self.name or self.id


@dataclass(frozen=True)
class RunnerOptions:
    init_ms: float = 5000
    decision_ms: float | None = None  # None: the ruleset's bot clock (1000 ms in contract v1)
    tournament: Mapping = field(default_factory=dict)  # keys of TOURNAMENT_OPTIONS
    engine_source: str | None = None  # None: the bundled engine
    memory_limit: int | None = None  # bytes per worker; None: the host's default (256 MiB)
    ruleset: str = "contract-v1"
    # Where the bots run (conformance.host.bot_host): node (V8) by default where the suite finds one,
    # else quickjs, as the commands' default (bot_host.default_name; issue #35).
    bot_host: str = field(default_factory=bot_host.default_name)

    def __post_init__(self) -> None:
        if not isinstance(self.ruleset, str):
            raise OptionError("ruleset", f"expected a ruleset name, got {self.ruleset!r}")
        if self.bot_host not in bot_host.HOSTS:
            raise OptionError("bot_host", f"expected one of {', '.join(bot_host.HOSTS)}, got {self.bot_host!r}")
        rules = get_ruleset(self.ruleset)
        if self.decision_ms is None:
            object.__setattr__(self, "decision_ms", rules.time_limit_ms)
        for name in ("init_ms", "decision_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise OptionError(name, f"expected a positive number of milliseconds, got {value!r}")
        for key in self.tournament:
            if key not in TOURNAMENT_OPTIONS:
                raise OptionError(f"tournament.{key}", f"unknown option (known: {', '.join(TOURNAMENT_OPTIONS)})")


@dataclass(frozen=True)
class DecisionRecord:
    index: int
    hand_number: int
    street: str
    seat: int
    id: str
    state_hash: str
    outcome: str  # the host's outcome kind
    answer: object  # the transported answer as JSON (answer_json), None when there was none
    action: dict  # the `actions` entry applied
    error: str | None  # category, None when accepted
    code: str | None
    detail: str
    violations: tuple  # ({kind, detail}, ...) recorded during this decision
    wall_ms: float
    cpu_ms: float | None

    def to_json(self, timings: bool = True) -> dict:
        out = {
            "index": self.index, "handNumber": self.hand_number, "street": self.street, "seat": self.seat,
            "id": self.id, "stateHash": self.state_hash, "outcome": self.outcome, "answer": self.answer,
            "action": self.action, "error": self.error, "code": self.code, "detail": self.detail,
            "violations": [dict(v) for v in self.violations],
        }
        if timings:
            out["wallMs"] = round(self.wall_ms, 3)
            out["cpuMs"] = self.cpu_ms
        return out


@dataclass
class SeatReport:
    seat: int
    id: str
    bot: str
    name: str
    bot_seed: int  # this seat's Math.random seed (R21)
    init: dict  # kind, message, exportName, shape, wallMs, cpuMs
    violations: list = field(default_factory=list)  # at load and during decisions, in order, the first 1000
    violations_dropped: int = 0  # the violations past MAX_SEAT_VIOLATIONS, counted only
    errors: dict = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    decisions: int = 0
    terminated: dict | None = None  # {reason, decision} once the worker is gone
    wall: list = field(default_factory=list)  # ms of each decision the worker was asked
    cpu: list = field(default_factory=list)

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    def to_json(self, timings: bool = True) -> dict:
        init = dict(self.init)
        if not timings:
            del init["wallMs"], init["cpuMs"]
        out = {
            "seat": self.seat, "id": self.id, "bot": self.bot, "name": self.name, "botSeed": self.bot_seed,
            "init": init, "violations": list(self.violations), "errors": dict(self.errors),
            "decisions": self.decisions, "terminated": self.terminated,
        }
        if self.violations_dropped:
            out["violationsDropped"] = self.violations_dropped
        if timings:
            out["timing"] = timing_summary(self.wall, self.cpu)
        return out


@dataclass
class TournamentResult:
    seed: object
    bot_seed: int
    options: dict  # the tournament options, as JSON
    seats: list[SeatReport]
    standings: list[dict]
    decisions: list[DecisionRecord]
    hands: list[dict]  # the reference's full hand records (hole cards included)
    ruleset: str = "contract-v1"
    names: tuple = ()  # the seat names in the order the bots were given (R23 seats them by the seed)
    cut: dict | None = None  # {reason, decision, hand}: ``stop`` ended the tournament before its end
    bot_host: str = "quickjs"  # where the bots ran (RunnerOptions.bot_host)

    def to_json(self, timings: bool = True) -> dict:
        out = {
            "ruleset": self.ruleset, "botHost": self.bot_host, "seed": self.seed, "botSeed": self.bot_seed,
            "options": self.options,
            "seats": [s.to_json(timings) for s in self.seats],
            "standings": self.standings,
            "hands": len(self.hands),
            "decisions": [d.to_json(timings) for d in self.decisions],
        }
        if self.cut is not None:
            out["cut"] = self.cut
        return out

    def digest(self) -> str:
        """sha256 of everything but the timings: equal for equal seeds, bots and options."""
        return hashlib.sha256(canonical_json(self.to_json(timings=False))).hexdigest()


@dataclass(frozen=True)
class ForcedLate:
    """Deadline failures to reproduce rather than measure (a replay): the seats whose loading
    was late and the decision indices that were late. Such a worker is not asked at all: it is
    terminated, and the outcome is the one a real missed deadline gives (same kind and message),
    so everything hashed or compared comes out as it did when the deadline was really missed."""

    init: frozenset = frozenset()
    decisions: frozenset = frozenset()


class _Terminated:
    """Stands in for a worker terminated by a forced deadline failure: every call is ``dead``."""

    name = shape = None
    dead = True

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def act(self, state: object, timeout_ms: float, *, wire: StateWire | None = None) -> Outcome:
        return Outcome("dead", error={"category": "dead", "message": self.reason})

    def close(self) -> None:
        pass


def _late(ms: float) -> Outcome:
    """The outcome of a deadline of ``ms`` missed, worded as :class:`conformance.host.worker.Worker` words it."""
    return Outcome("late", error={"category": "late", "message": f"no answer within {ms:g} ms"})


def _start(worker: "Worker | _Terminated", engine: str, spec: BotSpec, seed: int, init_ms: float) -> Outcome:
    if isinstance(worker, _Terminated):
        return _late(init_ms)
    return worker.start(engine, spec.source, seed, mode="bot", init_timeout_ms=init_ms)


def run_tournament(bots: Sequence[BotSpec], seed: object, bot_seed: int,
                   options: RunnerOptions | None = None,
                   on_decision: Callable[[DecisionRecord], None] | None = None,
                   on_hand: Callable[[dict], None] | None = None,
                   forced_late: ForcedLate | None = None,
                   stop: Callable[[DecisionRecord], str | None] | None = None,
                   cpu_meter: Callable[[float], None] | None = None) -> TournamentResult:
    """Play one tournament to its end. ``bots[i]`` sits in seat ``i`` unless the ruleset seats
    by the seed (R23). ``on_hand`` gets each completed hand's record as it completes. ``stop``,
    asked after every decision, ends the tournament there when it gives a reason (a bound of the
    caller's: the result's ``cut`` says where; its hands are the completed ones). ``cpu_meter``
    gets every seat's worker's CPU time (``Worker.cpu_meter``: a bot certification's budget)."""
    options = options or RunnerOptions()
    forced_late = forced_late or ForcedLate()
    check_bot_seed(bot_seed)
    if isinstance(bots, (str, bytes)) or not all(isinstance(b, BotSpec) for b in bots):
        raise OptionError("bots", "expected a list of BotSpec")
    names = tuple(b.seat_name for b in bots)
    tournament = Tournament(list(names), seed=seed, ruleset=options.ruleset, **dict(options.tournament))
    engine = options.engine_source if options.engine_source is not None else bundled_engine()
    n = len(bots)
    by_seat: list[BotSpec] = [bots[0]] * n
    for k, s in enumerate(tournament.seat_of):
        by_seat[s] = bots[k]
    seeds = [seat_seed(bot_seed, s) for s in range(n)]
    init_late = f"late: no answer within {options.init_ms:g} ms"
    host = _host(options)
    workers: list = [_Terminated(init_late) if s in forced_late.init
                     else host.worker(memory_limit=options.memory_limit, cpu_meter=cpu_meter) for s in range(n)]
    # Seats load concurrently, at most one per core, so the init deadline stays honest.
    pool = ThreadPoolExecutor(max_workers=max(1, min(n, os.cpu_count() or 1)))
    try:
        starts = list(pool.map(_start, workers, [engine] * n, by_seat, seeds, [options.init_ms] * n))
        seats = []
        for s, (spec, out, worker) in enumerate(zip(by_seat, starts, workers)):
            if out.kind != "ok" and (out.error or {}).get("source") == "engine":
                raise OptionError("engine_source", f"the engine helper failed to load: {out.error['message']}")
            report = SeatReport(
                seat=s, id=tournament.ids[s], bot=spec.id, name=spec.seat_name, bot_seed=seeds[s],
                init={"kind": out.kind, "message": None if out.ok else out.error["message"],
                      "exportName": worker.name, "shape": worker.shape,
                      "wallMs": round(out.wall_ms, 3), "cpuMs": out.cpu_ms},
                violations=[dict(v, decision=None) for v in out.violations])
            if not out.ok:
                report.terminated = {"reason": f"failed to load ({out.kind}): {out.error['message']}",
                                     "decision": None}
            seats.append(report)
        decisions, cut = _play(tournament, workers, seats, options, on_decision, on_hand, forced_late.decisions, stop)
    finally:
        list(pool.map(lambda w: w.close(), workers))
        pool.shutdown()
    return TournamentResult(seed=seed, bot_seed=bot_seed, options=json.loads(json.dumps(dict(options.tournament))),
                            seats=seats, standings=tournament.standings(), decisions=decisions,
                            hands=tournament.hands, ruleset=tournament.ruleset.name, names=names, cut=cut,
                            bot_host=host.name)


def _host(options: RunnerOptions) -> bot_host.BotHost:
    try:
        return bot_host.choose(options.bot_host, "bot_host")
    except UsageError as exc:  # node asked for and not installed
        raise OptionError("bot_host", str(exc)) from None


def _play(t: Tournament, workers: list, seats: list[SeatReport], options: RunnerOptions,
          on_decision: Callable[[DecisionRecord], None] | None, on_hand: Callable[[dict], None] | None,
          forced: frozenset, stop: Callable[[DecisionRecord], str | None] | None = None
          ) -> tuple[list[DecisionRecord], dict | None]:
    records: list[DecisionRecord] = []
    cut = None
    vocabulary = t.ruleset.vocabulary
    clock_runs_out = t.ruleset.timeouts_to_auto_fold is not None  # v4: no valid answer is a timeout (R22)
    reported = 0

    def report_hands() -> None:
        nonlocal reported
        while reported < len(t.hands):
            if on_hand is not None:
                on_hand(t.hands[reported])
            reported += 1

    report_hands()
    history = HistoryEncoder()
    while not t.over:
        # The history goes to each worker one hand at a time (StateWire); the hash is of the
        # whole state's bytes, exactly what the bot receives.
        state = t.decision_state(history=False)
        wire = history.wire(state, t.history[-HISTORY_LIMIT:])
        s = state["you"]["seat"]
        report = seats[s]
        digest = state_hash(state, wire.full)  # before the bot can see it
        index = len(records)
        forcing = index in forced and not workers[s].dead
        if forcing:
            out = _late(options.decision_ms)
            workers[s].close()
            workers[s] = _Terminated(f"late: {out.error['message']}")
        else:
            out = workers[s].act(None, timeout_ms=options.decision_ms, wire=wire)
        verdict = judge(out, t.legal(), vocabulary)
        if out.kind == "dead" and report.init["kind"] != "ok":
            verdict = Judgement("missing", "init-failed", report.terminated["reason"])
        if verdict.category is None:
            action = t.act(verdict.answer)
        else:
            action = t.timeout() if clock_runs_out else t.fallback(verdict.code)
            report.errors[verdict.category] += 1
        if out.kind != "dead" and not forcing:
            report.wall.append(out.wall_ms)
            if out.cpu_ms is not None:
                report.cpu.append(out.cpu_ms)
        if out.kind in _FATAL_KINDS:
            report.terminated = {"reason": f"{out.kind}: {verdict.detail}", "decision": index}
        report.decisions += 1
        report.violations_dropped += extend_bounded(report.violations, (dict(v, decision=index) for v in out.violations))
        record = DecisionRecord(
            index=index, hand_number=state["handNumber"], street=state["street"], seat=s, id=state["you"]["id"],
            state_hash=digest, outcome=out.kind, answer=answer_json(out.answer) if out.kind == "ok" else None,
            action=action, error=verdict.category, code=verdict.code, detail=verdict.detail,
            violations=tuple(out.violations), wall_ms=out.wall_ms, cpu_ms=out.cpu_ms)
        records.append(record)
        if on_decision is not None:
            on_decision(record)
        report_hands()
        reason = None if stop is None or t.over else stop(record)
        if reason is not None:
            cut = {"reason": reason, "decision": index, "hand": state["handNumber"]}
            break
    for report in seats:  # every error went through the reference's fallback exactly once
        assert report.error_count == t.errors[report.seat], (report.seat, report.errors, t.errors)
    return records, cut


def replay_states(result: TournamentResult):
    """Replay the applied actions on a fresh reference tournament: each decision record with the
    state the reference gives for it (None once the replayed tournament is over), in order."""
    names = list(result.names) or [s.name for s in result.seats]
    t = Tournament(names, seed=result.seed, ruleset=result.ruleset, **result.options)
    for record in result.decisions:
        state = t.decision_state()
        yield record, state
        if state is None:
            return
        entry = record.action
        if record.error is not None and t.ruleset.timeouts_to_auto_fold is not None:
            t.timeout()  # v4: the timeout, auto-fold count included
        elif record.error is not None:
            t.fallback(record.code)
        elif entry["type"] == "raise":
            t.act({"type": "raise", "amount": state["you"]["bet"] + entry["amount"]})
        else:
            t.act(entry["type"])
    yield None, t.decision_state()


def replay_hashes(result: TournamentResult) -> int | None:
    """Replay the applied actions on a fresh reference tournament and hash each decision state.

    Returns the index of the first decision whose state differs from the hash recorded
    before it was sent (so what a bot did to its copy reached the engine), or None.
    """
    for record, state in replay_states(result):
        if record is None:  # a cut tournament is not over: the replay goes on where it stopped
            return None if state is None or result.cut is not None else len(result.decisions)
        if state is None or state_hash(state) != record.state_hash:
            return record.index
    return None
