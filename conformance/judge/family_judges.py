"""One judge per vector family: what an engine's outcome for a vector means (docs/INTERPRETING.md)."""
from __future__ import annotations

from reference import adapter
from reference.cards import CANONICAL_DECK
from reference.errors import EvaluateError
from reference.evaluator import evaluate_array_like
from reference.errors import HoldemError

from conformance.vectors.gamespec import GAME_FAMILIES, answer
from .js_values import UNDEFINED, js_text
from .diffs import is_finite, is_number, pots_differences, readable_diff
from .engine_drivers import Run
from .families import FAMILY_RULESET, OPTIONAL, RULESET_NOT_SUPPORTED
from .hand_judge import judge_hand
from .helper_causes import equity_behaviour, evaluate_behaviour, pots_behaviour
from .judged import (NO_DECISIONS, Judged, failure_text, game_judged, must_throw, thrown_text, failed, judge_outcome,
                     passed, suite_error)
from .refusals import code_of, is_refusal, refusal_note
from .sng3v4_judge import judge_sng3v4
from . import dealing, invariants
from .comparison import Comparison, same
from .step_judge import describe, judge_views
from .trajectory import Plan, legality_views

# ---- family judges ------------------------------------------------------------------------------

def _rng(test: dict, r: dict) -> Judged:
    if is_refusal(r):
        return failed(f"rng(seed) or a call of the generator threw {thrown_text(r['threw'])}")
    count = test["input"]["count"]

    def well_formed() -> str | None:
        values = r.get("values")
        if not isinstance(values, list) or len(values) != count:
            return f"expected {count} values"
        bad = [v for v in values if not (is_number(v) and 0 <= v < 1)]
        return f"{js_text(bad[0])} is not a number in [0, 1)" if bad else None

    return judge_outcome(test, {"values": r.get("values")}, test["expected"], well_formed)


def _seeded_game(test: dict, r: dict) -> Judged:
    """A seeded game and the same game with the engine's own dealHand decks pinned must be the
    same game, hand for hand (a property of every derivation, R2, and either end dealt, R3)."""
    if is_refusal(r):
        return failed(f"dealHand threw {thrown_text(r['threw'])}")
    seeded, pinned = r.get("seeded"), r.get("pinned")
    for name, run in (("seeded", seeded), ("pinned", pinned)):
        if not isinstance(run, dict) or "error" in run:
            return failed(f"the {name} game stopped {js_text(failure_text(run.get('error')) if isinstance(run, dict) else run)}")
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
    call = f"dealHand({js_text(i['seed'])}, {js_text(i['handNumber'])})"
    deck = r.get("deck")
    if "error" in test["expected"]:  # a bad handNumber: the reference throws (R2's choice, so acceptable)
        return must_throw(r, call, test, lambda d: None if _permutation(d) else "not a permutation of the 52 cards",
                          returned=deck)
    if is_refusal(r):
        return failed(f"{call} threw {thrown_text(r['threw'])}")
    if not same(deck, r.get("again")):
        return failed(f"two calls of {call} returned different decks (it must depend only on its arguments)",
                      readable_diff(deck, r.get("again")))

    def well_formed() -> str | None:
        return None if _permutation(deck) else "not a permutation of the 52 cards"

    return judge_outcome(test, {"deck": deck}, test["expected"], well_formed)


def _permutation(deck: object) -> bool:
    return isinstance(deck, list) and all(isinstance(c, str) for c in deck) and sorted(deck) == sorted(CANONICAL_DECK)


