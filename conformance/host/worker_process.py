"""The QuickJS worker process: runs one bot (or engine) in its own process, on quickjs-ng.

Started by :mod:`conformance.host.worker` as ``python -m conformance.host.worker_process``. Untrusted
JavaScript never runs in the parent: a QuickJS call that hangs inside a C builtin
(regex, sort), blows the C stack or exhausts memory can only take this process
down, and the parent kills it by its wall-clock deadline.

Protocol (full text in ``docs/worker-protocol.md``): one JSON object per line on
stdin, one JSON object per line on stdout, strictly one response per request, in
order. Nothing else is written to stdout: file descriptor 1 is moved aside at
start and fd 1 then points at stderr, so stray C or Python output cannot corrupt
the stream.

On start the worker writes ``{"ok":true,"ready":true}``. Requests (``op``):

``init``   ``{engine, script, botSeed, mode, globals?, memoryLimit?, stackLimit?, cpuLimitMs?}``
           once: builds the environment (``globals``: the Web-Worker members' script,
           conformance/host/worker_globals.py, run first), runs ``engine`` (may be null) then
           ``script`` as two classic scripts, checks the export shape in mode
           ``"bot"``. -> ``{ok:true, name, shape}`` or ``{ok:false, error}``.
``act``    ``{state}`` (or ``{historyHands, newHistory, state}``: the history sent a
           hand at a time, see the docs): calls the bot with a fresh object that JS parses from the
           request text. -> ``{ok:true, answer}`` or ``{ok:false, error[, answer]}``.
``call``   ``{path, args}``: calls a function reached by a dotted path from the
           global object, ``this`` being the object holding it. -> ``{ok, value}``.
``evalFn`` ``{source, args}``: evaluates a function expression at global scope
           (bypassing the eval guard) and calls it. -> ``{ok, value}``.
``ping``   -> ``{ok:true}``.  ``stop`` -> ``{ok:true}``, then the process exits.

Every response to init/act/call/evalFn carries ``cpuMs`` (process CPU time of the
request, measured here; init's also ``startCpuMs``, the process's CPU time before it) and, when there were any since the previous response,
``violations: [{kind, detail}]``. ``error`` is ``{category, message, ...}`` with
category ``protocol``, ``syntax``, ``throw``, ``export-shape``, ``path``,
``timeout`` (the CPU backstop fired), ``memory`` or ``internal``.

Values are JSON with a tagged encoding for what JSON cannot say: an object with
key ``"$"`` is a tag -- ``undefined``; ``number`` (value ``NaN``, ``Infinity``,
``-Infinity``, ``-0``); ``bigint`` (decimal value); ``symbol`` (description);
``function`` (name); ``promise`` (a thenable); ``throwing`` (reading the value
threw: name, message); ``object`` / ``array`` (not transported: nested in an
answer, or deeper than the depth limit); ``object`` with ``value`` (a
transported object that itself has a ``"$"`` key); ``truncated`` (a call's
value had more than ``MAX_NODES`` nodes); ``toolong`` (an answer's string longer than
``MAX_ANSWER_CHARS``, R34). Strings are well-formed (a lone surrogate is U+FFFD) and a bot's
messages and names bounded (R34); globals are watched by identity (R35).
"""
from __future__ import annotations

import json
import os
import re
import sys
import threading
import time

# The binding's C module itself: its Python wrapper (``import quickjs``) adds nothing used here and
# imports concurrent.futures and logging, a third of a worker's start-up (issue #25: a bot's
# certification starts about 30 workers). Started with ``python -S`` (worker.py), nothing else is.
import _quickjs as quickjs

from conformance.host.bounds import MAX_ANSWER_CHARS, MAX_NAME_CHARS, MAX_TEXT_CHARS, bounded

DEFAULT_MEMORY_LIMIT = 256 * 1024 * 1024
DEFAULT_STACK_LIMIT = 4 * 1024 * 1024
DEFAULT_CPU_LIMIT_MS = 10_000
# QuickJS checks its stack limit against the real C stack of the thread that runs
# it; a thread of our own with a large stack keeps that check meaningful whatever
# `ulimit -s` is.
THREAD_STACK = 64 * 1024 * 1024
MAX_STACK_LIMIT = THREAD_STACK // 2
MAX_UINT32 = 2**32 - 1

