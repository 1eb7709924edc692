"""``holdem-cert certify``: the main job. Certify the engine (the bundled one by default) against
the golden vectors, lint the roster, certify every rostered bot, play a showcase tournament of
the roster, and write a report directory: ``summary.json``, ``junit.xml`` and ``index.html``.

Every run writes a whole report, whatever the verdict (an engine that does not load and a roster
that cannot be read are verdicts too): everything goes into a temporary sibling first, which then
takes the place of the old report, so an older report never survives a newer run.
"""
from __future__ import annotations

import contextlib
import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from reference.errors import HoldemError, OptionError

from conformance.bots.bot_cert import CertOptions, certify_file
from conformance.bots.slots import Slots
from conformance.harness.roster import MAX_ENTRIES, Problem, RosterReport, lint_roster, parse_roster, read_roster_bytes, unusable_fields
from conformance.harness.runner import BotSpec, RunnerOptions, bundled_engine, run_tournament
from conformance.judge.engine_cert import certify as certify_engine
from conformance.outfiles import replace_directory
from conformance.report import formats as engine_report
from conformance.report.formats import cause_lines, plural, run_causes
from conformance.report.html import PALETTE, render
from conformance.report.repro import attach as attach_repro, bot_repro, write_bot_states, write_files as write_repro_files
from conformance.report.repro import written_line as repro_line
from conformance.resources import default_roster
from conformance.vectors.vectorfile import CONTRACT_VERSION, GENERATOR
from conformance.report import coverage_page
from . import bot_pool
from .bot_pool import BotPool
from .engine_choice import EngineSpec, asked_profiles, attach_coverage, prepare

Say = Callable[[str], None]
TABLE_SEATS = 9  # contract v1: two to nine seats at the one table


@dataclass(frozen=True)
class CertifyOptions:
    engine: EngineSpec = EngineSpec()  # the bundled reference/js/poker-engine.js by default
    roster: Path = field(default_factory=default_roster)  # ./bots.json, else the house roster
    report_dir: Path = Path("report")
    seed: int = 2024  # the showcase's deck seed
    bot_seed: int = 7  # the showcase's and the bot batteries' botSeed (R21), never derived from seed
    showcase_hands: int = 300
    bot_options: CertOptions = CertOptions()
    jobs: int = 2  # bots certified side by side, each in a process of its own (1: one after the other, here)


def run(options: CertifyOptions, say: Say = lambda _: None, show_progress: bool = False) -> dict:
    """Do everything and write the report directory; returns the summary. ``say`` gets one line per
    result as it is known (the engine, the roster, each bot, the showcase)."""
    if options.report_dir.exists() and not options.report_dir.is_dir():
        raise OptionError("report", f"{options.report_dir} exists and is not a directory")
    chosen = prepare(options.engine)
    try:
        return _run(options, chosen, say, show_progress)
    except Exception as exc:  # an older report must not outlive a run that stopped: say why instead
        _write_stopped(options, str(exc) if isinstance(exc, HoldemError) else f"internal error: {exc}")
        raise


def _run(options: CertifyOptions, chosen, say: Say, show_progress: bool) -> dict:
    entries = _roster_entries(options.roster)
    root = options.roster.resolve().parent
    if options.jobs == 1 or len(entries) < 2:  # one bot after the other, here, after the engine
        with BotPool([(entry, i, root, options) for i, entry in enumerate(entries)], _certify_bot_task, 1) as pool:
            return _run_with(options, chosen, say, show_progress, entries, root, pool, contextlib.nullcontext)
    # The bots do not depend on the engine (their helper is the bundled engine): their certifications
    # start now, ``jobs`` at once in processes of their own (bot_pool.py), beside the engine's, and are
    # said in order. Every stream of work (a bot's battery pass, table, re-timing; the engine's
    # certification; the showcase) runs in one of ``jobs`` slots shared by all (conformance/bots/slots.py):
    # never more at once than ``holdem-cert bot`` runs alone, so its timing measurements see the machine
    # as they did. A bot may wait for a slot, and shares the cores up to ``jobs`` ways: its time budget
    # stretches as much (CertOptions.budget_stretch), so that its cuts fall where they would alone. The
    # report is the same with any ``jobs``.
    slots = Slots.shared(options.jobs)
    shared = replace(options, bot_options=replace(options.bot_options,
                                                  budget_stretch=options.bot_options.budget_stretch * options.jobs))
    with BotPool([(entry, i, root, shared, slots) for i, entry in enumerate(entries)], _certify_bot_task,
                 options.jobs) as pool:
        return _run_with(options, chosen, say, show_progress, entries, root, pool, slots.held)


