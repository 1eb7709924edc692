"""holdem-cert certify: the main job end to end on a small roster, and its failure paths."""
import functools
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.bots.bot_cert import CertOptions
from conformance.cli.certify import CertifyOptions, run
from conformance.cli.engine_choice import EngineSpec
from conformance.cli.main import main
from conformance.vectors import fresh_vectors
from conformance.cli.commands import certify as certify_command
from cli_helpers import make_roster, reference_cmd_engine, run_cli, vectors_run

ROOT = Path(__file__).resolve().parent.parent
SMALL = CertOptions(generated_states=10, vector_states=10, smoke_seats=(2,), smoke_max_hands=5, decision_ms=2000,
                    full_table_hands=0)


@pytest.fixture
def small_bots(monkeypatch):
    """The command's bot certifications at the SMALL size, for tests of what the command reports
    about the engine and the roster (the bots' own certification: tests/test_bot_cert.py, and
    test_certify_takes_the_engine_options runs it at full size): CI's time."""
    monkeypatch.setattr(certify_command, "CertifyOptions", functools.partial(CertifyOptions, bot_options=SMALL))


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
    # families rng and pots only: no failure, and not a certification (issue #12, item 7)
    assert summary["ok"] and summary["partial"] and not summary["certified"]
    assert [b["verdict"] for b in summary["bots"]] == ["certified", "certified"]
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
    assert not summary["ok"] and not summary["certified"]  # the rejected bot, not only the partial run
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


# ---- every verdict writes a whole report; the terminal says each result once ---------------------

THROWS = "throw new Error('boom at load');\n"


def one_bot_roster(tmp_path, **change):
    path = make_roster(tmp_path, {"check-fold": ROOT / "bots/check-fold.js"})
    if change:
        data = json.loads(path.read_text())
        data["bots"][0].update(change)
        path.write_text(json.dumps(data))
    return path


def green_report(tmp_path):
    """An older report that said certified: it must not survive a newer run."""
    report = tmp_path / "R"
    report.mkdir()
    (report / "summary.json").write_text('{"certified": true}\n')
    return report


def junit_cases(report):
    root = ET.parse(report / "junit.xml").getroot()
    return {(s.get("name"), c.get("name")): c.find("failure") is not None for s in root for c in s}


def test_an_engine_that_does_not_load_is_a_verdict_with_a_whole_report(tmp_path, capsys, small_bots):
    engine = tmp_path / "throw.js"
    engine.write_text(THROWS)
    report = green_report(tmp_path)
    roster = make_roster(tmp_path, {"check-fold": ROOT / "bots/check-fold.js", "caller": ROOT / "bots/sample-caller.js"})
    code, out, err = run_cli(capsys, "certify", "--engine", engine, "--roster", roster,
                             "--report", report, "--family", "rng", "--hands", "5")
    assert code == 1 and "engine_source" not in out + err
    assert sorted(p.name for p in report.iterdir()) == ["index.html", "junit.xml", "summary.json"]
    summary = json.loads((report / "summary.json").read_text())
    assert summary["certified"] is False and summary["engine"]["smoke"][0]["passed"] is False
    cases = junit_cases(report)
    assert cases[("smoke", "smoke.load")] is True  # a failed test case CI can collect
    assert cases[("roster", "check-fold")] is False and ("bots", "check-fold") in cases
    lines = out.splitlines()
    assert lines[0].startswith("engine: not certified: smoke check smoke.load failed:") and "boom at load" in lines[0]
    assert lines[-1] == "certify: not certified" and len(lines) == len(set(lines))  # each line once
    assert "boom at load" in (report / "index.html").read_text()
    # The showcase still shows the bots, on the bundled reference, and says so.
    assert len(summary["showcase"]["seats"]) == 2 and "bundled reference" in summary["showcase"]["note"]


