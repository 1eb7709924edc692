"""Family ``hands``: pinned decks and action scripts -> every decision state in order, the
accepted actions, the history entry and the final chips."""
from reference.evaluator import hand_value
from reference.scenario import pinned_deck

from conformance.vectors.gamespec import game, tournament
from conformance.vectors.vectorfile import make_test
from .showdowns import check_down, showdowns

NOTES = {
    "Hand": {"description": "replay the script; every decision state, action, the history entry and the chips must match; "
                     "the runner mutates each state it receives and the next must be unaffected",
             "clauses": ["state.fields", "state.you", "state.pots", "state.to-call", "state.min-raise-to", "state.max-raise-to",
                         "state.can-check", "state.can-allin", "state.last-full-raise", "state.positions", "state.seats",
                         "state.actions", "state.secrecy", "state.tournament", "state.integers", "state.board",
                         "state.fresh", "determinism.engine"], "ruling": None},
    "ShortBlind": {"description": "a blind is short: currentBet is the largest blind actually posted", "clauses": ["state.to-call"], "ruling": "R8"},
    "Showdown": {"description": "checked and called down to a showdown of pinned hands: the best five of each seat's seven "
                         "cards decides the awards, and each live seat's `hand` is the name of its category (R4's names, R14)",
                 "clauses": ["rules.best-five", "rules.showdown-public", "state.history"], "ruling": None},
    "MergedOddChips": {"description": "odd chips are split per merged pot; per raw layer they would land differently",
                       "clauses": ["rules.odd-chips"], "ruling": "R13"},
}

R = lambda amount: {"type": "raise", "amount": amount}  # noqa: E731
CHECK_DOWN = ["check"] * 6

