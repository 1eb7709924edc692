"""Each award judged from the engine's own (conformance/judge/awards.py, issue #38, item 1): what
follows from the engine's awards is not counted again, what does not still differs."""
from conformance.judge.awards import log_followed, showdowns_followed
from reference.hand import needed_hole_cards
from reference.ruleset import CONTRACT_V1, SNG_3_V4

IDS = ["s1", "s2", "s3"]
BOARD = ["2c", "7d", "9h", "Js", "Kd"]
HOLE = {"s1": ["Ah", "Ac"], "s2": ["Kh", "4s"], "s3": ["3c", "5d"]}
# The reference's full record of hand 4: s1 and s2 contested the pot, s3 folded.
HAND = {"handNumber": 4, "buttonSeat": 0, "holeCards": HOLE, "pots": [{"amount": 200, "eligible": ["s1", "s2"]}]}
OURS = {"handNumber": 4, "board": BOARD, "showdown": [{"id": "s1", "cards": ["Ah", "Ac"], "hand": "One pair"}],
        "winners": [{"id": "s1", "amount": 200}]}
# The engine's record: it awards the pot to s2 (an award difference) and shows s2's needed card.
SHOWN_BY_ITS_AWARDS = [{"id": "s2", "cards": needed_hole_cards(HOLE["s2"], BOARD), "hand": "One pair"}]
THEIRS = {**OURS, "showdown": SHOWN_BY_ITS_AWARDS, "winners": [{"id": "s2", "amount": 200}]}


def test_a_showdown_that_follows_from_the_engines_own_awards_is_followed():
    assert SHOWN_BY_ITS_AWARDS[0]["cards"] == ["Kh"]  # the king pairs the board; the four is not needed
    assert showdowns_followed([OURS], [THEIRS], [HAND], IDS, SNG_3_V4) == [0]


def test_a_showdown_that_does_not_follow_from_the_engines_own_awards_still_differs():
    more = {**THEIRS, "showdown": [{"id": "s2", "cards": ["Kh", "4s"], "hand": "One pair"}]}  # a card not needed
    other = {**THEIRS, "showdown": [{"id": "s3", "cards": ["3c"], "hand": "High card"}]}  # not its winner
    same_awards = {**OURS, "showdown": SHOWN_BY_ITS_AWARDS}  # no award difference: the showdown is its own
    for record in (more, other, same_awards):
        assert showdowns_followed([OURS], [record], [HAND], IDS, SNG_3_V4) == [], record
    # another hand at that place, or no full record of the hand: nothing followed
    assert showdowns_followed([OURS], [{**THEIRS, "handNumber": 5}], [HAND], IDS, SNG_3_V4) == []
    assert showdowns_followed([OURS], [THEIRS], [], IDS, SNG_3_V4) == []
    # contract v1 shows every live hand whoever wins: the award never changes the showdown due
    assert showdowns_followed([OURS], [THEIRS], [HAND], IDS, CONTRACT_V1) == []


def test_log_chips_follow_from_the_engines_own_awards_and_an_independent_chip_difference_still_differs():
    ours = {"handNumber": 4, "result": OURS, "chips": [600, 300, 600]}
    theirs = {"handNumber": 4, "result": THEIRS, "chips": [400, 500, 600]}
    followed, shown = log_followed([ours], [theirs], [HAND], IDS, SNG_3_V4)
    assert followed == [{**ours, "chips": [400, 500, 600]}] and shown == [0]
    wrong = {**theirs, "chips": [400, 499, 601]}  # chips its own awards do not give
    assert log_followed([ours], [wrong], [HAND], IDS, SNG_3_V4)[0][0]["chips"] == [400, 500, 600] != wrong["chips"]
    # chips that are the reference's own (a record misstating only its winners): not moved
    assert log_followed([ours], [{**theirs, "chips": ours["chips"]}], [HAND], IDS, SNG_3_V4)[0] == [ours]
    # the same awards: the reference's own chips
    assert log_followed([ours], [{**ours, "chips": [1, 2, 3]}], [HAND], IDS, SNG_3_V4)[0] == [ours]
