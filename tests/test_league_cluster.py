"""``holdem-cert league --address`` on a real Ray cluster: a head (``ray start --head``, 1 CPU) and a
worker node (``ray start --address``, 2 CPUs) on this machine, on 127.0.0.1 only, with token
authentication (tests/ray_cluster.py starts and stops them; one cluster for the module). The league's
stored tournaments and report equal the local backend's byte for byte; a worker node killed while it
plays a tournament costs nothing (its tournaments are played again on the head, none is lost or
stored twice); a SIGINT stops a league on the cluster (exit 130) keeping what finished; a client
without the cluster's token is told so."""
from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from conformance.arena import series
from conformance.arena.league import backends

if not backends.ray_installed():
    pytest.skip("Ray is not installed (pip install -e '.[ray]'): no cluster to run a league on",
                allow_module_level=True)
RAY_VERSION = tuple(int(p) for p in importlib.metadata.version("ray").split(".")[:2] if p.isdigit())
if RAY_VERSION < (2, 52):
    pytest.skip(f"Ray {importlib.metadata.version('ray')} has no token authentication (2.52 or later: "
                "pip install -U ray)", allow_module_level=True)
if not Path("/proc/self/stat").exists():
    pytest.skip("the cluster helper finds its processes in /proc (Linux)", allow_module_level=True)

from ray_cluster import Cluster, cmdline, listening  # noqa: E402
from signal_helpers import rows, stopped  # noqa: E402
from conformance.arena.league.run import run_league  # noqa: E402
from conformance.arena.league.schedule import schedule  # noqa: E402
from conformance.arena.play import load_roster  # noqa: E402
from conformance.harness.runner import RunnerOptions  # noqa: E402
from conformance.host.bot_host import choose  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ROSTER = ROOT / "bots.json"
BOTS = ("check-fold", "sample-caller", "sample-tight")
SEED, BOT_SEED, HANDS, TOURNAMENTS = 7, 11, 12, 24  # 3 tables of 2, 4 sets
DONE_S = 240.0  # a league on the cluster must have finished within this
TASK = "ray::play_task"  # a Ray worker's title while it plays a tournament


def specs() -> dict:
    return {i: b.spec for i, b in load_roster(ROSTER, BOTS).bots.items()}


