"""``holdem-cert engine``: certify an engine against the golden vectors (docs/INTERPRETING.md).

``holdem-cert engine ENGINE.js [--adapter A.js] [--prelude LIB.js]...`` runs a JavaScript engine in
the QuickJS worker; ``holdem-cert engine --cmd "COMMAND"`` runs an engine in any language over the
JSON-lines protocol of docs/engine-protocol.md. ``--ruleset NAME`` says what to certify for: the
ruleset's game family and the ruleset-independent helper families (contract-v1 by default). Exit 0
certified, 1 not certified (including an engine that does not load, fails the smoke tier, or does
not support the ruleset), 2 usage or I/O error.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..argtypes import milliseconds, uint32
from ..engine_cert import DEFAULT_RULESET, FAMILIES, RULESETS, certify, load_tests
from ..engine_drivers import CommandDriver, QuickJSDriver, read_source
from .. import fresh_vectors
from ..errors import UsageError
from ..report import print_summary, progress, write_json, write_junit

NAME = "engine"
HELP = "certify a poker engine (JavaScript, or any language via --cmd) against the golden vectors"
DEFAULT_TIMEOUT_MS = 10_000


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("engine", nargs="?", type=Path, metavar="ENGINE.js",
                        help="the JavaScript engine (defines PokerEngine, or an adapter maps it)")
    parser.add_argument("--adapter", type=Path, metavar="ADAPTER.js",
                        help="a script loaded after the engine that defines or replaces PokerEngine (docs/adapters.md)")
    parser.add_argument("--prelude", type=Path, action="append", default=[], metavar="LIB.js",
                        help="a script loaded before the engine, as part of it (a library it wraps); repeatable")
    parser.add_argument("--cmd", metavar="COMMAND",
                        help="run COMMAND and certify it over the JSON-lines protocol (docs/engine-protocol.md)")
    parser.add_argument("--ruleset", choices=list(RULESETS), default=DEFAULT_RULESET, metavar="NAME",
                        help=f"certify for this ruleset (one of {', '.join(RULESETS)}; default {DEFAULT_RULESET}): "
                             + "; ".join(f"{name} runs {', '.join(families)}" for name, families in RULESETS.items()))
    parser.add_argument("--family", action="append", choices=FAMILIES, metavar="F",
                        help="run only this vector family of the ruleset (repeatable)")
    parser.add_argument("--json", dest="json_out", type=Path, metavar="OUT", help="write the report as JSON")
    parser.add_argument("--junit", dest="junit_out", type=Path, metavar="OUT", help="write the report as JUnit XML")
    fresh = parser.add_mutually_exclusive_group()
    fresh.add_argument("--fresh-seed", type=uint32, metavar="SEED",
                       help="seed of the fresh tests run after the golden vectors (default: derived from the "
                            "engine's and adapter's bytes, or from the --cmd text; docs/INTERPRETING.md)")
    fresh.add_argument("--no-fresh", action="store_true",
                       help="run the golden vectors only (an engine that memorised them would then pass)")
    parser.add_argument("--timeout-ms", type=milliseconds, default=DEFAULT_TIMEOUT_MS, metavar="N",
                        help=f"wall-clock limit per vector (default {DEFAULT_TIMEOUT_MS}); the five-card digest "
                             "gets max(180 s, 30 N)")


def _driver(args: argparse.Namespace):
    if (args.engine is None) == (args.cmd is None):
        raise UsageError("give either ENGINE.js or --cmd COMMAND (exactly one)")
    if args.cmd is not None:
        if args.adapter or args.prelude:
            raise UsageError("--adapter and --prelude apply to ENGINE.js, not to --cmd")
        try:
            driver = CommandDriver(args.cmd, timeout_ms=args.timeout_ms)
        except ValueError as exc:  # shlex: unbalanced quotes; or an empty command
            raise UsageError(f"--cmd: {exc}") from None
        return driver, {"driver": "command", "command": args.cmd}, fresh_vectors.seed_from(args.cmd)
    try:
        sources = [read_source(p, "prelude") for p in args.prelude] + [read_source(args.engine, "engine")]
        adapter = read_source(args.adapter, "adapter") if args.adapter else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    driver = QuickJSDriver("\n;\n".join(sources), engine_name=args.engine.name, adapter_source=adapter,
                           timeout_ms=args.timeout_ms)
    subject = {"driver": "quickjs", "source": str(args.engine),
               "adapter": str(args.adapter) if args.adapter else None, "preludes": [str(p) for p in args.prelude]}
    return driver, subject, fresh_vectors.engine_seed(sources, adapter)


def describe(subject: dict) -> str:
    version = f" {subject['version']}" if subject.get("version") else ""
    language = f", {subject['language']}" if subject.get("language") else ""
    if subject["driver"] == "command":
        name = f"{subject['name']}{version}{language} via " if subject.get("name") else ""
        return f"{name}--cmd {subject['command']!r}{_fresh_text(subject)}"
    text = f"{subject['source']}{version}{language} in QuickJS"
    if subject.get("adapter"):
        text += f", adapter {subject['adapter']}"
    if subject.get("missing"):
        text += f"; lacks {', '.join(subject['missing'])}"
    return text + _fresh_text(subject)


def _fresh_text(subject: dict) -> str:
    fresh = subject.get("fresh")
    return f"; {fresh['tests']} fresh tests, seed {fresh['seed']}" if fresh else ""


def run(args: argparse.Namespace) -> int:
    for out in (args.json_out, args.junit_out):
        if out is not None and out.is_dir():
            raise UsageError(f"{out}: is a directory, not a report file")
    families = RULESETS[args.ruleset]
    other = [f for f in args.family or () if f not in families]
    if other:
        raise UsageError(f"--family {other[0]} is not certified under --ruleset {args.ruleset} "
                         f"(its families: {', '.join(families)})")
    driver, subject, derived_seed = _driver(args)
    fresh_seed = None if args.no_fresh else derived_seed if args.fresh_seed is None else args.fresh_seed
    tests = load_tests(args.family or families, fresh_seed)
    subject["fresh"] = fresh_vectors.summary(fresh_seed, tests)
    with progress(sum(map(len, tests.values())), enabled=sys.stderr.isatty()) as advance:
        report = certify(driver, tests, subject, ruleset=args.ruleset, on_case=lambda case: advance(case.group))
    print_summary(report, sys.stdout, describe_subject=describe)
    if args.json_out is not None:
        write_json(args.json_out, report)
    if args.junit_out is not None:
        write_junit(args.junit_out, report)
    return 0 if report.certified else 1
