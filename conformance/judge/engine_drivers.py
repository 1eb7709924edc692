"""Drivers that run one golden vector against an engine and return what the engine did.

Two drivers share one interface (``start() -> dict``, ``run(family, test) -> Run``, ``close()``):

- :class:`QuickJSDriver` loads a JavaScript engine (and an optional adapter script) in a
  QuickJS worker (:mod:`conformance.host.worker`) and installs a small driver there, so that a whole
  vector -- a hand script, a tournament, the 2.6M-hand evaluate digest -- is one round trip.
- :class:`CommandDriver` talks to an engine in any language over the JSON-lines protocol of
  ``docs/engine-protocol.md``.

Both return the *actual outcome* in the shapes that document defines (``result``), or say the
engine skipped the vector, or that the run errored (``fatal`` when the engine hung, crashed or
spoke garbage: the driver then starts a fresh engine for the next vector). Judging is
:mod:`conformance.judge.engine_cert`'s business.
"""
from __future__ import annotations

import json
import shlex
import subprocess
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from conformance.host import jsvalue, node_runtime
from conformance.host.linepipe import Eof, Late, LinePipe, Tail, TooLong, kill_group, signal_name
from conformance.host.node_worker import NodeWorker, find_node
from conformance.host.worker import Worker, decode as decode_wire
from conformance.resources import javascript
from conformance.vectors.gamespec import GAME_FAMILIES
from conformance.vectors.schemas import BASE, registry
from .coverage import CoverageLog, part_of

ENGINE_FUNCTIONS = ("rng", "dealHand", "evaluate", "equity", "buildPots", "create", "createHand")
# The digest is 2,598,960 evaluate calls inside one request: it gets its own budget.
DIGEST_FLOOR_MS = 180_000
DIGEST_FACTOR = 30
STDERR_TAIL = 2000
# The largest outcome an engine may give for one vector (its JSON; the largest expected one is about
# 1 MB): more fails the vector, so that reading and judging an answer stays fast.
MAX_ANSWER = 8 << 20
PROTOCOL_VERSION = 1


class EngineLoadError(Exception):
    """The engine could not be started: it does not parse, throws or hangs at load, lacks
    ``PokerEngine``, or (``--cmd``) cannot be run or answers ``start`` with garbage."""


@dataclass(frozen=True)
class Run:
    """What happened to one vector: ``kind`` is ``result`` (``value`` is the outcome data),
    ``skipped`` (``value`` is the reason), ``errored`` (``value`` says what went wrong;
    ``fatal`` when the engine was killed or died and will be restarted) or ``suite-error`` (the
    suite's own JavaScript driver could not go on: ``value`` says why; only the QuickJS/node
    driver reports one, never an engine over --cmd, whose answers are the engine's own)."""

    kind: str
    value: Any = None
    fatal: bool = False
    late: bool = False  # no answer within the time limit (the runner retries it with a larger one)
    note: str | None = None  # how the run was made, for the vector's notes (QuickJSDriver's QuickJS rerun)


def digest_timeout_ms(timeout_ms: float) -> float:
    return max(DIGEST_FLOOR_MS, DIGEST_FACTOR * timeout_ms)


def is_digest(test: dict) -> bool:
    return test["input"].get("digest") == "five-card"


# A whole tournament recorded step by step (every decision state) is one request: it gets a few
# timeouts' worth (the longest golden one, 2,400 decisions, takes about 1.5 s alone).
GAME_FACTOR = 4
RECORDED_GAMES = frozenset({"tournaments", "sng3v4"})


def budget_ms(family: str, test: dict, timeout_ms: float) -> float:
    """The deadline of one vector: the digest's, a recorded game's, or the plain timeout."""
    if is_digest(test):
        return digest_timeout_ms(timeout_ms)
    return GAME_FACTOR * timeout_ms if family in RECORDED_GAMES else timeout_ms


# ---------------------------------------------------------------------------------------------
# QuickJS
# ---------------------------------------------------------------------------------------------

# Installed with evalFn after the engine and the adapter have loaded. `__holdemDriver(family,
# input)` returns the outcome shapes of docs/engine-protocol.md as one string, in the worker's
# tagged JSON encoding (conformance.host.worker.decode), so that a long game's outcome is not cut at the
# worker's limit on transported values; it never throws on the engine's account. Everything the
# engine returns is copied at once: an engine that later mutates an object it handed out must not
# change what was recorded. Its file names the placeholders FUNCTIONS and MAX_ANSWER, filled in here.
DRIVER_JS = (javascript(__package__, "engine_driver.js")
             .replace("FUNCTIONS", json.dumps(list(ENGINE_FUNCTIONS))).replace("MAX_ANSWER", str(MAX_ANSWER)))


