"""Certify an engine against the golden vectors (docs/INTERPRETING.md): the smoke tier, the
per-family judges and the certification verdict. Drivers (:mod:`conformance.judge.engine_drivers`)
say what the engine did; this module decides what that means."""
from __future__ import annotations

import json
import logging
import math
import re
import reprlib
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from deepdiff import DeepDiff

from reference.cards import CANONICAL_DECK

from conformance.vectors import fresh_vectors, schemas, library as vectors
from conformance.vectors.clauses import CLAUSES
from conformance.vectors.gamespec import GAME_FAMILIES, answer
from . import cert_profiles, fuzz, sng3v4_text
from .engine_drivers import EngineLoadError, Run
from .hand_judge import judge_hand
from .step_judge import ORDER_FREE, Comparison, GameVerdict, describe, edited_path, judge_game, judge_views, same
from .trajectory import Plan, failing_game, legality_views
from .verdicts import Case, Report

# The families docs/INTERPRETING.md defines a runner for, in running order (a new vector family
# needs a driver and a judge here before it can be certified).
FAMILIES = ("rng", "deck", "evaluate", "equity", "pots", "legality", "hands", "hand", "tournaments", "sng3v4")
# What certification for a ruleset runs: the ruleset-independent helper families and its games.
HELPER_FAMILIES = ("rng", "deck", "evaluate", "equity", "pots")
RULESETS = {
    "contract-v1": HELPER_FAMILIES + ("legality", "hands", "tournaments"),
    "holdem-sng-3-v4": HELPER_FAMILIES + ("sng3v4",),
}
DEFAULT_RULESET = "contract-v1"
# Families whose games are played under a ruleset an engine may lack (docs/engine-api.md, ruleset).
FAMILY_RULESET = {"sng3v4": "holdem-sng-3-v4"}
RULESET_NOT_SUPPORTED = "ruleset not supported"
OPTIONAL = frozenset({"pots"})  # an extension: an engine without it has the family skipped
# Fatal errors (hangs, crashes, garbage: each costs a timeout or a restart) before vectors are not
# run: in a row in one family, in all in one family, in the whole run. An engine that hangs on every
# other vector must cost a bounded number of timeouts too.
ABANDON_AFTER = 3
ABANDON_FAMILY_AFTER = 5
ABANDON_RUN_AFTER = 10
DEFAULT_STARTING_STACK = {"contract-v1": 10_000, "holdem-sng-3-v4": 500}  # by the game's ruleset option
DIFF_LINES = 40
DEEPDIFF_MAX = 25 * DIFF_LINES  # DeepDiff stops after this many differences
# DeepDiff logs a warning whenever max_diffs stops it; we stop it on purpose (readable_diff).
logging.getLogger("deepdiff").setLevel(logging.ERROR)
MESSAGE_LIMIT = 2000  # characters of a verdict's message (it may quote what the engine returned)


# ---- comparison ---------------------------------------------------------------------------------

def _order_key(x: object) -> str:
    return json.dumps(x, sort_keys=True, default=repr)


def _equal_up_to_order(actual: object, expected: object, rulings: set[str]) -> bool:
    """``same``, except that ORDER_FREE lists may be permuted; the rulings used go to ``rulings``."""
    if isinstance(actual, dict) and isinstance(expected, dict):
        if actual.keys() != expected.keys():
            return False
        for key, e in expected.items():
            a = actual[key]
            if key in ORDER_FREE and isinstance(a, list) and isinstance(e, list) and not same(a, e):
                if len(a) == len(e) and same(sorted(a, key=_order_key), sorted(e, key=_order_key)):
                    rulings.add(ORDER_FREE[key])
                    continue
                return False
            if not _equal_up_to_order(a, e, rulings):
                return False
        return True
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(
            _equal_up_to_order(a, e, rulings) for a, e in zip(actual, expected))
    return same(actual, expected)


def compare(actual: object, expected: object) -> tuple[str, list[str]]:
    """``("equal", [])``, ``("order", rulings)`` when only ORDER_FREE lists differ in order, or ``("differ", [])``."""
    if same(actual, expected):
        return "equal", []
    rulings: set[str] = set()
    if _equal_up_to_order(actual, expected, rulings):
        return "order", sorted(rulings)
    return "differ", []


_ROOT_KEY = re.compile(r"\['([^'\]]*)'\]")


def _path(text: str) -> str:
    """deepdiff's root['a'][0]['b'] as a[0].b."""
    return _ROOT_KEY.sub(r".\1", text).replace("root.", "").replace("root[", "[")


# Bounded renderings of engine values: an outcome may be megabytes, a report line may not.
_SHOW = reprlib.Repr()
_SHOW.maxlevel, _SHOW.maxlist, _SHOW.maxdict, _SHOW.maxstring, _SHOW.maxother = 3, 8, 8, 120, 120


def show(value: object) -> str:
    """A value as Python shows it, cut to a few hundred characters at most."""
    return _SHOW.repr(value)


def _key(path: str, key: object) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}" if path else key
    return f"{path}[{show(key)}]"


