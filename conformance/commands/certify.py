"""``holdem-cert certify``: the main job (see conformance/certify.py)."""
from __future__ import annotations

import sys
from pathlib import Path

from ..certify import CertifyOptions, run as run_certify
from ..engine_cert import FAMILIES
from ..errors import UsageError
from ..resources import default_roster

NAME = "certify"
HELP = "certify the engine, the roster and every rostered bot; play a showcase; write a report directory"


def configure(parser) -> None:
    parser.add_argument("--engine", type=Path, metavar="ENGINE.js", help="the engine (default: the bundled one)")
    parser.add_argument("--roster", type=Path, default=default_roster(), metavar="bots.json",
                        help="the roster (default: ./bots.json, else the bundled house roster)")
    parser.add_argument("--report", type=Path, default=Path("report"), metavar="DIR",
                        help="the report directory (default: report/): summary.json, junit.xml, index.html")
    parser.add_argument("--seed", type=int, default=2024, help="the showcase's deck seed")
    parser.add_argument("--bot-seed", type=int, default=7, help="botSeed for the showcase and the bot batteries (R21)")
    parser.add_argument("--hands", type=int, default=300, help="the showcase's hand cap (default 300)")
    parser.add_argument("--family", action="append", choices=FAMILIES, metavar="F",
                        help="limit the engine certification to these vector families")


def run(args) -> int:
    if not args.roster.is_file():
        raise UsageError(f"--roster: {args.roster} does not exist")
    if args.engine is not None and not args.engine.is_file():
        raise UsageError(f"--engine: {args.engine} does not exist")
    if args.hands < 1:
        raise UsageError(f"--hands: must be at least 1, got {args.hands}")
    if not 0 <= args.bot_seed <= 2**32 - 1:
        raise UsageError(f"--bot-seed: must be an unsigned 32-bit integer, got {args.bot_seed}")
    options = CertifyOptions(engine=args.engine, roster=args.roster, report_dir=args.report, seed=args.seed,
                             bot_seed=args.bot_seed, showcase_hands=args.hands,
                             families=tuple(args.family or FAMILIES))
    summary = run_certify(options, say=lambda line: print(line, file=sys.stderr))
    engine = summary["engine"]
    counts = {k: sum(f[k] for f in engine["families"].values()) for k in ("passed", "failed", "divergent", "skipped")}
    print(f"engine: {'certified' if engine['certified'] else 'NOT certified'} "
          f"({counts['passed']} passed, {counts['failed']} failed, {counts['divergent']} divergent, {counts['skipped']} skipped)")
    print(f"roster: {'clean' if summary['roster']['ok'] else 'problems found'}")
    for bot in summary["bots"]:
        print(f"bot {bot['id']}: {bot['verdict']}")
    if summary["showcase"]:
        places = ", ".join(f"{s['label']} {s['place']}" for s in summary["showcase"]["seats"])
        print(f"showcase: {summary['showcase']['hands']} hands; places: {places}")
    print(f"report: {args.report}/index.html")
    print(f"certify: {'CERTIFIED' if summary['certified'] else 'NOT CERTIFIED'}")
    return 0 if summary["certified"] else 1