def _evaluate(test: dict, r: dict) -> Judged:
    i, expected = test["input"], test["expected"]
    if test["result"] == "invalid":
        return must_throw(r, f"evaluate({js_text(i['cards'])})", test, returned=r.get("result"))
    if "error" in expected:  # an array-like object (R40): evaluating it as its items is the other option
        return must_throw(r, f"evaluate({js_text(i['cards'])})", test, lambda res: _as_array_like(i["cards"], res),
                          returned=r.get("result"))
    if is_refusal(r):
        return failed(f"evaluate threw {thrown_text(r['threw'])}")
    if "digest" in i:
        return judge_outcome(test, {k: r.get(k) for k in expected}, expected)
    if "a" in i:
        values = [x.get("value") if isinstance(x, dict) else None for x in (r.get("a"), r.get("b"))]
        if not all(is_finite(v) for v in values):
            return failed(f"evaluate(...).value is not a finite number: a {js_text(values[0])}, b {js_text(values[1])}")
        order = (values[0] > values[1]) - (values[0] < values[1])
        if order != expected["order"]:
            return failed(f"sign(value(a) - value(b)) is {order:+d}, expected {expected['order']:+d} "
                          f"(values {js_text(values[0])} and {js_text(values[1])})")
        return passed()
    res = r.get("result")
    if not isinstance(res, dict):
        return failed(f"evaluate returned {js_text(res)}, not an object")
    if set(expected) == {"rank"}:
        return _evaluate_rank(i["cards"], expected["rank"], res, r.get("bestValue"))

    def well_formed() -> str | None:
        if not same(res.get("rank"), expected["rank"]):
            return f"rank {js_text(res.get('rank', UNDEFINED))}, expected {expected['rank']}"
        if not is_finite(res.get("value")):
            return f"value {js_text(res.get('value', UNDEFINED))} is not a finite number"
        return None if isinstance(res.get("name"), str) and res["name"] else f"name {js_text(res.get('name', UNDEFINED))}"

    return judge_outcome(test, {k: res[k] for k in expected if k in res}, expected, well_formed)


def _as_array_like(cards: dict, res: object) -> str | None:
    """Whether ``res`` is what R40's ``accept-array-like`` gives: the evaluation of the object's items
    (its rank, value and name, and a best of five of those cards)."""
    try:
        want = evaluate_array_like(cards)
    except EvaluateError as exc:
        return f"its items are refused as cards too ({exc})"
    if not isinstance(res, dict) or any(not same(res.get(k), want[k]) for k in ("rank", "value", "name")):
        return f"not the evaluation of its items ({js_text(want['name'])}, value {want['value']})"
    best, items = res.get("best"), [cards[str(k)] for k in range(cards["length"])]
    if not (isinstance(best, list) and len(best) == 5 and len(set(map(str, best))) == 5 and all(c in items for c in best)):
        return f"best {js_text(best)} is not five of its cards"
    return None


def _evaluate_rank(cards: list, rank: int, res: dict, best_value: object) -> Judged:
    if not same(res.get("rank"), rank):
        return failed(f"rank {js_text(res.get('rank', UNDEFINED))}, expected {rank}", readable_diff({"rank": rank}, {"rank": res.get("rank")}))
    best = res.get("best")
    if not (isinstance(best, list) and len(best) == 5 and all(isinstance(c, str) and c in cards for c in best)
            and len(set(best)) == 5):
        return failed(f"best {js_text(best)} is not five distinct input cards")
    if not is_finite(res.get("value")):  # said once, not "x is undefined, but y is undefined"
        return failed(f"the result's value is {js_text(res.get('value', UNDEFINED))}: a finite number is due")
    if not same(best_value, res.get("value")):
        return failed(f"evaluate(best).value is {js_text(best_value)}, another value than the result's "
                      f"{js_text(res['value'])}")
    return passed()


def _equity(test: dict, r: dict) -> Judged:
    i, expected = test["input"], test["expected"]
    result = r.get("equity")
    call = f"equity({js_text(i['hole'])}, {js_text(i['board'])}, {js_text(i['opponents'])}, {js_text(i['iterations'])}, {i['random']['kind']} random)"
    if "error" in expected:
        return must_throw(r, call, test, lambda x: None if is_number(x) and 0 <= x <= 1 else "not in [0, 1]", result)
    if is_refusal(r) and i["random"]["kind"] == "omitted":  # R41's other option: random required
        return Judged("divergent", f"{call} threw {thrown_text(r['threw'])}: random required (R41's random-required)",
                      rulings=test["rulings"])
    if is_refusal(r):
        return failed(f"{call} threw {thrown_text(r['threw'])}")
    if not is_finite(result):
        return failed(f"{call} returned {js_text(result)}, not a finite number")
    if "value" in expected:  # the exact stream (R6): another procedure must still estimate the equity
        if same(result, expected["value"]):
            return passed()
        off = abs(result - expected["equity"])
        if off <= expected["tolerance"]:
            return Judged("divergent", f"{js_text(result)} differs from the exact-stream value {js_text(expected['value'])} and is "
                          f"within tolerance of the equity {js_text(expected['equity'])}: another sampling procedure",
                          rulings=test["rulings"])
        return failed(f"{js_text(result)} differs from the exact-stream value {js_text(expected['value'])} and is {off:.6f} from the "
                      f"equity {js_text(expected['equity'])}, beyond the tolerance {expected['tolerance']:.6f}: no sampling "
                      "procedure (R6) explains it (hands mis-ranked, or ties shared wrongly?)")
    off = abs(result - expected["equity"])
    if off <= expected["tolerance"] and "calls" in expected and not same(r.get("calls"), expected["calls"]):
        return Judged("divergent", f"{call} returned {js_text(result)} having called random {js_text(r.get('calls'))} "
                      f"times, where R6's procedure calls it {expected['calls']} times: another procedure", rulings=test["rulings"])
    if off <= expected["tolerance"]:
        return passed()
    return failed(f"equity {js_text(result)} is {off:.6f} from the exact {js_text(expected['equity'])}, beyond the tolerance "
                  f"{expected['tolerance']:.6f} (5 standard errors)")


