"""The battery's states: every decision state of the committed vectors, generated states and states
stratified by decision kind, their seat names and ids drawn from the botSeed (R36); the features a
state shows (the report's coverage)."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from random import Random

from reference import evaluate
from reference.errors import OptionError

from conformance.vectors import library as vectors
from . import battery_file, full_table
from .cert_report import CertOptions
from .decision_kinds import KIND_SEED, covering_order, stratified_states, street_short_all_in
from .random_states import GENERATION_SEED, generate_states

FEATURES = ("street:preflop", "street:flop", "street:turn", "street:river", "seats:2", "seats:9",
            "short-stack", "short-all-in", "min-raise-null", "min-raise-above-max", "board-plays",
            "eliminated-seat")


@dataclass(frozen=True)
class BatteryState:
    id: str
    state: dict


def vector_states() -> list[BatteryState]:
    """Every decision state of the committed ``hands`` and ``legality`` vectors, in file order."""
    out = []
    for test in vectors.load("hands")["tests"]:
        out += [BatteryState(f"{test['id']}#{i}", s) for i, s in enumerate(test["expected"]["decisions"])]
    out += [BatteryState(t["id"], t["input"]["state"]) for t in vectors.load("legality")["tests"]]
    return out


def state_features(state: dict) -> set[str]:
    """Which of :data:`FEATURES` a decision state shows."""
    found = {f"street:{state['street']}"}
    n = len(state["seats"])
    if n in (2, 9):
        found.add(f"seats:{n}")
    if state["you"]["stack"] + state["you"]["bet"] <= 10 * state["blinds"][1]:
        found.add("short-stack")
    if street_short_all_in(state):
        found.add("short-all-in")
    if state["minRaiseTo"] is None:
        found.add("min-raise-null")
    elif state["minRaiseTo"] > state["maxRaiseTo"]:
        found.add("min-raise-above-max")
    board = state["board"]
    if len(board) == 5 and evaluate(board)["value"] == evaluate(board + state["you"]["cards"])["value"]:
        found.add("board-plays")
    if any(s["out"] for s in state["seats"]):
        found.add("eliminated-seat")
    return found


_generated: dict[int, list[BatteryState]] = {}
_generation_lock = threading.Lock()  # hypothesis is not thread-safe; the result is cached


def generated_states(count: int) -> list[BatteryState]:
    """``count`` decision states from random reference games, the same on every call: for the
    default count the shipped ones (:mod:`conformance.bots.battery_file`), else
    :func:`conformance.bots.random_states.generate_states`."""
    with _generation_lock:
        if count not in _generated:
            shipped = battery_file.shipped()
            if count == battery_file.GENERATED and shipped["generationSeed"] == GENERATION_SEED:
                collected = shipped["generated"]
            else:
                collected = generate_states(count)
            _generated[count] = [BatteryState(f"generated.{i:03d}", s) for i, s in enumerate(collected)]
        return list(_generated[count])


def battery(options: CertOptions) -> list[BatteryState]:
    """Every state of the battery, its seat names and ids drawn from the botSeed (R36), the most
    discriminating first (#35 item 4), so that a mistake in a rare kind of state is met early: the
    legality vectors' states, then the stratified states with every decision kind as early as it can
    come (:func:`conformance.bots.decision_kinds.covering_order`), then the generated states, then
    the ``hands`` vectors' (many decisions of a few scripted hands)."""
    vectors = vector_states()
    if options.vector_states is not None:
        vectors = vectors[:options.vector_states]
    shipped = battery_file.shipped()
    kind_states = shipped["kinds"] if (options.kind_states, KIND_SEED) == (shipped["perKind"], shipped["kindSeed"]) \
        else stratified_states(options.kind_states, KIND_SEED)
    kinds = [BatteryState(f"kind.{i:03d}", kind_states[i]) for i in covering_order(kind_states)]
    legality = [b for b in vectors if b.id.startswith("legality.")]
    hands = [b for b in vectors if not b.id.startswith("legality.")]
    # One draw per state, from the botSeed and the state's id: a state looks the same whichever
    # options chose the states around it (``--state ID`` finds it as the run showed it).
    return [BatteryState(b.id, disguised(b.state, Random(f"battery seats {options.bot_seed} {b.id}")))
            for b in legality + kinds + generated_states(options.generated_states) + hands]


def disguised(state: dict, rng: Random) -> dict:
    """A copy of ``state`` whose seats carry names drawn like the full-length table's and whose ids
    are a drawn permutation of the table's own ids, renamed everywhere an id appears (R36): a bot
    cannot recognise the battery by fixed fixture names, nor by ids that follow the seat order."""
    seats = state["seats"]
    ids = [s["id"] for s in seats]
    new_ids = rng.sample(ids, len(ids))
    rename = dict(zip(ids, new_ids))
    names = [name for _, name in full_table.draw_seats(rng, len(seats))]

    def renamed(items: list[dict]) -> list[dict]:
        return [{**item, "id": rename[item["id"]]} for item in items]

    return {
        **state,
        "you": {**state["you"], "id": rename[state["you"]["id"]]},
        "seats": [{**s, "id": rename[s["id"]], "name": name} for s, name in zip(seats, names)],
        "pots": [{**p, "eligible": [rename[i] for i in p["eligible"]]} for p in state["pots"]],
        "actions": renamed(state["actions"]),
        "history": [{**h, "showdown": renamed(h["showdown"]), "winners": renamed(h["winners"])}
                    for h in state["history"]],
    }


def find_state(options: CertOptions, state_id: str) -> dict:
    """The battery state with this id (OptionError naming the id when there is none)."""
    for item in battery(options):
        if item.id == state_id:
            return item.state
    raise OptionError("state", f"no battery state has the id {state_id!r} with these options "
                      "(ids are in the report: vector ids, generated.NNN, kind.NNN)")
