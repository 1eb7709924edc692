"""``holdem-cert certify``: the main job. Certify the engine (the bundled one by default) against
the golden vectors, lint the roster, certify every rostered bot, play a showcase tournament of
the roster, and write a report directory: ``summary.json``, ``junit.xml`` and ``index.html``.

The directory is written whole or not at all: everything goes into a temporary sibling first,
which then takes the place of the old report.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from reference.errors import OptionError

from . import report as engine_report
from .bot_cert import CertOptions, certify_file
from .engine_cert import FAMILIES, certify as certify_engine, load_tests
from . import fresh_vectors
from .engine_drivers import QuickJSDriver, read_source
from .html_report import PALETTE, render
from .resources import default_roster
from .roster import lint_roster
from .runner import BotSpec, RunnerOptions, bundled_engine, run_tournament
from .vectorfile import CONTRACT_VERSION, GENERATOR

Say = Callable[[str], None]


@dataclass(frozen=True)
class CertifyOptions:
    engine: Path | None = None  # None: the bundled reference/js/poker-engine.js
    roster: Path = field(default_factory=default_roster)  # ./bots.json, else the house roster
    report_dir: Path = Path("report")
    seed: int = 2024  # the showcase's deck seed
    bot_seed: int = 7  # the showcase's and the bot batteries' botSeed (R21), never derived from seed
    showcase_hands: int = 300
    families: tuple[str, ...] = FAMILIES
    bot_options: CertOptions = CertOptions()


def run(options: CertifyOptions, say: Say = lambda _: None) -> dict:
    """Do everything and write the report directory; returns the summary."""
    if options.report_dir.exists() and not options.report_dir.is_dir():
        raise OptionError("report", f"{options.report_dir} exists and is not a directory")
    engine_source = bundled_engine() if options.engine is None else read_source(options.engine, "engine")
    engine_name = "bundled reference/js/poker-engine.js" if options.engine is None else str(options.engine)

    say(f"engine: {engine_name}")
    driver = QuickJSDriver(engine_source, engine_name=engine_name, timeout_ms=10_000)
    fresh_seed = fresh_vectors.engine_seed([engine_source], None)
    tests = load_tests(options.families, fresh_seed)
    subject = {"driver": "quickjs", "source": engine_name, "fresh": fresh_vectors.summary(fresh_seed, tests)}
    engine = certify_engine(driver, tests, subject)
    say(f"engine: {engine.verdict or ('certified' if engine.certified else 'not certified')}")

    roster = lint_roster(options.roster)
    say(f"roster: {'clean' if roster.ok else f'{len(roster.errors)} problem(s)'}")
    entries = _roster_entries(options.roster)
    root = options.roster.resolve().parent
    bots, specs = [], []
    for i, entry in enumerate(entries):
        bot = _certify_bot(entry, i, root, options, say)
        bots.append(bot)
        if bot["file"] is not None:
            specs.append((BotSpec(str(entry["id"]), (root / bot["file"]).read_text(encoding="utf-8"),
                                  str(entry.get("botName") or entry.get("name") or entry["id"])), bot["color"]))

    showcase = _showcase(specs, options, engine_source, say) if len(specs) >= 2 else {}
    summary = {
        "certified": engine.certified and roster.ok and all(b["verdict"] != "rejected" for b in bots),
        "contractVersion": CONTRACT_VERSION,
        "generator": dict(GENERATOR, name="holdem-cert certify"),
        "options": {"engine": engine_name, "roster": str(options.roster), "seed": options.seed,
                    "botSeed": options.bot_seed, "showcaseHands": options.showcase_hands,
                    "families": list(options.families)},
        "engine": engine_report.to_json(engine),
        "roster": {"path": str(options.roster), "ok": roster.ok,
                   "problems": [{"id": p.entry_id, "field": p.field, "message": p.message, "severity": p.severity}
                                for p in roster.problems]},
        "bots": bots,
        "showcase": showcase,
    }
    _write_report(options.report_dir, summary, _junit(engine, bots))
    return summary


def _roster_entries(path: Path) -> list[dict]:
    """The roster's entries as far as it can be read (its problems are reported by lint_roster)."""
    try:
        bots = json.loads(path.read_text(encoding="utf-8")).get("bots")
    except (OSError, ValueError, AttributeError):
        return []
    return [e for e in bots if isinstance(e, dict)] if isinstance(bots, list) else []