def _pots_shape(pots: object) -> str | None:
    if not isinstance(pots, list) or not all(
            isinstance(p, dict) and isinstance(p.get("amount"), int) and not isinstance(p.get("amount"), bool)
            and isinstance(p.get("eligible"), list) for p in pots):
        return "expected a list of {amount, eligible}"
    return None


def _taken_pots_shape(pots: object) -> str | None:
    """Whether pots made from contributions buildPots should have refused (R38) are well formed,
    by one rule for every malformed input: a list of {amount, eligible} with finite amounts. An
    amount need not be an integer, nor the pots hold a sum, when the input's amounts were neither
    integers nor non-negative (50.5 contributed is 50.5 chips in some pot; -50 is no chips at all)."""
    if not isinstance(pots, list) or not all(
            isinstance(p, dict) and is_finite(p.get("amount")) and isinstance(p.get("eligible"), list) for p in pots):
        return "expected a list of {amount, eligible} with finite amounts"
    return None


def _pots(test: dict, r: dict) -> Judged:
    pots = r.get("pots")
    if "error" in test["expected"]:  # malformed contributions: refused (R38, so acceptable)
        return must_throw(r, "buildPots(contributions)", test, _taken_pots_shape, returned=pots)
    if is_refusal(r):
        return failed(f"buildPots threw {thrown_text(r['threw'])}")
    contributions = test["input"]["contributions"]

    def well_formed() -> str | None:
        if problem := _pots_shape(pots):
            return problem
        total = sum(c["committed"] for c in contributions)
        got = sum(p["amount"] for p in pots)
        return None if got == total else f"the pots hold {got} chips, the contributions {total}"

    j = judge_outcome(test, {"pots": pots}, test["expected"], well_formed)
    if j.status == "failed" and isinstance(pots, list):  # in the engine's terms, not deepdiff's
        lines = pots_differences(test["expected"]["pots"], pots)
        j.message += "; " + "; ".join(lines[:6]) + (f"; … and {len(lines) - 6} more" if len(lines) > 6 else "")
        j.diff = "\n".join(["(how the pots differ from the expected ones)"] + lines[:40])
    return j


def _legality(test: dict, r: dict) -> Judged:
    """The state after the prefix, the act (or its refusal, the state after it and submit's
    fallback), judged as one decision of a game (step_judge.judge_views)."""
    i, expected = test["input"], test["expected"]
    if (j := _prefix_judged(test, r)) is not None:
        return j
    if "error" in r and "state" not in r:
        return _prefix_refused(test, r) or failed(f"the game could not be set up: {failure_text(r['error'])}")
    act = r.get("act") if isinstance(r.get("act"), dict) else {}
    notes = []
    actual_view = {"state": r.get("state"), "act": "throws" if is_refusal(act) else r.get("act")}
    if isinstance(r.get("next"), dict):  # (not compared: it tells a misstated record, step_judge._record_misstated)
        actual_view["next"] = r["next"]
    if is_refusal(act):  # what followed the refusal (the reference's views have it when it refuses too)
        actual_view["stateAfter"] = r.get("stateAfter")
        submit = r.get("submit")
        actual_view["fallback"] = submit.get("action") if isinstance(submit, dict) and "action" in submit else submit
        if note := refusal_note("act(answer)", code_of(act["threw"]), expected.get("rejected")):
            notes.append(note)
    if "error" in r:
        actual_view["error"] = failure_text(r["error"])
    verdict = _legality_decision(i["game"], i["prefix"], i["answer"], actual_view,
                                 [r.get("state"), r.get("stateAfter")])
    j = game_judged(verdict)
    j.notes += notes
    return j


