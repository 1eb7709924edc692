"""What a bot worker's start costs (issue #35, speed): V8's code cache of the suite's own scripts
(conformance/host/node_code_cache.py), processes started ahead of need (conformance/host/spares.py),
and the command line importing only the command it runs. None of them may change what a worker does."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.harness.runner import bundled_engine
from conformance.host import node_code_cache, spares
from conformance.host.node_worker import NodeWorker, find_node
from conformance.host.worker import Worker

ROOT = Path(__file__).resolve().parent.parent
NODE = find_node()
needs_node = pytest.mark.skipif(NODE is None, reason="node 20 or later is not installed")
BOT = ("var seen = 0; module.exports = {name: 'Probe', act: function (s) { seen += 1; "
       "return {type: 'raise', amount: seen + Math.floor(Math.random() * 1000) + structuredClone([s.pot])[0]}; }};")
STATE = {"pot": 30}


def _answers(worker: Worker, n: int = 3) -> list:
    with worker:
        assert worker.start(bundled_engine(), BOT, 7).ok
        return [worker.act(STATE).answer for _ in range(n)]


@needs_node
def test_the_code_cache_is_made_once_from_the_suite_s_scripts_and_changes_no_answer(tmp_path, monkeypatch):
    monkeypatch.setenv("HOLDEM_CACHE", str(tmp_path))
    monkeypatch.setattr(node_code_cache, "_memory", {})
    made = []
    real = NodeWorker._make_code_cache
    monkeypatch.setattr(NodeWorker, "_make_code_cache", lambda self, engine: made.append(1) or real(self, engine))
    with_cache = [_answers(NodeWorker(NODE)) for _ in range(2)]
    assert made == [1]  # the second worker took it from memory
    [file] = (tmp_path / "v8-code-cache").iterdir()
    monkeypatch.setattr(node_code_cache, "_memory", {})
    assert _answers(NodeWorker(NODE)) == with_cache[0] == with_cache[1] and made == [1]  # ... the third from the file
    cache = node_code_cache._read(file)
    assert set(cache) == {"globals", "bootstrap", "engine"}  # the suite's scripts only, never the bot's
    # Without a cache, and with a damaged one (V8 compiles afresh), the answers are the same.
    monkeypatch.setattr(node_code_cache, "code_cache", lambda *a: None)
    assert _answers(NodeWorker(NODE)) == with_cache[0]
    monkeypatch.setattr(node_code_cache, "code_cache", lambda *a: {k: "AAAA" + v[40:] for k, v in cache.items()})
    assert _answers(NodeWorker(NODE)) == with_cache[0]


@needs_node
def test_the_code_cache_maker_loads_no_bot():
    cache = NodeWorker(NODE)._make_code_cache(bundled_engine())
    assert cache is not None and set(cache) == {"globals", "bootstrap", "engine"}


@pytest.mark.parametrize("kind", [pytest.param("node", marks=needs_node), "quickjs"])
def test_a_worker_takes_a_spare_process_and_answers_as_a_fresh_one(kind):
    def make() -> Worker:
        return NodeWorker(NODE) if kind == "node" else Worker()

    fresh = _answers(make())
    started = []

    def start():
        key, spare = make().spare()
        started.append(spare.proc.pid)
        return key, spare

    with spares.keep(start, ahead=1, most=2):
        deadline = time.monotonic() + 30
        while not spares._ready and time.monotonic() < deadline:  # the keeper has started one
            time.sleep(0.01)
        worker = make()
        answers = _answers(worker)
        assert worker.pid == started[0] and answers == fresh
    # At most `most` were started, and the one no worker took is gone with the block.
    assert len(started) <= 2
    for pid in started[1:]:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert not spares._ready


def test_the_bot_command_imports_none_of_the_engine_judges_libraries():
    # holdem-cert builds the parser of the command it runs only: deepdiff (the engine judge's diffs,
    # a third of the start-up) is not imported by `holdem-cert bot`, and is by the whole parser.
    code = ("import sys; from conformance.cli.main import build_parser; build_parser({!r}); "
            "print('deepdiff' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for command, imported in (("bot", "False"), (None, "True")):
        out = subprocess.run([sys.executable, "-c", code.format(command)], cwd=ROOT, env=env,
                             capture_output=True, text=True, check=True).stdout.strip()
        assert out == imported, command
