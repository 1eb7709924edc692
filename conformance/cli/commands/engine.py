"""``holdem-cert engine``: certify an engine against the golden vectors (docs/INTERPRETING.md).

``holdem-cert engine ENGINE.js [--adapter A.js] [--prelude LIB.js]...`` runs a JavaScript engine in
the QuickJS worker; ``holdem-cert engine --cmd "COMMAND"`` runs an engine in any language over the
JSON-lines protocol of docs/engine-protocol.md. ``--ruleset NAME`` says what to certify for: the
ruleset's game family and the ruleset-independent helper families (contract-v1 by default). Exit 0
certified (or a --family run without failures: it says what it ran and is never a certification), 1 not
certified (including an engine that does not load, fails the smoke tier, or does
not support the ruleset), 2 usage or I/O error.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from conformance.cli.argtypes import add_quiet_option, show_progress
from conformance.cli.engine_choice import add_engine_options, asked_profiles, attach_coverage, prepare, spec_from_args
from conformance.errors import UsageError
from conformance.judge.engine_cert import certify
from conformance.outfiles import is_stdout, text_stream, write_text
from conformance.report import coverage_page
from conformance.report.formats import print_summary, printable, progress, to_json, write_json, write_junit
from conformance.report.repro import attach as attach_repro, write_files as write_repro_files, written_line as repro_line

NAME = "engine"
HELP = "certify a poker engine (JavaScript, or any language via --cmd) against the golden vectors"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("engine", nargs="?", type=Path, metavar="ENGINE.js",
                        help="the JavaScript engine (defines PokerEngine, or an adapter maps it)")
    add_engine_options(parser)
    parser.add_argument("--json", dest="json_out", type=Path, metavar="OUT",
                        help="write the report as JSON to OUT ('-': standard output)")
    add_quiet_option(parser)


def describe(subject: dict) -> str:
    version = f" {subject['version']}" if subject.get("version") else ""
    language = f", {subject['language']}" if subject.get("language") else ""
    if subject["driver"] == "command":
        name = f"{subject['name']}{version}{language} via " if subject.get("name") else ""
        return f"{name}--cmd {subject['command']!r}{_fresh_text(subject)}"
    host = {"node": "node (V8)", "quickjs": "QuickJS"}.get(subject.get("host"), "QuickJS")
    text = f"{subject['source']}{version}{language} in {host}"
    if subject.get("adapter"):
        text += f", adapter {subject['adapter']}"
    if subject.get("missing"):
        text += f"; lacks {', '.join(subject['missing'])}"
    return text + _fresh_text(subject)


def _fresh_text(subject: dict) -> str:
    fresh = subject.get("fresh")
    text = f"; {fresh['tests']} fresh tests, seed {fresh['seed']}" if fresh else ""
    fuzz = subject.get("fuzz")
    if fuzz:  # the count reproduces the run: --fuzz-seed SEED --fuzz-games N
        guided = fuzz.get("mode") == "guided"  # coverage-guided: the rerun needs --coverage too
        text += (f"; {fuzz['games']} {'coverage-guided ' if guided else ''}fuzz games, seed {fuzz['seed']} "
                 f"(--fuzz-seed {fuzz['seed']} --fuzz-games {fuzz['games']}{' --coverage' if guided else ''})")
    hands = subject.get("handFuzz")
    if hands:  # the hand profile's random hands (conformance/judge/hand_fuzz.py), blind or coverage-guided
        guided = hands.get("mode") == "guided"
        text += (f"; {hands['games']} random hands ({'coverage-guided' if guided else 'blind'}), seed {hands['seed']} "
                 f"(--fuzz-seed {hands['seed']} --fuzz-games {hands['games']}{' --coverage' if guided else ''})")
    return text


def run(args: argparse.Namespace) -> int:
    for out in (args.json_out, args.junit_out):
        if out is not None and out.is_dir():
            raise UsageError(f"{out}: is a directory, not a report file")
    spec = spec_from_args(args, args.engine)
    chosen = prepare(spec)
    with progress(sum(map(len, chosen.tests.values())), enabled=show_progress(args)) as advance:
        report = certify(chosen.driver, chosen.tests, chosen.subject, ruleset=spec.ruleset, profiles=asked_profiles(spec),
                         on_case=lambda case: advance(case.group), fuzz_plan=chosen.fuzz)
    attach_repro(report, chosen.subject, chosen.tests)
    # --coverage: the HTML view goes beside the JSON report (none without a report file to link it from).
    page_dir = args.json_out.parent if args.json_out is not None and not is_stdout(args.json_out) else None
    section = attach_coverage(chosen, report, coverage_page.PAGE if page_dir is not None else None)
    print_summary(report, text_stream(args.json_out, args.junit_out), describe_subject=describe)
    if section is not None and page_dir is not None:
        write_text(page_dir / coverage_page.PAGE, printable(coverage_page.render(section, chosen.coverage_files)))
    payload = to_json(report)
    failures = payload["failures"]
    if args.json_out is not None and not is_stdout(args.json_out):  # the reproductions go next to the report
        # the failed vectors' reproductions and the causes' own examples'
        write_repro_files(failures + [c["example"] for c in payload["causes"] if c.get("example")], args.json_out.parent)
    line = repro_line(failures, args.json_out.parent if page_dir is not None else None)
    if line is not None:
        print(printable(line), file=text_stream(args.json_out, args.junit_out))
    if args.json_out is not None:
        write_json(args.json_out, report)
    if args.junit_out is not None:
        write_junit(args.junit_out, report)
    return 0 if report.certified or (report.partial and report.ok) else 1
