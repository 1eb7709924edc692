"""``holdem-cert repro FILE``: rerun a failure's reproduction (conformance.report.repro).

- ``FILE.js`` (a JavaScript engine's): run under the suite's QuickJS, as ``node FILE.js`` runs it
  under node: the engine files it names are loaded in a worker process, the script replays the
  vector and prints the expected and actual value at the first divergence.
- ``FILE.json`` (a ``--cmd`` engine's, any language): ``--cmd "COMMAND"`` is required: the vector is
  replayed against COMMAND over docs/engine-protocol.md and judged as the certifier judges it. The
  file names the command that failed, but is never run by itself (people share these files):
  without ``--cmd`` it says which command to pass.

Exit 1 while the engine still diverges there, 0 when it no longer does, 2 on a usage or I/O error.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from conformance.errors import UsageError
from conformance.host.worker import Worker, thrown_text
from conformance.judge.engine_drivers import read_source
from conformance.judge.families import FAMILIES
from conformance.report.repro import ADAPTER_LINE, FILES_LINE, REPRODUCTION, replay_command

NAME = "repro"
HELP = "rerun a failure's reproduction: report/repro/ID.js under the suite's QuickJS, ID.json with --cmd COMMAND"
TIMEOUT_MS = 180_000  # the longest vector budget (a tournament game, engine_drivers.budget_ms)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", type=Path, metavar="FILE",
                        help="a reproduction written next to a report (repro/ID.js, or repro/ID.json for a --cmd engine)")
    parser.add_argument("--cmd", metavar="COMMAND",
                        help="the engine to replay a --cmd reproduction (ID.json) against (never run from the file)")


def run(args: argparse.Namespace) -> int:
    try:
        script = read_source(args.script, "reproduction")
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    data = _command_reproduction(script)
    if data is not None:
        return _replay(args, data)
    if args.cmd is not None:
        raise UsageError(f"{args.script}: --cmd replays a --cmd engine's reproduction (repro/ID.json); this is not one")
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


def _command_reproduction(text: str) -> dict | None:
    """The --cmd reproduction ``text`` holds, or None when it is not one (a JavaScript script)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) and data.get("format") == REPRODUCTION else None


def _replay(args: argparse.Namespace, data: dict) -> int:
    for field, kind in (("id", str), ("family", str), ("test", dict)):
        if not isinstance(data.get(field), kind):
            raise UsageError(f"{args.script}: a --cmd reproduction without its {field!r} ({kind.__name__})")
    if data["family"] not in FAMILIES or not isinstance(data["test"].get("input"), dict):
        raise UsageError(f"{args.script}: family {data['family']!r} or test.input is not a vector's")
    if args.cmd is None:
        failed = data.get("failedCommand")
        raise UsageError(f"{args.script}: a --cmd engine's reproduction: pass the engine to replay it against, "
                         f"--cmd \"COMMAND\" (it was written for --cmd {shlex.quote(str(failed))}; a reproduction "
                         "never runs a command by itself)")
    try:
        lines, diverges = replay_command(data, args.cmd)
    except ValueError as exc:  # an empty --cmd, or unbalanced quotes
        raise UsageError(f"--cmd: {exc}") from None
    print("\n".join(lines))
    return 1 if diverges else 0
