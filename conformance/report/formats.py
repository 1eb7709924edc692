"""Certification reports: the JSON and JUnit files of a report (its per-case verdicts:
conformance.judge.verdicts), the printed summary and the progress bar. Not tied to one subject: ``holdem-cert engine`` uses it with the vector
families as groups; a later command can use it with its own groups."""
from __future__ import annotations

import contextlib
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Callable, TextIO

from conformance.judge import causes as root_causes, coverage
from conformance.judge.verdicts import STATUSES, SUITE_ERROR, Report
from conformance.outfiles import write_text


def printable(text: str) -> str:
    """``text`` with lone surrogates escaped as ``\\udXXX``: an engine's message may hold one (a JS
    string need not be valid UTF-16), and it can be neither printed nor written as UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


# ---- JSON ---------------------------------------------------------------------------------------

def to_json(report: Report) -> dict:
    return {
        "certified": report.certified,
        "verdict": report.verdict,
        **({"partial": True, "ok": report.ok} if report.partial else {}),
        **({"ruleset": report.ruleset} if report.ruleset is not None else {}),
        **({"profiles": report.profiles} if report.profiles is not None else {}),
        report.subject_key: report.subject,
        **({"coverage": coverage.for_json(report.coverage)} if report.coverage is not None else {}),
        "smoke": [{"id": c.id, "passed": c.status == "passed", "message": c.message} for c in report.smoke],
        "families": report.counts(),
        "causes": [c.as_json() for c in run_causes(report)],
        "failures": [{"id": c.id, "family": c.group, "clause": c.clauses, "message": c.message, "diff": c.diff,
                      **({"breaks": c.breaks, "first": c.first, "later": c.later, "answers": c.answers}
                         if c.first is not None else {}),
                      **({"all": c.failures} if len(c.failures) > 1 else {}),
                      **({"diagnosis": c.diagnosis} if c.diagnosis else {}),
                      **({"vector": c.vector} if c.vector is not None else {}),
                      **({"input": c.input} if c.input is not None else {}),
                      **({"repro": c.repro} if c.repro is not None else {}),
                      **({"trajectory": c.trajectory} if c.trajectory is not None else {})}
                     for c in report.with_status("failed")],
        "divergences": [{"id": c.id, "family": c.group, "rulings": c.rulings, "message": c.message, "diff": c.diff,
                         **({"alternative": c.alternative} if c.alternative else {})}
                        for c in report.with_status("divergent")],
        "skipped": [{"id": c.id, "family": c.group, "reason": c.message} for c in report.with_status("skipped")],
        # The suite's own errors (issue #38, item 4): not judged, never the engine's failures.
        "suiteErrors": [{"id": c.id, "family": c.group, "message": c.message} for c in report.with_status(SUITE_ERROR)],
        "notes": [{"id": c.id, "family": c.group, "note": n} for c in report.smoke + report.cases for n in c.notes],
        # late under the time limit, judged on the answer a larger limit got (engine_cert.RETRY_SCALE)
        **({"slow": slow} if (slow := [{"id": c.id, "family": c.group, "ms": round(c.slow_ms)}
                                       for c in report.cases if c.slow_ms is not None]) else {}),
    }


def run_causes(report: Report) -> list:
    """The report's failures grouped by cause (conformance.judge.causes), with reproductions."""
    found = root_causes.group(report.smoke + report.cases)
    root_causes.attach_repro(report, found)
    return found


def cause_lines(found: list, repro_dir: str | None = None, details: str = "details of each vector below") -> list[str]:
    """The terminal's lines for the run's root causes (conformance.judge.causes), each with its
    smallest example and its reproduction's command (``repro_dir``: the directory it runs from,
    when not the current one)."""
    lines = []
    p = lines.append
    if found:
        total = sum(c.count for c in found)
        p(f"\ncauses: {plural(total, 'failure')} from {plural(len(found), 'cause')} ({details})")
        for k, cause in enumerate(found, 1):
            ex = cause.example or {}
            first = ex.get("first") or {}
            where = ", ".join(x for x in (f"hand {first['hand']}" if first.get("hand") is not None else "",
                                          f"decision {first['decision']}" if first.get("decision") is not None else "")
                              if x)
            p(f"  {k}. {cause.title()}")
            summary = root_causes.CLAUSES.get(cause.breaks, (None, None))[1]
            p(f"     {summary + '; ' if summary else ''}{plural(cause.count, 'failure')} in "
              f"{plural(len(cause.vectors), 'vector')}; smallest example {ex.get('vector')}"
              + (f" ({where})" if where else ""))
            if first.get("path"):
                p(f"     {first['path']}: expected {_short(first.get('expected'))}, got {_short(first.get('actual'))}")
            repro = ex.get("repro")
            if repro and repro.get("run"):
                inside = f" (in {repro_dir})" if repro_dir else ""
                p(f"     repro{inside}: {repro['run'][0]}" + (f"  ({repro['note']})" if repro.get("note") else ""))
    return lines