def _run_with(options: CertifyOptions, chosen, say: Say, show_progress: bool, entries: list[dict], root: Path,
              pool: BotPool, slot: Callable) -> dict:
    pool.start()
    with slot(), engine_report.progress(sum(map(len, chosen.tests.values())), show_progress) as advance:
        engine = certify_engine(chosen.driver, chosen.tests, chosen.subject, ruleset=options.engine.ruleset,
                                profiles=asked_profiles(options.engine), on_case=lambda case: advance(case.group), title="holdem-cert certify",
                                fuzz_plan=chosen.fuzz)
    attach_repro(engine, chosen.subject, chosen.tests)
    section = attach_coverage(chosen, engine, coverage_page.PAGE)  # --coverage: a page of the report
    pages = {coverage_page.PAGE: coverage_page.render(section, chosen.coverage_files)} if section else {}
    say(engine_line(engine))
    for line in cause_lines(run_causes(engine), str(options.report_dir),
                            f"each vector's details in {options.report_dir / 'index.html'}"):
        say(line.lstrip("\n"))
    if (line := repro_line([{"repro": c.repro} for c in engine.with_status("failed")], options.report_dir)) is not None:
        say(line)  # the folder of the reproductions (the report directory's repro/)
    if section is not None:
        say(engine_report.coverage_line(section))

    try:
        roster = lint_roster(options.roster)
    except OSError as exc:  # a roster that cannot be read is a roster with a problem
        roster = RosterReport(options.roster, 0, (Problem(None, "roster", f"cannot be read: {exc.strerror or exc}"),))
    say(roster_line(roster))
    # The showcase needs the engine's verdict and each bot's file, id and colour, not its certification:
    # it is played while the bots are certified, and said after them.
    with slot():
        showcase = _showcase([_bot_entry(entry, i, root)[0] for i, entry in enumerate(entries)], entries, root,
                             options, engine, chosen.js_source)
    bots = []
    for i in range(len(entries)):
        bots.append(pool.result(i))
        say(bot_line(bots[-1]))
    say(showcase_line(showcase))
    rest_ok = roster.ok and all(b["verdict"] != "rejected" for b in bots)
    # Certified only when every part is (docs/bot-certification.md, Bounds): an inconclusive bot (a part
    # cut before it was judged) leaves the run inconclusive unless something failed.
    inconclusive = [b["id"] for b in bots if b["verdict"] == "inconclusive"]
    ok = (engine.certified or engine.ok) and rest_ok
    failed = not ok or not (engine.certified or engine.partial)
    summary = {
        "certified": not failed and not engine.partial and not inconclusive,
        # certified, not certified (a failure), inconclusive (no failure, a bot not judged whole), or
        # partial (a --family run without failures: not a certification)
        "status": ("not certified" if failed else "inconclusive" if inconclusive
                   else "partial" if engine.partial else "certified"),
        "inconclusive": inconclusive,
        # A --family run (engine.partial) is never a certification; ``ok`` says whether it had no failure.
        "partial": engine.partial,
        "ok": ok,
        "contractVersion": CONTRACT_VERSION,
        "generator": dict(GENERATOR, name="holdem-cert certify"),
        "options": {"engine": chosen.subject.get("source") or chosen.subject.get("command"),
                    "roster": str(options.roster), "seed": options.seed, "botSeed": options.bot_seed,
                    "showcaseHands": options.showcase_hands, "ruleset": options.engine.ruleset,
                    "families": list(chosen.tests)},
        "engine": engine_report.to_json(engine),
        "roster": {"path": str(options.roster), "ok": roster.ok, "entries": [b["id"] for b in bots],
                   "problems": [{"id": p.entry_id, "field": p.field, "message": p.message, "severity": p.severity}
                                for p in roster.problems]},
        "bots": bots,
        "showcase": showcase,
    }
    junit = _junit(engine, summary["roster"], bots)
    replace_directory(options.report_dir, lambda staging: _fill_report(staging, summary, junit, pages))
    return summary


