"""Decision times of a bot in node (V8), the arena's predictor (issue #18 item 3).

QuickJS is an interpreter, many times slower than the JIT of the browsers the arena runs in; a bot
near the deadline in QuickJS says little about the arena. When ``node`` is installed, the bot is
also timed in V8: :class:`NodeBot` runs ``node node_timing.js`` as one child process per bot (its own
process group), which runs the bot in a ``worker_threads`` Worker with the contract's worker
environment (seeded ``Math.random``, ``PokerEngine``, the ``module``/``exports`` shim, a silent
console, and the QuickJS worker's guards) and terminates it at the decision deadline. The Worker
first loads core-js's modules of the builtins the QuickJS worker offers and node lacks
(:mod:`conformance.host.node_polyfill`), so that a bot runs in V8 with the same language. This
process only measures: the Python parent keeps its own wall-clock deadline on every line and kills
the whole group when node overruns it, bounds what it reads, and caps node's heap
(``--max-old-space-size``, and the Worker's ``resourceLimits``).

Node is optional: :func:`find_node` is None without it, and the timing verdict then rests on
QuickJS alone (:mod:`conformance.bots.bot_timing`).
"""
from __future__ import annotations

import json
import subprocess
import tempfile
import time
import weakref
from dataclasses import dataclass
from pathlib import Path

from . import node_polyfill, node_runtime, worker_globals
from .linepipe import Eof, Late, LinePipe, TooLong, kill_group
from .worker import encode_state

SCRIPT = Path(__file__).resolve().parent / "node_timing.js"
HEAP_MB = 256  # V8 heap of the bot's Worker, as the QuickJS worker's default memory limit
GRACE_MS = 2000  # node's own deadline fires first; ours only catches a stuck or dead node
MAX_LINE = 4096  # a response is a few dozen bytes
ENV_MS = 20000  # node_timing.js's own deadline for starting the worker and loading the polyfill


def find_node() -> str | None:
    """The node that runs bots on V8 (:mod:`conformance.host.node_runtime`), or None."""
    return node_runtime.find_node()


@dataclass(frozen=True)
class NodeTime:
    kind: str  # ok, threw (act threw: no decision time), late (terminated at the deadline), error (did not load, ...)
    ms: float
    message: str = ""
    answer: str | None = None  # a string answer, else its typeof (node only times; QuickJS judges)


class NodeBot:
    """One bot in one node child process; ``start`` then ``act`` per state. Never raises for what
    the child does: a stuck, crashed or chatty child gives a ``NodeTime`` of kind ``error``."""

    def __init__(self, node: str) -> None:
        self._stderr = tempfile.TemporaryFile()
        self._proc = subprocess.Popen(
            [node, f"--max-old-space-size={HEAP_MB}", "--stack-size=984", str(SCRIPT)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, start_new_session=True, bufsize=0)
        self._finalizer = weakref.finalize(self, kill_group, self._proc)
        self._pipe = LinePipe(self._proc)
        self.polyfill: str | None = None  # what start loaded first: "core-js 3.51.0", or why nothing

    def __enter__(self) -> NodeBot:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self, engine: str, source: str, bot_seed: int, init_ms: float, polyfill: bool = True) -> NodeTime:
        """Load the bot; with ``polyfill`` core-js's modules first (installed when absent, see
        :attr:`polyfill`; without it node's own builtins)."""
        package, self.polyfill = node_polyfill.resolve() if polyfill else (None, "not asked for")
        files = [] if package is None else node_polyfill.module_paths(package)
        req = {"op": "start", "engine": engine, "script": source, "botSeed": bot_seed, "initMs": init_ms,
               "memoryMb": HEAP_MB, "polyfill": files, "globals": worker_globals.script(node=False)[0]}
        return self._request(json.dumps(req).encode() + b"\n", init_ms + (ENV_MS if files else 0))

    def act(self, state: dict, timeout_ms: float) -> NodeTime:
        text = encode_state(state).decode("utf-8")
        return self._request(json.dumps({"op": "act", "state": text, "timeoutMs": timeout_ms}).encode() + b"\n",
                             timeout_ms)

    def _request(self, line: bytes, timeout_ms: float) -> NodeTime:
        t0 = time.perf_counter()
        deadline = t0 + (timeout_ms + GRACE_MS) / 1000
        try:
            self._pipe.write(line, deadline)
            resp = json.loads(self._pipe.read_line(deadline, MAX_LINE))
            answer = resp.get("answer")
            return NodeTime(str(resp["kind"]), float(resp["ms"]), str(resp.get("message", "")),
                            answer if isinstance(answer, str) else None)
        except (Late, Eof, TooLong, ValueError, KeyError, TypeError) as exc:
            self.close()
            return NodeTime("error", (time.perf_counter() - t0) * 1000, f"node: {type(exc).__name__} {exc}")

    def close(self) -> None:
        self._finalizer()  # kills the group and reaps
        self._pipe.close()
        self._stderr.close()