def write_json(path: Path, report: Report) -> None:
    # An escaped lone surrogate is the JSON escape \udXXX, as ensure_ascii would write it.
    write_text(path, printable(json.dumps(to_json(report), indent=2, ensure_ascii=False)) + "\n")


# ---- JUnit --------------------------------------------------------------------------------------

_XML_INVALID = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """XML 1.0 cannot hold most control characters (an engine's message may): escape them visibly."""
    return _XML_INVALID.sub(lambda m: f"\\x{ord(m.group()):02x}", printable(text))


def to_junit(report: Report) -> ET.Element:
    root = ET.Element("testsuites", name=report.title)
    suites = ([("smoke", report.smoke)] if report.smoke else []) + [
        (g, [c for c in report.cases if c.group == g]) for g in report.groups]
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped", "time"), 0.0)
    for name, cases in suites:
        failures = sum(c.status == "failed" for c in cases)
        errors = sum(c.status == SUITE_ERROR for c in cases)  # JUnit's own word for a test that could not run
        skipped = sum(c.status == "skipped" for c in cases)
        seconds = sum(c.seconds for c in cases)
        suite = ET.SubElement(root, "testsuite", name=name, tests=str(len(cases)), failures=str(failures),
                              errors=str(errors), skipped=str(skipped), time=f"{seconds:.3f}")
        profile = _profile_of(report, name)
        if profile is not None:  # the profile x family matrix (conformance.judge.cert_profiles)
            props = ET.SubElement(suite, "properties")
            ET.SubElement(props, "property", name="profile", value=profile)
            ET.SubElement(props, "property", name="profile-verdict", value=report.profiles[profile]["verdict"])
        for c in cases:
            case = ET.SubElement(suite, "testcase", classname=f"holdem.{name}", name=c.id, time=f"{c.seconds:.3f}")
            if c.status == "failed":
                failure = ET.SubElement(case, "failure", message=xml_text(c.message), type="failed")
                clauses = f"clauses: {', '.join(c.clauses)}" if c.clauses else ""
                failure.text = xml_text("\n".join(filter(None, [clauses, c.message, c.diff])))
            elif c.status == SUITE_ERROR:
                error = ET.SubElement(case, "error", message=xml_text(c.message), type="suite-error")
                error.text = xml_text(c.message)
            elif c.status == "skipped":
                ET.SubElement(case, "skipped", message=xml_text(c.message))
            elif c.status == "divergent":
                props = ET.SubElement(case, "properties")
                ET.SubElement(props, "property", name="divergent", value=" ".join(c.rulings))
                out = ET.SubElement(case, "system-out")
                out.text = xml_text(f"divergent on {', '.join(c.rulings)}: {c.message}\n{c.diff}")
            if c.notes:
                err = ET.SubElement(case, "system-err")
                err.text = xml_text("\n".join(c.notes))
        for key, value in (("tests", len(cases)), ("failures", failures), ("errors", errors), ("skipped", skipped),
                           ("time", seconds)):
            totals[key] += value
    for key in ("tests", "failures", "errors", "skipped"):
        root.set(key, str(int(totals[key])))
    root.set("time", f"{totals['time']:.3f}")
    return root


def _profile_of(report: Report, group: str) -> str | None:
    """The profile whose row of the matrix counts ``group`` (a family, or the fuzz games)."""
    return next((p for p, row in (report.profiles or {}).items() if group in row.get("families", {})), None)