def _write_stopped(options: CertifyOptions, why: str) -> None:
    """The report of a run that stopped before its verdict: not certified, and why."""
    summary = {"certified": False, "status": "not certified", "contractVersion": CONTRACT_VERSION,
               "generator": dict(GENERATOR, name="holdem-cert certify"), "stopped": why}
    root = ET.Element("testsuites", name="holdem-cert certify")
    _suite(root, "certify", [("certify.run", [f"certify stopped before its verdict: {why}"], [], [])])
    root.set("tests", "1")
    root.set("failures", "1")
    replace_directory(options.report_dir, lambda staging: _fill_report(staging, summary, root))


# ---- one line per result --------------------------------------------------------------------

def _listed(ids: list[str], limit: int = 8) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def engine_line(engine: engine_report.Report) -> str:
    host = engine.subject.get("host")
    return _engine_verdict(engine) + (f" [host: {host}]" if host else "")


def _engine_verdict(engine: engine_report.Report) -> str:
    smoke = [c for c in engine.smoke if c.status == "failed"]
    if smoke:
        return f"engine: not certified: smoke check {smoke[0].id} failed: {smoke[0].message}"
    counts = {s: len(engine.with_status(s)) for s in engine_report.STATUSES}
    failed = [c.id for c in engine.with_status("failed")]
    errors = [c.id for c in engine.with_status(engine_report.SUITE_ERROR)]  # the suite's own, not the engine's
    tally = ", ".join(f"{counts[s]} {s}" for s in engine_report.STATUSES if s != engine_report.SUITE_ERROR)
    tally += f", {plural(len(errors), 'suite error')}" if errors else ""
    if engine.certified:
        return f"engine: certified ({tally})"
    if engine.partial and engine.ok:
        return f"engine: no failures in a --family run, not a certification ({tally})"
    return (f"engine: {'incomplete' if errors and not failed else 'not certified'} ({tally})"
            + (f"; failed: {_listed(failed)}" if failed else "") + (f"; suite errors: {_listed(errors)}" if errors else ""))


def roster_line(roster) -> str:
    if not roster.problems:
        return f"roster: clean ({plural(roster.entries, 'entry', 'entries')})"
    head = (f"roster: {'clean' if roster.ok else 'not clean'} ({plural(len(roster.errors), 'error')}, "
            f"{plural(len(roster.warnings), 'warning')})")
    return head + "".join(f"\n  {p.severity} {p.entry_id or 'roster'}.{p.field}: {p.message}" for p in roster.problems)


def bot_line(bot: dict) -> str:
    # what decided: a rejected bot's errors, an inconclusive one's cuts (docs/bot-certification.md, Bounds)
    shown = {"rejected": "error", "inconclusive": "inconclusive"}.get(bot["verdict"])
    reasons = [r.removeprefix(f"{shown}: ") for r in bot["reasons"] if shown is not None and r.startswith(f"{shown}:")]
    return f"bot {bot['id']}: {bot['verdict']}" + (f": {reasons[0]}" if reasons else "") + (
        f" (and {plural(len(reasons) - 1, 'more reason')})" if len(reasons) > 1 else "")


def showcase_line(showcase: dict) -> str:
    if not showcase.get("seats"):
        return f"showcase: not played ({showcase.get('note', 'fewer than two bots')})"
    places = ", ".join(f"{s['bot']} {s['place']}" for s in sorted(showcase["seats"], key=lambda s: s["place"]))
    line = f"showcase: {plural(showcase['hands'], 'hand')}; places: {places}"
    if showcase.get("unseated"):
        line += f"; not seated: {', '.join(u['bot'] for u in showcase['unseated'])} (see the report)"
    return line


def _roster_entries(path: Path) -> list[dict]:
    """The roster's entries as far as it can be read (its problems are reported by lint_roster)."""
    try:
        bots = parse_roster(read_roster_bytes(path)).get("bots")
    except (OSError, ValueError, AttributeError):
        return []
    if not isinstance(bots, list) or len(bots) > MAX_ENTRIES:  # past the R29 bound: none certified
        return []
    return [e for e in bots if isinstance(e, dict)]


