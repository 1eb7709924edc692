"""Family ``pots``: contributions -> merged contribution layers (contract: pots; R7), and
malformed contributions, which buildPots refuses (R38)."""
from reference.errors import PotsError
from reference.pots import build_pots

from conformance.vectors.vectorfile import make_test

NOTES = {
    "Layers": {"description": "one layer per distinct contribution level; eligibility = non-folded contributors reaching it",
               "clauses": ["state.pots", "rules.side-pots"], "ruling": None},
    "FoldedChips": {"description": "folded chips stay in the pot; folded seats are not eligible", "clauses": ["rules.folded-chips"], "ruling": None},
    "Merge": {"description": "adjacent layers with identical eligibility merge", "clauses": ["state.pots"], "ruling": None},
    "DeadLayer": {"description": "a layer no contributor can win joins the layer below", "clauses": ["state.pots"], "ruling": "R7"},
    "BadContributions": {"description": "malformed contributions (not a list of {id, committed, folded} with distinct "
                         "non-empty ids, non-negative integer amounts and boolean folds): buildPots throws; error names "
                         "the field the reference names (a note only)", "clauses": ["state.pots"], "ruling": "R38"},
}


def c(pid, committed, folded=False):
    return {"id": pid, "committed": committed, "folded": folded}


CASES = [
    ("contract-example", [c("s1", 0), c("s2", 50), c("s3", 100)], ["Layers"]),
    ("single-layer", [c("s1", 300), c("s2", 300)], ["Layers"]),
    ("three-layers", [c("s1", 100), c("s2", 300), c("s3", 600), c("s4", 600)], ["Layers"]),
    ("four-layers", [c("s1", 50), c("s2", 200), c("s3", 450), c("s4", 1000), c("s5", 1000)], ["Layers"]),
    ("folded-small", [c("s1", 100, True), c("s2", 300), c("s3", 300)], ["FoldedChips", "Merge"]),
    ("folded-middle", [c("s1", 100), c("s2", 250, True), c("s3", 300), c("s4", 600)], ["FoldedChips", "Merge"]),
    ("merge-two-folded-levels", [c("s1", 300), c("s2", 300), c("s3", 100, True), c("s4", 200, True)], ["Merge", "FoldedChips"]),
    ("all-in-short-and-callers", [c("s1", 75), c("s2", 400), c("s3", 400), c("s4", 400, True)], ["Layers", "FoldedChips"]),
    ("nine-seats", [c(f"s{i + 1}", a) for i, a in enumerate([10, 20, 30, 40, 50, 60, 70, 80, 90])], ["Layers"]),
    ("zero-contributors-skipped", [c("s1", 0), c("s2", 0), c("s3", 500), c("s4", 500)], ["Layers"]),
    # Nobody has committed a chip: no layer at all (not one pot of 0 chips).
    ("no-chips", [c("s1", 0), c("s2", 0, True)], ["Layers"]),
    ("dead-top-layer", [c("s1", 100), c("s2", 500, True)], ["DeadLayer"]),
    ("dead-only", [c("s1", 50, True)], ["DeadLayer"]),
]


BAD = [
    ("not-an-array", {"s1": c("s1", 100)}),
    ("entry-not-an-object", [c("s1", 100), 100]),
    ("missing-folded", [c("s1", 100), {"id": "s2", "committed": 100}]),
    ("missing-id", [{"committed": 100, "folded": False}, c("s2", 100)]),
    ("empty-id", [c("", 100), c("s2", 100)]),
    ("number-id", [c(1, 100), c("s2", 100)]),
    ("duplicate-id", [c("s1", 100), c("s1", 200)]),
    ("negative-committed", [c("s1", -50), c("s2", 100)]),
    ("fractional-committed", [c("s1", 50.5), c("s2", 100)]),
    ("string-committed", [c("s1", "100"), c("s2", 100)]),
    ("boolean-committed", [c("s1", True), c("s2", 100)]),
    ("folded-not-a-boolean", [c("s1", 100, 0), c("s2", 100)]),
]


def refused_field(contributions: object) -> str:
    """The field the reference names in refusing ``contributions``."""
    try:
        build_pots(contributions)
    except PotsError as exc:
        return exc.field
    raise AssertionError(f"the reference accepts contributions {contributions!r}")


def generate() -> list[dict]:
    tests = [
        make_test(NOTES, f"pots.{slug}", f"{len(contributions)} contributions", ["state.pots"],
                  {"contributions": contributions}, {"pots": build_pots(contributions)}, flags)
        for slug, contributions, flags in CASES
    ]
    for slug, contributions in BAD:
        field = refused_field(contributions)
        tests.append(make_test(NOTES, f"pots.error.{slug}", f"buildPots throws ({field})", ["state.pots"],
                               {"contributions": contributions}, {"error": field}, ["BadContributions"]))
    return tests
