"""The table of implementations: each one certified on the profiles it declares, and the table
written as JSON, Markdown (docs/implementations.md) and HTML.

Deterministic by construction: the golden vectors only (no fresh tests, whose seed depends on the
engine's bytes) and a fixed number of fuzz games of a fixed seed (no time budget); no timings.
The same implementations give the same bytes, so the committed Markdown can be checked fresh.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from html import escape

from reference.rulings import RULINGS

from conformance.judge.causes import first_cause
from conformance.judge.cert_profiles import CERTIFIED, NOT_IMPLEMENTED, PROFILES, profile_of
from conformance.judge.engine_cert import certify, load_tests
from conformance.judge.families import FAMILIES
from conformance.judge.fuzz import FUZZ_FAMILY, FUZZ_GROUP, FuzzPlan
from conformance.judge.hand_fuzz import GROUP as HAND_FUZZ_GROUP
from conformance.judge.comparison import ORDER_FREE
from conformance.judge.verdicts import Case, Report

from .findings import Finding, described, match
from .findings import of as explanations_of
from .registry import REGISTRY, Implementation

FUZZ_SEED = 15  # the fuzz games of every implementation: games 0 .. N-1 of this seed
FUZZ_GAMES = 20
TIMEOUT_MS = 10_000
COUNTS = ("passed", "failed", "divergent", "skipped")
# Rulings an engine's outcomes can show (those of vector families an engine runs).
ENGINE_RULINGS = [rid for rid, r in RULINGS.items() if set(r.families) & set(FAMILIES)]
OURS, NEVER = "ours", "—"
MESSAGE_SHOWN = 300
_FUZZ_FAMILIES = {FUZZ_GROUP: FUZZ_FAMILY, HAND_FUZZ_GROUP: "hand"}  # a fuzz row's vector family


def certify_all(implementations: Iterable[Implementation] = REGISTRY, *, fuzz_games: int = FUZZ_GAMES,
                say: Callable[[str], None] = lambda line: None) -> dict:
    """``{"implementations": [entry, ...]}`` for every implementation, in the registry's order. They
    are certified side by side (each engine is its own process; the judging shares this one)."""
    implementations = list(implementations)
    tests = load_tests(FAMILIES)
    for implementation in implementations:
        if implementation.prepare is not None and (note := implementation.prepare()):
            say(f"{implementation.name}: {note}")

    def one(implementation: Implementation) -> Report:
        return certify(implementation.driver(TIMEOUT_MS), tests, {"implementation": implementation.name},
                       fuzz_plan=FuzzPlan(FUZZ_SEED, 0.0, fuzz_games), title="holdem-cert implementations")

    entries = []
    with ThreadPoolExecutor(max_workers=max(1, len(implementations))) as pool:
        for implementation, report in zip(implementations, pool.map(one, implementations)):
            entries.append(entry(implementation, report, tests))
            say(f"{implementation.name}: {report.verdict}")
    return {"implementations": entries}


def entry(implementation: Implementation, report: Report, tests: dict[str, list[dict]]) -> dict:
    """One implementation's row: version, language, the verdict and counts per profile, the option
    it follows per ruling and its findings."""
    version = implementation.version() if implementation.version else report.subject.get("version")
    matrix = report.profiles or {}
    profiles = {p: {"verdict": matrix[p]["verdict"], **{k: matrix[p][k] for k in COUNTS}} if p in matrix
                else {"verdict": NOT_IMPLEMENTED, **dict.fromkeys(COUNTS, 0)} for p in PROFILES}
    if any(c.id == "smoke.load" and c.status == "failed" for c in report.smoke):
        profiles = {p: {**row, "verdict": "not certified"} for p, row in profiles.items()}
    return {"name": implementation.name, "version": version or "unknown", "language": implementation.language,
            "profiles": profiles, "rulings": ruling_options(report.cases, tests),
            "findings": findings(report.smoke + report.cases, explanations_of(implementation.name))}


def ruling_options(cases: list[Case], tests: dict[str, list[dict]]) -> dict[str, str]:
    """Per ruling: "alternative X" when a divergence proved the engine follows option X (or another
    order, for a list whose order is the ruling; another option, where the reference plays none); "X (ruled out by the text: fails)" when a failure
    is reproduced under an option the contract's text rules out), "ours" when a vector resting on it, or of a family
    whose outcomes it governs (reference/rulings.py), passed; "—" when no such vector was judged."""
    rests_on = {t["id"]: t["rulings"] for family in tests.values() for t in family}
    governs = {rid: set(RULINGS[rid].families) for rid in ENGINE_RULINGS}
    proven: dict[str, set[str]] = {}
    ruled: dict[str, set[str]] = {}  # options the text rules out that reproduce a failure (a diagnosis)
    agreed: set[str] = set()
    for c in cases:
        if c.status == "failed" and c.diagnosis:  # an option the text rules out (issue #24)
            for rid, option in c.diagnosis.items():
                if option not in RULINGS[rid].options_for():
                    ruled.setdefault(rid, set()).add(option)
        if c.status == "divergent":
            for rid in c.rulings:
                option = (c.alternative or {}).get(rid)
                # No option replayed: another order where the ruling orders a list (R5, R14), else
                # an outcome no option of the reference plays (e.g. R38: the input accepted).
                proven.setdefault(rid, set()).add(option or ("another order" if rid in ORDER_FREE.values() else "another option"))
        elif c.status == "passed":
            family = _FUZZ_FAMILIES.get(c.group, c.group)
            agreed.update(rests_on.get(c.id, ()))
            agreed.update(rid for rid, families in governs.items() if family in families)
    def shown(rid: str) -> str:
        parts = [f"alternative {', '.join(sorted(proven[rid]))}"] if rid in proven else []
        parts += [f"{', '.join(sorted(ruled[rid]))} (ruled out by the text: fails)"] if rid in ruled else []
        return "; ".join(parts) or (OURS if rid in agreed else NEVER)

    return {rid: shown(rid) for rid in ENGINE_RULINGS}


def findings(cases: list[Case], explanations: list[Finding] = ()) -> list[dict]:
    """The failures grouped in the report's order by the hand-written finding that explains them
    (``explanations``, findings.toml; proven divergences too), else by family and root cause (the
    clause, field and kind of difference of the first failure, conformance.judge.causes): how many, and the first one's id, message and first divergence. Then the findings that
    are not judged (kind ``adapter``: what the adapter reshapes)."""
    explanations = list(explanations)
    groups: dict[tuple, dict] = {}
    for c in cases:
        if c.status != "failed" and not (c.status == "divergent" and explanations):
            continue
        item = {"id": c.id, "breaks": c.breaks, "clause": c.clauses, "message": c.message, "diff": c.diff,
                "rulings": c.rulings}
        why = match(explanations, item, divergent=c.status == "divergent") if explanations else None
        if why is None and c.status == "divergent":
            continue  # shown in the rulings table
        family = _FUZZ_FAMILIES.get(c.group, c.group)
        cause = None if why else first_cause(c)  # an unexplained failure: by its root cause (issue #23)
        key = (c.group, why.id, True) if why else (c.group, cause.key(), False)
        if key not in groups:
            groups[key] = {"profile": profile_of(family) or c.group, "family": c.group, "clause": c.breaks, "count": 0,
                           "id": c.id, "message": _cut(c.message), **({"first": c.first} if c.first else {}),
                           **({"finding": described(why)} if why else
                              {"cause": {"field": cause.field, "kind": cause.kind}})}
        groups[key]["count"] += 1
    unjudged = [{"profile": None, "family": None, "clause": None, "count": 0, "id": None, "message": "",
                 "finding": described(f)} for f in explanations if f.kind == "adapter"]
    return list(groups.values()) + unjudged


def _cut(text: str) -> str:
    return text if len(text) <= MESSAGE_SHOWN else text[:MESSAGE_SHOWN] + " …"


def to_json(table: dict) -> str:
    return json.dumps(table, indent=2, ensure_ascii=False) + "\n"


# ---- Markdown ------------------------------------------------------------------------------------

def _cell(row: dict) -> str:
    if row["verdict"] == NOT_IMPLEMENTED:
        return "not implemented"
    counts = ", ".join(f"{row[k]} {k}" for k in COUNTS if row[k] or k == "passed")
    verdict = row["verdict"] if row["verdict"] == CERTIFIED else f"**{row['verdict']}**"
    return f"{verdict} ({counts})"


def _md(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def profile_table(table: dict) -> str:
    """The profiles table alone (the README's short version)."""
    lines = ["| implementation | version | language | " + " | ".join(PROFILES) + " |",
             "|---|---|---|" + "---|" * len(PROFILES)]
    for e in table["implementations"]:
        lines.append(f"| {_md(e['name'])} | {_md(e['version'])} | {_md(e['language'])} | "
                     + " | ".join(_md(_cell(e["profiles"][p])) for p in PROFILES) + " |")
    return "\n".join(lines) + "\n"


README_BEGIN = "<!-- implementations: begin (holdem-cert implementations --readme README.md) -->\n"
README_END = "<!-- implementations: end -->"


def with_readme_table(readme: str, table: dict) -> str:
    """``readme`` with the profile table between its markers replaced by ``table``'s (ValueError
    when the markers are missing)."""
    start, end = readme.find(README_BEGIN), readme.find(README_END)
    if start < 0 or end < start:
        raise ValueError(f"the README has no '{README_BEGIN.strip()}' ... '{README_END}' block")
    return readme[:start + len(README_BEGIN)] + profile_table(table) + readme[end:]


def to_markdown(table: dict, *, fuzz_games: int = FUZZ_GAMES) -> str:
    impls = table["implementations"]
    out = ["# Implementations", "",
           "Generated by `holdem-cert implementations --markdown docs/implementations.md --readme README.md`; do not edit "
           "(`tests/test_implementations.py` checks that it is fresh). Each implementation is certified on the "
           "conformance profiles it declares (docs/INTERPRETING.md, Profiles) against every golden vector and "
           f"{fuzz_games} fixed fuzz games (seed {FUZZ_SEED}; for the hand profile, {fuzz_games} random hands), judged "
           "step by step; a profile it does not declare "
           "is \"not implemented\".", "", "## Profiles", "", profile_table(table).rstrip("\n"), "",
           "## Rulings", "",
           "The option each implementation follows where the contract is silent (docs/rulings.md): \"ours\" when "
           "it agrees with the reference on the vectors the ruling governs, \"alternative X\" when the reference "
           "under option X reproduced it (a proven divergence), \"—\" when none of those vectors was judged.", "",
           "| ruling | " + " | ".join(_md(e["name"]) for e in impls) + " |",
           "|---|" + "---|" * len(impls)]
    for rid in ENGINE_RULINGS:
        out.append(f"| {rid} {_md(RULINGS[rid].title)} | " + " | ".join(_md(e["rulings"][rid]) for e in impls) + " |")
    out += ["", "## Findings", "",
            "Each implementation's failures (and proven divergences) grouped under the hand-written finding that "
            "explains them (`conformance/implementations/findings.toml`): what the engine does, whether it is a bug "
            "there, a ruling-level choice the reference reproduces under a documented alternative, or the engine's "
            "own rule that the contract's text rules out, its first divergence and a reproduction in the engine's own "
            "API; a failure no finding explains is listed by family and clause. docs/adapters.md summarises them.", ""]
    for e in impls:
        out += [f"### {e['name']}", ""]
        if not e["findings"]:
            out += ["No findings: every judged vector passed or diverged on a documented ruling.", ""]
            continue
        for f in e["findings"]:
            out += _explained(f) if "finding" in f else [
                f"- **{f['family']}**, {f['clause'] or 'no clause named'}{_cause_words(f)}: {f['count']} vector"
                f"{'s' if f['count'] > 1 else ''}, first `{f['id']}` — {_md(f['message'])}"]
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _cause_words(f: dict) -> str:
    """An unexplained finding's root cause beyond its clause: the field and the kind of difference."""
    cause = f.get("cause") or {}
    words = ": ".join(_md(x) for x in (cause.get("field"), cause.get("kind")) if x)
    return f" ({words})" if words else ""


def _explained(f: dict) -> list[str]:
    """A finding with its hand-written explanation (findings.toml): what the engine does, bug or
    not, the clause or ruling, its first divergence and a reproduction in the engine's own API."""
    why = f["finding"]
    kind = {"bug": "a bug", "ruling": f"a ruling-level choice, divergent on {why['ruling']}",
            "convention": "its own rule, which the contract's text rules out",
            "adapter": "reshaped by the adapter, not judged"}[why["kind"]]
    lines = [f"- **{_md(why['title'])}** ({kind}" + (f"; {f['count']} vector{'s' * (f['count'] != 1)}, first "
                                                     f"`{f['id']}`" if f["id"] else "") + f"). {_md(why['what'])}"]
    if f["id"]:
        lines.append(f"  First divergence: {_md(f['message'])}")
    if why["upstream"]:
        lines.append(f"  Upstream: {why['upstream']}")
    return lines + ["", "  ```", *[f"  {line}" for line in why["reproduction"].splitlines()], "  ```"]


# ---- HTML ----------------------------------------------------------------------------------------

CSS = ("body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}"
       "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}"
       ".certified{color:#0a0}.not-certified{color:#c00;font-weight:bold}.not-implemented{color:#888}")


def to_html(table: dict) -> str:
    impls = table["implementations"]
    head = "".join(f"<th>{escape(p)}</th>" for p in PROFILES)
    rows = []
    for e in impls:
        cells = []
        for p in PROFILES:
            row = e["profiles"][p]
            counts = ", ".join(f"{row[k]} {k}" for k in COUNTS if row[k])
            cells.append(f"<td class='{row['verdict'].replace(' ', '-')}'>{escape(row['verdict'])}"
                         f"{f'<br><small>{escape(counts)}</small>' if counts else ''}</td>")
        rows.append(f"<tr><td>{escape(e['name'])}</td><td>{escape(e['version'])}</td><td>{escape(e['language'])}</td>"
                    + "".join(cells) + "</tr>")
    rulings = "".join(f"<tr><td>{rid} {escape(RULINGS[rid].title)}</td>"
                      + "".join(f"<td>{escape(e['rulings'][rid])}</td>" for e in impls) + "</tr>" for rid in ENGINE_RULINGS)
    found = "".join(f"<h3>{escape(e['name'])}</h3><ul>" + ("".join(
        f"<li><b>{escape(f['finding']['title'] if 'finding' in f else str(f['family']))}</b>"
        f"{' (' + escape(f['finding']['kind']) + ')' if 'finding' in f else ''}, "
        f"{escape(f['clause'] or 'no clause named')}: "
        f"{f['count']} vector(s), first <code>{escape(str(f['id']))}</code> — {escape(f['message'])}"
        f"{'<br>' + escape(f['finding']['what']) if 'finding' in f else ''}</li>" for f in e["findings"])
        or "<li>No findings.</li>") + "</ul>" for e in impls)
    return ("<!doctype html><html><head><meta charset='utf-8'><title>holdem-conformance: implementations</title>"
            f"<style>{CSS}</style></head><body><h1>Implementations</h1>"
            f"<table><tr><th>implementation</th><th>version</th><th>language</th>{head}</tr>{''.join(rows)}</table>"
            "<h2>Rulings</h2><table><tr><th>ruling</th>" + "".join(f"<th>{escape(e['name'])}</th>" for e in impls)
            + f"</tr>{rulings}</table><h2>Findings</h2>{found}</body></html>\n")