def _legality_decision(game: dict, prefix: list, given: object, actual_view: dict, states: list):
    """The engine's ``actual_view`` of the decision after ``prefix`` answered ``given``, judged against
    the reference's (step_judge.judge_views), on the cards the engine dealt where it deals its own
    (issue #23: ``states`` are its states that show them)."""
    views = lambda spec: legality_views(spec, prefix, given)  # noqa: E731
    verdict = judge_views(game, len(prefix), answer(given), actual_view, views, "legality")
    return dealing.followed(verdict, dealing.observe({"decisions": states}), dealing.pinned_decks(game),
                            lambda dealt: judge_views({**game, "dealt": dealt}, len(prefix), answer(given), actual_view,
                                                      views, "legality"))


PREFIX_DIFFERS = ("a difference in the prefix (judged as a game's decisions): the state after it and the "
                  "answer follow from it, judged no further")


def _prefix_judged(test: dict, r: dict) -> "Judged | None":
    """A legality vector whose prefix the engine played otherwise, judged as a game's decisions are
    (its recorded ``prefix``: the state before each answer and the action it recorded,
    docs/engine-protocol.md; the reference follows the engine): failed with those differences, each
    under its own rule (issue #38, item 1); None when the prefix was played as due (or not recorded)."""
    i, trail = test["input"], r.get("prefix")
    if not (isinstance(trail, dict) and isinstance(trail.get("decisions"), list)
            and isinstance(trail.get("actions"), list)):
        return None
    trajectory = {"decisions": trail["decisions"], "actions": trail["actions"],
                  **({"error": r["error"]} if "error" in r else {}),
                  # the state after the prefix: tells a misstated last record (following.replay_decisions)
                  **({"after": r["state"]} if isinstance(r.get("state"), dict) else {})}
    plan = Plan(tuple(answer(a) for a in i["prefix"]))
    verdict = dealing.judge_game(i["game"], trajectory, plan, family="legality", decisions_only=True)
    if verdict.status != "failed":
        return None
    j = game_judged(verdict)
    j.notes.append(PREFIX_DIFFERS)
    return j


def _prefix_refused(test: dict, r: dict) -> "Judged | None":
    """A legality vector whose prefix answer ``k`` the engine refused, with the state it refused it
    in (``prefixState``, docs/engine-protocol.md): that decision judged as a legality vector of the
    first ``k`` answers would be (the prefix's answers are legal; where the engine's own state
    refuses the answer, the state's difference is the cause, issue #38, item 2); None without it."""
    i, seen = test["input"], r.get("prefixState")
    if not (isinstance(seen, dict) and isinstance(seen.get("at"), int) and 0 <= seen["at"] < len(i["prefix"])):
        return None
    k = seen["at"]
    verdict = _legality_decision(i["game"], i["prefix"][:k], i["prefix"][k], {"state": seen.get("state"), "act": "throws"},
                                 [seen.get("state")])
    if verdict.status == "passed":
        return None
    j = game_judged(verdict)
    j.notes.append(f"the game could not be set up: {failure_text(r['error'])}; judged at that answer (prefix[{k}])")
    return j


def _hands(test: dict, r: dict) -> Judged:
    """Every decision state, action, the history and the standings, step by step (step_judge)."""
    i = test["input"]
    return game_judged(dealing.judge_game(i["game"], r, Plan.of(i), family="hands", required=len(i["script"]),
                                   v4_steps=i.get("steps"),
                                   broken=lambda: invariants.chips_lost(i["game"], r)))


def _tournaments(test: dict, r: dict) -> Judged:
    """Step by step when the engine reports its decisions (the JS driver always does; a --cmd
    engine may, docs/engine-protocol.md); else on log() and standings() alone, with a note."""
    i = test["input"]
    j = game_judged(dealing.judge_game(i["game"], r, Plan.of(i), family="tournaments", with_log=True,
                                broken=lambda: invariants.chips_lost(i["game"], r)))
    if "decisions" not in r:
        j.notes.append(NO_DECISIONS)
    return j


