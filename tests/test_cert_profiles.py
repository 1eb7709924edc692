"""Conformance profiles (issue #15, conformance/judge/cert_profiles.py): what an engine declares, what is
run, the verdict per profile and the profile x family matrix in every report.

A hand-only engine (createHand alone, declaring ["hand"]) gets through the smoke tier and is
certified for hand; a profile asked for that the engine does not declare is "not implemented"
(not a crash, not a failure); a hand-rule mutant fails the hand profile only.
"""
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from conformance.judge import cert_profiles
from conformance.judge.cert_profiles import select
from conformance.judge.engine_cert import certify, load_tests
from conformance.judge.smoke import smoke_tests
from conformance.judge.engine_drivers import CommandDriver, QuickJSDriver
from conformance.report.html import render
from cli_helpers import reference_cmd_engine
from js_vector_runner import ENGINE_PATH
from mutants.mutants import MUTANTS

ROOT = ENGINE_PATH.parent.parent.parent
SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
HAND_ONLY = "globalThis.PokerEngine = { version: '1.0.0', profiles: ['hand'], createHand: PokerEngine.createHand };\n"
UNDECLARED_HAND = "globalThis.PokerEngine = { version: '1.0.0', createHand: PokerEngine.createHand };\n"


def test_select_takes_the_declaration_then_the_ruleset():
    assert select(None, None) == (["helpers", "tournament"], [])  # declares nothing: today's default
    assert select(None, None, "holdem-sng-3-v4") == (["helpers", "sng3v4"], [])
    assert select(None, ("hand",)) == (["hand"], [])
    assert select(("hand", "tournament"), ("hand",)) == (["hand"], ["tournament"])
    assert select(("sng3v4",), None) == (["sng3v4"], [])  # sng3v4 when asked, as before profiles
    assert select(("hand",), None) == ([], ["hand"])
    assert cert_profiles.declared(["hand", "bogus", 3]) == ("hand",) and cert_profiles.declared("hand") is None


def test_the_smoke_tier_checks_only_what_the_profiles_need():
    assert [t["id"] for _, t, _ in smoke_tests(["hand"])] == ["smoke.lone-hand"]
    assert [t["id"] for _, t, _ in smoke_tests(["rng", "deck"])] == []
    assert "smoke.lone-hand" not in [t["id"] for _, t, _ in smoke_tests(cert_profiles.PROFILES["tournament"])]


def test_a_hand_only_engine_is_certified_for_hand():
    report = certify(QuickJSDriver(SOURCE, engine_name="hand-only.js", adapter_source=HAND_ONLY),
                     load_tests(cert_profiles.families_of(cert_profiles.PROFILES)), {})
    assert [c.id for c in report.smoke] == ["smoke.load", "smoke.lone-hand"]
    assert report.certified and report.verdict.startswith("CERTIFIED for hand: "), report.verdict
    assert list(report.profiles) == ["hand"] and report.profiles["hand"]["verdict"] == "certified"
    assert report.subject["missing"] == [] and report.subject["profiles"] == ["hand"]
    assert list(report.counts()) == ["hand"]  # nothing of the other profiles ran


def test_a_profile_asked_for_but_not_declared_is_not_implemented():
    report = certify(QuickJSDriver(SOURCE, engine_name="hand-only.js", adapter_source=HAND_ONLY),
                     load_tests(["hand", "legality", "hands", "tournaments"]), {}, profiles=["hand", "tournament"])
    assert report.profiles["tournament"] == {"verdict": "not implemented", "passed": 0, "failed": 0, "divergent": 0,
                                             "skipped": 0, "error": 0, "families": {}, "reasons": ["the engine does not declare it"]}
    assert report.profiles["hand"]["verdict"] == "certified"
    assert not report.certified and "certified for hand; not implemented: tournament" in report.verdict
    # An engine that declares nothing implements helpers and tournament, not hand.
    report = certify(QuickJSDriver(SOURCE, engine_name="x.js", adapter_source=UNDECLARED_HAND), load_tests(["hand"]),
                     {}, profiles=["hand"])
    assert report.profiles["hand"]["verdict"] == "not implemented" and report.counts() == {}