def answer_value(text: str) -> Any:
    """The Python value of the driver's answer, a JSON text in the worker's tagged encoding: parsed
    once by orjson (the standard library only for what orjson refuses: a lone surrogate's escape,
    an integer past 64 bits), then walked for tags only when the text can hold one (a ``"$"`` key;
    the driver's JSON.stringify never escapes ``$``, the check covers an escaped one too)."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        data = json.loads(text)
    return decode_wire(data) if '"$"' in text or "\\u0024" in text else data


def _too_large(size: str) -> str:
    return f"answer too large: {size} of JSON, limit {MAX_ANSWER} (docs/engine-protocol.md, Limits)"


def _thrown_text(error: dict | None) -> str:
    error = error or {}
    return f"{error['name']}: {error.get('message')}" if error.get("name") else str(error.get("message"))


def _fatal_message(kind: str, error: dict | None, timeout_ms: float) -> str:
    if kind == "memory":
        return "the engine ran out of memory; it is restarted for the next vector"
    if kind == "late":
        return f"no answer within {timeout_ms:g} ms; the engine was stopped and is restarted for the next vector"
    message = (error or {}).get("message") or kind
    if kind == "crash":
        tail = (error or {}).get("stderr") or ""
        return f"the engine process died: {message}" + (f"; stderr: {tail[-500:]}" if tail else "")
    return f"{kind}: {message}; the engine is restarted for the next vector"


HOSTS = ("node", "quickjs")  # where a JavaScript engine runs (docs/engine-api.md, Hosts)


# The CommonJS check's driver family (engine_driver.js, commonjs; smoke.py, smoke.module).
COMMONJS = "module"
# The families whose vectors play a game or hand: the driver records its trajectory up to an error
# (QuickJSDriver._under_quickjs). A helper's out of memory is no refusal: node's death stands.
PLAYED = GAME_FAMILIES | {"hand"}


def commonjs_source(engine_source: str) -> str:
    """An evalFn source running ``engine_source`` as Node runs a CommonJS module: in its wrapper
    function, which the driver calls with ``this`` = module.exports. The host compiles it (the realm's
    own Function constructor is guarded, as a bot's is)."""
    return ("(function () { return globalThis.__holdemDriver('module', "
            "function (exports, require, module, __filename, __dirname) {\n" + engine_source + "\n}); })")


def default_host() -> str:
    """node (V8) where a node that can host engines is installed, else QuickJS."""
    return "node" if find_node() is not None else "quickjs"


class QuickJSDriver:
    """A JavaScript engine (plus preludes and an adapter) in a worker of ``host``: ``"quickjs"``
    (:class:`~conformance.host.worker.Worker`) or ``"node"`` (V8,
    :class:`~conformance.host.node_worker.NodeWorker`). Both run the same driver in the same
    environment and give the same answers (tests/test_hosts.py).

    ``preludes`` are scripts loaded before the engine in the same script (libraries the engine
    wraps); the adapter is loaded after it and may define or replace ``PokerEngine``.
    """

    language = "javascript"

    def __init__(self, engine_source: str, *, engine_name: str, adapter_source: str | None = None,
                 timeout_ms: float = 10_000, host: str = "quickjs", coverage: bool = False) -> None:
        if host not in HOSTS:
            raise ValueError(f"host: unknown {host!r} (known: {', '.join(HOSTS)})")
        self.node = find_node() if host == "node" else None
        if host == "node" and self.node is None:
            raise ValueError(f"host: no node to run the engine on ({node_runtime.describe()}); use the quickjs host")
        if coverage and host != "node":
            raise ValueError(f"coverage: V8's block coverage needs the node host, not {host}")
        # --coverage: V8's counts of the engine's script, one snapshot per part of the run (coverage.py).
        self.coverage = CoverageLog() if coverage else None
        self.host = host
        self.engine_source = engine_source
        self.engine_name = engine_name
        self.adapter_source = adapter_source
        self.timeout_ms = timeout_ms
        self.digest_ms = digest_timeout_ms(timeout_ms)
        self.info: dict | None = None
        self._worker: Worker | None = None
        self._fallback: "QuickJSDriver | None" = None  # node's out of memory: the vector under QuickJS

    def start(self) -> dict:
        """Load the engine; its description (name, version, functions). Raises EngineLoadError."""
        probe = self._spawn()
        if probe["type"] not in ("object", "function"):
            self.close()
            raise EngineLoadError(f"the engine does not define a global PokerEngine object (typeof PokerEngine is "
                                  f"{probe['type']!r}); an adapter script may define it (--adapter)")
        functions = probe["functions"]
        self.info = {
            "name": self.engine_name, "version": probe["version"], "language": self.language,
            "missing": [f"PokerEngine.{n}" for n in ENGINE_FUNCTIONS if not functions.get(n)],
            **({"profiles": probe["profiles"]} if "profiles" in probe else {}),  # PokerEngine.profiles
        }
        return self.info

    def _spawn(self) -> dict:
        worker = (NodeWorker(self.node, coverage=self.coverage is not None) if self.host == "node"
                  else Worker(cpu_limit_ms=int(self.digest_ms)))
        out = worker.start(self.engine_source, self.adapter_source or "", 0, mode="engine",
                           init_timeout_ms=self.timeout_ms)
        if not out.ok:
            worker.close()
            raise EngineLoadError(self._load_failure(out))
        probe = worker.eval_fn(DRIVER_JS, [], timeout_ms=self.timeout_ms)
        if not probe.ok or not isinstance(probe.answer, dict):
            worker.close()
            raise EngineLoadError(f"installing the vector driver failed ({probe.kind}): {(probe.error or {}).get('message')}")
        self._worker = worker
        return probe.answer

    def _load_failure(self, out) -> str:
        error = out.error or {}
        where = "the adapter" if error.get("source") == "script" else "the engine"
        message = error.get("message") or out.kind
        if out.kind == "syntax":
            return f"{where} does not parse: {message}"
        if out.kind == "throw":
            name = f"{error['name']}: " if error.get("name") else ""
            return f"{where} threw while loading: {name}{message}"
        if out.kind == "late":
            return f"the engine did not finish loading within {self.timeout_ms:g} ms"
        return f"the engine could not be loaded ({out.kind}): {message}"

    def run(self, family: str, test: dict, scale: float = 1.0) -> Run:
        """``scale``: the time limit's multiple (the runner's retry of a late vector)."""
        if self.coverage is not None and self.coverage.due(part_of(family, test)):
            self.take_coverage()  # the part before ends (its counts are its own), or a second has passed
            self.coverage.part = part_of(family, test)
        if self._worker is None or self._worker.dead:
            try:
                self._spawn()
            except EngineLoadError as exc:
                return Run("errored", f"restarting the engine failed: {exc}", fatal=True)
        timeout = budget_ms(family, test, self.timeout_ms) * scale
        if family == COMMONJS:  # the engine's own text as a CommonJS module (smoke.module, engine.commonjs)
            out = self._worker.eval_fn(commonjs_source(self.engine_source), [], timeout_ms=timeout)
        else:
            out = self._worker.call("__holdemDriver", [family, jsvalue.decode(test["input"])], timeout_ms=timeout)
        if self.coverage is not None and self._worker.dead:
            self.coverage.died(test["id"])
        if out.kind == "ok":
            try:
                value = answer_value(out.answer) if isinstance(out.answer, str) else out.answer
            except (ValueError, KeyError, TypeError, RecursionError) as exc:  # the driver bounds depth: a bug
                return Run("errored", f"the driver's answer could not be decoded ({type(exc).__name__}: {exc})")
            if isinstance(value, dict) and set(value) == {"skipped"}:
                return Run("skipped", value["skipped"])
            if isinstance(value, dict) and set(value) == {"tooLarge"}:
                return Run("errored", _too_large(f"{value['tooLarge']} characters"))
            if isinstance(value, dict) and value.get("exhausted") is True:
                # the game recorded up to a call that exhausted memory or stack (engine_driver.js,
                # Spent): judged so; the context may be unusable, the next vector gets a new worker
                if self.coverage is not None:
                    self.coverage.died(test["id"])
                self._worker.close()
                self._worker = None
            if isinstance(value, dict) and isinstance(value.get("suiteError"), dict):  # engine_driver.js: ours
                error = value["suiteError"]
                return Run("suite-error", f"at {error.get('at')}: {error.get('message')}")
            return Run("result", value)
        if out.kind == "throw":  # only an exhausted stack escapes the driver (see exhausted() there)
            self.close()
            return Run("errored", f"the engine exhausted its resources ({_thrown_text(out.error)}); "
                                  "it is restarted for the next vector", fatal=True)
        if self._worker.dead:
            if out.kind == "memory" and self.host == "node" and family in PLAYED \
                    and (again := self._under_quickjs(family, test, scale)) is not None:
                return again
            return Run("errored", _fatal_message(out.kind, out.error, timeout), fatal=True, late=out.kind == "late")
        return Run("errored", f"the driver call failed ({out.kind}): {(out.error or {}).get('message')}")

    def _under_quickjs(self, family: str, test: dict, scale: float) -> "Run | None":
        """The vector run again under QuickJS after node ran out of memory on it: V8 aborts at its
        heap limit, taking what the engine did with it, while QuickJS's out of memory is an exception
        inside the call, so the driver records the engine's game up to it (the hosts give the same
        answers: tests/test_hosts.py). A game that exhausted memory after a difference is then that
        difference's consequence, not a failure without a trajectory (issue #38). None when QuickJS
        gives no outcome either (node's death then stands)."""
        if self._fallback is None:
            self._fallback = QuickJSDriver(self.engine_source, engine_name=self.engine_name,
                                           adapter_source=self.adapter_source, timeout_ms=self.timeout_ms)
            try:
                self._fallback.start()
            except EngineLoadError:
                return None
        run = self._fallback.run(family, test, scale)
        if run.kind != "result" or not isinstance(run.value, dict):
            return None
        value, error = run.value, run.value.get("error")
        if isinstance(error, dict) and error.get("name") is None and error.get("message") == "null":
            # QuickJS out of memory even for its error object throws null: named for what it is
            value = {**value, "error": {**error, "message": "out of memory (under QuickJS: null thrown; node: V8's heap limit)"}}
        return Run("result", value, note="node ran out of memory (V8's heap limit) on this vector: judged on a run "
                                         "under QuickJS, where running out of memory is an exception the driver records")

    def close(self) -> None:
        if self._worker is not None:
            self.take_coverage()
            self._worker.close()
            self._worker = None
        if self._fallback is not None:
            self._fallback.close()
            self._fallback = None

    def take_coverage(self) -> None:
        """Record the counts since the last take under the part that ran (the take resets them)."""
        if self.coverage is None or self._worker is None or self._worker.dead:
            return
        out = self._worker.take_coverage(self.timeout_ms)
        if out.ok and isinstance(out.answer, list):
            self.coverage.record(out.answer)
        else:
            self.coverage.failed(f"{out.kind}: {(out.error or {}).get('message')}")


# ---------------------------------------------------------------------------------------------
# --cmd: the JSON-lines protocol
# ---------------------------------------------------------------------------------------------

def _validator(definition: str):
    from jsonschema import Draft202012Validator

    schema = {"$ref": f"{BASE}engine-protocol.schema.json#/$defs/{definition}"}
    return Draft202012Validator(schema, registry=registry())


def _schema_problem(validator, message: dict) -> str | None:
    errors = sorted(validator.iter_errors(message), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    e = errors[0]
    where = "/".join(str(p) for p in e.absolute_path) or "(root)"
    return f"{where}: {e.message[:300]}"


class CommandDriver:
    """An engine in any language, run as ``command`` and spoken to in JSON lines (docs/engine-protocol.md).

    Each request has a wall-clock deadline; a late, crashed or garbled engine is killed (its whole
    process group) and started afresh before the next vector.
    """

    def __init__(self, command: str, *, timeout_ms: float = 10_000, start_timeout_ms: float = 10_000) -> None:
        self.command = command
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("the engine command is empty")
        self.timeout_ms = timeout_ms
        self.start_timeout_ms = max(start_timeout_ms, timeout_ms)
        self.info: dict | None = None
        self._proc: subprocess.Popen | None = None
        self._seq = 0
        self._declared: list | None = None  # the start answer's profiles
        self._start_validator = _validator("startResponse")
        self._run_validator = _validator("runResponse")

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> dict:
        implementation = self._spawn()
        self.info = {"name": implementation["name"], "version": implementation.get("version"),
                     "language": implementation.get("language"), "command": self.command, "missing": [],
                     **({"profiles": self._declared} if self._declared is not None else {})}
        return self.info

    def _spawn(self) -> dict:
        try:
            self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, start_new_session=True, bufsize=0)
        except OSError as exc:
            self._proc = None
            raise EngineLoadError(f"cannot run {self.argv[0]!r}: {exc.strerror or exc}") from None
        # Killed however we end (an exception, a signal turned into one, interpreter exit).
        self._finalizer = weakref.finalize(self, kill_group, self._proc)
        self._stderr = Tail(self._proc.stderr, STDERR_TAIL)  # only its end is shown: only its end is kept
        self._pipe = LinePipe(self._proc)
        try:
            reply = self._exchange({"cmd": "start", "version": PROTOCOL_VERSION}, self.start_timeout_ms)
        except Late:
            self._kill()
            raise EngineLoadError(f"no answer to start within {self.start_timeout_ms:g} ms") from None
        except Eof:
            raise EngineLoadError(f"the engine exited before answering start ({self._exit_status()})") from None
        except (TooLong, ValueError) as exc:
            self._kill()
            raise EngineLoadError(f"bad answer to start: {exc}") from None
        problem = _schema_problem(self._start_validator, reply)
        if problem:
            self._kill()
            raise EngineLoadError(f"bad answer to start: {problem}")
        self._declared = reply.get("profiles")  # the conformance profiles it implements (None: not said)
        return reply["implementation"]

    def run(self, family: str, test: dict, scale: float = 1.0) -> Run:
        """``scale``: the time limit's multiple (the runner's retry of a late vector)."""
        if self._proc is None:
            try:
                self._spawn()
            except EngineLoadError as exc:
                return Run("errored", f"restarting the engine failed: {exc}", fatal=True)
        self._seq += 1
        seq = self._seq
        # The engine reports what it does; the expectation stays with the runner.
        vector = {"family": family, "test": {k: v for k, v in test.items() if k != "expected"}}
        timeout = budget_ms(family, test, self.timeout_ms) * scale
        try:
            reply = self._exchange({"cmd": "run", "seq": seq, "vector": vector}, timeout)
        except Late:
            self._kill()
            return Run("errored", _fatal_message("late", None, timeout), fatal=True, late=True)
        except Eof:
            return Run("errored", f"the engine process died: {self._exit_status()}", fatal=True)
        except TooLong as exc:
            self._kill()
            return Run("errored", _too_large(f"more than {exc.size} bytes"), fatal=True)
        except ValueError as exc:
            self._kill()
            return Run("errored", f"malformed answer: {exc}", fatal=True)
        problem = _schema_problem(self._run_validator, reply)
        if problem is None and reply["seq"] != seq:
            problem = f"seq: expected {seq}, got {reply['seq']}"
        if problem:
            self._kill()
            return Run("errored", f"malformed answer: {problem}", fatal=True)
        if "result" in reply:
            try:
                return Run("result", jsvalue.decode(reply["result"]))
            except ValueError as exc:
                return Run("errored", f"malformed result: {exc}")
        if "skipped" in reply:
            return Run("skipped", reply["skipped"].get("reason") or "(no reason given)")
        return Run("errored", f"the engine reported an error: {json.dumps(reply['errored'].get('context'))[:2000]}")

    def close(self) -> None:
        if self._proc is None:
            return
        try:
            self._pipe.write(b'{"cmd":"stop"}\n', time.perf_counter() + 0.5)
            self._proc.wait(1)
        except (Late, Eof, subprocess.TimeoutExpired):
            pass
        self._kill()

    # -- plumbing -------------------------------------------------------------------------------
    def _exchange(self, message: dict, timeout_ms: float) -> dict:
        deadline = time.perf_counter() + timeout_ms / 1000
        data = json.dumps(message, separators=(",", ":"), allow_nan=False).encode() + b"\n"
        self._pipe.write(data, deadline)
        line = self._pipe.read_line(deadline, MAX_ANSWER)
        try:
            reply = json.loads(line, parse_constant=_not_json)
        except (ValueError, RecursionError) as exc:
            raise ValueError(f"not JSON ({exc}): {line[:200]!r}") from None
        if not isinstance(reply, dict):
            raise ValueError(f"expected a JSON object, got {line[:200]!r}")
        return reply

    def _exit_status(self) -> str:
        try:
            code = self._proc.wait(1)
        except subprocess.TimeoutExpired:
            code = None
        how = ("it closed its output" if code is None else
               f"killed by {signal_name(-code)}" if code < 0 else f"exit status {code}")
        tail = self._stderr_tail()
        self._kill()
        return how + (f"; stderr: {tail}" if tail else "")

    def _stderr_tail(self) -> str:
        return self._stderr.text(wait=0.5).strip()

    def _kill(self) -> None:
        """SIGKILL the engine's process group (it leads its own session) and release everything."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        self._finalizer()  # kill_group, once
        self._pipe.close()
        proc.stdin.close()
        proc.stdout.close()  # stderr: the Tail's thread closes it at its end


def _not_json(token: str) -> None:
    """Python's json reads NaN, Infinity and -Infinity; JSON has no such tokens."""
    raise ValueError(f"{token} is not JSON")


def read_source(path: Path, what: str) -> str:
    """A script's text; OSError (exit 2) when it cannot be read, ValueError when it is not UTF-8."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: the {what} is not UTF-8 ({exc.reason} at byte {exc.start})") from None
