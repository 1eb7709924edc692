"""A wheel of the suite works away from the checkout: it carries the vectors, schemas and house
bots (conformance/_data, put there by setup.py) and finds them wherever it runs from."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conformance.resources import DATA_ITEMS

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # Built from a copy: setuptools builds in the source tree and would leave build/ behind.
    source = tmp_path_factory.mktemp("source")
    for item in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "reference", "conformance", *DATA_ITEMS):
        if (ROOT / item).is_dir():
            shutil.copytree(ROOT / item, source / item, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / item, source / item)
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                            "--disable-pip-version-check", "-w", str(out), str(source)],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr
    (path,) = out.glob("holdem_conformance-*.whl")
    return path


def test_the_wheel_carries_the_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {"reference/js/poker-engine.js", "conformance/host/worker_process.py", "conformance/host/node_timing.js",
                "conformance/_data/bots.json", "conformance/bots/battery.json.gz"}
    for root in ("vectors", "schemas"):
        expected |= {f"conformance/_data/{p.relative_to(ROOT).as_posix()}" for p in (ROOT / root).rglob("*.json")}
    roster = json.loads((ROOT / "bots.json").read_text(encoding="utf-8"))
    expected |= {f"conformance/_data/{entry['file']}" for entry in roster["bots"]}
    # Messages cite docs/rulings.md and the like: the wheel carries every doc (not the images).
    expected |= {f"conformance/_data/{p.relative_to(ROOT).as_posix()}" for p in (ROOT / "docs").rglob("*.md")}
    assert expected <= names, sorted(expected - names)
    assert not any(n.endswith(".png") for n in names)
    assert "bots.json" in DATA_ITEMS and not any("__pycache__" in n for n in names if n.startswith("conformance/_data"))


def test_the_wheel_carries_every_javascript_file(wheel):
    """The .js files the modules load beside themselves (issue #16) are in the wheel."""
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {p.relative_to(ROOT).as_posix() for p in (ROOT / "conformance").rglob("*.js")}
    assert len(expected) >= 6 and expected <= names, sorted(expected - names)


def test_the_wheel_requires_quickjs_ng_not_quickjs(wheel):
    """Both PyPI packages install the module `quickjs`; the worker needs quickjs-ng's (ES2024)."""
    archive = zipfile.ZipFile(wheel)
    (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
    requires = [line.split(":", 1)[1].strip() for line in archive.read(metadata).decode().splitlines()
                if line.startswith("Requires-Dist:")]
    names = {re.split(r"[ ;<>=!~\[(]", r, maxsplit=1)[0].lower() for r in requires}
    assert "quickjs-ng" in names and "quickjs" not in names, requires


def test_the_installed_suite_runs_from_anywhere(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"  # no bots.json, no vectors/ here
    elsewhere.mkdir()
    env = dict(os.environ, PYTHONPATH=str(site))

    def run(*args):
        return subprocess.run([sys.executable, *args], cwd=elsewhere, env=env, capture_output=True, text=True,
                              timeout=300)

    where = run("-c", "import conformance.resources as r; print(r.DATA_ROOT); print(r.default_roster())")
    assert where.returncode == 0, where.stderr
    data_root, roster = where.stdout.split()
    assert Path(data_root) == site / "conformance" / "_data"
    assert Path(roster) == site / "conformance" / "_data" / "bots.json"
    check = run("-m", "conformance", "vectors", "check", "--family", "rng", "--family", "pots")
    assert check.returncode == 0, check.stdout + check.stderr
    lint = run("-m", "conformance", "roster", "--json", str(tmp_path / "roster.json"))
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert json.loads((tmp_path / "roster.json").read_text())["ok"] is True


def test_default_roster_prefers_the_working_directory(tmp_path, monkeypatch):
    from conformance.resources import HOUSE_ROSTER, default_roster

    monkeypatch.chdir(tmp_path)
    assert default_roster() == HOUSE_ROSTER and HOUSE_ROSTER.is_file()
    (tmp_path / "bots.json").write_text('{"version": 1, "bots": []}', encoding="utf-8")
    assert default_roster() == Path("bots.json")
