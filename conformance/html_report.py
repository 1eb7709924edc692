"""The certification report as one static HTML page (no scripts, no external assets).

``render(summary)`` takes the JSON summary that ``holdem-cert certify`` writes (see
``conformance/certify.py``) and returns the page: the engine's families, every bot with its
verdict, reasons and play-style profile, failure diffs, and an SVG chart of chips over hands
from the showcase tournament. Everything is escaped; the output depends only on the summary.
"""
from __future__ import annotations

from html import escape

PALETTE = ["#2dd4bf", "#f97316", "#a78bfa", "#facc15", "#f43f5e", "#38bdf8", "#84cc16", "#e879f9", "#94a3b8"]
CSS = """
body{font:15px/1.45 system-ui,sans-serif;margin:0;background:#0f172a;color:#e2e8f0}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 10px;border-bottom:1px solid #334155;padding-bottom:4px}
.sub{color:#94a3b8}table{border-collapse:collapse;width:100%;margin:8px 0}
th,td{text-align:left;padding:6px 10px;border-bottom:1px solid #1e293b;vertical-align:top}th{color:#94a3b8;font-weight:600}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:2px 10px;border-radius:999px;font-weight:700;font-size:13px}
.ok{background:#14532d;color:#bbf7d0}.warn{background:#713f12;color:#fde68a}.bad{background:#7f1d1d;color:#fecaca}
.muted{color:#64748b}pre{background:#020617;padding:10px;border-radius:6px;overflow:auto;font-size:12px;white-space:pre-wrap}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}
svg text{fill:#94a3b8;font-size:11px}
"""


def _badge(verdict: str, kind: str | None = None) -> str:
    kind = kind or {"certified": "ok", "certified with warnings": "warn"}.get(verdict, "bad")
    return f'<span class="badge {kind}">{escape(verdict)}</span>'


def _engine(engine: dict) -> str:
    rows = []
    for name, counts in engine.get("families", {}).items():
        rows.append(
            f"<tr><td>{escape(name)}</td>"
            + "".join(f'<td class="n">{int(counts.get(k, 0))}</td>' for k in ("passed", "failed", "divergent", "skipped"))
            + "</tr>"
        )
    verdict = "certified" if engine.get("certified") else "not certified"
    failures = "".join(
        f"<li><b>{escape(str(f.get('id')))}</b> <span class='muted'>{escape(str(f.get('clause', '')))}</span>"
        f"<pre>{escape(str(f.get('diff', '')))}</pre></li>"
        for f in engine.get("failures", [])[:50]
    )
    divergences = "".join(
        f"<li>{escape(str(d.get('id')))} — divergent on {escape(', '.join(d.get('rulings', [])))}</li>"
        for d in engine.get("divergences", [])[:50]
    )
    return (
        f"<h2>Engine {_badge(verdict)}</h2><p class='sub'>{escape(str(engine.get('engine', {}).get('name', '')))}</p>"
        "<table><tr><th>family</th><th class='n'>passed</th><th class='n'>failed</th><th class='n'>divergent</th>"
        "<th class='n'>skipped</th></tr>"
        + "".join(rows) + "</table>"
        + (f"<h3>Failures</h3><ul>{failures}</ul>" if failures else "")
        + (f"<h3>Divergences</h3><ul>{divergences}</ul>" if divergences else "")
    )


def _roster(roster: dict) -> str:
    problems = roster.get("problems", [])
    verdict = "clean" if roster.get("ok") else "problems found"
    items = "".join(
        f"<li>{escape(str(p.get('severity', '')))}: {escape(str(p.get('id')))} · {escape(str(p.get('field')))}: "
        f"{escape(str(p.get('message')))}</li>" for p in problems
    )
    return f"<h2>Roster {_badge(verdict, 'ok' if roster.get('ok') else 'bad')}</h2>" + (
        f"<ul>{items}</ul>" if items else "<p class='sub'>Every entry checks out.</p>"
    )


