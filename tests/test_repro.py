"""Issue #13 item 1: every failed vector carries its first divergence, its input in readable form
and a reproduction that runs without our code's help (node, the suite's QuickJS, a --cmd pipe)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli.main import main
from conformance.judge.trajectory import Plan, ReferenceGame
from conformance.report.html import render
from conformance.report.repro import FILES_LINE, readable_input
from conformance.vectors import library as vectors
from cli_helpers import reference_cmd_engine

ROOT = Path(__file__).resolve().parent.parent
ENGINE = (ROOT / "reference" / "js" / "poker-engine.js").read_text(encoding="utf-8")
NODE = shutil.which("node")
# A single-rule mutant (tests/mutants/mutants.py, no-burn-card): every board is a card early.
NO_BURN = ("this.draw(); // burn", "// no burn")


def run_cli(*args: str) -> int:
    return main(list(args))


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    """A JS engine that burns no card, certified on the hands family: (report dir, report)."""
    out = tmp_path_factory.mktemp("broken")
    engine = out / "engine.js"
    assert ENGINE.count(NO_BURN[0]) == 1
    engine.write_text(ENGINE.replace(*NO_BURN), encoding="utf-8")
    assert run_cli("engine", str(engine), "--family", "hands", "--no-fresh", "--quiet",
                   "--json", str(out / "report.json")) == 1
    return out, json.loads((out / "report.json").read_text())


def rerun(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def values(output: str) -> dict:
    """The expected and actual lines a reproduction prints."""
    lines = dict(line.strip().split(": ", 1) for line in output.splitlines() if line.startswith("  "))
    return {k.split(" ")[0]: json.loads(v) for k, v in lines.items()}


def test_every_failure_has_message_breaks_input_and_a_script(broken):
    out, report = broken
    assert report["failures"]
    for f in report["failures"]:
        assert f["message"] and f["breaks"] == f["first"]["clause"]
        assert f["input"]["seats"]["seat 0"] and isinstance(f["input"]["answers"], list) and f["input"]["decks"]
        assert f["repro"]["kind"] == "javascript" and (out / f["repro"]["file"]).read_text() == f["repro"]["script"]
        assert f["repro"]["run"] == [f"node {f['repro']['file']}", f"holdem-cert repro {f['repro']['file']}"]
        assert json.loads(FILES_LINE.search(f["repro"]["script"]).group(1)) == [str(out / "engine.js")]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_script_reproduces_the_divergence_under_node_and_quickjs(broken):
    out, report = broken
    # an end-of-game divergence and one at a decision
    chosen = [next(f for f in report["failures"] if f["first"]["decision"] is None),
              next(f for f in report["failures"] if f["first"]["decision"] is not None)]
    for f in chosen:
        first = f["first"]
        for command in ([NODE, f["repro"]["file"]],
                        [sys.executable, "-m", "conformance", "repro", f["repro"]["file"]]):
            done = rerun(command, out)
            assert done.returncode == 1, done.stderr
            assert f"{first['path']} (breaks {first['clause']})" in done.stdout and "DIVERGES" in done.stdout
            assert values(done.stdout) == {"expected": first["expected"], "actual": first["actual"]}


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_script_says_so_when_the_engine_no_longer_diverges(broken, tmp_path):
    out, report = broken
    f = report["failures"][0]
    fixed = tmp_path / "fixed.js"
    fixed.write_text(ENGINE, encoding="utf-8")
    script = tmp_path / "repro.js"
    script.write_text(FILES_LINE.sub(f"const ENGINE_FILES = {json.dumps([str(fixed)])};", f["repro"]["script"]))
    for command in ([NODE, str(script)], [sys.executable, "-m", "conformance", "repro", str(script)]):
        done = rerun(command, tmp_path)
        assert done.returncode == 0 and "the same now" in done.stdout, done.stdout + done.stderr
        assert values(done.stdout)["actual"] == f["first"]["expected"]


def test_repro_command_names_a_file_that_is_not_a_reproduction(tmp_path, capsys):
    (tmp_path / "x.js").write_text("console.log(1);")
    assert run_cli("repro", str(tmp_path / "x.js")) == 2
    assert "not a reproduction script (no 'const ENGINE_FILES = [...];' line)" in capsys.readouterr().err


# The reference with the first history entry's board in the wrong order.
REVERSED_BOARD = """
history = reply.get("result", {}).get("history") if isinstance(reply.get("result"), dict) else None
if history and history[0].get("board"):
    history[0]["board"] = history[0]["board"][::-1]
