"""The battery's random part: decision states of short random reference games (``generated.NNN``).

Hypothesis draws each game (:func:`game_strategy`: seats, stacks, blinds, seat strategies, a pinned
tied board) from a fixed seed; one decision of each street the game reached is kept. The default
count's states are shipped (:mod:`conformance.bots.battery_file`); moved here from bot_cert unchanged.
"""
from __future__ import annotations

from random import Random

from reference.hand import STREETS
from reference.rng import deal_hand
from reference.scenario import pinned_deck
from reference.tournament import Tournament

from conformance.vectors.gamespec import STRATEGIES

GENERATION_SEED = 21  # hypothesis seed of the generated battery
# Boards on which the board plays for most hands (split pots), pinned for hand 1.
TIED_BOARDS = ("AsKsQsJsTs", "2c2d2h2sAc", "5c6d7h8s9c", "KcKdKhQcQd")
SCHEDULES = (((50, 100),), ((25, 50), (50, 100), (100, 200)), ((100, 200), (300, 600)))
# Starting stacks: deep ones, and short ones that post short blinds or go all-in short.
STACKS = (10000, 20000, 3000, 1000, 400, 250, 150, 99, 75, 30, 1)


def game_strategy():
    """Hypothesis strategy of a short random game: seats, stacks, blinds, strategies, a pinned
    tied board, and which of its decisions to keep (``pick``)."""
    from hypothesis import strategies as st

    @st.composite
    def game(draw):
        n = draw(st.sampled_from((2, 9, 3, 6)))
        return {
            "n": n,
            "seed": draw(st.integers(0, 2**32 - 1)),
            "stacks": draw(st.lists(st.sampled_from(STACKS), min_size=n, max_size=n)),
            "schedule": draw(st.sampled_from(SCHEDULES)),
            "handsPerLevel": draw(st.sampled_from((1, 3, 12))),
            "maxHands": draw(st.integers(1, 4)),
            "strategies": draw(st.lists(st.sampled_from(sorted(STRATEGIES)), min_size=n, max_size=n)),
            "board": draw(st.one_of(st.none(), st.sampled_from(TIED_BOARDS))),
            "pick": draw(st.integers(0, 2**16)),
        }

    return game()


def game_states(game: dict) -> list[dict]:
    """Play a generated game with its seat strategies; the decision states it picks."""
    n = game["n"]
    decks = None
    if game["board"] is not None:
        board = [game["board"][i:i + 2] for i in range(0, 10, 2)]
        rest = [c for c in deal_hand(game["seed"], 1) if c not in board]
        decks = {1: pinned_deck({s: rest[2 * s] + rest[2 * s + 1] for s in range(n)}, n, 0, game["board"])}
    t = Tournament([f"P{s}" for s in range(n)], seed=game["seed"], stacks=game["stacks"],
                   blind_schedule=game["schedule"], hands_per_level=game["handsPerLevel"],
                   max_hands=game["maxHands"], decks=decks)
    states = []
    while not t.over:
        state = t.decision_state()
        states.append(state)
        t.act(STRATEGIES[game["strategies"][state["you"]["seat"]]](state))
    # One decision of each street the game reached, so that preflop does not crowd out the rest.
    picked = []
    for street in STREETS:
        pool = [s for s in states if s["street"] == street]
        if pool:
            picked.append(pool[game["pick"] % len(pool)])
    return picked


def generate_states(count: int) -> list[dict]:
    """``count`` decision states from random reference games (:func:`generate_games`)."""
    return generate_games(count)[1]


def generate_games(count: int) -> tuple[list[dict], list[dict]]:
    """The games drawn for ``count`` decision states, and those states.

    Hypothesis draws the games (:func:`game_strategy`) from a fixed seed, with no
    example database and no shrinking, until ``count`` states are collected, so the
    battery is a pure function of ``count`` for a given hypothesis version. The states
    are a pure function of the games (:func:`states_of`) whatever the version: the
    shipped file records both, so that a test can replay them on any install.
    """
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import NoSuchExample

    games: list[dict] = []
    collected: list[dict] = []

    def full(game: dict) -> bool:
        if len(collected) < count:
            games.append(game)
            collected.extend(game_states(game))
        return len(collected) >= count

    if count:
        try:
            find(game_strategy(), full, random=Random(GENERATION_SEED),
                 settings=settings(max_examples=4 * count, database=None, phases=(Phase.generate,),
                                   deadline=None, derandomize=False, suppress_health_check=list(HealthCheck)))
        except NoSuchExample:  # fewer states than asked for; the report says how many
            pass
    return games, collected[:count]


def states_of(games: list[dict], count: int) -> list[dict]:
    """The first ``count`` decision states the ``games`` pick (no hypothesis involved)."""
    return [state for game in games for state in game_states(game)][:count]
