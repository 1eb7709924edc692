"""``--bot-host`` (``play``, ``match``, ``league``, ``certify``) and ``bot --host``: where the bots
run, node (V8, as the arena's browsers) or quickjs; by default node wherever it is installed, else
QuickJS, said on stderr (conformance.host.bot_host; issue #35)."""
from __future__ import annotations

import argparse
import sys

from conformance.host import bot_host

HELP = ("where the bots run: node (V8, as the arena's browsers run them; a classic Web Worker's global, "
        "ruling R39) or quickjs (default: node where node 20 or later is installed, else quickjs; "
        "said on stderr and recorded in what is written)")


def add_bot_host_option(parser: argparse.ArgumentParser, flag: str = "--bot-host") -> None:
    parser.add_argument(flag, dest="bot_host", choices=list(bot_host.HOSTS), metavar="HOST", help=HELP)


def chosen_bot_host(args: argparse.Namespace, flag: str = "--bot-host", quiet: bool = False) -> bot_host.BotHost:
    """The host the options name (a usage error for node where there is none), said on stderr."""
    host = bot_host.choose(getattr(args, "bot_host", None), flag)
    if not quiet:
        print(f"note: bots run on {host.label} ({host.note})", file=sys.stderr)
    return host
