"""``holdem-cert implementations``: certify every bundled implementation on the profiles it declares
and write the table (conformance/implementations). Deterministic: golden vectors and a fixed
number of fuzz games, no timings. ``--markdown FILE`` writes the Markdown table (docs/implementations.md);
with ``--check`` it compares instead and exits 1 when the file is stale."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conformance.cli.engine_choice import games_count
from conformance.errors import UsageError
from conformance.implementations import REGISTRY, certify_all, to_html, to_json, to_markdown
from conformance.implementations.registry import Unavailable
from conformance.implementations.table import FUZZ_GAMES, with_readme_table
from conformance.outfiles import write_text

NAME = "implementations"
HELP = "certify every bundled implementation on its declared profiles and write the table"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", dest="json_out", type=Path, metavar="OUT", help="write the table as JSON to OUT")
    parser.add_argument("--html", dest="html_dir", type=Path, metavar="DIR", help="write DIR/index.html")
    parser.add_argument("--markdown", type=Path, metavar="FILE",
                        help="write the Markdown table to FILE (docs/implementations.md)")
    parser.add_argument("--readme", type=Path, metavar="FILE",
                        help="replace the profile table between FILE's implementations markers (README.md)")
    parser.add_argument("--check", action="store_true",
                        help="with --markdown/--readme: compare the files with a fresh table instead of writing "
                             "them (exit 1 if stale)")
    parser.add_argument("--only", action="append", choices=[i.name for i in REGISTRY], metavar="NAME",
                        help="certify only this implementation (repeatable)")
    parser.add_argument("--fuzz-games", type=games_count, default=FUZZ_GAMES, metavar="N",
                        help=f"fixed fuzz games per implementation (default {FUZZ_GAMES})")
    parser.add_argument("--quiet", action="store_true", help="no line per implementation on stderr")


def run(args: argparse.Namespace) -> int:
    if args.check and args.markdown is None and args.readme is None:
        raise UsageError("--check needs --markdown FILE or --readme FILE (the files to compare)")
    if args.html_dir is not None and args.html_dir.exists() and not args.html_dir.is_dir():
        raise UsageError(f"{args.html_dir}: exists and is not a directory")
    if args.readme is not None and not args.readme.is_file():
        raise UsageError(f"--readme: {args.readme} is not a file")
    chosen = [i for i in REGISTRY if not args.only or i.name in args.only]
    try:
        table = certify_all(chosen, fuzz_games=args.fuzz_games,
                            say=(lambda line: None) if args.quiet else (lambda line: print(line, file=sys.stderr)))
    except Unavailable as exc:  # e.g. poker-ts without npm or a network: say so, certify nothing
        raise UsageError(f"{exc} (leave it out with --only for the others)") from None
    outputs = {}  # file -> the text it must hold
    if args.markdown is not None:
        outputs[args.markdown] = to_markdown(table, fuzz_games=args.fuzz_games)
    if args.readme is not None:
        try:
            outputs[args.readme] = with_readme_table(args.readme.read_text(encoding="utf-8"), table)
        except ValueError as exc:
            raise UsageError(f"--readme: {exc}") from None
    if args.json_out is not None:
        write_text(args.json_out, to_json(table))
    if args.html_dir is not None:
        args.html_dir.mkdir(parents=True, exist_ok=True)
        write_text(args.html_dir / "index.html", to_html(table))
    stale = []
    for path, text in outputs.items():
        if not args.check:
            write_text(path, text)
        elif (path.read_text(encoding="utf-8") if path.is_file() else None) != text:
            stale.append(path)
    for path in stale:
        print(f"{path} is stale: run 'holdem-cert implementations --markdown docs/implementations.md "
              "--readme README.md'")
    if args.check and not stale:
        print(f"{', '.join(map(str, outputs))}: fresh")
    if not outputs and args.json_out is None and args.html_dir is None:
        sys.stdout.write(to_markdown(table, fuzz_games=args.fuzz_games))
    return 1 if stale else 0
