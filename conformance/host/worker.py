"""The parent side of the QuickJS worker: one :class:`Worker` (one process) per seat.

Untrusted JavaScript runs only in a child process (:mod:`conformance.host.worker_process`).
The parent enforces wall-clock deadlines itself: it waits on the child's stdout
with a selector and, when an answer is late, SIGKILLs the child's whole process
group. A worker that was late, ran out of memory, crashed, failed to load or
sent a malformed line is *dead*: every later call returns an ``Outcome`` of kind
``"dead"`` at once, without spawning anything. Nothing the child does raises in
the caller; only misuse of this API (bad arguments, ``act`` before ``start``)
raises.

Outcome kinds:

``ok``           the call completed; ``answer`` is the transported value.
``throw``        the JavaScript threw (or reading the answer's ``then``/``type``/
                 ``amount`` threw); ``error`` has ``where``, ``name``, ``message``
                 and the thrown ``value``; for an Error thrown in ``act`` or while
                 loading, ``at`` names the first frame of its stack in a script
                 (:func:`thrown_text`). The worker stays alive after ``act``.
``syntax``       a script (``start``) or source (``eval_fn``) does not parse.
``export-shape`` ``module.exports`` is not a bot (``start`` in mode ``"bot"``).
``path``         ``call``: the dotted path does not lead to a function.
``late``         no answer within the deadline (or the child's CPU-time backstop
                 fired); the worker was killed.
``memory``       the JavaScript ran out of memory; the worker was killed.
``crash``        the child exited or closed its pipe; ``error`` has ``exitCode``.
``malformed``    the child sent something that is not a valid response.
``dead``         the worker was already dead; nothing was sent.

Transported values (``answer``, ``call`` values, thrown values) are Python data:
``str``, ``int``/``float`` (any JS number, including ``nan``, ``inf`` and
``-0.0``), ``bool``, ``None`` (null), ``list``, ``dict``, and :class:`JSValue`
for the rest -- ``UNDEFINED``, ``JSValue("bigint", "12")``,
``JSValue("symbol", "desc")``, ``JSValue("function", "name")``,
``JSValue("promise")``, ``JSValue("throwing", {"name", "message", "value"})``,
``JSValue("object")`` / ``JSValue("array")`` (not transported) and
``JSValue("truncated", reason)``. An ``act`` answer that is an object arrives as
``{"type": ..., "amount": ...}`` with only those two fields read; an absent field
is ``UNDEFINED``.

Wall time is ``time.perf_counter`` from just before the request is written to
just after the response line is read: message delivery both ways, parsing the
state in JS, the bot's computation and encoding the answer. ``cpu_ms`` is the
child's process CPU time for the request; ``cpu_meter`` (optional) gets it as it comes, and the
child's start-up CPU time with the init's.
"""
from __future__ import annotations

import functools
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import orjson

from reference.actions import js_text

from . import spares, worker_globals
from .linepipe import Eof, Late, LinePipe, kill_group, signal_name

from reference.rng import JSBigInt

from .jsvalue import UNDEFINED  # one sentinel for JS undefined across vectors, host and reference

_ROOT = Path(__file__).resolve().parents[2]
MAX_UINT32 = 2**32 - 1
STDERR_TAIL = 2000
_FATAL = frozenset({"late", "memory", "crash", "malformed"})
_WORKER_CATEGORIES = frozenset({"throw", "syntax", "export-shape", "path", "memory"})


@functools.cache
def binding_dir() -> str | None:
    """The directory the QuickJS binding's C module (``_quickjs``) is installed in, or None."""
    try:
        spec = importlib.util.find_spec("_quickjs")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not os.path.isfile(spec.origin):
        return None
    return os.path.dirname(spec.origin)


@dataclass(frozen=True)
class JSValue:
    """A JavaScript value JSON cannot carry, by tag (see the module docstring)."""

    tag: str
    info: Any = None


# The tags that carry one field, and its key.
TAG_INFO = {"bigint": "value", "symbol": "description", "function": "name", "truncated": "reason",
            "toolong": "length"}
_SPECIAL_NUMBERS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf, "-0": -0.0}


