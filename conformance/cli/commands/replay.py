"""``holdem-cert replay TRANSCRIPT``: run a recorded tournament again and compare.

The same bots (refused when a file no longer has its recorded sha256), seeds and options;
every decision's deterministic fields are compared (state hash: the deck and the table;
the answer: the bot and its Math.random stream; the action applied), then the seats and
standings. A recorded late answer is replayed as late without asking the worker (see
:mod:`conformance.arena.transcript`). Exit 0 when everything matches, 1 at a divergence (the
first one is printed), 2 on a usage or I/O error or a changed bot.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from conformance.arena import transcript
from conformance.cli.argtypes import milliseconds

NAME = "replay"
HELP = "re-run a transcript of 'holdem-cert play' and confirm it, or report the first divergence"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("transcript", type=Path, help="a transcript written by 'holdem-cert play --transcript'")
    parser.add_argument("--roster", type=Path, metavar="BOTS_JSON",
                        help="the roster the recorded bot files are relative to (default: the recorded path)")
    parser.add_argument("--decision-ms", type=milliseconds, metavar="N",
                        help="a longer decision deadline for a slower machine (default: the recorded one); "
                        "recorded late answers stay late")


def _show(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def run(args: argparse.Namespace) -> int:
    recorded = transcript.read(args.transcript)
    result = transcript.replay(recorded, args.roster, args.decision_ms)
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    d = result.divergence
    if d is None:
        digest = "identical" if result.digest_matches else \
            "differs, in messages only (deadline wording, crash texts): nothing compared differs"
        print(f"{args.transcript}: confirmed: {result.decisions} decisions, the same decks, bot randomness, "
              f"actions, seats and standings; digest {digest}")
        return 0
    at = f"decision {d.index} ({d.where})" if d.index is not None else d.where
    print(f"{args.transcript}: DIVERGED after {result.decisions} matching decisions")
    print(f"first divergence at {at}: {d.field}")
    print(f"  expected: {_show(d.expected)}")
    print(f"  actual:   {_show(d.actual)}")
    if d.note:
        print(f"  note: {d.note}")
    return 1