def _changes(expected: object, actual: object, path: str, out: list[str]) -> None:
    """Append the differences of ``actual`` from ``expected`` to ``out``, stopping once it holds more
    than DIFF_LINES: one walk in step, never longer than the smaller value plus DIFF_LINES items,
    so a diff costs little whatever size the engine's answer is."""
    where = path or "the outcome"
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, e in expected.items():
            if len(out) > DIFF_LINES:
                return
            if key in actual:
                _changes(e, actual[key], _key(path, key), out)
            else:
                out.append(f"{_key(path, key)} removed (expected {show(e)})")
        for key in actual:
            if len(out) > DIFF_LINES:
                return
            if key not in expected:
                out.append(f"{_key(path, key)} added: {show(actual[key])}")
    elif isinstance(expected, list) and isinstance(actual, list):
        for k, (e, a) in enumerate(zip(expected, actual)):
            if len(out) > DIFF_LINES:
                return
            _changes(e, a, _key(path, k), out)
        if len(actual) != len(expected):
            extra = actual[len(expected):] if len(actual) > len(expected) else expected[len(actual):]
            out.append(f"{where} has {len(actual)} items, expected {len(expected)}: "
                       f"{'added' if len(actual) > len(expected) else 'missing'} {show(extra)}")
    elif not same(expected, actual):
        if type(expected) is not type(actual) and not (_is_number(expected) and _is_number(actual)):
            out.append(f"Type of {where} changed from {type(expected).__name__} to {type(actual).__name__} "
                       f"and value changed from {show(expected)} to {show(actual)}")
        else:
            out.append(f"Value of {where} changed from {show(expected)} to {show(actual)}")


def _nodes(value: object, limit: int) -> int:
    """How many values ``value`` holds, a string counting one per 64 characters (DeepDiff line-diffs
    long strings), counting no further than ``limit``."""
    count, todo = 0, [value]
    while todo and count <= limit:
        v = todo.pop()
        count += 1
        if isinstance(v, dict):
            todo.extend(v.keys())
            todo.extend(v.values())
        elif isinstance(v, list):
            todo.extend(v)
        elif isinstance(v, str):
            count += len(v) // 64
    return count


def _deepdiff_lines(expected: object, actual: object) -> list[str]:
    """DeepDiff's report, paths shown as a[0].b; stopped after a few more than DIFF_LINES changes,
    which keeps it fast on outcomes the size of the expected ones."""
    try:
        text = DeepDiff(expected, actual, ignore_numeric_type_changes=True, verbose_level=2,
                        max_diffs=DEEPDIFF_MAX).pretty()
    except Exception:  # noqa: BLE001 - an exotic value: the bounded walk below still reports
        return []
    return [_path(line) if len(line) <= 300 else _path(line[:300]) + " …" for line in text.splitlines() if line]


def readable_diff(expected: object, actual: object) -> str:
    """What changed from the expected to the actual outcome, one change a line (at most DIFF_LINES).

    DeepDiff writes it when the engine's outcome is of the expected outcome's order of size;
    DeepDiff's time grows with the outcome's size whatever its max_diffs, so anything larger, or a
    value DeepDiff cannot report on, goes to our in-step walk, which is bounded by DIFF_LINES.
    """
    lines: list[str] = []
    budget = 4 * _nodes(expected, 1 << 20) + 1000
    stopped = False  # the producer stopped before it saw every change: the count is a lower bound
    if _nodes(actual, budget) <= budget:
        lines = _deepdiff_lines(expected, actual)
        stopped = len(lines) >= DEEPDIFF_MAX
    if not lines:
        stopped = True
        try:
            _changes(expected, actual, "", lines)
        except RecursionError:  # decoding bounds depth; this is only a backstop
            lines.append("(the outcome is nested too deeply to compare further)")
    if not lines:
        return ""
    if len(lines) > DIFF_LINES:  # never cut silently: say how much is left out
        more = len(lines) - DIFF_LINES
        lines = lines[:DIFF_LINES] + [f"… and {'at least ' if stopped else ''}{more} more change{'s' * (more > 1)}"]
    return "\n".join(["(changes from the expected to the actual outcome)"] + lines)


# ---- verdicts -----------------------------------------------------------------------------------

class Judged:
    """A family judge's answer; the runner adds id, group, clauses and timing."""

    def __init__(self, status: str, message: str = "", diff: str = "", rulings: Iterable[str] = (),
                 notes: Iterable[str] = ()) -> None:
        self.status, self.message, self.diff = status, message, diff
        self.rulings, self.notes = list(rulings), list(notes)
        # A game's first divergence (step_judge.Divergence), the later differences counted under
        # it and the answers that led there.
        self.first, self.later, self.answers = None, 0, []
        self.alternative = None  # a proven divergence: the ruling options the engine follows


def passed(notes: Iterable[str] = ()) -> Judged:
    return Judged("passed", notes=notes)


def failed(message: str, diff: str = "", notes: Iterable[str] = ()) -> Judged:
    return Judged("failed", message, diff, notes=notes)


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _is_finite(x: object) -> bool:
    return _is_number(x) and math.isfinite(x)


def _thrown(threw: object) -> str:
    if not isinstance(threw, dict):
        return repr(threw)
    name = threw.get("name")
    return f"{name}: {threw.get('message')}" if name else str(threw.get("message"))


def _failure_text(error: object) -> str:
    if not isinstance(error, dict):
        return repr(error)
    return f"at {error.get('at')}: {_thrown(error)}"


def judge_outcome(test: dict, actual: object, expected: object,
                  well_formed: Callable[[], str | None] | None = None, notes: Iterable[str] = ()) -> Judged:
    """The common rule: equal passes; order-only differs is divergent on R14/R5; an ``acceptable``
    vector whose outcome is well formed is divergent on its rulings; anything else fails."""
    kind, rulings = compare(actual, expected)
    if kind == "equal":
        return passed(notes)
    diff = readable_diff(expected, actual)
    if kind == "order":
        keys = sorted({k for k, r in ORDER_FREE.items() if r in rulings})
        return Judged("divergent", f"differs only in the order of {', '.join(keys)}", diff, rulings, notes)
    if test["result"] == "acceptable" and well_formed is not None:
        problem = well_formed()
        if problem is None:
            return Judged("divergent", "a different outcome that is well formed", diff, test["rulings"], notes)
        return failed(f"differs from the expected outcome and is not well formed: {problem}", diff, notes)
    return failed("differs from the expected outcome", diff, notes)


