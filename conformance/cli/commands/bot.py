"""``holdem-cert bot FILE.js``: certify one bot against bot contract v1.

Static lint, loading in the bot's worker (``--host``: node's V8 by default where node is installed,
as the arena's browsers run it, else QuickJS; said on stderr), a battery of decision states judged by
the reference's return-value rules, contract violations, determinism, smoke
tournaments against the house samples and the bot's play-style profile
(:mod:`conformance.bots.bot_cert`). Exit 0 when certified (warnings included), 1 when
rejected, 3 when inconclusive (a part was cut before it was judged whole: docs/bot-certification.md,
Bounds), 2 on a usage or I/O error.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections import Counter
from pathlib import Path

from reference.errors import OptionError

from conformance.bots import bounds
from conformance.bots.bot_cert import (SMOKE_DECK_SEEDS, CertOptions, CertReport, certify_file, find_state,
                        rerun_state, state_file, state_file_name)
from conformance.cli.bot_host_option import add_bot_host_option, chosen_bot_host
from conformance.cli.argtypes import (add_quiet_option, at_least_one, count, milliseconds, seconds, show_progress,
                                     uint32, write_json_report)
from conformance.errors import UsageError
from conformance.outfiles import text_stream
from conformance.report.formats import plural
from conformance.vectors import schemas

NAME = "bot"
HELP = "certify a bot script: lint, battery (in V8 or QuickJS), determinism, smoke tournaments, profile"


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
                        "of the tournament seats; also draws the battery's and the full-length table's seat names "
                        "(R36); deck seeds are fixed (default 1)")
    parser.add_argument("--decision-ms", type=milliseconds, default=1000, metavar="N",
                        help="decision deadline in ms (default 1000, the arena's)")
    parser.add_argument("--init-ms", type=milliseconds, default=5000, metavar="N",
                        help="initialisation deadline in ms (default 5000, the arena's)")
    parser.add_argument("--states", type=count, default=200, metavar="N",
                        help="random generated decision states in the battery (default 200; the stratified "
                        "--kinds states come on top)")
    parser.add_argument("--kinds", type=count, default=20, metavar="N",
                        help="at least N battery states of each decision kind (default 20; see the report's kinds)")
    parser.add_argument("--state", metavar="ID_OR_FILE",
                        help="rerun one state instead of certifying: a battery state id from a report (same "
                        "--states/--kinds/--seed) or a JSON file holding a state; prints the state, the answer "
                        "and why it is accepted or not; exit 0 when accepted, 1 when not")
    parser.add_argument("--save-failed", type=Path, metavar="DIR",
                        help="write the first failing state of each battery error category to DIR/<id>.json "
                        "(state, answer, numbers), for --state FILE")
    add_bot_host_option(parser, "--host")
    parser.add_argument("--no-node", dest="node", action="store_false",
                        help="deprecated: --host quickjs, without timing the bot in node (V8) even when node is "
                        "installed: timing verdicts then rest on QuickJS alone (docs/bot-certification.md, "
                        "Timing verdicts)")
    parser.add_argument("--hands", type=at_least_one, default=60, metavar="N",
                        help="hand cap of each smoke tournament (default 60)")
    parser.add_argument("--tables", type=_tables, default=(2, 6, 9), metavar="2,6,9",
                        help="seat counts of the smoke tournaments (default 2,6,9; empty: none)")
    parser.add_argument("--full-hands", type=count, default=300, metavar="N",
                        help="hand cap of the full-length table: nine copies of the bot, seat names drawn "
                             "from --seed, decision times per 50 hands (default 300, the contract's; 0: none)")
    parser.add_argument("--full-decisions", type=at_least_one, default=bounds.FULL_TABLE_DECISIONS, metavar="N",
                        help="decision cap of the full-length table: it stops there whatever its hand count (a "
                             f"passive bot takes about 120 decisions a hand; default {bounds.FULL_TABLE_DECISIONS}; "
                             "the report says where it stopped)")
    parser.add_argument("--time-budget", type=seconds, default=bounds.TIME_BUDGET_S, metavar="S",
                        help=f"budget in CPU seconds, the bot's and the judge's together (default "
                             f"{bounds.TIME_BUDGET_S:g}): past their share of it, the stages start no more decisions "
                             f"(bound/time); a wall-clock backstop of {bounds.BACKSTOP_FACTOR:g}x each share "
                             "cuts only on a machine too loaded to judge (bound/load: the machine, not the "
                             "bot); a cut makes the verdict inconclusive (exit 3), naming what was not run and the "
                             "budget estimated to finish it; never certified, never rejected for it "
                             "(docs/bot-certification.md, Bounds)")
    add_quiet_option(parser)


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f} ms"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def summary_lines(report: CertReport) -> list[str]:
    """The report in a few plain lines (the JSON report has everything)."""
    o = report.options
    lines = []
    count = Counter(s["severity"] for s in report.static)
    lines.append(f"static: {plural(count['error'], 'error')}, {plural(count['warning'], 'warning')}"
                 + (f", {count['info']} info (allowed Web-Worker members used, R30)" if count["info"] else ""))
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
        lines.append(f"  decision time in {o.host_label}: p50 {_ms(t['wallP50'])}, p95 {_ms(t['wallP95'])}, "
                     f"max {_ms(t['wallMax'])} (deadline {o.decision_ms:g} ms)")
        missing = [f for f, n in b["coverage"].items() if n == 0]
        ran = "" if not b["notRun"] else f" (of the {b['answered']} states that ran)"
        lines.append("  coverage: " + ("every feature" if not missing else "missing " + ", ".join(missing)) + ran)
        lines.append("  states per decision kind (that ran): "
                     + ", ".join(f"{k} {n}" if n == b["kinds"][k] else f"{k} {n}/{b['kinds'][k]}"
                                 for k, n in b["kindsRan"].items()))
        for category, e in b["errors"].items():
            lines.append(f"  {category}: first at state {e['example']}; rerun it with "
                         f"`holdem-cert bot {report.file} --state {e['example']}` (the state is in the JSON "
                         "report under battery.errors)")
    if report.timing is not None:
        tm = report.timing
        node = tm["nodeBattery"]
        if tm.get("host") == "node":
            lines.append("  timed in V8 directly (the host): wall time less run-queue wait (R33)")
        elif node is None:
            lines.append("  node (V8): not used (not installed or --no-node); timing verdicts rest on QuickJS alone")
        else:
            t = node["timing"]
            lines.append(f"  decision time in node (V8): p50 {_ms(t['wallP50'])}, p95 {_ms(t['wallP95'])}, "
                         f"max {_ms(t['wallMax'])} over {node['ran']} states, late {len(node['late'])}")
        verdicts = Counter(r["verdict"] for r in tm["retimed"])
        if tm["retimed"]:
            lines.append(f"  re-timed (median of {tm['rule']['repeats']}): {len(tm['retimed'])} states: "
                         + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items())))
    if report.determinism is not None:
        d = report.determinism
        same = "identical" if d["difference"] is None else f"differ at {d['difference']['state']}"
        lines.append(f"determinism: {d['compared']} answers compared in a second worker, {same}")
    if report.environment is not None:
        env = report.environment
        changed = ", ".join(env["changed"] + env.get("intrinsicsChanged", [])) or "nothing"
        lines.append(f"environment: {', '.join(env['checked'])} and the standard built-ins checked; "
                     f"changed: {changed}")
    for t in report.tournaments:
        errs = sum(t["errors"]["s1"].values())
        iso = "ok" if t["isolation"]["firstMismatch"] is None else f"MISMATCH at {t['isolation']['firstMismatch']}"
        lines.append(f"table of {t['seats']}: {t['hands']} hands, {t['decisions']} decisions, bot errors {errs}, "
                     f"p95 {_ms(t['timing']['wallP95'])}, state isolation {iso}")
    if report.full_table is not None:
        t = report.full_table
        ranges = ", ".join(f"{r['hands']} {_ms(r['wallP95'])}" for r in t["timingByHands"])
        cut = "" if t["cut"] is None else f" (stopped by its {t['cut']['reason']} bound in hand {t['cut']['hand']})"
        lines.append(f"full-length table of 9: {t['hands']} hands, {t['decisions']} decisions{cut}, errors "
                     f"{sum(t['errors'].values())}; p95 by hands: {ranges}")
    if report.profile is not None:
        p = report.profile
        af = "-" if p["aggressionFactor"] is None else f"{p['aggressionFactor']:.2f}"
        lines.append(f"profile: VPIP {_pct(p['vpip'])}, PFR {_pct(p['pfr'])}, AF {af}, "
                     f"all-in {_pct(p['allInRate'])} over {p['hands']} hands")
    lines += [f"skipped: {s}" for s in report.skipped]
    cuts = report.to_json()["cuts"]
    if cuts is not None:  # what was not judged (the reasons say why)
        budget = cuts["timeBudgetS"]
        lines.append("not run: " + "; ".join(n["notRun"] for n in cuts["notRun"])
                     + (f" (about --time-budget {budget:g} would finish it)" if budget is not None else ""))
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
    print(f"note: {report.timing_note}")


def _print_rich(report: CertReport) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console()
    style = {"certified": "green bold", "certified with warnings": "yellow bold", "rejected": "red bold",
             "inconclusive": "magenta bold"}
    console.print(Text(f"{report.file}: {report.verdict}", style=style[report.verdict]))
    for line in summary_lines(report):
        console.print(Text(f"  {line}"))
    if report.reasons:
        table = Table()
        for column in ("severity", "reason", "message", "where"):  # ids whole; long messages may fold
            table.add_column(column, **({"no_wrap": True} if column in ("severity", "reason") else {"overflow": "fold"}))
        for r in report.reasons:
            colour = {"error": "red", "inconclusive": "magenta"}.get(r.severity, "yellow")
            table.add_row(Text(r.severity, style=colour),
                          Text(f"{r.category}/{r.code}"), Text(r.message), Text(r.example or ""))
        console.print(table)
    console.print(Text(f"note: {report.timing_note}", style="dim"))


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


def _rerun(args: argparse.Namespace, options: CertOptions) -> int:
    """``--state``: one state, printed with the bot's answer and its judgement."""
    given = Path(args.state)
    try:
        if given.suffix == ".json" and given.is_file():
            state = json.loads(given.read_text(encoding="utf-8"))
            if isinstance(state, dict) and isinstance(state.get("state"), dict):
                state = state["state"]  # a report's error entry or a saved rerun
            problems = schemas.errors("state", state)
            if problems:
                raise UsageError(f"{args.state}: not a decision state: {'; '.join(problems)}")
        else:
            state = find_state(options, args.state)
        result = rerun_state(args.file.read_text(encoding="utf-8"), state, options, args.state)
    except OptionError as exc:
        raise UsageError(str(exc)) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {args.state}: {exc}") from exc
    except ValueError as exc:
        raise UsageError(f"{args.state}: not valid JSON ({exc})") from exc
    print(json.dumps(result["state"], indent=2, ensure_ascii=False))
    if result["load"] != "ok":
        print(f"load: {result['load']}: {json.dumps(result['detail'])}")
        return 1
    print(f"kinds: {', '.join(result['kinds'])}")
    print(f"numbers: {result['numbers']}")
    print(f"answer: {result['answerText'] if result['answerText'] is not None else result['outcome']} "
          f"in {result['wallMs']:.1f} ms")
    if result["error"] is None:
        print("verdict: accepted")
        return 0
    print(f"verdict: {result['error']} ({result['code']}): {result['detail']}")
    return 1


