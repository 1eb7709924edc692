"""``holdem-cert mutate``: how much of a JavaScript engine's behaviour the certification pins (issue #37).

``holdem-cert mutate ENGINE.js [--adapter A.js] [--prelude P.js] [--json OUT] [--html DIR] [--jobs N]``
makes StrykerJS's mutants of ENGINE.js's own source (not the adapter's, the preludes' or the suite's)
and runs the certification's tests against each (conformance/mutate/): a mutant is Killed when a test
the original engine passes fails with it. The tests are the original engine's: its golden vectors,
fresh tests and fuzz games, with the seeds ``holdem-cert engine`` derives from the original's bytes.
Prints the counts, the mutation score and every survivor with its line and replacement; ``--json``
writes Stryker's report (the mutation-testing-report schema, tests named by their vector ids),
``--html`` the mutation-testing-elements view of it. Exit 0 when it ran (whatever the score), 2 on
a usage error, an engine that does not load or fails the certification's smoke tier, or no StrykerJS.
"""
from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from conformance.cli.argtypes import add_quiet_option, at_least_one, milliseconds, show_progress, uint32
from conformance.cli.engine_choice import (DEFAULT_TIMEOUT_MS, EngineSpec, asked_profiles, candidate_families,
                                           games_count, prepare)
from conformance.errors import UsageError
from conformance.judge import fuzz
from conformance.judge.families import FAMILIES
from conformance.judge.engine_drivers import EngineLoadError
from conformance.mutate import score, stryker
from conformance.mutate.session import Plan
from conformance.outfiles import replace_directory, text_stream, write_text
from conformance.report.formats import plural, progress

NAME = "mutate"
HELP = "mutation testing of a JavaScript engine with StrykerJS: what the certification pins of its code"
HTML_PAGE = "index.html"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("engine", type=Path, metavar="ENGINE.js", help="the JavaScript engine whose source is mutated")
    parser.add_argument("--adapter", type=Path, metavar="ADAPTER.js",
                        help="a script loaded after the engine that defines or replaces PokerEngine (not mutated)")
    parser.add_argument("--prelude", type=Path, action="append", default=[], metavar="LIB.js",
                        help="a script loaded before the engine, as part of it (not mutated); repeatable")
    parser.add_argument("--json", dest="json_out", type=Path, metavar="OUT",
                        help="write StrykerJS's report (mutation-testing-report schema) to OUT ('-': standard output)")
    parser.add_argument("--html", dest="html_dir", type=Path, metavar="DIR",
                        help=f"write the mutation-testing-elements view to DIR/{HTML_PAGE} (self-contained)")
    parser.add_argument("--jobs", type=at_least_one, default=os.cpu_count() or 1, metavar="N",
                        help="test runners in parallel, each with its own engine process (default: the CPU count)")
    parser.add_argument("--sample", type=at_least_one, metavar="N",
                        help="mutate only the code of N mutants chosen by --sample-seed (with any mutant of the same "
                             "or nested code): a quick look, and the tests' fixed sample")
    parser.add_argument("--sample-seed", type=uint32, default=0, metavar="S", help="the seed of --sample (default 0)")
    parser.add_argument("--lines", type=line_span, action="append", metavar="A-B",
                        help="mutate only the code of lines A to B of ENGINE.js (repeatable; with --sample, the "
                             "sample's mutants are drawn from these lines): re-checking the code you changed")
    parser.add_argument("--family", action="append", choices=FAMILIES, metavar="F",
                        help="judge the mutants on this vector family's tests only (repeatable; default: every "
                             "family the engine's profiles certify, as holdem-cert engine)")
    parser.add_argument("--fuzz-games", type=games_count, default=fuzz.DEFAULT_GAMES, metavar="N",
                        help=f"fuzz games among the tests (default {fuzz.DEFAULT_GAMES}, as holdem-cert engine)")
    parser.add_argument("--fuzz-seed", type=uint32, metavar="SEED",
                        help="seed of the fuzz games (default: derived from the original engine's bytes, as holdem-cert "
                             "engine): fixed, the same games judge an engine whose bytes changed")
    parser.add_argument("--timeout-ms", type=milliseconds, default=DEFAULT_TIMEOUT_MS, metavar="N",
                        help=f"wall-clock limit per vector (default {DEFAULT_TIMEOUT_MS}); a mutant that "
                             "exceeds it is a Timeout")
    add_quiet_option(parser)


