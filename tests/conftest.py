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
def unavailable_implementations() -> dict:
    """Implementations that cannot be made available here (poker-ts without npm or a network):
    name -> the reason. The table's run leaves them out; tests of the whole table skip, saying why."""
    from conformance.implementations import REGISTRY
    from conformance.implementations.registry import Unavailable
    out = {}
    for implementation in REGISTRY:
        try:
            if implementation.prepare is not None:
                implementation.prepare()
        except Unavailable as exc:
            out[implementation.name] = str(exc)
    return out


@pytest.fixture(scope="session")
def implementations_run(tmp_path_factory, unavailable_implementations):
    """One run of ``holdem-cert implementations`` (JSON, HTML, Markdown) shared by every test that
    reads the table: the run certifies every bundled implementation (about a minute alone)."""
    from conformance.implementations import REGISTRY
    out = tmp_path_factory.mktemp("implementations")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    only = [arg for i in REGISTRY if i.name not in unavailable_implementations for arg in ("--only", i.name)]
    run = subprocess.run([sys.executable, "-m", "conformance", "implementations", "--json", str(out / "table.json"),
                          "--html", str(out / "html"), "--markdown", str(out / "implementations.md"),
                          *(only if unavailable_implementations else [])],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout + run.stderr
    return out, run


@pytest.hookimpl(tryfirst=True)  # before xdist's, which reads the group
def pytest_collection_modifyitems(items):
    # Every test that reads the implementations table on one xdist worker (--dist loadgroup): the
    # session fixture is per worker, and tests in two modules (test_implementations,
    # test_real_engine_adapters) use it, so under 'load' both workers ran the minute-long run.
    for item in items:
        if "implementations_run" in getattr(item, "fixturenames", ()) and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group("implementations"))
