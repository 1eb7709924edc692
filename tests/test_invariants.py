"""Invariants over random tournaments (hypothesis): chips, cards, pots, awards, legality, determinism."""
import json

from hypothesis import given, strategies as st

from reference.errors import IllegalAction
from reference.tournament import Tournament

ANSWERS = st.one_of(
    st.sampled_from(["fold", "check", "call", "allin", "raise", "bet", None, 7]),
    st.builds(lambda t: {"type": t}, st.sampled_from(["fold", "check", "call", "allin", "raise"])),
    st.builds(lambda a: {"type": "raise", "amount": a}, st.integers(-10, 25000)),
)


def oracle(s: dict, answer) -> bool:
    """Legality from the decision state alone, straight from the contract's Return values."""
    if isinstance(answer, str):
        kind, amount = answer, None
        if kind not in ("fold", "check", "call", "allin"):
            return False
    elif isinstance(answer, dict) and answer.get("type") in ("fold", "check", "call", "raise", "allin"):
        kind, amount = answer["type"], answer.get("amount")
        if kind == "raise" and not isinstance(amount, int):
            return False
    else:
        return False
    if kind == "fold":
        return True
    if kind == "check":
        return s["canCheck"]
    if kind == "call":
        return not s["canCheck"]
    if kind == "allin":
        return s["canAllIn"]
    if s["minRaiseTo"] is None or amount <= s["currentBet"] or amount > s["maxRaiseTo"]:
        return False
    return amount >= s["minRaiseTo"] or amount == s["maxRaiseTo"]


def check_state(s: dict, chips: int) -> None:
    you = s["you"]
    assert all(x["stack"] >= 0 and x["bet"] >= 0 and x["total"] >= x["bet"] for x in s["seats"])
    assert sum(x["stack"] + x["total"] for x in s["seats"]) == chips  # chip conservation
    assert sum(p["amount"] for p in s["pots"]) == sum(x["total"] for x in s["seats"])
    assert s["canCheck"] == (s["toCall"] == 0)
    assert s["toCall"] == min(max(s["currentBet"] - you["bet"], 0), you["stack"])
    assert s["maxRaiseTo"] == you["bet"] + you["stack"] and you["stack"] > 0
    assert s["minRaiseTo"] is None or s["minRaiseTo"] == s["currentBet"] + s["lastFullRaise"]
    assert s["lastFullRaise"] >= s["blinds"][1]
    assert s["canAllIn"] == (s["minRaiseTo"] is not None or s["maxRaiseTo"] <= s["currentBet"])
    others_solvent = any(x["stack"] > 0 and not x["folded"] for x in s["seats"] if x["seat"] != you["seat"])
    assert others_solvent or s["minRaiseTo"] is None  # nobody could respond to a raise
    assert s["maxRaiseTo"] > s["currentBet"] or s["minRaiseTo"] is None
    assert len(s["board"]) in (0, 3, 4, 5) and len(set(s["board"] + you["cards"])) == len(s["board"]) + 2
    assert not s["seats"][you["seat"]]["folded"] and not s["seats"][you["seat"]]["out"]
    assert len(s["history"]) <= 20


def check_hand_record(record: dict, n: int) -> None:
    cards = [c for hole in record["holeCards"].values() for c in hole] + record["history"]["board"]
    assert len(cards) == len(set(cards))  # no card twice
    awarded = sum(w["amount"] for w in record["history"]["winners"])
    assert awarded == sum(p["amount"] for p in record["pots"])  # awards equal pots
    start, end = record["startStacks"], record["endStacks"]
    assert sum(start) == sum(end) and min(end) >= 0
    committed = sum(a["amount"] for a in record["actions"]) + sum(
        min(b, start[s]) for s, b in ((record["smallBlindSeat"], record["blinds"][0]), (record["bigBlindSeat"], record["blinds"][1]))
    ) - sum(record["refunds"].values())
    assert committed == awarded  # pots sum to commitments


@given(
    n=st.sampled_from([2, 3, 6, 9]),
    stacks=st.lists(st.one_of(st.integers(1, 300), st.integers(1000, 20000)), min_size=9, max_size=9),
    seed=st.integers(0, 2**32 - 1),
    data=st.data(),
)
def test_random_tournaments_keep_every_invariant(n, stacks, seed, data):
    stacks = stacks[:n]
    t = Tournament([f"p{i}" for i in range(n)], seed=seed, stacks=stacks, max_hands=40,
                   blind_schedule=[[25, 50], [50, 100], [100, 200]], hands_per_level=5)
    chips = sum(stacks)
    answers = []
    for _ in range(400):
        if t.over:
            break
        s = t.decision_state()
        check_state(s, chips)
        answer = data.draw(ANSWERS)
        legal = oracle(s, answer)
        try:
            t.act(answer)
            accepted = True
        except IllegalAction:
            accepted = False
            assert t.decision_state() == s  # a rejected answer changes nothing
        assert accepted == legal, (answer, s)  # only legal actions are accepted, all of them
        if not accepted:
            answer = "check" if s["canCheck"] else "fold"
            t.act(answer)
        answers.append(answer)
    for record in t.hands:
        check_hand_record(record, n)
    assert sum(x["chips"] for x in t.standings()) == chips
    if t.over:
        places = sorted(x["place"] for x in t.standings())
        assert places[0] == 1 and all(p is not None for p in places)
    # Determinism: the same seed and accepted answers reproduce the same tournament.
    again = Tournament([f"p{i}" for i in range(n)], seed=seed, stacks=stacks, max_hands=40,
                       blind_schedule=[[25, 50], [50, 100], [100, 200]], hands_per_level=5)
    for answer in answers:
        again.act(answer)
    assert json.dumps(again.hands) == json.dumps(t.hands)
