"""Shared test settings: a bounded hypothesis profile for CI, a larger one on demand; the one run
of ``holdem-cert implementations`` the table's tests share."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def implementations_run(tmp_path_factory):
    """One run of ``holdem-cert implementations`` (JSON, HTML, Markdown) shared by every test that
    reads the table: the run certifies every bundled implementation (about 40 s alone)."""
    out = tmp_path_factory.mktemp("implementations")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    run = subprocess.run([sys.executable, "-m", "conformance", "implementations", "--json", str(out / "table.json"),
                          "--html", str(out / "html"), "--markdown", str(out / "implementations.md")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout + run.stderr
    return out, run