def _save_failed(report: CertReport, folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot write to {folder}: {exc.strerror or exc}") from exc
    for category, e in report.battery["errors"].items():
        path = folder / state_file_name(e["example"])
        write_json_report(path, state_file(category, e))
        print(f"saved: {path} (rerun: holdem-cert bot {report.file} --state {path})")


def chosen_host(args: argparse.Namespace) -> str:
    """``--host`` (``--no-node``: the deprecated ``--host quickjs``), or the default, said on stderr."""
    if not args.node:
        if args.bot_host == "node":
            raise UsageError("--no-node contradicts --host node (--no-node is the deprecated --host quickjs)")
        print("note: --no-node is deprecated: it means --host quickjs (without node's re-timing)", file=sys.stderr)
        args.bot_host = "quickjs"
    return chosen_bot_host(args, "--host").name


def run(args: argparse.Namespace) -> int:
    if not args.file.is_file():
        raise UsageError(f"cannot read {args.file}: not a file")
    options = CertOptions(bot_seed=args.seed, init_ms=args.init_ms, decision_ms=args.decision_ms,
                          generated_states=args.states, kind_states=args.kinds, smoke_seats=args.tables,
                          smoke_max_hands=args.hands, node=args.node, full_table_hands=args.full_hands,
                          full_table_decisions=args.full_decisions, time_budget_s=args.time_budget,
                          host=chosen_host(args))
    if not args.file.is_file():
        raise UsageError(f"cannot read {args.file}: not a file")
    if args.state is not None:
        return _rerun(args, options)
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
        if args.save_failed is not None and report.battery is not None:
            _save_failed(report, args.save_failed)
    if args.json_out is not None:
        write_json_report(args.json_out, report.to_json())
    return report.exit_code
