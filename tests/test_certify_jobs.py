"""holdem-cert certify's bots certified side by side (issue #25, conformance/cli/bot_pool.py,
conformance/bots/slots.py): the same summary as one bot after the other, but for measured times."""
import json
import threading
import time
from pathlib import Path

import pytest

from reference.errors import OptionError

from conformance.bots.bot_cert import CertOptions
from conformance.bots.slots import Slots
from conformance.cli.bot_pool import BotPool
from conformance.cli.certify import CertifyOptions, run
from conformance.cli.engine_choice import EngineSpec
from cli_helpers import make_roster

ROOT = Path(__file__).resolve().parent.parent
SMALL = CertOptions(generated_states=12, vector_states=12, kind_states=1, smoke_seats=(2, 6), smoke_max_hands=4,
                    full_table_hands=6)
# Measured times (and what is made of them), which differ from run to run; everything else must not.
MEASURED = {"wallMs", "cpuMs", "timing", "timingByHands", "nodeBattery", "quickjsCpuMs", "quickjsMedianMs",
            "nodeMs", "nodeMedianMs", "budgetSeconds"}


def unmeasured(value):
    if isinstance(value, dict):
        return {k: "<measured>" if k in MEASURED else unmeasured(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unmeasured(v) for v in value]
    return value


def test_the_roster_side_by_side_gives_the_summary_of_one_bot_after_the_other(tmp_path):
    path = make_roster(tmp_path, {"caller": ROOT / "bots/sample-caller.js", "evil": ROOT / "tests/bots/bad/eval.js",
                             "equity": ROOT / "bots/equity-bot.js"})
    said: dict[int, list[str]] = {}
    summaries = {}
    for jobs in (1, 2):
        lines = said[jobs] = []
        summaries[jobs] = run(CertifyOptions(roster=path, report_dir=tmp_path / f"report-{jobs}", showcase_hands=20,
                                             engine=EngineSpec(families=("rng", "pots")), bot_options=SMALL,
                                             jobs=jobs), say=lines.append)
    one, two = (unmeasured(summaries[j]) for j in (1, 2))
    assert two["bots"][1]["verdict"] == "rejected" and one["bots"][0]["verdict"] != "rejected"
    assert not [r for b in two["bots"] for r in b["reasons"] if "time budget" in r]
    for k, bot in enumerate(one["bots"]):  # bot by bot first, for a readable failure
        assert two["bots"][k] == bot, bot["id"]
    assert two == one
    assert said[2] == said[1]  # the same lines, in roster order
    assert json.loads((tmp_path / "report-2/summary.json").read_text()) == summaries[2]


def test_a_run_that_stops_stops_the_bots_certified_beside_it(tmp_path, monkeypatch):
    import conformance.cli.certify as certify_module

    def broken(*args, **kwargs):
        raise RuntimeError("the showcase broke")
    monkeypatch.setattr(certify_module, "_showcase", broken)
    path = make_roster(tmp_path, {f"b{i}": ROOT / "tests/bots/good/passive.js" for i in range(3)})
    started = time.perf_counter()
    with pytest.raises(RuntimeError, match="the showcase broke"):
        run(CertifyOptions(roster=path, report_dir=tmp_path / "report", showcase_hands=3,
                           engine=EngineSpec(families=("rng",), fresh=False), jobs=2))  # full-length bot runs
    assert time.perf_counter() - started < 60  # the bots' processes were terminated, not waited for
    assert "the showcase broke" in json.loads((tmp_path / "report/summary.json").read_text())["stopped"]


def _square(x):
    time.sleep(0.01 * (3 - x % 3))  # later tasks finish first
    return x * x


def _refuse(x):
    if x == 2:
        raise OptionError("engine", "refused")
    return x


def test_the_pool_gives_results_in_task_order_and_raises_a_tasks_error_as_itself():
    with BotPool(list(range(6)), _square, 2) as pool:
        assert pool.parallel
        assert [pool.result(i) for i in range(6)] == [x * x for x in range(6)]
    with BotPool([0, 1, 2, 3], _refuse, 2) as pool:
        assert pool.result(1) == 1
        with pytest.raises(OptionError, match="engine: refused") as raised:
            pool.result(2)
        assert raised.value.field == "engine"
    with BotPool([5], _square, 2) as pool:  # one task: here, no process
        assert not pool.parallel and pool.result(0) == 25


@pytest.mark.parametrize("make", [Slots.local, Slots.shared], ids=["local", "shared"])
def test_slots_bound_the_streams_and_are_reentrant_per_thread(make):
    slots = make(2)
    inside, most, lock = [0], [0], threading.Lock()

    def stream():
        with slots.held():
            with slots.held():  # a re-timing from the stage's own slot takes no second one
                with lock:
                    inside[0] += 1
                    most[0] = max(most[0], inside[0])
                time.sleep(0.02)
                with lock:
                    inside[0] -= 1

    threads = [threading.Thread(target=stream) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most[0] == 2


def _hold_and_wait(slots: Slots, ready) -> None:  # a task's process: takes a slot and never lets go
    with slots.held():
        ready.set()
        time.sleep(600)


def test_a_process_killed_while_it_holds_a_shared_slot_gives_the_slot_back():
    """Shared slots are lock files: a bot's process killed in its slot (the OOM killer) must not take
    the slot with it, or a run whose every slot was lost would wait for ever."""
    import multiprocessing

    slots = Slots.shared(1)
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Event()
    holder = ctx.Process(target=_hold_and_wait, args=(slots, ready), daemon=True)
    holder.start()
    try:
        assert ready.wait(60), "the holder did not take its slot"
        taken = threading.Event()
        waiter = threading.Thread(target=lambda: slots.run(taken.set), daemon=True)
        waiter.start()
        waiter.join(0.5)
        assert not taken.is_set()  # the one slot is held elsewhere
        holder.kill()
        holder.join()
        waiter.join(30)
        assert taken.is_set(), "the killed holder's slot was never given back"
    finally:
        holder.kill()
