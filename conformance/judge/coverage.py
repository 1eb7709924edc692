"""What of a JavaScript engine's own source a certification ran (``--coverage``, issue #27 item 1).

On the node host (:mod:`conformance.host.node_worker`) V8 counts every block of the engine's script
(the inspector's precise coverage, ``callCount`` and ``detailed``); the driver takes the counts at
the end of each *part* of the run (the engine's load, the smoke tier, each family's golden vectors,
its fresh tests, the fuzz games: :func:`part_of`), which resets them, so that every part is counted
on its own. :class:`CoverageLog` holds those snapshots; :func:`summarize` turns them into the
report's ``coverage`` section.

V8 reports ranges, not a fixed list of blocks: a block whose count equals its parent's is merged
into it, a function never called inside one never called is left out, so the ranges of two runs
cannot be counted against each other. The denominator here is syntactic and the same for every
run: the engine's source, parsed with tree-sitter (as the bot linter does), has one block per
function body and per place where V8 keeps a block counter (the two arms of ``if`` and ``?:``, a
loop's body, the right operand of ``&&``, ``||``, ``??`` and their assignments, ``catch``,
``finally``, each ``case``, and the code after a statement that may jump: ``return``, ``throw``,
``break``, ``continue``). A block's count is V8's count at its first character: that of the
innermost range holding it (V8's own rule; a range left out has its parent's count, zero when the
parent was never run). This is small and exact where the libraries are not: v8-to-istanbul (c8)
counts V8's ranges as branches, so its totals move with the counts themselves.

Only the engine's files are counted (its preludes and ENGINE.js, each on its own): not the adapter,
the suite's driver or the worker's bootstrap, which run as other scripts of the realm. Offsets:
V8's are UTF-16 code units of the script, tree-sitter's UTF-8 bytes; both are mapped to characters.
"""
from __future__ import annotations

import bisect
import time
from dataclasses import dataclass, field

import tree_sitter
import tree_sitter_javascript

SEPARATOR = "\n;\n"  # between the preludes and the engine in the one script (engine_choice.prepare)
SOURCES = ("load", "smoke", "golden", "fresh", "fuzz")  # the parts of a run, in their order
TAKE_SECONDS = 1.0  # the longest run of vectors whose counts a killed engine can lose (besides its own)
FUZZ_GROUP = "fuzz"  # the report's row of the fuzz games (fuzz.FUZZ_GROUP; not imported: fuzz is heavier)
HAND_FUZZ_GROUP = "hand-fuzz"  # the hand profile's random hands (hand_fuzz.GROUP)


def part_of(family: str, test: dict) -> tuple[str, str]:
    """(source, family) of a vector: ``smoke`` (ids ``smoke.*``), ``fresh`` (``F.fresh.K``),
    ``fuzz`` (``hands.fuzz.S.K`` and a shrunk ``hands.fuzz-S-K``; ``hand.fuzz...``: the hand
    profile's random hands, their own row) or ``golden``."""
    ident = str(test.get("id", ""))
    second = ident.split(".")[1:2]
    if ident.startswith("smoke."):
        return "smoke", family
    if second == ["fresh"]:
        return "fresh", family
    if second and second[0].startswith("fuzz"):  # the hand profile's random hands have a row of their own
        return "fuzz", HAND_FUZZ_GROUP if family == "hand" else FUZZ_GROUP
    return "golden", family


