"""docs/mutation.md answers every mutant the bundled engine's source excludes (issue #37 item 3): each
Stryker disable comment in reference/js/poker-engine.js names its mutators and gives a reason, and
that reason is one docs/mutation.md explains (tests/test_mutate.py runs a sample of mutants and checks
their statuses, an excluded one's too)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "reference" / "js" / "poker-engine.js"
DOC = ROOT / "docs" / "mutation.md"
# StrykerJS 10's mutator names (its instrumenter's src/mutators), the names a disable comment may use
MUTATORS = {"ArithmeticOperator", "ArrayDeclaration", "ArrowFunction", "AssignmentOperator", "BlockStatement",
            "BooleanLiteral", "CallExpression", "ConditionalExpression", "EqualityOperator", "LogicalOperator",
            "MethodExpression", "ObjectLiteral", "OptionalChaining", "Regex", "StringLiteral", "UnaryOperator",
            "UpdateOperator", "all"}
DIRECTIVE = re.compile(r"//\s*Stryker\s+(disable|restore)(\s+next-line)?\s+([\w,]+)(?::\s*(.*))?$")


def directives() -> list[tuple[int, str, bool, list[str], str]]:
    out = []
    for number, line in enumerate(ENGINE.read_text(encoding="utf-8").splitlines(), 1):
        if "Stryker" in line and "//" in line:
            m = DIRECTIVE.search(line.strip())
            assert m, f"poker-engine.js:{number}: not a Stryker directive this test can read: {line.strip()}"
            out.append((number, m[1], bool(m[2]), m[3].split(","), (m[4] or "").strip()))
    return out


def test_every_exclusion_names_real_mutators_and_gives_a_reason():
    found = directives()
    assert found, "the bundled engine excludes no mutant: docs/mutation.md says it does"
    for number, kind, _, mutators, reason in found:
        assert set(mutators) <= MUTATORS, (number, mutators)
        if kind == "disable":
            assert len(reason) >= 20, f"poker-engine.js:{number}: a disable comment needs its reason"


def test_block_exclusions_are_restored():
    open_ = {}
    for number, kind, next_line, mutators, _ in directives():
        if next_line:
            continue
        for m in mutators:
            if kind == "disable":
                assert m not in open_, f"poker-engine.js:{number}: {m} disabled twice (first at {open_.get(m)})"
                open_[m] = number
            else:
                assert open_.pop(m, None) is not None, f"poker-engine.js:{number}: {m} restored but not disabled"
    assert not open_, f"disabled and never restored: {open_}"


OWNER = re.compile(r"^(?:\s*function\s+(\w+)|    (?:static\s+)?(\w+)\s*\([^)]*\)\s*\{\s*$|  (?:const|let|var)\s+(\w+)\s*="
                   r"|\s*class\s+(\w+))")  # a function, a class's method, a constant of the factory's scope, a class


def owner(lines: list[str], number: int) -> str:
    """The function, method, class or constant the code after a comment belongs to (the nearest above)."""
    for line in reversed(lines[:number + 1]):  # from the excluded code's line (the comment's next) up
        m = OWNER.match(line)
        if m and not line.lstrip().startswith(("if ", "for ", "while ", "switch ")):
            return next(g for g in m.groups() if g)
    return "(top)"


def test_every_exclusion_points_to_docs_mutation_which_answers_its_code():
    """Each excluded mutant's place is answered in docs/mutation.md: the comment sends the reader there,
    and the page names the function (or constant) the excluded code belongs to."""
    lines = ENGINE.read_text(encoding="utf-8").splitlines()
    doc = DOC.read_text(encoding="utf-8")
    for number, kind, _, _, reason in directives():
        if kind != "disable":
            continue
        assert "docs/mutation.md" in reason, f"poker-engine.js:{number}: the reason must point to docs/mutation.md"
        name = owner(lines, number)
        assert name in doc, f"poker-engine.js:{number}: docs/mutation.md does not answer {name}'s excluded mutants"