# The environment. Evaluated once, before any untrusted script; returns the
# dispatcher `host(op, text)` whose results are JSON texts. The bot cannot reach
# it: it lives only in this closure and in a Python reference.
# (Read beside this file, as conformance.resources.javascript would, without importing pathlib and
# importlib.resources at every worker's start.)
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker_bootstrap.js"), encoding="utf-8") as _f:
    BOOTSTRAP = _f.read()

# A parser error from ctx.eval has a single frame "at <input>:LINE:COLUMN"; an error
# thrown by running code has "at <eval> (<input>:LINE:COLUMN)" frames.
_PARSE_FRAME = re.compile(r"    at <input>:(\d+):(\d+)\n?")
# A NUL and the backslashes right before it (see _nul_escaped).
_NUL = re.compile(r"(\\*)\x00")
# A surrogate code point: in a Python str only a lone one (json.loads joins a pair).
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def _error(category: str, message: str, **extra) -> dict:
    return {"category": category, "message": message, **extra}


def _script_lines(script: str) -> int:
    """At least the number of lines QuickJS counts in ``script`` (every line terminator counts)."""
    return 1 + sum(script.count(t) for t in ("\n", "\r", "\u2028", "\u2029"))


def _below(engine: str, script_lines: int) -> str:
    """The engine as loaded: below the script's last line, so that a stack frame's line number says
    which of the two it is in (the binding names both ``<input>``). A hashbang line, legal only at
    the very start, becomes the single-line comment it means."""
    if engine.startswith("#!"):
        engine = "//" + engine[2:]
    return "\n" * script_lines + engine


def _nul_escaped(text: str) -> str:
    """``text`` without NUL characters, meaning the same: the binding hands QuickJS a C string,
    which would end at the first NUL. A NUL is legal JavaScript only inside a comment or a string,
    template or regular expression literal, where ``\\x00`` is the same character (after an odd
    run of backslashes the NUL was itself escaped, and ``x00`` completes that escape). Only a
    template's raw text and a function's source text show the escape instead of the NUL."""
    if "\0" not in text:
        return text
    return _NUL.sub(lambda m: m[1] + ("x00" if len(m[1]) % 2 else "\\x00"), text)


def _run_script(ctx: quickjs.Context, text: str) -> quickjs.JSException | None:
    """Run a classic script; the exception it ended with, or None."""
    try:
        ctx.eval(_nul_escaped(text))
    except quickjs.JSException as exc:  # every JavaScript exception, thrown values included
        return exc
    except (TypeError, UnicodeDecodeError):
        # The script ran to its end; the binding could not convert its completion value (a small
        # BigInt, a long concatenated string, a lone surrogate), which is not used.
        pass
    return None


def _classify_eval_error(exc: quickjs.JSException, source: str, host, script_lines: int) -> dict:
    """The error category of a script that failed to load (the binding gives only a string, in
    which it has already replaced a lone surrogate by U+FFFD)."""
    text = str(exc)
    first, _, rest = text.partition("\n")
    if first == "InternalError: interrupted":
        return _error("timeout", f"the {source} script exceeded the CPU time backstop", source=source)
    if first == "InternalError: out of memory":
        return _error("memory", f"the {source} script ran out of memory", source=source)
    frame = _PARSE_FRAME.fullmatch(rest)
    if first.startswith("SyntaxError: ") and frame:
        line = int(frame[1]) - (script_lines if source == "engine" else 0)
        return _error("syntax", f"{first[len('SyntaxError: '):]} (line {line}, column {frame[2]})", source=source)
    name, sep, message = first.partition(": ")
    if sep and rest.startswith("    at ") and name.isidentifier():
        return _error("throw", bounded(message), source=source, name=bounded(name), at=_locate(host, rest))
    return _error("throw", bounded(first), source=source, name=None)  # a thrown non-Error value


def _locate(host, stack: str) -> dict | None:
    """The first script frame of a stack text, by the dispatcher's reading (None if it cannot say)."""
    try:
        return json.loads(host("locate", stack))
    except Exception:  # noqa: BLE001 - a context that no longer answers
        return None


