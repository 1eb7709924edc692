"""Family ``sng3v4``: holdem-sng-3-v4 games with virtual-time events (late answers, timeouts,
recovery), then played to the end with seat strategies: every step's outcome, the log and the
standings (rulings R22-R27)."""
from reference.adapter import run_sng3v4
from reference.errors import OptionError
from reference.scenario import pinned_deck

from conformance.vectors.gamespec import STRATEGIES, game, tournament
from conformance.vectors.vectorfile import make_test
from .tournaments import log_entry

V4 = "holdem-sng-3-v4"
NOTES = {
    "Sng": {"description": "replay the steps (answer / late answer / timeout / recover), then the strategies to the end; "
            "step outcomes, log and standings must match", "clauses": ["rules.end", "determinism.engine", "timing.fallback"],
            "ruling": None},
    "Clock": {"description": "an answer at or after the clock is a timeout; invalid answers run the clock out", "clauses": ["timing.fallback"], "ruling": "R22"},
    "Seating": {"description": "seats and first button from the seed", "clauses": ["rules.button"], "ruling": "R23"},
    "Vocabulary": {"description": "bet and all_in map onto the contract's answers", "clauses": ["return.forms"], "ruling": "R24"},
    "Reveal": {"description": "only the hole cards each awarded hand needs are public (board cards preferred)", "clauses": ["rules.showdown-public"], "ruling": "R25"},
    "UncontestedPot": {"description": "a pot with one eligible seat is awarded without a showdown: it reveals nothing", "clauses": ["rules.showdown-public"], "ruling": "R31"},
    "AutoFold": {"description": "auto-folded seats post blinds, never act and win nothing; recovery at the next hand", "clauses": ["rules.elimination"], "ruling": "R26"},
    "Places": {"description": "simultaneous eliminations: the lower seat (equal final stacks)", "clauses": ["rules.simultaneous"], "ruling": "R27"},
    "RepeatedIdentities": {"description": "a repeated identity: v4's text says \"Exactly three distinct identities start the "
                           "game\", so create throws (the field is a note) and taking it fails (expected.breaks)",
                           "clauses": ["rules.distinct-identities"], "ruling": None},
    "NoSuchSeat": {"description": "a recovery asked for a seat the game does not have: refused (docs/engine-api.md)",
                   "clauses": ["rules.seats"], "ruling": "R38"},
}

IDS = ["alice", "bob", "carol"]
R = lambda amount: {"type": "raise", "amount": amount}  # noqa: E731
T = {"timeout": True}


def late(answer, at_ms):
    return {"answer": answer, "atMs": at_ms}


def cc(state):
    return "check" if state["canCheck"] else "call"


def until_auto_folded(then=None, seat=None):
    """The first seat to act (or ``seat``) times out at each of its turns until auto-folded; the
    others check or call. ``then(seat, t)`` may add steps afterwards (e.g. a recovery request)."""
    def policy(t, state, steps, memo):
        seat_ = memo.setdefault("seat", state["you"]["seat"] if seat is None else seat)
        if t.auto_folded[seat_] or "asked" in memo:
            return then(seat_, t, memo) if then else None
        return T if state["you"]["seat"] == seat_ else cc(state)
    return policy


def recover_then_play(seat, t, memo):
    if "asked" not in memo:
        memo["asked"] = t.hand_number
        return {"recover": seat}
    return None if t.hand_number > memo["asked"] + 1 else cc(t.decision_state())


def bust_then_recover(seat, t, memo):
    if t.out[seat]:
        return None if memo.get("asked") else memo.setdefault("asked", {"recover": seat})
    return cc(t.decision_state())


def recover_twice(seat, t, memo):
    """Two requests in the same hand: both are queued (the first takes effect only at the boundary)."""
    memo.setdefault("asked", 0)
    if memo["asked"] < 2:
        memo["asked"] += 1
        return {"recover": seat}
    return None


