"""Which engine a command certifies, and how: the options ``holdem-cert engine`` and
``holdem-cert certify`` share (one definition, so the two never drift apart), and the driver,
report subject and fresh-test seed they mean.

A JavaScript engine is ENGINE.js with optional preludes (loaded before it, as part of it) and
an adapter (loaded after it); any other engine is a ``--cmd`` speaking docs/engine-protocol.md.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from conformance.errors import UsageError
from conformance.harness.runner import bundled_engine
from conformance.judge import fuzz
from conformance.judge.engine_cert import load_tests
from conformance.judge.families import DEFAULT_RULESET, FAMILIES, RULESETS
from conformance.judge.engine_drivers import HOSTS, CommandDriver, QuickJSDriver, default_host, read_source
from conformance.report.repro import BUNDLED_NAME
from conformance.vectors import fresh_vectors
from conformance.judge import cert_profiles, coverage
from conformance.host import node_runtime
from conformance.host.node_worker import coverage_sandbox, node_version
from .argtypes import milliseconds, uint32

DEFAULT_TIMEOUT_MS = 10_000


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """Every option that says which engine to certify and how (not the engine file itself: a
    positional argument of ``engine``, ``--engine`` of ``certify``)."""
    parser.add_argument("--adapter", type=Path, metavar="ADAPTER.js",
                        help="a script loaded after the engine that defines or replaces PokerEngine (docs/adapters.md)")
    parser.add_argument("--prelude", type=Path, action="append", default=[], metavar="LIB.js",
                        help="a script loaded before the engine, as part of it (a library it wraps); repeatable")
    parser.add_argument("--host", choices=list(HOSTS), metavar="HOST",
                        help="where a JavaScript engine runs: node (V8, under node's permission model) or quickjs "
                             "(default: node (the pinned node 24, else the system's node 20 or later), else quickjs; the report says "
                             "which; docs/engine-api.md, Hosts)")
    parser.add_argument("--cmd", metavar="COMMAND",
                        help="run COMMAND and certify it over the JSON-lines protocol (docs/engine-protocol.md)")
    parser.add_argument("--ruleset", choices=list(RULESETS), default=DEFAULT_RULESET, metavar="NAME",
                        help=f"certify for this ruleset (one of {', '.join(RULESETS)}; default {DEFAULT_RULESET}): "
                             + "; ".join(f"{name} runs {', '.join(families)}" for name, families in RULESETS.items()))
    parser.add_argument("--profile", action="append", choices=list(cert_profiles.PROFILES), metavar="P",
                        help="certify this conformance profile (repeatable; one of "
                             f"{', '.join(cert_profiles.PROFILES)}; default: every profile the engine declares, "
                             "or the --ruleset's for one that declares nothing)")
    parser.add_argument("--family", action="append", choices=FAMILIES, metavar="F",
                        help="run only this vector family of the profiles (repeatable)")
    parser.add_argument("--junit", dest="junit_out", type=Path, metavar="OUT",
                        help="write the JUnit XML report to OUT ('-': standard output)")
    fresh = parser.add_mutually_exclusive_group()
    fresh.add_argument("--fresh-seed", type=uint32, metavar="SEED",
                       help="seed of the fresh tests run after the golden vectors (default: derived from the "
                            "engine's and adapter's bytes, or from the --cmd text; docs/INTERPRETING.md)")
    fresh.add_argument("--no-fresh", action="store_true",
                       help="run the golden vectors only (an engine that memorised them would then pass)")
    parser.add_argument("--fuzz-games", type=games_count, metavar="N",
                        help=f"differential fuzzing after the vectors: play exactly the first N random games of each "
                             "fuzz row (the tournament's games; the hand profile's random hands), judged step by step "
                             f"(default {fuzz.DEFAULT_GAMES}; the same games on any machine; conformance/judge/fuzz.py, "
                             "hand_fuzz.py)")
    parser.add_argument("--fuzz-seconds", type=seconds, metavar="S",
                        help="fuzz for a time budget of S seconds instead of a game count (0: no fuzzing; the "
                             "report's game count reruns the same games with --fuzz-games)")
    parser.add_argument("--fuzz-seed", type=uint32, metavar="SEED",
                        help="seed of the fuzz games (default: derived like the fresh seed)")
    parser.add_argument("--fuzz-blind", action="store_true",
                        help="with --coverage, draw every fuzz game blind (the default there is coverage-guided "
                             "fuzzing, conformance/judge/fuzz_guided.py; without --coverage fuzzing is always blind)")
    parser.add_argument("--coverage", action="store_true",
                        help="collect V8's block coverage of the engine's own source over the whole run (node host "
                             "only; runs node without its permission model where node cannot grant the inspector; "
                             "docs/INTERPRETING.md, Coverage)")
    parser.add_argument("--timeout-ms", type=milliseconds, default=DEFAULT_TIMEOUT_MS, metavar="N",
                        help=f"wall-clock limit per vector (default {DEFAULT_TIMEOUT_MS}); the five-card digest "
                             "gets max(180 s, 30 N)")


@dataclass(frozen=True)
class EngineSpec:
    """What the engine options say."""

    file: Path | None = None  # None with no cmd: the bundled reference engine
    cmd: str | None = None
    adapter: Path | None = None
    preludes: tuple[Path, ...] = ()
    ruleset: str = DEFAULT_RULESET
    families: tuple[str, ...] = ()  # empty: every family of the profiles
    profiles: tuple[str, ...] = ()  # empty: what the engine declares (cert_profiles.select)
    fresh_seed: int | None = None  # None: derived from the engine's bytes or the command
    fresh: bool = True
    timeout_ms: float = DEFAULT_TIMEOUT_MS
    fuzz_seconds: float = 0.0  # a fuzz time budget, used when fuzz_games is None (0: no fuzzing)
    fuzz_games: int | None = None  # exactly this many fuzz games (the command line's default: fuzz.DEFAULT_GAMES)
    fuzz_seed: int | None = None  # None: derived like the fresh seed
    fuzz_blind: bool = False  # --fuzz-blind: no coverage guidance even with --coverage
    host: str | None = None  # a JavaScript engine's host (HOSTS); None: default_host()
    coverage: bool = False  # V8's block coverage of the engine's source (node host only)


def seconds(text: str) -> float:
    """A time budget in seconds: a finite number >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (0 <= value < float("inf")):
        raise argparse.ArgumentTypeError(f"expected a finite number of seconds >= 0, got {text!r}")
    return value


