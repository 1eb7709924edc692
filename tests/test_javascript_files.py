"""The suite's own JavaScript lives in .js files beside the modules that load them (issue #16):
every one is packaged and parses, and the logic in them works outside QuickJS too (under node, V8)."""
from __future__ import annotations

import fnmatch
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.harness.runner import ENGINE_PATH, bundled_engine
from conformance.host import jsvalue
from conformance.host.worker import decode
from conformance.judge.engine_drivers import DRIVER_JS, QuickJSDriver
from conformance.report.repro import REPRO_CHECK_JS
from conformance.vectors.library import load

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
JS_FILES = sorted((ROOT / "conformance").rglob("*.js"))
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript files are checked with node")


def test_the_modules_javascript_is_in_files():
    names = {p.relative_to(ROOT).as_posix() for p in JS_FILES}
    assert {"conformance/host/worker_bootstrap.js", "conformance/host/node_timing.js",
            "conformance/judge/engine_driver.js", "conformance/report/replayer.js",
            "conformance/report/repro_load.js", "conformance/report/repro_check.js"} <= names, names


def test_every_js_file_is_package_data():
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    for path in JS_FILES:
        package = ".".join(path.parent.relative_to(ROOT).parts)
        assert any(fnmatch.fnmatch(path.name, pattern) for pattern in package_data.get(package, [])), \
            f"{path.relative_to(ROOT)} is not in pyproject's package-data for {package}"


@needs_node
@pytest.mark.parametrize("path", JS_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_js_file_parses(path):
    check = subprocess.run([NODE, "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stderr


def run_node(script: str, tmp_path: Path) -> subprocess.CompletedProcess:
    path = tmp_path / "script.js"
    path.write_text(script, encoding="utf-8")
    return subprocess.run([NODE, str(path)], capture_output=True, text=True, timeout=120)


def plain_inputs(family: str, count: int) -> list[dict]:
    """The family's first ``count`` vectors whose input JSON carries every value as is (no $js tag)."""
    tests = [t for t in load(family)["tests"] if jsvalue.TAG not in json.dumps(t["input"])]
    return tests[:count]


@needs_node
def test_the_engine_driver_plays_the_same_under_node_as_under_quickjs(tmp_path):
    """The driver's logic (dealing, seeded games, strategies, the records it keeps) gives the same
    outcome in V8 as in QuickJS, for vectors of every family it drives."""
    tests = [(family, t) for family in ("rng", "deck", "evaluate", "equity", "pots", "legality", "hands",
                                        "tournaments", "sng3v4") for t in plain_inputs(family, 3)]
    assert len(tests) >= 20
    script = (f"const vm = require('vm'), fs = require('fs');\n"
              f"vm.runInThisContext(fs.readFileSync({json.dumps(str(ENGINE_PATH))}, 'utf8'));\n"
              f"(0, eval)('(' + {json.dumps(DRIVER_JS)} + '\\n)')();\n"
              f"for (const [family, input] of {json.dumps([[f, t['input']] for f, t in tests])})\n"
              f"  console.log(globalThis.__holdemDriver(family, input));\n")
    run = run_node(script, tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == len(tests)
    driver = QuickJSDriver(bundled_engine(), engine_name="bundled")
    driver.start()
    try:
        for (family, test), line in zip(tests, lines):
            quickjs = driver.run(family, test)
            assert quickjs.kind == "result", (test["id"], quickjs)
            assert decode(json.loads(line)) == quickjs.value, test["id"]
    finally:
        driver.close()


REPRO_OUTCOME = {
    "decisions": [{"pot": 30, "street": "preflop"}, {"pot": 60, "street": "flop"}],
    "histories": [{"decision": 0, "present": True, "history": ["hand 1"]}],
    "actions": [{"action": "call"}, {"action": "raise", "amount": 40}],
    "standings": [{"id": "a", "chips": 100}, {"id": "b", "chips": 50}],
}


@needs_node
@pytest.mark.parametrize("first, offset, lines, code", [
    # a decision state's field, with its history put back from the record
    ({"path": "state.pot", "decision": 1, "hand": 1, "expected": 60, "clause": "rules.pot"}, 0,
     ["first divergence at hand 1, decision 1: state.pot (breaks rules.pot)", "  expected (reference): 60",
      "  actual (this engine): 60", "the same now: this step no longer diverges"], 0),
    ({"path": "state.history[0]", "decision": 1, "hand": 1, "expected": "hand 0", "clause": "state.history"}, 0,
     ["first divergence at hand 1, decision 1: state.history[0] (breaks state.history)",
      '  expected (reference): "hand 0"', '  actual (this engine): "hand 1"',
      "DIVERGES: the engine still leaves the rules here"], 1),
    # the steps before the decisions shift the decision index (sng3v4, OFFSET)
    ({"path": "action.amount", "decision": 3, "hand": 2, "expected": 50, "clause": "rules.raise"}, 2,
     ["first divergence at hand 2, decision 3: action.amount (breaks rules.raise)", "  expected (reference): 50",
      "  actual (this engine): 40", "DIVERGES: the engine still leaves the rules here"], 1),
    # the end of the game, and a path the engine's outcome lacks
    ({"path": "standings()[1].place", "decision": None, "hand": None, "expected": 2, "clause": "standings"}, 0,
     ["first divergence at the end of the game: standings()[1].place (breaks standings)",
      "  expected (reference): 2", '  actual (this engine): "(missing)"',
      "DIVERGES: the engine still leaves the rules here"], 1),
])
def test_a_reproduction_locates_the_engines_value_at_the_divergence(tmp_path, first, offset, lines, code):
    """repro_check.js: the value at a step judge's divergence path, found in the driver's outcome."""
    script = (f"const FIRST = {json.dumps(first)};\nconst EXPECTED = null;\nconst OFFSET = {offset};\n"
              f"const FAMILY = 'hands', INPUT = {{}};\n"  # the driver's outcome, as it would return it:
              f"globalThis.__holdemDriver = () => {json.dumps(json.dumps(REPRO_OUTCOME))};\n" + REPRO_CHECK_JS)
    run = run_node(script, tmp_path)
    assert run.stdout.splitlines() == lines, run.stderr
    assert run.returncode == code
