"""The Web-Worker members of a bot's global, as one script both hosts evaluate in the bot's realm
(ruling R39; issue #35 items 1 and 2).

A browser's classic worker has ``structuredClone``, ``atob``/``btoa``, ``DOMException`` and
``TextEncoder``/``TextDecoder``; neither a vm context of node nor QuickJS has them. Node's own
functions must not be handed into the bot's realm (node's ``structuredClone.constructor`` is node's
``Function``, which reaches ``process``), so every member is made *inside* the realm from JavaScript
source: core-js's ``web.*`` modules (a well-kept polyfill library, the version node_polyfill pins,
installed in the suite's cache) for the first four, and ``worker_globals.js`` (small, hand-written:
no well-kept package gives a realm-independent UTF-8 TextEncoder/TextDecoder) for the last two.

:func:`script` bundles them: each core-js module (and, transitively, each ``internals/`` module it
requires -- all its requires are static ``'../internals/NAME'`` or ``'../modules/NAME'``) becomes a
function in one registry with a ten-line ``require``, in a fixed order, so the text is the same on
every machine. The node host adds core-js's ``es.*`` modules of :data:`node_polyfill.MODULES` (what
node may lack of the QuickJS worker's language; core-js keeps what the realm has natively).

While the script runs ``Math.random`` is a constant (core-js's ``uid`` draws one at load): the bot's
seeded stream (R21) starts untouched and nothing depends on the host's entropy. Without core-js (no
npm, no registry) the script holds ``worker_globals.js`` alone, and the bootstrap gives each missing
member as a function that throws an error naming it, the host and R39.
"""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from . import node_polyfill

HAND_WRITTEN = Path(__file__).resolve().parent / "worker_globals.js"
# core-js modules of the Web-Worker members, in load order (DOMException first: the others throw it).
WEB_MODULES = ("web.dom-exception.constructor", "web.dom-exception.stack", "web.dom-exception.to-string-tag",
               "web.atob", "web.btoa", "web.structured-clone")
# The members R39 gives the bot's global, and which of them the bundle's core-js part makes.
MEMBERS = ("structuredClone", "atob", "btoa", "DOMException", "TextEncoder", "TextDecoder")
_REQUIRE = re.compile(r"""require\('\.\./(internals|modules)/([a-z0-9.\-]+)'\)""")


def _bundle(package: Path, modules: tuple[str, ...]) -> str:
    """core-js's ``modules`` and what they require, as one script (module docstring)."""
    order: list[str] = []
    sources: dict[str, str] = {}

    def visit(name: str) -> None:
        if name in sources:
            return
        text = (package / f"{name}.js").read_text(encoding="utf-8")
        sources[name] = ""  # marks it visited (core-js's requires have no cycles that matter here)
        deps = [f"{kind}/{dep}" for kind, dep in _REQUIRE.findall(text)]
        for dep in deps:
            visit(dep)
        sources[name] = _REQUIRE.sub(lambda m: f"require({json.dumps(m[1] + '/' + m[2])})", text)
        order.append(name)

    for m in modules:
        visit(f"modules/{m}")
    defs = ",\n".join(f"{json.dumps(n)}: function (module, exports, require) {{\n{sources[n]}\n}}" for n in order)
    entries = json.dumps([f"modules/{m}" for m in modules])
    return ("(function () {\n'use strict';\nvar defs = {\n" + defs + "\n};\nvar cache = Object.create(null);\n"
            "function require(name) {\n  var m = cache[name];\n  if (m === undefined) {\n"
            "    m = cache[name] = {exports: {}};\n    defs[name].call(m.exports, m, m.exports, require);\n  }\n"
            "  return m.exports;\n}\nvar entries = " + entries + ";\n"
            "for (var i = 0; i < entries.length; i++) require(entries[i]);\n"
            "delete globalThis['__core-js_shared__'];\n})();\n")


@functools.cache
def script(node: bool) -> tuple[str, str]:
    """The members' script for the node host (``node``: with core-js's es.* modules) or QuickJS, and
    what it holds ("core-js 3.51.0", or why core-js is not in it)."""
    package, note = node_polyfill.resolve()
    parts = []
    if package is not None:
        parts.append(_bundle(package, WEB_MODULES + (node_polyfill.MODULES if node else ())))
    parts.append(HAND_WRITTEN.read_text(encoding="utf-8"))
    body = "\n".join(parts)
    # Math.random is pinned while the members load (module docstring); the realm's own is put back.
    return ("(function () {\nvar random = Math.random;\nMath.random = function random() { return 0.5; };\n"
            "try {\n" + body + "\n} finally { Math.random = random; }\n})();\n", note)
