"""The language level of the node (V8) re-timer: core-js, loaded into node's worker before the bot (#26 item 1).

The QuickJS worker (quickjs-ng) offers ES2024-ES2026 builtins that node 20 lacks (``Object.groupBy``,
``Promise.withResolvers``, the Set methods, iterator helpers, ...). A bot using one throws at once in
node, and a throw is no decision time: the re-timer would see a fast bot where every browser runs it
for seconds. So node's worker first loads, from core-js (a well-kept polyfill library, pinned), the
modules of exactly the builtins that QuickJS offers and node may lack (:data:`MODULES`); where node
has one natively, core-js keeps node's. Nothing that node already implements is replaced (a test
checks it): loading all of ``core-js/es`` would replace ``Array.prototype.push``, ``JSON.parse``
and ``JSON.stringify`` by JavaScript versions and change what is timed.

Not offered in node (no core-js module, or only by replacing a native): ``Float16Array``, the
immutable ``ArrayBuffer`` methods, ``Atomics.pause``, ``JSON.rawJSON``/``JSON.isRawJSON`` (core-js
would replace ``JSON.stringify`` and ``JSON.parse``), and QuickJS's own ``InternalError`` (see
:data:`NOT_OFFERED`). A bot that throws in V8 where it answered in QuickJS is not timed by that
throw (:mod:`conformance.bots.bot_timing`).

core-js is installed with ``npm install --prefix CACHE/core-js-VERSION core-js@VERSION`` the first
time it is needed (CACHE as for poker-ts: ``$HOLDEM_CACHE``, else ``~/.cache/holdem-conformance``),
saying so on stderr; without npm or the registry the re-timer runs without it and says so.
"""
from __future__ import annotations

import sys
import threading
from pathlib import Path

from . import npm_cache


PACKAGE = "core-js"
VERSION = "3.51.0"  # pinned: the list below is checked against this version's modules
LOADED = f"{PACKAGE} {VERSION}"  # what NodeBot.polyfill says when it was loaded

# core-js modules (core-js/modules/NAME.js), one per builtin (or group) that the QuickJS worker offers.
MODULES = (
    "es.object.group-by", "es.map.group-by", "es.promise.with-resolvers", "es.promise.try", "es.array.from-async",
    "es.array-buffer.detached", "es.array-buffer.transfer", "es.array-buffer.transfer-to-fixed-length",
    "es.set.difference.v2", "es.set.intersection.v2", "es.set.is-disjoint-from.v2", "es.set.is-subset-of.v2",
    "es.set.is-superset-of.v2", "es.set.symmetric-difference.v2", "es.set.union.v2",
    "es.iterator.constructor", "es.iterator.from", "es.iterator.concat", "es.iterator.zip", "es.iterator.zip-keyed",
    "es.iterator.drop", "es.iterator.every", "es.iterator.filter", "es.iterator.find", "es.iterator.flat-map",
    "es.iterator.for-each", "es.iterator.map", "es.iterator.reduce", "es.iterator.some", "es.iterator.take",
    "es.iterator.to-array", "es.iterator.chunks", "es.iterator.windows", "es.iterator.includes", "es.iterator.join",
    "es.iterator.dispose", "es.async-iterator.async-dispose",
    "es.suppressed-error.constructor", "es.disposable-stack.constructor", "es.async-disposable-stack.constructor",
    "es.error.is-error", "es.map.get-or-insert", "es.map.get-or-insert-computed", "es.weak-map.get-or-insert",
    "es.weak-map.get-or-insert-computed", "es.math.f16round", "es.math.sum-precise", "es.regexp.escape",
    "es.data-view.get-float16", "es.data-view.set-float16",
    "es.uint8-array.from-base64", "es.uint8-array.from-hex", "es.uint8-array.set-from-base64",
    "es.uint8-array.set-from-hex", "es.uint8-array.to-base64", "es.uint8-array.to-hex",
)
# What the QuickJS worker offers and node's worker does not, even with MODULES (tests/test_bot_v8.py probes both).
NOT_OFFERED = ("Float16Array", "ArrayBuffer.prototype.immutable", "ArrayBuffer.prototype.sliceToImmutable",
               "ArrayBuffer.prototype.transferToImmutable", "Atomics.pause", "JSON.rawJSON", "JSON.isRawJSON",
               "InternalError", "Error.prototype.stack")

_lock = threading.Lock()
_resolved: tuple[Path | None, str] | None = None


def prefix(cache: Path | None = None) -> Path:
    return npm_cache.prefix(PACKAGE, VERSION, cache)


def package_dir(cache: Path | None = None) -> Path:
    return npm_cache.package_dir(PACKAGE, VERSION, cache)


def _complete(package: Path) -> bool:
    return all((package / "modules" / f"{m}.js").is_file() for m in MODULES)


def install(cache: Path | None = None, log=sys.stderr) -> tuple[Path | None, str]:
    """core-js's directory (installed with npm first when absent, saying so on ``log``) and a note;
    ``(None, why)`` when it cannot be had here."""
    package, why = npm_cache.install(PACKAGE, VERSION, "the node worker's builtins", complete=_complete,
                                     cache=cache, log=log)
    return (package, LOADED) if package is not None else (None, why)


def resolve() -> tuple[Path | None, str]:
    """:func:`install`, once per process: (core-js's directory or None, what the report says)."""
    global _resolved
    with _lock:
        if _resolved is None:
            _resolved = install()
        return _resolved


def module_paths(package: Path) -> list[str]:
    """The files node's worker requires, in order."""
    return [str(package / "modules" / f"{m}.js") for m in MODULES]


if __name__ == "__main__":  # python -m conformance.host.node_polyfill: install it now
    path, note = install()
    print(note if path is None else f"{note}: {path}")
    sys.exit(0 if path is not None else 1)
