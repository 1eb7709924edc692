"""Stage 7, the smoke tables: the bot in seat 0 against the house samples at 2, 6 and 9 seats, its
errors per category, the state-isolation check and its play-style profile."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from conformance.harness.runner import BotSpec, RunnerOptions, replay_hashes, run_tournament, timing_summary
from . import bot_timing, bounds
from .cert_cuts import report_table_cut
from .cert_report import SMOKE_DECK_SEEDS, CertOptions, CertReport, Progress, codes_text
from .cert_timing import late_verdict
from .profile import Profile, profile_hands

# The house samples that fill the smoke tables, in seat order after the bot.
SMOKE_OPPONENTS = ("sample-caller", "sample-tight", "equity-bot", "check-fold")


def house_bots(path: Path) -> dict[str, BotSpec]:
    data = json.loads(path.read_text(encoding="utf-8"))
    root = path.parent
    return {e["id"]: BotSpec(e["id"], (root / e["file"]).read_text(encoding="utf-8"), e["name"])
            for e in data["bots"] if e["id"] in SMOKE_OPPONENTS}


def play_smoke_table(n: int, source: str, name: str | None, options: CertOptions, progress: Progress | None,
                     clock: bounds.Clock, cpu: bounds.CpuClock):
    """The smoke table of ``n`` seats (the bot in seat 0), until the tables' share of ``clock``; every
    seat's CPU time counts on ``cpu`` (the house samples' too: the certification's work). Gives the
    bots, the tournament and its state-isolation check (the replay's first mismatch or None), which
    runs here, in the table's stream, beside the other tables rather than after them all."""
    house = house_bots(options.house_roster)
    missing = [i for i in SMOKE_OPPONENTS if i not in house]
    if missing:
        raise OSError(f"{options.house_roster}: the house samples {', '.join(missing)} are missing")
    candidate = BotSpec("candidate", source, name or "Candidate")
    runner_options = RunnerOptions(init_ms=options.init_ms, decision_ms=options.decision_ms,
                                   tournament={"max_hands": options.smoke_max_hands},
                                   memory_limit=options.memory_limit, bot_host=options.host)
    bots = [candidate] + [house[SMOKE_OPPONENTS[k % len(SMOKE_OPPONENTS)]] for k in range(n - 1)]

    def tick(record) -> None:
        if progress is not None:
            progress(f"table of {n}", record.index + 1, None)

    result = run_tournament(bots, SMOKE_DECK_SEEDS[n], options.bot_seed, runner_options, tick,
                            stop=lambda record: clock.past("tables"), cpu_meter=cpu.add)
    return bots, result, replay_hashes(result)


def report_tournaments(report: CertReport, options: CertOptions, played: dict, retimer: bot_timing.Retimer) -> None:
    """A smoke decision killed at the deadline is re-timed like a battery state (its state comes
    from replaying the table): late beyond doubt (here or in the battery) is an error, at risk a
    warning, and a kill the re-timing finds ordinary (a loaded machine) no reason at all."""
    if not options.smoke_seats:
        return
    total = Profile()
    for n in options.smoke_seats:
        bots, result, mismatch = played[n]
        seat = result.seats[0]
        profile = profile_hands(result.hands).get("s1", Profile())
        total = total + profile
        report.tournaments.append({
            "seats": n, "deckSeed": SMOKE_DECK_SEEDS[n], "botSeed": options.bot_seed,
            "bots": [b.id for b in bots], "hands": len(result.hands), "decisions": len(result.decisions),
            "standings": result.standings,
            "errors": {s.id: s.errors for s in result.seats},
            "terminated": seat.terminated,
            "timing": timing_summary(seat.wall, seat.cpu),
            "isolation": {"checked": len(result.decisions), "firstMismatch": mismatch},
            "profile": profile.to_json(),
            "digest": result.digest(),
            "cut": result.cut,
        })
        if result.cut is not None:
            report_table_cut(report, f"table of {n}", result, options.smoke_max_hands, f"table {n}")
        late = late_verdict(result, 0, f"table-{n}", retimer)
        report.tournaments[-1]["late"] = late
        for category in seat.errors:
            mine = [d for d in result.decisions if d.seat == 0 and d.error == category]
            # The kill at the deadline and the fallbacks after it count as its re-timing says.
            follows = category == "late" or (category == "missing" and late is not None
                                             and all(d.code == "terminated" for d in mine))
            verdict = late["verdict"] if follows and late is not None else "late"
            if mine and verdict != "ok":
                add = report.error if verdict == "late" else report.warning
                add("tournament", category, f"table of {n}: {len(mine)} of {seat.decisions} decisions "
                    f"{category} ({codes_text(Counter(d.code for d in mine))}), first: {mine[0].detail}"
                    + (" (at risk: re-timing found no certain lateness)" if verdict == "at-risk" else ""),
                    f"table {n}, decision {mine[0].index}")
        for v in seat.violations:
            if not any(r.category == "violation" and r.code == v["kind"] for r in report.reasons):
                report.error("violation", v["kind"], f"table of {n}: {v['detail']}", f"table {n}")
        for other in result.seats[1:]:
            if other.error_count:
                report.warning("tournament", "house-errors", f"table of {n}: house sample {other.bot} in seat "
                               f"{other.seat} had {other.error_count} errors (a loaded machine?)", f"table {n}")
        if mismatch is not None:
            report.error("isolation", "state-changed", f"table of {n}: replaying the applied actions did not "
                         f"reproduce the state hashed before decision {mismatch} was sent", f"table {n}")
    report.profile = total.to_json()
