"""``holdem-cert match --bots a,b,c``: a duplicate-deck series of tournaments (contract v1).

Every set of tournaments deals the same decks with the seats rotated, so each bot plays
each deck from each seat (:mod:`conformance.arena.match`); mean place and mean final chips per bot
come with 95% bootstrap intervals over the sets (none, and a warning, below five sets), and
the report says about how many tournaments would make the mean-place intervals ``--place-width``
wide. Tournaments run in ``--jobs`` parallel processes;
the results do not depend on it. Exit 0 when the series was played, 2 on a usage or I/O error.
"""
from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from conformance.arena.match import PLACE_WIDTH, run_match
from conformance.arena.play import select_bots
from conformance.cli.argtypes import add_quiet_option, at_least_one, milliseconds, positive_number, show_progress, write_json_report
from conformance.errors import UsageError
from conformance.harness.runner import CATEGORIES, RunnerOptions
from conformance.outfiles import text_stream
from conformance.report.formats import progress
from conformance.resources import default_roster
from conformance.cli.bot_host_option import add_bot_host_option, chosen_bot_host
from .play import add_seed_arguments, bot_ids, drawn_seeds

NAME = "match"
HELP = "a duplicate-deck series: seats rotated over the same decks, mean place and chips with 95 percent intervals"
SETS = 4  # default number of sets (tournaments = SETS x the number of bots)


def add_tournament_options(parser: argparse.ArgumentParser) -> None:
    """--hands, --decision-ms, --init-ms and --bot-host: what every tournament of a series plays under."""
    parser.add_argument("--hands", type=at_least_one, default=300, metavar="H",
                        help="hand cap of each tournament (default 300)")
    parser.add_argument("--decision-ms", type=milliseconds, metavar="N", help="decision deadline (default 1000)")
    parser.add_argument("--init-ms", type=milliseconds, default=5000, metavar="N",
                        help="initialisation deadline (default 5000)")
    add_bot_host_option(parser)


def tournament_options(args: argparse.Namespace) -> RunnerOptions:
    return RunnerOptions(init_ms=args.init_ms, decision_ms=args.decision_ms, tournament={"max_hands": args.hands},
                         bot_host=chosen_bot_host(args).name)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", type=bot_ids, required=True, metavar="A,B,...",
                        help="two to nine distinct roster ids, in the seat order of rotation 0")
    parser.add_argument("--roster", type=Path, default=default_roster(), metavar="BOTS_JSON",
                        help="the roster (default: ./bots.json, else the bundled house roster)")
    parser.add_argument("--tournaments", type=at_least_one, metavar="N",
                        help=f"tournaments in all, a multiple of the number of bots (one set of rotations "
                        f"each); default {SETS} sets")
    add_seed_arguments(parser)
    parser.add_argument("--jobs", type=at_least_one, default=1, metavar="J",
                        help="tournaments played at once, each in its own process (default 1)")
    add_tournament_options(parser)
    parser.add_argument("--place-width", type=positive_number, default=PLACE_WIDTH, metavar="W",
                        help=f"say how many tournaments would make the mean-place intervals W wide (default {PLACE_WIDTH})")
    parser.add_argument("--json", dest="json_out", type=Path, metavar="OUT",
                        help="write the series report to OUT ('-': standard output)")
    add_quiet_option(parser)


def _ci(ci: list | None, fmt: str) -> str:
    return "none (too few sets)" if ci is None else f"[{ci[0]:{fmt}}, {ci[1]:{fmt}}]"


def print_report(report: dict) -> None:
    print(f"match: {', '.join(report['bots'])}: {report['tournaments']} tournaments in {report['sets']} sets; "
          f"seed {report['seed']}, bot seed {report['botSeed']}")
    width = max(len(b) for b in report["bots"])
    print(f"{'bot':<{width}}  {'mean place':>10}  {'95% CI':<18}  {'mean chips':>10}  {'95% CI':<22}  wins  errors")
    for row in report["summary"]:
        errors = ", ".join(f"{row['errors'][c]} {c}" for c in CATEGORIES if row["errors"][c]) or "0"
        print(f"{row['bot']:<{width}}  {row['meanPlace']:>10.3f}  {_ci(row['placeCI95'], '.3f'):<18}  "
              f"{row['meanChips']:>10.1f}  {_ci(row['chipsCI95'], '.1f'):<22}  {row['places']['1']:>4}  {errors}")
    print(report["confidence"])
    if report["warning"]:
        print(f"warning: {report['warning']}")
    precision = report["precision"]
    if precision["tournaments"] is not None:
        print(f"about {precision['tournaments']} tournaments would make the mean-place intervals "
              f"{precision['placeWidth']:g} places wide (from the spread of these {report['sets']} sets)")


def run(args: argparse.Namespace) -> int:
    bots = [b.spec for b in select_bots(args.roster, args.bots, "contract-v1", distinct=True)]
    tournaments = args.tournaments if args.tournaments is not None else SETS * len(bots)
    if tournaments % len(bots):
        raise UsageError(f"--tournaments: {tournaments} is not a multiple of the {len(bots)} bots "
                         "(each set plays every rotation of the seats once)")
    options = tournament_options(args)
    seed, bot_seed = drawn_seeds(args)
    with progress(tournaments, show_progress(args)) as advance:
        report = run_match(bots, tournaments, seed, bot_seed, options, args.jobs,
                           on_done=lambda t: advance(f"set {t['set'] + 1}"), place_width=args.place_width)
    if args.json_out is not None:
        write_json_report(args.json_out, report)
    with contextlib.redirect_stdout(text_stream(args.json_out)):
        print_report(report)
    return 0