def _must_throw(r: dict, call: str, test: dict, well_formed: Callable[[object], str | None] | None = None,
                returned: object = None) -> Judged:
    if "threw" in r:
        return passed()
    if test["result"] == "acceptable" and well_formed is not None and well_formed(returned) is None:
        return Judged("divergent", f"{call} returned {returned!r} instead of throwing", rulings=test["rulings"])
    return failed(f"{call} must throw (invalid {test['expected'].get('error', 'input')}), but returned {returned!r}")


# ---- family judges ------------------------------------------------------------------------------

def _rng(test: dict, r: dict) -> Judged:
    if "threw" in r:
        return failed(f"rng(seed) or a call of the generator threw {_thrown(r['threw'])}")
    count = test["input"]["count"]

    def well_formed() -> str | None:
        values = r.get("values")
        if not isinstance(values, list) or len(values) != count:
            return f"expected {count} values"
        bad = [v for v in values if not (_is_number(v) and 0 <= v < 1)]
        return f"{bad[0]!r} is not a number in [0, 1)" if bad else None

    return judge_outcome(test, {"values": r.get("values")}, test["expected"], well_formed)


def _seeded_game(test: dict, r: dict) -> Judged:
    """A seeded game and the same game with the engine's own dealHand decks pinned must be the
    same game, hand for hand (a property of every derivation, R2, and either end dealt, R3)."""
    if "threw" in r:
        return failed(f"dealHand threw {_thrown(r['threw'])}")
    seeded, pinned = r.get("seeded"), r.get("pinned")
    for name, run in (("seeded", seeded), ("pinned", pinned)):
        if not isinstance(run, dict) or "error" in run:
            return failed(f"the {name} game stopped {_failure_text(run.get('error')) if isinstance(run, dict) else run!r}")
    c = Comparison()
    c.compare(None, None, "log()", seeded.get("log"), pinned.get("log"), clause="helper.deal-hand")
    c.compare(None, None, "standings()", seeded.get("standings"), pinned.get("standings"), clause="helper.deal-hand")
    if c.first is None:
        return passed()
    message, details = describe(c)
    j = failed("the seeded game deals other cards than its own dealHand(seed, n): with those decks pinned (expected) "
               "it differs (actual); " + message, details)
    j.first, j.later = c.first, c.later_count
    return j


def _deck(test: dict, r: dict) -> Judged:
    i = test["input"]
    if "game" in i:
        return _seeded_game(test, r)
    call = f"dealHand({i['seed']!r}, {i['handNumber']!r})"
    if test["result"] == "invalid":
        return _must_throw(r, call, test, returned=r.get("deck"))
    if "threw" in r:
        return failed(f"{call} threw {_thrown(r['threw'])}")
    deck = r.get("deck")
    if not same(deck, r.get("again")):
        return failed(f"two calls of {call} returned different decks (it must depend only on its arguments)",
                      readable_diff(deck, r.get("again")))

    def well_formed() -> str | None:
        if isinstance(deck, list) and all(isinstance(c, str) for c in deck) and sorted(deck) == sorted(CANONICAL_DECK):
            return None
        return "not a permutation of the 52 cards"

    return judge_outcome(test, {"deck": deck}, test["expected"], well_formed)


def _evaluate(test: dict, r: dict) -> Judged:
    i, expected = test["input"], test["expected"]
    if test["result"] == "invalid":
        return _must_throw(r, f"evaluate({i['cards']!r})", test, returned=r.get("result"))
    if "threw" in r:
        return failed(f"evaluate threw {_thrown(r['threw'])}")
    if "digest" in i:
        return judge_outcome(test, {k: r.get(k) for k in expected}, expected)
    if "a" in i:
        values = [x.get("value") if isinstance(x, dict) else None for x in (r.get("a"), r.get("b"))]
        if not all(_is_finite(v) for v in values):
            return failed(f"evaluate(...).value is not a finite number: a {values[0]!r}, b {values[1]!r}")
        order = (values[0] > values[1]) - (values[0] < values[1])
        if order != expected["order"]:
            return failed(f"sign(value(a) - value(b)) is {order:+d}, expected {expected['order']:+d} "
                          f"(values {values[0]!r} and {values[1]!r})")
        return passed()
    res = r.get("result")
    if not isinstance(res, dict):
        return failed(f"evaluate returned {res!r}, not an object")
    if set(expected) == {"rank"}:
        return _evaluate_rank(i["cards"], expected["rank"], res, r.get("bestValue"))

    def well_formed() -> str | None:
        if not same(res.get("rank"), expected["rank"]):
            return f"rank {res.get('rank')!r}, expected {expected['rank']}"
        if not _is_finite(res.get("value")):
            return f"value {res.get('value')!r} is not a finite number"
        return None if isinstance(res.get("name"), str) and res["name"] else f"name {res.get('name')!r}"

    return judge_outcome(test, {k: res[k] for k in expected if k in res}, expected, well_formed)


def _evaluate_rank(cards: list, rank: int, res: dict, best_value: object) -> Judged:
    if not same(res.get("rank"), rank):
        return failed(f"rank {res.get('rank')!r}, expected {rank}", readable_diff({"rank": rank}, {"rank": res.get("rank")}))
    best = res.get("best")
    if not (isinstance(best, list) and len(best) == 5 and all(isinstance(c, str) and c in cards for c in best)
            and len(set(best)) == 5):
        return failed(f"best {best!r} is not five distinct input cards")
    if not (_is_finite(res.get("value")) and same(best_value, res.get("value"))):
        return failed(f"evaluate(best).value is {best_value!r}, but the result's value is {res.get('value')!r}")
    return passed()


