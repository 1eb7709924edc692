"""Time of ``holdem-cert bot`` with the stratified battery against the battery before it.

    python bench/bench_bot_cert.py [--bot bots/equity-bot.js] [--repeats 3] [--no-node]

Side by side, alternating, median of the repeats: the battery before issue #18 (vectors and
300 random states, no kind states, no node timing) and the current default (vectors, 200
random states, at least 20 states of each decision kind, node timing when installed), both
with the default smoke tables. Prints wall time and CPU time of this process and its children
(the QuickJS workers and node), and the ratios.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.bots.bot_cert import CertOptions, certify_file  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def measure(bot: Path, options: CertOptions) -> tuple[float, float]:
    def cpu() -> float:
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    wall0, cpu0 = time.perf_counter(), cpu()
    report = certify_file(bot, options)
    assert report.battery is not None, report.reasons
    return time.perf_counter() - wall0, cpu() - cpu0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", type=Path, default=ROOT / "bots" / "equity-bot.js")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-node", dest="node", action="store_false")
    args = parser.parse_args()
    variants = {"before": CertOptions(generated_states=300, kind_states=0, node=False),
                "stratified": CertOptions(node=args.node)}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    for _ in range(args.repeats):
        for name, options in variants.items():
            times[name].append(measure(args.bot, options))
    med = {name: (statistics.median(w for w, _ in ts), statistics.median(c for _, c in ts))
           for name, ts in times.items()}
    for name, (wall, cpu) in med.items():
        print(f"{name:11s} wall {wall:7.2f} s   cpu {cpu:7.2f} s   (median of {args.repeats})")
    (bw, bc), (sw, sc) = med["before"], med["stratified"]
    print(f"ratio       wall {sw / bw:7.2f}     cpu {sc / bc:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
