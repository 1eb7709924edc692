"""Stage 3, the battery: one pass of the battery's states in one worker (:func:`run_battery`), its
answers judged by the reference's return-value rules and reported by category
(:func:`report_battery`); one state asked again (``--state``) and a failing state as a file."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from reference.actions import js_text
from reference.errors import OptionError

from conformance.harness.runner import answer_json, bundled_engine, judge, legal_from_state, timing_summary
from conformance.host.bounds import extend_bounded
from conformance.host.worker import Outcome
from . import bounds
from .battery_states import FEATURES, BatteryState, state_features
from .cert_report import CertOptions, CertReport, Progress, codes_text
from .decision_kinds import KINDS, decision_kinds, kind_counts


@dataclass
class BatteryRun:
    """One pass of the battery in one worker."""

    start: Outcome
    answers: list[dict] = field(default_factory=list)  # per state: id, outcome, answer, error, code, detail
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    violations: list[dict] = field(default_factory=list)  # with "where": "load" or a state id
    watched: tuple = ()  # the worker's watched globals (R35)
    violations_dropped: int = 0  # past MAX_SEAT_VIOLATIONS: counted, not kept
    cut: str | None = None  # the state after which the worker was gone
    restarts: list[str] = field(default_factory=list)  # late states after which a fresh worker went on
    starts: list[int] = field(default_factory=lambda: [0])  # indices of the states each worker began at
    stopped: dict | None = None  # {reason, at, notRun}: a bound (conformance/bots/bounds.py) ended the pass

    def since(self, k: int) -> int:
        """The index of the first state the worker that answered state ``k`` answered."""
        return max(s for s in self.starts if s <= k)


def run_battery(source: str, engine: str, states: list[BatteryState], options: CertOptions,
                progress: Progress | None, stage: str,
                on_late: "Callable[[int, int], bool] | None" = None, clock: bounds.Clock | None = None,
                cpu_meter: "Callable[[float], None] | None" = None) -> BatteryRun:
    """One pass in one worker. ``on_late(k, since)``: whether ``states[k]``, which the worker was
    killed on, is late beyond doubt (bot_timing; the worker had answered ``states[since:k]``); when
    it is not, a fresh worker goes on with the next state, at most MAX_BATTERY_KILLS times. Past the
    battery's share of ``clock`` the pass stops (conformance/bots/bounds.py); ``cpu_meter`` gets its
    workers' CPU time (the clock's)."""
    worker = options.worker(cpu_meter)
    kills = 0
    try:
        start = worker.start(engine, source, options.bot_seed, init_timeout_ms=options.init_ms)
        run = BatteryRun(start, violations=[dict(v, where="load") for v in start.violations], watched=worker.watched)
        if not start.ok:
            if (start.error or {}).get("source") == "engine":  # ours, not the bot's
                raise OptionError("engine", f"the bundled engine helper failed to load: {start.error['message']}")
            return run
        for k, item in enumerate(states):
            reason = clock.past("battery") if clock is not None else None
            if reason is not None:
                run.stopped = {"reason": reason, "at": item.id, "notRun": len(states) - k}
                break
            out = worker.act(item.state, timeout_ms=options.decision_ms)
            verdict = judge(out, legal_from_state(item.state))
            run.answers.append({"id": item.id, "outcome": out.kind,
                                "answer": answer_json(out.answer) if out.ok else None,
                                "answerText": js_text(out.answer) if out.ok else None,
                                "error": verdict.category, "code": verdict.code, "detail": verdict.detail,
                                "wallMs": round(out.wall_ms, 3),
                                # the bot's own CPU time (the worker's): what the load does not inflate
                                "cpuMs": None if out.cpu_ms is None else round(out.cpu_ms, 3)})
            run.wall.append(out.wall_ms)
            if out.cpu_ms is not None:
                run.cpu.append(out.cpu_ms)
            run.violations_dropped += extend_bounded(run.violations, (dict(v, where=item.id) for v in out.violations))
            if progress is not None:
                progress(stage, k + 1, len(states))
            if worker.dead and out.kind == "late" and on_late is not None and not on_late(k, run.since(k)) \
                    and k + 1 < len(states):
                kills += 1
                if kills >= bounds.MAX_BATTERY_KILLS:
                    run.stopped = {"reason": "kills", "at": states[k + 1].id, "notRun": len(states) - k - 1}
                    run.cut = item.id
                    break
                worker.close()
                worker = options.worker(cpu_meter)
                if worker.start(engine, source, options.bot_seed, init_timeout_ms=options.init_ms).ok:
                    run.restarts.append(item.id)
                    run.starts.append(k + 1)
                    continue
            if worker.dead:
                run.cut = item.id
                break
        return run
    finally:
        worker.close()


def state_file_name(state_id: str) -> str:
    """The file a failing battery state is saved to (``--save-failed``, certify's repro/)."""
    return "".join(c if c.isalnum() or c in ".-_" else "_" for c in state_id) + ".json"


def state_file(category: str, error: dict) -> dict:
    """A battery error's first failing state as a file ``--state FILE`` reruns: the state, the
    bot's answer and why it was refused."""
    return {"id": error["example"], "category": category,
            **{k: error[k] for k in ("codes", "detail", "answer", "answerText", "numbers", "state") if k in error}}


def rerun_state(source: str, state: dict, options: CertOptions, state_id: str = "<state>") -> dict:
    """Load the bot in a fresh worker and ask it this one state: what it answered and why that is
    accepted or not, with the numbers that decide a raise (``holdem-cert bot FILE --state ID``)."""
    with options.worker() as worker:
        start = worker.start(bundled_engine(), source, options.bot_seed, init_timeout_ms=options.init_ms)
        if not start.ok:
            return {"id": state_id, "state": state, "load": start.kind, "error": "load",
                    "detail": answer_json(start.error)}
        out = worker.act(state, timeout_ms=options.decision_ms)
    verdict = judge(out, legal_from_state(state))
    return {"id": state_id, "state": state, "load": "ok", "outcome": out.kind,
            "answer": answer_json(out.answer) if out.ok else None,
            "answerText": js_text(out.answer) if out.ok else None,
            "error": verdict.category, "code": verdict.code, "detail": verdict.detail,
            "numbers": betting_numbers(state), "kinds": [k for k in KINDS if k in decision_kinds(state)],
            "wallMs": round(out.wall_ms, 3)}


def betting_numbers(state: dict) -> str:
    """The fields that decide which answers are legal, in the contract's names and JS words."""
    you = state["you"]
    return (f"you.stack {you['stack']}, you.bet {you['bet']}, toCall {state['toCall']}, currentBet "
            f"{state['currentBet']}, minRaiseTo {js_text(state['minRaiseTo'])}, maxRaiseTo {state['maxRaiseTo']}, "
            f"canCheck {js_text(state['canCheck'])}, canAllIn {js_text(state['canAllIn'])}")


def answered_ids(run: BatteryRun) -> set[str]:
    """Ids of the states the bot actually answered or failed on (not those of a dead worker)."""
    return {a["id"] for a in run.answers if a["outcome"] != "dead"}


def report_battery(report: CertReport, states: list[BatteryState], run: BatteryRun,
                   on_late: Callable[[int, int], bool]) -> None:
    ran = answered_ids(run)
    by_id = {s.id: s.state for s in states}
    index = {s.id: k for k, s in enumerate(states)}
    coverage = Counter(f for s in states if s.id in ran for f in state_features(s.state))
    errors: dict[str, dict] = {}
    for a in run.answers:
        # A kill at the deadline that the re-timing does not confirm is a timing warning (report_timing).
        unconfirmed = a["error"] == "late" and not on_late(index[a["id"]], run.since(index[a["id"]]))
        if a["error"] is not None and not unconfirmed:
            state = by_id[a["id"]]
            e = errors.setdefault(a["error"], {"count": 0, "codes": Counter(), "kinds": Counter(),
                                               "example": a["id"], "detail": a["detail"], "answer": a["answer"],
                                               "answerText": a["answerText"],
                                               "numbers": betting_numbers(state), "state": state, "states": []})
            e["count"] += 1
            e["codes"][a["code"]] += 1
            e["kinds"].update(decision_kinds(state))
            e["states"].append(a["id"])
    for e in errors.values():
        e["codes"] = dict(sorted(e["codes"].items()))
        e["kinds"] = {k: e["kinds"][k] for k in KINDS if e["kinds"][k]}
    not_run = len(states) - len(run.answers)
    report.battery = {
        "states": len(states),
        "answered": len(run.answers),
        "notRun": not_run,
        "terminatedAt": run.cut,
        "stopped": run.stopped,
        "sources": dict(Counter(s.id.split(".")[0] for s in states)),
        "coverage": {f: coverage[f] for f in FEATURES},  # of the states that ran
        "kinds": kind_counts([s.state for s in states]),
        "kindsRan": kind_counts([s.state for s in states if s.id in ran]),
        "errors": errors,
        "timing": timing_summary(run.wall, run.cpu),
        "answers": run.answers,
    }
    for category, e in errors.items():
        gone = f"; the worker was terminated there and the {not_run} later states were not run" if (
            run.cut == e["example"] and not_run) else ""
        answer = "" if e["answer"] is None else f"; it answered {e['answerText']} with {e['numbers']}"
        report.error("decision", category, f"{e['count']} of {len(ran)} states that ran {category} "
                     f"({codes_text(e['codes'])}), first: {e['detail']}{answer}{gone}", e["example"])