def _equity(test: dict, r: dict) -> Judged:
    i, expected = test["input"], test["expected"]
    result = r.get("equity")
    call = f"equity({i['hole']!r}, {i['board']!r}, {i['opponents']!r}, {i['iterations']!r}, {i['random']['kind']} random)"
    if "error" in expected:
        return _must_throw(r, call, test, lambda x: None if _is_number(x) and 0 <= x <= 1 else "not in [0, 1]", result)
    if "threw" in r:
        return failed(f"{call} threw {_thrown(r['threw'])}")
    if not _is_finite(result):
        return failed(f"{call} returned {result!r}, not a finite number")
    if "value" in expected:  # the exact stream (R6): another procedure must still estimate the equity
        if same(result, expected["value"]):
            return passed()
        off = abs(result - expected["equity"])
        if off <= expected["tolerance"]:
            return Judged("divergent", f"{result!r} differs from the exact-stream value {expected['value']!r} and is "
                          f"within tolerance of the equity {expected['equity']!r}: another sampling procedure",
                          rulings=test["rulings"])
        return failed(f"{result!r} differs from the exact-stream value {expected['value']!r} and is {off:.6f} from the "
                      f"equity {expected['equity']!r}, beyond the tolerance {expected['tolerance']:.6f}: no sampling "
                      "procedure (R6) explains it (hands mis-ranked, or ties shared wrongly?)")
    off = abs(result - expected["equity"])
    if off <= expected["tolerance"]:
        return passed()
    return failed(f"equity {result!r} is {off:.6f} from the exact {expected['equity']!r}, beyond the tolerance "
                  f"{expected['tolerance']:.6f} (5 standard errors)")


def _pots(test: dict, r: dict) -> Judged:
    if "threw" in r:
        return failed(f"buildPots threw {_thrown(r['threw'])}")
    contributions = test["input"]["contributions"]
    pots = r.get("pots")

    def well_formed() -> str | None:
        if not isinstance(pots, list) or not all(
                isinstance(p, dict) and isinstance(p.get("amount"), int) and not isinstance(p.get("amount"), bool)
                and isinstance(p.get("eligible"), list) for p in pots):
            return "expected a list of {amount, eligible}"
        total = sum(c["committed"] for c in contributions)
        got = sum(p["amount"] for p in pots)
        return None if got == total else f"the pots hold {got} chips, the contributions {total}"

    return judge_outcome(test, {"pots": pots}, test["expected"], well_formed)


def _state_problem(state: object, what: str) -> str | None:
    problems = schemas.errors("state", state, limit=1)
    return f"{what}: {problems[0]}" if problems else None


def _legality(test: dict, r: dict) -> Judged:
    """The state after the prefix, the act (or its refusal, the state after it and submit's
    fallback), judged as one decision of a game (step_judge.judge_views)."""
    i, expected = test["input"], test["expected"]
    if "error" in r and "state" not in r:
        return failed(f"the game could not be set up: {_failure_text(r['error'])}")
    act = r.get("act") if isinstance(r.get("act"), dict) else {}
    notes = []
    actual_view = {"state": r.get("state"), "act": "throws" if "threw" in act else r.get("act")}
    if "threw" in act:  # what followed the refusal (the reference's views have it when it refuses too)
        actual_view["stateAfter"] = r.get("stateAfter")
        submit = r.get("submit")
        actual_view["fallback"] = submit.get("action") if isinstance(submit, dict) and "action" in submit else submit
        code = act["threw"].get("code") if isinstance(act["threw"], dict) else None
        if "rejected" in expected and isinstance(code, str) and code != expected["rejected"]:
            notes.append(f"error.code is {code!r}; the vectors give {expected['rejected']!r} (reported, not failed)")
    if "error" in r:
        actual_view["error"] = _failure_text(r["error"])
    verdict = judge_views(i["game"], len(i["prefix"]), answer(i["answer"]), actual_view,
                          lambda spec: legality_views(spec, i["prefix"], i["answer"]), "legality")
    j = _game_judged(verdict)
    j.notes += notes
    return j


def _starting_chips(game: dict) -> int:
    options = game.get("options", {})
    if "stacks" in options:
        return sum(options["stacks"])
    default = DEFAULT_STARTING_STACK[options.get("ruleset", DEFAULT_RULESET)]
    return options.get("startingStack", default) * len(game["seats"])


def _chips(standings: object) -> object:
    if isinstance(standings, list) and all(isinstance(s, dict) for s in standings):
        return [s.get("chips") for s in standings]
    return standings


def _conserved(game: dict, chips: object) -> str | None:
    if not (isinstance(chips, list) and all(isinstance(c, int) and not isinstance(c, bool) for c in chips)):
        return f"standings chips {chips!r} are not integers"
    total = _starting_chips(game)
    return None if sum(chips) == total else f"the standings hold {sum(chips)} chips, the game started with {total}"


def _game_judged(v: GameVerdict) -> Judged:
    j = Judged(v.status, v.message, v.details, v.rulings)
    j.first, j.later, j.answers, j.alternative = v.first, v.later, v.answers, v.alternative
    return j


def _chips_lost(game: dict, r: dict) -> str | None:
    """A chip created or lost in the standings or after some hand of the log: no ruling does that."""
    if problem := _conserved(game, _chips(r.get("standings"))):
        return problem
    for entry in r.get("log") if isinstance(r.get("log"), list) else []:
        if problem := _conserved(game, entry.get("chips") if isinstance(entry, dict) else entry):
            return f"log() hand {entry.get('handNumber') if isinstance(entry, dict) else '?'}: " + \
                problem.replace("standings", "chips after the hand")
    return None


def _hands(test: dict, r: dict) -> Judged:
    """Every decision state, action, the history and the standings, step by step (step_judge)."""
    i = test["input"]
    return _game_judged(judge_game(i["game"], r, Plan.of(i), family="hands", required=len(i["script"]),
                                   v4_steps=i.get("steps"),
                                   broken=lambda: _chips_lost(i["game"], r)))


