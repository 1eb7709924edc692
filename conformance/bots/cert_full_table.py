"""Stage 7, the full-length table (:mod:`conformance.bots.full_table`): nine copies of the bot, its
errors counted as their re-timing says, decision times per 50 hands."""
from __future__ import annotations

from . import bot_timing, bounds, full_table
from .cert_cuts import report_table_cut
from .cert_report import CertOptions, CertReport, Progress
from .cert_timing import late_verdict


def play_full_table(source: str, options: CertOptions, progress: Progress | None, clock: bounds.Clock,
                    cpu: bounds.CpuClock):
    def tick(record) -> None:
        if progress is not None:
            progress("full-length table of 9", record.index + 1, None)

    return full_table.play(source, options.bot_seed, options.init_ms, options.decision_ms, options.memory_limit,
                           options.full_table_hands, tick, max_decisions=options.full_table_decisions,
                           out_of_time=lambda: clock.past("tables"), cpu_meter=cpu.add, bot_host=options.host)


def report_full_table(report: CertReport, options: CertOptions, t: dict, result, retimer: bot_timing.Retimer) -> None:
    """A kill at the deadline, and the fallbacks of the copy killed, count as its re-timing says (R33, as
    at the smoke tables): an error when late beyond doubt, a warning at risk, nothing when ordinary."""
    report.full_table = t
    if result.cut is not None:
        report_table_cut(report, "full-length table of 9", result, options.full_table_hands, "full table",
                         options.full_table_decisions)
    late = t["late"] = late_verdict(result, None, "full-table", retimer)
    killed = {d.seat for d in result.decisions if d.error == "late"}
    for code, count in sorted(t["errors"].items()):
        category = code.partition("/")[0]
        mine = [d for d in result.decisions if f"{d.error}/{d.code}" == code]
        follows = category == "late" or (code == "missing/terminated" and all(d.seat in killed for d in mine))
        verdict = late["verdict"] if follows and late is not None else "late"
        if verdict == "ok":
            continue
        add = report.error if verdict == "late" else report.warning
        first = mine[0]
        add("full-table", category, f"full-length table of 9: {count} decisions {code}, first at hand "
            f"{first.hand_number}: {first.detail}"
            + (" (at risk: re-timing found no certain lateness)" if verdict == "at-risk" else ""),
            f"full table, hand {first.hand_number}")
    for r in t["timingByHands"]:
        if r["wallP95"] is not None and r["wallP95"] > options.decision_ms / 2:
            report.warning("timing", "slow-late", f"full-length table of 9, hands {r['hands']}: p95 {r['wallP95']:.0f} ms "
                           f"in {options.host_label}, more than half the {options.decision_ms:g} ms deadline")
