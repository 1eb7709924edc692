"""The pytest plugin certifies non-JavaScript engines too (--holdem-cmd) and for a ruleset
(--holdem-ruleset), choosing the engine as holdem-cert engine does."""
import json
import subprocess
import sys
from pathlib import Path

from conformance import pytest_plugin
from conformance.judge.families import RULESETS
from conformance.vectors import library as vectors
from cli_helpers import SEVEN_SEAT_BUG
from js_vector_runner import ENGINE_PATH

ROOT = Path(__file__).resolve().parent.parent
from test_engine_cert import REFERENCE_CMD, pytest_run


def test_the_plugin_knows_every_ruleset():
    assert pytest_plugin.RULESET_NAMES == tuple(RULESETS)


def test_the_plugin_plays_as_many_fuzz_games_as_holdem_cert_engine():
    from conformance.judge import fuzz

    assert pytest_plugin.DEFAULT_FUZZ_GAMES == fuzz.DEFAULT_GAMES


def test_a_command_engine_runs_under_the_plugin(tmp_path):
    run = pytest_run(tmp_path, "--holdem-cmd", REFERENCE_CMD, "--holdem-family", "rng", "--holdem-no-fresh", "-q")
    # smoke.load, then the vectors (no game family: no smoke hands; dealHand is the deck family's, issue #12)
    assert run.returncode == 0 and f"{1 + len(vectors.load('rng')['tests'])} passed" in run.stdout, run.stdout


def test_the_ruleset_chooses_the_families(tmp_path):
    run = pytest_run(tmp_path, "--holdem-cmd", REFERENCE_CMD, "--holdem-ruleset", "holdem-sng-3-v4",
                     "--holdem-family", "hands", "-q")
    assert run.returncode == 4 and "--holdem-family hands is not certified under --holdem-ruleset holdem-sng-3-v4" \
        in run.stderr, run.stderr
    run = pytest_run(tmp_path, "--holdem-cmd", REFERENCE_CMD, "--holdem-ruleset", "holdem-sng-3-v4",
                     "--holdem-no-fresh", "--co", "-q")
    collected = {line.split("::")[0] for line in run.stdout.splitlines() if line.startswith("holdem/")}
    assert collected == {"holdem/smoke", *(f"holdem/{f}" for f in RULESETS["holdem-sng-3-v4"])}, run.stdout


def test_engine_and_cmd_together_is_a_usage_error(tmp_path):
    run = pytest_run(tmp_path, "--holdem-engine", "x.js", "--holdem-cmd", "y", "-q")
    assert run.returncode == 4 and "exactly one" in run.stderr


def test_an_engine_file_that_is_missing_fails_the_smoke_tier(tmp_path):
    run = pytest_run(tmp_path, "--holdem-engine", str(Path(tmp_path) / "none.js"), "--holdem-family", "rng", "-q")
    assert run.returncode == 1 and "cannot read the engine" in run.stdout + run.stderr


# ---- profiles: --holdem-profile P, default what the engine declares (as holdem-cert engine) ------------

HAND_ONLY = "globalThis.PokerEngine = { version: '1.0.0', profiles: ['hand'], createHand: PokerEngine.createHand };\n"


def _outcomes(run) -> dict:
    """node id -> PASSED / FAILED / SKIPPED, from a -rA -v run."""
    out = {}
    for line in run.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith("holdem/") and parts[1] in ("PASSED", "FAILED", "SKIPPED"):
            out[parts[0]] = parts[1]
    return out


def test_a_hand_only_engine_is_certified_for_hand_under_pytest(tmp_path):
    adapter = tmp_path / "hand-only.js"
    adapter.write_text(HAND_ONLY)
    base = ("--holdem-engine", str(ENGINE_PATH), "--holdem-adapter", str(adapter), "--holdem-no-fresh", "-v")
    # Default: what the engine declares, the hand profile: its smoke check and every hand vector run.
    run = pytest_run(tmp_path, *base)
    seen = _outcomes(run)
    hand = [f"holdem/hand::{t['id']}" for t in vectors.load("hand")["tests"]]
    assert run.returncode == 0, run.stdout[-3000:]
    assert seen["holdem/smoke::smoke.lone-hand"] == "PASSED" and seen["holdem/smoke::smoke.showdown"] == "SKIPPED"
    assert all(seen[i] == "PASSED" for i in hand) and len(hand) > 300
    # its random hands are played too (issue #36), the tournament's fuzz games not (not declared)
    assert seen["holdem/fuzz::hand-fuzz"] == "PASSED" and seen["holdem/fuzz::fuzz"] == "SKIPPED"
    others = [i for i in seen if i.startswith("holdem/") and not i.startswith(("holdem/hand::", "holdem/smoke::",
                                                                                 "holdem/fuzz::hand-fuzz"))]
    assert others and all(seen[i] == "SKIPPED" for i in others)
    # --holdem-profile P: an item per profile; helpers not implemented fails (as holdem-cert engine --profile).
    run = pytest_run(tmp_path, *base, "--holdem-profile", "hand", "--holdem-profile", "helpers", "--holdem-family", "pots",
                     "-rs")
    seen = _outcomes(run)
    assert run.returncode == 1, run.stdout[-3000:]
    assert seen["holdem/profiles::hand"] == "PASSED" and seen["holdem/profiles::helpers"] == "FAILED"
    assert "profile helpers: not implemented (the engine does not declare it)" in run.stdout
    assert {s for i, s in seen.items() if i.startswith("holdem/pots::")} == {"SKIPPED"}


def test_the_plugin_plays_the_fresh_hand_tests_and_random_hands_as_holdem_cert_engine(tmp_path):
    """Issue #36: under pytest too a hand engine gets the run's fresh hand tests and random hands (the
    same seeds give the same ones), and a bug the golden vectors miss fails there."""
    engine = tmp_path / "engine.py"
    engine.write_text(SEVEN_SEAT_BUG)
    base = ("--holdem-cmd", f"{sys.executable} {engine}", "--holdem-profile", "hand", "--holdem-fresh-seed", "5",
            "--holdem-fuzz-seed", "5", "-v")
    run = pytest_run(tmp_path, *base)
    seen = _outcomes(run)
    assert run.returncode == 1, run.stdout[-3000:]
    assert seen["holdem/fuzz::hand-fuzz"] == "FAILED" and "holdem/fuzz::fuzz" not in seen
    failed_fresh = {i for i, s in seen.items() if i.startswith("holdem/hand::hand.fresh.") and s == "FAILED"}
    assert failed_fresh and all(s == "PASSED" for i, s in seen.items()
                                if i.startswith("holdem/hand::") and ".fresh." not in i)
    assert "hand.fuzz.5." in run.stdout and "allIn" in run.stdout
    # the same fresh tests fail under holdem-cert engine with the same seeds
    out = subprocess.run([sys.executable, "-m", "conformance", "engine", "--cmd", f"{sys.executable} {engine}",
                          "--profile", "hand", "--fresh-seed", "5", "--fuzz-seed", "5", "--json", str(tmp_path / "r.json"),
                          "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    report = json.loads((tmp_path / "r.json").read_text())
    assert out.returncode == 1 and {f"holdem/hand::{f['id']}" for f in report["failures"]
                                    if ".fresh." in f["id"]} == failed_fresh
    # golden vectors only: nothing fails (the plugin's --holdem-no-fresh, --holdem-fuzz-games 0)
    run = pytest_run(tmp_path, *base, "--holdem-no-fresh", "--holdem-fuzz-games", "0")
    assert run.returncode == 0 and "holdem/fuzz" not in run.stdout, run.stdout[-3000:]