@dataclass
class CoverageLog:
    """The snapshots of one run: (part, V8's ``functions`` of the engine's script) in order, the
    vectors on which the engine died (the counts since the last take are lost with the process) and
    takes that failed."""

    part: tuple[str, str | None] = ("load", None)
    snapshots: list[tuple[tuple[str, str | None], list]] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    taken: float = field(default_factory=time.monotonic)

    def due(self, part: tuple[str, str | None]) -> bool:
        """Whether to take the counts before a vector of ``part``: when the part changes, and at least
        every :data:`TAKE_SECONDS` (an engine that is killed loses only the counts since the last take)."""
        return part != self.part or time.monotonic() - self.taken >= TAKE_SECONDS

    def record(self, functions: list) -> None:
        self.snapshots.append((self.part, functions))
        self.taken = time.monotonic()

    def died(self, test_id: str) -> None:
        self.lost.append(test_id)

    def failed(self, why: str) -> None:
        self.problems.append(f"a coverage take failed in {self.part[0]} {self.part[1] or ''}: {why}".replace("  ", " "))


# ---- the engine's blocks ----------------------------------------------------------------------

_PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))
_FUNCTIONS = {"function_declaration", "function_expression", "function", "arrow_function", "method_definition",
              "generator_function_declaration", "generator_function"}
_LOOPS = {"for_statement", "for_in_statement", "while_statement", "do_statement"}
_LOGICAL = {"&&", "||", "??", "&&=", "||=", "??="}
_JUMPS = {"return_statement", "throw_statement", "break_statement", "continue_statement"}
_LISTS = {"program", "statement_block", "switch_case", "switch_default", "class_static_block"}


@dataclass(frozen=True)
class Block:
    kind: str  # function, then, else, loop, ?, :, &&, ||, ??, catch, finally, case, after return, ...
    at: int  # the character (of the file) whose count is the block's
    line: int  # 1-based, of ``at``
    column: int  # 1-based
    function: int  # index of the enclosing function in File.functions (-1: top level)


@dataclass(frozen=True)
class Function:
    name: str
    line: int
    block: int  # index of its body's block in File.blocks


@dataclass
class File:
    name: str
    text: str
    start: int  # its first character in the script
    blocks: list[Block]
    functions: list[Function]
    code: list[list[int]]  # per line (0-based), the characters of code on it (not blanks, not comments)
    headers: list[tuple[int, int]]  # per function, its characters before its body (name, parameters)


def _first_code(node) -> int:
    """The byte whose count is the block's: its first statement's for a ``{...}`` block (V8 may
    start the block's range after the brace), its closing brace when it is empty, else its start."""
    if node.type in ("statement_block", "class_static_block"):
        inner = [c for c in node.named_children if c.type != "comment"]
        return inner[0].start_byte if inner else node.end_byte - 1
    if node.type == "else_clause":
        inner = [c for c in node.named_children if c.type != "comment"]
        return _first_code(inner[0]) if inner else node.start_byte
    return node.start_byte


def _name(node) -> str:
    """A function's name as a reader looks for it: its own, else what it is assigned to."""
    own = node.child_by_field_name("name")
    if own is not None:
        return own.text.decode("utf-8", "replace")
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    if parent is not None:
        target = (parent.child_by_field_name("name") if parent.type == "variable_declarator" else
                  parent.child_by_field_name("left") if parent.type == "assignment_expression" else
                  parent.child_by_field_name("key") if parent.type == "pair" else None)
        if target is not None:
            text = target.text.decode("utf-8", "replace")
            return text if len(text) <= 80 else text[:79] + "\u2026"
    return "(anonymous)"


