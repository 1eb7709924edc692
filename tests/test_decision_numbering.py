"""One numbering of decisions everywhere (issue #24, item 7): a failure's message, its JSON report
entry (``first.decision``, its ``trajectory``), its cause's example and terminal line, its
reproduction's output and the replayer's frame at the divergence all name the same decision, on
engines whose failures come after holdem-sng-3-v4 steps (the steps are decisions 0..n-1, the
play-out's decisions follow them) and in a hands game."""
import json
import re
import shutil
import subprocess

import pytest

from conformance.judge.engine_cert import certify, load_tests
from conformance.judge.engine_drivers import QuickJSDriver
from conformance.judge.families import DEFAULT_RULESET, FAMILY_RULESET
from conformance.report import repro
from conformance.report.formats import cause_lines, run_causes, to_json
from conformance.report.replayer import SCRIPT as REPLAYER_JS
from js_vector_runner import ENGINE_PATH
from mutants.mutants import MUTANTS

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")
SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
DECISION = re.compile(r"decision (\d+)")
# The replayer's frames for a failing game, as the HTML page builds them (framesFromStates).
FRAMES_JS = """
const window = {}, document = {querySelectorAll: () => []};
%s
const g = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const frames = window.HoldemReplayer.framesFromStates(g.states, g.divergence, g.start);
console.log(JSON.stringify(frames.filter(f => f.diverges).map(f => f.title)));
"""


def _replayer_title(tmp_path, game: dict, first: dict) -> str:
    program = tmp_path / "frames.js"
    program.write_text(FRAMES_JS % REPLAYER_JS, encoding="utf-8")
    data = {"states": game["states"], "start": game["decision"], "divergence": {**first, "step": game["step"]}}
    done = subprocess.run([NODE, str(program)], input=json.dumps(data), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    [title] = json.loads(done.stdout)
    return title


def _certify(engine, tests: dict, family: str):
    return certify(QuickJSDriver(engine.read_text(encoding="utf-8"), engine_name="mutant.js", host="node"), tests, {},
                   ruleset=FAMILY_RULESET.get(family, DEFAULT_RULESET))


def _with_steps(report, tests: list[dict]) -> list[dict]:
    """Each failed hands vector with its first answers (up to 3, before the divergence) played as
    steps first, as a fuzz game's are (docs/engine-protocol.md, hands): the same game, the same
    decisions, numbered after the steps."""
    by_id = {t["id"]: t for t in tests}
    out = []
    for case in report.with_status("failed"):
        d = (case.first or {}).get("decision")
        if isinstance(d, int) and d >= 1:
            t = by_id[case.id]
            m = min(3, d)
            out.append({**t, "id": t["id"] + ".steps", "input": {**t["input"], "steps": t["input"]["script"][:m],
                                                                  "script": t["input"]["script"][m:]}})
    return out


@pytest.mark.parametrize("name", ["v4-heads-up-transition", "min-raise-from-raise-to", "min-raise-from-raise-to+steps"])
def test_message_json_cause_repro_and_replayer_name_the_same_decision(name, tmp_path):
    mutant = next(m for m in MUTANTS if m["name"] == name.split("+")[0])
    family = mutant["family_expected_to_fail"]
    engine = tmp_path / "mutant.js"
    engine.write_text(SOURCE.replace(mutant["find"], mutant["replace"]), encoding="utf-8")
    tests = load_tests([family])
    report = _certify(engine, tests, family)
    if name.endswith("+steps"):  # a hands game with steps first: numbered as sng3v4's
        tests = {family: _with_steps(report, tests[family])}
        assert tests[family]
        report = _certify(engine, tests, family)
    repro.attach(report, {"driver": "quickjs", "source": str(engine)}, tests)
    found = run_causes(report)
    entries = {f["id"]: f for f in to_json(report)["failures"]}
    cases = [c for c in report.with_status("failed") if c.first and c.first.get("decision") is not None]
    assert cases
    scripts = []
    for k, case in enumerate(cases):
        scripts.append(tmp_path / f"{k}.js")
        scripts[-1].write_text(case.repro["script"], encoding="utf-8")
    shown, bundled = {}, []
    for case, run in zip(cases, repro.run_batch(NODE, scripts)):
        d = case.first["decision"]
        offset = len(next(t for t in tests[family] if t["id"] == case.id)["input"].get("steps") or ())
        entry = entries[case.id]
        where = f"decision {d}"
        assert where in case.message and entry["first"]["decision"] == d, (case.id, case.message)
        assert run["exit"] == 1 and f"first divergence at hand {case.first['hand']}, {where}:" in run["stdout"], run["stdout"]
        game = entry["trajectory"]
        assert game["decision"] + game["step"] == d, (case.id, game["decision"], game["step"])
        assert _replayer_title(tmp_path, game, case.first).startswith(where + " "), case.id
        bundled.append(scripts[len(shown)].with_suffix(".bundled.js"))
        bundled[-1].write_text(case.repro["script"].replace(json.dumps([str(engine)]), json.dumps([str(ENGINE_PATH)])),
                               encoding="utf-8")
        shown[case.id] = (d, offset)
    # Failures after steps among them (sng3v4, a hands game with steps): the numbering spans both.
    if family == "sng3v4" or name.endswith("+steps"):
        assert any(d >= offset > 0 for d, offset in shown.values()), shown
    # and each reproduction looks at that decision: the bundled engine does not diverge there
    ran = repro.run_batch(NODE, bundled)
    assert [r["exit"] for r in ran] == [0] * len(bundled), [r["stdout"][-400:] for r in ran if r["exit"]][:2]
    lines = "\n".join(cause_lines(found))
    for cause in found:
        ex = cause.example
        if ex["vector"] in shown and "note" not in (ex.get("repro") or {"note": 1}):
            d = shown[ex["vector"]][0]
            assert ex["first"]["decision"] == d and f"smallest example {ex['vector']} (hand {ex['first']['hand']}, decision {d})" in lines
