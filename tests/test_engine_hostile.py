"""Hostile engines: whatever an engine returns, prints or does, ``holdem-cert engine`` gives a
verdict in bounded time and writes its reports whole; it never crashes (issue #4)."""
from __future__ import annotations

import copy
import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.cli.main import main
from conformance.judge import causes, engine_cert, engine_drivers, following
from conformance.host.worker import JSValue
from conformance.judge.engine_cert import certify, load_tests
from conformance.judge.engine_drivers import QuickJSDriver, Run
from conformance.vectors import library as vectors
from cli_helpers import vectors_run

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "reference" / "js" / "poker-engine.js"
FAST = ["--timeout-ms", "2000"]


@pytest.fixture
def cli(capsys, monkeypatch):
    """cli(*ARGS) runs ``holdem-cert engine ARGS``: (exit code, stdout + stderr), no traceback."""
    monkeypatch.chdir(ROOT)

    def run(*args: str) -> tuple[int, str]:
        code = main(["engine", *map(str, args)])
        out = capsys.readouterr()
        assert "Traceback" not in out.out + out.err
        return code, out.out + out.err

    return run


def js_engine(tmp_path: Path, patch: str) -> Path:
    """The reference engine with ``patch`` appended (it may replace PokerEngine's functions)."""
    path = tmp_path / "engine.js"
    path.write_text(ENGINE.read_text(encoding="utf-8") + "\n;\nconst P0 = PokerEngine;\n" + patch, encoding="utf-8")
    return path


# A --cmd engine: the reference adapter, except that for rng.one it answers what ANSWER gives.
CMD = """
import json, sys
from reference import adapter
for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "stop":
        break
    reply = adapter.answer(request)
    if request.get("vector", {}).get("test", {}).get("id") == "rng.one":
        {answer}
    print(json.dumps(reply), flush=True)
"""


def cmd_engine(tmp_path: Path, answer: str) -> str:
    path = tmp_path / "engine.py"
    path.write_text(textwrap.dedent(CMD).replace("{answer}", answer), encoding="utf-8")
    return f"{sys.executable} {path}"