def games_count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number of games, got {text!r}")
    return int(text)


def fuzz_count(args: argparse.Namespace) -> int | None:
    """--fuzz-games N; none asked for: DEFAULT_GAMES unless --fuzz-seconds asks for a time budget."""
    if args.fuzz_games is not None or args.fuzz_seconds is not None:
        return args.fuzz_games
    return fuzz.DEFAULT_GAMES


def spec_from_args(args: argparse.Namespace, file: Path | None, *, bundled_default: bool = False) -> EngineSpec:
    """The engine the options name; ``file`` None with no --cmd is the bundled reference engine
    when ``bundled_default``, else a usage error."""
    if file is not None and args.cmd is not None or file is None and args.cmd is None and not bundled_default:
        raise UsageError("give either ENGINE.js or --cmd COMMAND (exactly one)")
    return EngineSpec(file=file, cmd=args.cmd, adapter=args.adapter, preludes=tuple(args.prelude),
                      ruleset=args.ruleset, families=tuple(args.family or ()),
                      profiles=tuple(dict.fromkeys(args.profile or ())), fresh_seed=args.fresh_seed,
                      fresh=not args.no_fresh, timeout_ms=args.timeout_ms, fuzz_seconds=args.fuzz_seconds or 0.0,
                      fuzz_games=fuzz_count(args), fuzz_seed=args.fuzz_seed,
                      fuzz_blind=getattr(args, "fuzz_blind", False), host=getattr(args, "host", None),
                      coverage=getattr(args, "coverage", False))


@dataclass
class EngineUnderTest:
    driver: object  # QuickJSDriver or CommandDriver, not started
    subject: dict  # how the report describes it
    tests: dict[str, list[dict]]  # family -> golden vectors, then fresh tests
    js_source: str | None  # preludes, engine and adapter as one script; None for a --cmd engine
    fuzz: fuzz.FuzzPlan | None = None  # differential fuzzing after the vectors (conformance/judge/fuzz.py)
    coverage_files: list[tuple[str, str]] | None = None  # --coverage: the engine's files (preludes, ENGINE.js)


def asked_profiles(spec: EngineSpec) -> tuple[str, ...]:
    """The profiles a run asks for: --profile's; else, for a --family run, the families' profiles
    (so that a family of a profile the engine does not declare is "not implemented", as with
    --profile); else none (what the engine declares decides, cert_profiles.select)."""
    return spec.profiles or cert_profiles.profiles_of(spec.families)


def candidate_families(spec: EngineSpec) -> list[str]:
    """Every family the run may need: those of the profiles asked for (of every profile when the
    engine's declaration decides, of the --ruleset's when it is not contract-v1), --family's when given."""
    if spec.families:
        return list(spec.families)
    if spec.profiles:
        return cert_profiles.families_of(spec.profiles)
    if spec.ruleset != DEFAULT_RULESET:
        return cert_profiles.families_of(cert_profiles.RULESET_PROFILES[spec.ruleset])
    return cert_profiles.families_of(cert_profiles.PROFILES)


