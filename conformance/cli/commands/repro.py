"""``holdem-cert repro FILE.js``: run a failure's reproduction script (conformance.report.repro) under the
suite's QuickJS, as ``node FILE.js`` runs it under node: the engine files it names are loaded in a
worker process, the script replays the vector and prints the expected and actual value at the first
divergence. Exit 1 while the engine still diverges there, 0 when it no longer does, 2 on a usage
or I/O error.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from conformance.errors import UsageError
from conformance.host.worker import Worker, thrown_text
from conformance.judge.engine_drivers import read_source
from conformance.report.repro import ADAPTER_LINE, FILES_LINE

NAME = "repro"
HELP = "run a failure's reproduction script (report/repro/ID.js) under the suite's QuickJS"
TIMEOUT_MS = 180_000  # the longest vector budget (a tournament game, engine_drivers.budget_ms)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", type=Path, metavar="FILE.js", help="a reproduction script written next to a report")


def run(args: argparse.Namespace) -> int:
    try:
        script = read_source(args.script, "reproduction script")
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    named = FILES_LINE.search(script)
    if named is None:
        raise UsageError(f"{args.script}: not a reproduction script (no 'const ENGINE_FILES = [...];' line)")
    try:
        sources = [read_source(Path(f), "engine file") for f in json.loads(named.group(1))]
    except ValueError as exc:
        raise UsageError(f"{args.script}: {exc}") from None
    # The engine files as the suite loads them: preludes and engine as one script, the adapter after.
    has_adapter = (ADAPTER_LINE.search(script) or [None, "false"])[1] == "true" and len(sources) > 1
    engine, adapter = ("\n;\n".join(sources[:-1]), sources[-1]) if has_adapter else ("\n;\n".join(sources), "")
    body = ("function () { const __lines = []; const console = { log: (...a) => { __lines.push(a.join(' ')); } };\n"
            f"{script}\nreturn {{ lines: __lines, diverges: globalThis.__reproDiverges === true }}; }}")
    with Worker(cpu_limit_ms=TIMEOUT_MS) as worker:
        started = worker.start(engine, adapter, 0, mode="engine", init_timeout_ms=TIMEOUT_MS)
        if not started.ok:
            print(f"the engine could not be loaded ({started.kind}): {thrown_text(started.error or {})}", file=sys.stderr)
            return 1
        out = worker.eval_fn(body, [], timeout_ms=TIMEOUT_MS)
    if not out.ok:
        print(f"the reproduction stopped ({out.kind}): {thrown_text(out.error or {})}", file=sys.stderr)
        return 1
    print("\n".join(out.answer["lines"]))
    return 1 if out.answer["diverges"] else 0