def report_of(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


# ---- 1. deeply nested or unknown results ------------------------------------------------------------

DEEP_JS = "function deep(n) { const top = []; let x = top; for (let i = 0; i < n; i++) { const y = []; x.push(y); x = y; } return top; }\n"


@pytest.mark.parametrize("depth", [500, 3000])
def test_a_js_engine_returning_deeply_nested_data_fails_the_vector(tmp_path, cli, depth):
    engine = js_engine(tmp_path, DEEP_JS + f"globalThis.PokerEngine = Object.assign({{}}, P0, "
                                           f"{{rng: seed => () => deep({depth})}});")
    code, text = cli(engine, "--family", "rng", "--json", tmp_path / "r.json", *FAST)
    report = report_of(tmp_path / "r.json")
    assert code == 1 and report["families"]["rng"]["passed"] == 0
    assert "values[0] changed from float to list" in report["failures"][0]["diff"]
    driver = QuickJSDriver(engine.read_text(encoding="utf-8"), engine_name="deep", timeout_ms=2000)
    driver.start()
    try:
        value = driver.run("rng", {"input": {"seed": 1, "count": 1}}).value["values"][0]
    finally:
        driver.close()
    for _ in range(32):
        value = value[0]
    assert value == [JSValue("truncated", "nested deeper than 32 levels")]


@pytest.mark.parametrize("answer, message", [
    ("reply['result'] = {'values': [json.loads('[' * 900 + ']' * 900)]}", "malformed result: nested deeper than 64 levels"),
    ("reply['result'] = {'values': [{'$js': 'bogus'}]}", "malformed result: unknown $js tag 'bogus'"),
    ("reply['result'] = {'values': [{'$js': ['NaN']}]}", "malformed result: unknown $js tag ['NaN']"),
    ("reply['result'] = {'values': [{'$js': '9' * 101 + 'n'}]}", "malformed result: unknown $js tag '999"),
    # Python's json.dumps writes a bare NaN token, which JSON does not have (strict parse).
    ("reply['result'] = {'values': [float('nan')]}", "malformed answer: not JSON (NaN is not JSON)"),
    ("reply['result'] = {'values': [float('-inf')]}", "malformed answer: not JSON (-Infinity is not JSON)"),
], ids=["nested-900", "unknown-tag", "unhashable-tag", "bigint-past-the-digit-bound", "bare-nan", "bare-infinity"])
def test_a_cmd_engine_returning_undecodable_results_fails_the_vector(tmp_path, cli, answer, message):
    code, text = cli("--cmd", cmd_engine(tmp_path, answer), "--family", "rng", "--json", tmp_path / "r.json", *FAST)
    report = report_of(tmp_path / "r.json")
    assert code == 1 and [f["id"] for f in report["failures"]] == ["rng.one"]
    assert message in report["failures"][0]["message"]
    assert report["families"]["rng"]["passed"] == vectors_run("rng") - 1


class _FakeDriver:
    """A driver with no engine behind it: the tests below say what run gives."""

    def start(self) -> dict:
        return {"name": "x", "version": None, "language": None, "missing": []}


class _Exploding(_FakeDriver):
    """A driver with a bug: run raises on one vector."""

    def __init__(self) -> None:
        self.closed = 0

    def run(self, family: str, test: dict) -> Run:
        if test["id"] == "rng.one":
            raise RecursionError("maximum recursion depth exceeded")
        return Run("errored", "not implemented")

    def close(self) -> None:
        self.closed += 1


def test_an_exception_escaping_the_driver_fails_only_that_vector():
    driver = _Exploding()
    deck = [r + s for s in "cdhs" for r in "23456789TJQKA"]
    driver.run = lambda family, test, run=driver.run: (Run("result", {"deck": deck}) if family == "deck"
                                                       else run(family, test))
    report = certify(driver, load_tests(["rng"]), {})
    case = next(c for c in report.cases if c.id == "rng.one")
    assert case.status == "failed" and "RecursionError: maximum recursion depth exceeded" in case.message
    assert len(report.cases) == len(load_tests(["rng"])["rng"]) and driver.closed >= 2  # restarted, closed at the end


def test_a_cmd_engine_killed_by_a_real_time_signal_is_reported_by_number(tmp_path, cli):
    """Signals such as SIGRTMIN+6 have no name in signal.Signals: still a verdict, not a crash."""
    code, text = cli("--cmd", cmd_engine(tmp_path, "import os; os.kill(os.getpid(), 40)"), "--family", "rng",
                     "--no-fresh", "--json", tmp_path / "r.json", *FAST)
    report = report_of(tmp_path / "r.json")
    assert code == 1 and [f["id"] for f in report["failures"]] == ["rng.one"]
    assert "the engine process died: killed by signal 40" in report["failures"][0]["message"]


def test_a_huge_string_in_an_outcome_is_diffed_quickly_without_deepdiff(monkeypatch):
    from conformance.judge import diffs

    calls = []
    real = diffs.DeepDiff
    monkeypatch.setattr(diffs, "DeepDiff", lambda *a, **k: calls.append(1) or real(*a, **k))
    diff = diffs.readable_diff({"name": "Full house", "rank": 6}, {"name": "a\n" * 2_700_000, "rank": 6})
    assert calls == [] and diff.count("\n") == 1 and "Value of name changed from 'Full house'" in diff


# ---- 2. text that is not valid UTF-16 ----------------------------------------------------------------

def test_a_lone_surrogate_in_an_engine_s_message_is_printed_and_written_escaped(tmp_path, cli):
    engine = js_engine(tmp_path, "globalThis.PokerEngine = Object.assign({}, P0, {version: 'v\\uDFFF', "
                                 "rng: seed => { throw new Error('bad \\uD800'); }});")
    code, text = cli(engine, "--family", "rng", "--json", tmp_path / "r.json", "--junit", tmp_path / "r.xml", *FAST)
    assert code == 1 and "threw Error: bad \\ud800" in text and "v\\udfff" in text
    report = report_of(tmp_path / "r.json")
    assert report["failures"][0]["message"].endswith("threw Error: bad \ud800")  # the JSON escape \ud800
    assert report["engine"]["version"] == "v\udfff"
    junit = (tmp_path / "r.xml").read_text(encoding="utf-8")
    assert "threw Error: bad \\ud800" in junit
    assert ET.fromstring(junit).get("failures") == str(vectors_run("rng"))


# ---- 5. out of memory or stack is not a rejection ----------------------------------------------------

@pytest.mark.parametrize("exhaust, message", [
    ("const L = []; while (true) L.push(new Array(1e6).fill(1));", "the engine ran out of memory"),
    ("const f = n => f(n + 1) + 1; f(0);", "RangeError: Maximum call stack size exceeded"),
], ids=["memory", "stack"])
def test_an_engine_exhausting_memory_or_stack_fails_even_where_it_must_throw(tmp_path, cli, exhaust, message):
    """An invalid hand number makes dealHand exhaust memory or stack: that is no rejection."""
    engine = js_engine(tmp_path, "globalThis.PokerEngine = Object.assign({}, P0, {dealHand: (seed, hand) => {\n"
                                 f"  if (!(Number.isSafeInteger(hand) && hand > 0)) {{ {exhaust} }}\n"
                                 "  return P0.dealHand(seed, hand);\n}});")
    code, text = cli(engine, "--family", "deck", "--json", tmp_path / "r.json", *FAST)
    report = report_of(tmp_path / "r.json")
    assert code == 1 and report["families"]["deck"]["passed"] == 80, text
    assert report["failures"][0]["id"] == "deck.bad-hand-number.zero" and message in report["failures"][0]["message"]


# A game whose engine misstates a call's record, then exhausts memory at its next act: node aborts at
# V8's heap limit, taking the game with it; the vector is run again under QuickJS, whose out of memory
# is an exception inside act, so the record's difference is judged and the death is its consequence
# (issue #38: one cause, not "the engine ran out of memory" without a trajectory).
MISSTATED_THEN_EXHAUSTED = """globalThis.PokerEngine = Object.assign({}, P0, { create: (seats, options) => {
  const g = P0.create(seats, options);
  let misstated = false;
  if (!(options && options.decks)) return g;  // the smoke tier's seeded games play true
  const w = {};
  for (const k of Object.getOwnPropertyNames(g)) if (k !== 'act') Object.defineProperty(w, k, { get: () => g[k] });
  Object.defineProperty(w, 'act', { value: (a) => {
    if (misstated) { const L = []; while (true) L.push(new Array(1e6).fill(1)); }
    const r = g.act(a);
    if (a === 'call' && r && r.amount > 0) { misstated = true; return Object.assign({}, r, { amount: r.amount + 1 }); }
    return r;
  } });
  return w;
} });"""


# The same engine's lone hands (createHand; the smoke tier's six-card deck plays true).
MISSTATED_THEN_EXHAUSTED_HAND = MISSTATED_THEN_EXHAUSTED.replace(
    "create: (seats, options) => {\n  const g = P0.create(seats, options);",
    "createHand: (spec) => {\n  const g = P0.createHand(spec), options = { decks: spec.deck.length > 6 };")


@pytest.mark.parametrize("host", ["quickjs", pytest.param("node", marks=pytest.mark.skipif(
    not engine_drivers.find_node(), reason="node's out of memory: needs the node host"))])
@pytest.mark.parametrize("family, vector, patch", [("hands", "hands.run-out-after-all-in", MISSTATED_THEN_EXHAUSTED),
                                                  ("hand", "hand.run-out-after-all-in.h1", MISSTATED_THEN_EXHAUSTED_HAND)],
                         ids=["game", "lone-hand"])
def test_a_game_that_exhausts_memory_after_a_difference_is_judged_up_to_that_call(tmp_path, host, family, vector, patch):
    assert patch.count("createHand") == (family == "hand") * 2
    engine = js_engine(tmp_path, patch)
    tests = {family: [t for t in load_tests([family])[family] if t["id"] == vector]}
    report = certify(QuickJSDriver(engine.read_text(), engine_name="engine.js", host=host), tests, {})
    [case] = report.with_status("failed")
    assert [c.breaks for c in causes.group([case])] == ["state.actions"], case.message
    assert any("out of memory: after the game's first difference, counted under it" in n for n in case.notes), case.notes
    assert any("judged on a run under QuickJS" in n for n in case.notes) == (host == "node"), case.notes


def test_a_game_that_exhausts_memory_with_no_difference_before_fails_at_that_call(tmp_path):
    """No difference before it: the call is the failure, located (its decision), one cause."""
    engine = js_engine(tmp_path, MISSTATED_THEN_EXHAUSTED.replace("amount: r.amount + 1", "amount: r.amount"))
    tests = {"hands": [t for t in load_tests(["hands"])["hands"] if t["id"] == "hands.run-out-after-all-in"]}
    report = certify(QuickJSDriver(engine.read_text(), engine_name="engine.js", host="quickjs"), tests, {})
    [case] = report.with_status("failed")
    [cause] = causes.group([case])
    assert (cause.breaks, cause.kind) == ("determinism.engine", following.EXHAUSTED), cause.title()
    assert case.first["decision"] == 1 and "out of memory" in case.message, case.message


# ---- 3. the size of an answer and the cost of judging it ---------------------------------------------

def test_an_oversized_answer_fails_the_vector(tmp_path, cli):
    engine = js_engine(tmp_path, "globalThis.PokerEngine = Object.assign({}, P0, {rng: seed => seed === 1 ? "
                                 "() => 'y'.repeat(9 << 20) : P0.rng(seed)});")
    code, text = cli(engine, "--family", "rng", "--json", tmp_path / "r.json", *FAST)
    failures = report_of(tmp_path / "r.json")["failures"]
    assert code == 1 and [f["id"] for f in failures] == ["rng.one"]
    assert failures[0]["message"].startswith("answer too large: ") and "limit 8388608" in failures[0]["message"]


def test_an_endless_line_from_a_cmd_engine_fails_the_vector(tmp_path, cli):
    answer = "sys.stdout.write('x' * (9 << 20)); sys.stdout.flush(); import time; time.sleep(30)"
    code, text = cli("--cmd", cmd_engine(tmp_path, answer), "--family", "rng", "--json", tmp_path / "r.json", *FAST)
    report = report_of(tmp_path / "r.json")
    assert code == 1 and [f["id"] for f in report["failures"]] == ["rng.one"]
    assert "answer too large: more than 8388608 bytes of JSON" in report["failures"][0]["message"]
    assert report["families"]["rng"]["passed"] == vectors_run("rng") - 1


def test_judging_a_huge_or_much_changed_outcome_is_fast():
    from conformance.vectors import library as vectors
    from conformance.judge.family_judges import judge
    from conformance.judge.comparison import LATER_SHOWN
    deck_test = vectors.load("deck")["tests"][0]
    padded = deck_test["expected"]["deck"] + [f"x{i}" for i in range(1_000_000)]
    t0 = time.perf_counter()
    j = judge("deck", deck_test, Run("result", {"deck": padded, "again": padded}))
    assert j.status == "failed" and "deck has 1000052 items, expected 52" in j.diff
    test = next(t for t in vectors.load("sng3v4")["tests"] if t["id"] == "sng3v4.recovery-unavailable-without-chips")
    shifted = copy.deepcopy(test["expected"])
    del shifted["log"][5]  # every later hand differs
    j = judge("sng3v4", test, Run("result", shifted))
    # A dropped hand fails at its first divergence; the rest is counted under their causes, a few
    # listed (step_judge.describe). (Each later record's chips count once: chips moved between seats
    # are one difference of the list, field_clauses.CHIPS_MOVED; some 1,000 differences in all.)
    from conformance.judge.step_judge import INDEPENDENT_SHOWN
    counted = j.later + sum(1 + d.counted for d in j.failures[1:])
    assert j.status == "failed" and j.first.path == "log()[5].handNumber" and counted > 900
    assert f"… and {j.later - LATER_SHOWN} more" in j.diff
    assert len(j.diff.splitlines()) <= LATER_SHOWN + INDEPENDENT_SHOWN + 6
    assert time.perf_counter() - t0 < 20  # a liveness bound: unbounded, this took minutes


def test_diffs_come_from_deepdiff_and_from_the_bounded_walk_when_deepdiff_cannot(monkeypatch):
    """Issue #4 asks for a readable deepdiff diff: DeepDiff writes it for an outcome of the expected's
    order of size; a far larger outcome, or a value DeepDiff fails on, gets the bounded walk."""
    from conformance.judge import diffs

    calls = []
    real = diffs.DeepDiff

    def spy(*args, **kwargs):
        calls.append(kwargs.get("max_diffs"))
        return real(*args, **kwargs)

    monkeypatch.setattr(diffs, "DeepDiff", spy)
    diff = diffs.readable_diff({"values": [0.25, 0.5]}, {"values": [0.25, 0.75]})
    assert calls == [25 * diffs.DIFF_LINES]
    assert "Value of values[1] changed from 0.5 to 0.75." in diff  # DeepDiff's wording, our paths
    diffs.readable_diff({"deck": ["Ah"]}, {"deck": ["Ah"] * 10_000})
    assert len(calls) == 1  # 10,000 values against 2: not given to DeepDiff

    def broken(*args, **kwargs):
        raise ValueError("no")

    monkeypatch.setattr(diffs, "DeepDiff", broken)
    assert "Value of values[1] changed from 0.5 to 0.75" in diffs.readable_diff(
        {"values": [0.25, 0.5]}, {"values": [0.25, 0.75]})


# ---- 4. an engine that hangs now and then is abandoned too -------------------------------------------

def test_a_cmd_engine_hanging_on_every_other_vector_is_abandoned(tmp_path, cli, monkeypatch):
    # every other rng vector hangs, whenever it is asked (so a retry with a larger limit hangs too)
    hanging = [t["id"] for t in vectors.load("rng")["tests"]][1::2]
    monkeypatch.setattr(engine_cert, "RETRY_SCALE", 4)  # the one retry (the first hang) waits 1.2 s
    path = tmp_path / "engine.py"
    path.write_text(textwrap.dedent(CMD).replace("{answer}", "pass").replace(
        "    reply = adapter.answer(request)\n",
        "    reply = adapter.answer(request)\n"
        f"    if request['cmd'] == 'run' and request['vector']['test']['id'] in {hanging!r}:\n"
        "        import time; time.sleep(30)\n"), encoding="utf-8")
    t0 = time.monotonic()
    code, text = cli("--cmd", f"{sys.executable} {path}", "--family", "rng", "--json", tmp_path / "r.json",
                     "--timeout-ms", "300")
    report = report_of(tmp_path / "r.json")
    assert code == 1 and report["families"]["rng"]["failed"] == 5 and time.monotonic() - t0 < 20
    assert report["skipped"][0]["reason"] == "not run: the engine hung or died on 5 rng vectors"


class _Alternating(_FakeDriver):
    """A driver whose engine dies on every other vector."""

    def __init__(self) -> None:
        self.calls = 0

    def run(self, family: str, test: dict) -> Run:
        self.calls += 1
        if family == "deck" and test["id"].startswith("smoke."):
            return Run("result", {"deck": [r + s for s in "cdhs" for r in "23456789TJQKA"]})
        return Run("errored", "the engine process died", fatal=True) if self.calls % 2 else Run("errored", "no")

    def close(self) -> None:
        pass


def test_a_run_gives_up_after_ten_fatal_errors_in_all():
    report = certify(_Alternating(), load_tests(["rng", "deck", "evaluate", "equity"]), {})
    fatal = [c for c in report.cases if c.message == "the engine process died"]
    assert len(fatal) == 10 and {c.group for c in fatal} == {"rng", "deck"}
    later = [c for c in report.cases if c.group in ("evaluate", "equity")]
    assert {(c.status, c.message) for c in later} == {
        ("skipped", "not run: the engine hung or died on 10 vectors of this run")}
    assert "required family evaluate was skipped entirely (not run: the engine hung" in report.verdict


# ---- 6. no process outlives the certifier -------------------------------------------------------------

def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its new parent to reap it has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_until(condition, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_kill_group_kills_what_an_exited_child_forked():
    from conformance.host.linepipe import kill_group
    code = ("import os, sys, time\npid = os.fork()\nif pid == 0:\n    time.sleep(60)\n"
            "print(pid, flush=True)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, start_new_session=True, text=True)
    grandchild = int(proc.stdout.readline())
    proc.stdout.close()
    proc.wait()  # the child is gone; what it forked lives on in its group
    assert _alive(grandchild)
    kill_group(proc)
    assert _wait_until(lambda: not _alive(grandchild), 5)


def test_a_grandchild_that_calls_setsid_does_not_outlive_the_run(tmp_path, cli):
    """It leaves the engine's process group, so the group kill misses it; the certifier is a child
    subreaper (conformance/host/reaper.py), so it becomes ours when the engine dies, and is killed."""
    pid_file = tmp_path / "grandchild.pid"
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text(f"import os, time\nos.setsid()\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
                       "time.sleep(60)\n", encoding="utf-8")
    spawn = (f"import os, subprocess, time; subprocess.Popen([sys.executable, {str(sleeper)!r}])\n"
             f"        while not os.path.exists({str(pid_file)!r}) or not open({str(pid_file)!r}).read(): "
             f"time.sleep(0.01)")
    code, text = cli("--cmd", cmd_engine(tmp_path, spawn), "--family", "rng", "--no-fresh", *FAST)
    assert code == 0, text
    grandchild = int(pid_file.read_text())
    assert _wait_until(lambda: not _alive(grandchild), 5)


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _engine_workers(pid: int) -> list[int]:
    """The certifier's children that run the engine: node_engine.js (V8 host) or the QuickJS worker."""
    found = []
    for p in _children(pid):
        try:
            cmdline = Path(f"/proc/{p}/cmdline").read_bytes()
        except OSError:
            continue
        if b"node_engine.js" in cmdline or b"conformance.host.worker_process" in cmdline:
            found.append(p)
    return found


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_terminated_certifier_stops_its_engine_workers(tmp_path, signum):
    engine = js_engine(tmp_path, "globalThis.PokerEngine = Object.assign({}, P0, {rng: seed => { while (true) {} }});")
    proc = subprocess.Popen([sys.executable, "-m", "conformance", "engine", str(engine), "--family", "rng",
                             "--timeout-ms", "60000", "--json", str(tmp_path / "r.json")], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # the engine's worker, not a short-lived probe (node --version) that may come first
        assert _wait_until(lambda: _engine_workers(proc.pid), 20)
        worker = _engine_workers(proc.pid)[0]
        time.sleep(1)  # into the hanging rng vector
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=10)
    finally:
        proc.kill()
    assert proc.returncode == 128 + signum and "Traceback" not in err
    assert f"holdem-cert: stopped by {signal.Signals(signum).name}" in err
    assert _wait_until(lambda: not _alive(worker), 5)
    assert not (tmp_path / "r.json").exists()  # no report rather than a partial one


# ---- 7. what an engine writes on stderr is not stored without limit -----------------------------------

def _largest_open_file() -> int:
    sizes = [0]
    for fd in Path("/proc/self/fd").iterdir():
        try:
            st = os.stat(fd)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            sizes.append(st.st_size)
    return max(sizes)


def test_a_stderr_flood_keeps_only_its_tail(tmp_path):
    from conformance.judge.engine_drivers import STDERR_TAIL, CommandDriver
    from conformance.vectors import library as vectors
    answer = ("sys.stderr.write('E' * (50 << 20) + 'the end'); sys.stderr.flush()\n"
              "        if request['seq'] == 2: sys.exit(3)")
    driver = CommandDriver(cmd_engine(tmp_path, answer), timeout_ms=5000)
    driver.start()
    try:
        test = next(t for t in vectors.load("rng")["tests"] if t["id"] == "rng.one")
        assert driver.run("rng", test).kind == "result"  # 50 MB on stderr, then the answer
        assert _largest_open_file() < (1 << 20)
        died = driver.run("rng", test)  # again, and then it exits
        assert died.fatal and died.value.endswith("EEEEthe end") and len(died.value) < STDERR_TAIL + 200
    finally:
        driver.close()


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        kids = _children(todo.pop())
        out += kids
        todo += kids
    return out


def _workers(pid: int) -> list[int]:
    found = []
    for p in _descendants(pid):
        try:
            command = Path(f"/proc/{p}/cmdline").read_bytes()  # a bot's worker on either host (issue #35)
            if b"conformance.host.worker_process" in command or b"node_engine.js" in command:
                found.append(p)
        except OSError:
            pass
    return found


def test_a_terminated_match_stops_the_bot_workers_of_its_pool_processes(tmp_path):
    """Bots' workers run in --jobs pool processes (the same host): they are stopped as well."""
    from cli_helpers import make_roster
    roster = make_roster(tmp_path, {"stuck-a": "module.exports = function stuck(state) { while (true) {} };",
                                    "stuck-b": "module.exports = function stuck(state) { while (true) {} };"})
    proc = subprocess.Popen([sys.executable, "-m", "conformance", "match", "--roster", str(roster),
                             "--bots", "stuck-a,stuck-b", "--tournaments", "2", "--jobs", "2", "--hands", "1",
                             "--decision-ms", "60000"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert _wait_until(lambda: len(_workers(proc.pid)) >= 4, 30)
        workers = _workers(proc.pid)
        time.sleep(1)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 143 and "holdem-cert: stopped by SIGTERM" in err, err
    assert _wait_until(lambda: not any(map(_alive, workers)), 5)