def _hand(test: dict, r: dict) -> Judged:
    """A lone hand through the hand-level API, step by step (hand_judge); without ``again`` (optional
    for a --cmd engine, docs/engine-protocol.md) freshness is not judged, with a note."""
    j = game_judged(judge_hand(test["input"], r))
    if isinstance(r, dict) and "decisions" in r and "again" not in r:
        j.notes.append(NO_AGAIN)
    return j


NO_AGAIN = "the engine reported no second states ('again', an optional extension): freshness (state.fresh) not judged"


def after_the_end(j: Judged, r: object) -> Judged:
    """R44: an answer given once the game or hand is over (the driver's ``afterEnd`` probes:
    ``act``, and a game's ``submit`` and ``timeout``) is refused: any throw passes. Taken with
    nothing the engine reports of the finished game changed (over, history, log, standings; a
    hand's result) is divergent on R44; taken so that something changed fails (rules.end: the
    game or hand had ended)."""
    after = r.get("afterEnd") if isinstance(r, dict) else None
    if j.status == "failed" or not isinstance(after, dict) or not isinstance(after.get("probes"), dict):
        return j
    taken = [name for name, o in after["probes"].items() if not (isinstance(o, dict) and "threw" in o)]
    if not taken:
        return j
    said = f"{', '.join(f'{n}()' for n in taken)} after the end returned instead of throwing"
    if after.get("same") is not True:
        k = failed(f"{said}, and what the engine reports of the finished game changed", notes=j.notes, breaks="rules.end")
        return k
    if j.status == "divergent":
        j.rulings = sorted(set(j.rulings) | {"R44"})
        j.message = f"{j.message}; {said} (R44)"
        return j
    return Judged("divergent", f"{said}, changing nothing (R44: refused)", rulings=["R44"], notes=j.notes)


def shared_values(j: Judged, r: object) -> Judged:
    """R45: a caller's edit of what the engine handed out (``log()``, ``history()``,
    ``standings()``, a hand's ``result()``) or of what it gave (``create``'s options, the hand's
    spec) after the call never reaches the engine (the driver's ``shared`` probes). An engine
    sharing them is divergent on R45 (docs/engine-api.md is silent)."""
    probes = r.get("shared") if isinstance(r, dict) else None
    if j.status == "failed" or not isinstance(probes, dict):
        return j
    kept = sorted(k for k, v in probes.items() if v is True)
    if not kept:
        return j
    said = f"a caller's edit reaches the engine through {', '.join(kept)} (R45: copies)"
    if j.status == "divergent":
        j.rulings = sorted(set(j.rulings) | {"R45"})
        j.message = f"{j.message}; {said}"
        return j
    return Judged("divergent", said, rulings=["R45"], notes=j.notes)


def _probed(judge):
    """``judge`` then the engine API probes of a game or hand (R44, R45)."""
    return lambda test, r: shared_values(after_the_end(judge(test, r), r), r)


JUDGES = {"rng": _rng, "deck": _deck, "evaluate": _evaluate, "equity": _equity, "pots": _pots,
          "legality": _legality, "hands": _hands, "hand": _probed(_hand), "tournaments": _probed(_tournaments),
          "sng3v4": _probed(judge_sng3v4)}
HELPER_BEHAVIOURS = {"evaluate": evaluate_behaviour, "equity": equity_behaviour, "pots": pots_behaviour}


# The call that must refuse a game or hand vector of invalid input (R38), by family.
CREATES = {"tournaments": "create", "hand": "createHand", "sng3v4": "create"}


