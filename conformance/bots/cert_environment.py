"""Stages 2, 4 and 5, what the worker saw: the load outcome, the contract violations its guards
recorded, and the globals and built-ins the bot changed (R35)."""
from __future__ import annotations

from conformance.harness.runner import answer_json
from conformance.host.worker import Outcome, thrown_text
from .cert_battery import BatteryRun
from .cert_report import CertOptions, CertReport


def report_load(report: CertReport, start: Outcome, options: CertOptions) -> None:
    report.load = {"outcome": start.kind, "wallMs": round(start.wall_ms, 3), "cpuMs": start.cpu_ms,
                   "error": answer_json(start.error), "exportName": None, "shape": None}
    if start.ok:
        report.load["exportName"] = start.answer["name"]
        report.load["shape"] = start.answer["shape"]
        if start.wall_ms > options.init_ms / 2:
            report.warning("timing", "slow-init", f"loading took {start.wall_ms:.0f} ms in {options.host_label}, "
                           f"more than half the {options.init_ms:g} ms init deadline")
        return
    what = {"syntax": "the script does not parse", "throw": "running the script threw",
            "export-shape": "the script does not export a bot", "late": "the script did not load by the deadline",
            "memory": "the script ran out of memory while loading",
            "crash": "the worker crashed while loading"}.get(start.kind, f"loading failed ({start.kind})")
    detail = thrown_text(start.error) if start.kind == "throw" else start.error.get("message")
    report.error("load", start.kind, f"{what}: {detail}")


def report_violations(report: CertReport, violations: list[dict], dropped: int = 0) -> None:
    by_kind: dict[str, list[dict]] = {}
    for v in violations:
        if v["kind"] in ("global", "intrinsic"):  # reported by report_environment
            continue
        by_kind.setdefault(v["kind"], []).append(v)
    for kind, vs in by_kind.items():
        where = "loading" if vs[0]["where"] == "load" else f"deciding state {vs[0]['where']}"
        count = f"{len(vs)} or more" if dropped else str(len(vs))  # only MAX_SEAT_VIOLATIONS are kept
        report.error("violation", kind, f"{count} contract violation(s) while running, first while {where}: "
                     f"{vs[0]['detail']} (recorded even when the bot catches the error)",
                     vs[0]["where"])


def report_environment(report: CertReport, run: BatteryRun) -> None:
    """R35: the worker watches its globals by identity, and the standard built-ins and their prototypes
    by descriptor, after loading and after every decision, and records each change once, as a
    violation of kind ``global`` or ``intrinsic`` naming the property."""
    changed = {v["global"]: v for v in run.violations if v["kind"] == "global"}
    intrinsics: dict[str, dict] = {}
    for v in run.violations:
        if v["kind"] == "intrinsic":
            intrinsics.setdefault(v["intrinsic"], v)
    report.environment = {"checked": list(run.watched), "changed": sorted(changed),
                          "intrinsicsChanged": sorted(intrinsics)}
    for name, v in sorted(changed.items()):
        where = "loading" if v["where"] == "load" else f"deciding state {v['where']}"
        report.error("environment", name, f"`{name}` was overwritten while {where}: worker globals must not "
                     "be overwritten (checked by identity, R35)", v["where"])
    for name, v in sorted(intrinsics.items()):
        where = "loading" if v["where"] == "load" else f"deciding state {v['where']}"
        detail = v["detail"].removesuffix(" (the standard built-ins must not be changed)")
        report.error("environment", name, f"{detail}, seen after {where}: the standard built-ins and their "
                     "prototypes must not be changed (compared by descriptor, R35)", v["where"])
