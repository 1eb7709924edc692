"""Static analysis of a bot submission (contract v1) with a real JavaScript parser.

``lint_source(source)`` parses the script with tree-sitter and reports what the
contract forbids: ES-module syntax, ``require``, dynamic code generation, clocks,
unseeded entropy, networking, DOM APIs, worker messaging, background timers,
async code and writes to worker globals. Each finding carries a stable rule id
(see ``RULES``) and a 1-based line and column (columns count code points).

Only *global* names are flagged: an identifier declared by ``var``/``let``/
``const``/``function``/``class``/a parameter/a catch binding in an enclosing
scope is the bot's own, as are properties (``state.crypto``, ``this.fetch``) and
text in strings or comments. Members of the worker global object (``self``,
``window``, ``globalThis``) are the globals themselves: ``window.eval`` is
``eval``; so are the members of a name declared once as one of them (``const g =
globalThis``, or ``this`` at the top level), and a computed member whose key is a
constant string declared once (``const k = 'cry' + 'pto'; self[k]``). The operand of
``typeof`` is not a use: feature detection does not call the API, but probing a global
of another host (``typeof process``, ``typeof navigator``) is an ``environment-probe``
warning, since the contract forbids choosing actions by the environment (Determinism; R30
says which findings are errors and which warnings). The members of a browser's Web Worker that
the contract allows (``structuredClone``, ``TextEncoder``/``TextDecoder``, ``atob``/``btoa``,
``Intl``, ``self``, ``window``) are reported as information (``worker-member``, the first use of
each), never an error or a warning, and probing them is no ``environment-probe``: the worker has
them (#35).

A NUL character is legal JavaScript inside a string, template, regular expression or comment;
tree-sitter's lexer would take it for the end of the input, so U+0001, legal exactly where a NUL
is, stands in for it while parsing.
A timer given a string reports ``string-timer`` in place of
``timer``. The bot runs as a classic script at global scope, so a top-level
declaration of a protected name (``var Math``, ``function PokerEngine``) is a
``global-assignment`` too.

This is a review aid for a reviewed-code arena, not a sandbox: names computed at
run time (``self[name]``) and indirections such as ``(function(){}).constructor``
are beyond it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Literal, NamedTuple

import tree_sitter
import tree_sitter_javascript

Severity = Literal["error", "warning", "info"]  # info: neither rejects nor warns (R30)

# Rule id -> (severity, what it catches). The ids are stable: reports and
# tests refer to them.
RULES: dict[str, tuple[Severity, str]] = {
    "syntax": ("error", "the script does not parse as JavaScript"),
    "es-module": ("error", "import/export statements (there is no ES-module loader)"),
    "require": ("error", "require(...) (there is no module loader)"),
    "dynamic-import": ("error", "import(...)"),
    "eval": ("error", "eval, called or referenced"),
    "function-constructor": ("error", "new Function / Function(...)"),
    "string-timer": ("error", "setTimeout/setInterval with code in a string"),
    "timer": ("warning", "any timer or deferred callback (background work is forbidden)"),
    "date": ("error", "Date (wall clock)"),
    "performance": ("error", "performance (high-resolution clock)"),
    "crypto": ("error", "crypto (unseeded entropy)"),
    "intl-clock": ("error", "Intl date formatting of the current time (a wall clock without Date)"),
    "environment": ("error", "reading the environment: other hosts' globals (process, Deno, ...), "
                    "the list of the global object's contents, the machine's time zone or locale"),
    "environment-probe": ("warning", "feature tests for non-worker globals (typeof window, 'x' in self): "
                          "allowed in a wrapper, forbidden when they choose actions (R30)"),
    "network": ("error", "fetch, XMLHttpRequest, WebSocket, EventSource, navigator.sendBeacon"),
    "import-scripts": ("error", "importScripts (external code)"),
    "worker-messaging": ("error", "postMessage, onmessage, event listeners, channels, workers"),
    "dom": ("error", "DOM and browser-window APIs"),
    "global-assignment": ("error", "overwriting or mutating worker globals"),
    "async": ("error", "async functions, await, Promise"),
    "worker-member": ("info", "members of browsers' Web Workers the contract allows (structuredClone, "
                      "TextEncoder, TextDecoder, atob, btoa, Intl, self, window): information (R30)"),
}


@dataclass(frozen=True)
class Finding:
    """One problem: a rule id from ``RULES``, its severity, a message, 1-based line and column."""

    rule: str
    severity: Severity
    message: str
    line: int
    column: int


def _by_position(finding: Finding) -> tuple[int, int, str]:
    return finding.line, finding.column, finding.rule


_LANGUAGE = tree_sitter.Language(tree_sitter_javascript.language())

# The worker global object and its aliases: a member of these is a global.
_GLOBAL_OBJECTS = frozenset({"self", "window", "globalThis"})

# Worker globals that a bot must not rebind or mutate. Built-ins are included
# because the engine helper shares them (Array.prototype.x = ... changes it too).
_PROTECTED = _GLOBAL_OBJECTS | frozenset({
    "PokerEngine", "Math", "module", "exports", "console",
    "Object", "Array", "JSON", "Number", "String", "Boolean", "Symbol", "BigInt",
    "Function", "RegExp", "Error", "TypeError", "RangeError", "Reflect", "Proxy",
    "Map", "Set", "WeakMap", "WeakSet", "Intl", "ArrayBuffer", "DataView",
    "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
    "Int32Array", "Uint32Array", "Float32Array", "Float64Array",
    "BigInt64Array", "BigUint64Array",
    "parseInt", "parseFloat", "isNaN", "isFinite",
})

# Members of every browser's (classic) Web Worker that the contract allows, with what each is: a use
# is information, never an error (R30; Intl's clock and resolvedOptions() stay errors), and a probe
# of one is no environment probe (#35).
_WORKER_MEMBERS = {
    "structuredClone": "the structured clone algorithm", "TextEncoder": "UTF-8 encoding",
    "TextDecoder": "UTF-8 decoding", "atob": "base64 decoding", "btoa": "base64 encoding",
    "Intl": "ECMA-402 formatting",
    "self": "the worker's global object", "window": "the worker's global object, as browsers alias it",
}

_TIMERS = frozenset({
    "setTimeout", "setInterval", "setImmediate", "queueMicrotask",
    "requestAnimationFrame", "requestIdleCallback",
})
_STRING_TIMERS = frozenset({"setTimeout", "setInterval"})

# Global name -> (rule, why). Names with context-dependent rules (timers,
# Function, navigator) are handled in _Linter._global_use.
_NAME_RULES: dict[str, tuple[str, str]] = {}


def _names(rule: str, why: str, *names: str) -> None:
    for name in names:
        _NAME_RULES[name] = (rule, why)


_names("eval", "runs dynamically generated code", "eval")
_names("require", "is not available: the worker has no module loader", "require")
_names("date", "reads the wall clock; decisions must not depend on time", "Date")
_names("performance", "reads a high-resolution clock; decisions must not depend on time",
       "performance")
_names("crypto", "is unseeded entropy; use Math.random, which the runner seeds", "crypto")
_names("network", "is network access", "fetch", "XMLHttpRequest", "WebSocket", "EventSource",
       "WebTransport")
_names("import-scripts", "loads external code into the worker", "importScripts")
_names("worker-messaging", "interferes with the runner's worker protocol or talks to other "
       "workers", "postMessage", "onmessage", "onmessageerror", "addEventListener",
       "removeEventListener", "BroadcastChannel", "MessageChannel", "Worker", "SharedWorker")
_names("dom", "is a DOM or browser-window API; the worker has no DOM", "document",
       "localStorage", "sessionStorage", "indexedDB", "location", "alert", "confirm",
       "prompt", "history", "screen", "innerWidth", "innerHeight", "Element", "Image",
       "Audio", "DOMParser", "MutationObserver", "customElements", "caches")
_names("async", "is asynchronous; act(state) must answer synchronously", "Promise")
# Globals of other hosts (Node, Deno, Bun, QuickJS's shell, browsers' windows): reading or
# probing one (even with typeof) tells the bot where it runs (contract: Determinism).
_ENVIRONMENT_NAMES = frozenset({
    "process", "global", "Buffer", "Deno", "Bun", "scriptArgs", "std", "os", "__dirname", "__filename",
    "WorkerGlobalScope", "DedicatedWorkerGlobalScope", "SharedWorkerGlobalScope", "ServiceWorkerGlobalScope",
})
_names("environment", "belongs to another host; reading it tells the bot where it runs", *_ENVIRONMENT_NAMES)
# Probed with typeof, these tell a window from a worker, or a browser from a test harness.
_PROBED_NAMES = _ENVIRONMENT_NAMES | {"navigator", "document", "location", "require",
                                      "importScripts", "performance", "crypto"}
# Reading the global object's own contents: a list of what the host provides.
_GLOBAL_INTROSPECTION = {"Object": frozenset({"keys", "getOwnPropertyNames", "getOwnPropertyDescriptors",
                                              "entries", "values", "getOwnPropertyDescriptor"}),
                         "Reflect": frozenset({"has", "ownKeys", "getOwnPropertyDescriptor"})}
# Intl.DateTimeFormat methods that format "now" when given no date.
_NOW_FORMATTERS = frozenset({"format", "formatToParts"})

_DOM_CLASS = re.compile(r"(?:HTML|SVG)\w*Element")

# Scopes. Function-like nodes own `var` declarations and parameters; block-like
# nodes own let/const/class and function declarations inside them.
_FUNCTION_SCOPES = frozenset({
    "program", "function_declaration", "function_expression", "generator_function",
    "generator_function_declaration", "arrow_function", "method_definition",
    "class_static_block",
})
_BLOCK_SCOPES = frozenset({
    "statement_block", "for_statement", "for_in_statement", "catch_clause", "switch_body",
    "class",
})
_FUNCTIONS = frozenset({
    "function_declaration", "function_expression", "generator_function",
    "generator_function_declaration", "arrow_function", "method_definition",
})
_MEMBERS = frozenset({"member_expression", "subscript_expression"})
_REFERENCES = frozenset({"identifier", "shorthand_property_identifier"})

# Calls that mutate their first argument in place.
_MUTATORS = {
    "Object": frozenset({"defineProperty", "defineProperties", "assign", "setPrototypeOf"}),
    "Reflect": frozenset({"defineProperty", "set", "deleteProperty", "setPrototypeOf"}),
}
# Of those, the ones whose second argument names the single property written.
_PROPERTY_MUTATORS = frozenset({"defineProperty", "set", "deleteProperty"})

_ESCAPE = re.compile(r"\\(?:x([0-9a-fA-F]{2})|u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|(.))", re.S)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0",
                   "\n": ""}  # a backslash before a newline continues the line


def _unescape(text: str) -> str:
    def one(m: re.Match) -> str:
        hexa = m.group(1) or m.group(2) or m.group(3)
        if hexa:
            return chr(int(hexa, 16))
        return _SIMPLE_ESCAPES.get(m.group(4), m.group(4))

    return _ESCAPE.sub(one, text)


class _Entry(NamedTuple):
    """A node on the traversal stack, with its parent entry and visible declarations."""

    node: tree_sitter.Node
    parent: "_Entry | None"
    scopes: tuple[frozenset[str], ...]


def _text(node: tree_sitter.Node) -> str:
    return node.text.decode("utf-8", "surrogatepass")


def _unparen(node: tree_sitter.Node) -> tree_sitter.Node:
    """The expression a parenthesized or comma expression evaluates to: ``(0, eval)`` is eval."""
    while node.type in ("parenthesized_expression", "sequence_expression") and node.named_children:
        node = node.named_children[-1]
    return node


def _bindings(node: tree_sitter.Node | None) -> Iterator[tree_sitter.Node]:
    """The nodes a declaration or assignment pattern writes: names and member targets."""
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        t = n.type
        if t in ("identifier", "undefined", "shorthand_property_identifier_pattern") or t in _MEMBERS:
            yield n
        elif t in ("object_pattern", "array_pattern", "rest_pattern", "formal_parameters",
                   "parenthesized_expression"):
            stack.extend(n.named_children)
        elif t == "pair_pattern":
            stack.append(n.child_by_field_name("value"))
        elif t in ("assignment_pattern", "object_assignment_pattern"):
            stack.append(n.child_by_field_name("left"))


def _concat_operands(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The operands of a ``+`` chain, left to right (a single node if it is no ``+``)."""
    operands, stack = [], [node]
    while stack:
        n = _unparen(stack.pop())
        op = n.child_by_field_name("operator") if n.type == "binary_expression" else None
        if op is not None and _text(op) == "+":
            stack += [n.child_by_field_name("right"), n.child_by_field_name("left")]
        else:
            operands.append(n)
    return operands


