"""``holdem-cert phh replay FILE_OR_DIR... [--json]``: replay PHH hand histories.

Exit 0 when no hand mismatched (unsupported hands do not fail the run), 1 otherwise;
a path that does not exist is a usage error (2).
"""
from __future__ import annotations

import argparse
import json
from collections import Counter

from conformance.arena.phh import MISMATCHED, UNSUPPORTED, replay_paths

NAME = "phh"
HELP = "Replay PHH hand histories through the reference engine and compare final stacks"


def configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="phh_action", metavar="ACTION")
    actions.required = True
    replay = actions.add_parser(
        "replay",
        help="replay PHH files (directories are searched for *.phh recursively)",
        description="Replay PHH files (directories are searched for *.phh recursively) and compare final stacks.",
    )
    replay.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    replay.add_argument("--json", action="store_true", help="print the per-hand results as JSON")


def run(args: argparse.Namespace) -> int:
    summary = replay_paths(args.paths)
    if args.json:
        print(json.dumps(summary.to_json(), indent=2))
    else:
        print(
            f"phh replay: {len(summary.hands)} hands: {summary.matched} matched, "
            f"{summary.mismatched} mismatched, {summary.unsupported} unsupported"
        )
        codes = Counter(h.code for h in summary.hands if h.status == UNSUPPORTED)
        if codes:
            print("unsupported: " + ", ".join(f"{code} {count}" for code, count in sorted(codes.items())))
        for h in summary.hands:
            if h.status == MISMATCHED:
                print(f"mismatched {h.file}: {h.reason}")
    return 1 if summary.mismatched else 0
