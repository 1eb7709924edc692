import time
from pathlib import Path
from conformance.bots import bounds
from conformance.bots.bot_cert import CertOptions, certify_file
from conformance.bots.cert_report import CertOptions as CO
ROOT = Path("/work/wt/bot-speed")

def test_kill_in_pass_two(monkeypatch):
    made = []
    real_worker = CO.worker
    def worker(self, cpu_meter=None):
        w = real_worker(self, cpu_meter)
        made.append(w)
        if len(made) == 2:
            real_act = w.act
            count = {"n": 0}
            def act(state, timeout_ms=1000, **kw):
                count["n"] += 1
                if count["n"] == 40:
                    return w._fail("late", f"no answer within {timeout_ms:g} ms", time.perf_counter(), wall_ms=float(timeout_ms))
                return real_act(state, timeout_ms, **kw)
            w.act = act
        return w
    monkeypatch.setattr(CO, "worker", worker)
    options = CertOptions(host="node", parallel=1, smoke_seats=(), full_table_hands=0)
    report = certify_file(ROOT / "bots/check-fold.js", options)
    print(report.verdict, report.determinism, [r.to_json() for r in report.reasons])
    assert report.verdict == "inconclusive"
