"""The league report for people: a terminal table and a self-contained HTML page (styles and
plots inline, no network) with the ratings and their intervals, and the head-to-head matrix."""
from __future__ import annotations

import json
from html import escape
from pathlib import Path

from conformance.harness.runner import CATEGORIES
from conformance.outfiles import replace_directory
from .html import CSS


def _ci(ci: list | None) -> str:
    return "none (too few sets)" if ci is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def _errors(errors: dict) -> str:
    return ", ".join(f"{errors[c]} {c}" for c in CATEGORIES if errors[c]) or "0"


def print_report(report: dict) -> None:
    print(f"league {report['league'][:12]}: {len(report['bots'])} bots, {len(report['tables'])} tables of "
          f"{report['tableSize']}, {report['played']} of {report['tournaments']} tournaments in {report['sets']} sets; "
          f"seed {report['seed']}, bot seed {report['botSeed']}")
    width = max(len(b) for b in report["bots"])
    print(f"{'#':>2}  {'bot':<{width}}  {'rating':>7}  {'95% CI':<18}  {'mean place':>10}  {'wins':>5}  "
          f"{'p50 ms':>7}  {'p95 ms':>7}  errors")
    for row in report["standings"]:
        t = report["timings"][row["bot"]]
        print(f"{row['rank']:>2}  {row['bot']:<{width}}  {row['rating']:>+7.3f}  {_ci(row['ratingCI95']):<18}  "
              f"{row['meanPlace'] if row['meanPlace'] is not None else '-':>10}  {row['wins']:>5}  "
              f"{_ms(t['wallP50']):>7}  {_ms(t['wallP95']):>7}  {_errors(row['errors'])}")
    print(report["rating"])
    if report["warning"]:
        print(f"warning: {report['warning']}")
    order = [row["bot"] for row in report["standings"]]
    print("head to head (row bot finished ahead of column bot, level counting half):")
    print(" " * width + "".join(f"  {b[:7]:>7}" for b in order))
    h2h = report["headToHead"]
    pos = {b: i for i, b in enumerate(h2h["bots"])}
    for a in order:
        cells = []
        for b in order:
            cell = h2h["matrix"][pos[a]][pos[b]]
            cells.append("-" if cell is None or cell["share"] is None else f"{cell['share']:.0%}")
        print(f"{a:<{width}}" + "".join(f"  {c:>7}" for c in cells))


def ratings_svg(standings: list[dict], width: int = 720) -> str:
    """Each bot's rating as a dot with its interval as a bar, best first, on one axis."""
    row_h, left, right, top = 26, 160, 24, 24
    values = [s["rating"] for s in standings] + [x for s in standings for x in (s["ratingCI95"] or [])]
    lo, hi = min(values + [0.0]), max(values + [0.0])
    span = (hi - lo) or 1.0
    lo, hi = lo - span * 0.05, hi + span * 0.05
    x = lambda v: left + (width - left - right) * (v - lo) / (hi - lo)  # noqa: E731
    height = top + row_h * len(standings) + 24
    parts = [f'<line x1="{x(0):.1f}" y1="{top - 8}" x2="{x(0):.1f}" y2="{height - 20}" stroke="#334155"/>',
             f'<text x="{x(0):.1f}" y="{height - 6}" text-anchor="middle">0</text>',
             f'<text x="{left:.1f}" y="{height - 6}">{lo:+.2f}</text>',
             f'<text x="{width - right:.1f}" y="{height - 6}" text-anchor="end">{hi:+.2f}</text>']
    for i, s in enumerate(standings):
        y = top + row_h * i + row_h / 2
        parts.append(f'<text x="{left - 10}" y="{y + 4:.1f}" text-anchor="end">{escape(s["bot"])}</text>')
        if s["ratingCI95"]:
            a, b = s["ratingCI95"]
            parts.append(f'<line class="ci" x1="{x(a):.1f}" y1="{y:.1f}" x2="{x(b):.1f}" y2="{y:.1f}" '
                         f'stroke="#38bdf8" stroke-width="4" stroke-linecap="round" stroke-opacity="0.6"/>')
        parts.append(f'<circle cx="{x(s["rating"]):.1f}" cy="{y:.1f}" r="5" fill="#f97316">'
                     f'<title>{escape(s["bot"])}: {s["rating"]:+.3f} {escape(_ci(s["ratingCI95"]))}</title></circle>')
    return (f'<svg role="img" aria-label="ratings with 95% intervals" viewBox="0 0 {width} {height}" '
            f'width="100%">{"".join(parts)}</svg>')


