"""Hostile bots (issue #19): lone surrogates (R34), megabyte answers, messages and names (R34),
a then() on every object, and worker globals overwritten however it is hidden (R35). Each gets the
contract's verdict with a message naming the cause; none crashes, hangs or bloats a report."""
from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import orjson
import pytest

from conformance.bots.bot_cert import CertOptions, CertReport, certify_file
from conformance.cli.certify import CertifyOptions
from conformance.cli.certify import run as run_certify
from conformance.cli.engine_choice import EngineSpec
from conformance.harness.runner import BotSpec, RunnerOptions, run_tournament
from conformance.host.bot_host import choose
from conformance.host.bounds import MAX_ANSWER_CHARS, MAX_NAME_CHARS, MAX_SEAT_VIOLATIONS, MAX_TEXT_CHARS, bounded
from cli_helpers import certify_folder, make_roster, run_cli

# One worker runs the whole module (pytest-xdist --dist loadgroup): its module fixture, a certification
# of many bots or engines, is then computed once, not on each worker that gets one of its tests.
pytestmark = pytest.mark.xdist_group("hostile-bots")

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "bots" / "hostile"
QUICK = CertOptions(host="quickjs", decision_ms=1000, init_ms=3000, generated_states=10, vector_states=10, smoke_seats=(2,),
                    smoke_max_hands=5, full_table_hands=0)

# file -> (certified?, the (category, code) error reasons it must get, decision codes by category)
EXPECTED = {
    "surrogate-legal": (True, set(), {}),
    "surrogate-type": (False, {("decision", "malformed")}, {"malformed": "unknown-type"}),
    "surrogate-throw": (False, {("decision", "throwing")}, {"throwing": "throw"}),
    "surrogate-symbol": (False, {("decision", "throwing"), ("decision", "malformed")},
                         {"throwing": "throw", "malformed": "malformed"}),
    "surrogate-load-throw": (False, {("load", "throw")}, {}),
    "huge-answer": (False, {("decision", "malformed")}, {"malformed": "too-long"}),
    "huge-type": (False, {("decision", "malformed")}, {"malformed": "too-long"}),
    "huge-throw": (False, {("decision", "throwing")}, {"throwing": "throw"}),
    "huge-name": (True, set(), {}),
    "huge-load-throw": (False, {("load", "throw")}, {}),
    "thenable-prototype": (False, {("static", "global-assignment")}, {}),
    "thenable-getter": (False, {("static", "global-assignment")}, {}),
    "globals-tostring": (False, {("environment", "Math.random"), ("environment", "Function.prototype.toString")}, {}),
    "globals-computed": (False, {("environment", "JSON")}, {}),
    "globals-onmessage": (False, {("environment", "onmessage"), ("violation", "message")}, {}),
    "globals-accessor": (False, {("environment", "Math.random"), ("environment", "console")}, {}),
    "globals-engine-member": (False, {("environment", "Object.keys"), ("environment", "module")}, {}),
    "violation-flood": (False, {("static", "eval"), ("violation", "eval")}, {}),
    # #26 item 2: the standard built-ins and their prototypes, compared by descriptor (R35)
    "intrinsics-array-index": (False, {("environment", "Array.prototype[0]")}, {}),
    "intrinsics-object-prototype": (False, {("environment", "Object.prototype.foo")}, {}),
    "intrinsics-math-max": (False, {("environment", "Math.max")}, {}),
    "intrinsics-prevent-extensions": (False, {("environment", "Array.prototype")}, {}),
    "intrinsics-proxy-accessor": (False, {("environment", "Map.prototype.size")}, {}),
    "intrinsics-class-field": (False, {("environment", "Array.prototype.push")}, {}),
    # Caught only by the full-length table (tests/test_full_table.py); certified by these short stages.
    "late-from-hand-100": (True, set(), {}),
    "fixture-names": (None, set(), {}),
}


@pytest.fixture(scope="module")
def reports() -> dict[str, CertReport]:
    return certify_folder(HOSTILE, QUICK)