def _bot_entry(entry: dict, i: int, root: Path) -> tuple[dict, Path | None]:
    """A roster entry's part of the summary before its certification (id, name, colour, file; a
    rejection when the entry is unusable) and its bot file (None: not certified)."""
    unusable = unusable_fields(entry)  # not text, or past its bound (R29): neither used nor shown
    bot_id = f"#{i}" if "id" in unusable else str(entry.get("id", f"#{i}"))
    color = entry.get("color") if isinstance(entry.get("color"), str) and not unusable else PALETTE[i % len(PALETTE)]
    out = {"id": bot_id, "name": bot_id if unusable else str(entry.get("name", bot_id)), "color": color, "file": None,
           "verdict": "rejected", "reasons": [], "profile": None, "timing": None, "report": None}
    if unusable:
        out["reasons"] = [f"error: {field}: {why}" for field, why in unusable.values()]
        return out, None
    path = root / str(entry.get("file", ""))
    if not isinstance(entry.get("file"), str) or not path.is_file() or not path.resolve().is_relative_to(root):
        out["reasons"] = [f"error: file {json.dumps(entry.get('file'))} is not a bot file inside the repository"]
        return out, None
    out["file"] = str(path.relative_to(root))
    return out, path


def _certify_bot_task(task: tuple) -> dict:
    """:func:`_certify_bot` of ``(entry, i, root, options[, slots])``: a BotPool task."""
    return _certify_bot(*task)


def _certify_bot(entry: dict, i: int, root: Path, options: CertifyOptions, slots: Slots | None = None) -> dict:
    out, path = _bot_entry(entry, i, root)
    if path is None:
        return out
    cert = certify_file(path, replace(options.bot_options, bot_seed=options.bot_seed), roster=options.roster,
                        slots=slots)
    data = cert.to_json()
    battery = data.get("battery") or {}
    timing = battery.get("timing") or {}
    out.update(verdict=cert.verdict, profile=cert.profile, report=data,
               reasons=[f"{r['severity']}: {r['message']}" + (f" ({r['example']})" if r.get("example") else "")
                        for r in data["reasons"]],
               timing={"p50": timing.get("wallP50"), "p95": timing.get("wallP95"), "max": timing.get("wallMax")},
               repro=bot_repro(path, battery.get("errors") or {}, options.report_dir))
    return out


def _showcase(bots: list[dict], entries: list[dict], root: Path, options: CertifyOptions,
              engine: engine_report.Report, js_source: str | None) -> dict:
    """One tournament of the roster's bots, in roster order: the table holds nine, so bots after the
    ninth are listed as not seated, with the reason (one table keeps the showcase one tournament a
    reader can follow hand by hand; ``holdem-cert match`` ranks any set of bots). Rejected bots that
    have a file still play: the showcase shows what they do. The engine under test is the bots'
    helper library when it is a certified JavaScript engine; otherwise the bundled reference is, and
    the note says why."""
    playable = [(b, e) for b, e in zip(bots, entries) if b["file"] is not None]
    unseated = [{"bot": b["id"], "reason": "no bot file"} for b in bots if b["file"] is None]
    unseated += [{"bot": b["id"], "reason": f"the table holds {TABLE_SEATS} and {TABLE_SEATS} bots listed before "
                  "it were seated"} for b, _ in playable[TABLE_SEATS:]]
    playable = playable[:TABLE_SEATS]
    if js_source is not None and engine.certified:
        source, note = js_source, "the bots' engine helper is the engine under test"
    else:
        why = "is a --cmd engine (bots need a JavaScript one)" if js_source is None else "is not certified"
        source, note = bundled_engine(), f"the bots' engine helper is the bundled reference: the engine under test {why}"
    if len(playable) < 2:
        return {"seats": [], "unseated": unseated, "note": "fewer than two bots with a file"}
    specs = [BotSpec(b["id"], (root / b["file"]).read_text(encoding="utf-8"),
                     str(e.get("botName") or e.get("name") or b["id"])) for b, e in playable]
    runner_options = RunnerOptions(tournament={"max_hands": options.showcase_hands}, engine_source=source,
                                   bot_host=options.bot_options.host)
    try:
        result = run_tournament(specs, options.seed, options.bot_seed, runner_options)
    except HoldemError as exc:  # reported in the page and the summary; the rest of the report stands
        return {"seats": [], "unseated": unseated, "note": f"not played: {exc}"}
    colors = distinct_colors([b["color"] for b, _ in playable])
    seats = []
    for seat, (spec, color) in enumerate(zip(specs, colors)):
        standing = result.standings[seat]
        seats.append({"label": spec.seat_name, "bot": spec.id, "id": result.seats[seat].id, "color": color,
                      "place": standing["place"], "errors": result.seats[seat].error_count,
                      "chips": [h["endStacks"][seat] for h in result.hands]})
    return {"seed": options.seed, "botSeed": options.bot_seed, "hands": len(result.hands), "seats": seats,
            "unseated": unseated, "note": note, "standings": result.standings, "digest": result.digest(),
            "log": result.hands}


