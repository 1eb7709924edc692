"""What the repository tracks (issue #25, hygiene): no large file outside the data folders, so that
a stray build artefact (a 10 MB wheel was once committed at the root) cannot slip in again."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_BYTES = 1024 * 1024
# Where large files belong: the golden vectors (vectors/hand/hand.json is about 2 MB) and the
# tests' data files. Everything else -- code, docs and their images, bots -- stays under 1 MiB.
DATA_FOLDERS = ("vectors", "tests/data")


def tracked_files(root: Path) -> list[str]:
    """The files git tracks under ``root`` (skips the test outside a git checkout, e.g. an sdist)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    out = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True, timeout=60)
    if out.returncode != 0:
        pytest.skip(f"{root} is not a git checkout")
    return [name for name in out.stdout.decode("utf-8").split("\0") if name]


def large_files(root: Path, names: list[str]) -> list[tuple[str, int]]:
    """(name, size) of the files over MAX_BYTES outside DATA_FOLDERS."""
    found = []
    for name in names:
        path = root / name
        if name.startswith(tuple(f + "/" for f in DATA_FOLDERS)):
            continue
        if path.is_file() and path.stat().st_size > MAX_BYTES:  # a deletion not yet committed is gone
            found.append((name, path.stat().st_size))
    return found


def test_no_tracked_file_over_1_mib_outside_the_data_folders():
    big = large_files(ROOT, tracked_files(ROOT))
    assert not big, f"tracked files over {MAX_BYTES} bytes outside {', '.join(DATA_FOLDERS)}: {big}"


def test_the_check_finds_a_large_file_and_spares_the_data_folders(tmp_path):
    for name, size in (("stray.whl", MAX_BYTES + 1), ("vectors/big.json", 3 * MAX_BYTES),
                       ("tests/data/big.bin", 2 * MAX_BYTES), ("docs/small.png", MAX_BYTES)):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"\0" * size)
    names = ["stray.whl", "vectors/big.json", "tests/data/big.bin", "docs/small.png"]
    assert large_files(tmp_path, names) == [("stray.whl", MAX_BYTES + 1)]