def check(spec: EngineSpec) -> None:
    """Options that contradict each other: a usage error naming them."""
    if spec.ruleset not in RULESETS:
        raise UsageError(f"--ruleset: unknown {spec.ruleset!r} (known: {', '.join(RULESETS)})")
    if spec.profiles and spec.ruleset != DEFAULT_RULESET:
        raise UsageError("give --profile or --ruleset, not both (--ruleset holdem-sng-3-v4 is --profile helpers "
                         "--profile sng3v4)")
    asked = spec.profiles or (cert_profiles.RULESET_PROFILES[spec.ruleset] if spec.ruleset != DEFAULT_RULESET
                              else tuple(cert_profiles.PROFILES))
    families = cert_profiles.families_of(asked)
    other = [f for f in spec.families if f not in families]
    if other and not spec.profiles:
        raise UsageError(f"--family {other[0]} is not certified under --ruleset {spec.ruleset} "
                         f"(its families: {', '.join(families)})")
    if other:
        raise UsageError(f"--family {other[0]} is not in the profiles asked for ({', '.join(asked)}: "
                         f"{', '.join(families)})")
    if spec.cmd is not None and (spec.adapter or spec.preludes):
        raise UsageError("--adapter and --prelude apply to ENGINE.js, not to --cmd")
    if spec.cmd is not None and spec.host is not None:
        raise UsageError("--host applies to ENGINE.js, not to --cmd (a --cmd engine runs as its own process)")
    if spec.host is not None and spec.host not in HOSTS:
        raise UsageError(f"--host: unknown {spec.host!r} (known: {', '.join(HOSTS)})")
    if spec.coverage and spec.cmd is not None:
        raise UsageError("--coverage is unavailable for a --cmd engine: the suite sees its answers, not its code "
                         "(coverage is V8's, for a JavaScript engine on the node host)")
    if spec.coverage and (spec.host or default_host()) != "node":
        why = "" if spec.host else f" (no node: {node_runtime.describe()}; so the default host is quickjs)"
        raise UsageError(f"--coverage is unavailable on the quickjs host{why}: it is V8's block coverage, "
                         "collected on the node host (--host node)")


def prepare(spec: EngineSpec) -> EngineUnderTest:
    """The driver, subject and tests of ``spec``. Bad options and unreadable files are usage
    errors naming them (a file that is read but does not load is a verdict, found later)."""
    check(spec)
    families = candidate_families(spec)
    if spec.cmd is not None:
        try:
            driver = CommandDriver(spec.cmd, timeout_ms=spec.timeout_ms)
        except ValueError as exc:  # shlex: unbalanced quotes; or an empty command
            raise UsageError(f"--cmd: {exc}") from None
        subject, derived, js_source = {"driver": "command", "command": spec.cmd}, fresh_vectors.seed_from(spec.cmd), None
    else:
        try:
            sources = [read_source(p, "prelude") for p in spec.preludes]
            sources.append(bundled_engine() if spec.file is None else read_source(spec.file, "engine"))
            adapter = read_source(spec.adapter, "adapter") if spec.adapter else None
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        name = BUNDLED_NAME if spec.file is None else str(spec.file)
        host = spec.host or default_host()
        try:
            driver = QuickJSDriver(coverage.SEPARATOR.join(sources), engine_name=Path(name).name,
                                   adapter_source=adapter, timeout_ms=spec.timeout_ms, host=host,
                                   coverage=spec.coverage)
        except ValueError as exc:  # --host node without a node that can host engines
            raise UsageError(f"--{exc}") from None
        # "driver" names the JavaScript driver (whatever the host); "host" where it ran.
        subject = {"driver": "quickjs", "host": host, "source": name,
                   "adapter": str(spec.adapter) if spec.adapter else None, "preludes": [str(p) for p in spec.preludes]}
        derived = fresh_vectors.engine_seed(sources, adapter)
        js_source = "\n;\n".join(sources + ([adapter] if adapter else []))
    fresh_seed = None if not spec.fresh else derived if spec.fresh_seed is None else spec.fresh_seed
    tests = load_tests(families, fresh_seed)
    subject["fresh"] = fresh_vectors.summary(fresh_seed, tests)
    plan = None
    if {fuzz.FUZZ_FAMILY, "hand"} & set(families) and (spec.fuzz_seconds > 0 or spec.fuzz_games):
        # Guided when the engine's coverage is collected (the feedback; docs/INTERPRETING.md, Differential fuzzing).
        plan = fuzz.FuzzPlan(derived if spec.fuzz_seed is None else spec.fuzz_seed, None if spec.fuzz_games else spec.fuzz_seconds,
                             spec.fuzz_games, guided=spec.coverage and not spec.fuzz_blind)
    files = None
    if spec.coverage:
        files = [(str(p), text) for p, text in zip(spec.preludes, sources)] + [(name, sources[-1])]
    return EngineUnderTest(driver, subject, tests, js_source, plan, files)


def attach_coverage(chosen: EngineUnderTest, report, page: str | None) -> dict | None:
    """--coverage: the report's ``coverage`` section from what the driver collected (its per-line
    states too, for the HTML view; ``page`` is where that view is written, relative to the report)."""
    log = getattr(chosen.driver, "coverage", None)
    if log is None or chosen.coverage_files is None:
        return None
    node = chosen.driver.node
    version = ".".join(map(str, node_version(node) or ()))
    section = coverage.summarize(log, chosen.coverage_files,
                                 tool=f"V8's precise block coverage (node {version}; inspector "
                                      "Profiler.takePreciseCoverage, callCount and detailed)",
                                 sandbox=coverage_sandbox(node))
    if page is not None:
        section["page"] = page
    report.coverage = section
    return section
