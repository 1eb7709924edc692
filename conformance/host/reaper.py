"""Nothing a ``--cmd`` engine starts outlives the run.

A grandchild that calls ``setsid`` leaves the engine's process group, so killing the group misses
it, and when its parent dies it is re-parented -- to init, out of our reach, unless the certifier
is a *child subreaper* (Linux ``prctl(PR_SET_CHILD_SUBREAPER)``): then it becomes our child. At the
end of a run every such orphan (a child of ours that no LinePipe started), and everything below
it, is killed and reaped.
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants; False where Linux's prctl is missing."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _children() -> dict[int, list[int]]:
    """Parent pid -> child pids, from /proc (empty where there is no /proc)."""
    tree: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return tree
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rindex(b")") + 2:].split()  # after "pid (comm) ": state, ppid, ...
        tree.setdefault(int(fields[1]), []).append(int(name))
    return tree


def _multiprocessing_helpers() -> set[int]:
    """multiprocessing's long-lived children (its fork server, which a league's or a match's tasks
    are forked from, and its resource tracker): started by us, not orphans. Python does not expose
    their pids; read where it keeps them, nothing when it keeps them elsewhere."""
    import multiprocessing.forkserver
    import multiprocessing.resource_tracker

    pids = (getattr(getattr(multiprocessing.forkserver, "_forkserver", None), "_forkserver_pid", None),
            getattr(getattr(multiprocessing.resource_tracker, "_resource_tracker", None), "_pid", None))
    return {pid for pid in pids if isinstance(pid, int)}


def kill_orphans(keep: "set[int] | frozenset[int]") -> list[int]:
    """SIGKILL every child of ours not in ``keep`` (the children we started and still talk to),
    with all its descendants, and reap those that are ours. The pids killed, in tree order."""
    tree = _children()
    keep = set(keep) | _multiprocessing_helpers()
    doomed = [pid for pid in tree.get(os.getpid(), []) if pid not in keep]
    for pid in doomed:  # the list grows as the walk goes down the tree
        doomed.extend(tree.get(pid, []))
    for pid in doomed:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for pid in doomed:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:  # not (yet) ours: init or its own parent reaps it
            pass
    return doomed
