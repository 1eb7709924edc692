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
import time


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the child's process group (it leads its own session) and reap it."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()


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