def test_every_hostile_bot_has_an_expectation():
    assert {p.stem for p in HOSTILE.glob("*.js")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_bot_gets_the_contract_s_verdict(reports, name):
    report = reports[name]
    certified, reasons, codes = EXPECTED[name]
    errors = [r for r in report.reasons if r.severity == "error"]
    if certified is not None:  # None: the battery's own states carry no names either way
        assert (report.verdict == "certified") == certified, [r.to_json() for r in errors]
    assert reasons <= {(r.category, r.code) for r in errors}, [r.to_json() for r in errors]
    for category, code in codes.items():
        assert code in report.battery["errors"][category]["codes"], report.battery["errors"]
    text = orjson.dumps(report.to_json()).decode()  # orjson refuses a lone surrogate
    text.encode("utf-8")
    assert len(text) < 400_000, len(text)  # no megabyte anywhere


def test_lone_surrogates_arrive_as_u_fffd(reports):
    assert reports["surrogate-legal"].load["exportName"] == "Lone \ufffd"
    detail = reports["surrogate-type"].battery["errors"]["malformed"]["detail"]
    assert 'unknown action type "che\\ufffdck"' in detail  # the parser quotes it as JSON
    detail = reports["surrogate-throw"].battery["errors"]["throwing"]["detail"]
    assert "Bad\ufffdError: broken \ufffd here" in detail
    answers = reports["surrogate-symbol"].battery["answers"]
    assert {"$": "symbol", "description": "\ufffd"} in [a["answer"] for a in answers]
    load = [r for r in reports["surrogate-load-throw"].reasons if r.category == "load"][0]
    assert "cannot load \ufffd" in load.message


def test_megabyte_answers_messages_and_names_are_bounded(reports):
    detail = reports["huge-answer"].battery["errors"]["malformed"]["detail"]
    assert detail == f"act returned a string of {1 << 20} characters, more than the bound of {MAX_ANSWER_CHARS} (R34)"
    detail = reports["huge-type"].battery["errors"]["malformed"]["detail"]
    assert detail == f"type: a string of {4 + (1 << 20)} characters, more than the bound of {MAX_ANSWER_CHARS} (R34)"
    detail = reports["huge-throw"].battery["errors"]["throwing"]["detail"]
    cut = f"Error: {'m' * MAX_TEXT_CHARS}\u2026 ({(1 << 20) - MAX_TEXT_CHARS} more characters)"
    assert cut in detail and len(detail) < MAX_TEXT_CHARS + 200
    assert reports["huge-name"].load["exportName"] == bounded("n" * (1 << 22), MAX_NAME_CHARS)
    load = [r for r in reports["huge-load-throw"].reasons if r.category == "load"][0]
    assert f"({(1 << 20) - MAX_TEXT_CHARS} more characters)" in load.message and len(load.message) < 2 * MAX_TEXT_CHARS


def test_a_megabyte_thrower_s_report_is_no_bigger_than_a_short_thrower_s(reports):
    # The same battery, one bot throwing 1 MiB, the other 'broken \ud83d here': the difference is the
    # bounded message per decision (measured in bytes, not time).
    huge = len(orjson.dumps(reports["huge-throw"].to_json()))
    short = len(orjson.dumps(reports["surrogate-throw"].to_json()))
    decisions = reports["huge-throw"].battery["states"] + sum(t["decisions"] for t in reports["huge-throw"].tournaments)
    assert huge - short < decisions * 3 * (MAX_TEXT_CHARS + 50), (huge, short, decisions)


def test_the_worker_s_globals_are_watched_and_a_decision_time_change_is_placed(reports):
    env = reports["globals-computed"].environment
    assert env["changed"] == ["JSON"] and "PokerEngine" in env["checked"] and "globalThis" in env["checked"]
    reason = [r for r in reports["globals-computed"].reasons if r.code == "JSON"][0]
    assert "while deciding state" in reason.message and "R35" in reason.message
    for name in ("surrogate-legal", "huge-name", "thenable-prototype", "thenable-getter"):
        assert reports[name].environment["changed"] == [], name


def test_a_tournament_of_hostile_bots_plays_on_and_its_transcript_is_small(tmp_path, capsys):
    bots = {"caller": ROOT / "bots" / "sample-caller.js"}
    bots.update({n: HOSTILE / f"{n}.js" for n in ("surrogate-legal", "surrogate-throw", "huge-answer",
                                                 "huge-throw", "thenable-getter", "globals-onmessage")})
    roster = make_roster(tmp_path, bots)
    code, _, _ = run_cli(capsys, "play", "--roster", roster, "--seed", 4, "--bot-seed", 2, "--hands", 8,
                         "--json", tmp_path / "s.json", "--transcript", tmp_path / "t.jsonl")
    assert code == 0
    rows = {r["bot"]: r for r in json.loads((tmp_path / "s.json").read_text())["standings"]}
    assert rows["caller"]["errorTotal"] == 0 and rows["surrogate-legal"]["errorTotal"] == 0
    assert rows["huge-answer"]["errors"]["malformed"] > 0 and rows["huge-answer"]["terminated"] is None
    assert rows["huge-throw"]["errors"]["throwing"] > 0 and rows["huge-throw"]["terminated"] is None
    lines = (tmp_path / "t.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[-1])["hands"] == 8
    assert max(len(x) for x in lines) < 20_000  # no decision line carries a megabyte
    code, out, _ = run_cli(capsys, "replay", tmp_path / "t.jsonl")
    assert code == 0, out


def test_certify_on_a_roster_of_hostile_bots_writes_a_whole_report(tmp_path):
    bots = {"caller": ROOT / "bots" / "sample-caller.js"}
    bots.update({n: HOSTILE / f"{n}.js" for n in ("surrogate-legal", "surrogate-symbol", "huge-throw",
                                                 "huge-name", "thenable-prototype", "globals-tostring")})
    roster = make_roster(tmp_path, bots)
    report = tmp_path / "R"
    run_certify(CertifyOptions(roster=roster, report_dir=report, showcase_hands=10,
                               engine=EngineSpec(families=("rng",), fresh=False), bot_options=QUICK))
    # The whole report, and the rejected bots' failing states to rerun (conformance.report.repro).
    assert sorted(p.name for p in report.iterdir()) == ["index.html", "junit.xml", "repro", "summary.json"]
    assert all(p.name.startswith("bot-") and p.suffix == ".json" for p in (report / "repro").iterdir())
    summary = (report / "summary.json").read_bytes()
    assert len(summary) < 1_000_000, len(summary)
    verdicts = {b["id"]: b["verdict"] for b in json.loads(summary)["bots"]}
    assert verdicts["surrogate-legal"].startswith("certified") and verdicts["huge-name"].startswith("certified")
    assert verdicts["huge-throw"] == verdicts["globals-tostring"] == verdicts["surrogate-symbol"] == "rejected"
    assert "\ufffd" in (report / "index.html").read_text(encoding="utf-8")


def test_a_flood_of_violations_keeps_the_first_thousand_per_seat(reports):
    reason = [r for r in reports["violation-flood"].reasons if r.code == "eval" and r.category == "violation"][0]
    # The first 1000 kept: eval's and, per decision, the worker's own "dropped" record.
    assert re.match(r"9\d\d or more contract violation\(s\)", reason.message), reason.message
    flood = BotSpec.from_file(HOSTILE / "violation-flood.js")
    caller = BotSpec.from_file(ROOT / "bots" / "sample-caller.js")
    result = run_tournament([flood, caller], seed=3, bot_seed=1, options=RunnerOptions(tournament={"max_hands": 12}))
    seat = next(s for s in result.seats if s.bot == flood.id)
    # Each decision's response lists 100 and one "dropped" record (the worker's own bound).
    assert 101 * seat.decisions > MAX_SEAT_VIOLATIONS and len(seat.violations) == MAX_SEAT_VIOLATIONS
    assert seat.to_json()["violationsDropped"] == 101 * seat.decisions - MAX_SEAT_VIOLATIONS
    assert all(s.error_count == 0 for s in result.seats)  # a violation caught by the bot is no decision error


def test_every_change_to_the_intrinsics_is_named_and_placed(reports):
    """#26 item 2: additions, deletions, redefinitions and extensibility of the standard built-ins and
    their prototypes, at load or in a decision, however reached (a prototype by value, a Proxy, a
    class field through a return override), each an environment error naming the property."""
    def reason(bot, code):
        return [r for r in reports[bot].reasons if r.category == "environment" and r.code == code][0]

    assert "Array.prototype[0] defined" in reason("intrinsics-array-index", "Array.prototype[0]").message
    assert reason("intrinsics-array-index", "Array.prototype[0]").example == "load"
    foo = reason("intrinsics-object-prototype", "Object.prototype.foo")
    third = reports["intrinsics-object-prototype"].battery["answers"][2]["id"]
    assert "defined" in foo.message and foo.example == third  # placed at the decision that made it
    assert "made non-extensible" in reason("intrinsics-prevent-extensions", "Array.prototype").message
    assert "Map.prototype.size replaced" in reason("intrinsics-proxy-accessor", "Map.prototype.size").message
    assert "attributes" in reason("intrinsics-class-field", "Array.prototype.push").message
    assert "Object.prototype.then defined" in reason("thenable-prototype", "Object.prototype.then").message
    assert reports["intrinsics-array-index"].environment["intrinsicsChanged"] == ["Array.prototype.length",
                                                                                 "Array.prototype[0]"]
    for name in ("surrogate-legal", "huge-name", "late-from-hand-100"):  # compliant: nothing changed
        assert reports[name].environment["intrinsicsChanged"] == [], name
    # The terminal's environment line names them too (it said "changed: nothing" beside the errors).
    from conformance.cli.commands.bot import summary_lines
    line = next(x for x in summary_lines(reports["intrinsics-array-index"]) if x.startswith("environment:"))
    assert line.endswith("changed: Array.prototype.length, Array.prototype[0]"), line
    line = next(x for x in summary_lines(reports["huge-name"]) if x.startswith("environment:"))
    assert line.endswith("changed: nothing"), line


def test_the_definers_the_worker_notes_behave_as_the_natives():
    """Object.defineProperty and its relatives are the worker's (they note the call, R35): same name,
    length and descriptor, not constructors, and they define as the natives do."""
    from conformance.harness.runner import bundled_engine
    from conformance.host.worker import Worker

    probe = """function () {
      var out = [];
      [[Object, 'defineProperty'], [Object, 'defineProperties'], [Reflect, 'defineProperty'],
       [Object.prototype, '__defineGetter__'], [Object.prototype, '__defineSetter__']].forEach(function (p) {
        var f = p[0][p[1]], d = Object.getOwnPropertyDescriptor(p[0], p[1]), constructible = true;
        try { new f(); } catch (e) { constructible = !(e instanceof TypeError); }
        out.push([f.name, f.length, 'prototype' in f, constructible, d.writable, d.enumerable, d.configurable].join());
      });
      var o = {};
      Object.defineProperty(o, 'a', {get: function () { return 1; }});
      Reflect.defineProperty(o, 'b', {value: 2});
      o.__defineGetter__('c', function () { return 3; });
      out.push([o.a, o.b, o.c, Object.keys(o).length, Reflect.defineProperty(Object.freeze({}), 'x', {value: 1})].join());
      return out;
    }"""
    with Worker() as worker:
        assert worker.start(bundled_engine(), "module.exports = () => 'fold';", 1).ok
        out = worker.eval_fn(probe)
    assert out.ok, out.error
    assert out.answer == ["defineProperty,3,false,false,true,false,true", "defineProperties,2,false,false,true,false,true",
                          "defineProperty,3,false,false,true,false,true", "__defineGetter__,2,false,false,true,false,true",
                          "__defineSetter__,2,false,false,true,false,true", "1,2,3,1,false"]  # __defineGetter__ defines an enumerable one


@pytest.mark.skipif(choose(None).name != "node", reason="no node 20 or later here")
def test_a_lone_surrogate_in_a_load_error_arrives_as_u_fffd_on_v8():
    # The V8 host's own load errors are well-formed text too (they carried the lone surrogate).
    report = certify_file(HOSTILE / "surrogate-load-throw.js", replace(QUICK, host="node"))
    [load] = [r for r in report.reasons if r.category == "load"]
    assert "cannot load \ufffd" in load.message and "\udc01" not in load.message