def decode(wire: Any) -> Any:
    """The Python value of the worker's tagged JSON encoding."""
    if isinstance(wire, list):
        return [decode(x) for x in wire]
    if not isinstance(wire, dict):
        return wire
    tag = wire.get("$")
    if tag is None:
        return {k: decode(v) for k, v in wire.items()}
    if tag == "number":
        return _SPECIAL_NUMBERS[wire["value"]]
    if tag == "object" and "value" in wire:
        return {k: decode(v) for k, v in wire["value"].items()}
    if tag == "undefined":
        return UNDEFINED
    if tag in TAG_INFO:
        key = TAG_INFO[tag]
        return JSValue(tag, wire[key])
    if tag == "throwing":
        return JSValue(tag, _thrown(wire))
    if tag in ("promise", "object", "array"):
        return JSValue(tag)
    raise ValueError(f"unknown tag {tag!r}")


def encode(value: Any) -> Any:
    """The wire form of a Python value passed to JavaScript (the inverse of :func:`decode`)."""
    if isinstance(value, JSBigInt):  # a vector's BigInt seed (R32); an int subclass, so first
        return {"$": "bigint", "value": str(int(value))}
    if isinstance(value, float) and not math.isfinite(value):
        return {"$": "number", "value": "NaN" if value != value else "Infinity" if value > 0 else "-Infinity"}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        body = {k: encode(v) for k, v in value.items()}
        return {"$": "object", "value": body} if "$" in body else body
    if value is UNDEFINED:
        return {"$": "undefined"}
    if isinstance(value, JSValue) and value.tag == "bigint":
        return {"$": "bigint", "value": value.info}
    if isinstance(value, JSValue):
        raise TypeError(f"a JavaScript {value.tag} cannot be passed as an argument")
    return value


# A global a browser's worker has and this host cannot give (ruling R39): its ReferenceError is named.
_NOT_DEFINED = re.compile(r"'?(\w+)'? is not defined")
UNAVAILABLE = {"quickjs": ("Intl",)}


def unavailable_note(error: dict, host: str) -> str:
    """What to add to a thrown error's message when the bot used a global of a browser's worker that
    ``host`` lacks (R39: QuickJS has no Intl), else ""."""
    if error.get("name") != "ReferenceError" or not isinstance(error.get("message"), str):
        return ""
    m = _NOT_DEFINED.fullmatch(error["message"])
    if m is None or m[1] not in UNAVAILABLE.get(host, ()):
        return ""
    return (f" ({m[1]} is not available on the {host} host: ruling R39, docs/rulings.md; "
            f"certify with --host node)")


def thrown_text(error: dict) -> str:
    """What a ``throw`` outcome's error says: "TypeError: not a function (at decide, bot line 12)"."""
    name = error.get("name")
    value = js_text(error["value"]) if "value" in error else repr(error.get("message"))  # JS words: null, "no"
    text = f"{name}: {error.get('message')}" if name else f"a non-Error value {value}"
    at = error.get("at")
    if at:
        place = f"{at['file']} line {at['line']}"
        text += f" (at {at['function']}, {place})" if at["function"] else f" (at {place})"
    return text


def _thrown(wire: dict) -> dict:
    return {"name": wire["name"], "message": wire["message"], "value": decode(wire["value"])}


@dataclass(frozen=True)
class Outcome:
    """The result of one request to a worker."""

    kind: str
    answer: Any = None
    wall_ms: float = 0.0
    cpu_ms: float | None = None
    violations: tuple = ()
    error: dict | None = None
    # On the V8 host, the part of wall_ms the child's main thread waited, runnable, for a CPU
    # (the machine's load, not the bot's time); None where it is not measured.
    queued_ms: float | None = None

    @property
    def ok(self) -> bool:
        return self.kind == "ok"