def _tournaments(test: dict, r: dict) -> Judged:
    """Step by step when the engine reports its decisions (the JS driver always does; a --cmd
    engine may, docs/engine-protocol.md); else on log() and standings() alone, with a note."""
    i = test["input"]
    j = _game_judged(judge_game(i["game"], r, Plan.of(i), family="tournaments", with_log=True,
                                broken=lambda: _chips_lost(i["game"], r)))
    if "decisions" not in r:
        j.notes.append(NO_DECISIONS)
    return j


def _hand(test: dict, r: dict) -> Judged:
    """A lone hand through the hand-level API, step by step (hand_judge); without ``again`` (optional
    for a --cmd engine, docs/engine-protocol.md) freshness is not judged, with a note."""
    j = _game_judged(judge_hand(test["input"], r))
    if isinstance(r, dict) and "decisions" in r and "again" not in r:
        j.notes.append(NO_AGAIN)
    return j


NO_DECISIONS = "the engine reported no decisions (an optional extension): judged on its end (log, standings) only"
NO_AGAIN = "the engine reported no second states ('again', an optional extension): freshness (state.fresh) not judged"


# ---- sng3v4 (holdem-sng-3-v4) --------------------------------------------------------------------

V4_SEATS, V4_AUTO_FOLD_AFTER = 3, 3
V4_CLOCK_MS = {"bot": 15_000, "other": 45_000}  # the contract's action_clock_ms
V4_STANDING_FIELDS = ("id", "name", "place", "chips", "eliminatedInHand", "timeouts", "autoFolded")


def _is_recover(step: object) -> bool:
    return isinstance(step, dict) and "recover" in step


def _is_late(step: object, state: object) -> bool:
    """A timeout step, or an answer at or after the clock of the state it answers (INTERPRETING.md)."""
    if step == {"timeout": True}:
        return True
    limit = state.get("timeLimitMs") if isinstance(state, dict) else None
    return isinstance(step, dict) and "atMs" in step and _is_number(limit) and step["atMs"] >= limit


def _step_views(outcomes: list, expected: list, notes: list[str]) -> list:
    """The step outcomes as compared: a refusal by its field and seat (its ``reason`` is the
    engine's own words); an invalid answer's rejection code as the vectors give it when the engine
    reports another one (a note, as in legality)."""
    views = []
    for k, outcome in enumerate(outcomes):
        if isinstance(outcome, dict) and "refused" in outcome:
            outcome = {key: outcome.get(key) for key in ("refused", "seat")}
        elif k < len(expected) and isinstance(outcome, dict) and "error" in outcome:
            want, got = expected[k].get("error"), outcome["error"]
            if isinstance(want, str) and want != "late" and isinstance(got, str) and got not in (want, "late"):
                notes.append(f"steps[{k}]: error code {got!r}; the vectors give {want!r} (reported, not failed)")
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
            return f"{where} is {outcome!r}, not an outcome"
        if _is_recover(step):
            seat = f"s{step['recover'] + 1}"
            if "recovered" in outcome:
                if not seats.auto_folded(seat):
                    return f"{where}: recovery of seat {step['recover']}, which is not in auto-fold, was accepted"
                seats.pending.setdefault(seat, None)
            elif seat in seats.pending and seats.auto_folded(seat):
                # A queued recovery keeps the seat in auto-fold (with chips) until the boundary.
                return f"{where}: recovery of seat {step['recover']} was refused while its earlier request waits " \
                       f"for the end of the hand (it is still in auto-fold)"
            elif outcome.get("refused") != "seat":
                return f"{where}: expected {{recovered}} or a refusal naming the field seat, got {outcome!r}"
            continue
        state, action = outcome.get("state"), outcome.get("action")
        known = k < len(expected) and isinstance(expected[k], dict) and same(state, expected[k].get("state"))
        if not known and (problem := _state_problem(state, f"{where}.state")):
            return problem
        if state["timeLimitMs"] != clock and "timeLimitMs" not in game["options"]:
            return f"{where}.state.timeLimitMs is {state['timeLimitMs']}; the clock of this table is {clock} ms"
        if not (isinstance(action, dict) and isinstance(action.get("type"), str)):
            return f"{where}.action is {action!r}, not an action"
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
            return f"{where}: a timeout's error is {outcome.get('error')!r}, expected 'late'"
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
    chips = _chips(standings)
    if problem := _conserved(game, chips):
        return problem
    # The log is every hand played, in order, each ending with every chip in play, the last as the
    # standings end (a ruling may change who sits where, never drop or misstate a hand).
    numbers = [e.get("handNumber") for e in log]
    if numbers != list(range(1, len(log) + 1)):
        return f"log() hand numbers are {show(numbers)}: expected every hand from 1 in order"
    for entry in log:
        if problem := _conserved(game, entry.get("chips")):
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
            return f"{seat}: timeouts is {s.get('timeouts')!r}; the steps timed it out {explicit} times" + \
                (f" (and gave {invalid} invalid answers, R22)" if invalid else "")
        if invalid or seat in seats.pending:
            continue
        if s.get("autoFolded") is not seats.auto_folded(seat):
            return f"{seat}: autoFolded is {s.get('autoFolded')!r}, expected {seats.auto_folded(seat)} " + \
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
                return f"hand {number}: the showdown shows {shown!r}, which won nothing: only cards needed to " \
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


def _sng3v4(test: dict, r: dict) -> Judged:
    """The steps, then every decision of the strategies, step by step against the reference
    under holdem-sng-3-v4; an outcome that breaks the v4 contract's ruling-independent rules
    (sng3v4_problem) is not searched for a ruling alternative."""
    i, e = test["input"], test["expected"]
    notes: list[str] = []
    if isinstance(r.get("steps"), list):
        r = {**r, "steps": _step_views(r["steps"], e["steps"], notes)}
    game = i["game"]
    spec = {**game, "options": {**game["options"], "ruleset": FAMILY_RULESET["sng3v4"]}}
    j = _game_judged(judge_game(spec, r, Plan.of(i), family="sng3v4", with_log=True, v4_steps=i["steps"],
                                standing_fields=V4_STANDING_FIELDS, broken=lambda: sng3v4_problem(test, r)))
    j.notes = notes + j.notes + ([NO_DECISIONS] if "decisions" not in r else [])
    return j


