"""``holdem-cert league``: duplicate-deck tournaments over every table of the chosen bots, played
by local processes or on Ray, streamed into a SQLite store, rated (:mod:`conformance.arena.league`).

A rerun over the same store plays only what it lacks. Exit 0 when the league was played, 2 on a
usage or I/O error (an unknown bot, a broken roster, Ray absent or unreachable, a store of
another league: nothing in the store is changed).
"""
from __future__ import annotations

import argparse
import contextlib
import secrets
import sys
from pathlib import Path

from reference.ruleset import get_ruleset

from conformance.arena.league.backends import BACKENDS
from conformance.arena.league.run import run_league
from conformance.arena.league.store import read_identity
from conformance.arena.play import select_bots
from conformance.cli.argtypes import add_quiet_option, at_least_one, show_progress, write_json_report
from conformance.errors import UsageError
from conformance.outfiles import text_stream
from conformance.report.formats import progress
from conformance.report.league_page import print_report, write_html
from conformance.resources import default_roster
from .match import add_tournament_options, tournament_options
from .play import add_seed_arguments, bot_ids

NAME = "league"
HELP = "a league: duplicate-deck tournaments over every table of the bots, on processes or Ray, stored and rated"
RULES = get_ruleset("contract-v1")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--roster", type=Path, default=default_roster(), metavar="BOTS_JSON",
                        help="the roster (default: ./bots.json, else the bundled house roster)")
    parser.add_argument("--bots", type=bot_ids, metavar="A,B,...",
                        help="distinct roster ids (default: every roster bot); their order does not matter")
    parser.add_argument("--tournaments", type=at_least_one, required=True, metavar="N",
                        help="tournaments in all: whole sets (one set: every table once in each seat rotation)")
    parser.add_argument("--table-size", type=at_least_one, required=True, metavar="K",
                        help=f"bots at each table, {RULES.min_seats} to {RULES.max_seats}")
    add_seed_arguments(parser)
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="local: processes on this machine (default); ray: Ray tasks (pip install '.[ray]')")
    parser.add_argument("--address", metavar="ADDR",
                        help="an existing Ray cluster (HOST:PORT or ray://HOST:PORT); implies --backend ray")
    parser.add_argument("--jobs", type=at_least_one, default=1, metavar="J",
                        help="tournaments at once: local processes, or the CPUs of a local Ray instance (default 1)")
    parser.add_argument("--store", type=Path, required=True, metavar="PATH",
                        help="the SQLite results store: created if absent; a rerun plays only what it lacks")
    add_tournament_options(parser)
    parser.add_argument("--json", dest="json_out", type=Path, metavar="OUT",
                        help="write the league report to OUT ('-': standard output)")
    parser.add_argument("--html", type=Path, metavar="DIR", help="write DIR/index.html (ratings and matrix plots)")
    add_quiet_option(parser)


def league_seeds(args: argparse.Namespace) -> tuple[int, int]:
    """The seeds given; else the store's (a rerun continues its league); else drawn and said."""
    held = read_identity(args.store)
    seed = args.seed if args.seed is not None else held["seed"] if held else secrets.randbits(32)
    bot_seed = args.bot_seed if args.bot_seed is not None else held["botSeed"] if held else secrets.randbits(32)
    if args.seed is None or args.bot_seed is None:
        print(f"holdem-cert: seeds --seed {seed} --bot-seed {bot_seed}"
              f"{' (the store’s)' if held else ''}", file=sys.stderr)
    return seed, bot_seed


def run(args: argparse.Namespace) -> int:
    backend = "ray" if args.address is not None else args.backend
    bots = {b.spec.id: b.spec for b in select_bots(args.roster, args.bots, RULES.name, distinct=True, one_table=False)}
    if not RULES.min_seats <= args.table_size <= RULES.max_seats:
        raise UsageError(f"--table-size: {RULES.name} seats {RULES.min_seats} to {RULES.max_seats} bots, "
                         f"got {args.table_size}")
    if args.table_size > len(bots):
        raise UsageError(f"--table-size: {args.table_size} is more than the {len(bots)} bots chosen "
                         f"({', '.join(sorted(bots))})")
    options = tournament_options(args)
    seed, bot_seed = league_seeds(args)
    with contextlib.ExitStack() as stack:
        bar: list = []

        def on_plan(n: int) -> None:
            bar.append(stack.enter_context(progress(n, show_progress(args))))

        report = run_league(bots, args.table_size, args.tournaments, seed, bot_seed, options, args.store, backend,
                            args.jobs, args.address, on_plan=on_plan,
                            on_done=lambda t: bar[0](f"set {t['set'] + 1}"))
    if args.json_out is not None:
        write_json_report(args.json_out, report)
    if args.html is not None:
        write_html(args.html, report)
    with contextlib.redirect_stdout(text_stream(args.json_out)):
        print_report(report)
    return 0