class Worker:
    """One QuickJS worker process: ``start`` it once, then ``act``/``call`` it.

    Not for concurrent use from several threads (calls are serialised by a lock);
    use one Worker per seat, each its own process.
    """

    host_name = "quickjs"  # the host that runs the JavaScript, as reports record it

    def __init__(self, *, memory_limit: int | None = None, stack_limit: int | None = None,
                 cpu_limit_ms: int = 10_000, spawn_timeout_ms: int = 10_000,
                 cpu_meter: Callable[[float], None] | None = None) -> None:
        self.memory_limit = memory_limit
        self.stack_limit = stack_limit
        self.cpu_limit_ms = cpu_limit_ms
        self.spawn_timeout_ms = spawn_timeout_ms
        # Gets the milliseconds of CPU time the child reports, start-up and every request (a bot
        # certification's CPU-time budget, conformance/bots/bounds.py); a kill reports nothing.
        self.cpu_meter = cpu_meter
        self.state = "new"  # new -> ready -> dead
        self.dead_reason: str | None = None
        self.mode: str | None = None
        self.name: str | None = None
        self.shape: str | None = None
        self.watched: tuple = ()  # what the worker watches by identity (R35): "globalThis", "Math", ...
        self.violations: list[dict] = []  # every violation reported, in order
        self.source_names = {"script": "script", "engine": "engine"}  # how thrown_text names them
        self.spawn_ms: float | None = None
        self.pid: int | None = None  # of the child, kept after it is gone
        self._proc: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self._child_history: frozenset[int] = frozenset()  # hand numbers the child holds (StateWire)

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def dead(self) -> bool:
        return self.state == "dead"

    # ---- public calls -------------------------------------------------------

    def start(self, engine_source: str | None, script_source: str, bot_seed: int,
              mode: str = "bot", init_timeout_ms: float = 5000, script_name: str | None = None) -> Outcome:
        """Spawn the child and load ``engine_source`` (may be None) then ``script_source``.

        ``init_timeout_ms`` runs from sending the scripts, after the child has
        started Python and QuickJS (``spawn_ms`` records that part). ``script_name``
        (e.g. a file name) names the script where an error's place is given; by
        default it is "bot" in mode ``"bot"`` and "adapter" in mode ``"engine"``.
        """
        if engine_source is not None and not isinstance(engine_source, str):
            raise TypeError("engine_source must be a str or None")
        if not isinstance(script_source, str):
            raise TypeError("script_source must be a str")
        if isinstance(bot_seed, bool) or not isinstance(bot_seed, int) or not 0 <= bot_seed <= MAX_UINT32:
            raise ValueError(f"bot_seed must be an integer in 0..{MAX_UINT32}, got {bot_seed!r}")
        if mode not in ("bot", "engine"):
            raise ValueError(f'mode must be "bot" or "engine", got {mode!r}')
        if not init_timeout_ms > 0:
            raise ValueError(f"init_timeout_ms must be positive, got {init_timeout_ms!r}")
        with self._lock:
            if self.state != "new":
                raise RuntimeError(f"start() on a worker that is {self.state}")
            self.source_names["script"] = script_name or ("bot" if mode == "bot" else "adapter")
            ready = self._spawn()
            if ready is not None:
                return ready
            out = self._request(_init_line(self._init_request(engine_source, script_source, bot_seed, mode)),
                                init_timeout_ms, answer_key=None)
            if out.kind == "ok":
                self.state, self.mode = "ready", mode
                self.name, self.shape = out.answer["name"], out.answer["shape"]
            elif not self.dead:  # a bot that does not load is broken: terminate it
                self._die(f"start failed ({out.kind}): {out.error['message']}")
            return out

    def act(self, state: Any, timeout_ms: float = 1000, *, encoded: bytes | None = None,
            wire: StateWire | None = None) -> Outcome:
        """One decision: ``state`` (JSON data) is sent, the bot's answer transported.

        ``encoded`` may carry ``encode_state(state)`` already computed. A :class:`StateWire`
        (``state`` is then ignored) sends only the history entries this child has not seen yet;
        the bot still receives the whole state, byte for byte ``wire.full``.
        """
        with self._lock:
            if self.state == "ready" and self.mode != "bot":
                raise RuntimeError('act() needs a worker started in mode "bot"')
            if wire is None:
                data = b'{"op":"act","state":' + (encoded if encoded is not None else _json(state)) + b"}\n"
                return self._call(data, timeout_ms, "answer")
            known = self._child_history
            added = b",".join(e for h, e in zip(wire.hands, wire.entries) if h not in known)
            data = (b'{"op":"act","historyHands":' + _json(list(wire.hands)) + b',"newHistory":[' + added +
                    b'],"state":' + wire.head + b"}\n")
            out = self._call(data, timeout_ms, "answer")
            # The child read the request unless it is gone (a dead worker is never asked again).
            self._child_history = frozenset(wire.hands)
            return out

    def call(self, path: str, args: list | tuple = (), timeout_ms: float = 1000) -> Outcome:
        """Call the function at dotted ``path`` (e.g. ``"PokerEngine.evaluate"``) with ``args``.

        The first name is a global binding (a script-level ``const`` counts); ``this``
        is the object holding the function. ``args`` may hold ``nan``/``inf``,
        ``UNDEFINED`` and ``JSValue("bigint", ...)`` besides JSON data.
        """
        if not isinstance(path, str) or not path:
            raise ValueError("path must be a non-empty string")
        with self._lock:
            return self._call(_line({"op": "call", "path": path, "args": encode(list(args))}), timeout_ms, "value")

    def eval_fn(self, source: str, args: list | tuple = (), timeout_ms: float = 1000) -> Outcome:
        """Evaluate the function expression ``source`` at global scope and call it with ``args``."""
        if not isinstance(source, str) or not source:
            raise ValueError("source must be a non-empty string")
        with self._lock:
            return self._call(_line({"op": "evalFn", "source": source, "args": encode(list(args))}), timeout_ms,
                              "value")

    def ping(self, timeout_ms: float = 1000) -> Outcome:
        with self._lock:
            return self._call(b'{"op":"ping"}\n', timeout_ms, None)

    def stderr_tail(self) -> str:
        """The end of what the child wrote on stderr (normally nothing); "" once released."""
        if self._proc is None:
            return ""
        self._stderr.seek(0, os.SEEK_END)
        self._stderr.seek(max(0, self._stderr.tell() - STDERR_TAIL))
        return self._stderr.read().decode("utf-8", "replace")

    def close(self, timeout_ms: float = 500) -> None:
        """Stop the child (politely, then by SIGKILL); idempotent."""
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                try:
                    self._pipe.write(b'{"op":"stop"}\n', time.perf_counter() + timeout_ms / 1000)
                    self._proc.wait(timeout_ms / 1000)
                except (Late, Eof, subprocess.TimeoutExpired):
                    pass
            if self.state != "dead":
                self.state, self.dead_reason = "dead", "closed"
            self._release()

    # ---- plumbing -------------------------------------------------------------

    def _init_request(self, engine_source: str | None, script_source: str, bot_seed: int, mode: str) -> dict:
        req = {"op": "init", "engine": engine_source, "script": script_source, "botSeed": bot_seed,
               "mode": mode, "cpuLimitMs": self.cpu_limit_ms, **self._init_fields()}
        if mode == "bot":  # a classic Web Worker's members (ruling R39)
            req["globals"] = self._globals_script()
        if self.memory_limit is not None:
            req["memoryLimit"] = self.memory_limit
        if self.stack_limit is not None:
            req["stackLimit"] = self.stack_limit
        return req

    def _call(self, data: bytes, timeout_ms: float, answer_key: str | None) -> Outcome:
        if self.state == "new":
            raise RuntimeError("call start() first")
        if self.dead:
            return Outcome("dead", error={"category": "dead", "message": self.dead_reason})
        return self._request(data, timeout_ms, answer_key)

    # ---- what a host other than QuickJS changes (conformance.host.node_worker) ----------------

    def _argv(self) -> list[str]:
        """The child's command line: without the site module (``-S``: its .pth files cost more than
        half of Python's start-up) when the binding's directory is known (:func:`binding_dir`)."""
        return [sys.executable, *(["-S"] if binding_dir() else []), "-m", "conformance.host.worker_process"]

    def _python_path(self) -> list[str]:
        """Where the child finds its modules: this suite, then the parent's PYTHONPATH, then the
        binding's directory (with ``-S`` there is no site-packages otherwise)."""
        return [str(_ROOT), *filter(None, [os.environ.get("PYTHONPATH")]), *filter(None, [binding_dir()])]

    def _limit_child(self, pid: int) -> None:
        """Resource limits set on the child as soon as it is spawned (the QuickJS child sets its own)."""

    def _init_fields(self) -> dict:
        """More fields of the init request."""
        return {}

    def _globals_script(self) -> str:
        """The Web-Worker members' script of a bot's realm (conformance.host.worker_globals)."""
        return worker_globals.script(node=False)[0]

    def _env(self) -> dict:
        """The child's environment."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(self._python_path())
        return env

    def _child_key(self) -> tuple:
        """What makes two children of this kind the same process (conformance/host/spares.py): the
        command line, the environment, and the limits set on it."""
        return type(self).__name__, tuple(self._argv()), tuple(sorted(self._env().items())), self._limits_key()

    def _limits_key(self) -> object:
        return None

    def _start_child(self) -> spares.Spare:
        """A child started as this worker starts one, not yet waited for."""
        stderr = tempfile.TemporaryFile()
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            self._argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=stderr, start_new_session=True, env=self._env(), cwd=_ROOT, bufsize=0)
        self._limit_child(proc.pid)
        return spares.Spare(proc, LinePipe(proc), stderr, t0)

    def spare(self, mode: str = "bot") -> tuple[tuple, spares.Spare]:
        """A child that this worker, started in ``mode``, would start: for :func:`conformance.host.spares.keep`."""
        return self._child_key(), self._start_child()

    def _spawn(self) -> Outcome | None:
        """Start the child (or take a spare one started the same way ahead of need) and wait for its
        ready line; an Outcome if that failed."""
        child = spares.take(self._child_key()) or self._start_child()
        t0 = time.perf_counter()
        self._proc, self._pipe, self._stderr = child.proc, child.pipe, child.stderr
        self.pid = self._proc.pid
        self._finalizer = weakref.finalize(self, kill_group, self._proc)
        try:
            line = self._pipe.read_line(t0 + self.spawn_timeout_ms / 1000)
        except Late:
            return self._fail("late", f"the worker did not start within {self.spawn_timeout_ms} ms", t0)
        except Eof:
            return self._crashed(t0, "while starting")
        self.spawn_ms = (time.perf_counter() - t0) * 1000
        if line != b'{"ok":true,"ready":true}':
            return self._fail("malformed", f"expected the ready line, got {line[:200]!r}", t0)
        return None

    def _request(self, data: bytes, timeout_ms: float, answer_key: str | None) -> Outcome:
        if not timeout_ms > 0:
            raise ValueError(f"a timeout must be a positive number of ms, got {timeout_ms!r}")
        t0 = time.perf_counter()
        deadline = t0 + timeout_ms / 1000
        try:
            self._pipe.write(data, deadline)
            line = self._pipe.read_line(deadline)
        except Late:  # killed at the deadline: its wall time is the deadline's (a parent the machine
            # descheduled notices later, and the kill takes its own time: neither is the bot's)
            return self._fail("late", f"no answer within {timeout_ms:g} ms", t0, wall_ms=float(timeout_ms))
        except Eof:
            return self._crashed(t0)
        wall_ms = (time.perf_counter() - t0) * 1000
        try:
            resp = _loads(line)
            return self._outcome(resp, wall_ms, answer_key)
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            return self._fail("malformed", f"bad response ({type(exc).__name__}: {exc}): {line[:200]!r}", t0)

    def _outcome(self, resp: dict, wall_ms: float, answer_key: str | None) -> Outcome:
        violations = tuple(resp.get("violations", ()))
        for v in violations:
            if not isinstance(v.get("kind"), str) or not isinstance(v.get("detail"), str):
                raise ValueError(f"bad violation {v!r}")
        self.violations.extend(violations)
        cpu_ms = resp.get("cpuMs")
        if self.cpu_meter is not None:
            spent = sum(x for x in (cpu_ms, resp.get("startCpuMs")) if isinstance(x, (int, float)))
            if spent:
                self.cpu_meter(spent)
        if resp["ok"] is True:
            if answer_key is None:  # init and ping
                answer = {"name": resp["name"], "shape": resp["shape"]} if "shape" in resp else None
                self.watched = tuple(resp.get("watched", ()))
            else:
                answer = decode(resp[answer_key])
            return Outcome("ok", answer, wall_ms, cpu_ms, violations)
        if resp["ok"] is not False:
            raise ValueError("ok must be true or false")
        error = dict(resp["error"])
        category = error["category"]
        if category == "timeout":  # the child's CPU backstop
            category = "late"
        elif category not in _WORKER_CATEGORIES:  # protocol / internal: our bug, not the bot's
            category = "malformed"
        if "value" in error:
            error["value"] = decode(error["value"])
        if isinstance(error.get("at"), dict):
            error["at"] = {**error["at"], "file": self.source_names[error["at"]["source"]]}
        note = unavailable_note(error, self.host_name)
        if note:
            error["message"] += note
        answer = decode(resp["answer"]) if "answer" in resp else None
        if category in _FATAL:
            self._die(f"{category}: {error['message']}")
        return Outcome(category, answer, wall_ms, cpu_ms, violations, error)

    def _fail(self, kind: str, message: str, t0: float, wall_ms: float | None = None) -> Outcome:
        if wall_ms is None:  # up to the failure, not the kill after it
            wall_ms = (time.perf_counter() - t0) * 1000
        self._die(f"{kind}: {message}")
        return Outcome(kind, wall_ms=wall_ms, error={"category": kind, "message": message})

    def _crashed(self, t0: float, when: str = "", wall_ms: float | None = None) -> Outcome:
        if wall_ms is None:  # up to the end of its output, not the wait and the kill after it
            wall_ms = (time.perf_counter() - t0) * 1000
        try:
            code = self._proc.wait(1)
        except subprocess.TimeoutExpired:  # closed its stdout but lives on
            code = None
        if code is None:
            how = "closed its output"
        elif code < 0:
            how = f"was killed by {signal_name(-code)}"
        else:
            how = f"exited with status {code}"
        message = f"the worker {how}{' ' + when if when else ''}"
        tail = self.stderr_tail()
        if when and tail.strip():  # a worker that cannot start says why on its last line
            message += f": {tail.strip().splitlines()[-1]}"
        self._die(f"crash: {message}")
        return Outcome("crash", wall_ms=wall_ms,
                       error={"category": "crash", "message": message, "exitCode": code, "stderr": tail})

    def _die(self, reason: str) -> None:
        self.state, self.dead_reason = "dead", reason
        self._release()

    def _release(self) -> None:
        if self._proc is None:
            return
        self._finalizer()  # kills the group if still running, reaps
        self._pipe.close()
        self._proc.stdin.close()
        self._proc.stdout.close()
        self._stderr.close()
        self._proc = None


_HISTORY_PLACEHOLDER = b'"history":null'


@dataclass(frozen=True)
class StateWire:
    """A decision state as ``Worker.act`` sends it: the state's JSON with ``"history":null`` in
    place of the history (``head``), and the history's entries encoded one by one, by hand
    number. A finished hand's public summary never changes, so each is encoded once per
    tournament (:class:`HistoryEncoder`) and sent to each worker once; the worker keeps them
    and gives the bot fresh copies (docs/worker-protocol.md)."""

    head: bytes
    hands: tuple[int, ...]
    entries: tuple[bytes, ...]

    @property
    def full(self) -> bytes:
        """The whole state's bytes, exactly ``encode_state`` of the state with its history."""
        before, after = self.head.split(_HISTORY_PLACEHOLDER)
        return before + b'"history":[' + b",".join(self.entries) + b"]" + after


