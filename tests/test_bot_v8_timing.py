"""Timing on the V8 host (ruling R33 rewritten for V8; issue #35 item 3): decisions timed in V8
directly, re-timed in fresh V8 workers; a bot late in V8 only at nine seats is rejected, and so is
one whose answer never arrives (its `type` getter spins: reading the answer is the decision's time).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from conformance.bots import bot_timing
from conformance.bots.bot_cert import CertOptions, battery, certify_file
from conformance.harness.runner import bundled_engine
from conformance.host.node_runtime import find_node

NODE = find_node()
pytestmark = pytest.mark.skipif(NODE is None, reason="no node 20 or later here")
V8_BOTS = Path(__file__).resolve().parent / "bots" / "v8"
# One state of each decision kind (nine-seat states among them) and a few vectors; no tables.
SHORT = dict(decision_ms=300, init_ms=3000, vector_states=5, generated_states=0, kind_states=1, smoke_seats=(),
             full_table_hands=0)


def test_the_v8_rule():
    assert bot_timing.classify_v8(301, 300) == "late"
    assert bot_timing.classify_v8(300, 300) == "at-risk"
    assert bot_timing.classify_v8(151, 300) == "at-risk"
    assert bot_timing.classify_v8(150, 300) == "ok"


def test_a_bot_late_in_v8_only_at_nine_seats_is_rejected():
    options = CertOptions(host="node", **SHORT)
    report = certify_file(V8_BOTS / "late-at-nine-in-v8.js", options)
    assert report.verdict == "rejected"
    assert any(r.category == "timing" and r.code == "late" for r in report.reasons), \
        [r.to_json() for r in report.reasons]
    assert report.timing["host"] == "node" and report.timing["rule"]["lateAboveMs"] == 300
    seats = {b.id: len(b.state["seats"]) for b in battery(options)}
    retimed = report.timing["retimed"]
    assert retimed and all(t["host"] == "node" and t["verdict"] == "late" and seats[t["id"]] == 9 for t in retimed)
    for t in retimed:  # each median above the deadline (None: killed in most runs)
        assert t["nodeMedianMs"] is None or t["nodeMedianMs"] > 300, t
    # every state of fewer seats the battery ran was answered in time, and so is any such state asked alone
    assert all(a["outcome"] == "ok" for a in report.battery["answers"] if seats[a["id"]] < 9)
    fewer = [b.state for b in battery(options) if len(b.state["seats"]) < 9][:3]
    with options.worker() as worker:
        assert worker.start(bundled_engine(), (V8_BOTS / "late-at-nine-in-v8.js").read_text(), 1).ok
        for state in fewer:
            assert worker.act(state, timeout_ms=300).kind == "ok"


@pytest.mark.parametrize("host", ["node", "quickjs"])
def test_a_bot_whose_answer_never_arrives_is_rejected_as_late(host):
    """On the V8 host directly; on QuickJS, node's re-timing reads the answer as the worker does."""
    report = certify_file(V8_BOTS / "spinning-type-getter.js", CertOptions(host=host, **SHORT))
    assert report.verdict == "rejected", [r.to_json() for r in report.reasons]
    assert any(r.category == "timing" and r.code == "late" for r in report.reasons), \
        [r.to_json() for r in report.reasons]
