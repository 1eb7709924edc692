"""``holdem-cert vectors regenerate|check|coverage|rulings``."""
from __future__ import annotations

import time

from conformance.errors import UsageError
from conformance.vectors import library as vectors, ruling_lint
from conformance.vectors.clauses import CLAUSES, NOT_BY_VECTOR
from conformance.vectors.generators import FAMILIES

NAME = "vectors"
HELP = ("regenerate, check or show the clause coverage of the golden vectors, or lint the rulings their "
        "results depend on")


def configure(parser) -> None:
    parser.add_argument("action", choices=["regenerate", "check", "coverage", "rulings"])
    parser.add_argument("--family", action="append", help="limit to a family (repeatable)")


def run(args) -> int:
    families = args.family
    for f in families or []:
        if f not in FAMILIES:
            raise UsageError(f"--family: unknown family {f!r} (known: {', '.join(FAMILIES)})")
    if args.action == "regenerate":
        start = time.perf_counter()
        counts = vectors.regenerate(families=families)
        for family, n in counts.items():
            print(f"{family:12} {n:5} tests  {vectors.path_of(family)}")
        print(f"regenerated {sum(counts.values())} tests in {len(counts)} families ({time.perf_counter() - start:.1f} s)")
        return 0
    if args.action == "check":
        problems = vectors.check(families=families)
        for p in problems:
            print(p)
        print(f"vectors check: {'OK' if not problems else f'{len(problems)} problem(s)'}")
        return 1 if problems else 0
    if args.action == "rulings":  # every vector names the rulings its result depends on (issue #24, item 2)
        found = [f"{family}: {p}" for family in families or ruling_lint.FAMILIES
                 for p in ruling_lint.problems(family, vectors.load(family)["tests"])]
        print("\n".join(found) or "every vector names the rulings its result depends on")
        return 1 if found else 0
    counts, total = vectors.coverage()
    width = max(len(c) for c in CLAUSES)
    for clause_id, (section, text, who) in CLAUSES.items():
        print(f"{clause_id:{width}}  {counts[clause_id]:5}  {who:6}  {text}")
    missing = vectors.uncovered(counts)
    print(f"coverage: {len(CLAUSES) - len(missing) - len(NOT_BY_VECTOR)}/{len(CLAUSES)} clauses have vectors; "
          f"{total} vectors" + "".join(f"; {c}: {how}" for c, how in NOT_BY_VECTOR.items())
          + (f"; uncovered: {', '.join(missing)}" if missing else ""))
    return 1 if missing else 0
