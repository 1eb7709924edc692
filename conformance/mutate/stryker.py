"""StrykerJS for ``holdem-cert mutate``: installing it, listing an engine's mutants, running it.

StrykerJS (``@stryker-mutator/core``, pinned :data:`VERSION`) is installed with npm into the suite's
cache on first use, like core-js (conformance/host/npm_cache.py), and run by the pinned node 24
(conformance/host/node_runtime.py; Stryker 10 needs node 22 or later). Everything mutation-specific
is Stryker's own: its instrumenter makes the mutants and one instrumented build where each is
switched on at run time (mutant schemata), its core plans the runs from the dry run's per-test
coverage and runs them on ``--jobs`` test runners, its json reporter writes the report in the
mutation-testing-report schema, and its mutation-testing-elements show it (:func:`html_view`, the
page of Stryker's html reporter, made from the report once it is made deterministic). Ours are the
test runner (``stryker_plugins.js``, which hands each run to a Python session,
conformance/mutate/session.py) and a reporter that feeds the progress bar.

Stryker runs in a scratch directory holding a copy of ENGINE.js alone (so that it mutates the
engine's own source, never an adapter, prelude or the suite), and its reports are read from there:
the command writes the files the user asked for only once the run is over.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import conformance
from conformance.host import node_runtime, npm_cache
from .session import DRY_RUN_FILE, PLAN_ENV, Plan

PACKAGE = "@stryker-mutator/core"
VERSION = "10.1.1"  # pinned; node 22 or later
MIN_NODE = (22, 0)
HERE = Path(__file__).resolve().parent
PLUGINS = HERE / "stryker_plugins.js"
LISTER = HERE / "list_mutants.js"
RUNNER = "holdem-certification"  # the test runner's name in stryker_plugins.js
# Stryker's bound on one mutant's run: TIMEOUT_FACTOR times its tests' dry-run time plus TIMEOUT_MS.
# Generous (a loaded machine must not turn a slow survivor into a Timeout): the session's own limit
# per vector (the engine's --timeout-ms) and Stryker's hit limit end a runaway mutant first.
TIMEOUT_FACTOR = 4
TIMEOUT_MS = 120_000
DRY_RUN_MINUTES = 60
LOG_TAIL = 3000  # characters of Stryker's output shown when it fails


class Unavailable(Exception):
    """StrykerJS or a node that runs it cannot be had here: the reason."""


def stryker_node() -> str:
    """The node that runs Stryker and the engine: node_runtime's, when it is 22 or later."""
    node, why = node_runtime.find()
    version = node_runtime.node_version(node) if node else None
    if version is None or version[:2] < MIN_NODE:
        raise Unavailable(f"StrykerJS {VERSION} needs node {MIN_NODE[0]} or later: {why}")
    return node


def install(log=sys.stderr) -> Path:
    """StrykerJS's npm prefix (its node_modules hold core, instrumenter and reporters)."""
    directory, why = npm_cache.install(PACKAGE, VERSION, "StrykerJS, for holdem-cert mutate",
                                       complete=lambda d: (d / "bin" / "stryker.js").is_file(), log=log)
    if directory is None:
        raise Unavailable(why)
    return npm_cache.prefix(PACKAGE, VERSION)


def report_schema(prefix: Path) -> Path:
    """The mutation-testing-report JSON schema of the installed Stryker (the reports' own)."""
    return prefix / "node_modules" / "mutation-testing-report-schema" / "dist" / "src" / "mutation-testing-report-schema.json"


