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

import fcntl
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path


PACKAGE = "core-js"
VERSION = "3.51.0"  # pinned: the list below is checked against this version's modules
LOADED = f"{PACKAGE} {VERSION}"  # what NodeBot.polyfill says when it was loaded
INSTALL_SECONDS = 300

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


def cache_dir() -> Path:
    """The suite's npm cache, as conformance/implementations/poker_ts.py's (a lower layer: not imported)."""
    return Path(os.environ.get("HOLDEM_CACHE") or Path.home() / ".cache" / "holdem-conformance")
_resolved: tuple[Path | None, str] | None = None


def prefix(cache: Path | None = None) -> Path:
    return (cache or cache_dir()) / f"{PACKAGE}-{VERSION}"


def package_dir(cache: Path | None = None) -> Path:
    return prefix(cache) / "node_modules" / PACKAGE


def _complete(package: Path) -> bool:
    try:
        version = json.loads((package / "package.json").read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        return False
    return version == VERSION and all((package / "modules" / f"{m}.js").is_file() for m in MODULES)


def install(cache: Path | None = None, log=sys.stderr) -> tuple[Path | None, str]:
    """core-js's directory (installed with npm first when absent, saying so on ``log``) and a note;
    ``(None, why)`` when it cannot be had here."""
    package = package_dir(cache)
    if _complete(package):
        return package, LOADED
    npm = shutil.which("npm")
    if npm is None:
        return None, f"{PACKAGE} {VERSION} is not in {prefix(cache)} and npm is not on PATH"
    prefix(cache).mkdir(parents=True, exist_ok=True)
    with open(prefix(cache) / ".lock", "w") as lock:  # one install at a time, across processes too
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _complete(package):
            return package, LOADED
        print(f"installing {PACKAGE} {VERSION} with npm into {prefix(cache)} (absent; the node re-timer's "
              "builtins)", file=log, flush=True)
        command = [npm, "install", "--prefix", str(prefix(cache)), "--no-audit", "--no-fund", "--no-save",
                   "--ignore-scripts", f"{PACKAGE}@{VERSION}"]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=INSTALL_SECONDS)
        except subprocess.TimeoutExpired:
            return None, f"npm install {PACKAGE}@{VERSION} took over {INSTALL_SECONDS} s (no registry?)"
        if done.returncode != 0 or not _complete(package):
            tail = (done.stderr or done.stdout).strip().splitlines()[-2:]
            return None, f"npm install {PACKAGE}@{VERSION} failed (exit {done.returncode}): {' / '.join(tail)}"
    return package, LOADED


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