def _pct(x) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def _bots(bots: list[dict]) -> str:
    rows = []
    for b in bots:
        p = b.get("profile") or {}
        t = b.get("timing") or {}
        reasons = "".join(f"<li>{escape(str(r))}</li>" for r in b.get("reasons", []))
        rows.append(
            f"<tr><td><span class='swatch' style='background:{escape(str(b.get('color', '#94a3b8')))}'></span>"
            f"<b>{escape(str(b.get('name', b.get('id'))))}</b><div class='muted'>{escape(str(b.get('id')))}</div></td>"
            f"<td>{_badge(str(b.get('verdict')))}<ul>{reasons}</ul></td>"
            f"<td class='n'>{_pct(p.get('vpip'))}</td><td class='n'>{_pct(p.get('pfr'))}</td>"
            f"<td class='n'>{'—' if p.get('aggressionFactor') is None else format(p['aggressionFactor'], '.2f')}</td>"
            f"<td class='n'>{_pct(p.get('allInRate'))}</td>"
            f"<td class='n'>{'—' if t.get('p50') is None else format(t['p50'], '.2f')} / "
            f"{'—' if t.get('p95') is None else format(t['p95'], '.2f')} ms</td></tr>"
        )
    return (
        "<h2>Bots</h2><table><tr><th>bot</th><th>verdict</th><th class='n'>VPIP</th><th class='n'>PFR</th>"
        "<th class='n'>AF</th><th class='n'>all-in</th><th class='n'>decision p50 / p95</th></tr>" + "".join(rows) + "</table>"
        "<p class='sub'>Times are measured in QuickJS, which runs integer code about 20× slower than a "
        "browser JIT: the default 1000 ms deadline is the conservative one.</p>"
    )


def chart_svg(series: dict[str, list[int]], colors: dict[str, str], width: int = 1000, height: int = 320) -> str:
    """Chips over hands, one polyline per seat; ``series`` maps a label to chips after each hand."""
    longest = max((len(v) for v in series.values()), default=0)
    top = max((max(v) for v in series.values() if v), default=1) or 1
    pad = 40
    x = lambda i: pad + (width - 2 * pad) * i / max(longest - 1, 1)  # noqa: E731
    y = lambda c: height - pad - (height - 2 * pad) * c / top  # noqa: E731
    lines = []
    for label, values in series.items():
        points = " ".join(f"{x(i):.1f},{y(c):.1f}" for i, c in enumerate(values))
        lines.append(f'<polyline fill="none" stroke="{escape(colors.get(label, "#94a3b8"))}" stroke-width="2" '
                     f'points="{points}"><title>{escape(label)}</title></polyline>')
    axes = (f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#334155"/>'
            f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#334155"/>'
            f'<text x="{pad}" y="{height - pad + 16}">hand 1</text>'
            f'<text x="{width - pad}" y="{height - pad + 16}" text-anchor="end">hand {longest}</text>'
            f'<text x="{pad - 6}" y="{pad + 4}" text-anchor="end">{top}</text>'
            f'<text x="{pad - 6}" y="{height - pad}" text-anchor="end">0</text>')
    return (f'<svg role="img" aria-label="chips over hands" viewBox="0 0 {width} {height}" '
            f'width="100%" xmlns="http://www.w3.org/2000/svg">{axes}{"".join(lines)}</svg>')


def _showcase(showcase: dict) -> str:
    if not showcase:
        return ""
    seats = showcase.get("seats", [])
    colors = {s["label"]: s.get("color") or PALETTE[i % len(PALETTE)] for i, s in enumerate(seats)}
    series = {s["label"]: s.get("chips", []) for s in seats}
    legend = "".join(f"<span style='margin-right:14px'><span class='swatch' style='background:{escape(colors[s['label']])}'>"
                     f"</span>{escape(s['label'])} — place {escape(str(s.get('place')))}, errors {int(s.get('errors', 0))}</span>"
                     for s in seats)
    return (f"<h2>Showcase tournament</h2><p class='sub'>seed {escape(str(showcase.get('seed')))}, bot seed "
            f"{escape(str(showcase.get('botSeed')))}, {int(showcase.get('hands', 0))} hands</p>"
            f"{chart_svg(series, colors)}<p>{legend}</p>")


def render(summary: dict) -> str:
    verdict = "certified" if summary.get("certified") else "not certified"
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width,initial-scale=1'>"
        f"<title>holdem-conformance report</title><style>{CSS}</style></head><body><main>"
        f"<h1>holdem-conformance {_badge(verdict)}</h1>"
        f"<p class='sub'>contract v{escape(str(summary.get('contractVersion', 1)))} · "
        f"{escape(str(summary.get('generator', {}).get('name', 'holdem-cert')))} "
        f"{escape(str(summary.get('generator', {}).get('version', '')))}</p>"
        + _engine(summary.get("engine", {}))
        + _roster(summary.get("roster", {}))
        + _bots(summary.get("bots", []))
        + _showcase(summary.get("showcase", {}))
        + "</main></body></html>\n"
    )