def _jumps(node) -> bool:
    """Whether a statement may end its statement list early (a jump in it, not in a nested function)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in _JUMPS:
            return True
        stack.extend(c for c in n.named_children if c.type not in _FUNCTIONS)
    return False


def parse_file(name: str, text: str, start: int = 0) -> File:
    data = text.encode("utf-8")
    tree = _PARSER.parse(data)
    if len(data) == len(text):
        char_of = None
    else:  # the character of each byte offset
        char_of = [0] * (len(data) + 1)
        b = 0
        for i, ch in enumerate(text):
            n = len(ch.encode("utf-8"))
            char_of[b:b + n] = [i] * n
            b += n
        char_of[b] = len(text)
    to_char = (lambda b: b) if char_of is None else char_of.__getitem__
    line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    blocks: list[Block] = []
    functions: list[Function] = []
    comments: list[tuple[int, int]] = []
    headers: list[tuple[int, int]] = []  # a function's name and parameters: shown with its body

    def add(kind: str, byte: int, function: int) -> int:
        at = to_char(byte)
        line = bisect.bisect_right(line_starts, at)
        blocks.append(Block(kind, at, line, at - line_starts[line - 1] + 1, function))
        return len(blocks) - 1

    # An explicit stack: engines nest deeply enough to exhaust Python's recursion (a long else-if chain).
    stack = [(tree.root_node, -1)]
    while stack:
        node, function = stack.pop()
        kind = node.type
        children_function = function
        if kind == "comment":
            comments.append((to_char(node.start_byte), to_char(node.end_byte)))
            continue
        if kind in _FUNCTIONS:
            body = node.child_by_field_name("body")
            if body is not None:  # its body's first character: inside V8's range of the function, in no block's
                index = add("function", body.start_byte, function)
                functions.append(Function(_name(node), blocks[index].line, index))
                headers.append((to_char(node.start_byte), to_char(body.start_byte)))
                children_function = len(functions) - 1
        elif kind == "if_statement":
            for part, label in (("consequence", "then"), ("alternative", "else")):
                arm = node.child_by_field_name(part)
                if arm is not None:
                    add(label, _first_code(arm), function)
        elif kind in _LOOPS:
            body = node.child_by_field_name("body")
            if body is not None:
                add("loop", _first_code(body), function)
        elif kind == "ternary_expression":
            for part, label in (("consequence", "?"), ("alternative", ":")):
                arm = node.child_by_field_name(part)
                if arm is not None:
                    add(label, arm.start_byte, function)
        elif kind in ("binary_expression", "augmented_assignment_expression"):
            operator = node.child_by_field_name("operator")
            right = node.child_by_field_name("right")
            if operator is not None and right is not None and operator.type in _LOGICAL:
                add(operator.type, right.start_byte, function)
        elif kind in ("catch_clause", "finally_clause"):
            body = node.child_by_field_name("body")
            if body is not None:
                add(kind.split("_")[0], _first_code(body), function)
        elif kind in ("switch_case", "switch_default"):
            body = [c for c in node.children_by_field_name("body") if c.type != "comment"]
            if body:
                add("case" if kind == "switch_case" else "default", body[0].start_byte, function)
        if kind in _LISTS:
            statements = [c for c in node.named_children if c.type not in ("comment", "empty_statement")]
            if kind in ("switch_case", "switch_default"):
                statements = [c for c in node.children_by_field_name("body") if c.type not in ("comment", "empty_statement")]
            for before, after in zip(statements, statements[1:]):
                if _jumps(before):
                    add(f"after {before.type.replace('_statement', '')}", after.start_byte, function)
        # Children in source order: pushed reversed onto the stack.
        stack.extend((c, children_function) for c in reversed(node.children))
    order = sorted(range(len(blocks)), key=lambda i: blocks[i].at)
    remap = {old: new for new, old in enumerate(order)}
    blocks = [blocks[i] for i in order]
    functions = [Function(f.name, f.line, remap[f.block]) for f in functions]
    code = _code_chars(text, line_starts, comments)
    return File(name, text, start, blocks, functions, code, headers)


def _code_chars(text: str, line_starts: list[int], comments: list[tuple[int, int]]) -> list[list[int]]:
    in_comment = bytearray(len(text))
    for a, b in comments:
        in_comment[a:b] = b"\x01" * (b - a)
    ends = line_starts[1:] + [len(text) + 1]
    # A separator (the comma after a method, a semicolon) is its enclosing code's: it does not make a
    # line of a function never called "partly run".
    return [[i for i in range(a, min(b, len(text))) if not in_comment[i] and not text[i].isspace() and text[i] not in ",;"]
            for a, b in zip(line_starts, ends)]


# ---- V8's counts ---------------------------------------------------------------------------------

class Script:
    """The engine's script as V8 saw it (``files`` joined by :data:`SEPARATOR`), parsed once."""

    def __init__(self, files: list[tuple[str, str]]) -> None:
        self.files: list[File] = []
        start = 0
        for name, text in files:
            self.files.append(parse_file(name, text, start))
            start += len(text) + len(SEPARATOR)
        self.text = SEPARATOR.join(text for _, text in files)
        # V8's offsets count UTF-16 code units: where they are not characters, map them.
        wide = [i for i, ch in enumerate(self.text) if ord(ch) > 0xFFFF]
        self._wide = [i + k + 1 for k, i in enumerate(wide)]  # the unit offset just past each wide character's first unit

    def char(self, unit: int) -> int:
        return unit - bisect.bisect_left(self._wide, unit + 1) if self._wide else unit

    def counts(self, functions: list) -> list[int]:
        """The count of every character of the script: that of the innermost range holding it."""
        out = [0] * len(self.text)
        ranges = []
        for k, function in enumerate(functions):
            for j, r in enumerate(function.get("ranges") or ()):
                ranges.append((self.char(int(r["startOffset"])), -self.char(int(r["endOffset"])), k, j, int(r["count"])))
        ranges.sort()  # outer before inner; a function's own range before its blocks
        n = len(out)
        for start, neg_end, _, _, count in ranges:
            start, end = max(0, start), min(n, -neg_end)
            if end > start:
                out[start:end] = [count] * (end - start)
        return out


