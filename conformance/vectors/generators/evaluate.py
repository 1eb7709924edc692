"""Family ``evaluate``: categories, kickers, the wheel, board plays, ties, errors, and a digest
of all 2,598,960 five-card hands (category counts, 7,462 classes, a hash of their order)."""
from itertools import combinations

from reference.cards import CANONICAL_DECK
from reference.errors import EvaluateError
from reference.evaluator import evaluate, hand_value

from conformance.vectors.vectorfile import make_test

NOTES = {
    "Category": {"description": "rank (0..8) of a hand; best must be five input cards of equal value", "clauses": ["helper.evaluate", "rules.best-five"], "ruling": None},
    "ContractExample": {"description": "the contract's own example: aces full of kings is 5308875, 'Full house'", "clauses": ["helper.evaluate"], "ruling": None},
    "ValueEncoding": {"description": "value and name as our encoding gives them (rank*15^5 + base-15 tiebreaks; names)", "clauses": ["helper.evaluate"], "ruling": "R4"},
    "Order": {"description": "which of two hands wins, or a tie: sign(value(a) - value(b))", "clauses": ["helper.evaluate", "rules.best-five"], "ruling": None},
    "Wheel": {"description": "A2345 is a five-high straight", "clauses": ["rules.wheel"], "ruling": None},
    "Suits": {"description": "suits have no rank: hands differing only in suits tie", "clauses": ["rules.suits"], "ruling": None},
    "BoardPlays": {"description": "the best five may be the five board cards", "clauses": ["rules.best-five"], "ruling": None},
    "BadInput": {"description": "invalid counts, malformed cards or duplicates throw", "clauses": ["helper.evaluate-errors", "rules.cards"], "ruling": None},
    "ArrayLike": {"description": "an array-like object ({\"0\": card, ..., \"length\": n}) is no array of cards: refused "
                  "(R40); evaluating it as the list of its items is R40's other option: divergent, any other outcome fails",
                  "clauses": ["helper.evaluate-errors"], "ruling": "R40"},
    "Digest": {"description": "all 2,598,960 five-card hands: category counts, 7,462 distinct values, and the FNV-1a "
               "hash of each hand's class index in canonical enumeration order (see INTERPRETING.md)", "clauses": ["helper.evaluate"], "ruling": None},
}

HANDS = [
    ("high-card", "As Kd 9h 7c 3s"), ("one-pair", "Ah Ad Kc 9s 4d"), ("two-pair", "Kh Kd 7c 7s Ad"),
    ("trips", "Qh Qd Qc 9s 2d"), ("straight", "9h 8d 7c 6s 5d"), ("flush", "Ah Jh 8h 4h 2h"),
    ("full-house", "Ac Ad Ah Ks Kc"), ("quads", "9h 9d 9c 9s Kd"), ("straight-flush", "9s 8s 7s 6s 5s"),
    ("royal-flush", "As Ks Qs Js Ts"), ("wheel", "Ah 2d 3c 4s 5d"), ("steel-wheel", "5h 4h 3h 2h Ah"),
    ("broadway", "Ah Kd Qc Js Td"), ("six-cards-flush", "Ah Jh 8h 4h 2h Kc"), ("seven-cards-full", "Ac Ad Ah Ks Kc Kd 2s"),
    ("seven-cards-two-trips", "7c 7d 7h 5s 5c 5d 2s"), ("seven-cards-three-pair", "Ac Ad Qs Qc 9d 9h 2s"),
    ("seven-cards-flush-over-straight", "9h 8h 7c 6h 5h 2h Td"), ("seven-cards-quads-with-pair", "8c 8d 8h 8s Ac Ad Kh"),
    ("seven-cards-wheel-with-six", "Ah 2d 3c 4s 5d 6c Kh"), ("seven-cards-straight-flush-in-flush", "Th 9h 8h 7h 6h 2h Ah"),
    # A group's cards anywhere among six or seven (the first, sixth or seventh card): best must still
    # be five input cards of the hand's value (R5 lets any be chosen, in any order).
    ("seven-cards-pair-last", "Ah Kd 9c 7s 4h 2d Ac"), ("six-cards-pair-last", "Ah Kd 9c 7s 4h Ac"),
    ("seven-cards-two-pair-high-last", "Kh Qd 7c 7s 2d 3c Kc"), ("seven-cards-two-pair-high-sixth", "Kh Qd 7c 7s 2d Kc 3c"),
    ("seven-cards-two-pair-low-last", "Kh 7d Kc 2s 4d 9c 7c"), ("seven-cards-two-pair-low-sixth", "Kh 7d Kc 2s 4d 7c 9c"),
    ("seven-cards-trips-last", "9h Ad 9c 4s 2d Kc 9s"), ("six-cards-trips-last", "9h Ad 9c 4s 2d 9s"),
    ("seven-cards-trips-fifth-and-last", "9h Ad Kc 4s 9c 2d 9s"), ("seven-cards-trips-sixth-and-last", "9h Ad Kc 4s 2d 9c 9s"),
    ("seven-cards-straight-with-pair", "9c 8d 7h 6s 5c 5d 2h"), ("six-cards-wheel-with-pair", "Ah 2d 3c 4s 5d 5c"),
    ("seven-cards-full-house-spread", "Kc 2d 9h Ks 3c Kd 9s"), ("seven-cards-quads-last", "8c Ad 8d 8h Kh 2c 8s"),
    # Where each group's cards sit decides which card a fast evaluator must pick for best (issue #37,
    # docs/mutation.md): the low pair first, trips split around the kickers or last, the card 2c
    # (code 0) in a group, a flush's lowest card above the deuce, three pairs of six cards, quads and
    # trips whose last cards come last.
    ("two-pair-low-pair-first", "7c 7d Kh Kc 2s"), ("deuces-full", "2c 2d 2h Ks Kc"),
    ("trips-first-second-fourth", "9h 9c Ad 9s 2d"), ("trips-first-second-fifth", "9h 9c Ad 4s 9s"),
    ("six-cards-trips-first-second-sixth", "9h 9c Ad 4s 2d 9s"), ("six-cards-trips-last-three", "Ad Kc 2s 9h 9c 9s"),
    ("seven-cards-trips-last-three", "Ad Kc 2s 3h 9h 9c 9s"), ("flush-lowest-three", "Kd Jd 8d 5d 3d"),
    ("six-cards-three-pair", "Th 3c 3d 8d 8h Td"), ("six-cards-quads-fifth-and-sixth", "4h 4c Js 7c 4d 4s"),
    ("seven-cards-full-house-trips-last", "3h 5c 5d 5h 8c 8d 8h"),
]