JUDGES = {"rng": _rng, "deck": _deck, "evaluate": _evaluate, "equity": _equity, "pots": _pots,
          "legality": _legality, "hands": _hands, "hand": _hand, "tournaments": _tournaments, "sng3v4": _sng3v4}


def _ruleset_refused(r: dict) -> str | None:
    """The skip reason when ``create`` threw naming the field ``ruleset`` (docs/engine-api.md: an
    engine may support only contract-v1), else None."""
    error = r.get("error")
    if not (isinstance(error, dict) and error.get("at") == "create"):
        return None
    field = error.get("field")
    if field == "ruleset" or (field is None and "ruleset" in str(error.get("message"))):
        return f"{RULESET_NOT_SUPPORTED}: create threw {_thrown(error)}"
    return None


def judge(family: str, test: dict, run: Run) -> Judged:
    """The verdict on one vector, from what the driver reported."""
    if run.kind == "skipped":
        return Judged("skipped", run.value)
    if run.kind == "errored":
        return failed(run.value)
    r = run.value
    if not isinstance(r, dict):
        return failed(f"the driver's result is not an object: {r!r}"[:600])
    if "missing" in r:
        if family in OPTIONAL:
            return Judged("skipped", f"{r['missing']} is not provided (an optional extension)")
        return failed(f"{r['missing']} is not a function: the engine lacks it")
    if family not in GAME_FAMILIES and "error" in r:
        return failed(f"the call failed {_failure_text(r['error'])}")
    if family in FAMILY_RULESET and (reason := _ruleset_refused(r)):
        return Judged("skipped", reason)
    return JUDGES[family](test, r)


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
            return f"the hand stopped {_failure_text(r['error'])}"
        decisions = r.get("decisions")
        for k, state in enumerate(decisions if isinstance(decisions, list) else []):
            if problem := _leaked(state, f"state() before answer {k}"):
                return problem
            if problem := _state_problem(state, f"state() before answer {k}"):
                return f"{problem} (schemas/state.schema.json)"
        if r.get("over") is not True:
            return f"game.over is {r.get('over')!r} after the hand (maxHands 1)"
        history = r.get("history")
        if not isinstance(history, list) or len(history) != 1:
            return f"history() is {history!r}"[:300] + ": expected one entry"
        problems = schemas.errors("history-entry", history[0], limit=1)
        if problems:
            return f"history()[0]: {problems[0]}"
        if len(history[0]["showdown"]) != showdown:
            return f"history()[0].showdown has {len(history[0]['showdown'])} entries, expected {showdown}"
        return _conserved(test["input"]["game"], _chips(r.get("standings")))
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
        return f"the hand stopped {_failure_text(r['error'])}"
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
        return f"act threw {_thrown(next(a['threw'] for a in actions if isinstance(a, dict) and 'threw' in a))}"
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


def smoke_tests(families: Iterable[str]) -> list[tuple]:
    """The smoke vectors for a selection of families: the two hands when a game family is
    selected, the lone hand when the hand family is. (dealHand is not among them: only the deck
    family needs it, and an engine without it is reported there, issue #12.)"""
    chosen = set(families)
    return (SMOKE_HANDS if GAME_FAMILIES & chosen else []) + ([SMOKE_LONE_HAND] if "hand" in chosen else [])


def smoke_problem(test: dict, check: Callable[[dict, dict], str | None], run: Run) -> str | None:
    if run.kind != "result":
        return f"skipped: {run.value}" if run.kind == "skipped" else str(run.value)
    r = run.value
    if not isinstance(r, dict):
        return f"the driver's result is not an object: {r!r}"[:300]
    if "missing" in r:
        return f"{r['missing']} is not a function"
    if "threw" in r:
        return f"threw {_thrown(r['threw'])}"
    return check(test, r)


# ---- running ------------------------------------------------------------------------------------

def _cut(text: str) -> str:
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + f" … ({len(text)} characters)"