def recover_then_time_out_again(seat, t, memo):
    """One recovery, then the seat times out at each of its turns until auto-folded again: a
    request is used up by the boundary it takes effect at (R26), so the next boundary leaves the
    seat auto-folded (and its consecutive timeouts count on across hands)."""
    if "asked" not in memo:
        memo["asked"] = t.hand_number
        return {"recover": seat}
    state = t.decision_state()
    if t.hand_number == memo["asked"]:
        return cc(state)  # the seat is folded for the rest of this hand
    if t.auto_folded[seat]:
        return None
    return T if state["you"]["seat"] == seat else cc(state)


def recover_by_number_string(seat, t, memo):
    """A recovery asked for the seat's number as a string (no seat: refused, R38), then for the
    seat itself (seat 0: the lowest seat exists); the recovered seat plays the next hand."""
    asked = memo.setdefault("asked", [])
    if len(asked) < 2:
        asked.append(t.hand_number)
        return {"recover": str(seat) if len(asked) == 1 else seat}
    return None if t.hand_number > asked[-1] + 1 else cc(t.decision_state())


def recover_with_the_blind_all_in(seat, t, memo):
    """The auto-folded seat bleeds its blinds; in the hand whose blind takes its last chip (not out
    yet: it busts when the hand ends) a recovery is asked for: it has no chips, refused (R26)."""
    if "asked" in memo:
        return None
    if t.hand.stacks[seat] == 0 and not t.out[seat]:
        memo["asked"] = True
        return {"recover": seat}
    return cc(t.decision_state())


def timeout_valid_timeout_timeout(t, state, steps, memo):
    """The first seat to act: timeout, a valid answer, then two timeouts: no auto-fold (the valid
    answer reset the consecutive count). Others check or call; stop after the fourth."""
    seat = memo.setdefault("seat", state["you"]["seat"])
    if state["you"]["seat"] != seat:
        return cc(state)
    turns = memo.setdefault("turns", 0)
    if turns == 4:
        return None
    memo["turns"] = turns + 1
    return cc(state) if turns == 1 else T


def odd_words(t, state, steps, memo):
    """Answers v4's words make invalid: its word in a list ({"type": ["all_in"]}: a type is a string)
    first, then calls and checks until the flop, where the first seat to act bets one chip below the
    minimum opening bet; then stop. Each runs the clock (R22)."""
    if not steps:
        return {"type": ["all_in"]}
    if memo.get("bet"):
        return None
    if state["street"] == "flop" and state["currentBet"] == 0:
        memo["bet"] = True
        return {"type": "bet", "amount": state["minRaiseTo"] - 1}
    return cc(state)


def fixed(steps):
    def policy(t, state, done, memo):
        return steps[len(done)] if len(done) < len(steps) else None
    policy.past_end = True  # its steps may go on after the game ends (a recovery asked for then)
    return policy


# Seeds 3 and 7 give hand 1 button 2, small blind 0, big blind 1 (R23).
# Issue #14: seat 0 holds Kc 9d and wins on 9h Td Jc Qs 2c: only Kc is needed.
KING_HIGH_STRAIGHT = pinned_deck({0: "Kc9d", 1: "2d3d", 2: "4s5s"}, 3, 2, "9hTdJcQs2c")
# Seat 0 all-in for 100 preflop with aces; seats 1 and 2 bet on; seat 2 folds the turn: a side pot
# with one eligible seat (seat 1), which shows nothing (R31).
SIDE_POT = pinned_deck({0: "AsAh", 1: "KcKd", 2: "2c3d"}, 3, 2, "7h8s9dJc4s")
SIDE_POT_STEPS = [R(30), "allin", "call", "call", {"type": "bet", "amount": 50}, "call", {"type": "bet", "amount": 100}, "fold"]
# Issue #14's places: stacks 300/800/400, seat 1's aces bust seats 0 and 2 together (R27).
BUST_TWO = pinned_deck({0: "2c3d", 1: "AsAh", 2: "4c5d"}, 3, 2, "KsQdJh9c8h")

