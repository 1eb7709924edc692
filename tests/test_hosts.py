"""The two hosts of a JavaScript engine (docs/engine-api.md, Hosts; issue #25): node (V8) and QuickJS
give byte-identical reports on golden vectors of every family, a fuzz game and mutant engines;
under node the engine reaches no file, process or network API, and running out of memory is
reported as such.

Whole reports are compared on a representative subset: a sample of each family's golden vectors
(not the five-card digest, 8 s in QuickJS alone), one fuzz game, and two single-rule mutants on
the whole family each breaks. Every golden vector is compared where a report comes from: the
engine's answer to it, which is all the judge sees of the host (21 s, 17 of them in QuickJS).
"""
from __future__ import annotations

import json

import pytest

from conformance.host.node_worker import NodeWorker, find_node, permission_flag
from conformance.judge import fuzz
from conformance.judge.engine_cert import certify, load_tests
from conformance.judge.engine_drivers import QuickJSDriver, is_digest
from conformance.judge.families import FAMILIES
from conformance.report.formats import to_json
from conformance.report.repro import attach as attach_repro
from cli_helpers import run_cli
from signal_helpers import segfault_soon, slow_kill
from js_vector_runner import ENGINE_PATH
from mutants.mutants import MUTANTS

NODE = find_node()
pytestmark = pytest.mark.skipif(NODE is None, reason="node 20 or later is not installed")

SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
PER_FAMILY = 4  # golden vectors sampled per family, spread over its file
FUZZ_SEED = 11
MUTANTS_COMPARED = ("no-burn-card", "pots-not-merged")
# The report's only host-specific fields, as (section, key): they are removed before comparing, and
# each must be present (so that this list names exactly what differs). A JSON report has no timings.
HOST_FIELDS = (("engine", "host"),)


def sample(tests: list[dict]) -> list[dict]:
    tests = [t for t in tests if not is_digest(t)]
    step = max(1, len(tests) // PER_FAMILY)
    return tests[::step][:PER_FAMILY]


def report_text(host: str, source: str, tests: dict, plan=None) -> tuple[str, dict]:
    """The JSON report of ``source`` on ``host`` without HOST_FIELDS, and the whole report."""
    subject = {"driver": "quickjs", "host": host, "source": str(ENGINE_PATH), "adapter": None, "preludes": []}
    report = certify(QuickJSDriver(source, engine_name="poker-engine.js", host=host), tests, subject, fuzz_plan=plan)
    attach_repro(report, subject, tests)
    data = to_json(report)
    whole = json.loads(json.dumps(data))
    for section, key in HOST_FIELDS:
        assert key in data[section], f"{section}.{key} is listed as host-specific but absent"
        del data[section][key]
    return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True), whole


def both(source: str, tests: dict, plan=None) -> dict:
    node, whole = report_text("node", source, tests, plan)
    quickjs, other = report_text("quickjs", source, tests, plan)
    assert (whole["engine"]["host"], other["engine"]["host"]) == ("node", "quickjs")
    assert node == quickjs
    return whole


def test_the_hosts_agree_on_a_sample_of_every_family_and_a_fuzz_game():
    tests = {f: sample(ts) for f, ts in load_tests(FAMILIES).items()}
    assert all(tests.values()) and set(tests) == set(FAMILIES)
    report = both(SOURCE, tests, fuzz.FuzzPlan(FUZZ_SEED, 0.0, 1))
    assert report["certified"], report["verdict"]
    assert report["engine"]["fuzz"]["games"] == 1 and report["families"]["fuzz"]["passed"] == 1


def test_the_hosts_give_the_same_answer_to_every_golden_vector():
    tests = load_tests(FAMILIES)
    answers = {}
    for host in ("node", "quickjs"):
        driver = QuickJSDriver(SOURCE, engine_name="poker-engine.js", host=host)
        driver.start()
        answers[host] = [(family, test["id"], vars(driver.run(family, test)))
                         for family, family_tests in tests.items() for test in family_tests]
        driver.close()
    assert len(answers["node"]) == sum(map(len, tests.values())) > 800
    assert all(run["kind"] == "result" for _, _, run in answers["node"])
    assert answers["node"] == answers["quickjs"]


@pytest.mark.parametrize("name", MUTANTS_COMPARED)
def test_the_hosts_agree_on_a_mutant_engine(name):
    mutant = next(m for m in MUTANTS if m["name"] == name)
    family = mutant["family_expected_to_fail"]
    report = both(SOURCE.replace(mutant["find"], mutant["replace"]), load_tests([family]))
    assert report["families"][family]["failed"] > 0 and report["failures"][0]["message"], name


# ---- what an engine reaches under node -------------------------------------------------------------

ENGINE = "var PokerEngine = {version: '1', rng: function () { return function () { return 0.5; }; }};\n"