def run(args: argparse.Namespace) -> int:
    if args.json_out is not None and args.json_out.is_dir():
        raise UsageError(f"--json {args.json_out}: is a directory, not a report file")
    if args.html_dir is not None and args.html_dir.exists() and not args.html_dir.is_dir():
        raise UsageError(f"--html {args.html_dir}: is not a directory")
    try:
        _check_lines(args)  # bad input first: before the engine is started or anything is installed
        node = stryker.stryker_node()
        plan = make_plan(args, node)
        prefix = stryker.install()
    except stryker.Unavailable as exc:
        raise UsageError(f"mutate: {exc}") from None
    mutate = [f"{args.engine.name}:{a}-{b}" for a, b in args.lines] if args.lines else None
    if args.sample is not None:
        try:
            listed = [m for m in stryker.list_mutants(node, prefix, args.engine)
                      if not args.lines or any(a <= m["location"]["start"]["line"] + 1 <= b for a, b in args.lines)]
            mutate = stryker.sample_ranges(listed, args.engine.name, args.sample, args.sample_seed)
        except stryker.Unavailable as exc:
            raise UsageError(f"mutate: {exc}") from None
    with progress(None, show_progress(args), "dry run") as advance:
        try:
            outcome = stryker.run(args.engine, plan, jobs=args.jobs, mutate=mutate, on_event=_progress_events(advance),
                                  prefix=prefix)
        except stryker.Unavailable as exc:
            raise UsageError(f"mutate: {exc}") from None
    report = score.normalized(outcome.report, str(args.engine.resolve().parent))
    out = text_stream(args.json_out)
    print(f"holdem-cert mutate: {args.engine} (StrykerJS {stryker.VERSION}, {args.jobs} jobs"
          + (f", a sample of {args.sample} mutants, seed {args.sample_seed}" if args.sample else "")
          + (", lines " + ", ".join(f"{a}-{b}" for a, b in args.lines) if args.lines else "") + ")", file=out)
    if outcome.left:  # they cannot kill a mutant
        print(f"left out: {plural(len(outcome.left), 'test')} the original engine does not pass: " + "; ".join(outcome.left[:5])
              + (" ..." if len(outcome.left) > 5 else ""), file=out)
    for line in score.summary_lines(report):
        print(line, file=out)
    if args.json_out is not None:
        write_text(args.json_out, json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    if args.html_dir is not None:
        page = stryker.html_view(report, prefix)
        replace_directory(args.html_dir, lambda staging: write_text(staging / HTML_PAGE, page))
    return 0


def _check_lines(args: argparse.Namespace) -> None:
    if not args.lines:
        return
    try:
        total = len(args.engine.read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        return  # make_plan names the unreadable engine
    for a, b in args.lines:
        if b > total:
            raise UsageError(f"--lines {a}-{b}: {args.engine} has {total} lines")


def line_span(text: str) -> tuple[int, int]:
    """``A-B``: lines A to B of the engine, 1-based and inclusive."""
    a, sep, b = text.partition("-")
    try:
        span = (int(a), int(b) if sep else int(a))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected lines as A-B (e.g. 120-180), got {text!r}") from None
    if not 1 <= span[0] <= span[1]:
        raise argparse.ArgumentTypeError(f"expected 1 <= A <= B, got {text!r}")
    return span


def make_plan(args: argparse.Namespace, node: str) -> Plan:
    """The ORIGINAL engine's tests (its seeds), after checking that it loads: every session uses this plan."""
    spec = EngineSpec(file=args.engine, adapter=args.adapter, preludes=tuple(args.prelude), host="node",
                      families=tuple(args.family or ()), fuzz_games=args.fuzz_games, fuzz_seed=args.fuzz_seed,
                      timeout_ms=args.timeout_ms)
    chosen = prepare(spec)  # unreadable files: usage errors (a missing file: OSError, exit 2)
    try:
        chosen.driver.start()
    except EngineLoadError as exc:
        raise UsageError(f"{args.engine}: the engine does not load, so it cannot be mutation-tested: {exc}") from None
    finally:
        chosen.driver.close()
    return Plan(engine=str(args.engine.resolve()), preludes=tuple(str(p.resolve()) for p in args.prelude),
                adapter=str(args.adapter.resolve()) if args.adapter else None,
                families=tuple(candidate_families(spec)), profiles=tuple(asked_profiles(spec)), ruleset=spec.ruleset,
                fresh_seed=chosen.subject["fresh"]["seed"] if chosen.subject.get("fresh") else None,
                fuzz_seed=chosen.fuzz.seed if chosen.fuzz else None, fuzz_games=args.fuzz_games,
                timeout_ms=args.timeout_ms, node=node)


def _progress_events(advance):
    """Stryker's events on the progress bar: the dry run, then one step per mutant."""
    def on_event(event: dict) -> None:
        if event["event"] == "plan":
            advance("mutants", total=event["mutants"])
        elif event["event"] == "mutant":
            advance(event["status"])
    return on_event