def _tally(counts: list[int], script: Script) -> list[list[int]]:
    """Per file, each block's count."""
    return [[counts[f.start + b.at] for b in f.blocks] for f in script.files]


def _stats(block_counts: list[list[int]], script: Script) -> dict:
    blocks = sum(len(f.blocks) for f in script.files)
    run = sum(c > 0 for per in block_counts for c in per)
    functions = sum(len(f.functions) for f in script.files)
    called = sum(block_counts[i][fn.block] > 0 for i, f in enumerate(script.files) for fn in f.functions)
    return {"blocks": blocks, "run": run, "percent": percent(run, blocks), "functions": functions, "called": called,
            "neverCalled": functions - called}


def percent(run: int, total: int) -> float:
    return round(100 * run / total, 1) if total else 100.0


def summary_line(stats: dict, counted: bool = True) -> str:
    """The terminal's line: "87.1% of blocks (1234 of 1417); 14 of 210 functions never called"."""
    if not counted:
        return f"no counts: the engine never ran under V8 (it did not load); {stats['blocks']} blocks"
    if stats["blocks"] == 0:
        return "no blocks: the engine's source has no function or branch to count"
    return (f"{stats['percent']:g}% of blocks ({stats['run']} of {stats['blocks']}); "
            f"{stats['neverCalled']} of {stats['functions']} functions never called")