class Runner:
    """Runs vectors through a driver, one Case each. After ABANDON_AFTER consecutive or
    ABANDON_FAMILY_AFTER in all fatal errors (hang, crash, garbage) in a family, that family's
    remaining vectors are skipped; after ABANDON_RUN_AFTER in the run, every remaining vector is.
    A hanging engine costs a few timeouts, not one per vector."""

    def __init__(self, driver) -> None:
        self.driver = driver
        self.streak: Counter = Counter()
        self.fatal: Counter = Counter()

    def abandoned(self, family: str) -> str | None:
        """Why ``family``'s next vector is not run, or None."""
        why = "not run: the engine hung or died on"
        if self.streak[family] >= ABANDON_AFTER:
            return f"{why} {ABANDON_AFTER} consecutive {family} vectors"
        if self.fatal[family] >= ABANDON_FAMILY_AFTER:
            return f"{why} {ABANDON_FAMILY_AFTER} {family} vectors"
        if sum(self.fatal.values()) >= ABANDON_RUN_AFTER:
            return f"{why} {ABANDON_RUN_AFTER} vectors of this run"
        return None

    def run(self, family: str, test: dict) -> Run:
        """The driver's run; an exception it lets escape (a bug, or something no one foresaw from an
        engine) fails this vector, never the whole certification, and the engine is restarted."""
        try:
            return self.driver.run(family, test)
        except Exception as exc:  # noqa: BLE001 - a last resort: the report must still be written
            try:
                self.driver.close()  # a driver starts a fresh engine on the next run
            except Exception:  # noqa: BLE001
                pass
            return Run("errored", f"the driver failed on this vector ({type(exc).__name__}: {exc})"[:1000],
                       fatal=True)

    def smoke(self, family: str, test: dict, check: Callable[[dict, dict], str | None]) -> Case:
        t0 = time.perf_counter()
        problem = smoke_problem(test, check, self.run(family, test))
        named = BREAKS.search(problem or "")
        return Case(test["id"], "smoke", "failed" if problem else "passed", test["clauses"],
                    _cut(f"{test['comment']}: {problem}") if problem else test["comment"],
                    seconds=time.perf_counter() - t0, breaks=named.group(1) if named else None)

    def vector(self, family: str, test: dict) -> Case:
        if reason := self.abandoned(family):
            return Case(test["id"], family, "skipped", test["clauses"], reason)
        t0 = time.perf_counter()
        run = self.run(family, test)
        self.streak[family] = self.streak[family] + 1 if run.fatal else 0
        self.fatal[family] += run.fatal
        try:
            j = judge(family, test, run)
        except Exception as exc:  # noqa: BLE001 - results come from the engine: any shape at all
            j = failed(f"the result is malformed and could not be judged ({type(exc).__name__}: {exc}): "
                       f"{run.value!r}"[:1000])
        first = j.first.as_json() if j.first is not None and j.status == "failed" else None
        return Case(test["id"], family, j.status, test["clauses"], _cut(j.message), j.diff, j.rulings,
                    [_cut(n) for n in j.notes], time.perf_counter() - t0,
                    breaks=first["clause"] if first else None, first=first, later=j.later, answers=j.answers,
                    alternative=j.alternative,
                    trajectory=failing_game(family, test["input"], run.value, first) if first else None)


def load_tests(families: Iterable[str], fresh_seed: int | None = None) -> dict[str, list[dict]]:
    """The committed vectors of ``families``, in the canonical family order; with ``fresh_seed``,
    each family that has them is followed by its fresh tests for that seed (fresh_vectors.py)."""
    chosen = set(families)
    tests = {f: vectors.load(f)["tests"] for f in FAMILIES if f in chosen}
    if fresh_seed is not None:
        for family, fresh in fresh_vectors.generate(fresh_seed, chosen).items():
            tests[family] = tests[family] + fresh
    return tests


def conclude(report: Report, run: "Sequence[str] | None" = None, absent: Sequence[str] = (),
             asked: bool = False) -> None:
    """Set ``certified``, ``verdict`` and the profile matrix (``profiles``, cert_profiles.matrix):
    each profile in ``run`` (default: the report's ruleset's) is certified when no vector of its
    families failed, none of its required families was skipped entirely and no family saw its
    ruleset refused for some games but not others; ``absent`` profiles, and those whose every
    vector the engine skipped, are not implemented. The report is certified when no profile is
    "not certified", some profile is certified and, when the profiles were ``asked`` for
    (--profile, --ruleset), none is "not implemented". A run of some families only (--family) is
    never a certification."""
    ruleset = report.ruleset or DEFAULT_RULESET
    asked = asked or run is None
    run = list(cert_profiles.RULESET_PROFILES[ruleset] if run is None else run)
    scope = "" if ruleset == DEFAULT_RULESET else f" for {ruleset}"
    counts = report.counts()
    failed_smoke = [c for c in report.smoke if c.status == "failed"]
    required = set(cert_profiles.families_of(run)) - OPTIONAL
    refused = Counter(c.group for c in report.cases
                      if c.status == "skipped" and c.message.startswith(RULESET_NOT_SUPPORTED))
    problems: dict[str, list[str]] = {}
    for g, c in counts.items():
        if c["failed"]:
            problems.setdefault(g, []).append(f"{c['failed']} failed in {g}")
        if g in required and sum(c.values()) == c["skipped"]:
            why = next((case.message for case in report.cases if case.group == g), "it has no vectors")
            problems.setdefault(g, []).append(f"required family {g} was skipped entirely ({why})")
        if 0 < refused[g] < sum(c.values()):
            problems.setdefault(g, []).append(f"{g}: the engine refused the ruleset for {refused[g]} of "
                                              f"{sum(c.values())} games (it must play all of them or none)")
    report.profiles = cert_profiles.matrix(counts, run, absent, smoke_failed=bool(failed_smoke), problems=problems,
                                           fuzz_group=fuzz.FUZZ_GROUP)
    headline = cert_profiles.headline(report.profiles)
    if failed_smoke:
        report.certified = False
        first = failed_smoke[0]
        report.verdict = (f"NOT CERTIFIED{scope} ({headline}): the smoke tier failed ({first.id}), so no vector "
                          "was run; fix the engine or adapter basics first")
        return
    totals = Counter()
    for c in counts.values():
        totals.update(c)
    tally = ", ".join(f"{totals[s]} {s}" for s in ("passed", "divergent", "failed", "skipped"))
    follows = sorted({(r, o) for c in report.cases if c.alternative for r, o in c.alternative.items()},
                     key=lambda item: int(item[0][1:]))
    if follows:  # which documented alternatives the engine was proven to follow
        tally += "; follows " + ", ".join(f"{r} = {o}" for r, o in follows)
    report.partial = set(report.groups) - {fuzz.FUZZ_GROUP} != set(cert_profiles.families_of(run))
    # A profile the engine skipped entirely is "not implemented": a problem only when it was asked for.
    unimplemented = {f for p, row in report.profiles.items() if row["verdict"] == cert_profiles.NOT_IMPLEMENTED
                     for f in cert_profiles.PROFILES[p]}
    reasons = [r for g, rs in problems.items() for r in rs
               if asked or g not in unimplemented or not r.startswith("required family")]
    report.ok = not reasons
    if report.partial:  # what it ran, never CERTIFIED; the matrix shows only the profiles it touched
        report.profiles = {p: row for p, row in report.profiles.items()
                           if row["families"] or row["verdict"] == cert_profiles.NOT_IMPLEMENTED}
        ran = f"a run of the families {', '.join(report.groups) or '(none)'} only{scope}, not a certification"
        report.verdict = (f"NO FAILURES in {ran}: {tally}" if report.ok
                          else f"FAILURES in {ran}: {'; '.join(reasons)} ({tally})")
        return
    verdicts = [row["verdict"] for row in report.profiles.values()]
    report.certified = (report.ok and cert_profiles.CERTIFIED in verdicts and cert_profiles.NOT_CERTIFIED not in verdicts
                        and not (asked and cert_profiles.NOT_IMPLEMENTED in verdicts))
    if report.certified:
        certified = [p for p, v in zip(report.profiles, verdicts) if v == cert_profiles.CERTIFIED]
        rest = [p for p, v in zip(report.profiles, verdicts) if v != cert_profiles.CERTIFIED]
        report.verdict = (f"CERTIFIED{scope} for {', '.join(certified)}"
                          + (f" (not implemented: {', '.join(rest)})" if rest else "") + f": {tally}")
        return
    why = reasons + [f"{p}: {'; '.join(row.get('reasons', []))}" for p, row in report.profiles.items()
                     if row["verdict"] == cert_profiles.NOT_IMPLEMENTED]
    report.verdict = f"NOT CERTIFIED{scope} ({headline}): {'; '.join(why)} ({tally})"


