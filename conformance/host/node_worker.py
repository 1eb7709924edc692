"""The V8 host of a JavaScript engine or bot: :class:`NodeWorker`, a :class:`~conformance.host.worker.Worker`
whose child is ``node node_engine.js`` instead of QuickJS (issues #25, #35).

The child speaks the QuickJS worker's protocol in mode ``"engine"`` (init, call, evalFn) or
``"bot"`` (also act) and runs the same bootstrap in a vm context of its own, so the engine or bot
sees the same environment and the driver's answers are the same texts; V8 compiles the hot code,
many times faster than QuickJS interprets it, as the browsers of the arena do. What the parent guarantees is the QuickJS worker's: every request has a
wall-clock deadline, past which the child's whole process group is killed (kind ``late``); a
crash, a malformed line or running out of memory ends the worker.

What the engine can reach (docs/engine-api.md, Hosts): node runs under its permission model
(``--permission``, ``--experimental-permission`` before node 22.13) with one grant, reading
``node_engine.js`` itself: no other file can be read or written, no child process spawned, no
worker thread started, no native addon loaded, no inspector opened, ``process.binding`` refused.
The engine's realm has none of node's globals (no ``require``, ``process``, ``fetch``, timers).
Memory: V8's heap is capped (``--max-old-space-size``, :data:`HEAP_MB`); past it node aborts,
which is reported as ``memory`` (``out of memory``), not as a crash. V8's heap flag does not bound
ArrayBuffers (allocated outside the heap), so the child's data segment is bounded by the OS
(``RLIMIT_DATA``, :data:`DATA_LIMIT_FACTOR` x the heap): past it an allocation fails in the bot's
code (a RangeError it may catch) or node aborts (``memory``).

A bot (mode ``"bot"``, ruling R39) runs in a classic Web Worker's global: ``self``, ``window`` and
``globalThis`` alias it; ``structuredClone``, ``atob``/``btoa``, ``DOMException`` and
``TextEncoder``/``TextDecoder`` are made inside its realm (:mod:`conformance.host.worker_globals`,
with core-js's ``es.*`` modules for what node lacks); ``Intl`` has the locale and time zone the child's
environment pins (:data:`BOT_ENV`: en-US, UTC); code generation from strings is off; the realm's
global object is an ordinary one, as a browser's (``vm.constants.DONT_CONTEXTIFY``: no interceptors on
every global variable); what the contract forbids is there and throws a recorded violation (the
bootstrap's guards).
"""
from __future__ import annotations

import dataclasses
import os
import re
import resource
import subprocess
import time
from functools import lru_cache
from pathlib import Path

from . import node_runtime
from .bounds import MAX_ANSWER_CHARS, MAX_NAME_CHARS, MAX_TEXT_CHARS
from . import node_code_cache, worker_globals
from .node_runtime import MIN_NODE, node_version
from .worker import Outcome, Worker, _init_line
from conformance.resources import javascript

BOOTSTRAP = javascript(__package__, "worker_bootstrap.js")  # the QuickJS worker's, unchanged
SCRIPT = Path(__file__).resolve().parent / "node_engine.js"
HEAP_MB = 256  # V8's old generation, as the QuickJS worker's default memory limit (256 MiB)
STACK_KB = 3900  # V8's stack limit; the child's OS stack is raised to CHILD_STACK to hold it
CHILD_STACK = 64 * 1024 * 1024
STDERR_HEAD = 4096  # where node says why it aborted
# What node writes on stderr when V8's heap limit is reached (it then aborts).
_OUT_OF_MEMORY = re.compile(rb"JavaScript heap out of memory|Reached heap limit|Fatal JavaScript out of memory|"
                            rb"Fatal process out of memory")
# The bot's Intl: the same answers on every machine (R39).
BOT_ENV = {"TZ": "UTC", "LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8"}
CODE_CACHE_MS = 20_000  # making the code cache: a worker's init, generously
DATA_LIMIT_FACTOR = 4  # RLIMIT_DATA of a bot's child, in heaps: V8's heap, its code, and ArrayBuffers


def find_node() -> str | None:
    """The node that hosts engines (:mod:`conformance.host.node_runtime`: the pinned node 24, else
    the system's when version 20 or later), or None."""
    return node_runtime.find_node()


def permission_flag(version: tuple[int, ...]) -> str:
    """The permission model's flag: stable as ``--permission`` from node 22.13 and 23.5."""
    stable = version[0] >= 24 or version[:2] >= (23, 5) or (version[0] == 22 and version[1] >= 13)
    return "--permission" if stable else "--experimental-permission"


