"""Following an engine (issue #38, item 1): the reference stands where a decision state says a hand
stands (reference.hand.Hand.take) and applies another table's action records (apply_record).

The property: a hand rebuilt from any decision state of a reference hand (plus the same spec and
cards) plays every next step exactly as the hand itself does -- the same action record, the same
next state, the same result -- under every ruleset option that changes betting (R8, R9, R20)."""
from hypothesis import given, settings, strategies as st

from reference.hand import Hand
from reference.hand_api import hand_result
from reference.state import hand_state

PROFILES = [None, {"R20": "amount-street-total"}, {"R8": "full-big-blind"}]


def _spec(stacks, button):
    n = len(stacks)
    in_hand = [s for s in range(n) if stacks[s] > 0]
    if n == 2 or len(in_hand) == 2:
        sb = button if stacks[button] > 0 else in_hand[0]
        bb = next(s for s in in_hand if s != sb)
    else:
        after = [s for s in [*range(button + 1, n), *range(button + 1)] if stacks[s] > 0]
        sb, bb = after[0], after[1]
    return dict(ids=[f"p{i}" for i in range(n)], stacks=stacks, button=button, small_blind_seat=sb,
                big_blind_seat=bb, blinds=(5, 10), deck=["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "2s", "3d"])


def _answer(hand, pick):
    legal = hand.legal()
    options = ["fold", "allin" if legal.can_allin else "fold", "check" if legal.can_check else "call"]
    if legal.min_raise_to is not None:
        low, high = legal.min_raise_to, legal.max_raise_to
        if low <= high:
            options.append({"type": "raise", "amount": low + (high - low) * (pick % 7) // 6})
    return options[pick % len(options)]


@settings(max_examples=60, deadline=None)
@given(stacks=st.lists(st.sampled_from([0, 3, 10, 15, 40, 100, 250]), min_size=2, max_size=6),
       button=st.integers(0, 5), picks=st.lists(st.integers(0, 100), min_size=30, max_size=30),
       profile=st.sampled_from(PROFILES))
def test_a_hand_rebuilt_from_any_decision_state_plays_on_as_the_hand_does(stacks, button, picks, profile):
    if sum(1 for c in stacks if c > 0) < 2:
        stacks = stacks[:-2] + [20, 30]
    button = button % len(stacks)
    spec = _spec(stacks, button)
    hand = Hand(**spec, rulings=profile)
    for pick in picks:
        if hand.done:
            break
        state = hand_state(hand)
        answer = _answer(hand, pick)
        rebuilt = Hand(**spec, rulings=profile)
        rebuilt.take(state)
        assert hand_state(rebuilt) == state
        assert rebuilt.act(answer) == hand.act(answer)
        if hand.done:
            assert rebuilt.done and hand_result(rebuilt) == hand_result(hand)
        else:
            assert hand_state(rebuilt) == hand_state(hand)


@settings(max_examples=40, deadline=None)
@given(stacks=st.lists(st.sampled_from([3, 10, 40, 100]), min_size=2, max_size=5),
       picks=st.lists(st.integers(0, 100), min_size=30, max_size=30), profile=st.sampled_from(PROFILES))
def test_an_action_record_applied_as_recorded_plays_as_the_answer_does(stacks, picks, profile):
    spec = _spec(stacks, 0)
    hand, follower = Hand(**spec, rulings=profile), Hand(**spec, rulings=profile)
    for pick in picks:
        if hand.done:
            break
        record = hand.act(_answer(hand, pick))
        assert follower.apply_record(record) == record
        assert follower.done == hand.done
        if not hand.done:
            assert hand_state(follower) == hand_state(hand)
    assert hand_result(follower) == hand_result(hand)
