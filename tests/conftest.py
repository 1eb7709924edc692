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


# Module fixtures that cost seconds, measured (--setup-only, quiet machine): a module fixture is
# computed on every xdist worker that runs one of its tests, so the tests using these go on one
# worker, a group per module. The JavaScript workers' module fixtures (a few tenths of a second)
# are left to be made twice: grouping their modules' hundreds of tests would cost more.
COSTLY_FIXTURES = {
    "tests/test_engine_cert.py::full_runs",  # four engine certifications side by side, 22 s
    "tests/test_hand_random.py::seven_seat_bug",  # a --cmd hand certification, its random hand shrunk, 10 s
    "tests/test_league_cluster.py::setup",  # a two-node Ray cluster, 10-14 s
    "tests/test_league_cluster.py::reference",  # the league played locally, to compare
    "tests/test_packaging.py::wheel",  # a wheel built, 5 s
    "tests/test_match.py::series",  # 2.1 s
    "tests/test_runner_vectors.py::game_outcomes",  # 1.5 s
    "tests/test_league.py::reference",  # 1.1 s
    "tests/test_repro.py::broken",  # 0.9 s
    "tests/test_replay.py::recorded",  # 0.6 s
    "tests/test_mutate.py::sample",  # StrykerJS on a sample of 27 mutants of the bundled engine, 25 s
    "tests/test_mutate.py::session",  # a certification session on the instrumented engine, 4 s
}


def costly_group(item) -> str | None:
    """The module of a costly fixture ``item`` uses (COSTLY_FIXTURES, and the session's
    ``implementations_run``: a minute, as its own group), or None."""
    names = getattr(item, "fixturenames", ())  # not every kind of item has fixtures
    if "implementations_run" in names:
        return "implementations"
    defined = getattr(item, "_fixtureinfo", None)
    if defined is None:
        return None
    for name in names:
        defs = defined.name2fixturedefs.get(name)
        if defs and f"{defs[-1].baseid}::{name}" in COSTLY_FIXTURES:
            return defs[-1].baseid
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist's, which reads the group
def pytest_collection_modifyitems(items):
    # --dist loadgroup: the users of a costly fixture in one group (one worker), and every group
    # first, so that the long units start first and the single tests fill in around them (xdist
    # hands out units in collection order: the tail of a run is otherwise one long unit alone).
    for item in items:
        if item.get_closest_marker("xdist_group") is None and (group := costly_group(item)):
            item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=lambda item: item.get_closest_marker("xdist_group") is None)