@pytest.mark.parametrize("attempt, missing", [
    ("require('fs').readFileSync('/etc/passwd', 'utf8')", "require is not defined"),
    ("process.binding('fs')", "process is not defined"),
    ("fetch('http://127.0.0.1:9/')", "fetch is not defined"),
    # The Function constructor is guarded (as in QuickJS), and would compile in the engine's realm anyway.
    ("this.constructor.constructor('return process')().binding('fs')", "contract violation: Function constructor"),
    ("Object.getPrototypeOf(async function () {}).constructor('return process')()", "AsyncFunction constructor"),
])
def test_an_engine_that_reaches_for_node_fails_cleanly(attempt, missing):
    report = certify(QuickJSDriver(ENGINE + attempt + ";\n", engine_name="reach.js", host="node"),
                     load_tests(["rng"]), {})
    load = report.smoke[0]
    assert load.status == "failed" and "threw while loading" in load.message and missing in load.message, load.message
    assert not report.certified


def test_node_runs_under_its_permission_model_with_one_read_grant():
    worker = NodeWorker(NODE)
    argv = worker._argv()
    assert permission_flag(worker.version) in argv
    grants = [a for a in argv if a.startswith("--allow-")]
    assert grants == [f"--allow-fs-read={argv[-1]}"]  # the host's own script, nothing else
    assert any(a.startswith("--max-old-space-size=") for a in argv)
    out = worker.start(ENGINE, "", 0, mode="engine")
    assert out.ok, out
    # Even code of the host's own realm could not read a file, spawn or start a thread.
    probe = worker.eval_fn("function () { return [typeof require, typeof process, typeof fetch, typeof WebAssembly]; }")
    assert probe.answer == ["undefined"] * 4
    worker.close()


def test_an_engine_cannot_import_a_module_on_node():
    worker = NodeWorker(NODE)
    loading = ("var imported = 'pending'; import('fs').then(function () { imported = 'loaded'; }, "
               "function (e) { imported = 'refused: ' + e.code; });")
    assert worker.start(ENGINE + loading, "", 0, mode="engine").ok
    assert worker.eval_fn("function () { return imported; }").answer == "refused: ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING"
    worker.close()


def test_node_runs_a_bot_without_code_generation_from_strings():
    """Mode "bot" (issue #35): the bot acts; the Function constructors are the guards (R39: the vm
    context also has code generation from strings off, behind them)."""
    with NodeWorker(NODE) as worker:
        assert worker.start(ENGINE, "module.exports = () => 'fold';", 0, mode="bot").ok
        assert worker.act({}).answer == "fold"
        probe = worker.eval_fn("function () { try { return (0, Object.getPrototypeOf(function* () {}).constructor)('1'); }"
                               " catch (e) { return e.name; } }")
        assert probe.answer == "ContractViolation"


def test_out_of_memory_on_node_is_reported_as_such_and_the_engine_restarted():
    hog = ("var PokerEngine = {version: '1', rng: function () { var a = []; "
           "for (;;) a.push(new Array(100000).fill(a.length)); }};\n")
    driver = QuickJSDriver(hog, engine_name="hog.js", host="node", timeout_ms=60_000)
    driver.start()
    test = load_tests(["rng"])["rng"][0]
    run = driver.run("rng", test)
    assert run.kind == "errored" and run.fatal and "ran out of memory" in run.value, run
    assert driver.run("rng", test).fatal  # a fresh engine, which runs out again
    driver.close()


def test_a_crash_on_node_takes_the_wall_time_up_to_the_crash(monkeypatch):
    """As in QuickJS: the wait for the child's status and its kill are the parent's time."""
    worker = NodeWorker(NODE)
    assert worker.start("var PokerEngine = {version: '1'};\n", "", 0, mode="engine").kind == "ok"
    slow_kill(monkeypatch)
    segfault_soon(worker.pid)
    out = worker.eval_fn("function () { for (;;) {} }", timeout_ms=5000)
    assert out.kind == "crash" and out.wall_ms < 500, out


def test_a_late_engine_on_node_is_killed_at_the_deadline():
    spin = "var PokerEngine = {version: '1', rng: function () { for (;;) {} }};\n"
    driver = QuickJSDriver(spin, engine_name="spin.js", host="node", timeout_ms=300)
    driver.start()
    run = driver.run("rng", load_tests(["rng"])["rng"][0])
    assert run.kind == "errored" and run.fatal and "no answer within 300 ms" in run.value, run
    driver.close()


# ---- the command line ---------------------------------------------------------------------------------

@pytest.mark.parametrize("host, words", [("node", "in node (V8)"), ("quickjs", "in QuickJS")])
def test_the_engine_command_runs_on_the_host_asked_for_and_says_which(tmp_path, capsys, host, words):
    out = tmp_path / "report.json"
    code, text, err = run_cli(capsys, "engine", ENGINE_PATH, "--host", host, "--family", "rng", "--no-fresh",
                              "--json", out)
    assert code == 0 and words in text + err
    assert json.loads(out.read_text())["engine"]["host"] == host


def test_host_applies_to_a_javascript_engine_only(capsys):
    code, out, err = run_cli(capsys, "engine", "--cmd", "python3 -m reference.adapter", "--host", "node")
    assert code == 2 and "--host applies to ENGINE.js, not to --cmd" in err
