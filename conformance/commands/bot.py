"""``holdem-cert bot FILE.js``: certify one bot against bot contract v1.

Static lint, loading in the QuickJS worker, a battery of decision states judged by
the reference's return-value rules, contract violations, determinism, smoke
tournaments against the house samples and the bot's play-style profile
(:mod:`conformance.bot_cert`). Exit 0 when certified (warnings included), 1 when
rejected, 2 on a usage or I/O error.
"""
from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from ..argtypes import add_quiet_option, at_least_one, count, milliseconds, show_progress, uint32, write_json_report
from ..bot_cert import SMOKE_DECK_SEEDS, TIMING_NOTE, CertOptions, CertReport, certify_file
from ..errors import UsageError
from ..outfiles import text_stream
from ..report import plural

NAME = "bot"
HELP = "certify a bot script: lint, QuickJS battery, determinism, smoke tournaments, profile"


def _tables(text: str) -> tuple[int, ...]:
    try:
        tables = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seat counts such as 2,6,9, got {text!r}") from None
    for n in tables:
        if n not in SMOKE_DECK_SEEDS:
            raise argparse.ArgumentTypeError(f"{n} seats: smoke tables have {', '.join(map(str, SMOKE_DECK_SEEDS))}")
    return tables


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="the bot script (bots/<id>.js)")
    parser.add_argument("--roster", type=Path, metavar="BOTS_JSON",
                        help="also check the bot's entry (matched by file) in this roster")
    parser.add_argument("--json", dest="json_out", type=Path, metavar="OUT",
                        help="write the full report to OUT ('-': standard output)")
    parser.add_argument("--seed", type=uint32, default=1, metavar="N",
                        help="botSeed (unsigned 32-bit): Math.random of the battery worker and, by ruling R21, "
                        "of the tournament seats; deck seeds are fixed (default 1)")
    parser.add_argument("--decision-ms", type=milliseconds, default=1000, metavar="N",
                        help="decision deadline in ms (default 1000, the arena's)")
    parser.add_argument("--init-ms", type=milliseconds, default=5000, metavar="N",
                        help="initialisation deadline in ms (default 5000, the arena's)")
    parser.add_argument("--states", type=count, default=300, metavar="N",
                        help="generated decision states in the battery (default 300)")
    parser.add_argument("--hands", type=at_least_one, default=60, metavar="N",
                        help="hand cap of each smoke tournament (default 60)")
    parser.add_argument("--tables", type=_tables, default=(2, 6, 9), metavar="2,6,9",
                        help="seat counts of the smoke tournaments (default 2,6,9; empty: none)")
    add_quiet_option(parser)


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f} ms"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def summary_lines(report: CertReport) -> list[str]:
    """The report in a few plain lines (the JSON report has everything)."""
    o = report.options
    lines = []
    errors = sum(1 for s in report.static if s["severity"] == "error")
    lines.append(f"static: {plural(errors, 'error')}, {plural(len(report.static) - errors, 'warning')}")
    if report.load is not None:
        load = report.load
        if load["outcome"] == "ok":
            name = f'"{load["exportName"]}"' if load["exportName"] is not None else "no name"
            lines.append(f"load: ok in {_ms(load['wallMs'])} ({load['shape']} export, {name})")
        else:
            lines.append(f"load: {load['outcome']}")
    if report.battery is not None:
        b = report.battery
        sources = ", ".join(f"{n} {k}" for k, n in b["sources"].items())
        errs = ", ".join(f"{k} {e['count']}" for k, e in b["errors"].items()) or "none"
        lines.append(f"battery: {b['states']} states ({sources}), {b['answered']} answered; errors: {errs}")
        t = b["timing"]
        lines.append(f"  decision time in QuickJS: p50 {_ms(t['wallP50'])}, p95 {_ms(t['wallP95'])}, "
                     f"max {_ms(t['wallMax'])} (deadline {o.decision_ms:g} ms)")
        missing = [f for f, n in b["coverage"].items() if n == 0]
        lines.append("  coverage: " + ("every feature" if not missing else "missing " + ", ".join(missing)))
    if report.determinism is not None:
        d = report.determinism
        same = "identical" if d["difference"] is None else f"differ at {d['difference']['state']}"
        lines.append(f"determinism: {d['compared']} answers compared in a second worker, {same}")
    if report.environment is not None:
        changed = ", ".join(report.environment["changed"]) or "nothing"
        lines.append(f"environment: {', '.join(report.environment['checked'])} checked; changed: {changed}")
    for t in report.tournaments:
        errs = sum(t["errors"]["s1"].values())
        iso = "ok" if t["isolation"]["firstMismatch"] is None else f"MISMATCH at {t['isolation']['firstMismatch']}"
        lines.append(f"table of {t['seats']}: {t['hands']} hands, {t['decisions']} decisions, bot errors {errs}, "
                     f"p95 {_ms(t['timing']['wallP95'])}, state isolation {iso}")
    if report.profile is not None:
        p = report.profile
        af = "-" if p["aggressionFactor"] is None else f"{p['aggressionFactor']:.2f}"
        lines.append(f"profile: VPIP {_pct(p['vpip'])}, PFR {_pct(p['pfr'])}, AF {af}, "
                     f"all-in {_pct(p['allInRate'])} over {p['hands']} hands")
    lines += [f"skipped: {s}" for s in report.skipped]
    return lines


