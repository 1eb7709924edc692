"""Complete random-action six-handed hands per second: our ``Tournament`` against pokerkit.

    python bench/bench_tournament.py [--hands N] [--seed S] [--repeat R]

Both engines play full hands with the same seeded random policy over their own legal
actions: facing a bet fold 30%, raise 15% (to a uniform amount between the minimum raise
and all-in), otherwise check or call; never fold when checking is free. Ours runs
``reference.tournament.Tournament`` (default options), driven through ``t.legal()`` and
``t.act()``; only six-handed hands count, so a new tournament starts as soon as a seat is
eliminated (or the tournament ends). pokerkit plays independent six-handed hands (10,000
chips each, blinds 50/100, every automation on, so it deals, shows down and settles by
itself). Each engine is timed R times, round-robin, in process CPU time (so that other load
on the machine distorts less) and its best run is reported; the goal is a ratio of at least 20.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference.tournament import Tournament  # noqa: E402

try:  # imported before timing: building pokerkit's lookup tables takes seconds
    from pokerkit import Automation, Mode, NoLimitTexasHoldem
except ImportError:
    NoLimitTexasHoldem = None

NAMES = [f"bot{i}" for i in range(6)]
FOLD, RAISE = 0.30, 0.15


def policy(rng: random.Random, can_check: bool, min_to: int | None, max_to: int) -> tuple[str, int | None]:
    """('fold' | 'cc' | 'raise', amount) from the shared random policy."""
    r = rng.random()
    if not can_check and r < FOLD:
        return "fold", None
    if min_to is not None and r >= 1 - RAISE:
        return "raise", rng.randint(min(min_to, max_to), max_to)
    return "cc", None


def ours(hands: int, seed: int) -> int:
    """Play at least ``hands`` complete hands; returns how many were played."""
    rng = random.Random(seed)
    played, number = 0, 0
    while played < hands:
        number += 1
        t = Tournament(NAMES, seed=f"bench:{seed}:{number}")
        while not t.over and not any(t.out):  # six-handed until the first elimination
            legal = t.legal()
            kind, amount = policy(rng, legal.can_check, legal.min_raise_to, legal.max_raise_to)
            if kind == "fold":
                t.act("fold")
            elif kind == "cc":
                t.act("check" if legal.can_check else "call")
            else:
                t.act({"type": "raise", "amount": amount})
        played += sum(1 for h in t.hands if all(h["startStacks"]))
    return played


def pokerkit(hands: int, seed: int) -> int:
    rng = random.Random(seed)
    automations = tuple(Automation)
    for _ in range(hands):
        state = NoLimitTexasHoldem.create_state(
            automations, True, 0, (50, 100), 100, [10_000] * 6, 6, mode=Mode.TOURNAMENT
        )
        while state.status:
            call = state.checking_or_calling_amount
            min_to = state.min_completion_betting_or_raising_to_amount
            max_to = state.max_completion_betting_or_raising_to_amount
            kind, amount = policy(rng, call == 0, min_to, max_to or 0)
            if kind == "fold":
                state.fold()
            elif kind == "cc":
                state.check_or_call()
            else:
                state.complete_bet_or_raise_to(amount)
    return hands


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per run for our engine (default 3000)")
    parser.add_argument("--pokerkit-hands", type=int, default=300, help="hands per run for pokerkit (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs per engine; the best counts (default 3)")
    args = parser.parse_args()
    engines = {"reference Tournament": (ours, args.hands)}
    if NoLimitTexasHoldem is None:
        print("pokerkit: not installed")
    else:
        engines["pokerkit"] = (pokerkit, args.pokerkit_hands)
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        for name, (run, hands) in engines.items():
            start = time.process_time()
            played = run(hands, args.seed)
            rate = played / (time.process_time() - start)
            best[name] = max(best.get(name, 0.0), rate)
    for name, rate in best.items():
        print(f"{name:<22} {rate:>10,.0f} hands/s")
    if len(best) == 2:
        ratio = best["reference Tournament"] / best["pokerkit"]
        print(f"{'ratio':<22} {ratio:>10.1f}x  (goal >= 20x: {'met' if ratio >= 20 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
