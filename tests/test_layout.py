"""The packages' layers and the absence of import cycles (issue #16, docs/architecture.md): the
import-linter contracts of pyproject.toml ([tool.importlinter]) hold, and they do fail when a
module imports upward or two modules import each other."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def lint_imports(tree: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` on the packages of ``tree`` with the contracts of ``tree``'s pyproject.toml."""
    env = dict(os.environ, PYTHONPATH=str(tree), COLUMNS="200")  # one contract a line
    return subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                           "sys.exit(lint_imports_command())", "--no-cache"],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def copy_of_tree(tmp_path) -> Path:
    for item in ("pyproject.toml", "conformance", "reference"):
        if (ROOT / item).is_dir():
            shutil.copytree(ROOT / item, tmp_path / item, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / item, tmp_path / item)
    return tmp_path


def test_the_import_contracts_hold():
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 kept, 0 broken" in run.stdout, run.stdout


@pytest.mark.parametrize("module, line, broken", [
    # the vectors are data: they import no arena (nor judge, bots, report, cli)
    ("conformance/vectors/clauses.py", "from conformance.arena import play", "layers"),
    # the host knows no poker: it imports no harness
    ("conformance/host/linepipe.py", "from conformance.harness import runner", "layers"),
    # packages of one layer are independent
    ("conformance/judge/fuzz.py", "from conformance.bots import profile", "layers"),
    # the reference imports nothing of the suite
    ("reference/cards.py", "from conformance import errors", "reference alone"),
    # a cycle, even one imported for typing only (reference/state.py no longer imports tournament.py)
    ("reference/state.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .tournament import Tournament",
     "acyclic"),
])
def test_an_upward_import_or_a_cycle_breaks_a_contract(copy_of_tree, module, line, broken):
    path = copy_of_tree / module
    path.write_text(path.read_text(encoding="utf-8") + "\n" + line + "\n", encoding="utf-8")
    run = lint_imports(copy_of_tree)
    assert run.returncode != 0, run.stdout
    broken_lines = [ln for ln in run.stdout.splitlines() if ln.endswith(" BROKEN")]
    assert any(ln.startswith(broken + ":") for ln in broken_lines), run.stdout
