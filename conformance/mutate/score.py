"""Reading StrykerJS's report (the mutation-testing-report schema): the score, the survivors.

The score is mutation-testing-elements' "mutation score": the mutants detected (Killed, Timeout) over
the valid ones (detected, Survived, NoCoverage); Ignored, RuntimeError and CompileError mutants are
not counted (docs/INTERPRETING.md, Mutation score).
"""
from __future__ import annotations

from collections import Counter

STATUSES = ("Killed", "Survived", "NoCoverage", "Timeout", "RuntimeError", "CompileError", "Ignored")
DETECTED = ("Killed", "Timeout")
UNDETECTED = ("Survived", "NoCoverage")
DIVERGED = "divergent on"  # a kill's reason (after its vector's id) when the mutant only made vectors divergent


def normalized(report: dict, root: str) -> dict:
    """Stryker's report made the same for the same run: its mutants in id order (Stryker lists them as
    its runners finish), ``projectRoot`` the engine's directory (not Stryker's scratch directory), and
    each test named by its vector id (Stryker numbers them; the session names each test by its vector's
    id): ``killedBy`` lists the vectors that killed a mutant, ``coveredBy`` those reaching it."""
    names = {t["id"]: t["name"] for f in (report.get("testFiles") or {}).values() for t in f["tests"]}
    for f in report["files"].values():
        f["mutants"].sort(key=lambda m: int(m["id"]) if str(m["id"]).isdigit() else 0)
        for m in f["mutants"]:
            for key in ("killedBy", "coveredBy"):
                if key in m:
                    m[key] = [names.get(t, t) for t in m[key]]
    for f in (report.get("testFiles") or {}).values():
        for t in f["tests"]:
            t["id"] = t["name"]
    report["projectRoot"] = root
    return report


def mutants(report: dict) -> list[tuple[str, dict]]:
    """(file name, mutant) of every mutant, in file then line order."""
    return sorted(((name, m) for name, f in report["files"].items() for m in f["mutants"]),
                  key=lambda item: (item[0], item[1]["location"]["start"]["line"], item[1]["location"]["start"]["column"],
                                    int(item[1]["id"]) if str(item[1]["id"]).isdigit() else 0))


def counts(report: dict) -> Counter:
    return Counter(m["status"] for _, m in mutants(report))


def score(tally: Counter) -> float | None:
    """Detected over valid mutants, in percent; None when no mutant is valid."""
    valid = sum(tally[s] for s in DETECTED + UNDETECTED)
    return None if valid == 0 else 100.0 * sum(tally[s] for s in DETECTED) / valid


def survivors(report: dict) -> list[tuple[str, dict]]:
    """The mutants no test detected (Survived, NoCoverage)."""
    return [(name, m) for name, m in mutants(report) if m["status"] in UNDETECTED]


def summary_lines(report: dict) -> list[str]:
    """The terminal's account: counts, the score, each survivor with its line and replacement."""
    tally = counts(report)
    value = score(tally)
    by_divergence = sum(1 for _, m in mutants(report)
                        if m["status"] == "Killed" and str(m.get("statusReason", "")).split(": ", 1)[-1].startswith(DIVERGED))
    lines = [", ".join(f"{tally[s]} {s}" + (f" ({by_divergence} of them only as a proven ruling divergence)"
                                             if s == "Killed" and by_divergence else "")
                       for s in STATUSES if tally[s]) or "no mutants",
             "mutation score: " + ("n/a (no valid mutant)" if value is None else f"{value:.2f}% "
                                   f"({sum(tally[s] for s in DETECTED)} detected of "
                                   f"{sum(tally[s] for s in DETECTED + UNDETECTED)} valid)")]
    left = survivors(report)
    if left:
        lines.append(f"survivors ({len(left)}):")
        for name, m in left:
            start = m["location"]["start"]
            replacement = " ".join(str(m.get("replacement", "")).split())
            if len(replacement) > 80:
                replacement = replacement[:79] + "\u2026"
            lines.append(f"  {name}:{start['line']}:{start['column']} {m['mutatorName']} -> {replacement}"
                         + ("  (no test reaches it)" if m["status"] == "NoCoverage" else ""))
    return lines