# slug, clauses, stacks, holes (seat -> cards, dealt from seat 1 round; button seat 0), board, blinds, script
SCENARIOS = [
    ("side-pots-three-layers", ["rules.side-pots", "rules.refund", "rules.showdown-public"], [100, 300, 600, 1000],
     {0: "AhAd", 1: "KhKd", 2: "QhQd", 3: "7c2c"}, "3c4d9hJs8s", (50, 100), ["allin"] * 4),
    ("side-pots-four-layers-folded-chips", ["rules.side-pots", "rules.folded-chips"], [3000, 150, 400, 900, 3000],
     {0: "2c2d", 1: "AhAd", 2: "KhKd", 3: "QhQd", 4: "JhJd"}, "3c4d9h7s8c", (50, 100),
     ["allin", "call", "allin", "allin", "allin", "fold"]),
    ("short-all-in-does-not-reopen", ["rules.short-allin", "rules.min-raise"], [5000, 450, 5000],
     {0: "AhKh", 1: "QcQd", 2: "7s2d"}, "2c5d9hJs3s", (50, 100), [R(300), "allin", "fold", "call"]),
    ("short-all-in-leaves-unacted-free", ["rules.short-allin"], [5000, 5000, 5000, 5000, 420],
     {0: "AhKh", 1: "QcQd", 2: "7s2d", 3: "9c9d", 4: "AcKc"}, "2c5d9hJs3s", (50, 100),
     [R(300), "allin", "call", "fold", "call", "call", *CHECK_DOWN, "check", "check", "check"]),
    ("cumulative-short-raises-reopen", ["rules.cumulative-reopen"], [5000, 5000, 250, 299, 350],
     {0: "AhKh", 1: "QcQd", 2: "7s2d", 3: "9c9d", 4: "AcKc"}, "2c7d9hJs4s", (50, 100),
     ["call", "call", "call", "call", "check", R(100), "allin", "allin", "allin", "call", R(500), "fold"]),
    ("cumulative-short-raises-stay-closed", ["rules.cumulative-reopen", "rules.short-allin"], [5000, 5000, 250, 299],
     {0: "AhKh", 1: "QcQd", 2: "7s2d", 3: "9c9d"}, "2c7d9hJs4s", (50, 100),
     ["call", "call", "call", "check", R(100), "allin", "allin", "call", "call", "check", "check", "check", "check"]),
    ("checker-not-reopened-by-short-opening", ["rules.checker-convention"], [5000, 5000, 160],
     {0: "AhKh", 1: "QcQd", 2: "7s2d"}, "2c7d9hJs4s", (50, 100),
     ["call", "call", "check", "check", "allin", "call", "call", "check", "check", "check", "check"]),
    ("checker-reopened-by-full-opening", ["rules.min-open", "rules.cumulative-reopen"], [5000, 5000, 250],
     {0: "AhKh", 1: "QcQd", 2: "7s2d"}, "2c7d9hJs4s", (50, 100),
     ["call", "call", "check", "check", "allin", "call", R(600), "fold"]),
    ("lone-solvent-seat-does-not-act", ["rules.lone-solvent", "rules.refund"], [80, 60, 5000],
     {0: "AhAd", 1: "KhKd", 2: "2c7s"}, "3c4d9hJsQd", (50, 100), ["allin", "allin"]),
    ("lone-solvent-seat-owes-chips", ["rules.lone-solvent", "rules.no-responder"], [5000, 300, 5000],
     {0: "AhAd", 1: "KhKd", 2: "2c7s"}, "3c4d9hJsQd", (50, 100), ["fold", "allin", "call"]),
    ("uncalled-raise-refunded", ["rules.refund", "state.history-winners", "rules.fold-private"], [5000, 5000, 5000],
     {0: "AhAd", 1: "KhKd", 2: "2c7s"}, "", (50, 100), [R(1000), "fold", "fold"]),
    ("odd-chip-left-of-button", ["rules.odd-chips", "rules.split"], [1000, 1000, 1000],
     {0: "2c3d", 1: "4c5d", 2: "6c7d"}, "AsKsQsJsTs", (25, 50), [R(101), "fold", "call", *CHECK_DOWN]),
    ("two-odd-chips-clockwise", ["rules.odd-chips", "rules.split"], [1000] * 4,
     {0: "2c3d", 1: "4c5d", 2: "6c7d", 3: "8c9d"}, "AsKsQsJsTs", (26, 50), [R(100), "call", "fold", "call", *["check"] * 9]),
    # Raw layers 125 / 100 / 153 would leave odd chips 2 and 1; the merged pot of 378 splits evenly (R13).
    ("merged-pot-odd-chips", ["rules.odd-chips", "rules.split", "state.pots"], [1000] * 5,
     {0: "2c3d", 1: "4c5d", 2: "6c7d", 3: "8c9d", 4: "2h3h"}, "AsKsQsJsTs", (25, 50),
     [R(101), "call", "call", "fold", "fold", *["check"] * 9]),
    ("suits-tie-split", ["rules.split", "rules.suits"], [1000, 1000],
     {0: "AhKd", 1: "AdKh"}, "2c7d9hJsQc", (50, 100), ["call", "check", *CHECK_DOWN]),
    ("wheel-loses-to-six-high", ["rules.wheel", "rules.best-five"], [1000, 1000],
     {0: "Ah2d", 1: "6h7d"}, "3c4d5s9hKc", (50, 100), ["allin", "call"]),
    ("run-out-after-all-in", ["rules.burn", "rules.showdown-public"], [1000, 1000],
     {0: "AhAd", 1: "KhKd"}, "2c7d9hJsQd", (50, 100), ["call", "check", "allin", "call"]),
    ("short-big-blind", ["state.to-call", "state.min-raise-to"], [5000, 5000, 60],
     {0: "AhAd", 1: "KhKd", 2: "2c7s"}, "3c4d9hJsQd", (50, 100), ["call", "call", R(300), "call", "check", "check", "check", "check"]),
    ("short-small-blind", ["state.to-call"], [5000, 30, 5000],
     {0: "AhAd", 1: "KhKd", 2: "2c7s"}, "3c4d9hJsQd", (50, 100), ["call", "check", *CHECK_DOWN]),
    ("blinds-all-in-no-decision", ["rules.lone-solvent", "rules.refund"], [50, 100],
     {0: "AhAd", 1: "KhKd"}, "2c7d9hJsQd", (50, 100), []),
    ("heads-up-streets", ["rules.heads-up-order", "rules.min-raise", "rules.raise-total"], [10000, 10000],
     {0: "AhQh", 1: "Js9s"}, "Qd9d2c5h8s", (50, 100),
     [R(300), R(900), "call", R(500), R(1500), R(4000), "call", "check", "check", R(1200), "call"]),
    ("raise-war-increments", ["rules.min-raise", "rules.raise-total"], [20000, 20000, 20000],
     {0: "AhAd", 1: "KhKd", 2: "QcQd"}, "2c7d9hJs3s", (50, 100),
     [R(250), R(400), R(900), "fold", R(2000), "call", "check", "check", "check", "check", "check", "check"]),
    ("fold-win-on-river", ["rules.fold-private", "state.history-winners"], [2000, 2000, 2000],
     {0: "AhAd", 1: "KhKd", 2: "QcQd"}, "2c7d9hJs3s", (50, 100),
     ["call", "call", "check", "check", "check", "check", "check", "check", "check", "check", "check", R(300), "fold", "fold"]),
    ("nine-seats", ["rules.seats", "rules.multiway-order", "rules.side-pots"], [10000, 800, 10000, 3000, 10000, 250, 10000, 10000, 6000],
     {0: "AhAd", 1: "KhKd", 2: "QcQd", 3: "JcJd", 4: "Tc9c", 5: "8h8d", 6: "7c2d", 7: "AsKs", 8: "5h4h"}, "2c7d9hJs3s", (50, 100),
     [R(300), "call", "allin", "fold", R(1000), "allin", "fold", "allin", "fold", "allin", "call", "call",
      "check", R(2000), "call", "check", "check", "check", "check"]),
]


