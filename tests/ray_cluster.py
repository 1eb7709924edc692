"""A real Ray cluster on this machine for tests: a head started with ``ray start --head`` and worker
nodes started with ``ray start --address``, every node on 127.0.0.1 only, with token authentication,
in a temporary directory of its own; stopped by killing only the processes it started (never
``ray stop``, which stops every Ray instance on the machine).

How the pieces are kept to themselves:

- **Loopback only.** Every node is started with ``--node-ip-address=127.0.0.1``, and Ray binds its
  GCS, raylets, object managers, workers and agents to the node's IP. But ``ray start`` (Ray 2.60)
  turns 127.0.0.1 into the machine's address (``services.resolve_ip_for_localhost``, on purpose:
  ray-project/ray#26293, #59110), so the nodes are started through ``python -m ray_cluster start
  ...``: Ray's own ``ray start`` with that one function made to keep the address given. A client
  (``holdem-cert league --address 127.0.0.1:PORT``) gets ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``
  (:meth:`Cluster.client_env`), with which ``ray.init`` takes the local address as 127.0.0.1 too.
  :func:`listening` lists what our processes listen on, so a test can check it.
- **Token authentication.** ``RAY_AUTH_MODE=token`` for every node and client, the token in a file
  of the cluster's own directory (``RAY_AUTH_TOKEN_PATH``, mode 0600; never ``~/.ray/auth_token``).
- **Its own processes.** Each node's ``ray start`` runs in a session of its own; a node's processes
  are its session's (GCS, raylet, agents) and their descendants (Ray's workers put themselves in
  process groups of their own, the QuickJS workers in sessions of their own: found by parent).
- **Small.** ``--num-cpus`` as given (the head 1, a worker 2 in the tests), an object store of
  100 MiB (tasks carry bots' sources and return summaries: kilobytes), no dashboard, no usage
  stats, free ports for every fixed default port (6379, 8265, 52365), so that other Ray
  instances on the machine are not disturbed.
- **Fast failure detection.** The GCS health-checks raylets every 0.5 s and declares a node dead
  after 3 failures (Ray's defaults take about 15 s), so a killed node's tasks are rerun quickly.

``python tests/ray_cluster.py start ...`` (or ``-m ray_cluster``) is the patched ``ray start``.
"""
from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

LOOPBACK = "127.0.0.1"
OBJECT_STORE = 100 * 2**20  # bytes per node (Ray's default is 30% of the memory; a league needs little)
START_S = 90.0  # a node must be up within this (CI machines are slow)
#: GCS settings (Ray reads ``RAY_<name>`` from the environment): a lost node is declared dead fast.
FAST_FAILURE = {"RAY_health_check_initial_delay_ms": "0", "RAY_health_check_period_ms": "500",
                "RAY_health_check_timeout_ms": "500", "RAY_health_check_failure_threshold": "3"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def _stat(pid: int) -> tuple[int, int, str] | None:
    """(parent pid, session id, state) of a live process; None if gone or a zombie."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    state, ppid, sid = fields[0], int(fields[1]), int(fields[3])
    return None if state in ("Z", "X") else (ppid, sid, state)


def _processes() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, session id) of every live process."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (st := _stat(int(entry.name))) is not None:
            out[int(entry.name)] = st[:2]
    return out


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


@dataclass
class Node:
    name: str
    cpus: int
    session: int  # the session id of its `ray start` (the pid it started with)
    log: Path
    killed: bool = False

    def processes(self) -> list[int]:
        """Its live processes: its session's and their descendants, parents before children."""
        table = _processes()
        children: dict[int, list[int]] = {}
        for pid, (ppid, _) in table.items():
            children.setdefault(ppid, []).append(pid)
        order, seen = [], set()
        todo = sorted(pid for pid, (_, sid) in table.items() if sid == self.session)
        while todo:
            pid = todo.pop(0)
            if pid in seen:
                continue
            seen.add(pid)
            order.append(pid)
            todo.extend(sorted(children.get(pid, [])))
        return order

    def running(self, title: str) -> list[int]:
        """Its processes whose title (Ray sets ``ray::<function>`` while a task runs) starts so."""
        return [pid for pid in self.processes() if cmdline(pid).startswith(title)]

    def kill(self) -> None:
        """SIGKILL every process of the node, as a lost machine: Ray's workers first (so that no task
        runs on after its QuickJS workers are gone and reports a tournament they did not finish),
        then the rest (raylet, agents, the QuickJS workers), until none is left."""
        self.killed = True
        for _ in range(50):
            pids = self.processes()
            if not pids:
                return
            workers = [p for p in pids if cmdline(p).startswith("ray::")]
            for pid in workers + [p for p in pids if p not in workers]:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.1)
        raise AssertionError(f"node {self.name}: processes left after SIGKILL: {self.processes()}")

    def stop(self, grace: float = 3.0) -> None:
        """SIGTERM its processes, SIGKILL what is left after ``grace`` seconds."""
        for pid in self.processes():
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + grace
        while self.processes() and time.monotonic() < deadline:
            time.sleep(0.1)
        self.kill()


