"""Writing the files a user asked for, as users expect files to be written.

- ``-`` is standard output (``--json -``).
- A new or regular file (in a directory that exists, as with a shell's ``>``) is written whole or not at all: a temporary file beside it, renamed
  over it. A symlink is followed and the file it names is replaced (the link itself stays);
  a device, FIFO or socket is written through (``--json /dev/stdout`` keeps /dev/stdout).
- Files and directories we create honour the umask (``mkstemp``/``mkdtemp`` make 0600/0700).
"""
from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

STDOUT = Path("-")


def is_stdout(path: Path | None) -> bool:
    return path is not None and str(path) == "-"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def plain_mode(directory: bool = False) -> int:
    """The mode ``open``/``mkdir`` would give a new file or directory under the current umask."""
    return (0o777 if directory else 0o666) & ~_umask()


def write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` as the module doc describes."""
    if is_stdout(path):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    path = Path(path)
    if path.is_symlink():
        path = path.resolve()  # replace what the link names, never the link
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        with open(path, "w", encoding="utf-8", newline="\n") as f:  # a device or FIFO: write through
            f.write(text)
        return
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        # An existing file keeps its mode; a new one gets the umask's (mkstemp made it 0600).
        os.chmod(tmp, stat.S_IMODE(mode) if mode is not None else plain_mode())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def replace_directory(target: Path, fill) -> None:
    """Build a directory with ``fill(staging_dir)`` and put it in ``target``'s place whole: the old
    contents (an older report) never survive, and a failure while filling leaves the old one."""
    if target.is_symlink():
        target = target.resolve()
    target = target.absolute()
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        os.chmod(staging, plain_mode(directory=True))  # mkdtemp made it 0700
        fill(staging)
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
            os.replace(target, old / "previous")
            os.replace(staging, target)
            shutil.rmtree(old)
        else:
            os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def text_stream(*outputs: Path | None):
    """Where a command prints its text: stderr when one of its reports goes to stdout (``-``), so
    that stdout holds the report alone; else stdout."""
    return sys.stderr if any(is_stdout(o) for o in outputs) else sys.stdout
