"""Runner overhead of the QuickJS worker host with a trivial bot.

    python bench/bench_host.py [--decisions N] [--workers W]

Per ``act``: the caller's wall time around ``Worker.act`` (serialising the state,
the pipe both ways, parsing the state in JS, the bot, encoding and decoding the
answer), the Outcome's ``wall_ms`` (write to read), and the child's CPU time.
The state is the contract's complete first-decision example. Start-up: spawning
the child up to its ready line (Python and QuickJS imports), then ``init`` (the
environment and a one-line bot), over W workers.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.host.worker import Worker  # noqa: E402

BOT = "module.exports = function act(state) { return {type: state.canCheck ? 'check' : 'fold'}; };"
SCHEDULE = [[50, 100], [100, 200], [150, 300], [200, 400], [300, 600], [400, 800],
            [600, 1200], [800, 1600], [1000, 2000], [1500, 3000]]
STATE = {
    "handNumber": 1, "street": "preflop",
    "you": {"id": "s1", "seat": 0, "cards": ["Ah", "Kd"], "stack": 10000, "bet": 0, "total": 0},
    "board": [],
    "pots": [{"amount": 100, "eligible": ["s2", "s3"]}, {"amount": 50, "eligible": ["s3"]}],
    "toCall": 100, "minRaiseTo": 200, "maxRaiseTo": 10000, "canCheck": False, "canAllIn": True,
    "currentBet": 100, "lastFullRaise": 100, "blinds": [50, 100],
    "buttonSeat": 0, "smallBlindSeat": 1, "bigBlindSeat": 2,
    "seats": [
        {"id": f"s{i + 1}", "name": name, "seat": i, "stack": stack, "bet": bet, "total": bet,
         "folded": False, "allIn": False, "out": False}
        for i, (name, stack, bet) in enumerate([("Example", 10000, 0), ("Sample Caller", 9950, 50),
                                                 ("Sample Tight", 9900, 100)])
    ],
    "actions": [], "history": [],
    "tournament": {"startingStack": 10000, "maxHands": 300, "handsPerLevel": 12, "level": 0,
                   "blindSchedule": SCHEDULE},
    "timeLimitMs": 1000,
}


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):7.3f} ms   p95 {p95:7.3f} ms   max {ordered[-1]:7.3f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=10)
    args = parser.parse_args()

    spawn, init = [], []
    for _ in range(args.workers):
        with Worker() as w:
            out = w.start(None, BOT, 1)
            if not out.ok:
                print(f"start failed: {out}", file=sys.stderr)
                return 1
            spawn.append(w.spawn_ms)
            init.append(out.wall_ms)

    outer, inner, cpu = [], [], []
    with Worker() as w:
        w.start(None, BOT, 1)
        for _ in range(200):  # warm-up
            w.act(STATE)
        for _ in range(args.decisions):
            t0 = time.perf_counter()
            out = w.act(STATE)
            outer.append((time.perf_counter() - t0) * 1000)
            if out.answer != {"type": "fold", "amount": out.answer["amount"]}:
                print(f"unexpected answer: {out}", file=sys.stderr)
                return 1
            inner.append(out.wall_ms)
            cpu.append(out.cpu_ms)

    print(f"worker start-up over {args.workers} workers")
    print(f"  spawn to ready      {summary(spawn)}")
    print(f"  init (trivial bot)  {summary(init)}")
    print(f"act round trip over {args.decisions} decisions (the contract's example state)")
    print(f"  Worker.act() call   {summary(outer)}")
    print(f"  Outcome.wall_ms     {summary(inner)}")
    print(f"  child cpu_ms        {summary(cpu)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