ORDERS = [
    ("kicker", "Ah Ad Kc 9s 4d", "Ah Ad Qc 9s 4d", 1, "Order"),
    ("second-kicker", "Ah Ad Kc 9s 4d", "Ac As Kd 8s 7d", 1, "Order"),
    ("two-pair-kicker", "Kh Kd 7c 7s Ad", "Ks Kc 7d 7h Qd", 1, "Order"),
    ("wheel-loses-to-six-high", "Ah 2d 3c 4s 5d", "2h 3d 4c 5s 6d", -1, "Wheel"),
    ("wheel-beats-trips", "Ah 2d 3c 4s 5d", "Kh Kd Kc 9s 2d", 1, "Wheel"),
    ("ace-high-straight-beats-wheel", "Ah Kd Qc Js Td", "Ah 2d 3c 4s 5d", 1, "Wheel"),
    ("suits-tie", "Ah Kd 9h 7c 3s", "As Kh 9d 7s 3c", 0, "Suits"),
    ("flush-kickers", "Ah Jh 8h 4h 3h", "As Js 8s 4s 2s", 1, "Order"),
    ("full-house-trips-first", "2c 2d 2h As Ac", "Kc Kd Qh Qs Qc", -1, "Order"),
    ("board-plays-tie", "As Ks Qs Js Ts 2c 3d", "As Ks Qs Js Ts 4h 5h", 0, "BoardPlays"),
    ("board-straight-kicker-irrelevant", "9c 8d 7h 6s 5c Ah Kh", "9c 8d 7h 6s 5c Qh Jh", 0, "BoardPlays"),
    ("six-beats-five-card-straight", "9c 8d 7h 6s 5c Th 2h", "9c 8d 7h 6s 5c 2d 3d", 1, "Order"),
    ("quads-kicker", "9h 9d 9c 9s Kd", "9h 9d 9c 9s Qd", 1, "Order"),
    ("straight-flush-beats-quads", "5s 4s 3s 2s As", "Ah Ad Ac As Kd", 1, "Order"),
]