def test_a_hand_rule_mutant_fails_the_hand_profile_only():
    mutant = next(m for m in MUTANTS if m["name"] == "odd-chip-wrong-seat")
    source = SOURCE.replace(mutant["find"], mutant["replace"])
    report = certify(QuickJSDriver(source, engine_name="m.js", adapter_source=HAND_ONLY),
                     load_tests(["hand"]), {})
    row = report.profiles["hand"]
    assert row["verdict"] == "not certified" and row["failed"] > 0 and "failed in hand" in row["reasons"][0]
    assert not report.certified and report.verdict.startswith("NOT CERTIFIED (not certified for hand)")


def test_the_cli_reports_the_matrix_in_json_junit_and_text(tmp_path):
    adapter = tmp_path / "hand-only.js"
    adapter.write_text(HAND_ONLY)
    out = subprocess.run([sys.executable, "-m", "conformance", "engine", str(ENGINE_PATH), "--adapter", str(adapter),
                          "--profile", "hand", "--profile", "sng3v4", "--json", str(tmp_path / "r.json"),
                          "--junit", str(tmp_path / "r.xml"), "--no-fresh"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 1, out.stdout + out.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert {p: row["verdict"] for p, row in report["profiles"].items()} == {"hand": "certified",
                                                                            "sng3v4": "not implemented"}
    hand = report["profiles"]["hand"]  # its golden vectors, and its row of random hands (issue #36)
    assert hand["families"]["hand"]["passed"] > 300 and hand["families"]["hand-fuzz"]["passed"] == 100
    assert hand["families"]["hand"]["passed"] + hand["families"]["hand-fuzz"]["passed"] == hand["passed"]
    assert "profile" in out.stdout and "not implemented" in out.stdout
    assert "NOT CERTIFIED (certified for hand; not implemented: sng3v4)" in out.stdout
    suite = next(s for s in ET.parse(tmp_path / "r.xml").getroot().findall("testsuite") if s.get("name") == "hand")
    props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert props == {"profile": "hand", "profile-verdict": "certified"}
    page = render({"certified": False, "engine": report})
    assert "<h3>Profiles</h3>" in page and "not implemented" in page


@pytest.mark.parametrize("asking", [["--family", "pots"], ["--profile", "helpers"]])
def test_a_family_of_an_undeclared_profile_is_not_implemented_as_the_profile_is(tmp_path, asking):
    # --family F of a profile the engine does not declare: the same verdict and exit code as --profile P.
    adapter = tmp_path / "hand-only.js"
    adapter.write_text(HAND_ONLY)
    out = subprocess.run([sys.executable, "-m", "conformance", "engine", str(ENGINE_PATH), "--adapter", str(adapter),
                          *asking, "--json", str(tmp_path / "r.json"), "--no-fresh"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 1, out.stdout + out.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["profiles"] == {"helpers": {"verdict": "not implemented", "passed": 0, "failed": 0, "divergent": 0,
                                              "skipped": 0, "error": 0, "families": {},
                                              "reasons": ["the engine does not declare it"]}}
    assert "NOT CERTIFIED (not implemented: helpers)" in out.stdout and "(none)" not in out.stdout


def test_profile_and_ruleset_together_are_a_usage_error(tmp_path):
    out = subprocess.run([sys.executable, "-m", "conformance", "engine", str(ENGINE_PATH), "--profile", "hand",
                          "--ruleset", "holdem-sng-3-v4"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--profile or --ruleset" in out.stderr


@pytest.mark.parametrize("declared", [["hand"], None])
def test_a_cmd_engine_declares_in_its_start_answer(tmp_path, declared):
    extra = f', "profiles": {json.dumps(declared)}' if declared else ""
    start = ("if request['cmd'] == 'start':\n"
             f"    reply = {{'implementation': {{'name': 'x', 'version': '1', 'language': 'python'}}{extra}}}\n")
    driver = CommandDriver(reference_cmd_engine(tmp_path, start))
    report = certify(driver, load_tests(["hand"]), {}, profiles=["hand"])
    assert report.profiles["hand"]["verdict"] == ("certified" if declared else "not implemented")
