"""The pytest plugin certifies non-JavaScript engines too (--holdem-cmd) and for a ruleset
(--holdem-ruleset), choosing the engine as holdem-cert engine does."""
from pathlib import Path

from conformance import pytest_plugin
from conformance.judge.engine_cert import RULESETS
from conformance.vectors import library as vectors
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