CASES = [
    # slug, options, controllers, step policy, strategies to finish
    ("three-timeouts-auto-fold", {"seed": 4}, None, until_auto_folded(), ["caller"] * 3),
    ("recovery-next-hand", {"seed": 9}, None, until_auto_folded(recover_then_play), ["caller", "checker", "caller"]),
    ("recovery-requested-twice-in-a-hand", {"seed": 9}, None, until_auto_folded(recover_twice), ["caller"] * 3),
    ("valid-answer-resets-consecutive-timeouts", {"seed": 4}, None, timeout_valid_timeout_timeout, ["caller"] * 3),
    ("recovery-unavailable-without-chips", {"seed": 3}, None, until_auto_folded(bust_then_recover), ["caller"] * 3),
    ("recovery-refused-when-not-auto-folded", {"seed": 3}, None, fixed([{"recover": 0}]), ["shover"] * 3),
    # A recovery is used up where it takes effect: the seat, timing out again, is auto-folded again.
    ("recovery-used-once", {"seed": 9}, None, until_auto_folded(recover_then_time_out_again), ["caller"] * 3),
    # Seat 0 by its number as a string is no seat (refused, R38); seat 0 itself recovers.
    ("recovery-of-seat-0-not-by-a-string", {"seed": 9}, None, until_auto_folded(recover_by_number_string, seat=0),
     ["caller"] * 3),
    # An auto-folded seat whose blind took its last chips has none in the hand: refused (R26).
    ("recovery-refused-with-the-blind-all-in", {"seed": 9, "stacks": [25, 1000, 1000]}, None,
     until_auto_folded(recover_with_the_blind_all_in, seat=0), ["caller"] * 3),
    # No seat 3 in a three-seat game: not auto-folded, so refused (R38: the engine API's refusals).
    ("recovery-refused-for-no-such-seat", {"seed": 3}, None, fixed([{"recover": 3}]), ["shover"] * 3),
    ("answer-at-deadline-is-late", {"seed": 2}, None, fixed([late("call", 15000), late("call", 14999), late("check", 0)]),
     ["caller"] * 3),
    ("human-clock", {"seed": 2}, ["bot", "human", "bot"], fixed([late("call", 15000), late("call", 44999), late("check", 45000)]),
     ["caller"] * 3),
    ("agent-clock", {"seed": 2}, ["bot", "bot", "agent"], fixed([late("call", 15000), late("call", 44999), late("check", 45000)]),
     ["caller"] * 3),
    ("invalid-answer-runs-the-clock", {"seed": 6}, None, fixed(["raise", {"type": "bet", "amount": 40}, "fold"]), ["caller"] * 3),
    ("invalid-words-run-the-clock", {"seed": 6}, None, odd_words, ["caller"] * 3),
    ("v4-words", {"seed": 8}, None, fixed([{"type": "all_in"}, "call", "fold"]), ["min-raiser", "caller", "shover"]),
    # R24: the words as strings: 'bet' alone lacks an amount (an invalid answer: R22), 'all_in' is allin.
    ("v4-word-strings", {"seed": 8}, None, fixed(["bet", "all_in", "fold"]), ["min-raiser", "caller", "shover"]),
    ("shovers-to-the-end", {"seed": 12}, None, fixed([]), ["shover"] * 3),
    # No seed: the default, 0, seats the identities and deals (R23).
    ("seating-from-the-default-seed", {}, None, fixed([]), ["shover"] * 3),
    ("callers-to-the-end", {"seed": 5}, None, fixed([]), ["caller", "cycler", "min-raiser"]),
    ("reveal-board-completes-the-straight", {"seed": 7, "decks": {1: KING_HIGH_STRAIGHT}}, None, fixed([]), ["caller"] * 3),
    ("uncontested-side-pot-reveals-nothing", {"seed": 7, "stacks": [100, 500, 500], "decks": {1: SIDE_POT}}, None,
     fixed(SIDE_POT_STEPS), ["shover"] * 3),
    ("simultaneous-bust-lower-seat-places-better", {"seed": 3, "stacks": [300, 800, 400], "decks": {1: BUST_TWO}}, None,
     fixed([]), ["shover"] * 3),
    # The same bust, then a recovery asked for the busted seat once the game is over: no chips, refused.
    ("recovery-refused-after-the-end", {"seed": 3, "stacks": [300, 800, 400], "decks": {1: BUST_TWO}}, None,
     fixed(["allin", "allin", "call", {"recover": 0}]), ["shover"] * 3),
]