@dataclass
class Cluster:
    """A head and worker nodes on 127.0.0.1 under ``root`` (short: Ray's socket paths must fit in
    108 bytes). :meth:`start` the head, :meth:`add` workers, :meth:`stop` all."""

    root: Path
    node_env: dict = field(default_factory=dict)  # more environment for every node (and so its workers)
    port: int = field(default_factory=free_port)
    nodes: list[Node] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.token_path = self.root / "token"
        fd = os.open(self.token_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))

    @property
    def address(self) -> str:
        return f"{LOOPBACK}:{self.port}"

    def auth_env(self) -> dict[str, str]:
        return {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(self.token_path),
                "RAY_DISABLE_USAGE_STATS": "1"}

    def client_env(self) -> dict[str, str]:
        """The environment a client (a driver: ``holdem-cert league --address``) needs."""
        return {**self.auth_env(), "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}

    def _start(self, name: str, cpus: int, args: list[str], env: dict) -> Node:
        log = self.root / f"{name}.log"
        argv = [sys.executable, str(Path(__file__).resolve()), "start", f"--node-ip-address={LOOPBACK}",
                f"--num-cpus={cpus}", f"--object-store-memory={OBJECT_STORE}", f"--temp-dir={self.root / 't'}",
                "--disable-usage-stats",
                f"--dashboard-agent-listen-port={free_port()}", f"--dashboard-agent-grpc-port={free_port()}",
                f"--metrics-export-port={free_port()}", f"--runtime-env-agent-port={free_port()}", *args]
        environment = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
        environment.update({**self.auth_env(), **self.node_env, **env})
        with open(log, "wb") as out:
            proc = subprocess.Popen(argv, env=environment, stdin=subprocess.DEVNULL, stdout=out,
                                    stderr=subprocess.STDOUT, start_new_session=True)
        node = Node(name, cpus, proc.pid, log)
        self.nodes.append(node)
        try:
            code = proc.wait(timeout=START_S)
        except subprocess.TimeoutExpired:
            code = None
        if code != 0:
            node.stop(grace=0)
            raise RuntimeError(f"ray start ({name}) failed (exit {code}): "
                               f"{log.read_text(errors='replace')[-3000:]}")
        return node

    def start(self, cpus: int = 1, env: dict | None = None) -> Node:
        """The head: GCS, raylet, and ``cpus`` CPUs for tasks (``env``: more environment for it)."""
        return self._start("head", cpus, ["--head", f"--port={self.port}", "--include-dashboard=false",
                                          f"--dashboard-port={free_port()}"], {**FAST_FAILURE, **(env or {})})

    def add(self, cpus: int = 2, env: dict | None = None) -> Node:
        """A worker node joining the head (``env``: more environment for it)."""
        return self._start(f"worker{len(self.nodes)}", cpus, [f"--address={self.address}"], env or {})

    def processes(self) -> list[int]:
        return [pid for node in self.nodes for pid in node.processes()]

    def stop(self) -> None:
        for node in reversed(self.nodes):
            node.stop()


def listening(pids: list[int]) -> list[tuple[int, str, int]]:
    """(pid, local address, port) of every TCP socket the processes ``pids`` listen on (from
    /proc/net/tcp and tcp6; an IPv4-mapped IPv6 address is given as IPv4)."""
    inodes: dict[str, int] = {}
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                try:
                    target = os.readlink(fd)
                except OSError:
                    continue
                if target.startswith("socket:["):
                    inodes[target[8:-1]] = pid
        except OSError:
            continue
    found = []
    for table, size in (("tcp", 4), ("tcp6", 16)):
        try:
            lines = Path(f"/proc/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if parts[3] != "0A" or parts[9] not in inodes:  # 0A: LISTEN
                continue
            hexaddr, hexport = parts[1].split(":")
            raw = bytes.fromhex(hexaddr)
            # /proc/net gives the address as 32-bit words in host (little-endian) order
            raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
            if size == 16 and raw[:12] == b"\0" * 10 + b"\xff\xff":
                address = socket.inet_ntop(socket.AF_INET, raw[12:])
            else:
                address = socket.inet_ntop(socket.AF_INET if size == 4 else socket.AF_INET6, raw)
            found.append((inodes[parts[9]], address, int(hexport, 16)))
    return sorted(found)


def _ray_start() -> int:
    """Ray's ``ray start``, keeping a loopback ``--node-ip-address``/``--address`` as given."""
    import ray._private.services as services

    services.resolve_ip_for_localhost = lambda host: host
    from ray.scripts.scripts import main

    sys.argv[0] = "ray"
    return main()


if __name__ == "__main__":
    sys.exit(_ray_start())