"""


def test_a_cmd_engines_reproduction_replays_against_the_command_given(tmp_path, monkeypatch):
    """Issue #36 item 2: a --cmd failure's reproduction is a JSON file (the vector, the reference's expected
    trajectory, the first divergence, the command that failed); holdem-cert repro FILE --cmd COMMAND replays
    it: exit 1 against the engine that failed, 0 against the reference, 2 without --cmd."""
    monkeypatch.chdir(ROOT)
    command = reference_cmd_engine(tmp_path, REVERSED_BOARD)
    assert run_cli("engine", "--cmd", command, "--family", "hands", "--no-fresh", "--fuzz-seconds", "0", "--quiet",
                   "--json", str(tmp_path / "r.json")) == 1
    f = json.loads((tmp_path / "r.json").read_text())["failures"][0]
    assert f["repro"]["kind"] == "command" and f["repro"]["run"] == [f"holdem-cert repro {f['repro']['file']} --cmd '{command}'"]
    data = json.loads((tmp_path / f["repro"]["file"]).read_text())
    # the report carries the file's data; the file adds the expected trajectory
    assert {k: v for k, v in data.items() if k != "expectedTrajectory"} == f["repro"]["data"]
    assert data["failedCommand"] == command and data["first"] == f["first"] and data["test"]["id"] == f["id"]
    # the expected trajectory is what the reference answers: every decision state, action and record
    assert data["expectedTrajectory"]["history"][0]["board"] == f["first"]["expected"]
    assert len(data["expectedTrajectory"]["decisions"]) == len(data["test"]["input"]["script"])
    # the engine's board seen only in its history: the dealing failure points at that record's board
    assert f["first"]["path"] == "history()[0].board" and f["first"]["clause"] == "rules.burn"

    def replay(*cmd):
        return subprocess.run([sys.executable, "-m", "conformance", "repro", f["repro"]["file"], *cmd], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})

    done = replay("--cmd", command)
    assert done.returncode == 1 and "history()[0].board (breaks rules.burn)" in done.stdout, done.stdout + done.stderr
    assert values(done.stdout) == {"expected": f["first"]["expected"], "actual": f["first"]["actual"]}
    done = replay("--cmd", f"{sys.executable} -m reference.adapter")
    assert done.returncode == 0 and "the same now" in done.stdout, done.stdout + done.stderr
    done = replay()
    assert done.returncode == 2 and "--cmd" in done.stderr and command in done.stderr


def test_readable_input_deals_hand_one_as_the_reference_does():
    """The hole cards shown for hand 1 are those the reference deals each seat (its decision states)."""
    checked = 0
    for t in vectors.load("hands")["tests"]:
        i = t["input"]
        if "1" not in i["game"]["options"].get("decks", {}):
            continue
        shown = readable_input("hands", i)
        assert shown["answers"] == i["script"] and shown["decks"]["hand 1"].split() == i["game"]["options"]["decks"]["1"]
        ref, plan = ReferenceGame(i["game"]), Plan.of(i)
        for k in range(len(i["script"])):
            state = ref.state()
            if state is None or state["handNumber"] != 1:
                break
            seat = state["you"]["seat"]
            assert shown["hand 1"]["hole cards"][f"seat {seat} ({i['game']['seats'][seat]})"] == " ".join(state["you"]["cards"])
            checked += 1
            ref.act(plan.answer(k, state))
    assert checked > 50


# ---- the page (issue #13 item 2) ----------------------------------------------------------------

def test_the_page_shows_each_failures_divergence_reproduction_and_game(broken):
    _, report = broken
    page = render({"engine": report})
    f = next(f for f in report["failures"] if f["first"]["decision"] is not None)
    assert f"<code class='ok'>{json.dumps(f['first']['expected'])}</code>".replace('"', "&quot;") in page
    assert f"<code class='bad'>{json.dumps(f['first']['actual'])}</code>".replace('"', "&quot;") in page
    assert "<code>rules.burn</code> — Rules: a card is burned before each board street" in page
    assert f"<a href='{f['repro']['file']}'>" in page and f"<pre class='run'>node {f['repro']['file']}</pre>" in page
    # every shown failing game with a decision has its replayer (a game of no decision has no states)
    shown = report["failures"][:50]
    assert all("trajectory" in f or not f["input"]["answers"] for f in shown)
    assert page.count("<summary>the game up to the divergence</summary>") == sum("trajectory" in f for f in shown) > 40
    states = f["trajectory"]["states"]
    assert f["trajectory"]["step"] == len(states) - 1 and states[-1]["handNumber"] == f["first"]["hand"]


DIVERGENCE_PROBE = """<script>
(function () {
  var out = [];
  document.querySelectorAll('[data-replayer^=game-]').forEach(function (root) {
    var d = root.querySelector('.rp-diverge'), step = root.querySelector('.rp-step');
    var at = {opened: step.textContent, shown: !d.hidden, text: d.textContent,
              last: root.querySelector('[data-step=forward]').disabled};
    root.querySelector('[data-step=back]').click();
    at.back = root.querySelector('.rp-diverge').hidden;
    out.push(at);
  });
  var pre = document.createElement('pre'); pre.id = 'probe';
  pre.textContent = JSON.stringify({games: out, scrollWidth: document.documentElement.scrollWidth, innerWidth: innerWidth});
  document.body.appendChild(pre);
})();
</script>"""


@pytest.mark.skipif(shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
                    reason="Debian's chromium is not installed (.ci/run installs it)")
def test_the_failing_games_open_at_their_highlighted_divergence_in_chromium(broken, tmp_path):
    from test_html_report import chromium

    _, report = broken
    report = dict(report, failures=report["failures"][:6])
    dom = chromium(tmp_path, render({"engine": report}).replace("</body>", DIVERGENCE_PROBE + "</body>"),
                   "--window-size=480,900", "--dump-dom").stdout
    found = json.loads(dom.split('<pre id="probe">', 1)[1].split("</pre>", 1)[0].replace("&quot;", '"').replace("&amp;", "&"))
    assert len(found["games"]) == 6 and found["scrollWidth"] <= found["innerWidth"]
    for game, f in zip(found["games"], report["failures"]):
        first = f["first"]
        assert game["shown"] and game["last"] and game["back"] and "diverges here" in game["opened"]
        js = lambda v: json.dumps(v, separators=(",", ":"))  # noqa: E731 - the page's JSON.stringify
        assert game["text"] == (f"first divergence: {first['path']}: expected {js(first['expected'])}, "
                                f"actual {js(first['actual'])} — breaks {first['clause']}")


def test_certify_writes_the_reproductions_into_its_report_directory(broken, tmp_path):
    import xml.etree.ElementTree as ET

    from conformance.cli.certify import _fill_report

    _, report = broken
    _fill_report(tmp_path, {"engine": report}, ET.Element("testsuites"))
    for f in report["failures"]:
        assert (tmp_path / f["repro"]["file"]).read_text() == f["repro"]["script"]
    (tmp_path / "stopped").mkdir()
    _fill_report(tmp_path / "stopped", {"stopped": "the showcase broke"}, ET.Element("testsuites"))
    assert not (tmp_path / "stopped" / "repro").exists()


def test_a_failing_bot_gets_its_state_files_and_the_command_that_reruns_one(tmp_path, capsys):
    """certify: each battery error's first failing state is a file of the report, and
    `holdem-cert bot FILE --state FILE` reruns it alone and refuses its answer again."""
    import xml.etree.ElementTree as ET

    from conformance.bots.bot_cert import CertOptions
    from conformance.cli.certify import CertifyOptions, _certify_bot, _fill_report

    bots = ROOT / "tests" / "bots"
    options = CertifyOptions(report_dir=tmp_path / "report", bot_options=CertOptions(
        generated_states=10, vector_states=10, kind_states=1, smoke_seats=(), full_table_hands=0, node=False))
    bot = _certify_bot({"id": "always-check", "file": "bad/always-check.js"}, 0, bots, options)
    assert bot["verdict"] == "rejected" and bot["repro"]
    (tmp_path / "report").mkdir()
    _fill_report(tmp_path / "report", {"bots": [bot]}, ET.Element("testsuites"))
    page = render({"bots": [bot]})
    for r in bot["repro"]:
        saved = json.loads((tmp_path / "report" / r["file"]).read_text())
        assert saved["id"] == r["state"] and saved["state"]["you"]
        assert r["run"] == f"holdem-cert bot {bots / 'bad/always-check.js'} --state {tmp_path / 'report' / r['file']}"
        assert f"<pre class='run'>{r['run']}</pre>" in page
        assert run_cli(*r["run"].split()[1:]) == 1
        assert "verdict: " in capsys.readouterr().out