def _literal_text(node: tree_sitter.Node) -> str | None:
    """The value of a string literal or a template without substitutions, else None."""
    if node.type not in ("string", "template_string") or any(
            c.type == "template_substitution" for c in node.named_children):
        return None
    return "".join(_unescape(_text(c)) if c.type == "escape_sequence" else _text(c)
                   for c in node.named_children)


def _const_string(node: tree_sitter.Node | None) -> str | None:
    """The value of a constant string expression ('a', `a`, 'a' + 'b'), else None."""
    if node is None:
        return None
    parts = [_literal_text(n) for n in _concat_operands(node)]
    return None if None in parts else "".join(parts)


def _stringish(node: tree_sitter.Node | None) -> bool:
    """Whether an expression is a string with literal text in it (code in a string)."""
    return node is not None and any(
        n.type in ("string", "template_string") for n in _concat_operands(node))


def _property_name(member: tree_sitter.Node) -> str | None:
    """``x.name`` -> 'name'; ``x['name']`` -> 'name'; computed ``x[k]`` -> None."""
    if member.type == "member_expression":
        return _text(member.child_by_field_name("property"))
    return _const_string(member.child_by_field_name("index"))


def _callee(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """What a ``new`` or a call expression calls, else None."""
    if node.type == "new_expression":
        return _unparen(node.child_by_field_name("constructor"))
    if node.type == "call_expression":
        return _unparen(node.child_by_field_name("function"))
    return None


def _is_date_format_text(node: tree_sitter.Node) -> bool:
    """``new Intl.DateTimeFormat(…)`` or ``Intl.DateTimeFormat(…)`` as written (for declarations)."""
    callee = _callee(node)
    return callee is not None and re.fullmatch(r"(?:(?:globalThis|self)\.)?Intl\.DateTimeFormat", _text(callee)) is not None


def _syntax_findings(root: tree_sitter.Node, position, source: bytes) -> list[Finding]:
    """Parse errors, quoting ``source`` (the script's own bytes: the parsed ones have U+0001 for NUL)."""
    findings = []
    stack = [(root, None)]
    while stack:
        node, parent = stack.pop()
        if node.is_missing:
            findings.append(Finding("syntax", "error", f"syntax error: missing `{node.type}`",
                                    *position(node)))
        elif node.is_error:
            text = source[node.start_byte:node.end_byte].decode("utf-8", "surrogatepass").strip()
            snippet = text.splitlines()[0] if text else ""
            if len(snippet) > 40:
                snippet = snippet[:40] + "…"
            early = " (the input ends inside it)" if node.end_byte >= len(source) else ""
            findings.append(Finding("syntax", "error",
                                    f"syntax error: cannot parse `{snippet}`{early}",
                                    *position(node)))
            continue  # nested ERROR nodes restate the same failure
        elif node.type in ("jsx_element", "jsx_self_closing_element") and not (
                parent is not None and parent.type.startswith("jsx_")):
            findings.append(Finding("syntax", "error",
                                    "syntax error: JSX is not JavaScript; the worker cannot load it",
                                    *position(node)))
        stack.extend((c, node) for c in node.children)
    return findings


class _Linter:
    def __init__(self, source: str):
        # A byte-order mark is not part of line 1 as an editor shows it.
        self.src = source.removeprefix("\ufeff").encode("utf-8", "surrogatepass")
        parser = tree_sitter.Parser(_LANGUAGE)
        # A NUL ends tree-sitter's input; U+0001 is legal exactly where a NUL is (strings, templates,
        # regular expressions, comments), byte for byte, so positions do not move (#35).
        self.root = parser.parse(self.src.replace(b"\x00", b"\x01")).root_node
        self.line_starts = [0] + [i + 1 for i, b in enumerate(self.src) if b == 0x0A]
        self.findings: list[Finding] = []
        self.decls: dict[int, set[str]] = {}
        self.top_level: list[tree_sitter.Node] = []  # names declared in the program scope
        self.names: dict[int, str | None] = {}  # node id -> global_name memo
        self.declared: dict[str, int] = {}  # name -> how many declarations bind it
        # Names declared once, and so statically visible: aliases of the global object
        # (`const g = globalThis`), constant strings (`const k = 'cry' + 'pto'`) and
        # Intl.DateTimeFormat objects (`const f = new Intl.DateTimeFormat()`).
        self.global_aliases: set[str] = set()
        self.constants: dict[str, str] = {}
        self.date_formats: set[str] = set()
        self.member_uses: dict[str, tree_sitter.Node] = {}  # worker member -> its first use
        self.intl_refused = False  # an Intl use was an error (the clock, resolvedOptions): no info then

    # -- positions and reporting ------------------------------------------------

    def position(self, node: tree_sitter.Node) -> tuple[int, int]:
        row, byte_col = node.start_point
        start = self.line_starts[row]
        prefix = self.src[start:start + byte_col].decode("utf-8", "replace")
        return row + 1, len(prefix) + 1

    def report(self, rule: str, node: tree_sitter.Node, message: str) -> None:
        self.findings.append(Finding(rule, RULES[rule][0], message, *self.position(node)))

    # -- pass 1: declarations -----------------------------------------------------

    def declare(self, scope: tree_sitter.Node, names: Iterator[tree_sitter.Node]) -> None:
        for name in names:
            if name.type in _MEMBERS:
                continue
            self.decls.setdefault(scope.id, set()).add(_text(name))
            self.declared[_text(name)] = self.declared.get(_text(name), 0) + 1
            if scope.type == "program":
                self.top_level.append(name)

    def collect_declarations(self) -> None:
        stack = [(self.root, self.root, self.root)]  # (node, function scope, block scope)
        while stack:
            node, fn, block = stack.pop()
            t = node.type
            if t == "variable_declaration":  # var: function-scoped
                for d in node.named_children:
                    if d.type == "variable_declarator":
                        self.declare(fn, _bindings(d.child_by_field_name("name")))
            elif t == "lexical_declaration":
                for d in node.named_children:
                    if d.type == "variable_declarator":
                        self.declare(block, _bindings(d.child_by_field_name("name")))
            elif t in ("function_declaration", "generator_function_declaration",
                       "class_declaration"):
                self.declare(block, _bindings(node.child_by_field_name("name")))
            elif t in ("function_expression", "generator_function", "class"):
                self.declare(node, _bindings(node.child_by_field_name("name")))
            elif t == "for_in_statement" and node.child_by_field_name("kind") is not None:
                kind = _text(node.child_by_field_name("kind"))
                self.declare(fn if kind == "var" else node,
                             _bindings(node.child_by_field_name("left")))
            elif t == "catch_clause":
                self.declare(node, _bindings(node.child_by_field_name("parameter")))
            elif t == "import_statement":
                self.declare(self.root, (n for n in _import_names(node)))
            if t in _FUNCTIONS:
                params = node.child_by_field_name("parameters") or node.child_by_field_name(
                    "parameter")
                self.declare(node, _bindings(params))
            if t in _FUNCTION_SCOPES:
                fn = block = node
            elif t in _BLOCK_SCOPES:
                block = node
            stack.extend((c, fn, block) for c in node.children)

    def collect_aliases(self) -> None:
        stack = [self.root]
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            if node.type != "variable_declarator" or node.child_by_field_name("name").type != "identifier":
                continue
            name, value = _text(node.child_by_field_name("name")), node.child_by_field_name("value")
            if value is None or self.declared.get(name) != 1:
                continue
            value = _unparen(value)
            top_level = node.parent.parent.type == "program"
            if (value.type == "identifier" and _text(value) in _GLOBAL_OBJECTS
                    and not self.declared.get(_text(value))) or (value.type == "this" and top_level):
                self.global_aliases.add(name)
            elif _is_date_format_text(value):
                self.date_formats.add(name)
            elif _text(node.parent.children[0]) == "const" and (text := _const_string(value)) is not None:
                self.constants[name] = text

    def property_name(self, member: tree_sitter.Node) -> str | None:
        """``_property_name``, with an index that is a constant declared once resolved."""
        if member.type == "member_expression":
            return _property_name(member)
        return self.const_string(member.child_by_field_name("index"))

    def const_string(self, node: tree_sitter.Node) -> str | None:
        """``_const_string``, or the value of a constant string declared once."""
        node = _unparen(node)
        if node.type == "identifier":
            return self.constants.get(_text(node))
        return _const_string(node)

    def is_undefined(self, node: tree_sitter.Node, scopes) -> bool:
        """``undefined`` (the global) or ``void <anything>``: a formatter given it formats now."""
        node = _unparen(node)
        if node.type == "unary_expression":
            return _text(node.child_by_field_name("operator")) == "void"
        return node.type in ("undefined", "identifier") and _text(node) == "undefined" \
            and not self.is_local("undefined", scopes)

    def is_intl_formatter(self, node: tree_sitter.Node | None, scopes, constructor: str | None = "DateTimeFormat") -> bool:
        """Whether ``node`` makes an Intl ``constructor`` (None: any), or names a DateTimeFormat declared once."""
        node = _unparen(node) if node is not None else None
        if node is None:
            return False
        if node.type == "identifier":
            return constructor in (None, "DateTimeFormat") and _text(node) in self.date_formats
        callee = _callee(node)
        return (callee is not None and callee.type in _MEMBERS
                and self.global_name(callee.child_by_field_name("object"), scopes) == "Intl"
                and (constructor is None or self.property_name(callee) == constructor))

    def check_probes(self, node: tree_sitter.Node, scopes) -> None:
        """Environment probing through the global object, and Intl reading the clock or the machine."""
        if node.type == "binary_expression":
            if _text(node.child_by_field_name("operator")) == "in" and self.global_name(
                    node.child_by_field_name("right"), scopes) in _GLOBAL_OBJECTS \
                    and self.const_string(node.child_by_field_name("left")) not in _WORKER_MEMBERS:
                self.report("environment-probe", node, "`… in` the global object probes what the host "
                            "provides; actions must not depend on it")
            return
        callee = _unparen(node.child_by_field_name("function"))
        if callee.type not in _MEMBERS:
            return
        method, obj = self.property_name(callee), callee.child_by_field_name("object")
        args = [a for a in node.child_by_field_name("arguments").named_children if a.type != "comment"]
        base = self.global_name(obj, scopes)
        if method in ("hasOwnProperty", "propertyIsEnumerable") and base in _GLOBAL_OBJECTS \
                and not (args and self.const_string(args[0]) in _WORKER_MEMBERS):
            self.report("environment-probe", node, f"`{method}` on the global object probes what the host "
                        "provides; actions must not depend on it")
        elif base in _GLOBAL_INTROSPECTION and method in _GLOBAL_INTROSPECTION[base] and args \
                and self.global_name(args[0], scopes) in _GLOBAL_OBJECTS:
            self.report("environment", node, f"`{base}.{method}` of the global object lists what the host provides")
        elif base == "Reflect" and method == "get" and len(args) > 1 and self.global_name(args[0], scopes) \
                in _GLOBAL_OBJECTS and (name := self.const_string(args[1])) is not None:
            self.global_use(name, node, None)  # Reflect.get(globalThis, 'crypto') reads the global
        elif method in _NOW_FORMATTERS and self.is_intl_formatter(obj, scopes) and (
                not args or len(args) == 1 and self.is_undefined(args[0], scopes)):
            self.report("intl-clock", node, f"`DateTimeFormat.{method}()` without a date formats the current "
                        "time: a wall clock; decisions must not depend on time")
            self.intl_refused = True
        elif method == "resolvedOptions" and self.is_intl_formatter(obj, scopes, None):
            self.report("environment", node, "`resolvedOptions()` of an Intl formatter reveals the machine's "
                        "locale and time zone")
            self.intl_refused = True

    # -- pass 2: uses -----------------------------------------------------------

    @staticmethod
    def is_local(name: str, scopes: tuple[frozenset[str], ...]) -> bool:
        return any(name in s for s in scopes)

    def global_name(self, node: tree_sitter.Node, scopes) -> str | None:
        """The worker global an expression denotes: unshadowed ``x``, or ``self.x``/``window['x']``."""
        # Memoized per node (a node's scope never changes), so that walking every
        # member of a long chain stays linear.
        pending = []
        node = _unparen(node)
        while node.id not in self.names and node.type in _MEMBERS:
            pending.append(node)
            node = _unparen(node.child_by_field_name("object"))
        if node.id not in self.names:
            text = _text(node) if node.type in _REFERENCES else None
            if text in self.global_aliases and self.is_local(text, scopes):
                self.names[node.id] = "globalThis"
            else:
                self.names[node.id] = None if text is None or self.is_local(text, scopes) else text
        name = self.names[node.id]
        for member in reversed(pending):
            name = self.property_name(member) if name in _GLOBAL_OBJECTS else None
            self.names[member.id] = name
        return name

    def written_global(self, target: tree_sitter.Node, scopes) -> str | None:
        """What worker global an assignment to ``target`` overwrites, if any (for messages)."""
        name = self.global_name(target, scopes)
        if name is not None:
            return name if name in _PROTECTED else None
        target = _unparen(target)
        while target.type in _MEMBERS:  # Math.random, Array.prototype.x, PokerEngine.a.b
            obj = target.child_by_field_name("object")
            base = self.global_name(obj, scopes)
            if base is not None:
                prop = _property_name(target)
                if base in _GLOBAL_OBJECTS or base == "exports":  # window.mine, exports.act
                    return None
                if base == "module" and prop == "exports":
                    return None
                return f"{base}.{prop if prop is not None else '[…]'}" if base in _PROTECTED else None
            target = _unparen(obj)
        return None

    def mutated_global(self, call: tree_sitter.Node, scopes) -> str | None:
        """``Object.defineProperty(Math, 'random', …)`` and kin: the protected object changed."""
        callee = _unparen(call.child_by_field_name("function"))
        if callee.type not in _MEMBERS:
            return None
        method = _property_name(callee)
        base = self.global_name(callee.child_by_field_name("object"), scopes)
        if base not in _MUTATORS or method not in _MUTATORS[base]:
            return None
        args = [a for a in call.child_by_field_name("arguments").named_children
                if a.type != "comment"]
        if not args:
            return None
        name = self.global_name(args[0], scopes)
        prop = _const_string(args[1]) if method in _PROPERTY_MUTATORS and len(args) > 1 else None
        if name in _GLOBAL_OBJECTS:
            if prop is not None:  # defining self.myOwnName is harmless
                return prop if prop in _PROTECTED or prop in _NAME_RULES else None
            return name
        if name is not None:  # mutating module/exports is how a bot exports itself
            if name not in _PROTECTED or name in ("module", "exports"):
                return None
            return name if prop is None else f"{name}.{prop}"
        return self.written_global(args[0], scopes)

    def global_use(self, name: str, node: tree_sitter.Node, parent: _Entry | None) -> None:
        """Report a use of the worker global ``name`` at ``node`` (whose parent entry is given)."""
        if name in _WORKER_MEMBERS:  # information: the first use of each, reported by run()
            first = self.member_uses.get(name)
            if first is None or node.start_byte < first.start_byte:
                self.member_uses[name] = node
            return
        child = node
        while parent is not None and parent.node.type == "parenthesized_expression":
            child, parent = parent.node, parent.parent
        p = parent.node if parent is not None else None
        if p is not None and p.type == "unary_expression" and _text(
                p.child_by_field_name("operator")) == "typeof":
            if name in _PROBED_NAMES:  # feature detection of a contract global is fine
                self.report("environment-probe", p, f"`typeof {name}` probes which host the bot runs in; "
                            "actions must not depend on it")
            return
        if name in _TIMERS:
            first = None
            if p is not None and p.type == "call_expression" and (
                    p.child_by_field_name("function").id == child.id):
                args = [a for a in p.child_by_field_name("arguments").named_children
                        if a.type != "comment"]
                first = args[0] if args else None
            if name in _STRING_TIMERS and _stringish(first):
                self.report("string-timer", p, f"`{name}` with a string argument compiles "
                            "code at run time")
            else:
                self.report("timer", node, f"`{name}` schedules background work; act(state) "
                            "must do bounded work and return")
        elif name == "Function":
            if p is not None and p.type == "binary_expression" and _text(
                    p.child_by_field_name("operator")) == "instanceof":
                return
            if p is not None and p.type in _MEMBERS and _property_name(p) == "prototype":
                return
            self.report("function-constructor", node,
                        "the `Function` constructor compiles code from strings")
        elif name == "navigator":
            if p is not None and p.type in _MEMBERS and _property_name(p) == "sendBeacon":
                self.report("network", node, "`navigator.sendBeacon` is network access")
            else:
                self.report("dom", node, "`navigator` exposes browser and environment details")
        elif name in _NAME_RULES:
            rule, why = _NAME_RULES[name]
            self.report(rule, node, f"`{name}` {why}")
        elif _DOM_CLASS.fullmatch(name):
            self.report("dom", node, f"`{name}` is a DOM API; the worker has no DOM")

    def check_assignment(self, target: tree_sitter.Node | None, scopes) -> None:
        for t in _bindings(target):
            name = self.written_global(t, scopes)
            if name == "exports":
                self.report("global-assignment", t, "assignment to worker global `exports`: it rebinds the "
                            "name and exports nothing (R28); assign module.exports instead")
            elif name is not None:
                self.report("global-assignment", t, f"assignment to worker global `{name}`")

    def check_destructured_globals(self, pattern: tree_sitter.Node | None,
                                   source: tree_sitter.Node | None, scopes) -> None:
        """``const { fetch } = self``: each key read from the global object is a global use."""
        if pattern is None or source is None or pattern.type != "object_pattern":
            return
        if self.global_name(source, scopes) not in _GLOBAL_OBJECTS:
            return
        for prop in pattern.named_children:
            if prop.type == "pair_pattern":
                key = prop.child_by_field_name("key")
                name = _const_string(key) if key.type == "string" else (
                    _text(key) if key.type == "property_identifier" else None)
            elif prop.type == "object_assignment_pattern":
                key = prop.child_by_field_name("left")
                name = _text(key)
            elif prop.type == "shorthand_property_identifier_pattern":
                key, name = prop, _text(prop)
            else:
                continue
            if name is not None:
                self.global_use(name, key, None)

    def check_uses(self) -> None:
        stack = [_Entry(self.root, None, ())]
        while stack:
            entry = stack.pop()
            node, scopes = entry.node, entry.scopes
            t = node.type
            if t in _REFERENCES:
                if not self.is_local(_text(node), scopes):
                    self.global_use(_text(node), node, entry.parent)
            elif t in _MEMBERS:
                base = self.global_name(node.child_by_field_name("object"), scopes)
                prop = self.property_name(node)
                if base in _GLOBAL_OBJECTS and prop is not None:
                    self.global_use(prop, node, entry.parent)
                elif base == "module" and prop == "require":
                    self.report("require", node, "`module.require` is not available: the "
                                "worker has no module loader")
            elif t in ("import_statement", "export_statement"):
                word = t.split("_")[0]
                self.report("es-module", node, f"`{word}` statement: there is no ES-module "
                            "loader in the worker; assign module.exports instead")
            elif t == "meta_property" and node.children[0].type == "import":
                self.report("es-module", node, "`import.meta` exists only in ES modules")
            elif t == "binary_expression":
                self.check_probes(node, scopes)
            elif t == "call_expression":
                self.check_probes(node, scopes)
                if node.child_by_field_name("function").type == "import":
                    self.report("dynamic-import", node,
                                "`import(...)` loads external code at run time")
                else:
                    name = self.mutated_global(node, scopes)
                    if name is not None:
                        callee = _text(node.child_by_field_name("function"))
                        self.report("global-assignment", node,
                                    f"`{callee}` changes worker global `{name}`")
            elif t in ("assignment_expression", "augmented_assignment_expression"):
                self.check_assignment(node.child_by_field_name("left"), scopes)
                self.check_destructured_globals(node.child_by_field_name("left"),
                                                node.child_by_field_name("right"), scopes)
            elif t == "variable_declarator":
                self.check_destructured_globals(node.child_by_field_name("name"),
                                                node.child_by_field_name("value"), scopes)
            elif t == "update_expression":
                self.check_assignment(node.child_by_field_name("argument"), scopes)
            elif t == "unary_expression" and _text(node.child_by_field_name("operator")) == "delete":
                self.check_assignment(node.child_by_field_name("argument"), scopes)
            elif t == "for_in_statement":
                if node.child_by_field_name("kind") is None:
                    self.check_assignment(node.child_by_field_name("left"), scopes)
                for c in node.children:
                    if c.type == "await":
                        self.report("async", c, "`for await` is asynchronous; act(state) "
                                    "must answer synchronously")
            elif t == "await_expression":
                self.report("async", node, "`await` is asynchronous; act(state) must answer "
                            "synchronously")
            if t in _FUNCTIONS:
                for c in node.children:
                    if c.type == "async":
                        self.report("async", c, "async functions return Promises; act(state) "
                                    "must answer synchronously")
            if node.id in self.decls:
                scopes = scopes + (frozenset(self.decls[node.id]),)
            stack.extend(_Entry(c, entry, scopes) for c in node.children)

    def check_top_level(self) -> None:
        # In a classic worker script a top-level var/function replaces the global
        # of that name, and let/const/class shadow it for the engine helper too.
        for name in self.top_level:
            if _text(name) in _PROTECTED:
                self.report("global-assignment", name, f"top-level declaration of `{_text(name)}` "
                            "replaces the worker global of that name")

    def run(self) -> list[Finding]:
        self.findings = _syntax_findings(self.root, self.position, self.src)
        self.collect_declarations()
        self.collect_aliases()
        self.check_uses()
        self.check_top_level()
        for name, node in self.member_uses.items():
            if name == "Intl" and self.intl_refused:  # R30's Intl errors say it
                continue
            self.report("worker-member", node, f"`{name}` ({_WORKER_MEMBERS[name]}) is a member of every browser's "
                        "Web Worker: allowed (information, R30)")
        return sorted(self.findings, key=_by_position)


def _import_names(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """Local names bound by an import statement (flagged anyway; binding them avoids noise)."""
    stack = list(node.named_children)
    while stack:
        n = stack.pop()
        if n.type == "identifier":
            yield n
        elif n.type in ("import_clause", "named_imports", "namespace_import"):
            stack.extend(n.named_children)
        elif n.type == "import_specifier":
            stack.append(n.child_by_field_name("alias") or n.child_by_field_name("name"))


def lint_source(source: str, filename: str = "<bot>") -> list[Finding]:
    """All findings for a bot script, sorted by position. ``filename`` names it in errors."""
    if not isinstance(source, str):
        raise TypeError(f"{filename}: source must be str, not {type(source).__name__}")
    return _Linter(source).run()


def parse_ok(source: str) -> bool:
    """Whether the script parses as JavaScript (no syntax errors, no JSX)."""
    linter = _Linter(source)
    return not _syntax_findings(linter.root, linter.position, linter.src)
