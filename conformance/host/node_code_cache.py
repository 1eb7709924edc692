"""V8's code cache of the suite's own scripts in a bot's node worker (issue #35, speed).

Every bot worker on the V8 host compiles and runs the same scripts before the bot: the Web-Worker
members (worker_globals, about 280 kB with core-js), the bootstrap and the bundled engine helper. A
certification starts some thirty workers; V8's code cache (``vm.Script``'s ``cachedData``) spares
each of them most of that compiling (about a fifth of a worker's start-up CPU).

The cache is made once per node, V8 flags and script texts by a child of its own that runs those
scripts exactly as a bot worker's init does and then stops before any bot is loaded
(``init.makeCodeCache``, conformance/host/node_engine.js): the bytes that later children are given
come from a process that ran the suite's code only, never a bot's. It is kept in memory and in the
suite's cache directory (``CACHE/v8-code-cache``, conformance/host/npm_cache.py), keyed by a hash of
all of these, so a later run or another process of ``holdem-cert certify`` reuses it. V8 checks the
source and its flags again when it reads the cache and compiles afresh when either differs: a stale
or damaged cache can cost time, never change what a script does. Without a cache (it could not be
made or written) a worker compiles as before.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Callable

from .npm_cache import cache_dir

_memory: dict[tuple, dict | None] = {}
_lock = threading.Lock()


def key(argv: list[str], texts: dict) -> str:
    """The cache's key: node's command line (the binary and its V8 flags) and the scripts' texts."""
    digest = hashlib.sha256(json.dumps([argv, sorted(texts.items())]).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def code_cache(argv: list[str], texts: dict, make: Callable[[], dict | None]) -> dict | None:
    """The cache (script key -> base64 of V8's cached data) of ``texts`` for node run as ``argv``:
    from memory, the cache directory, or ``make()`` (a child that runs them; None when it failed)."""
    known = (tuple(argv), tuple(sorted(texts.items())))  # the same str objects each time: hashed once
    with _lock:  # one maker at a time: the two battery passes start together
        if known in _memory:
            return _memory[known]
        name = key(argv, texts)
        path = cache_dir() / "v8-code-cache" / f"{name}.json"
        cache = _read(path)
        if cache is None:
            cache = make()
            if cache is not None:
                _write(path, cache)
        _memory[known] = cache
        return cache


def _read(path) -> dict | None:
    try:
        cache = json.loads(path.read_text(encoding="ascii"))
    except (OSError, ValueError):
        return None
    ok = isinstance(cache, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in cache.items())
    return cache if ok else None


def _write(path, cache: dict) -> None:
    """Atomically (a reader sees the whole file or none); a cache that cannot be written is only slower."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="ascii") as f:
            json.dump(cache, f)
        os.replace(tmp, path)
    except OSError:
        pass
