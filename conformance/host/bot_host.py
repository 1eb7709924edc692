"""Where a bot runs: the V8 host (node, as the arena's browsers run it) or QuickJS (issue #35).

A bot's worker is one OS process per seat on either host, speaking one protocol
(docs/worker-protocol.md): :class:`~conformance.host.node_worker.NodeWorker` in mode ``"bot"`` on
``node``, :class:`~conformance.host.worker.Worker` on ``quickjs``. Both give the bot the same
classic Web Worker global (ruling R39) but Intl, which only V8 has. The default is node wherever
the suite finds one (:mod:`conformance.host.node_runtime`: the pinned node 24, else the system's),
else QuickJS, and whoever chooses says which
(:func:`choose`). What a bot did is recorded with the host that played it (transcripts, match
results, the league store, certification reports).
"""
from __future__ import annotations

from dataclasses import dataclass

from conformance.errors import UsageError

from . import node_runtime
from .node_runtime import node_version
from .node_worker import NodeWorker
from .worker import Worker

HOSTS = ("node", "quickjs")


@dataclass(frozen=True)
class BotHost:
    """A chosen host: its name (``node`` or ``quickjs``), node's path and version on ``node``, and
    how it was chosen (for the report)."""

    name: str
    node: str | None = None
    note: str = ""

    @property
    def label(self) -> str:
        """What a report calls it: "node 24.21.0 (V8)" or "QuickJS"."""
        if self.name == "quickjs":
            return "QuickJS"
        return f"node {'.'.join(map(str, node_version(self.node) or ()))} (V8)"

    def worker(self, **kwargs) -> Worker:
        """A fresh worker of this host (not started); ``kwargs`` are :class:`Worker`'s."""
        return NodeWorker(self.node, **kwargs) if self.name == "node" else Worker(**kwargs)

    def to_json(self) -> dict:
        return {"name": self.name, "label": self.label, **({"note": self.note} if self.note else {})}


def default_name() -> str:
    """The library's default host, the commands' too: ``node`` where the suite finds one, else
    ``quickjs`` (``choose(None).note`` says which and why)."""
    return choose(None).name


def choose(requested: str | None, option: str = "--host") -> BotHost:
    """The host ``requested`` (``node`` or ``quickjs``), or by default node where the suite finds
    one, else QuickJS, the note saying so. ``--host node`` without node is a usage error naming
    ``option``."""
    if requested is not None and requested not in HOSTS:
        raise UsageError(f"{option}: unknown bot host {requested!r} (known: {', '.join(HOSTS)})")
    if requested == "quickjs":
        return BotHost("quickjs", None, f"{option} quickjs")
    node, which = node_runtime.find()
    if node is None:
        if requested == "node":
            raise UsageError(f"{option} node: {which} (use {option} quickjs)")
        return BotHost("quickjs", None, f"the default without node: {which}")
    return BotHost("node", node, f"{option} node: {which}" if requested == "node" else f"the default: {which}")

