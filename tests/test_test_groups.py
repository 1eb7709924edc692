"""The tests' xdist groups (tests/conftest.py, issue #25): every costly module fixture named there
exists, and its users are put in one group, collected before the tests that have none."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import COSTLY_FIXTURES

ROOT = Path(__file__).resolve().parent.parent

# Prints each collected test's group, in collection order.
PLUGIN = textwrap.dedent("""
    def pytest_collection_finish(session):
        for item in session.items:
            mark = item.get_closest_marker("xdist_group")
            print("GROUP", mark.args[0] if mark else "-", item.nodeid)
""")


def module_fixtures(path: Path) -> set[str]:
    """The names of the module-scoped fixtures defined at the top of ``path``."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        for deco in getattr(node, "decorator_list", ()):
            if (isinstance(deco, ast.Call) and ast.unparse(deco.func) == "pytest.fixture"
                    and any(k.arg == "scope" and ast.literal_eval(k.value) == "module" for k in deco.keywords)):
                found.add(node.name)
    return found


def test_every_costly_fixture_named_is_a_module_fixture_of_its_file():
    for entry in COSTLY_FIXTURES:
        where, name = entry.split("::")
        assert name in module_fixtures(ROOT / where), f"{entry}: no module fixture {name} in {where}"


def test_the_users_of_a_costly_fixture_are_one_group_collected_first(tmp_path):
    (tmp_path / "groups_plugin.py").write_text(PLUGIN, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "groups_plugin",
                          "-p", "no:cacheprovider", "tests/test_packaging.py", "tests/test_engine_cert.py"],
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(tmp_path)}, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    rows = [line.split(" ", 2)[1:] for line in out.stdout.splitlines() if line.startswith("GROUP ")]
    groups = [group for group, _ in rows]
    using = {node.split("::")[1].split("[")[0] for group, node in rows if group == "tests/test_engine_cert.py"}
    assert "test_reference_adapter_certifies_every_family" in using  # a user of full_runs
    assert "test_usage_errors_exit_2" not in using  # a test that does not use it
    assert {g for g in groups if g != "-"} == {"tests/test_engine_cert.py", "tests/test_packaging.py"}
    assert groups == sorted(groups, key=lambda g: g == "-"), "a test without a group before a grouped one"
