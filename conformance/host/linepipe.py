"""Lines to and from a child process, never blocking past a deadline.

The QuickJS worker host and the ``--cmd`` engine driver both speak JSON lines to a child over its
stdin and stdout; a stuck or silent child must not hang us, so every write and every read of a
line is bounded by a deadline (seconds on ``time.perf_counter()``).
"""
from __future__ import annotations

import os
import selectors
import signal
import subprocess
import threading
import time


# Every child a LinePipe talks to, until kill_group reaps it: what kill_all stops.
_CHILDREN: set[subprocess.Popen] = set()


def signal_name(number: int) -> str:
    """SIGKILL for 9; real-time signals (SIGRTMIN+n) have no name in signal.Signals."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the child's process group (it leads its own session) and reap it. Even when the
    child itself has exited: a process it forked may still be running in the group."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:  # nobody is left in the group
        pass
    proc.wait()
    _CHILDREN.discard(proc)


def live_children() -> frozenset[int]:
    """The pids of the children a LinePipe talks to and that are not reaped yet."""
    return frozenset(proc.pid for proc in list(_CHILDREN))


def kill_all() -> None:
    """SIGKILL the group of every child not yet reaped, waiting for nothing: for a process that is
    being stopped by a signal (a handler must not wait on a lock the code it interrupted holds)."""
    for proc in list(_CHILDREN):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass


class Tail:
    """The last ``size`` bytes a child writes to ``pipe`` (its stderr), read by a thread until the
    end of the pipe: the child never blocks on a full pipe, and however much it writes, no more
    than ``size`` bytes are kept."""

    def __init__(self, pipe, size: int) -> None:
        self._pipe, self._size = pipe, size
        self._buf = bytearray()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, name="child-stderr", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        try:
            while chunk := os.read(self._pipe.fileno(), 1 << 16):
                with self._lock:
                    self._buf += chunk
                    del self._buf[:-self._size]
        except OSError:
            pass
        finally:
            self._pipe.close()

    def text(self, wait: float = 0.0) -> str:
        """What is kept, decoded; ``wait`` seconds at most for the rest (of a child that has ended)."""
        self._thread.join(wait)
        with self._lock:
            return self._buf.decode("utf-8", "replace")


class Late(Exception):
    """The deadline passed before the line could be written or a whole line was read."""


class Eof(Exception):
    """The child closed its end of a pipe (it exited or crashed)."""


class TooLong(Exception):
    """A line grew past the reader's limit (``size`` bytes) before its newline came."""

    def __init__(self, size: int) -> None:
        super().__init__(f"a line longer than {size} bytes")
        self.size = size


class LinePipe:
    def __init__(self, proc: subprocess.Popen) -> None:
        _CHILDREN.add(proc)
        self._in_fd = proc.stdin.fileno()
        self._out_fd = proc.stdout.fileno()
        os.set_blocking(self._in_fd, False)  # a child that stops reading must not block our writes
        self._readable = selectors.DefaultSelector()
        self._readable.register(self._out_fd, selectors.EVENT_READ)
        self._writable = selectors.DefaultSelector()
        self._writable.register(self._in_fd, selectors.EVENT_WRITE)
        self._buf = bytearray()

    def write(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._in_fd, view):]
            except BlockingIOError:
                remaining = deadline - time.perf_counter()
                if remaining <= 0 or not self._writable.select(remaining):
                    raise Late from None
            except (BrokenPipeError, ConnectionResetError):
                raise Eof from None

    def read_line(self, deadline: float, limit: int | None = None) -> bytes:
        """The next line, without its newline; TooLong past ``limit`` bytes (a child must not make
        us buffer without end)."""
        buf = self._buf
        searched = 0  # bytes of buf known to hold no newline: each chunk is searched once
        while True:
            end = buf.find(b"\n", searched)
            if end >= 0:
                line = bytes(buf[:end])
                del buf[:end + 1]
                return line
            searched = len(buf)
            if limit is not None and searched > limit:
                raise TooLong(limit)
            remaining = deadline - time.perf_counter()
            if remaining <= 0 or not self._readable.select(remaining):
                raise Late
            chunk = os.read(self._out_fd, 1 << 16)
            if not chunk:
                raise Eof
            buf += chunk

    def close(self) -> None:
        """Release the selectors (the caller closes the pipes and reaps the child)."""
        self._readable.close()
        self._writable.close()
