"""Judging while the engine runs the next vector (Runner.vectors, issue #25 "both cores"): the JSON
report is byte-for-byte the one-at-a-time report's, for a passing engine, a mutant with failures
and an engine whose runs die (the skips that follow depend on runs alone)."""
from __future__ import annotations

import json

import pytest

from conformance.judge import fuzz
from conformance.judge.engine_cert import certify, load_tests
from conformance.judge.engine_drivers import QuickJSDriver, is_digest
from conformance.host.node_worker import find_node
from conformance.report.formats import to_json
from conformance.report.repro import attach as attach_repro
from js_vector_runner import ENGINE_PATH
from mutants.mutants import MUTANTS

SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
GAMES = ["legality", "hands", "hand", "tournaments", "sng3v4"]
# Four-seat games exhaust the stack: each such run is fatal (the worker is restarted), so families
# are abandoned part way, by the runs' count.
DIES_AT_FOUR = SOURCE + """
;(function () {
  const create = PokerEngine.create;
  globalThis.PokerEngine = Object.assign({}, PokerEngine, {create: function (seats, options) {
    if (seats.length === 4) { const deeper = (n) => deeper(n + 1) + 1; deeper(0); }
    return create(seats, options);
  }});
})();"""


def mutant(name: str) -> str:
    m = next(m for m in MUTANTS if m["name"] == name)
    return SOURCE.replace(m["find"], m["replace"])


def report_bytes(source: str, tests: dict, overlap: bool, plan=None, host: str = "quickjs") -> tuple[bytes, dict]:
    subject = {"driver": "quickjs", "source": str(ENGINE_PATH)}
    report = certify(QuickJSDriver(source, engine_name="engine.js", host=host), tests, subject, fuzz_plan=plan,
                     overlap=overlap)
    attach_repro(report, subject, tests)
    data = to_json(report)
    return json.dumps(data, indent=2, ensure_ascii=False).encode(), data


@pytest.mark.parametrize("name, families, plan", [
    ("passing", GAMES + ["rng", "deck", "evaluate", "pots"], fuzz.FuzzPlan(3, games=3)),
    ("no-burn-card", GAMES, None),
    ("dies-at-four-seats", ["legality", "hands", "tournaments"], None),
])
def test_overlapped_judging_gives_the_same_report_bytes(name, families, plan):
    source = {"passing": SOURCE, "dies-at-four-seats": DIES_AT_FOUR}.get(name) or mutant(name)
    tests = {f: [t for t in ts if not is_digest(t)] for f, ts in load_tests(families, fresh_seed=5).items()}
    # The node host where it can (faster; the same reports, tests/test_hosts.py); QuickJS for the
    # engine whose four-seat runs must be fatal (an exhausted stack kills its QuickJS worker).
    host = "node" if find_node() and name != "dies-at-four-seats" else "quickjs"
    one, data = report_bytes(source, tests, overlap=False, plan=plan, host=host)
    overlapped, _ = report_bytes(source, tests, overlap=True, plan=plan, host=host)
    assert overlapped == one
    counts = {s: sum(c[s] for c in data["families"].values()) for s in ("passed", "failed", "skipped")}
    if name == "passing":
        assert counts["failed"] == 0 and counts["passed"] > 700, data["verdict"]
    elif name == "dies-at-four-seats":
        assert counts["failed"] > 0 and counts["skipped"] > 0 and counts["passed"] > 0, counts
    else:
        assert counts["failed"] > 0 and counts["passed"] > 0, counts
