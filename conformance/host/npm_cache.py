"""Pinned npm packages installed into the suite's cache, once, on first need.

The suite runs a few well-kept npm packages of its own (core-js for the V8 worker's builtins, node
itself, StrykerJS): each is pinned to one version and installed with ``npm install --prefix
CACHE/NAME-VERSION`` the first time it is needed, saying so on stderr; a lock file keeps two
processes from installing the same one at once. CACHE is ``$HOLDEM_CACHE``, else
``~/.cache/holdem-conformance`` (conformance/implementations/poker_ts.py's, a higher layer).
Without npm or the registry the caller gets the reason, never an exception.
"""
from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

INSTALL_SECONDS = 300


def cache_dir() -> Path:
    return Path(os.environ.get("HOLDEM_CACHE") or Path.home() / ".cache" / "holdem-conformance")


def prefix(package: str, version: str, cache: Path | None = None) -> Path:
    """Where ``package@version`` is installed: its own npm prefix, so versions never mix."""
    return (cache or cache_dir()) / f"{package.replace('/', '+')}-{version}"


def package_dir(package: str, version: str, cache: Path | None = None) -> Path:
    return prefix(package, version, cache) / "node_modules" / package


def installed_version(package_directory: Path) -> str | None:
    try:
        return json.loads((package_directory / "package.json").read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        return None


def install(package: str, version: str, why: str, *, complete: Callable[[Path], bool] = lambda _: True,
            extra: tuple[str, ...] = (), cache: Path | None = None, log=sys.stderr) -> tuple[Path | None, str]:
    """``package@version``'s directory, installed with npm first when absent (saying so on ``log``,
    with ``why`` it is needed), and ``""``; or ``(None, reason)`` when it cannot be had here.
    ``complete`` checks an installed copy beyond its version (files a caller needs);
    ``extra`` names further ``name@version`` packages installed into the same prefix."""
    where = prefix(package, version, cache)
    directory = package_dir(package, version, cache)

    def ready() -> bool:
        return installed_version(directory) == version and complete(directory)

    if ready():
        return directory, ""
    npm = shutil.which("npm")
    if npm is None:
        return None, f"{package} {version} is not in {where} and npm is not on PATH"
    where.mkdir(parents=True, exist_ok=True)
    with open(where / ".lock", "w") as lock:  # one install at a time, across processes too
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ready():
            return directory, ""
        print(f"installing {package} {version} with npm into {where} (absent; {why})", file=log, flush=True)
        command = [npm, "install", "--prefix", str(where), "--no-audit", "--no-fund", "--no-save",
                   "--ignore-scripts", f"{package}@{version}", *extra]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=INSTALL_SECONDS)
        except subprocess.TimeoutExpired:
            return None, f"npm install {package}@{version} took over {INSTALL_SECONDS} s (no registry?)"
        except OSError as exc:
            return None, f"npm install {package}@{version} could not run: {exc}"
        if done.returncode != 0 or not ready():
            tail = (done.stderr or done.stdout).strip().splitlines()[-2:]
            return None, f"npm install {package}@{version} failed (exit {done.returncode}): {' / '.join(tail)}"
    return directory, ""