def _certify_bot(entry: dict, i: int, root: Path, options: CertifyOptions, say: Say) -> dict:
    bot_id = str(entry.get("id", f"#{i}"))
    color = entry.get("color") if isinstance(entry.get("color"), str) else PALETTE[i % len(PALETTE)]
    out = {"id": bot_id, "name": str(entry.get("name", bot_id)), "color": color, "file": None,
           "verdict": "rejected", "reasons": [], "profile": None, "timing": None, "report": None}
    path = root / str(entry.get("file", ""))
    if not isinstance(entry.get("file"), str) or not path.is_file() or not path.resolve().is_relative_to(root):
        out["reasons"] = [f"file {entry.get('file')!r} is not a bot file inside the repository"]
        say(f"bot {bot_id}: rejected (no file)")
        return out
    out["file"] = str(path.relative_to(root))
    cert = certify_file(path, replace(options.bot_options, bot_seed=options.bot_seed), roster=options.roster)
    data = cert.to_json()
    battery = data.get("battery") or {}
    timing = battery.get("timing") or {}
    out.update(verdict=cert.verdict, profile=cert.profile, report=data,
               reasons=[f"{r['severity']}: {r['message']}" + (f" ({r['example']})" if r.get("example") else "")
                        for r in data["reasons"]],
               timing={"p50": timing.get("wallP50"), "p95": timing.get("wallP95"), "max": timing.get("wallMax")})
    say(f"bot {bot_id}: {cert.verdict}")
    return out


def _showcase(specs: list[tuple[BotSpec, str]], options: CertifyOptions, engine_source: str, say: Say) -> dict:
    bots = [s for s, _ in specs][:9]
    runner_options = RunnerOptions(tournament={"max_hands": options.showcase_hands}, engine_source=engine_source)
    result = run_tournament(bots, options.seed, options.bot_seed, runner_options)
    say(f"showcase: {len(result.hands)} hands")
    seats = []
    for seat, (spec, color) in enumerate(specs[:9]):
        standing = result.standings[seat]
        seats.append({"label": spec.seat_name, "bot": spec.id, "color": color, "place": standing["place"],
                      "errors": result.seats[seat].error_count,
                      "chips": [h["endStacks"][seat] for h in result.hands]})
    return {"seed": options.seed, "botSeed": options.bot_seed, "hands": len(result.hands), "seats": seats,
            "standings": result.standings, "digest": result.digest()}


def _junit(engine: engine_report.Report, bots: list[dict]) -> ET.Element:
    root = ET.Element("testsuites", name="holdem-cert certify")
    root.extend(engine_report.to_junit(engine))
    suite = ET.SubElement(root, "testsuite", name="bots", tests=str(len(bots)),
                          failures=str(sum(b["verdict"] == "rejected" for b in bots)))
    for b in bots:
        case = ET.SubElement(suite, "testcase", classname="bots", name=b["id"])
        if b["verdict"] == "rejected":
            ET.SubElement(case, "failure", message="rejected").text = "\n".join(b["reasons"])
    return root


def _write_report(target: Path, summary: dict, junit: ET.Element) -> None:
    target = target.resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        (staging / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        ET.indent(junit)
        (staging / "junit.xml").write_bytes(ET.tostring(junit, encoding="utf-8", xml_declaration=True))
        (staging / "index.html").write_text(render(summary), encoding="utf-8")
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
            os.replace(target, old / "report")
            os.replace(staging, target)
            shutil.rmtree(old)
        else:
            os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
