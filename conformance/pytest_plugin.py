"""pytest plugin: run the golden vectors against your engine in your own CI.

    pytest --holdem-engine ENGINE.js [--holdem-adapter ADAPTER.js] [--holdem-prelude LIB.js]...
           [--holdem-family F]... [--holdem-timeout-ms N]

collects one item per vector, named by its id (``holdem/<family>::<id>``), after the smoke-tier
items (``holdem/smoke::smoke.load`` ...); ``-k`` selects among them as usual. A failed vector
shows its clauses and diff; a divergent one passes and is listed at the end; a vector the engine
does not support is skipped. When the smoke tier fails the session stops there. Without
``--holdem-engine`` the plugin does nothing. Registered as the ``pytest11`` entry point
``holdem_conformance``.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

# Only pytest at import time: as an entry point this module is loaded by every pytest run, so the
# certifier (deepdiff, jsonschema, the vectors) is imported only when --holdem-engine is given.
DEFAULT_TIMEOUT_MS = 10_000


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("holdem", "holdem-conformance: certify a poker engine against the golden vectors")
    group.addoption("--holdem-engine", metavar="ENGINE.js", help="the JavaScript engine to certify")
    group.addoption("--holdem-adapter", metavar="ADAPTER.js",
                    help="a script loaded after the engine that defines or replaces PokerEngine")
    group.addoption("--holdem-prelude", action="append", default=[], metavar="LIB.js",
                    help="a script loaded before the engine, as part of it (repeatable)")
    group.addoption("--holdem-family", action="append", metavar="F",
                    help="only this vector family (repeatable): rng, deck, evaluate, equity, pots, legality, "
                         "hands, tournaments")
    group.addoption("--holdem-fresh-seed", type=int, metavar="SEED",
                    help="seed of the fresh tests (default: derived from the engine's and adapter's bytes)")
    group.addoption("--holdem-no-fresh", action="store_true", help="run the golden vectors only")
    group.addoption("--holdem-timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS, metavar="N",
                    help=f"wall-clock limit per vector (default {DEFAULT_TIMEOUT_MS})")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("holdem_engine"):
        config.pluginmanager.register(HoldemSession(config), "holdem-session")


class SmokeFailed(Exception):
    pass


class VectorFailed(Exception):
    def __init__(self, case) -> None:
        super().__init__(case.message)
        self.case = case


class HoldemSession:
    """The engine under test, shared by every item: started at the first item, closed at the end."""

    def __init__(self, config: pytest.Config) -> None:
        from .engine_cert import FAMILIES, load_tests

        self.config = config
        unknown = sorted(set(config.getoption("holdem_family") or ()) - set(FAMILIES))
        if unknown:
            raise pytest.UsageError(f"--holdem-family: unknown {', '.join(unknown)} (known: {', '.join(FAMILIES)})")
        self.families = config.getoption("holdem_family") or list(FAMILIES)
        self._sources = self._read_sources()
        fresh_seed = config.getoption("holdem_fresh_seed")
        if config.getoption("holdem_no_fresh"):
            fresh_seed = None
        elif fresh_seed is None:
            fresh_seed = self._derived_fresh_seed()
        elif not 0 <= fresh_seed <= 0xFFFFFFFF:
            raise pytest.UsageError(f"--holdem-fresh-seed: expected 0..4294967295, got {fresh_seed}")
        try:
            self.tests = load_tests(self.families, fresh_seed)
        except OSError as exc:  # an install without the repository's vectors/ folder
            raise pytest.UsageError(f"holdem: cannot read the golden vectors: {exc.filename}: {exc.strerror}") from None
        self.driver = None
        self.runner = None
        self.smoke: dict | None = None
        self.divergent: list = []

    def _read_sources(self) -> tuple[list[str], str | None] | Exception:
        """The preludes and engine, and the adapter, as holdem-cert engine reads them; or why they
        cannot be read (the smoke tier reports it)."""
        from .engine_drivers import read_source

        opt = self.config.getoption
        base = Path(self.config.invocation_params.dir)
        adapter = opt("holdem_adapter")
        try:
            sources = [read_source(base / p, "prelude") for p in opt("holdem_prelude")]
            sources.append(read_source(base / opt("holdem_engine"), "engine"))
            return sources, read_source(base / adapter, "adapter") if adapter else None
        except (OSError, ValueError) as exc:
            return exc

    def _derived_fresh_seed(self) -> int:
        """The seed holdem-cert engine derives for the same files (0 if they cannot be read: the
        smoke tier then fails on loading, and no vector runs)."""
        from .fresh_vectors import engine_seed

        if isinstance(self._sources, Exception):
            return 0
        return engine_seed(*self._sources)

    # -- hooks --------------------------------------------------------------------------------
    @pytest.hookimpl(tryfirst=True)  # before -k/-m deselection, so that they apply to vectors too
    def pytest_collection_modifyitems(self, session: pytest.Session, items: list[pytest.Item]) -> None:
        from .engine_cert import smoke_tests

        smoke = Group.from_parent(session, name="smoke", nodeid="holdem/smoke")
        ids = ["smoke.load"] + [test["id"] for _, test, _ in smoke_tests(self.families)]
        groups = [(smoke, [SmokeItem.from_parent(smoke, name=i) for i in ids])]
        for family, tests in self.tests.items():
            group = Group.from_parent(session, name=family, nodeid=f"holdem/{family}")
            groups.append((group, [VectorItem.from_parent(group, name=t["id"], family=family, test=t) for t in tests]))
        for group, created in groups:
            # Announced like collected items, so that the "collected N items" count includes them.
            session.ihook.pytest_collectreport(report=pytest.CollectReport(group.nodeid, "passed", None, created))
            items.extend(created)

    def pytest_sessionfinish(self) -> None:
        if self.driver is not None:
            self.driver.close()

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.divergent:
            by_ruling = Counter(r for c in self.divergent for r in c.rulings)
            terminalreporter.write_sep("-", f"holdem: {len(self.divergent)} divergent vectors (passed; docs/rulings.md)")
            terminalreporter.write_line(", ".join(f"{r}: {n}" for r, n in sorted(by_ruling.items())))

    # -- running ------------------------------------------------------------------------------
    def smoke_cases(self) -> dict:
        """Load the engine and run the smoke tier, once."""
        from .engine_cert import start
        from .engine_drivers import QuickJSDriver
        from .report import Case

        if self.smoke is not None:
            return self.smoke
        opt = self.config.getoption
        if isinstance(self._sources, Exception):
            exc = self._sources
            message = f"{exc.filename}: {exc.strerror}" if isinstance(exc, OSError) and exc.filename else str(exc)
            self.smoke = {"smoke.load": Case("smoke.load", "smoke", "failed", [], f"cannot read the engine: {message}")}
            return self.smoke
        sources, adapter_source = self._sources
        self.driver = QuickJSDriver("\n;\n".join(sources), engine_name=Path(opt("holdem_engine")).name,
                                    adapter_source=adapter_source, timeout_ms=opt("holdem_timeout_ms"))
        cases, _, self.runner = start(self.driver, self.families)
        self.smoke = {c.id: c for c in cases}
        return self.smoke

    def smoke_failure(self):
        return next((c for c in self.smoke_cases().values() if c.status == "failed"), None)


class Group(pytest.Collector):
    def collect(self):  # items are created directly by the session hook
        return []


class HoldemItem(pytest.Item):
    @property
    def holdem(self) -> HoldemSession:
        return self.config.pluginmanager.get_plugin("holdem-session")

    def reportinfo(self):
        return self.path, None, f"holdem vector {self.name}"

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, VectorFailed):
            c = excinfo.value.case
            return "\n".join(filter(None, [f"{c.id}  [{', '.join(c.clauses)}]", c.message, c.diff]))
        if isinstance(excinfo.value, SmokeFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)


class SmokeItem(HoldemItem):
    def runtest(self) -> None:
        case = self.holdem.smoke_cases().get(self.name)
        if case is None:
            pytest.skip("not run: an earlier smoke check failed")
        if case.status == "failed":
            raise SmokeFailed(case.message)


class VectorItem(HoldemItem):
    def __init__(self, *, family: str, test: dict, **kwargs) -> None:
        super().__init__(**kwargs)
        self.family, self.test = family, test

    def runtest(self) -> None:
        session = self.holdem
        broken = session.smoke_failure()
        if broken is not None:
            pytest.exit(f"holdem: the smoke tier failed, so no vector was run: {broken.id}: {broken.message}",
                        returncode=1)
        case = session.runner.vector(self.family, self.test)
        if case.status == "failed":
            raise VectorFailed(case)
        if case.status == "skipped":
            pytest.skip(case.message)
        if case.status == "divergent":
            self.user_properties.append(("divergent", " ".join(case.rulings)))
            session.divergent.append(case)