def _escaped_error(exc: Exception) -> dict:
    """An exception that escaped the dispatcher: only the uncatchable ones are expected."""
    first = str(exc).partition("\n")[0] if isinstance(exc, quickjs.JSException) else repr(exc)
    if first == "InternalError: interrupted":
        return _error("timeout", "the CPU time backstop interrupted the call")
    if first == "InternalError: out of memory":
        return _error("memory", "out of memory")
    return _error("internal", f"the dispatcher failed: {first}")


class _Session:
    """The state of one worker: its Context, and the dispatcher once initialised."""

    def __init__(self) -> None:
        self.ctx: quickjs.Context | None = None
        self.host = None
        self.mode: str | None = None

    def init(self, req: dict) -> dict:
        if self.ctx is not None:
            return {"ok": False, "error": _error("protocol", "init was already done")}
        problem = _check_init(req)
        if problem:
            return {"ok": False, "error": _error("protocol", problem)}
        self.ctx = ctx = quickjs.Context()
        ctx.set_memory_limit(req.get("memoryLimit", DEFAULT_MEMORY_LIMIT))
        ctx.set_max_stack_size(req.get("stackLimit", DEFAULT_STACK_LIMIT))
        ctx.set_time_limit(req.get("cpuLimitMs", DEFAULT_CPU_LIMIT_MS) / 1000)
        script_lines = _script_lines(req["script"]) if req["engine"] is not None else 0
        if req.get("globals") is not None:  # the Web-Worker members (worker_globals.py, R39), before the bootstrap
            exc = _run_script(ctx, req["globals"])
            if exc is not None:
                return {"ok": False, "error": _error("internal", f"the worker's globals failed: {str(exc)[:300]}")}
        try:
            host = ctx.eval(BOOTSTRAP)(req["botSeed"], script_lines or float("inf"), MAX_ANSWER_CHARS,
                                      MAX_TEXT_CHARS, MAX_NAME_CHARS, req["mode"] == "bot", "quickjs")
        except Exception as exc:  # noqa: BLE001 - e.g. a memory limit too small for the bootstrap
            return {"ok": False, "error": _escaped_error(exc)}
        self.host = host
        engine = None if req["engine"] is None else _below(req["engine"], script_lines)
        for source, text in (("engine", engine), ("script", req["script"])):
            if source == "script":
                host("watch", "")  # the worker's globals as they are before the bot runs (R35)
            if text is None:
                continue
            exc = _run_script(ctx, text)
            if exc is not None:
                self.host = None
                return {"ok": False, "error": _classify_eval_error(exc, source, host, script_lines), **_drain(host)}
        response = json.loads(self._dispatch("finish", req["mode"]))
        if response["ok"]:
            self.mode = req["mode"]
        else:
            self.host = None
        return response

    def _dispatch(self, op: str, text: str) -> str:
        try:
            out = self.host(op, text)
        except Exception as exc:  # noqa: BLE001 - interrupted / out of memory escape JS
            return _dumps({"ok": False, "error": _escaped_error(exc), **_drain(self.host)})
        if not isinstance(out, str):
            return _dumps({"ok": False, "error": _error("internal", "the dispatcher returned a non-string")})
        return out

    def handle(self, op: str, req: dict, text: str) -> str:
        """The response text (without cpuMs) to one request."""
        if op == "init":
            return _dumps(self.init(req))
        if self.host is None:
            return _protocol(f"{op} before a successful init")
        if op == "act":
            if self.mode != "bot":
                return _protocol("act needs mode \"bot\"")
            if "state" not in req:
                return _protocol("act.state is missing")
        elif op in ("call", "evalFn"):
            key = "path" if op == "call" else "source"
            if not isinstance(req.get(key), str) or not req[key]:
                return _protocol(f"{op}.{key} must be a non-empty string")
            if not isinstance(req.get("args"), list):
                return _protocol(f"{op}.args must be an array")
        else:
            return _protocol(f"unknown op {op!r}")
        return self._dispatch(op, text)


def _drain(host) -> dict:
    """``{"violations": [...]}`` recorded so far, if the context still answers (after OOM it may not)."""
    try:
        return json.loads(host("drain", ""))
    except Exception:  # noqa: BLE001
        return {}