def test_a_broken_roster_is_a_verdict_listed_in_the_terminal_and_junit(tmp_path, capsys, small_bots):
    report = green_report(tmp_path)
    roster = one_bot_roster(tmp_path, bytes=3, lab="")
    code, out, _ = run_cli(capsys, "certify", "--roster", roster, "--report", report, "--family", "rng",
                           "--hands", "5", "--no-fresh")
    assert code == 1
    summary = json.loads((report / "summary.json").read_text())
    problems = [p for p in summary["roster"]["problems"] if p["severity"] == "error"]
    assert len(problems) >= 2
    for p in problems:  # every problem in the terminal, by entry and field
        assert f"error {p['id'] or 'roster'}.{p['field']}: {p['message']}" in out
    assert junit_cases(report)[("roster", "check-fold")] is True
    root = ET.parse(report / "junit.xml").getroot()
    assert int(root.get("failures")) >= 1


def test_a_roster_that_is_not_json_still_gets_a_report(tmp_path, capsys):
    roster = tmp_path / "bots.json"
    roster.write_text("{not json")
    code, out, _ = run_cli(capsys, "certify", "--roster", roster, "--report", tmp_path / "R", "--family", "rng",
                           "--no-fresh", "--hands", "5")
    assert code == 1 and "roster: not clean" in out
    assert junit_cases(tmp_path / "R")[("roster", "bots.json")] is True


def test_certify_takes_the_engine_options(tmp_path, capsys):
    """--cmd, --ruleset, --fresh-seed, --junit and --json - are engine's options, the same definitions."""
    cmd = f"{sys.executable} -m reference.adapter"
    junit = tmp_path / "out.xml"
    code, out, err = run_cli(capsys, "certify", "--cmd", cmd, "--roster", one_bot_roster(tmp_path),
                             "--report", tmp_path / "R", "--family", "rng", "--fresh-seed", "5", "--hands", "5",
                             "--junit", junit, "--json", "-", "--timeout-ms", "20000")
    summary = json.loads(out)  # stdout holds the JSON alone; the lines went to stderr
    # --family rng: no failures, but a partial run is never a certification (issue #12, item 7)
    assert code == 0 and summary["ok"] and summary["partial"] and not summary["certified"]
    assert "certify: no failures in a run of the families rng only: not a certification" in err
    assert summary["engine"]["engine"]["command"] == cmd and summary["engine"]["engine"]["fresh"]["seed"] == 5
    assert junit.read_text() == (tmp_path / "R/junit.xml").read_text()
    from conformance.cli.commands import certify as certify_command, engine as engine_command
    for command in (certify_command, engine_command):  # one definition of the engine options
        assert "add_engine_options" in Path(command.__file__).read_text()


def test_certify_usage_errors_print_certify_usage(tmp_path, capsys):
    code, _, err = run_cli(capsys, "certify", "--bogus")
    assert code == 2 and err.startswith("usage: holdem-cert certify") and "unrecognized arguments: --bogus" in err


def test_showcase_seats_nine_and_accounts_for_the_rest(tmp_path):
    sources = {f"b{i}": ROOT / "bots/check-fold.js" for i in range(11)}
    path = make_roster(tmp_path, sources)
    data = json.loads(path.read_text())
    data["bots"][10]["file"] = "bots/missing.js"
    path.write_text(json.dumps(data))
    summary = run(CertifyOptions(roster=path, report_dir=tmp_path / "report", showcase_hands=3,
                                 engine=EngineSpec(families=("rng",), fresh=False),
                                 bot_options=CertOptions(generated_states=2, vector_states=2, smoke_seats=(), full_table_hands=0,
                                                         smoke_max_hands=1)))
    seated = [s["bot"] for s in summary["showcase"]["seats"]]
    assert seated == [f"b{i}" for i in range(9)]
    assert {u["bot"]: u["reason"] for u in summary["showcase"]["unseated"]} == {
        "b10": "no bot file", "b9": "the table holds 9 and 9 bots listed before it were seated"}
    colors = [s["color"] for s in summary["showcase"]["seats"]]  # every entry says #123456
    assert len(set(colors)) == 9 and colors[0] == "#123456"