def merged_odd_chips_matter(hand) -> bool:
    """Would splitting each raw contribution layer (instead of merged pots) move an odd chip?"""
    live = hand.live()
    if len(live) < 2:
        return False
    values = {s: hand_value(hand.hole[s] + hand.board) for s in live}
    order = {s: i for i, s in enumerate(hand.order)}
    awards = [0] * hand.n
    floor = 0
    for top in sorted({c for c in hand.total if c > 0}):
        amount = sum(min(c, top) - floor for c in hand.total if c > floor)
        eligible = [s for s in live if hand.total[s] >= top]
        if eligible:
            best = max(values[s] for s in eligible)
            winners = sorted((s for s in eligible if values[s] == best), key=order.__getitem__)
            share, odd = divmod(amount, len(winners))
            for k, s in enumerate(winners):
                awards[s] += share + (k < odd)
        floor = top
    return awards != hand.awards


def play(spec: dict, script: list) -> tuple[dict, object]:
    t = tournament(spec)
    decisions, actions = [], []
    for answer in script:
        decisions.append(t.decision_state())
        actions.append(t.act(answer))
    if not t.over:
        raise ValueError(f"script ended before the hand: {spec}")
    expected = {"decisions": decisions, "actions": actions, "history": t.public_history(),
                "chips": [x["chips"] for x in t.standings()]}
    return expected, t


def generate() -> list[dict]:
    tests = []
    for slug, clauses, stacks, holes, board, blinds, script in SCENARIOS:
        n = len(stacks)
        spec = game([f"P{i}" for i in range(n)], stacks=stacks, blindSchedule=[list(blinds)], maxHands=1,
                    decks={1: pinned_deck(holes, n, 0, board)})
        expected, t = play(spec, script)
        hand = t.hand
        flags = ["Hand"]
        if hand.start_stacks[hand.sb_seat] < hand.sb or hand.start_stacks[hand.bb_seat] < hand.bb:
            flags.append("ShortBlind")
        if merged_odd_chips_matter(hand):
            flags.append("MergedOddChips")
        tests.append(make_test(NOTES, f"hands.{slug}", f"{n} seats: {slug.replace('-', ' ')}", clauses,
                               {"game": spec, "script": script}, expected, flags))
    for showdown in showdowns():
        spec = showdown.spec()
        script = check_down(spec)
        expected, t = play(spec, script)
        showdown.check(t.hand)
        flags = ["Hand", "Showdown"] + (["MergedOddChips"] if merged_odd_chips_matter(t.hand) else [])
        tests.append(make_test(NOTES, f"hands.showdown.{showdown.slug}", showdown.comment(), showdown.clauses,
                               {"game": spec, "script": script}, expected, flags))
    return tests