def summarize(log: CoverageLog, files: list[tuple[str, str]], *, tool: str, sandbox: str) -> dict:
    """The report's ``coverage`` section (docs/INTERPRETING.md, Coverage) and, under ``"lines"``,
    each file's line states for the HTML view (not written into the JSON: :func:`for_json`)."""
    script = Script(files)
    empty = [[0] * len(f.blocks) for f in script.files]
    per_part: dict[tuple[str, str | None], list[list[int]]] = {}
    chars = [0] * len(script.text)
    for part, functions in log.snapshots:
        counts = script.counts(functions)
        chars = [a + b for a, b in zip(chars, counts)]
        tally = _tally(counts, script)
        have = per_part.setdefault(part, [list(x) for x in empty])
        for i, per in enumerate(tally):
            have[i] = [a + b for a, b in zip(have[i], per)]

    def combine(parts) -> list[list[int]]:
        out = [list(x) for x in empty]
        for p in parts:
            for i, per in enumerate(per_part[p]):
                out[i] = [a + b for a, b in zip(out[i], per)]
        return out

    total = combine(per_part)
    by_source = {s: _stats(combine([p for p in per_part if p[0] == s]), script)
                 for s in SOURCES if any(p[0] == s for p in per_part)}
    families = list(dict.fromkeys(p[1] for p in per_part if p[0] in ("golden", "fresh", "fuzz")))
    by_family = {fam: _stats(combine([p for p in per_part if p[1] == fam and p[0] in ("golden", "fresh", "fuzz")]),
                             script) for fam in families}
    family_counts = {fam: combine([p for p in per_part if p[1] == fam and p[0] in ("golden", "fresh", "fuzz")])
                     for fam in families}
    parts = [{"source": s, "family": fam, **_stats(per_part[(s, fam)], script)} for (s, fam) in per_part]
    out_files, out_functions, never, lines = [], [], [], []
    for i, f in enumerate(script.files):
        counts = total[i]
        fn_of = {fn.block: k for k, fn in enumerate(f.functions)}
        file_lines = _line_states(f, chars)
        lines.append(file_lines)
        out_files.append({
            "file": f.name, "blocks": len(f.blocks), "run": sum(c > 0 for c in counts),
            "percent": percent(sum(c > 0 for c in counts), len(f.blocks)),
            "functions": len(f.functions), "called": sum(counts[fn.block] > 0 for fn in f.functions),
            "lines": {"code": sum(s != "blank" for s in file_lines), "never": file_lines.count("never"),
                      "partly": file_lines.count("partly")}})
        members: dict[int, list[int]] = {}
        for j, b in enumerate(f.blocks):
            members.setdefault(b.function if j not in fn_of else fn_of[j], []).append(j)
        for k, fn in enumerate(f.functions):
            mine = members.get(k, [])
            out_functions.append({
                "file": f.name, "name": fn.name, "line": fn.line, "calls": counts[fn.block],
                "blocks": len(mine), "run": sum(counts[j] > 0 for j in mine),
                "families": {fam: sum(family_counts[fam][i][j] > 0 for j in mine) for fam in families
                             if any(family_counts[fam][i][j] > 0 for j in mine)}})
        for j, b in enumerate(f.blocks):
            if counts[j] == 0:
                owner = fn_of.get(j, b.function)
                never.append({"file": f.name, "line": b.line, "column": b.column, "kind": b.kind,
                              "function": f.functions[owner].name if owner >= 0 else "(top level)"})
    stats = _stats(total, script)
    return {
        "tool": tool, "sandbox": sandbox, "summary": summary_line(stats, bool(log.snapshots)), "total": stats,
        "bySource": by_source, "byFamily": by_family, "parts": parts, "files": out_files,
        "functions": out_functions, "neverRun": never,
        "lost": {"vectors": list(log.lost),
                 **({"note": f"the engine was stopped or died on these vectors: the counts since the take before "
                             f"each (at most {TAKE_SECONDS:g} s of vectors earlier) were lost with the process"}
                    if log.lost else {})},
        "problems": list(log.problems), "lines": lines,
    }


def _line_states(f: File, chars: list[int]) -> list[str]:
    """Each line's state: ``blank`` (no code), ``never`` (no character of it ran), ``partly``, ``run``.
    A function's header (name, parameters: V8's range of a method starts after its name) is shown
    with its body: the header of a function never called is never run."""
    mine = chars[f.start:f.start + len(f.text)]
    for a, b in sorted(f.headers):  # outer before inner
        mine[a:b] = [mine[b]] * (b - a)
    out = []
    for code in f.code:
        if not code:
            out.append("blank")
            continue
        ran = sum(mine[i] > 0 for i in code)
        out.append("run" if ran == len(code) else "never" if ran == 0 else "partly")
    return out


def for_json(section: dict) -> dict:
    """The section as the JSON report holds it (the per-line states are the HTML view's)."""
    return {k: v for k, v in section.items() if k != "lines"}

