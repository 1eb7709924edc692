"""The bundled implementations ``holdem-cert implementations`` certifies: name, language, how to run
it (a JavaScript engine in QuickJS, with preludes and an adapter; or a ``--cmd`` command) and where
its version comes from.

Another implementation is one more :class:`Implementation` in :data:`REGISTRY` (docs/adapters.md):
an adapter renames and reshapes only; a profile the engine lacks is left undeclared and shows as
"not implemented", never faked.
"""
from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from conformance.harness.runner import bundled_engine
from conformance.judge.engine_drivers import CommandDriver, QuickJSDriver, default_host, read_source

from . import poker_ts
from .poker_ts import Unavailable  # raised by a ``prepare`` that cannot make its engine available here


@dataclass(frozen=True)
class Implementation:
    """One implementation: ``engine`` (a JavaScript file, None for the bundled engine, with
    ``preludes`` before it and an ``adapter`` after it, run in QuickJS) or ``command`` (argv of a --cmd engine, run from the
    repository root). ``version``: where the version comes from (None: what the engine reports,
    ``PokerEngine.version`` or the start answer's); ``prepare``: makes the engine available (e.g.
    installs a package into a cache) and returns a line saying what it did, or None."""

    name: str
    language: str
    engine: Path | None = None
    adapter: Path | None = None
    preludes: tuple[Path, ...] = ()
    command: tuple[str, ...] = ()
    version: Callable[[], str] | None = None
    prepare: Callable[[], str | None] | None = None
    homepage: str = ""
    notes: tuple[str, ...] = ()

    def driver(self, timeout_ms: float):
        """A fresh, unstarted driver (engine_drivers) for this implementation. A JavaScript one runs
        on node where it is installed, as ``holdem-cert engine`` does: the reports are the same on
        both hosts (tests/test_hosts.py, and the committed table checked fresh on either), and the
        table takes 18 s instead of 25 (bench/README.md, issue #25)."""
        if self.command:
            return CommandDriver(shlex.join(self.command), timeout_ms=timeout_ms)
        sources = [read_source(p, "prelude") for p in self.preludes]
        sources.append(bundled_engine() if self.engine is None else read_source(self.engine, "engine"))
        adapter = read_source(self.adapter, "adapter") if self.adapter else None
        return QuickJSDriver("\n;\n".join(sources), engine_name=self.name, adapter_source=adapter,
                             timeout_ms=timeout_ms, host=default_host())


def _reference_version() -> str:
    from reference.adapter import VERSION
    return VERSION


def _pokerkit_version() -> str:
    from importlib.metadata import version
    return version("pokerkit")


REGISTRY: list[Implementation] = [
    Implementation("holdem-conformance bundled engine", "javascript", homepage="reference/js/poker-engine.js"),
    Implementation("holdem-conformance Python reference", "python", command=(sys.executable, "-m", "reference.adapter"),
                   version=_reference_version, homepage="reference/adapter.py"),
    # Real engines behind adapters that rename and reshape only (docs/adapters.md; findings.toml).
    Implementation("pokerkit", "python", command=(sys.executable, "-m", "conformance.implementations.pokerkit_engine"),
                   version=_pokerkit_version, homepage="https://pypi.org/project/pokerkit/"),
    Implementation("poker-ts", "javascript", engine=poker_ts.bundle_path(), preludes=(poker_ts.PRELUDE,),
                   adapter=poker_ts.ADAPTER, version=lambda: poker_ts.VERSION, prepare=poker_ts.prepare,
                   homepage="https://www.npmjs.com/package/poker-ts"),
]


def by_name(name: str) -> Implementation:
    for implementation in REGISTRY:
        if implementation.name == name:
            return implementation
    raise KeyError(name)