def _fuzz(runner: Runner, plan: "fuzz.FuzzPlan", report: Report, on_case) -> None:
    """Differential fuzzing after the vectors: its games are the report's ``fuzz`` row."""
    report.groups.append(fuzz.FUZZ_GROUP)
    done = fuzz.run_plan(runner, plan, lambda case: (report.cases.append(case), on_case(case)))
    report.subject["fuzz"] = {"seed": plan.seed, "games": done.games, "budgetSeconds": plan.seconds,
                              **({"shrinkRuns": done.shrink_runs} if done.vector else {})}


def load_failed(exc: EngineLoadError) -> Case:
    return Case("smoke.load", "smoke", "failed", [], f"the engine could not be loaded: {exc}")


def start(driver, families: Iterable[str]) -> tuple[list[Case], dict, Runner | None]:
    """Load the engine and run the smoke tier: (smoke cases, the driver's description of the
    engine, a Runner for the vectors -- None when loading or a smoke check failed)."""
    try:
        info = driver.start()
    except EngineLoadError as exc:
        return [load_failed(exc)], {}, None
    cases, runner = smoke_tier(driver, families)
    return cases, info, runner


def smoke_tier(driver, families: Iterable[str]) -> tuple[list[Case], Runner | None]:
    """The smoke checks of a loaded engine for ``families``: (cases, a Runner, or None when one failed)."""
    cases = [Case("smoke.load", "smoke", "passed", [], "the engine loaded")]
    runner = Runner(driver)
    for family, test, check in smoke_tests(families):
        cases.append(runner.smoke(family, test, check))
        if cases[-1].status == "failed":
            return cases, None
    return cases, runner


def certify(driver, tests: dict[str, list[dict]], subject: dict, *, ruleset: str = DEFAULT_RULESET,
            on_case: Callable[[Case], None] = lambda case: None, title: str = "holdem-cert engine",
            fuzz_plan: "fuzz.FuzzPlan | None" = None, profiles: "Sequence[str] | None" = None) -> Report:
    """Load the engine, choose its profiles (cert_profiles.select: ``profiles`` asked for, else
    what the engine declares, else ``ruleset``'s), run the smoke tier of their families, then (if
    it passed) every vector of ``tests`` (family -> vectors, as :func:`load_tests` gives them)
    except those of profiles the engine does not implement, and conclude per profile.

    ``subject`` describes the engine for the report; the driver's own description is merged in.
    The driver is closed at the end.
    """
    if ruleset not in RULESETS:
        raise ValueError(f"ruleset: unknown {ruleset!r} (known: {', '.join(RULESETS)})")
    unknown = [p for p in profiles or () if p not in cert_profiles.PROFILES]
    if unknown:
        raise ValueError(f"profiles: unknown {unknown[0]!r} (known: {', '.join(cert_profiles.PROFILES)})")
    report = Report(title, "engine", dict(subject), list(tests), ruleset=ruleset)
    run, absent = list(cert_profiles.PROFILES), []
    try:
        try:
            info = driver.start()
        except EngineLoadError as exc:
            report.smoke = [load_failed(exc)]
            info, runner = {}, None
        else:
            profiles = cert_profiles.asked_under(profiles, ruleset)
            run, absent = cert_profiles.select(profiles, cert_profiles.declared(info.get("profiles")), ruleset)
            chosen = set(cert_profiles.families_of(run))
            tests = {f: t for f, t in tests.items() if f in chosen}
            report.groups = list(tests)
            info = {**info, "missing": cert_profiles.needed_missing(info.get("missing", []), run)}
            if report.subject.get("fresh"):  # the fresh tests of the profiles run
                info["fresh"] = fresh_vectors.summary(report.subject["fresh"]["seed"], tests)
            report.smoke, runner = smoke_tier(driver, tests)
        report.subject.update(info)
        if runner is not None:
            for family, family_tests in tests.items():
                for test in family_tests:
                    case = runner.vector(family, test)
                    report.cases.append(case)
                    on_case(case)
            if fuzz_plan is not None and cert_profiles.FUZZ_PROFILE in run and fuzz.FUZZ_FAMILY in tests:
                _fuzz(runner, fuzz_plan, report, on_case)
    finally:
        driver.close()
    conclude(report, run, absent, asked=bool(profiles))
    return report