def list_mutants(node: str, prefix: Path, engine: Path, instrumented: Path | None = None) -> list[dict]:
    """Every mutant Stryker makes of ``engine`` (id, mutatorName, replacement, location; lines 0-based);
    ``instrumented``: where to write the instrumented engine too (every mutant switchable)."""
    done = subprocess.run([node, str(LISTER), str(prefix), str(engine), *([str(instrumented)] if instrumented else [])],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise Unavailable(f"listing the mutants failed: {done.stderr.strip()[-LOG_TAIL:]}")
    return json.loads(done.stdout)


def sample_ranges(mutants: list[dict], name: str, count: int, seed: int) -> list[str]:
    """Stryker ``mutate`` ranges of ``count`` mutants chosen by ``seed``: each range is its mutant's code,
    so the run holds these mutants and those of the same code or inside it (Stryker mutates by range)."""
    chosen = random.Random(f"holdem-cert mutate sample {seed}").sample(mutants, min(count, len(mutants)))
    ranges = set()
    for m in chosen:
        start, end = m["location"]["start"], m["location"]["end"]
        ranges.add(f"{name}:{start['line'] + 1}:{start['column']}-{end['line'] + 1}:{end['column']}")
    return sorted(ranges)


@dataclass
class Outcome:
    report: dict  # Stryker's JSON report (mutation-testing-report schema)
    left: list[str]  # the tests left out: the original engine does not pass them (each with why)


def run(engine: Path, plan: Plan, *, jobs: int, mutate: list[str] | None = None, on_event=lambda event: None,
        prefix: Path | None = None) -> Outcome:
    """Stryker on ``engine`` with our test runner and ``plan``; ``mutate``: ranges (default: the whole file).
    ``on_event`` hears the progress reporter's events (a dict each). Raises Unavailable when Stryker fails."""
    prefix = prefix or install()
    work = Path(tempfile.mkdtemp(prefix="holdem-mutate-"))
    events_r, events_w = os.pipe()
    proc = None
    try:
        shutil.copyfile(engine, work / engine.name)
        (work / "plan.json").write_text(json.dumps(plan.to_json()), encoding="utf-8")
        config = {
            "mutate": mutate or [engine.name],
            "testRunner": RUNNER, "plugins": [str(PLUGINS)], "coverageAnalysis": "perTest",
            "reporters": ["json", "holdem-progress"],
            "jsonReporter": {"fileName": "reports/mutation.json"},
            "concurrency": jobs, "timeoutFactor": TIMEOUT_FACTOR, "timeoutMS": TIMEOUT_MS,
            "dryRunTimeoutMinutes": DRY_RUN_MINUTES, "disableTypeChecks": False, "logLevel": "warn",
            "fileLogLevel": "off", "allowConsoleColors": False, "cleanTempDir": True,
            "ignorePatterns": ["plan.json", DRY_RUN_FILE, "stryker.log"],  # ours, not the engine's: not copied
        }
        (work / "stryker.config.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
        env = {**os.environ, PLAN_ENV: str(work / "plan.json"), "HOLDEM_MUTATE_PYTHON": sys.executable,
               "HOLDEM_MUTATE_ENGINE": engine.name, "HOLDEM_MUTATE_EVENTS_FD": str(events_w),
               "PYTHONPATH": os.pathsep.join([str(Path(conformance.__file__).resolve().parent.parent),
                                              *filter(None, [os.environ.get("PYTHONPATH")])]),
               "NO_COLOR": "1"}
        log = open(work / "stryker.log", "w+", encoding="utf-8")
        proc = subprocess.Popen([plan.node, str(prefix / "node_modules" / PACKAGE / "bin" / "stryker.js"), "run",
                                 "stryker.config.json"], cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, pass_fds=(events_w,), start_new_session=True)
        os.close(events_w)
        events_w = None
        reader = threading.Thread(target=_read_events, args=(events_r, on_event), daemon=True)
        reader.start()
        code = proc.wait()
        reader.join(5)
        log.seek(0)
        output = log.read()
        log.close()
        report_file = work / "reports" / "mutation.json"
        said = json.loads((work / DRY_RUN_FILE).read_text(encoding="utf-8")) if (work / DRY_RUN_FILE).is_file() else {}
        if "error" in said:  # the session's reason, not Stryker's "something went wrong in the initial test run"
            raise Unavailable(said["error"])
        if code != 0 or not report_file.is_file():
            raise Unavailable(f"StrykerJS failed (exit {code}): {_tail(output)}")
        return Outcome(json.loads(report_file.read_text(encoding="utf-8")), said.get("left", []))
    finally:
        if proc is not None and proc.poll() is None:  # Ctrl-C or an error: Stryker and its runners go
            _kill_group(proc)
        if events_w is not None:
            os.close(events_w)
        shutil.rmtree(work, ignore_errors=True)


def html_view(report: dict, prefix: Path) -> str:
    """The mutation-testing-elements view of ``report``, self-contained: Stryker's html reporter's page
    (its html-reporter.js), with the installed elements' script inline and the report as its data (every
    ``<`` escaped, so that no text of the report can end the script)."""
    script = (prefix / "node_modules" / "mutation-testing-elements" / "dist" / "mutation-test-elements.js").read_text(
        encoding="utf-8")
    data = json.dumps(report, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return ("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>holdem-cert mutate</title>\n"
            f"<script>\n{script}\n</script>\n</head>\n<body>\n"
            "<mutation-test-report-app titlePostfix=\"holdem-cert mutate\"></mutation-test-report-app>\n"
            f"<script>\nconst app = document.querySelector('mutation-test-report-app');\napp.report = {data};\n"
            "function updateTheme() { document.body.style.backgroundColor = app.themeBackgroundColor; }\n"
            "app.addEventListener('theme-changed', updateTheme);\nupdateTheme();\n</script>\n</body>\n</html>\n")


def _read_events(fd: int, on_event) -> None:
    with os.fdopen(fd, "r", encoding="utf-8") as lines:
        for line in lines:
            try:
                on_event(json.loads(line))
            except ValueError:
                continue


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(5)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def _tail(output: str) -> str:
    """Stryker's last words, without its stack traces' noise."""
    text = output.strip()
    return text if len(text) <= LOG_TAIL else "\u2026" + text[-LOG_TAIL:]