@lru_cache(maxsize=None)
def allows_inspector(node: str) -> bool:
    """Whether this node can grant the inspector under its permission model (``--allow-inspector``,
    node 25 and some later 24.x): without it, the inspector that --coverage needs is refused there."""
    try:
        done = subprocess.run([node, permission_flag(node_version(node) or (0,)), "--allow-inspector", "--no-warnings",
                               "-e", "new (require('inspector').Session)().connect()"],
                              capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def coverage_sandbox(node: str) -> str:
    """What --coverage does to the sandbox of this node, in the report's words."""
    if allows_inspector(node):
        return "node's permission model, with the inspector granted (--allow-inspector)"
    return ("WITHOUT node's permission model: this node refuses the inspector under it (no --allow-inspector); "
            "the engine still runs in a vm realm with none of node's globals")


def limit_child(pid: int, data_limit: int | None) -> None:
    """Room for V8's stack (:data:`CHILD_STACK`) and, when ``data_limit`` is given, the child's data
    segment bounded at that many bytes: set on the running child (``prlimit``) as soon as it is
    spawned, before it is sent any script, not in a preexec function (forking this process to run
    Python before exec cost the parent ~5 ms a worker, holding the GIL). The stack grows on demand up
    to the limit in force at the time; node's own start-up needs neither bound."""
    try:
        soft, hard = resource.prlimit(pid, resource.RLIMIT_STACK)
        want = CHILD_STACK if hard == resource.RLIM_INFINITY else min(CHILD_STACK, hard)
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.prlimit(pid, resource.RLIMIT_STACK, (want, hard))
        if data_limit is not None:
            soft, hard = resource.prlimit(pid, resource.RLIMIT_DATA)
            resource.prlimit(pid, resource.RLIMIT_DATA,
                             (data_limit if hard == resource.RLIM_INFINITY else min(data_limit, hard), hard))
    except ProcessLookupError:  # already gone: reading its ready line says why
        pass


class NodeWorker(Worker):
    """A JavaScript engine or bot in node. ``stack_limit`` is QuickJS's and is not used;
    ``memory_limit`` (bytes) sets V8's heap (default :data:`HEAP_MB`) and, for a bot, the OS bound on
    the child's data; ``cpu_limit_ms`` is not used (the wall-clock deadline of every request is the
    parent's, as in QuickJS)."""

    host_name = "node"

    def __init__(self, node: str, *, coverage: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        version = node_version(node)
        if version is None or version[:2] < MIN_NODE:
            raise ValueError(f"{node} is not node {MIN_NODE[0]} or later")
        self.node, self.version, self.coverage = node, version, coverage
        self.heap_mb = HEAP_MB if self.memory_limit is None else max(16, self.memory_limit // 2**20)

    def take_coverage(self, timeout_ms: float = 10_000) -> Outcome:
        """V8's precise block coverage of the engine's script since the last take (which resets the
        counts): ``answer`` is the inspector's ``functions`` list (conformance.judge.coverage)."""
        with self._lock:
            return self._call(b'{"op":"coverage"}\n', timeout_ms, "value")

    def start(self, engine_source, script_source, bot_seed, mode="bot", init_timeout_ms=5000, script_name=None):
        self._bot = mode == "bot"
        if self._bot and isinstance(engine_source, str) and not self.coverage:
            # The suite's own scripts from V8's code cache (node_code_cache.py): a fifth of the start-up.
            texts = {"globals": self._globals_script(), "bootstrap": BOOTSTRAP, "engine": engine_source}
            self._code_cache = node_code_cache.code_cache(
                [*self._argv(), ".".join(map(str, self.version))], texts,
                lambda: NodeWorker(self.node, memory_limit=self.memory_limit)._make_code_cache(engine_source))
        return super().start(engine_source, script_source, bot_seed, mode, init_timeout_ms, script_name)

    def _make_code_cache(self, engine_source: str) -> dict | None:
        """V8's code cache of a bot worker's own scripts, from this fresh worker that runs them and
        loads no bot (node_code_cache.py); None when it failed. The worker is closed after."""
        self._bot = True
        try:
            with self._lock:
                if self._spawn() is not None:
                    return None
                req = {**self._init_request(engine_source, "", 0, "bot"), "makeCodeCache": True}
                out = self._request(_init_line(req), CODE_CACHE_MS, "value")
        finally:
            self.close()
        ok = out.ok and isinstance(out.answer, dict) and all(isinstance(v, str) for v in out.answer.values())
        return out.answer if ok else None

    def _argv(self) -> list[str]:
        return [self.node, *self.sandbox_flags(), "--no-warnings",
                "--unhandled-rejections=none",  # an engine's rejected promise is not our crash (QuickJS: none)
                f"--max-old-space-size={self.heap_mb}", f"--stack-size={STACK_KB}",
                str(SCRIPT)]

    def sandbox_flags(self) -> list[str]:
        """The permission model and its one grant; with coverage, the inspector too where node can grant
        it (``--allow-inspector``), else no permission model at all (:func:`coverage_sandbox`)."""
        flags = [permission_flag(self.version), f"--allow-fs-read={SCRIPT}"]
        if not self.coverage:
            return flags
        return [*flags, "--allow-inspector"] if allows_inspector(self.node) else []

    def spare(self, mode: str = "bot"):
        self._bot = mode == "bot"
        return super().spare(mode)

    def _limits_key(self) -> object:
        return getattr(self, "_bot", False), self.heap_mb

    def _limit_child(self, pid: int) -> None:
        limit_child(pid, DATA_LIMIT_FACTOR * self.heap_mb * 2**20 if getattr(self, "_bot", False) else None)

    def _env(self) -> dict:
        env = super()._env()
        return {**env, **BOT_ENV} if getattr(self, "_bot", False) else env

    def _init_fields(self) -> dict:
        cache = getattr(self, "_code_cache", None)
        return {"bootstrap": BOOTSTRAP, **({"coverage": True} if self.coverage else {}),
                **({"codeCache": cache} if cache and getattr(self, "_bot", False) else {}),
                "limits": {"answer": MAX_ANSWER_CHARS, "text": MAX_TEXT_CHARS, "name": MAX_NAME_CHARS}}

    def _globals_script(self) -> str:
        return worker_globals.script(node=True)[0]

    def _request(self, data: bytes, timeout_ms: float, answer_key: str | None) -> Outcome:
        """The base request, with ``queued_ms``: how long the child's main thread (the bot's) waited,
        runnable, for a CPU meanwhile (Linux's schedstat), so that a decision's time can leave out the
        machine's load (ruling R33) while still counting a bot that waits (Atomics.wait) or computes."""
        before = self._run_delay_ns()
        out = super()._request(data, timeout_ms, answer_key)
        after = self._run_delay_ns() if before is not None else None
        if after is None:
            return out
        return dataclasses.replace(out, queued_ms=(after - before) / 1e6)

    def _run_delay_ns(self) -> int | None:
        """The child's main thread's time spent waiting on a run queue, in ns (None: not readable).
        The file stays open for the child's life (re-read from offset 0: a decision reads it twice)."""
        if self._proc is None:
            return None
        fd = getattr(self, "_schedstat", None)
        try:
            if fd is None or fd[0] != self._proc.pid:
                if fd is not None:
                    os.close(fd[1])
                fd = self._schedstat = (self._proc.pid, os.open(f"/proc/{self._proc.pid}/schedstat", os.O_RDONLY))
            return int(os.pread(fd[1], 128, 0).split()[1])
        except (OSError, ValueError, IndexError):
            return None

    def _release(self) -> None:
        fd = getattr(self, "_schedstat", None)
        if fd is not None:
            self._schedstat = None
            try:
                os.close(fd[1])
            except OSError:
                pass
        super()._release()

    def _crashed(self, t0: float, when: str = "", wall_ms: float | None = None) -> Outcome:
        """A child that aborted at V8's heap limit ran out of memory; any other end is a crash.
        Node says so on the first lines of its stderr (a native stack trace follows)."""
        if wall_ms is None:  # up to the end of its output, as the QuickJS worker's
            wall_ms = (time.perf_counter() - t0) * 1000
        try:
            self._proc.wait(1)
        except subprocess.TimeoutExpired:
            pass
        self._stderr.seek(0)
        head = self._stderr.read(STDERR_HEAD)
        out = super()._crashed(t0, when, wall_ms)
        if _OUT_OF_MEMORY.search(head):
            message = f"out of memory (V8's heap limit, {self.heap_mb} MB)"
            self.dead_reason = f"memory: {message}"
            return Outcome("memory", wall_ms=wall_ms,
                           error={"category": "memory", "message": message,
                                  "stderr": head.decode("utf-8", "replace")})
        return out