def _reason_line(r) -> str:
    where = f" [{r.example}]" if r.example else ""
    return f"{r.severity}: {r.category}/{r.code}: {r.message}{where}"


def _print_plain(report: CertReport) -> None:
    print(f"{report.file}: {report.verdict}")
    for line in summary_lines(report):
        print(f"  {line}")
    for r in report.reasons:
        print(_reason_line(r))
    print(f"note: {TIMING_NOTE}")


def _print_rich(report: CertReport) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console()
    style = {"certified": "green bold", "certified with warnings": "yellow bold", "rejected": "red bold"}
    console.print(Text(f"{report.file}: {report.verdict}", style=style[report.verdict]))
    for line in summary_lines(report):
        console.print(Text(f"  {line}"))
    if report.reasons:
        table = Table()
        for column in ("severity", "reason", "message", "where"):  # ids whole; long messages may fold
            table.add_column(column, **({"no_wrap": True} if column in ("severity", "reason") else {"overflow": "fold"}))
        for r in report.reasons:
            table.add_row(Text(r.severity, style="red" if r.severity == "error" else "yellow"),
                          Text(f"{r.category}/{r.code}"), Text(r.message), Text(r.example or ""))
        console.print(table)
    console.print(Text(f"note: {TIMING_NOTE}", style="dim"))


class _RichProgress:
    """A progress bar per stage on stderr (only when stderr is a terminal)."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import Progress

        self.progress = Progress(console=Console(stderr=True), transient=True)
        self.tasks: dict[str, int] = {}

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        if stage not in self.tasks:
            self.tasks[stage] = self.progress.add_task(stage, total=total)
        self.progress.update(self.tasks[stage], completed=done)


def run(args: argparse.Namespace) -> int:
    options = CertOptions(bot_seed=args.seed, init_ms=args.init_ms, decision_ms=args.decision_ms,
                          generated_states=args.states, smoke_seats=args.tables, smoke_max_hands=args.hands)
    if not args.file.is_file():
        raise UsageError(f"cannot read {args.file}: not a file")
    progress = _RichProgress() if show_progress(args) else None
    try:
        if progress is not None:
            with progress.progress:
                report = certify_file(args.file, options, roster=args.roster, progress=progress)
        else:
            report = certify_file(args.file, options, roster=args.roster)
    except OSError as exc:
        raise UsageError(f"cannot read {exc.filename or args.file}: {exc.strerror or exc}") from exc
    with contextlib.redirect_stdout(text_stream(args.json_out)):
        (_print_rich if sys.stdout.isatty() else _print_plain)(report)
    if args.json_out is not None:
        write_json_report(args.json_out, report.to_json())
    return 1 if report.verdict == "rejected" else 0
