"""Bot certification's full-length table: nine copies of the bot, the contract's 300-hand cap.

The smoke tables stop at a few dozen hands, so a bot slow only from hand 100, or one leaking memory
slowly, passed them. Here every seat is the bot (every decision is one of its own), with deep stacks
and fixed blinds so that all 300 hands are played, and decision times are reported per range of 50
hands (:func:`conformance.harness.runner.timing_by_hands`). A passive bot's table is long (about 120
decisions a hand at nine seats): it stops at a number of decisions too (:mod:`conformance.bots.bounds`),
and the report says where. Seat ids and names, and the deck seed, are drawn
from the run's seed: the same for the same seed, but no fixed fixture a bot could recognise.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Callable

from conformance.harness.runner import BotSpec, RunnerOptions, TournamentResult, run_tournament, timing_by_hands

SEATS = 9
HANDS = 300  # the contract's completed-hand cap
DEEP = {"starting_stack": 1_000_000, "blind_schedule": [[50, 100]]}  # nobody busts: every hand is played
RANGE = 50  # hands per timing range
_SYLLABLES = ("ka", "ro", "mi", "ten", "sa", "vo", "lin", "de", "qu", "ar", "no", "bel", "zu", "fe", "os")


def drawn_seats(seed: int, n: int = SEATS) -> list[tuple[str, str]]:
    """``n`` distinct (id, name) pairs drawn from ``seed``."""
    return draw_seats(random.Random(f"full-table seats {seed}"), n)


def draw_seats(rng: random.Random, n: int) -> list[tuple[str, str]]:
    """``n`` distinct (id, name) pairs drawn with ``rng`` (the battery draws its names this way too)."""
    seats: dict[str, str] = {}
    while len(seats) < n:
        word = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))
        seats.setdefault(f"{word}-{rng.randrange(10, 100)}", word.capitalize())
    return list(seats.items())


def play(source: str, seed: int, init_ms: float, decision_ms: float, memory_limit: int | None,
         hands: int = HANDS, tick: Callable | None = None, max_decisions: int | None = None,
         out_of_time: Callable[[], "str | None"] | None = None,
         cpu_meter: Callable[[float], None] | None = None,
         bot_host: str | None = None) -> tuple[dict, TournamentResult]:
    """Play the table, for at most ``hands`` hands and ``max_decisions`` decisions
    (:mod:`conformance.bots.bounds`), and until ``out_of_time()`` gives a reason (``"time"``, the
    budget; ``"load"``, its wall-clock backstop); ``cpu_meter`` gets the workers' CPU time; its summary (seats, hands, errors by
    category and code, first error, the decision times per range of hands: all seats together, each
    is the bot; ``cut`` when a bound stopped it) and the tournament."""
    rng = random.Random(f"full-table deck {seed}")
    deck_seed = rng.randrange(1, 2**31)
    bots = [BotSpec(bot_id, source, name) for bot_id, name in drawn_seats(seed)]
    options = RunnerOptions(init_ms=init_ms, decision_ms=decision_ms, memory_limit=memory_limit,
                            tournament={"max_hands": hands, **DEEP},
                            **({} if bot_host is None else {"bot_host": bot_host}))  # None: RunnerOptions' default

    def stop(record) -> str | None:
        if max_decisions is not None and record.index + 1 >= max_decisions:
            return "decisions"
        return out_of_time() if out_of_time is not None else None

    result = run_tournament(bots, deck_seed, seed, options, tick, stop=stop, cpu_meter=cpu_meter)
    errors = [d for d in result.decisions if d.error is not None]
    return {
        "seats": [b.id for b in bots], "deckSeed": deck_seed, "botSeed": seed,
        "hands": len(result.hands), "decisions": len(result.decisions), "handCap": hands,
        "decisionCap": max_decisions, "cut": result.cut,
        "errors": dict(Counter(f"{d.error}/{d.code}" for d in errors)),
        "firstError": None if not errors else {"hand": errors[0].hand_number, "decision": errors[0].index,
                                               "detail": errors[0].detail},
        "terminated": [{"seat": s.id, **s.terminated} for s in result.seats if s.terminated],
        "timingByHands": timing_by_hands(result.decisions, None, RANGE),
    }, result
