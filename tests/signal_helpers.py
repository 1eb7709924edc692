"""Helpers for interrupt tests: ``holdem-cert`` in a process of its own (its own session and process
group, as a terminal's foreground job), stopped with a real signal once a condition holds, and the
processes a run left behind, found by a token in their environment."""
from __future__ import annotations

import os
import secrets
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOKEN_ENV = "HOLDEM_CERT_TEST_TOKEN"  # every process a run starts inherits it
START_S = 180.0  # the condition must hold within this (a Ray instance starts in seconds; CI is slow)
STOP_S = 60.0  # the command must have exited this long after the signal


def token() -> str:
    return secrets.token_hex(8)


def stopped(argv: list, sig: int, ready: Callable[[], bool], group: bool = True,
            env: dict | None = None) -> tuple[int, str, float]:
    """Run ``holdem-cert *argv``; once ``ready()`` holds, send ``sig`` to its process group (as a
    terminal's Ctrl-C does) or, with ``group`` False, to the process alone (as ``kill`` does). Its
    exit code, standard error, and the seconds from the signal to its exit."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-m", "conformance", *map(str, argv)], cwd=ROOT,
                                env={**os.environ, **(env or {})}, start_new_session=True,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        try:
            deadline = time.monotonic() + START_S
            while not ready():
                if proc.poll() is not None:
                    err.seek(0)
                    raise AssertionError(f"the command ended (exit {proc.returncode}) before the signal: "
                                         f"{err.read().decode(errors='replace')[-2000:]}")
                assert time.monotonic() < deadline, f"not ready within {START_S} s"
                time.sleep(0.05)
            sent = time.monotonic()
            if group:
                os.killpg(proc.pid, sig)
            else:
                os.kill(proc.pid, sig)
            code = proc.wait(timeout=STOP_S)
            took = time.monotonic() - sent
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        err.seek(0)
        return code, err.read().decode(errors="replace"), took


def rows(store: Path) -> int:
    """How many tournaments a league store holds (0 before it has its table)."""
    try:
        con = sqlite3.connect(f"{Path(store).absolute().as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            return con.execute("SELECT count(*) FROM tournaments").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def lines(marker: Path) -> int:
    """How many task starts the fault injection's marker holds (0 before the first)."""
    try:
        return len(marker.read_text(encoding="utf-8").split())
    except FileNotFoundError:
        return 0


def holding(value: str, name: str = TOKEN_ENV, cmdline: str = "") -> list[int]:
    """The live processes whose environment has ``name=value`` (and whose command line contains
    ``cmdline``)."""
    needle = f"{name}={value}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0") and \
                    cmdline.encode() in (entry / "cmdline").read_bytes().replace(b"\0", b" "):
                status = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if status != "Z":
                    found.append(int(entry.name))
        except OSError:  # gone, or not ours to read
            continue
    return found


def none_left(value: str, name: str = TOKEN_ENV, cmdline: str = "", within: float = 20.0) -> list[int]:
    """Wait up to ``within`` seconds for no process to hold ``name=value`` (see :func:`holding`);
    the ones left."""
    deadline = time.monotonic() + within
    while (left := holding(value, name, cmdline)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


def segfault_soon(pid: int, after: float = 0.1) -> None:
    """A real SIGSEGV to ``pid`` in ``after`` seconds (a worker crash, without the deep data it takes)."""
    threading.Timer(after, os.kill, (pid, signal.SIGSEGV)).start()


def slow_kill(monkeypatch, seconds: float = 0.6) -> None:
    """Every worker's kill and reap take ``seconds`` more, as on a loaded machine: that time is the
    parent's, never the bot's or the engine's (``Worker._die``)."""
    from conformance.host.worker import Worker
    die = Worker._die
    monkeypatch.setattr(Worker, "_die", lambda self, reason: (time.sleep(seconds), die(self, reason)))
