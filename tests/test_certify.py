"""holdem-cert certify: the main job end to end on a small roster, and its failure paths."""
import json
from pathlib import Path


from conformance.bot_cert import CertOptions
from conformance.certify import CertifyOptions, run
from conformance.engine_choice import EngineSpec
from conformance import fresh_vectors
from conformance.cli import main
from cli_helpers import vectors_run

ROOT = Path(__file__).resolve().parent.parent
SMALL = CertOptions(generated_states=10, vector_states=10, smoke_seats=(2,), smoke_max_hands=5, decision_ms=2000)


def roster(tmp_path, bots):
    (tmp_path / "bots").mkdir()
    entries = []
    for bot_id, source, bot_name in bots:
        data = source.read_bytes()
        (tmp_path / "bots" / f"{bot_id}.js").write_bytes(data)
        entries.append({"id": bot_id, "name": bot_id, "botName": bot_name, "lab": "Tests", "color": "#123456",
                        "file": f"bots/{bot_id}.js", "bytes": len(data), "note": "a test entry"})
    path = tmp_path / "bots.json"
    path.write_text(json.dumps({"version": 1, "bots": entries}, indent=2) + "\n")
    return path


def options(tmp_path, path, **kw):
    return CertifyOptions(roster=path, report_dir=tmp_path / "report", showcase_hands=15,
                          engine=EngineSpec(families=("rng", "pots")), bot_options=SMALL, **kw)


def test_certify_writes_a_whole_report(tmp_path):
    path = roster(tmp_path, [("caller", ROOT / "bots/sample-caller.js", "Sample Caller"),
                             ("tight", ROOT / "bots/sample-tight.js", "Sample Tight")])
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "stale.txt").write_text("from an older run")
    summary = run(options(tmp_path, path))
    files = sorted(p.name for p in (tmp_path / "report").iterdir())
    assert files == ["index.html", "junit.xml", "summary.json"]  # the old report was replaced whole
    assert summary["certified"] and [b["verdict"] for b in summary["bots"]] == ["certified", "certified"]
    assert json.loads((tmp_path / "report/summary.json").read_text()) == summary
    assert summary["showcase"]["hands"] == len(summary["showcase"]["seats"][0]["chips"]) <= 15
    html = (tmp_path / "report/index.html").read_text()
    assert "caller" in html and "<polyline" in html
    assert summary["engine"]["families"]["rng"]["passed"] == vectors_run("rng")  # golden and fresh
    assert summary["engine"]["engine"]["fresh"]["tests"] == fresh_vectors.COUNTS["rng"] + fresh_vectors.COUNTS["pots"]
    # Same seeds, same showcase.
    again = run(options(tmp_path, path))
    assert again["showcase"]["digest"] == summary["showcase"]["digest"]


def test_a_rejected_bot_fails_certification(tmp_path):
    path = roster(tmp_path, [("caller", ROOT / "bots/sample-caller.js", "Sample Caller"),
                             ("evil", ROOT / "tests/bots/bad/eval.js", "evil")])
    summary = run(options(tmp_path, path))
    assert not summary["certified"]
    evil = summary["bots"][1]
    assert evil["verdict"] == "rejected" and any("eval" in r for r in evil["reasons"])
    junit = (tmp_path / "report/junit.xml").read_text()
    assert 'name="evil"' in junit and "<failure" in junit


def test_cli_usage_errors(tmp_path, capsys):
    assert main(["certify", "--roster", str(tmp_path / "none.json")]) == 2
    assert "does not exist" in capsys.readouterr().err
    path = roster(tmp_path, [("caller", ROOT / "bots/sample-caller.js", "Sample Caller")])
    assert main(["certify", "--roster", str(path), "--engine", str(tmp_path / "no.js")]) == 2
    assert main(["certify", "--roster", str(path), "--hands", "0"]) == 2