def test_a_run_that_stops_leaves_a_failed_report_not_the_older_green_one(tmp_path, monkeypatch):
    import conformance.cli.certify as certify_module

    def broken(*args, **kwargs):
        raise RuntimeError("the showcase broke")
    monkeypatch.setattr(certify_module, "_showcase", broken)
    report = green_report(tmp_path)
    try:
        run(CertifyOptions(roster=one_bot_roster(tmp_path), report_dir=report, showcase_hands=3,
                           engine=EngineSpec(families=("rng",), fresh=False), bot_options=SMALL))
    except RuntimeError:
        pass
    else:
        raise AssertionError("the error must reach the caller")
    summary = json.loads((report / "summary.json").read_text())
    assert summary["certified"] is False and "the showcase broke" in summary["stopped"]
    assert junit_cases(report) == {("certify", "certify.run"): True}
    assert "certify stopped before its verdict" in (report / "index.html").read_text()


def test_a_roster_that_cannot_be_read_is_a_verdict(tmp_path, capsys):
    roster = tmp_path / "bots.json"
    roster.mkdir()
    code, out, _ = run_cli(capsys, "certify", "--roster", roster, "--report", tmp_path / "R", "--family", "rng",
                           "--no-fresh", "--hands", "3")
    assert code == 1 and "roster.roster: cannot be read" in out


def test_certify_reports_a_family_of_an_undeclared_profile_as_not_implemented(tmp_path, capsys, small_bots):
    """--family F asks for F's profile, as in holdem-cert engine: a hand-only engine's pots run is
    'not implemented: helpers', not an empty run."""
    command = reference_cmd_engine(tmp_path, "if request['cmd'] == 'start':\n    reply['profiles'] = ['hand']\n")
    code, out, err = run_cli(capsys, "certify", "--cmd", command, "--roster",
                             one_bot_roster(tmp_path), "--report", tmp_path / "R", "--family", "pots", "--no-fresh",
                             "--hands", "5", "--json", "-")
    summary = json.loads(out)
    assert code == 1 and not summary["certified"]
    assert summary["engine"]["profiles"]["helpers"]["verdict"] == "not implemented", summary["engine"]["profiles"]
    assert "(none)" not in err


def test_certify_prints_a_failing_engines_causes_with_their_reproductions(tmp_path, capsys, small_bots):
    """Issue #23: certify on a failing engine prints its root causes, each with the command that
    reruns its smallest example from the report directory (where the file is written)."""
    reversed_board = ("history = reply.get('result', {}).get('history') if isinstance(reply.get('result'), dict) else None\n"
                      "if history and history[0].get('board'):\n    history[0]['board'] = history[0]['board'][::-1]\n")
    command = reference_cmd_engine(tmp_path, reversed_board)
    code, out, err = run_cli(capsys, "certify", "--cmd", command, "--roster", one_bot_roster(tmp_path),
                             "--report", tmp_path / "R", "--family", "hands", "--no-fresh", "--hands", "5",
                             "--json", "-")
    summary = json.loads(out)
    assert code == 1 and summary["engine"]["causes"]
    cause = summary["engine"]["causes"][0]
    assert "causes: " in err and f"1. breaks {cause['breaks']}" in err
    repro = cause["example"]["repro"]
    assert f"repro (in {tmp_path / 'R'}): {repro['run'][0]}" in err
    assert (tmp_path / "R" / repro["file"]).is_file()
    # issue #36: the terminal names the folder the reproductions went to, the report directory's repro/
    written = sum(1 for f in summary["engine"]["failures"] if f.get("repro"))
    assert f"reproductions: {written} written to {tmp_path / 'R' / 'repro'}/, beside the report" in err
    assert json.loads((tmp_path / "R" / repro["file"]).read_text())["failedCommand"] == command
