"""Family ``pots``: contributions -> merged contribution layers (contract: pots; R7)."""
from reference.pots import build_pots

from conformance.vectors.vectorfile import make_test

NOTES = {
    "Layers": {"description": "one layer per distinct contribution level; eligibility = non-folded contributors reaching it",
               "clauses": ["state.pots", "rules.side-pots"], "ruling": None},
    "FoldedChips": {"description": "folded chips stay in the pot; folded seats are not eligible", "clauses": ["rules.folded-chips"], "ruling": None},
    "Merge": {"description": "adjacent layers with identical eligibility merge", "clauses": ["state.pots"], "ruling": None},
    "DeadLayer": {"description": "a layer no contributor can win joins the layer below", "clauses": ["state.pots"], "ruling": "R7"},
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
    ("dead-top-layer", [c("s1", 100), c("s2", 500, True)], ["DeadLayer"]),
    ("dead-only", [c("s1", 50, True)], ["DeadLayer"]),
]


def generate() -> list[dict]:
    return [
        make_test(NOTES, f"pots.{slug}", f"{len(contributions)} contributions", ["state.pots"],
                  {"contributions": contributions}, {"pots": build_pots(contributions)}, flags)
        for slug, contributions, flags in CASES
    ]
