"""``holdem-cert play``: one tournament of roster bots, run as the arena runs it.

Each seat gets its own worker (even the same bot twice, with its own R21 seed), on node (V8) by
default where it is installed, else QuickJS (``--bot-host``);
the reference deals and settles; contract v1's Timing rules apply (or holdem-sng-3-v4's
clock, timeouts and auto-fold with ``--ruleset holdem-sng-3-v4``). Seeds not given are
drawn at random, independently, and printed. Exit 0 when the tournament was played,
2 on a usage or I/O error.
"""
from __future__ import annotations

import argparse
import contextlib
import secrets
import sys
from contextlib import nullcontext
from pathlib import Path

from reference.ruleset import RULESETS, get_ruleset
from reference.tournament import Tournament

from conformance.arena.play import play, select_bots, standings_json
from conformance.cli.bot_host_option import add_bot_host_option, chosen_bot_host
from conformance.cli.argtypes import add_quiet_option, at_least_one, milliseconds, show_progress, uint32, write_json_report
from conformance.harness.runner import CATEGORIES, RunnerOptions
from conformance.outfiles import text_stream
from conformance.resources import default_roster

NAME = "play"
HELP = "play one tournament of roster bots as the arena does (worker per seat, deadlines, fallbacks)"


def bot_ids(text: str) -> list[str]:
    ids = [part.strip() for part in text.split(",")]
    if not all(ids):
        raise argparse.ArgumentTypeError(f"expected roster ids separated by commas, got {text!r}")
    return ids


def add_seed_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=uint32, metavar="N",
                        help="deck seed, unsigned 32-bit (default: drawn at random and printed)")
    parser.add_argument("--bot-seed", type=uint32, metavar="M",
                        help="botSeed for the workers' Math.random (R21), independent of the deck seed "
                        "(default: drawn at random and printed)")


def drawn_seeds(args: argparse.Namespace) -> tuple[int, int]:
    """The seeds given, or fresh ones drawn independently of each other (and said on stderr)."""
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    bot_seed = args.bot_seed if args.bot_seed is not None else secrets.randbits(32)
    if args.seed is None or args.bot_seed is None:
        print(f"holdem-cert: seeds --seed {seed} --bot-seed {bot_seed}", file=sys.stderr)
    return seed, bot_seed


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--roster", type=Path, default=default_roster(), metavar="BOTS_JSON",
                        help="the roster (default: ./bots.json, else the bundled house roster)")
    parser.add_argument("--bots", type=bot_ids, metavar="ID,ID,...",
                        help="roster ids in seat order; an id may repeat (default: every roster bot once)")
    add_seed_arguments(parser)
    parser.add_argument("--hands", type=at_least_one, metavar="N",
                        help="hand cap (default: the ruleset's: 300 in contract-v1, none in holdem-sng-3-v4)")
    parser.add_argument("--ruleset", choices=sorted(RULESETS), default="contract-v1",
                        help="reference ruleset (default contract-v1)")
    parser.add_argument("--decision-ms", type=milliseconds, metavar="N",
                        help="decision deadline (default: the ruleset's clock, 1000 or 15000 ms)")
    parser.add_argument("--init-ms", type=milliseconds, metavar="N",
                        help="initialisation deadline (default: the ruleset's, 5000 ms)")
    parser.add_argument("--json", dest="json_out", type=Path, metavar="OUT",
                        help="write the standings to OUT ('-': standard output)")
    parser.add_argument("--transcript", type=Path, metavar="OUT.jsonl",
                        help="record seeds, hashes, options and every decision (see 'holdem-cert replay')")
    add_bot_host_option(parser)
    add_quiet_option(parser)


def runner_options(args: argparse.Namespace) -> RunnerOptions:
    rules = get_ruleset(args.ruleset)
    return RunnerOptions(init_ms=args.init_ms or rules.init_time_limit_ms, decision_ms=args.decision_ms,
                         tournament={} if args.hands is None else {"max_hands": args.hands}, ruleset=args.ruleset,
                         bot_host=chosen_bot_host(args).name)


def _errors(row: dict) -> str:
    parts = [f"{row['errors'][c]} {c}" for c in CATEGORIES if row["errors"][c]]
    return ", ".join(parts) if parts else "0"


def print_standings(report: dict) -> None:
    o = report["options"]
    print(f"{o['ruleset']}: {len(report['standings'])} seats, {report['hands']} hands, "
          f"{report['decisions']} decisions; seed {report['seed']}, bot seed {report['botSeed']}")
    rows = report["standings"]
    width = max(len(r["bot"]) for r in rows)
    print(f"{'place':>5}  seat  {'bot':<{width}}  {'chips':>7}  errors")
    for r in rows:
        extra = "  auto-folded" if r.get("autoFolded") else ""
        gone = f"  (worker terminated: {r['terminated']['reason']})" if r["terminated"] else ""
        print(f"{r['place']:>5}  {r['id']:<4}  {r['bot']:<{width}}  {r['chips']:>7}  {_errors(r)}{extra}{gone}")
    print(f"digest {report['digest']}")


class LiveTable:
    """The live display on stderr: hand, level and blinds, chips per seat (a terminal only)."""

    def __init__(self, bots: list[str], max_hands: int | None):
        from rich.console import Console
        from rich.live import Live

        self.bots, self.max_hands = bots, max_hands
        self.live = Live(self._table(None), console=Console(stderr=True), refresh_per_second=8, transient=True)

    def _table(self, hand: dict | None):
        from rich.table import Table

        if hand is None:
            title = "loading the bots"
        else:
            cap = f"/{self.max_hands}" if self.max_hands else ""
            small, big = hand["blinds"]
            title = f"hand {hand['handNumber']}{cap} · level {hand['level'] + 1} · blinds {small}/{big}"
        table = Table(title=title, title_justify="left", min_width=len(title))
        for column, justify in (("seat", "left"), ("bot", "left"), ("chips", "right")):
            table.add_column(column, justify=justify)
        for s, bot in enumerate(self.bots):
            chips = "" if hand is None else f"{hand['endStacks'][s]:,}" if hand["endStacks"][s] else "out"
            table.add_row(f"s{s + 1}", bot, chips)
        return table

    def update(self, hand: dict) -> None:
        self.live.update(self._table(hand))

    def __enter__(self) -> LiveTable:
        self.live.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.live.__exit__(*exc)


def run(args: argparse.Namespace) -> int:
    options = runner_options(args)
    bots = select_bots(args.roster, args.bots, args.ruleset)
    seed, bot_seed = drawn_seeds(args)
    display = None
    if show_progress(args):
        by_seat = [""] * len(bots)  # a ruleset may seat the bots by the seed (R23)
        for k, seat in enumerate(Tournament([b.spec.seat_name for b in bots], seed, ruleset=args.ruleset).seat_of):
            by_seat[seat] = bots[k].spec.id
        display = LiveTable(by_seat, args.hands or get_ruleset(args.ruleset).max_hands)
    with display or nullcontext():
        result = play(args.roster, bots, seed, bot_seed, options, args.transcript,
                      on_hand=display.update if display else None)
    report = standings_json(result, options)
    if args.json_out is not None:
        write_json_report(args.json_out, report)
    with contextlib.redirect_stdout(text_stream(args.json_out)):
        print_standings(report)
    return 0