def _protocol(message: str) -> str:
    return _dumps({"ok": False, "error": _error("protocol", message)})


def _check_init(req: dict) -> str | None:
    """A message naming the first bad field of an init request, or None."""
    if not isinstance(req.get("script"), str):
        return "init.script must be a string"
    if req.get("engine") is not None and not isinstance(req.get("engine"), str):
        return "init.engine must be a string or null"
    if req.get("globals") is not None and not isinstance(req.get("globals"), str):
        return "init.globals must be a string or null"
    for key in ("engine", "script"):
        surrogate = _LONE_SURROGATE.search(req[key] or "")
        if surrogate:
            line = req[key].count("\n", 0, surrogate.start()) + 1
            return (f"init.{key} holds a lone surrogate U+{ord(surrogate[0]):04X} at line {line}: "
                    "a script must be Unicode text")
    seed = req.get("botSeed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_UINT32:
        return f"init.botSeed must be an integer in 0..{MAX_UINT32}, got {seed!r}"
    if req.get("mode") not in ("bot", "engine"):
        return f"init.mode must be \"bot\" or \"engine\", got {req.get('mode')!r}"
    for key, low, high in (("memoryLimit", 1 << 20, 1 << 40), ("stackLimit", 64 * 1024, MAX_STACK_LIMIT),
                           ("cpuLimitMs", 1, 10**9)):
        value = req.get(key, low)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return f"init.{key} must be an integer in {low}..{high}, got {value!r}"
    return None


ACT_PREFIX = b'{"op":"act",'


def serve(stdin, out_fd: int) -> None:
    """Answer requests until EOF or ``stop``."""
    session = _Session()

    def send(text: str) -> None:
        data = text.encode("utf-8") + b"\n"
        while data:
            data = data[os.write(out_fd, data):]

    send('{"ok":true,"ready":true}')
    for raw in stdin:
        if raw.startswith(ACT_PREFIX):
            # The host writes act requests with this exact prefix; QuickJS parses the line itself,
            # so parsing the (large) state here too would only cost time.
            op, req = "act", {"op": "act", "state": None}
        else:
            try:
                req = json.loads(raw)
                op = req["op"]
            except (ValueError, TypeError, KeyError):
                send(_protocol("a request must be a JSON object with an op"))
                continue
        if op == "stop":
            send('{"ok":true}')
            return
        if op == "ping":
            send('{"ok":true}')
            continue
        cpu0 = time.process_time()
        try:
            out = session.handle(op, req, raw.decode("utf-8"))
        except Exception as exc:  # noqa: BLE001 - a bug here must still answer
            out = _dumps({"ok": False, "error": _error("internal", f"{type(exc).__name__}: {exc}")})
        cpu_ms = (time.process_time() - cpu0) * 1000
        # init also says what the process's start-up cost before it (Python, QuickJS): the
        # certification's CPU-time budget counts a worker's whole CPU time (conformance/bots/bounds.py)
        start = f',"startCpuMs":{cpu0 * 1000:.3f}' if op == "init" else ""
        send(f'{out[:-1]},"cpuMs":{cpu_ms:.3f}{start}}}')


def _binding_problem() -> str | None:
    """Why the imported ``quickjs`` module is not quickjs-ng's, or None. The PyPI packages
    ``quickjs`` (a 2021 QuickJS) and ``quickjs-ng`` both install the module ``quickjs``."""
    probe = "typeof Object.hasOwn === 'function' && typeof Array.prototype.findLast === 'function'"
    if quickjs.Context().eval(probe) is True:
        return None
    return ("the quickjs module is the 2021 QuickJS of the PyPI package `quickjs`, not quickjs-ng: "
            "run `pip uninstall quickjs` and `pip install --force-reinstall quickjs-ng`")


def main() -> None:
    problem = _binding_problem()
    if problem:
        sys.exit(f"conformance.host.worker_process: {problem}")
    # fd 1 carries the protocol only: keep a private copy, point fd 1 at stderr.
    out_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    threading.stack_size(THREAD_STACK)
    runner = threading.Thread(target=serve, args=(sys.stdin.buffer, out_fd), name="quickjs")
    runner.start()
    runner.join()


if __name__ == "__main__":
    main()