def script(spec: dict, policy) -> list:
    """Concrete steps chosen by ``policy`` on a scratch game (stored in the vector as they are)."""
    t = tournament(spec)
    steps, memo = [], {}
    while not t.over or getattr(policy, "past_end", False):
        step = policy(t, None if t.over else t.decision_state(), steps, memo)
        if step is None:
            break
        steps.append(step)
        apply_step(t, step)
    return steps


def apply_step(t, step) -> dict:
    if isinstance(step, dict) and "recover" in step:
        try:
            t.request_recovery(step["recover"])
            return {"recovered": step["recover"]}
        except OptionError as exc:
            return {"refused": exc.field, "seat": step["recover"], "reason": exc.reason}
    state = t.decision_state()
    if step == T or (isinstance(step, dict) and step.get("atMs", 0) >= t.time_limit_ms):
        return {"state": state, "action": t.timeout(), "error": "late"}
    answer = step["answer"] if isinstance(step, dict) and "atMs" in step else step
    action, error = t.submit(answer)
    return {"state": state, "action": action, "error": error}


def play(spec: dict, steps: list, strategies: list[str]) -> dict:
    t = tournament(spec)
    outcomes = [apply_step(t, step) for step in steps]
    while not t.over:
        if t.hand_number > 2000:  # v4 has no hand cap: a passive table could cycle forever
            raise ValueError(f"game did not finish: {spec}")
        s = t.decision_state()
        t.act(STRATEGIES[strategies[s["you"]["seat"]]](s))
    standings = [{k: x[k] for k in ("id", "name", "place", "chips", "eliminatedInHand", "timeouts", "autoFolded")}
                 for x in t.standings()]
    return {"steps": outcomes, "log": [log_entry(r) for r in t.hands], "standings": standings}


def generate() -> list[dict]:
    tests = []
    for slug, options, controllers, policy, strategies in CASES:
        spec = game(IDS, ruleset=V4, **options)
        if controllers:
            spec["controllers"] = controllers
        steps = script(spec, policy)
        expected = play(spec, steps, strategies)
        flags = ["Sng", "Seating", "Clock", "Reveal", "UncontestedPot", "Places"]
        if any(isinstance(s, dict) and ("recover" in s or s.get("type") in ("all_in", "bet")) or s in ("all_in", "bet") for s in steps):
            flags += ["AutoFold", "Vocabulary"]
        if any(o.get("action", {}).get("type") == "fold" and o.get("error") == "late" for o in expected["steps"]):
            flags.append("AutoFold")
        if any(isinstance(s, dict) and "recover" in s and not (isinstance(s["recover"], int) and 0 <= s["recover"] < len(IDS))
               for s in steps):
            flags.append("NoSuchSeat")
        tests.append(make_test(NOTES, f"sng3v4.{slug}", f"holdem-sng-3-v4: {slug.replace('-', ' ')}", ["rules.end"],
                               {"game": spec, "steps": steps, "strategies": strategies}, expected, flags))
    # The ruleset's text rules the game out: create must throw (any refusal passes; R38 is not asked).
    vector_input = {"game": game(["alice", "alice", "bob"], ruleset=V4, seed=1), "steps": [], "strategies": ["caller"] * 3}
    refused = run_sng3v4(vector_input).get("error") or {}
    if refused.get("at") != "create":
        raise AssertionError("sng3v4.error.repeated-identity: the reference takes a repeated identity")
    tests.append(make_test(NOTES, "sng3v4.error.repeated-identity", f"create throws ({refused['field']}): v4's text",
                           ["rules.seats"], vector_input, {"error": refused["field"], "breaks": "rules.distinct-identities"},
                           ["RepeatedIdentities"], result="invalid"))
    return tests
