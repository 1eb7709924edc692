"""Load-independent verdicts (issue #24, item 5): a vector with no answer within its time limit is
run again with RETRY_SCALE times the limit before the lateness counts. An engine that answers then
is judged on its answer and reported as slow (a note and the report's ``slow`` list, with the
time), never failed for it; an engine that hangs fails, and after one hang nothing is retried
(a hanging engine costs one long wait, not one per vector)."""

from conformance.judge import engine_cert
from conformance.judge.engine_cert import certify, load_tests
from conformance.judge.engine_drivers import CommandDriver
from conformance.report import formats
from cli_helpers import reference_cmd_engine

RNG = load_tests(["rng"])["rng"][:4]
# The engine sleeps (wall time: what a loaded machine adds) on the vector named, then answers.
SLEEPS = """
import time
if request.get('cmd') == 'run' and request['vector']['test']['id'] in {ids!r}:
    time.sleep({seconds})
"""


def certify_rng(tmp_path, ids, seconds, timeout_ms=300):
    command = reference_cmd_engine(tmp_path, SLEEPS.format(ids=set(ids), seconds=seconds))
    return certify(CommandDriver(command, timeout_ms=timeout_ms), {"rng": RNG}, {"command": command})


def test_a_vector_late_once_is_retried_judged_on_its_answer_and_reported_slow(tmp_path):
    slow = RNG[1]["id"]
    report = certify_rng(tmp_path, [slow], 0.8)  # late under 300 ms, in time under 16 x 300 ms
    by_id = {c.id: c for c in report.cases}
    assert all(c.status == "passed" for c in report.cases), [(c.id, c.message) for c in report.cases]
    assert by_id[slow].slow_ms is not None and by_id[slow].slow_ms >= 800
    assert any(n.startswith("slow: no answer within the time limit; answered in ") for n in by_id[slow].notes)
    assert [c.id for c in report.cases if c.slow_ms is not None] == [slow]
    out = formats.to_json(report)
    assert [x["id"] for x in out["slow"]] == [slow] and out["slow"][0]["ms"] >= 800


def test_a_hang_fails_and_is_retried_once_only(tmp_path, monkeypatch):
    monkeypatch.setattr(engine_cert, "RETRY_SCALE", 4)  # the retry waits 4 x 300 ms
    hang = [t["id"] for t in RNG[:3]]
    report = certify_rng(tmp_path, hang, 60)
    first, second = (next(c for c in report.cases if c.id == i) for i in hang[:2])
    assert first.status == second.status == "failed"
    assert "no answer within 1200 ms" in first.message  # the retry's limit: it hung there too
    assert "no answer within 300 ms" in second.message  # no retry after a hang
    assert all(c.slow_ms is None for c in report.cases)