def _create_refused(family: str, test: dict, r: dict) -> Judged:
    """Invalid seats, options or hand spec: the engine's create call must throw; any refusal
    passes, the field it names only a note (refusals.py). Taking input that R38 rules on is
    divergent on R38 for the taking alone: the game the engine then plays is judged by the rules
    every game keeps, whatever its spec (invariants.py: no card dealt twice, chips conserved), and
    fails on each it breaks. Taking input the ruleset's own text rules out (the vector is not
    acceptable and names the clause it ``breaks``: v4's "Exactly three distinct identities") fails
    with that clause."""
    call, error, expected = CREATES[family], r.get("error"), test["expected"]
    if isinstance(error, dict) and error.get("at") == call:
        note = refusal_note(call, code_of(error, "field"), expected["error"], "a field")
        return passed([note] if note else [])
    accepted = f"{call} accepted the invalid input (the reference refuses it naming {expected['error']})"
    if test["result"] != "acceptable":
        clause = expected.get("breaks")
        return failed(accepted + (f": the text rules it out ({clause})" if clause else ""), breaks=clause)
    broken = invariants.broken(r)
    if broken:  # taking it is R38's divergence; what the game then did is not
        more = f" (and {len(broken) - 1} more: {'; '.join(b.message for b in broken[1:])})" if len(broken) > 1 else ""
        return failed(f"{accepted}, which alone is divergent on R38; the game it then played breaks {broken[0].clause}: "
                      f"{broken[0].message}{more}", breaks=broken[0].clause)
    if error is not None:
        return failed(f"{call} accepted the invalid input, then failed {failure_text(error)}")
    return Judged("divergent", accepted + "; the game it played keeps every rule that needs no valid spec "
                  "(no card dealt twice, chips conserved)", rulings=test["rulings"])


NULL_REFUSED = {"R42": "refuse"}  # R42's alternative: null for the options, stacks, decks or controllers refused


def _null_refused(family: str, test: dict, r: dict) -> Judged | None:
    """A game given null for an option (R42: the option not given, the reference's reading) that the
    engine's create refused: divergent on R42 when the reference under R42 = 'refuse' refuses it
    too (reference.adapter.given_options); None (judged as any game) when the engine did not refuse."""
    seeded = r.get("seeded")  # a deck family's seeded game (_seeded_game): the game given the null
    error = seeded.get("error") if isinstance(seeded, dict) else r.get("error")
    if not (isinstance(error, dict) and error.get("at") == "create"):
        return None
    try:
        adapter.create({**test["input"]["game"], "rulings": NULL_REFUSED})
    except HoldemError:
        j = Judged("divergent", f"create threw {thrown_text(error)} where the reference takes null as the option not "
                   "given; the reference under R42 = 'refuse' refuses it too", rulings=["R42"])
        j.alternative = dict(NULL_REFUSED)
        return j
    return None


def _ruleset_refused(r: dict) -> str | None:
    """The skip reason when ``create`` threw naming the field ``ruleset`` (docs/engine-api.md: an
    engine may support only contract-v1), else None."""
    error = r.get("error")
    if not (isinstance(error, dict) and error.get("at") == "create"):
        return None
    field = error.get("field")
    if field == "ruleset" or (field is None and "ruleset" in str(error.get("message"))):
        return f"{RULESET_NOT_SUPPORTED}: create threw {thrown_text(error)}"
    return None


def judge(family: str, test: dict, run: Run) -> Judged:
    """The verdict on one vector, from what the driver reported."""
    if run.kind == "skipped":
        return Judged("skipped", run.value)
    if run.kind == "errored":
        return failed(run.value)
    if run.kind == "suite-error":  # the suite's own driver or strategies could not go on (engine_driver.js)
        return suite_error(run.value)
    r = run.value
    if not isinstance(r, dict):
        return failed(f"the driver's result is not an object: {js_text(r)}"[:600])
    if "missing" in r:
        if family in OPTIONAL:
            return Judged("skipped", f"{r['missing']} is not provided (an optional extension)")
        return failed(f"{r['missing']} is not a function: the engine lacks it")
    if family in FAMILY_RULESET and (reason := _ruleset_refused(r)):  # before a refusal a vector expects
        return Judged("skipped", reason)
    if family in CREATES and "error" in test["expected"]:
        return _create_refused(family, test, r)
    if "R42" in test["rulings"] and (j := _null_refused(family, test, r)):
        return j
    if family not in GAME_FAMILIES and family != "hand" and "error" in r:  # a lone hand: hand_judge
        return failed(f"the call failed {failure_text(r['error'])}")
    j = JUDGES[family](test, r)
    if j.status == "failed" and family in HELPER_BEHAVIOURS and (found := HELPER_BEHAVIOURS[family](test, r)):
        # a rule's behaviour, as a game shows it: one cause with the game's differences (issue #38)
        j.breaks, j.kind = found
        j.message += f" -- {found[1]} (breaks {found[0]})"
    return j