def matrix_html(report: dict) -> str:
    """The head-to-head matrix as a table, each cell shaded by the row bot's share."""
    order = [row["bot"] for row in report["standings"]]
    h2h = report["headToHead"]
    pos = {b: i for i, b in enumerate(h2h["bots"])}
    head = "".join(f'<th class="n">{escape(b)}</th>' for b in order)
    rows = []
    for a in order:
        cells = []
        for b in order:
            cell = h2h["matrix"][pos[a]][pos[b]]
            if cell is None or cell["share"] is None:
                cells.append('<td class="n muted">–</td>')
                continue
            share = cell["share"]
            hue = 120 * share  # red (0) through yellow to green (1)
            cells.append(f'<td class="n" style="background:hsl({hue:.0f} 60% 22%)" title="{cell["ahead"]} ahead, '
                         f'{cell["behind"]} behind, {cell["level"]} level of {cell["together"]}">{share:.0%}</td>')
        rows.append(f"<tr><th>{escape(a)}</th>{''.join(cells)}</tr>")
    return f'<div class="scroll"><table><tr><th></th>{head}</tr>{"".join(rows)}</table></div>'


def render(report: dict) -> str:
    rows = []
    for s in report["standings"]:
        t = report["timings"][s["bot"]]
        rows.append(f'<tr><td class="n">{s["rank"]}</td><td>{escape(s["bot"])}</td><td class="n">{s["rating"]:+.3f}</td>'
                    f'<td>{escape(_ci(s["ratingCI95"]))}</td><td class="n">{s["meanPlace"]}</td>'
                    f'<td class="n">{s["wins"]}</td><td class="n">{s["tournaments"]}</td>'
                    f'<td class="n">{_ms(t["wallP50"])}</td><td class="n">{_ms(t["wallP95"])}</td>'
                    f'<td class="{"zero" if not s["errorTotal"] else "warn"}">{escape(_errors(s["errors"]))}</td></tr>')
    warning = f'<p class="bad">{escape(report["warning"])}</p>' if report["warning"] else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>League {escape(report["league"][:12])}</title><style>{CSS}</style></head><body><main>
<h1>League standings</h1>
<p class="sub">{len(report["bots"])} bots · {len(report["tables"])} tables of {report["tableSize"]} ·
{report["played"]} of {report["tournaments"]} tournaments in {report["sets"]} sets · seed {report["seed"]},
bot seed {report["botSeed"]} · league {escape(report["league"])}</p>{warning}
<h2>Ratings</h2>
<p class="sub">{escape(report["rating"])}</p>
{ratings_svg(report["standings"])}
<div class="scroll"><table><tr><th class="n">#</th><th>bot</th><th class="n">rating</th><th>95% CI</th>
<th class="n">mean place</th><th class="n">wins</th><th class="n">tournaments</th><th class="n">p50 ms</th>
<th class="n">p95 ms</th><th>errors</th></tr>{"".join(rows)}</table></div>
<h2>Head to head</h2>
<p class="sub">How often the row's bot finished ahead of the column's when both played (level counts half).</p>
{matrix_html(report)}
</main></body></html>
"""


def write_html(directory: Path, report: dict) -> None:
    """``directory``/index.html and league.json, replacing an older report whole."""
    def fill(staging: Path) -> None:
        (staging / "index.html").write_text(render(report), encoding="utf-8")
        (staging / "league.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    replace_directory(directory, fill)
