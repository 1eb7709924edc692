"""``holdem-cert certify``: the main job (see conformance/cli/certify.py).

Takes every engine option of ``holdem-cert engine`` (the same definitions). Prints one line per
result as it is known, then where the report is and the verdict. Exit 0 certified, 1 not
certified (an engine that does not load, a broken roster or a rejected bot included; the report
is written either way), 3 inconclusive (nothing failed, but a bot was not judged whole: a bound cut a
part of its certification: docs/bot-certification.md, Bounds), 2 usage or I/O error.
"""
from __future__ import annotations

import argparse
import json
import shutil
import textwrap
from dataclasses import replace
from pathlib import Path

from conformance.bots import bounds
from conformance.cli.argtypes import add_quiet_option, at_least_one, seconds, show_progress, uint32
from conformance.cli.certify import CertifyOptions, run as run_certify
from conformance.cli.engine_choice import add_engine_options, spec_from_args
from conformance.errors import UsageError
from conformance.outfiles import text_stream, write_text
from conformance.report.formats import printable
from conformance.resources import default_roster
from conformance.cli.bot_host_option import add_bot_host_option, chosen_bot_host

NAME = "certify"
HELP = "certify the engine, the roster and every rostered bot; play a showcase; write a report directory"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", type=Path, metavar="ENGINE.js", help="the engine (default: the bundled one)")
    add_engine_options(parser)
    parser.add_argument("--json", dest="json_out", type=Path, metavar="OUT",
                        help="also write summary.json to OUT ('-': standard output)")
    parser.add_argument("--roster", type=Path, default=default_roster(), metavar="bots.json",
                        help="the roster (default: ./bots.json, else the bundled house roster)")
    parser.add_argument("--report", type=Path, default=Path("report"), metavar="DIR",
                        help="the report directory (default: report/): summary.json, junit.xml, index.html")
    parser.add_argument("--seed", type=uint32, default=2024, help="the showcase's deck seed")
    parser.add_argument("--bot-seed", type=uint32, default=7, help="botSeed for the showcase and the bot batteries (R21)")
    parser.add_argument("--hands", type=at_least_one, default=300, help="the showcase's hand cap (default 300)")
    parser.add_argument("--bot-time-budget", type=seconds, default=bounds.TIME_BUDGET_S, metavar="S",
                        help="each bot's certification budget in CPU seconds (holdem-cert bot --time-budget; "
                             f"default {bounds.TIME_BUDGET_S:g}): a bot cut by it is inconclusive, and so is the run "
                             "(exit 3), naming the budget estimated to finish it (docs/bot-certification.md, "
                             "Bounds)")
    parser.add_argument("--jobs", type=at_least_one, default=2, metavar="N",
                        help="rostered bots certified side by side, each in a process of its own, beside the "
                             "engine's certification (default 2; 1: one after the other); the report is the same")
    add_bot_host_option(parser)
    add_quiet_option(parser)


def wrapped(text: str, out) -> str:
    """On a terminal, each line wrapped at spaces to its width, continued with an indent: the
    terminal would otherwise break ids mid-word. A file or pipe gets one line per result."""
    if not out.isatty():
        return text
    width = shutil.get_terminal_size().columns
    return "\n".join(textwrap.fill(line, width, subsequent_indent="    ", break_long_words=False,
                                    break_on_hyphens=False) for line in text.splitlines())


def run(args: argparse.Namespace) -> int:
    if not args.roster.exists():
        raise UsageError(f"--roster: {args.roster} does not exist")
    if args.engine is not None and not args.engine.is_file():
        raise UsageError(f"--engine: {args.engine} does not exist")
    options = CertifyOptions(engine=spec_from_args(args, args.engine, bundled_default=True), roster=args.roster,
                             report_dir=args.report, seed=args.seed, bot_seed=args.bot_seed,
                             showcase_hands=args.hands, jobs=args.jobs)
    options = replace(options, bot_options=replace(options.bot_options, time_budget_s=args.bot_time_budget,
                                                   host=chosen_bot_host(args).name))
    out = text_stream(args.json_out, args.junit_out)

    def say(line: str) -> None:
        print(wrapped(printable(line), out), file=out, flush=True)

    summary = run_certify(options, say=say, show_progress=show_progress(args))
    say(f"report: {args.report / 'index.html'}")
    if summary["status"] == "inconclusive":  # nothing failed; a bot was not judged whole
        say(f"certify: inconclusive: bot(s) {', '.join(summary['inconclusive'])} not judged whole (a bound cut "
            "a part; each bot's report names what was not run and the --time-budget estimated to finish it)"
            + (" in a run of some families only: not a certification" if summary["partial"] else ""))
    elif summary["partial"]:  # --family: says what it ran, never "certified" (issue #12, item 7)
        say(f"certify: {'no failures' if summary['ok'] else 'failures'} in a run of the families "
            f"{', '.join(summary['options']['families'])} only: not a certification")
    else:
        say(f"certify: {'certified' if summary['certified'] else 'not certified'}")
    if args.json_out is not None:
        write_text(args.json_out, printable(json.dumps(summary, indent=2, ensure_ascii=False)) + "\n")
    if args.junit_out is not None:
        write_text(args.junit_out, (args.report / "junit.xml").read_text(encoding="utf-8"))
    return {"certified": 0, "partial": 0, "inconclusive": 3}.get(summary["status"], 1)
