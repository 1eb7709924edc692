"""What a difference is (conformance/judge/difference_kinds.py, issue #38 item 3): its rule, its field
and its kind, the key of its cause. Unit tests, one per kind, written where mutation testing of the
judge's verdict modules found survivors (bench/README.md, Mutation testing of the suite's own
verdict code): each kind's words are the cause's title, so a wrong word is a wrong report."""
import pytest

from conformance.judge.difference_kinds import ABSENT, MISSING, cause_key, field_of, kind_of, rule_of


@pytest.mark.parametrize("path, expected, actual, kind", [
    ("state.seats[1].folded", True, False, "false where true is due"),
    ("state.canCheck", False, True, "true where false is due"),
    ("state.toCall", 5, True, "true where int is due"),
    ("state.canAllIn", True, "yes", "str where true is due"),
    ("state.minRaiseTo", None, 200, "a raise offered where raising is closed"),
    ("state.maxRaiseTo", None, 200, "a value where null is due"),
    ("state.maxRaiseTo", 200, None, "null where a value is due"),
    ("state.pots[2]", ABSENT, {"amount": 5}, "an entry or field that should not be there"),
    ("state.pots[2]", {"amount": 5}, MISSING, "missing"),
    ("state.you.cards", ["Ah", "Kd"], ["Ah", "Qd"], "other cards"),
    ("state.board", ["Ah"], ["Ah", "Kd"], "more shown than due"),
    ("history()[0].board", ["Ah", "Kd", "2c"], ["Ah", "Kd", "3c"], "other cards"),
    ("state.history[0].showdown", [{"id": "a"}], [{"id": "b"}], "another list"),
    ("standings()[1].place", 2, 3, "another place"),
    ("standings()[1].place", 3, 2, "another place"),
    ("history()[0].winners[0].amount", 100, 150, "more awarded than due"),
    ("history()[0].winners[0].amount", 150, 100, "less than due"),
    ("state.pots[0].amount", 100, 150, "more than due"),
    ("state.pots[0].amount", 150, 100, "less than due"),
    ("state.street", "flop", "turn", "another value"),
])
def test_each_kind_of_difference_has_its_words(path, expected, actual, kind):
    assert kind_of(path, expected, actual) == kind


def test_a_field_is_named_alike_wherever_it_is_seen():
    assert field_of("history()[3].winners[0].amount") == "history.winners[].amount"
    assert field_of("steps[2].state.history[2].winners[1].amount") == "history.winners[].amount"
    assert field_of("log()[4].result.board[2]") == "history.board[]"
    assert field_of("result().result.winners[0].id") == "history.winners[].id"
    assert field_of("steps[3].state.pots[0].amount") == "state.pots[].amount"
    assert field_of("steps[3].action.type") == "action.type"
    assert field_of("stateAfter.pots[1].amount") == "state.pots[].amount"
    assert field_of("state.seats[4].stack") == "state.seats[].stack"
    assert field_of(None) == field_of("") == ""


def test_one_rule_of_the_text_is_one_cause_whatever_clause_shows_it():
    assert rule_of("rules.checker-convention") == rule_of("rules.short-allin") == "rules.short-allin"
    assert rule_of("rules.odd-chips") == "rules.odd-chips"
    assert rule_of(None) == rule_of("") == ""
    assert cause_key("rules.checker-convention", "state.minRaiseTo", None, 200) == cause_key(
        "rules.short-allin", "steps[3].state.minRaiseTo", None, 300) == (
        "rules.short-allin", "state.minRaiseTo", "a raise offered where raising is closed")


def test_a_classified_kind_names_the_behaviour_whatever_field_shows_it():
    kind = "a refund counted as an award"
    assert cause_key("state.history-winners", "history()[0].winners[0].amount", 100, 150, kind) == (
        "state.history-winners", "", kind) == cause_key("state.history-winners", "state.history[2].winners", [], [1], kind)
    # without a kind: the field and the values' kind decide
    assert cause_key("state.pots", "state.pots[0].amount", 1, 2) != cause_key("state.pots", "state.pots[0].amount", 2, 1)
    assert cause_key("state.pots", None, 1, 2) == ("state.pots", "", "more than due")


def test_a_legality_acts_record_is_the_same_field_as_a_games_action_record():
    """``act.action.amount`` (a legality vector's act) and ``action.amount`` (a game's decision, a
    legality prefix's) are one field: the same defect in both is one cause (issue #38, item 3)."""
    from conformance.judge.difference_kinds import cause_key, field_of
    assert field_of("act.action.amount") == field_of("action.amount") == "action.amount"
    assert field_of("act") == "act" and field_of("actions[2].amount") == "actions[].amount"
    assert cause_key("rules.raise-total", "act.action.amount", 200, 201) == cause_key("rules.raise-total", "action.amount", 300, 301)
