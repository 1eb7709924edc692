"""The pytest plugin certifies non-JavaScript engines too (--holdem-cmd) and for a ruleset
(--holdem-ruleset), choosing the engine as holdem-cert engine does."""
from pathlib import Path

from conformance import pytest_plugin
from conformance.judge.families import RULESETS
from conformance.vectors import library as vectors
from js_vector_runner import ENGINE_PATH
from test_engine_cert import REFERENCE_CMD, pytest_run


def test_the_plugin_knows_every_ruleset():
    assert pytest_plugin.RULESET_NAMES == tuple(RULESETS)


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
    others = [i for i in seen if i.startswith("holdem/") and not i.startswith(("holdem/hand::", "holdem/smoke::"))]
    assert others and all(seen[i] == "SKIPPED" for i in others)
    # --holdem-profile P: an item per profile; helpers not implemented fails (as holdem-cert engine --profile).
    run = pytest_run(tmp_path, *base, "--holdem-profile", "hand", "--holdem-profile", "helpers", "--holdem-family", "pots",
                     "-rs")
    seen = _outcomes(run)
    assert run.returncode == 1, run.stdout[-3000:]
    assert seen["holdem/profiles::hand"] == "PASSED" and seen["holdem/profiles::helpers"] == "FAILED"
    assert "profile helpers: not implemented (the engine does not declare it)" in run.stdout
    assert {s for i, s in seen.items() if i.startswith("holdem/pots::")} == {"SKIPPED"}