def distinct_colors(wanted: list[str]) -> list[str]:
    """Each seat's colour: its own unless an earlier seat has it (rosters may repeat one), then the
    first palette colour no seat uses."""
    out: list[str] = []
    for color in wanted:
        if color.lower() in (c.lower() for c in out):
            color = next((c for c in PALETTE if c not in out and c not in wanted), f"hsl({len(out) * 47 % 360} 70% 60%)")
        out.append(color)
    return out


def _junit(engine: engine_report.Report, roster: dict, bots: list[dict]) -> ET.Element:
    """The engine's suites, then a roster suite (one case per entry, and one for the roster as a
    whole) and a bots suite (one case per rostered bot); errors fail a case, warnings are its output."""
    root = ET.Element("testsuites", name="holdem-cert certify")
    root.extend(engine_report.to_junit(engine))
    problems = roster["problems"]
    cases = [("bots.json", [p for p in problems if p["id"] is None or p["id"] not in roster["entries"]])]
    cases += [(entry, [p for p in problems if p["id"] == entry]) for entry in roster["entries"]]
    _suite(root, "roster", [(name, [f"{p['field']}: {p['message']}" for p in found if p["severity"] == "error"],
                             [f"warning {p['field']}: {p['message']}" for p in found if p["severity"] != "error"], [])
                            for name, found in cases])
    # A rejected bot is a failure; an inconclusive one an error (it was not judged whole, docs/bot-certification.md).
    _suite(root, "bots", [(b["id"], [r for r in b["reasons"] if r.startswith("error")] or
                           (["rejected"] if b["verdict"] == "rejected" else []),
                           [r for r in b["reasons"] if r.startswith("warning")],
                           [r for r in b["reasons"] if r.startswith("inconclusive")] if b["verdict"] == "inconclusive"
                           else []) for b in bots])
    for key in ("tests", "failures", "errors"):
        root.set(key, str(sum(int(s.get(key)) for s in root)))
    return root


def _suite(root: ET.Element, name: str, cases: list[tuple[str, list[str], list[str], list[str]]]) -> None:
    """A testsuite of (case name, failure messages, other output, error messages) rows: an error is a
    case that could not be judged (an inconclusive bot)."""
    suite = ET.SubElement(root, "testsuite", name=name, tests=str(len(cases)),
                          failures=str(sum(bool(f) for _, f, _, _ in cases)),
                          errors=str(sum(bool(e) and not f for _, f, _, e in cases)), skipped="0")
    for case_name, failures, output, errors in cases:
        case = ET.SubElement(suite, "testcase", classname=f"holdem.{name}", name=case_name)
        if failures:
            ET.SubElement(case, "failure", message=engine_report.xml_text(failures[0]), type="failed").text = \
                engine_report.xml_text("\n".join(failures))
        elif errors:
            ET.SubElement(case, "error", message=engine_report.xml_text(errors[0]), type="inconclusive").text = \
                engine_report.xml_text("\n".join(errors))
        if output:
            ET.SubElement(case, "system-out").text = engine_report.xml_text("\n".join(output))


def _fill_report(directory: Path, summary: dict, junit: ET.Element, pages: dict[str, str] | None = None) -> None:
    for name, page in (pages or {}).items():  # the report's other pages (--coverage's)
        (directory / name).write_text(engine_report.printable(page), encoding="utf-8")
    text = json.dumps(summary, indent=2, ensure_ascii=False) + "\n"
    (directory / "summary.json").write_text(engine_report.printable(text), encoding="utf-8")
    ET.indent(junit)
    (directory / "junit.xml").write_bytes(ET.tostring(junit, encoding="utf-8", xml_declaration=True))
    (directory / "index.html").write_text(engine_report.printable(render(summary)), encoding="utf-8")
    engine = summary.get("engine", {})  # a stopped run has no failures; each cause may have its own reproduction
    write_repro_files(engine.get("failures", []) + [c["example"] for c in engine.get("causes", []) if c.get("example")],
                      directory)
    write_bot_states(summary.get("bots", []), directory)
