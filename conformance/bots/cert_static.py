"""Stages 1 and 9, what is checked without running the bot: the static lint
(:func:`conformance.harness.lint_static.lint_source`) and the bot's entry in a roster."""
from __future__ import annotations

import json
from pathlib import Path

from conformance.harness.lint_static import lint_source
from conformance.harness.roster import lint_roster
from .cert_report import CertReport


def check_static(report: CertReport, source: str, filename: str) -> None:
    for f in lint_source(source, filename):
        report.static.append({"rule": f.rule, "severity": f.severity, "message": f.message,
                              "line": f.line, "column": f.column})
        if f.severity == "info":  # the allowed Web-Worker members (R30): in the report, no reason
            continue
        add = report.error if f.severity == "error" else report.warning
        add("static", f.rule, f.message, f"{filename}:{f.line}:{f.column}")


def check_roster(report: CertReport, roster: Path, path: Path | None) -> None:
    lint = lint_roster(roster)
    try:
        data = json.loads(roster.read_text(encoding="utf-8"))
        entries = [e for e in data["bots"] if isinstance(e, dict)]
    except (ValueError, TypeError, KeyError):
        problems = "; ".join(p.message for p in lint.errors) or "unreadable"
        report.error("roster", "json", f"{roster}: {problems}")
        return
    target = path.resolve() if path is not None else None
    entry = next((e for e in entries if isinstance(e.get("file"), str) and target is not None
                  and (roster.parent / e["file"]).resolve() == target), None)
    if entry is None:
        report.error("roster", "file", f"{roster} has no entry whose file is this script")
        return
    report.roster_entry = entry
    for p in lint.problems:
        if p.entry_id == entry.get("id"):
            add = report.error if p.severity == "error" else report.warning
            add("roster", p.field, f"{roster}: {p.message}", entry.get("id"))


def check_roster_name(report: CertReport) -> None:
    entry = report.roster_entry
    name = report.load["exportName"] if report.load else None
    if entry is not None and name is not None and entry.get("botName") != name:
        report.warning("roster", "botName", f"the roster's botName {entry.get('botName')!r} differs from the "
                       f"exported name {name!r}", entry.get("id"))