# The bots' host the command chooses by default (node where the suite finds one, issue #35): the
# local league below must play on it too to equal the cluster's.
OPTIONS = RunnerOptions(tournament={"max_hands": HANDS}, bot_host=choose(None).name)
#: (table, set, rotation) -> the tournament's number in a fresh store's run (what a task notes)
NUMBER = {lt.coordinates: lt.task.number for lt in schedule(specs(), 2, TOURNAMENTS // 6, SEED, BOT_SEED, OPTIONS)}


def league_argv(store: Path, address: str, *extra) -> list[str]:
    return ["league", "--roster", str(ROSTER), "--bots", ",".join(BOTS), "--tournaments", str(TOURNAMENTS),
            "--table-size", "2", "--hands", str(HANDS), "--seed", str(SEED), "--bot-seed", str(BOT_SEED),
            "--backend", "ray", "--address", address, "--store", str(store), "--quiet", *extra]


def stored(path: Path) -> dict:
    """(table, set, rotation) -> the summary as stored (the bytes; wall times are apart)."""
    with sqlite3.connect(path) as con:
        return {(t, j, r): s for t, j, r, s in con.execute("SELECT tbl, set_no, rotation, summary FROM tournaments")}


def numbers(path: Path) -> set[int]:
    """The numbers of the tournaments a store holds (their places in the league's schedule)."""
    try:
        held = set(stored(path))
    except sqlite3.Error:
        return set()
    return {NUMBER[c] for c in held}


def attempts(marker: Path) -> Counter:
    """How many times each tournament started on a node (its fault-injection marker)."""
    try:
        return Counter(int(n) for n in marker.read_text(encoding="utf-8").split())
    except FileNotFoundError:
        return Counter()


def without_timings(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "timings"}


class Setup:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.marks = {"head": root / "head.attempts"}
        # every task a node's Ray workers start notes its number in the node's marker (no fault: -1)
        self.cluster = Cluster(root / "c")
        self.worker = None

    def start(self) -> None:
        self.cluster.start(1, env={series.KILL_TASK_ENV: f"-1:once:{self.marks['head']}"})
        self.ensure_worker()

    def ensure_worker(self):
        """The live worker node (a new one if a test killed the last)."""
        if self.worker is None or self.worker.killed:
            mark = self.root / f"worker{len(self.cluster.nodes)}.attempts"
            self.worker = self.cluster.add(2, env={series.KILL_TASK_ENV: f"-1:once:{mark}"})
            self.marks[self.worker.name] = mark
        return self.worker

    def clear_marks(self) -> None:
        for mark in self.marks.values():
            mark.unlink(missing_ok=True)

    def env(self) -> dict:
        return {**os.environ, **self.cluster.client_env()}

    def strays(self) -> list[str]:
        """What the cluster runs besides Ray itself: tournaments still playing, QuickJS workers."""
        out = []
        for pid in self.cluster.processes():
            line = cmdline(pid)
            if line.startswith(TASK) or not (line.startswith("ray::") or "/ray/" in line):
                out.append(f"{pid} {line[:120]}")
        return out


@pytest.fixture(scope="module")
def setup():
    # a short path: Ray's socket paths under --temp-dir must fit in 108 bytes
    root = Path(os.environ.get("HOLDEM_CERT_RAY_TMP", "/tmp")) / f"hc-ray-{os.getpid()}"
    s = Setup(root)
    try:
        s.start()
        yield s
    finally:
        s.cluster.stop()
        assert s.cluster.processes() == []
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The same league played by the local backend (2 processes)."""
    path = tmp_path_factory.mktemp("league-cluster") / "local.db"
    report = run_league(specs(), 2, TOURNAMENTS, SEED, BOT_SEED, OPTIONS,
                        path, jobs=2)
    return report, path


def run_on_cluster(setup: Setup, store: Path, out: Path, during=None) -> tuple[subprocess.CompletedProcess, object]:
    """``holdem-cert league --address`` on the cluster; ``during(proc)`` runs while it plays."""
    proc = subprocess.Popen([sys.executable, "-m", "conformance", *league_argv(store, setup.cluster.address,
                                                                               "--json", str(out))],
                            cwd=ROOT, env=setup.env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        seen = during(proc) if during is not None else None
        stdout, stderr = proc.communicate(timeout=DONE_S)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr), seen


def test_the_cluster_listens_on_loopback_only_and_the_league_equals_the_local_one(setup, reference, tmp_path):
    report, local = reference
    worker = setup.ensure_worker()
    setup.clear_marks()
    store, out = tmp_path / "cluster.db", tmp_path / "cluster.json"

    def sockets(proc):
        """What the cluster's processes and the league listen on, once both nodes play."""
        deadline = time.monotonic() + DONE_S
        while not (attempts(setup.marks[worker.name]) and attempts(setup.marks["head"])):
            if proc.poll() is not None or time.monotonic() > deadline:
                return None
            time.sleep(0.05)
        return listening(setup.cluster.processes() + [proc.pid])

    done, seen = run_on_cluster(setup, store, out, sockets)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert seen, "the league finished before both nodes had played a tournament"
    assert {address for _, address, _ in seen} == {"127.0.0.1"}, seen
    assert stored(store) == stored(local)  # every tournament's summary, byte for byte
    assert json.dumps(without_timings(json.loads(out.read_text()))) == json.dumps(without_timings(report))
    on = {name: attempts(mark) for name, mark in setup.marks.items()}
    assert on["head"] and on[worker.name]  # both nodes played
    assert sum(on.values(), Counter()) == Counter(range(TOURNAMENTS))  # each tournament once


def test_sigint_stops_a_league_on_the_cluster_keeping_what_finished(setup, reference, tmp_path):
    """Ctrl-C (SIGINT to the process group) once the first tournaments are stored: exit 130, the
    stored rows are the local league's, and the cluster plays nothing on (the tournaments running
    are cancelled, their QuickJS workers closed)."""
    _, local = reference
    setup.ensure_worker()
    store = tmp_path / "stopped.db"
    code, err, took = stopped(league_argv(store, setup.cluster.address), signal.SIGINT, lambda: rows(store) >= 1,
                              group=True, env=setup.cluster.client_env())
    assert code == 130 and "interrupted" in err and "Traceback" not in err, err
    kept = stored(store)
    assert 1 <= len(kept) < TOURNAMENTS
    assert kept.items() <= stored(local).items()
    deadline = time.monotonic() + 20
    while (left := setup.strays()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert left == []  # the cancelled tournaments stopped, their QuickJS workers with them
    # (a rerun over such a store plays only what is missing: tests/test_league.py)


@pytest.mark.parametrize("token", ["absent"])  # ("wrong" too: the same path, 5 s more)
def test_a_client_without_the_clusters_token_is_told_so(setup, tmp_path, token):
    """Token authentication left off here (or a wrong token): exit 2, a message that says what to set."""
    env = {k: v for k, v in setup.env().items() if not k.startswith("RAY_AUTH_TOKEN")}
    env["RAY_NUM_REDIS_GET_RETRIES"] = "2"  # Ray tries 20 times, a second apart, before it gives up
    if token == "wrong":
        env["RAY_AUTH_TOKEN"] = "0" * 64
    else:
        del env["RAY_AUTH_MODE"]
    done = subprocess.run([sys.executable, "-m", "conformance", *league_argv(tmp_path / "s.db", setup.cluster.address)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=DONE_S)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith(f"holdem-cert: --address {setup.cluster.address}: the Ray cluster there refused "
                              "this client's token"), message
    assert "RAY_AUTH_MODE=token" in message and "RAY_AUTH_TOKEN_PATH" in message
    assert ("RAY_AUTH_MODE is not set here" in message) == (token == "absent")


def test_a_worker_node_killed_mid_league_costs_nothing(setup, reference, tmp_path):
    """SIGKILL every process of the worker node (as a lost machine) while it plays a tournament:
    Ray plays that tournament again on the head, the league finishes (exit 0) with every
    tournament stored once and the local results. (Last: the tests before share the worker node.)"""
    report, local = reference
    worker = setup.ensure_worker()
    setup.clear_marks()
    store, out = tmp_path / "killed.db", tmp_path / "killed.json"
    mark = setup.marks[worker.name]

    def kill_while_it_plays(proc):
        """Once a tournament started on the worker node is still playing (not in the store, a
        process of the node playing), kill the node; the tournaments stored before."""
        deadline = time.monotonic() + DONE_S
        while True:
            assert proc.poll() is None, f"the league ended before the worker node played: {proc.stderr.read()}"
            assert time.monotonic() < deadline, "no tournament ever played on the worker node"
            held = numbers(store)
            if set(attempts(mark)) - held and worker.running(TASK):
                worker.kill()
                return held
            time.sleep(0.02)

    done, held = run_on_cluster(setup, store, out, kill_while_it_plays)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    on_head, on_worker = attempts(setup.marks["head"]), attempts(mark)
    again = set(on_head) & set(on_worker)
    assert again, f"no tournament was played again (worker: {on_worker}, head: {on_head})"
    assert again <= set(on_worker) - held  # only ones the lost node had not finished
    assert set(on_head) | set(on_worker) == set(range(TOURNAMENTS))
    assert max((on_head + on_worker).values()) <= 2
    assert stored(store) == stored(local)  # nothing lost, nothing different, one row each
    report_again = json.loads(out.read_text())
    assert report_again["played"] == TOURNAMENTS
    assert json.dumps(without_timings(report_again)) == json.dumps(without_timings(report))
