"""repro.run_batch (conformance/report/repro_batch.js): many reproduction scripts in one node
process give each the exit status and output that ``node FILE.js`` gives it alone (issue #24,
item 6: tests/test_mutants.py runs every failure's reproduction of every mutant this way)."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conformance.judge.engine_cert import certify, load_tests
from conformance.judge.engine_drivers import QuickJSDriver
from conformance.report import repro
from js_vector_runner import ENGINE_PATH
from mutants.mutants import BLIND_SPOT_MUTANTS, MUTANTS

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")
SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
# Quick mutants of a game family each (a state.fresh path among them) and of two non-game ones.
SAMPLE = ("odd-chip-wrong-seat", "call-not-capped", "pots-not-merged", "fnv-over-utf16-units", "history-entries-shared")
# Scripts of the batch's own edge cases: a throw, an exit status of its own, a global left behind
# (the next script must not see it: a fresh context each), a value printed by console.log's format.
EDGES = {
    "throws.js": "'use strict';\nconsole.log('before');\nthrow new Error('stopped');\n",
    "exit3.js": "process.exitCode = 3;\nconsole.log('three', 3, {a: 1});\n",
    "leaks.js": "globalThis.leftBehind = 1;\nvar alsoLeft = 2;\nconsole.log(typeof require, typeof module, __filename.endsWith('leaks.js'));\n",
    "sees.js": "console.log(typeof leftBehind, typeof alsoLeft, typeof PokerEngine);\n"
               "if (typeof leftBehind !== 'undefined') process.exitCode = 1;\n",
}


def _mutant(name: str) -> dict:
    return next(m for m in MUTANTS + BLIND_SPOT_MUTANTS if m["name"] == name)


def _scripts(tmp_path: Path) -> list[Path]:
    out = []
    for name in SAMPLE:
        m = _mutant(name)
        family = m["family_expected_to_fail"]
        engine = tmp_path / f"{name}.engine.js"
        engine.write_text(SOURCE.replace(m["find"], m["replace"]), encoding="utf-8")
        tests = load_tests([family])
        report = certify(QuickJSDriver(engine.read_text(encoding="utf-8"), engine_name="mutant.js"), tests, {})
        repro.attach(report, {"driver": "quickjs", "source": str(engine)}, tests)
        for k, case in enumerate(c for c in report.with_status("failed") if c.repro):
            for side, files in (("mutant", [str(engine)]), ("bundled", [str(ENGINE_PATH)])):
                path = tmp_path / f"{name}.{k}.{side}.js"
                path.write_text(case.repro["script"].replace(json.dumps([str(engine)]), json.dumps(files)), encoding="utf-8")
                out.append(path)
    for name, text in EDGES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        out.append(tmp_path / name)
    return out


def test_a_batch_gives_each_script_what_node_gives_it_alone(tmp_path):
    scripts = _scripts(tmp_path)
    assert len(scripts) > 2 * len(SAMPLE) + len(EDGES)
    batch = repro.run_batch(NODE, scripts)
    assert [r["file"] for r in batch] == [str(p) for p in scripts]
    exits = set()
    for path, got in zip(scripts, batch):
        alone = subprocess.run([NODE, str(path)], capture_output=True, text=True, timeout=120)
        assert (got["exit"], got["stdout"]) == (alone.returncode, alone.stdout), path.name
        assert bool(got["stderr"]) == bool(alone.stderr), path.name  # the words differ: node adds its version
        if path.name == "throws.js":
            assert "Error: stopped" in got["stderr"] and "Error: stopped" in alone.stderr
        exits.add(got["exit"])
    assert exits == {0, 1, 3}
    seen = next(r for p, r in zip(scripts, batch) if p.name == "sees.js")
    assert seen["stdout"] == "undefined undefined undefined\n" and seen["exit"] == 0


def test_a_script_that_cannot_be_read_exits_1_as_under_node(tmp_path):
    missing = tmp_path / "no-such.js"
    alone = subprocess.run([NODE, str(missing)], capture_output=True, text=True, timeout=60)
    [got] = repro.run_batch(NODE, [missing])
    assert got["exit"] == alone.returncode == 1 and "no-such.js" in got["stderr"]