class HistoryEncoder:
    """Encodes decision states into :class:`StateWire` s, each history entry once."""

    def __init__(self) -> None:
        self._encoded: dict[int, bytes] = {}

    def wire(self, state: dict, history: list[dict]) -> StateWire:
        """``state`` has ``"history": None``; ``history`` is what belongs there (oldest first,
        entries never changed once finished, as ``Tournament.history`` keeps them)."""
        if state.get("history", 0) is not None:
            raise ValueError('the state must carry "history": None in the history\'s place')
        head = encode_state(state)
        if head.count(_HISTORY_PLACEHOLDER) != 1:  # only the key can match: quotes in strings are escaped
            raise ValueError("the state's encoding must hold exactly one history placeholder")
        hands = tuple(e["handNumber"] for e in history)
        cache = self._encoded
        for h, e in zip(hands, history):
            if h not in cache:
                cache[h] = encode_state(e)
        if len(cache) > 2 * len(hands) + 8:  # forget hands that left the window
            keep = set(hands)
            for h in [h for h in cache if h not in keep]:
                del cache[h]
        return StateWire(head, hands, tuple(cache[h] for h in hands))


def encode_state(state: Any) -> bytes:
    """The exact bytes of a state as the bot receives it: compact UTF-8 JSON, keys in their
    order (``act`` sends them as they are, or in parts through a :class:`StateWire`).

    orjson: a decision state is about 10 kB and this is on every decision's path (8x faster
    than the standard library, byte-identical to ``json.dumps(..., ensure_ascii=False)``)."""
    return orjson.dumps(state)


def _loads(line: bytes) -> Any:
    """A response line's value: orjson, several times faster on the long lines of an engine's
    answers; the standard library for what orjson refuses (a lone surrogate's escape, an integer
    past 64 bits) and for what is not JSON at all (its error names the problem as before)."""
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return json.loads(line)


def _json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), allow_nan=False).encode("ascii")


def _line(req: dict) -> bytes:
    return _json(req) + b"\n"


def _init_line(req: dict) -> bytes:
    """An init request (strings and integers, hundreds of kB of scripts) as a line: orjson's UTF-8,
    a third of the standard library's time; the standard library's for a lone surrogate orjson refuses."""
    try:
        return orjson.dumps(req) + b"\n"
    except orjson.JSONEncodeError:
        return _line(req)
