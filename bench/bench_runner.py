"""The arena runner's own cost per decision, and a full house-sample tournament.

    python bench/bench_runner.py [--seats 9] [--hands 300] [--seed 1] [--bot-seed 2]

1. Overhead per decision: a tournament of trivial bots (call when facing a bet, else
   check), so the bots compute nothing. The whole decision loop of
   :func:`conformance.harness.runner.run_tournament` is timed from one decision's record to the
   next (building and hashing the state, the worker round trip, judging, applying,
   recording): nothing is subtracted. Target: median <= 1 ms. Its breakdown: the worker
   round trip (``Outcome.wall_ms``: the pipe both ways, the child parsing the state and
   copying its history, the trivial bot, the answer back), the reference engine's share,
   measured by replaying the same actions on a fresh reference tournament (building the
   state, hashing it, applying the action), and encoding the state for the pipe as the
   runner does (``HistoryEncoder``: each finished hand encoded once); the rest is judging,
   recording and the host's reading of the answer.
2. The worker's check of its globals and standard built-ins after every decision (R35, #26 item 2),
   alone: its CPU time per decision in a worker session holding the bundled engine and a trivial
   bot (the cheap part, with every FULL_EVERY-th check descriptor-level, as after decisions), and
   the descriptor-level comparison alone (after a decision that called a definer). Target: the
   whole check <= 0.1 ms more per decision than the identity check of the globals alone.
3. A tournament of the four house samples cycled over the seats (default nine seats,
   300-hand cap), start-up of the workers included: once under contract v1's defaults, where
   it ends when one bot has all the chips, and once with deep stacks and fixed blinds
   (1,000,000 chips, 50/100) so that every one of the hands is played.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.harness.runner import BotSpec, RunnerOptions, run_tournament, state_hash  # noqa: E402
from conformance.host.worker import HistoryEncoder  # noqa: E402
from reference.state import HISTORY_LIMIT  # noqa: E402
from reference.tournament import Tournament  # noqa: E402

TRIVIAL = BotSpec("trivial", "module.exports = function (s) { return s.canCheck ? 'check' : 'call'; };\n")
HOUSE = ("check-fold", "sample-caller", "sample-tight", "equity-bot")


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):7.3f} ms   p95 {p95:7.3f} ms"


def reference_share(result) -> tuple[list[float], list[float], list[float], list[float], list[int]]:
    """Per decision, replaying the tournament as the runner plays it: the reference building the
    state (without its history, which the runner sends a hand at a time), hashing the whole
    state's bytes, applying the action, and encoding the state for the pipe (ms); the whole
    state's size (bytes)."""
    t = Tournament(list(result.names), seed=result.seed, **result.options)
    history = HistoryEncoder()
    build, hashing, apply, encode, size = [], [], [], [], []
    for record in result.decisions:
        t0 = time.perf_counter()
        state = t.decision_state(history=False)
        t1 = time.perf_counter()
        wire = history.wire(state, t.history[-HISTORY_LIMIT:])
        t2 = time.perf_counter()
        full = wire.full
        state_hash(state, full)
        t3 = time.perf_counter()
        entry = record.action
        t.act(entry["type"] if entry["type"] != "raise" else
              {"type": "raise", "amount": state["you"]["bet"] + entry["amount"]})
        t4 = time.perf_counter()
        build.append((t1 - t0) * 1000)
        encode.append((t2 - t1) * 1000)
        hashing.append((t3 - t2) * 1000)
        apply.append((t4 - t3) * 1000)
        size.append(len(full))
    return build, hashing, apply, encode, size


def check_cost(repeats: int = 2000) -> tuple[float, float]:
    """CPU ms per decision of the worker's check (the ``drain`` its responses end with), and of the
    descriptor-level comparison alone, in this process (the worker's own session class)."""
    from conformance.harness.runner import bundled_engine
    from conformance.host.worker_process import _Session

    session = _Session()
    response = session.init({"engine": bundled_engine(), "script": TRIVIAL.source, "botSeed": 1, "mode": "bot"})
    assert response["ok"], response
    t0 = time.process_time()
    for _ in range(repeats):
        session.host("drain", "")
    per_check = (time.process_time() - t0) * 1000 / repeats
    # The same call with and without a definer (which makes its own response's check descriptor-level).
    def call(source: str) -> float:
        text = json.dumps({"op": "evalFn", "source": source, "args": []})
        t0 = time.process_time()
        session.handle("evalFn", {"source": source, "args": []}, text)
        return (time.process_time() - t0) * 1000

    plain, marked = [], []
    for _ in range(repeats // 10):
        plain.append(call("function () { return Object.keys({x: 1}); }"))
        marked.append(call("function () { return Object.defineProperty({}, 'x', {value: 1}); }"))
    return per_check, statistics.median(marked) - statistics.median(plain)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=9)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-seed", type=int, default=2)
    args = parser.parse_args()
    options = RunnerOptions(tournament={"max_hands": args.hands})

    stamps: list[float] = []
    result = run_tournament([TRIVIAL] * args.seats, args.seed, args.bot_seed, options,
                            on_decision=lambda record: stamps.append(time.perf_counter()))
    loop = [(b - a) * 1000 for a, b in zip(stamps, stamps[1:])]
    wall = [d.wall_ms for d in result.decisions[1:]]
    build, hashing, apply, encode, size = reference_share(result)
    reference = [b + h + a for b, h, a in zip(build, hashing, apply)]
    rest = [max(0.0, lp - w - r - e) for lp, w, r, e in zip(loop, wall, reference[1:], encode[1:])]
    print(f"runner overhead per decision: {args.seats} trivial bots, {len(result.hands)} hands, "
          f"{len(result.decisions)} decisions, state {statistics.median(size) / 1000:.1f} kB median "
          f"(target: median <= 1 ms)")
    print(f"  whole decision loop      {summary(loop)}")
    print(f"    worker round trip      {summary(wall)}")
    print(f"    reference (total)      {summary(reference)}")
    print(f"      build the state      {summary(build)}")
    print(f"      hash the state       {summary(hashing)}")
    print(f"      apply the action     {summary(apply)}")
    print(f"    encode for the worker  {summary(encode)}")
    print(f"    the rest               {summary(rest)}")

    per_check, full = check_cost()
    print(f"the worker's check of globals and built-ins (R35), CPU per decision: {per_check:.3f} ms "
          f"(descriptor-level comparison alone: {full:.3f} ms, after a decision that called a definer)")

    bots = [BotSpec.from_file(ROOT / "bots" / f"{HOUSE[s % len(HOUSE)]}.js") for s in range(args.seats)]
    deep = RunnerOptions(tournament={"max_hands": args.hands, "starting_stack": 1_000_000,
                                     "blind_schedule": [[50, 100]]})
    for label, opts in (("default rules", options), ("deep stacks", deep)):
        t0 = time.perf_counter()
        result = run_tournament(bots, args.seed, args.bot_seed, opts)
        seconds = time.perf_counter() - t0
        print(f"house samples, {args.seats} seats, {args.hands}-hand cap, {label}: {seconds:.2f} s for "
              f"{len(result.hands)} hands, {len(result.decisions)} decisions "
              f"({seconds / max(1, len(result.decisions)) * 1000:.2f} ms per decision, worker start-up included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
