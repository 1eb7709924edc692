"""``holdem-cert roster [bots.json] [--json OUT]``: lint a bot roster (contract v1, Submission).

Exit 0 when the roster has no errors (warnings allowed), 1 when it has errors,
2 when the roster cannot be read or the report cannot be written.
"""
from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from conformance.cli.argtypes import write_json_report
from conformance.errors import UsageError
from conformance.harness.roster import RosterReport, lint_roster
from conformance.outfiles import text_stream
from conformance.report.formats import plural
from conformance.resources import default_roster

NAME = "roster"
HELP = "check bots.json: fields, ids, file paths and byte counts"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("roster", nargs="?", default=default_roster(), type=Path,
                        help="the roster to check (default: ./bots.json, else the bundled house roster)")
    parser.add_argument("--json", dest="json_out", metavar="OUT", type=Path,
                        help="also write the problems to OUT as JSON ('-': standard output)")


def _summary(report: RosterReport) -> str:
    entries = plural(report.entries, "entry", "entries")
    if not report.problems:
        return f"{report.path}: OK, {entries}"
    verdict = "OK" if report.ok else "FAILED"
    return (f"{report.path}: {verdict}, {plural(len(report.errors), 'error')}, "
            f"{plural(len(report.warnings), 'warning')} in {entries}")


def _print_plain(report: RosterReport) -> None:
    for p in report.problems:
        print(f"{p.severity}: {p.entry_id or '-'}: {p.field}: {p.message}")
    print(_summary(report))


def _print_rich(report: RosterReport) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console()
    if report.problems:
        table = Table(show_lines=False)
        for column in ("severity", "id", "field", "message"):  # ids whole; long messages may fold
            table.add_column(column, **({"overflow": "fold"} if column == "message" else {"no_wrap": True}))
        for p in report.problems:
            # Text, not markup: messages quote patterns such as [a-z0-9].
            style = "red" if p.severity == "error" else "yellow"
            table.add_row(Text(p.severity, style=style), Text(p.entry_id or "-"),
                          Text(p.field), Text(p.message))
        console.print(table)
    console.print(_summary(report), style="green" if report.ok else "red bold", markup=False,
                  highlight=False)


def _report_json(report: RosterReport) -> dict:
    return {
        "roster": str(report.path),
        "ok": report.ok,
        "problems": [{"id": p.entry_id, "field": p.field, "message": p.message,
                      "severity": p.severity} for p in report.problems],
    }


def run(args: argparse.Namespace) -> int:
    path: Path = args.roster
    try:
        report = lint_roster(path)
    except OSError as exc:
        raise UsageError(f"cannot read roster {path}: {exc.strerror or exc}") from exc
    with contextlib.redirect_stdout(text_stream(args.json_out)):
        (_print_rich if sys.stdout.isatty() else _print_plain)(report)
    if args.json_out is not None:
        write_json_report(args.json_out, _report_json(report))
    return 0 if report.ok else 1
