"""Helpers for command-line tests: a roster in a temporary directory, and a CLI run."""
from __future__ import annotations

import json
import shutil
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from conformance.bots.bot_cert import certify_file
from conformance.cli.main import main
from conformance.vectors import fresh_vectors, library as vectors


def make_roster(root: Path, sources: dict[str, "Path | str"]) -> Path:
    """A bots.json in ``root`` with one entry per id: a file to copy, or a source text."""
    (root / "bots").mkdir(parents=True, exist_ok=True)
    entries = []
    for bot_id, source in sources.items():
        target = root / "bots" / f"{bot_id}.js"
        if isinstance(source, Path):
            shutil.copyfile(source, target)
        else:
            target.write_text(source, encoding="utf-8")
        entries.append({"id": bot_id, "name": bot_id.replace("-", " ").title(), "botName": bot_id, "lab": "Tests",
                        "color": "#123456", "file": f"bots/{bot_id}.js", "bytes": target.stat().st_size,
                        "note": "A test bot."})
    path = root / "bots.json"
    path.write_text(json.dumps({"version": 1, "bots": entries}, indent=2) + "\n", encoding="utf-8")
    return path


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """Run ``holdem-cert`` in-process; a traceback in its output is a failure."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def vectors_run(family: str, fresh: bool = True) -> int:
    """How many tests ``holdem-cert engine`` runs in a family: its golden vectors, and by default its
    fresh tests (their number per family is fixed; only their inputs depend on the seed)."""
    return len(vectors.load(family)["tests"]) + (fresh_vectors.COUNTS.get(family, 0) if fresh else 0)


def certify_folder(folder: Path, options) -> dict:
    """``holdem-cert bot`` on every ``*.js`` of ``folder``, two at a time: name -> CertReport."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {p.stem: pool.submit(certify_file, p, options) for p in sorted(folder.glob("*.js"))}
        return {name: f.result(timeout=120) for name, f in futures.items()}


def reference_cmd_engine(directory: Path, change: str = "", name: str = "engine.py", prelude: str = "") -> str:
    """A ``--cmd`` engine: the reference adapter's protocol loop (``reference.adapter.serve``), each
    ``reply`` to a ``request`` first altered by ``change`` (Python statements), after ``prelude``
    (Python statements run first: a patch of the reference's own rules). Its command line."""
    script = directory / name
    # The checkout under test's reference (the installed package may be another checkout's).
    script.write_text(f"import sys\nsys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})\n"
                      + textwrap.dedent(prelude) + "\nfrom reference import adapter\n\n\ndef respond(request):\n"
                      "    reply = adapter.answer(request)\n" + textwrap.indent(textwrap.dedent(change), "    ")
                      + "\n    return reply\n\n\nadapter.serve(respond)\n")
    return f"{sys.executable} {script}"


# A --cmd engine over the reference with one bug the golden hand vectors miss (issue #36): with seven
# or more seats in the hand and a short small blind, that seat is shown not all-in in every state
# (R8 posts what it has: it is all-in).
SEVEN_SEAT_BUG = """
from reference import adapter


def respond(request):
    reply = adapter.answer(request)
    vector = request.get("vector") or {}
    spec = (vector.get("test") or {}).get("input", {}).get("hand")
    result = reply.get("result") if isinstance(reply, dict) else None
    if vector.get("family") == "hand" and isinstance(result, dict) and "decisions" in result:
        sb, small = spec["smallBlindSeat"], spec["blinds"][0]
        if sum(c > 0 for c in spec["stacks"]) >= 7 and spec["stacks"][sb] < small:
            for state in result["decisions"] + result.get("again", []):
                state["seats"][sb]["allIn"] = False
    return reply


adapter.serve(respond)
"""