BAD = [
    ("four-cards", ["Ah", "Kd", "9h", "7c"]), ("eight-cards", ["Ah", "Kd", "9h", "7c", "3s", "2d", "4d", "5d"]),
    ("duplicate", ["Ah", "Ah", "9h", "7c", "3s"]),
    ("duplicate-in-low-pair", ["Ah", "Ad", "Kc", "Kc", "2s"]), ("duplicate-in-seven", ["Ah", "Ad", "Kc", "9h", "Kc", "2s", "3d"]), ("lowercase-rank", ["ah", "Kd", "9h", "7c", "3s"]),
    ("ten-as-10", ["10h", "Kd", "9h", "7c", "3s"]), ("bad-suit", ["Ax", "Kd", "9h", "7c", "3s"]),
    ("triplicate", ["Ah", "Ah", "Ah", "2c", "3d"]),
    ("not-a-string", ["Ah", 14, "9h", "7c", "3s"]), ("not-an-array", "AhKd9h7c3s"), ("empty", []),
    # A card that is not a string at each place of five, six and seven cards.
    ("null-first", [None, "Kd", "9h", "7c", "3s"]), ("boolean-third", ["Ah", "Kd", True, "7c", "3s"]),
    ("object-fourth", ["Ah", "Kd", "9h", {"card": "7c"}, "3s"]), ("array-fifth", ["Ah", "Kd", "9h", "7c", ["3s"]]),
    ("number-sixth", ["Ah", "Kd", "9h", "7c", "3s", 2]), ("null-seventh", ["Ah", "Kd", "9h", "7c", "3s", "2d", None]),
    ("object-not-an-array", {"cards": ["Ah", "Kd", "9h", "7c", "3s"]}),
    # A repeated card where a straight, a high pair or trips would hide it from a fast evaluator.
    ("duplicate-in-straight", ["9c", "8d", "7h", "6s", "5c", "9c"]), ("duplicate-in-high-pair", ["Ah", "Ah", "Kc", "Kd", "2s"]),
    ("duplicate-trips-last", ["2h", "2s", "9c", "5c", "2s"]), ("duplicate-trips-first", ["7s", "7s", "7h", "Ah", "9h"]),
    ("duplicate-trips-first-and-third", ["Qc", "Kd", "Qc", "Qh", "4c", "7d"]),
    ("duplicate-trips-second-and-fifth", ["6s", "Ts", "4d", "8d", "Ts", "Th", "Kc"]),
    ("duplicate-trips-third-and-fifth", ["Qh", "5s", "7s", "7d", "7s", "Kh"]),
]


def refused_by_reference(cards: object) -> None:
    """An error vector's premise, checked on the reference: it throws on these cards."""
    try:
        evaluate(cards)
    except EvaluateError:
        return
    raise AssertionError(f"the reference accepts evaluate({cards!r})")


def five_card_digest() -> dict:
    """Enumerate C(52,5) in canonical index order; class = rank of the value among distinct values."""
    values = [hand_value(h) for h in combinations(CANONICAL_DECK, 5)]
    distinct = sorted(set(values))
    index = {v: i for i, v in enumerate(distinct)}
    counts = [0] * 9
    h = 0x811C9DC5
    for v in values:
        counts[v // 759375] += 1
        h = ((h ^ index[v]) * 0x01000193) & 0xFFFFFFFF
    return {"hands": len(values), "categoryCounts": counts, "distinctValues": len(distinct), "classHash": h}


def generate() -> list[dict]:
    tests = []
    for slug, text in HANDS:
        cards = text.split()
        result = evaluate(cards)
        flags = ["Category"] + (["Wheel"] if "wheel" in slug else [])
        tests.append(make_test(NOTES, f"evaluate.rank.{slug}", f"{text}: {result['name']}", ["helper.evaluate"],
                               {"cards": cards}, {"rank": result["rank"]}, flags))
        value_flags = ["ContractExample"] if slug == "full-house" else ["ValueEncoding"]
        tests.append(make_test(NOTES, f"evaluate.value.{slug}", f"{text}: value {result['value']}", ["helper.evaluate"],
                               {"cards": cards}, {"value": result["value"], "name": result["name"], "rank": result["rank"]}, value_flags))
    for slug, a, b, order, flag in ORDERS:
        tests.append(make_test(NOTES, f"evaluate.order.{slug}", f"{a} vs {b}: {order:+d}", ["helper.evaluate", "rules.best-five"],
                               {"a": a.split(), "b": b.split()}, {"order": order}, [flag]))
    for slug, cards in BAD:
        refused_by_reference(cards)
        tests.append(make_test(NOTES, f"evaluate.error.{slug}", f"evaluate({cards!r}) throws", ["helper.evaluate-errors"],
                               {"cards": cards}, {"error": "cards"}, ["BadInput"], result="invalid"))
    tests += array_like_tests()
    tests.append(make_test(NOTES, "evaluate.digest.five-card", "every five-card hand", ["helper.evaluate"],
                           {"digest": "five-card"}, five_card_digest(), ["Digest"]))
    return tests


def array_like_tests() -> list[dict]:
    """R40: an array-like object of five valid cards is refused (docs/mutation.md: an evaluate
    without its array test reads `length` and the indices and evaluates it)."""
    cards = {"0": "Ah", "1": "Kd", "2": "7c", "3": "7s", "4": "2h", "length": 5}
    refused_by_reference(cards)
    return [make_test(NOTES, "evaluate.error.array-like", "evaluate({0: 'Ah', ..., length: 5}) throws (R40)",
                      ["helper.evaluate-errors"], {"cards": cards}, {"error": "cards"}, ["ArrayLike"])]