def write_junit(path: Path, report: Report) -> None:
    tree = to_junit(report)
    ET.indent(tree)
    write_text(path, '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(tree, encoding="unicode") + "\n")


# ---- text ---------------------------------------------------------------------------------------

def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 error``, ``2 errors``: never ``1 errors``."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def _short(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=repr)
    return text if len(text) <= 120 else text[:120] + " …"


def print_summary(report: Report, out: TextIO, *, describe_subject: Callable[[dict], str]) -> None:
    """The families table, every failure (id, clauses, message, diff), every divergence and skip
    in one line each, and the verdict."""
    p = lambda text: print(printable(text), file=out)  # noqa: E731
    p(f"{report.title}: {describe_subject(report.subject)}")
    if report.smoke:
        p("smoke: " + ", ".join(f"{c.id} {'ok' if c.status == 'passed' else 'FAILED'}" for c in report.smoke))
    counts = report.counts()
    if report.cases:
        width = max(len(g) for g in counts)
        p(f"{'family':<{width}}  " + "  ".join(f"{s:>9}" for s in STATUSES)
          + ("  profile" if report.profiles else ""))
        for group, row in counts.items():
            p(f"{group:<{width}}  " + "  ".join(f"{row[s]:>9}" for s in STATUSES)
              + (f"  {_profile_of(report, group) or ''}" if report.profiles else ""))
    if report.profiles:  # the profile x family matrix's verdict per profile
        width = max(len("profile"), *(len(name) for name in report.profiles))
        p(f"{'profile':<{width}}  {'verdict':<15}  " + "  ".join(f"{s:>9}" for s in STATUSES))
        for name, row in report.profiles.items():
            p(f"{name:<{width}}  {row['verdict']:<15}  " + "  ".join(f"{row[s]:>9}" for s in STATUSES))
    for line in cause_lines(run_causes(report)):
        p(line)
    for c in report.with_status("failed"):
        p(f"\nFAILED {c.id}  [{', '.join(c.clauses)}]")
        p(_indent(c.message))
        if c.diff:
            p(_indent(c.diff, "      "))
    for c in report.with_status(SUITE_ERROR):
        p(f"\nSUITE ERROR {c.id}  (the suite's own error, not the engine's)")
        p(_indent(c.message))
    for status, heading in (("divergent", "divergent (not failures; see docs/rulings.md)"), ("skipped", "skipped")):
        alike: dict[tuple, list[str]] = {}  # one line for the vectors of a group with the same verdict
        for c in report.with_status(status):
            alike.setdefault((c.group, " ".join(c.rulings), c.message), []).append(c.id)
        if alike:
            p(f"\n{heading}:")
        for (_, rulings, message), ids in alike.items():
            which = ids[0] if len(ids) == 1 else f"{len(ids)} vectors ({ids[0]} … {ids[-1]})"
            p(f"  {which}{f' on {rulings}' if rulings else ''}: {message}")
    notes = [(c.id, n) for c in report.smoke + report.cases for n in c.notes]
    if notes:
        p("\nnotes:")
        for case_id, note in notes:
            p(f"  {case_id}: {note}")
    p(f"\n{report.verdict}")
    if report.coverage is not None:
        p(coverage_line(report.coverage))


def coverage_line(section: dict) -> str:
    """--coverage's line in the terminal: the figure, and where the HTML view is."""
    lost = section.get("lost", {}).get("vectors") or []
    return (f"coverage of the engine's source: {section['summary']}"
            + (f" (the counts just before {plural(len(lost), 'vector')} that stopped the engine are lost)" if lost else "")
            + (f"; HTML view: {section['page']} beside the report" if section.get("page") else ""))


@contextlib.contextmanager
def progress(total: int | None, enabled: bool, description: str = "") -> Iterator[Callable[..., None]]:
    """A rich progress bar on stderr, saying ``description`` until the first step; yields
    ``advance(description, total=None)``: one step, or with ``total`` (when it becomes known: ``total``
    None here) a fresh count to that total. A no-op when not enabled."""
    if not enabled:
        yield lambda description, total=None: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description:<12}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)

        def advance(description: str, total: int | None = None) -> None:
            if total is None:
                bar.update(task, advance=1, description=description)
            else:
                bar.update(task, total=total, completed=0, description=description)
        yield advance
