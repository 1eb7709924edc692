"""The house samples: a valid roster, certified by our own suite, always legal, never folding
when they can check, and play styles that differ measurably."""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from conformance.bots.bot_cert import CertOptions, battery, certify_file
from conformance.bots.profile import profile_hands
from conformance.cli.main import main
from conformance.harness.roster import lint_roster
from conformance.harness.runner import BotSpec, RunnerOptions, run_tournament
from conformance.host.node_runtime import find_node

# One worker runs the whole module (pytest-xdist --dist loadgroup): its module fixture, a certification
# of many bots or engines, is then computed once, not on each worker that gets one of its tests.
pytestmark = pytest.mark.xdist_group("house-bots")

ROOT = Path(__file__).resolve().parent.parent
ROSTER = ROOT / "bots.json"
HOUSE = ("check-fold", "sample-caller", "sample-tight", "equity-bot")


def test_roster_lists_the_house_samples_and_passes_the_linter(capsys):
    report = lint_roster(ROSTER)
    assert report.problems == ()
    entries = json.loads(ROSTER.read_text(encoding="utf-8"))["bots"]
    assert [e["id"] for e in entries] == list(HOUSE)
    names = {e["id"]: e["name"] for e in entries}
    assert names["sample-caller"] == "Sample Caller" and names["sample-tight"] == "Sample Tight"
    for e in entries:
        assert e["lab"] == "Aizanoi sample" and "not an AI-model entry" in e["note"]
        assert e["file"] == f"bots/{e['id']}.js" and e["botName"] == e["name"]
        source = (ROOT / e["file"]).read_text(encoding="utf-8")
        assert source.startswith("'use strict';\n") and "module.exports" in source
    assert main(["roster", str(ROSTER)]) == 0
    capsys.readouterr()


OPTIONS = CertOptions(host="quickjs", smoke_max_hands=12, full_table_hands=0)  # the default battery; short smoke tournaments


@pytest.fixture(scope="module")
def house_reports():
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {b: pool.submit(certify_file, ROOT / "bots" / f"{b}.js", OPTIONS, roster=ROSTER) for b in HOUSE}
        return {b: f.result(timeout=300) for b, f in futures.items()}


@pytest.mark.parametrize("bot", HOUSE)
def test_house_sample_is_certified_by_our_own_suite(house_reports, bot):
    report = house_reports[bot]
    assert report.verdict == "certified", [r.to_json() for r in report.reasons]
    assert report.battery["notRun"] == 0 and report.battery["errors"] == {}
    assert [t["seats"] for t in report.tournaments] == [2, 6, 9]
    assert report.roster_entry["id"] == bot
    assert report.load["exportName"] == report.roster_entry["botName"]


NODE = find_node()


@pytest.fixture(scope="module")
def house_reports_v8():
    """The same certifications on the V8 host (issue #35)."""
    options = replace(OPTIONS, host="node")
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {b: pool.submit(certify_file, ROOT / "bots" / f"{b}.js", options, roster=ROSTER) for b in HOUSE}
        return {b: f.result(timeout=300) for b, f in futures.items()}


def _comparable(report) -> dict:
    """A report without what depends on the host: its timings, the host's name, the tables' digests (which
    hash the host that played)."""
    j = report.to_json()
    return {"verdict": j["verdict"], "reasons": [(r["severity"], r["category"], r["code"]) for r in j["reasons"]],
            "answers": [(a["id"], a["outcome"], a["answer"], a["error"], a["code"]) for a in j["battery"]["answers"]],
            "determinism": j["determinism"], "environment": j["environment"], "profile": j["profile"],
            "tables": [(t["seats"], t["hands"], t["decisions"], t["standings"], t["errors"], t["isolation"])
                       for t in j["tournaments"]],
            "load": {k: v for k, v in j["load"].items() if k not in ("wallMs", "cpuMs")}}


@pytest.mark.skipif(NODE is None, reason="no node 20 or later here")
@pytest.mark.parametrize("bot", HOUSE)
def test_house_sample_gets_the_same_verdict_and_report_on_both_hosts(house_reports, house_reports_v8, bot):
    assert house_reports_v8[bot].options.host == "node" and house_reports[bot].options.host == "quickjs"
    assert _comparable(house_reports_v8[bot]) == _comparable(house_reports[bot])


@pytest.mark.parametrize("bot", HOUSE)
def test_house_sample_never_folds_when_it_can_check(house_reports, bot):
    answers = {a["id"]: a for a in house_reports[bot].battery["answers"]}
    states = battery(OPTIONS)
    assert len(answers) == len(states)
    for item in states:
        answer = answers[item.id]
        assert answer["error"] is None, answer  # always legal
        kind = answer["answer"] if isinstance(answer["answer"], str) else answer["answer"]["type"]
        if item.state["canCheck"]:
            assert kind != "fold", item.id


def test_play_styles_differ_measurably():
    # Deep stacks and one blind level, so the table lasts; raise wars still bust the caller at last.
    bots = [BotSpec.from_file(ROOT / "bots" / f"{b}.js") for b in HOUSE]
    options = RunnerOptions(tournament={"max_hands": 160, "starting_stack": 200_000, "blind_schedule": [[50, 100]]})
    result = run_tournament(bots, seed=17, bot_seed=3, options=options)
    p = {bot: profile_hands(result.hands)[f"s{i + 1}"] for i, bot in enumerate(HOUSE)}
    assert all(x.hands >= 40 for x in p.values())
    assert all(s.error_count == 0 for s in result.seats)
    # VPIP: never < tight < equity < calls everything.
    assert p["check-fold"].vpip == 0
    assert p["check-fold"].vpip < p["sample-tight"].vpip < p["equity-bot"].vpip < p["sample-caller"].vpip
    assert p["sample-tight"].vpip < 0.2 and p["sample-caller"].vpip > 0.7
    # Raising: the caller never raises; the other two do, preflop too.
    assert p["sample-caller"].pfr == 0 and p["sample-caller"].aggression_factor == 0
    assert p["sample-tight"].pfr > 0 and p["equity-bot"].pfr > 0
    assert p["equity-bot"].aggression_factor > 0.5
