"""pytest plugin: run the golden vectors against your engine in your own CI.

    pytest --holdem-engine ENGINE.js [--holdem-adapter ADAPTER.js] [--holdem-prelude LIB.js]...
           [--holdem-profile P]... [--holdem-ruleset NAME] [--holdem-family F]... [--holdem-timeout-ms N]
    pytest --holdem-cmd "COMMAND" ...     (an engine in any language, docs/engine-protocol.md)

collects one item per vector, named by its id (``holdem/<family>::<id>``), after the smoke-tier
items (``holdem/smoke::smoke.load`` ...), then one item per fuzz row of the profiles
(``holdem/fuzz::fuzz``, the tournament's games; ``holdem/fuzz::hand-fuzz``, the hand profile's
random hands; blind, ``--holdem-fuzz-games N``, ``--holdem-fuzz-seed``, as ``holdem-cert
engine`` plays them); ``-k`` selects among them as usual. A failed vector
shows its clauses and diff; a divergent one passes and is listed at the end; a vector the engine
does not support is skipped. The profiles certified are chosen as ``holdem-cert engine`` chooses
them (conformance/judge/cert_profiles.py): ``--holdem-profile P`` (repeatable), else what the engine
declares; the vectors of a profile not run are skipped ("not implemented"), and each profile asked
for with ``--holdem-profile`` is an item ``holdem/profiles::P`` that fails when the engine does not
implement it. When the smoke tier fails the session stops there. Without
``--holdem-engine`` or ``--holdem-cmd`` the plugin does nothing. The engine is chosen as
``holdem-cert engine`` chooses it (conformance/cli/engine_choice.py). Registered as the ``pytest11`` entry point
``holdem_conformance``.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

# Only pytest (and cert_profiles, plain Python) at import time: as an entry point this module is
# loaded by every pytest run, so the certifier (deepdiff, jsonschema, the vectors) is imported only
# when an engine is given.
from .judge import cert_profiles
from .judge.verdicts import SUITE_ERROR

DEFAULT_TIMEOUT_MS = 10_000  # as engine_choice.DEFAULT_TIMEOUT_MS
DEFAULT_FUZZ_GAMES = 100  # as fuzz.DEFAULT_GAMES (checked when used)
RULESET_NAMES = ("contract-v1", "holdem-sng-3-v4")  # conformance.judge.families.RULESETS' keys (checked when used)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("holdem", "holdem-conformance: certify a poker engine against the golden vectors")
    group.addoption("--holdem-engine", metavar="ENGINE.js", help="the JavaScript engine to certify")
    group.addoption("--holdem-cmd", metavar="COMMAND",
                    help="certify COMMAND over the JSON-lines protocol instead (an engine in any language)")
    group.addoption("--holdem-profile", action="append", choices=list(cert_profiles.PROFILES), metavar="P",
                    help=f"certify this conformance profile (repeatable; one of {', '.join(cert_profiles.PROFILES)}; "
                         "default: every profile the engine declares)")
    group.addoption("--holdem-ruleset", default=RULESET_NAMES[0], choices=RULESET_NAMES, metavar="NAME",
                    help=f"certify for this ruleset: {', '.join(RULESET_NAMES)} (default {RULESET_NAMES[0]})")
    group.addoption("--holdem-adapter", metavar="ADAPTER.js",
                    help="a script loaded after the engine that defines or replaces PokerEngine")
    group.addoption("--holdem-prelude", action="append", default=[], metavar="LIB.js",
                    help="a script loaded before the engine, as part of it (repeatable)")
    group.addoption("--holdem-family", action="append", metavar="F",
                    help="only this vector family of the profiles (repeatable): rng, deck, evaluate, equity, "
                         "pots, legality, hands, hand, tournaments; sng3v4 under holdem-sng-3-v4")
    group.addoption("--holdem-fresh-seed", type=int, metavar="SEED",
                    help="seed of the fresh tests (default: derived from the engine's and adapter's bytes)")
    group.addoption("--holdem-no-fresh", action="store_true", help="run the golden vectors only")
    group.addoption("--holdem-fuzz-games", type=int, default=DEFAULT_FUZZ_GAMES, metavar="N",
                    help=f"fuzz games per fuzz row after the vectors (default {DEFAULT_FUZZ_GAMES}; 0: no fuzzing)")
    group.addoption("--holdem-fuzz-seed", type=int, metavar="SEED",
                    help="seed of the fuzz games (default: derived like the fresh seed)")
    group.addoption("--holdem-timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS, metavar="N",
                    help=f"wall-clock limit per vector (default {DEFAULT_TIMEOUT_MS})")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("holdem_engine") or config.getoption("holdem_cmd"):
        config.pluginmanager.register(HoldemSession(config), "holdem-session")


class SmokeFailed(Exception):
    pass


class VectorFailed(Exception):
    def __init__(self, case) -> None:
        super().__init__(case.message)
        self.case = case


class SuiteErrored(VectorFailed):
    """The suite's own driver or strategies crashed on the vector: a suite error, not the engine's failure."""


class HoldemSession:
    """The engine under test, shared by every item: started at the first item, closed at the end."""

    def __init__(self, config: pytest.Config) -> None:
        from conformance.judge.engine_cert import load_tests
        from conformance.cli.engine_choice import EngineSpec, asked_profiles, candidate_families, check, prepare
        from .errors import UsageError
        from .resources import VECTOR_DIR

        self.config = config
        opt = config.getoption
        base = Path(config.invocation_params.dir)
        fresh_seed, fuzz_seed, fuzz_games = opt("holdem_fresh_seed"), opt("holdem_fuzz_seed"), opt("holdem_fuzz_games")
        for name, seed in (("fresh", fresh_seed), ("fuzz", fuzz_seed)):
            if seed is not None and not 0 <= seed <= 0xFFFFFFFF:
                raise pytest.UsageError(f"--holdem-{name}-seed: expected 0..4294967295, got {seed}")
        if fuzz_games < 0:
            raise pytest.UsageError(f"--holdem-fuzz-games: expected a whole number >= 0, got {fuzz_games}")
        engine = opt("holdem_engine")
        spec = EngineSpec(file=base / engine if engine else None, cmd=opt("holdem_cmd"),
                          adapter=base / opt("holdem_adapter") if opt("holdem_adapter") else None,
                          preludes=tuple(base / p for p in opt("holdem_prelude")), ruleset=opt("holdem_ruleset"),
                          families=tuple(opt("holdem_family") or ()),
                          profiles=tuple(dict.fromkeys(opt("holdem_profile") or ())), fresh_seed=fresh_seed,
                          fresh=not opt("holdem_no_fresh"), timeout_ms=opt("holdem_timeout_ms"),
                          fuzz_games=fuzz_games or None, fuzz_seed=fuzz_seed)
        try:
            if engine and spec.cmd:
                raise UsageError("give either --holdem-engine or --holdem-cmd (exactly one)")
            check(spec)
        except UsageError as exc:
            raise pytest.UsageError(f"holdem: {str(exc).replace('--', '--holdem-')}") from None
        self.ruleset = spec.ruleset
        self.asked = cert_profiles.asked_under(asked_profiles(spec), spec.ruleset)  # as holdem-cert engine
        self.named = spec.profiles  # --holdem-profile's: each an item, failed when not implemented
        self.run: list[str] = []  # the profiles run and those asked for but not implemented, once started
        self.absent: list[str] = []
        self.load_error: str | None = None  # why the engine cannot be read (the smoke tier reports it)
        try:
            self.engine = prepare(spec)
            self.tests = self.engine.tests
        except OSError as exc:
            if VECTOR_DIR in Path(exc.filename or "").parents:  # an install without the vectors/ folder
                raise pytest.UsageError(f"holdem: cannot read the golden vectors: {exc.filename}: {exc.strerror}") from None
            self.engine, self.load_error = None, f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc)
        except UsageError as exc:  # an engine file that is not UTF-8, a --holdem-cmd shlex cannot split
            self.engine, self.load_error = None, str(exc)
        if self.engine is None:  # the smoke tier fails on loading; the vectors are still collected
            self.tests = load_tests(candidate_families(spec), None if not spec.fresh else spec.fresh_seed or 0)
        self.fuzz_plan = self.engine.fuzz if self.engine is not None else None
        self.driver = None
        self.runner = None
        self.smoke: dict | None = None
        self.divergent: list = []

    # -- hooks --------------------------------------------------------------------------------
    @pytest.hookimpl(tryfirst=True)  # before -k/-m deselection, so that they apply to vectors too
    def pytest_collection_modifyitems(self, session: pytest.Session, items: list[pytest.Item]) -> None:
        from conformance.judge.smoke import smoke_tests

        smoke = Group.from_parent(session, name="smoke", nodeid="holdem/smoke")
        ids = ["smoke.load"] + [test["id"] for _, test, _ in smoke_tests(self.tests)]
        groups = [(smoke, [SmokeItem.from_parent(smoke, name=i) for i in ids])]
        if self.named:
            profiles = Group.from_parent(session, name="profiles", nodeid="holdem/profiles")
            groups.append((profiles, [ProfileItem.from_parent(profiles, name=p) for p in self.named]))
        for family, tests in self.tests.items():
            group = Group.from_parent(session, name=family, nodeid=f"holdem/{family}")
            groups.append((group, [VectorItem.from_parent(group, name=t["id"], family=family, test=t) for t in tests]))
        rows = [g for p, g in cert_profiles.FUZZ_GROUPS.items() if set(cert_profiles.PROFILES[p]) & set(self.tests)]
        if self.fuzz_plan is not None and rows:  # after the vectors, as holdem-cert engine plays them
            fuzz = Group.from_parent(session, name="fuzz", nodeid="holdem/fuzz")
            groups.append((fuzz, [FuzzItem.from_parent(fuzz, name=g) for g in rows]))
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
        from conformance.judge.engine_cert import load_failed, smoke_tier
        from conformance.judge.engine_drivers import EngineLoadError
        from conformance.judge.verdicts import Case

        if self.smoke is not None:
            return self.smoke
        if self.engine is None:
            self.smoke = {"smoke.load": Case("smoke.load", "smoke", "failed", [],
                                             f"cannot read the engine: {self.load_error}")}
            return self.smoke
        self.driver = self.engine.driver
        try:
            info = self.driver.start()
        except EngineLoadError as exc:
            self.smoke = {"smoke.load": load_failed(exc)}
            return self.smoke
        self.run, self.absent = cert_profiles.select(self.asked, cert_profiles.declared(info.get("profiles")), self.ruleset)
        cases, self.runner = smoke_tier(self.driver, [f for f in cert_profiles.families_of(self.run) if f in self.tests])
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

    def smoked(self) -> HoldemSession:
        """The session once the smoke tier passed; when it failed, the session stops here."""
        session = self.holdem
        broken = session.smoke_failure()
        if broken is not None:
            pytest.exit(f"holdem: the smoke tier failed, so no vector was run: {broken.id}: {broken.message}",
                        returncode=1)
        return session

    def reportinfo(self):
        return self.path, None, f"holdem vector {self.name}"

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, SuiteErrored):
            c = excinfo.value.case
            return f"SUITE ERROR {c.id} (the suite's own error, not the engine's failure): {c.message}"
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
            pytest.skip("not run: an earlier smoke check failed, or no profile run needs it")
        if case.status == "failed":
            raise SmokeFailed(case.message)


class ProfileItem(HoldemItem):
    """A profile asked for with --holdem-profile: "not implemented" is a failure, as with
    holdem-cert engine --profile P (its vectors are then skipped)."""

    def runtest(self) -> None:
        session = self.smoked()
        if self.name in session.absent:
            raise SmokeFailed(f"profile {self.name}: {cert_profiles.NOT_IMPLEMENTED} (the engine does not declare it)")


class VectorItem(HoldemItem):
    def __init__(self, *, family: str, test: dict, **kwargs) -> None:
        super().__init__(**kwargs)
        self.family, self.test = family, test

    def runtest(self) -> None:
        session = self.smoked()
        profile = cert_profiles.profile_of(self.family)
        if profile not in session.run:
            pytest.skip(f"profile {profile}: {cert_profiles.NOT_IMPLEMENTED} (the engine does not declare it)")
        case = session.runner.vector(self.family, self.test)
        if case.status == "failed":
            raise VectorFailed(case)
        if case.status == SUITE_ERROR:
            raise SuiteErrored(case)
        if case.status == "skipped":
            pytest.skip(case.message)
        if case.status == "divergent":
            self.user_properties.append(("divergent", " ".join(case.rulings)))
            session.divergent.append(case)


class FuzzItem(HoldemItem):
    """A fuzz row (cert_profiles.FUZZ_GROUPS) played blind as holdem-cert engine plays it: fails with
    its first failing game, shrunk (conformance/judge/fuzz.py)."""

    def runtest(self) -> None:
        from conformance.judge import fuzz
        from conformance.judge.engine_cert import FUZZ_KINDS

        session = self.smoked()
        kind = next(k for k in FUZZ_KINDS if k.group == self.name)
        if kind.profile not in session.run:
            pytest.skip(f"profile {kind.profile}: {cert_profiles.NOT_IMPLEMENTED} (the engine does not declare it)")
        done = fuzz.run_plan(session.runner, session.fuzz_plan, kind=kind)
        failed = next((c for c in done.cases if c.status != "passed"), None)
        if failed is not None and failed.status == "failed":
            raise VectorFailed(failed)
        if failed is not None and failed.status == "skipped":
            pytest.skip(failed.message)
        self.user_properties.append(("fuzz", f"{done.games} games, seed {done.seed}"))
