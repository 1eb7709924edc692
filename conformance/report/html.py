"""The certification report as one self-contained HTML page (no network: styles, chart, data
and the hand replayer's plain JavaScript are all inside it).

``render(summary)`` takes the JSON summary that ``holdem-cert certify`` writes (see
``conformance/cli/certify.py``) and returns the page: the engine's families with coloured counts,
every failure with its message, clauses (with their summaries), diff and, where the summary has
them, its input and reproduction; divergences with their rulings; the roster's problems; every
bot with its verdict, reasons and play-style profile; and the showcase tournament: a chart of
chips over hands (every seat its own colour, ticked axes), who was not seated and why, and the
hand replayer (conformance/report/replayer.py). Everything is escaped; the output depends only on the
summary. Readable from 480 px wide up: wide tables scroll inside their box, never the page.
"""
from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from html import escape

from conformance.resources import DOCS_DIR
from conformance.vectors.clauses import CLAUSES
from . import replayer
from .formats import plural

PALETTE = ["#2dd4bf", "#f97316", "#a78bfa", "#facc15", "#f43f5e", "#38bdf8", "#84cc16", "#e879f9", "#94a3b8"]
SHOWN = 50  # failures and divergences shown; summary.json has them all
OPEN = 10  # of those, shown opened (the rest one line each until opened)
REPRO_SHOWN = 20_000  # characters of a --cmd reproduction shown (the file in repro/ is whole)
STATUS_CLASS = {"passed": "ok", "failed": "bad", "divergent": "warn", "skipped": "muted", "error": "bad"}  # error: a suite error
CSS = """
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,sans-serif;margin:0;background:#0f172a;color:#e2e8f0}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 10px;border-bottom:1px solid #334155;padding-bottom:4px}
h3{font-size:16px;margin:18px 0 6px}
.sub{color:#94a3b8}.scroll{overflow-x:auto;max-width:100%}table{border-collapse:collapse;width:100%;margin:8px 0}
th,td{text-align:left;padding:6px 10px;border-bottom:1px solid #1e293b;vertical-align:top}th{color:#94a3b8;font-weight:600}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:2px 10px;border-radius:999px;font-weight:700;font-size:13px}
.badge.ok{background:#14532d;color:#bbf7d0}.badge.warn{background:#713f12;color:#fde68a}.badge.bad{background:#7f1d1d;color:#fecaca}
td.ok,span.ok{color:#4ade80;font-weight:700}td.bad,span.bad,p.bad{color:#f87171;font-weight:700}
td.warn,span.warn{color:#fbbf24;font-weight:700}td.zero{color:#475569}
.muted{color:#64748b}details.first table th{width:90px}code.ok{color:#4ade80}code.bad{color:#f87171}
pre{background:#020617;padding:10px;border-radius:6px;overflow:auto;font-size:12px;white-space:pre-wrap;
 overflow-wrap:anywhere;max-width:100%}
code{overflow-wrap:anywhere}a{color:#7dd3fc}
details.case{border:1px solid #334155;border-left:4px solid #f87171;border-radius:6px;padding:8px 10px;margin:8px 0}
details.case.divergent{border-left-color:#fbbf24}details.case summary{cursor:pointer;overflow-wrap:anywhere}
.msg{margin:6px 0;overflow-wrap:anywhere}ul.clauses{margin:4px 0;padding-left:20px}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}
.legend span.item{display:inline-block;margin:2px 14px 2px 0}
svg text{fill:#94a3b8;font-size:11px}
@media (max-width:600px){main{padding:12px}th,td{padding:4px 6px}h1{font-size:21px}}
""" + replayer.CSS


def _badge(verdict: str, kind: str | None = None) -> str:
    kind = kind or {"certified": "ok", "certified with warnings": "warn", "clean": "ok",
                    "inconclusive": "warn"}.get(verdict, "bad")
    return f'<span class="badge {kind}">{escape(verdict)}</span>'


def _count(status: str, n: int) -> str:
    """A count cell, coloured by what it counts (a zero is grey)."""
    return f'<td class="n {STATUS_CLASS[status] if n else "zero"}">{int(n)}</td>'


@lru_cache(maxsize=1)
def ruling_titles() -> dict[str, str]:
    """R-number -> its heading in docs/rulings.md (shipped with the suite), for the page."""
    try:
        text = (DOCS_DIR / "rulings.md").read_text(encoding="utf-8")
    except OSError:
        return {}
    return {m[1]: m[2].replace("`", "") for m in re.finditer(r"^## (R\d+) — (.+)$", text, re.M)}


def _clauses(ids: list) -> str:
    items = []
    for clause in ids or []:
        section, brief, _ = CLAUSES.get(str(clause), ("", "", ""))
        text = f" — {escape(section)}: {escape(brief)}" if brief else ""
        items.append(f"<li><code>{escape(str(clause))}</code>{text}</li>")
    return f"<ul class='clauses'>{''.join(items)}</ul>" if items else ""


def _rulings(ids: list) -> str:
    titles = ruling_titles()
    return "; ".join(f"{escape(r)}" + (f" ({escape(titles[r])})" if r in titles else "") for r in ids or [])


def _first(first: dict) -> str:
    """The first divergence: where, the field, expected and actual, and the clause it breaks."""
    where = ", ".join(f"{k} {first[k]}" for k in ("hand", "decision") if first.get(k) is not None) or "the end of the game"
    section, brief, _ = CLAUSES.get(str(first.get("clause")), ("", "", ""))
    show = lambda v: escape(json.dumps(v, ensure_ascii=False))  # noqa: E731
    rows = [("where", escape(where)), ("field", f"<code>{escape(str(first.get('path')))}</code>"),
            ("expected", f"<code class='ok'>{show(first.get('expected'))}</code>"),
            ("actual", f"<code class='bad'>{show(first.get('actual'))}</code>"),
            ("breaks", f"<code>{escape(str(first.get('clause')))}</code>"
             + (f" — {escape(section)}: {escape(brief)}" if brief else ""))]
    return ("<details open class='first'><summary>first divergence</summary><div class='scroll'><table>"
            + "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows) + "</table></div></details>")


def _repro(repro: dict) -> str:
    """How to rerun the failure, and the script or the --cmd reproduction file itself."""
    runs = "".join(f"<pre class='run'>{escape(c)}</pre>" for c in repro.get("run", []))
    where = (f"<p>Written to <a href='{escape(repro['file'])}'><code>{escape(repro['file'])}</code></a>; "
             "run it from the report's directory:</p>" if repro.get("file") else "")
    if repro.get("kind") == "javascript":
        what, text = ("the script (it loads the engine by path and replays the game with the suite's driver)",
                      repro.get("script", ""))
    else:
        what, text = (f"the file without the reference's expected trajectory, which it adds (the vector; it failed "
                      f"with --cmd <code>{escape(str(repro.get('command')))}</code>)",
                      json.dumps(repro.get("data"), indent=1, ensure_ascii=False)[:REPRO_SHOWN])
    return (f"<details class='repro'><summary>reproduction</summary>{where}{runs}"
            f"<details><summary>{what}</summary><pre>{escape(text)}</pre></details></details>")


def _extra(case: dict) -> str:
    """The parts a failure may carry beyond its message and diff (the step judge's first divergence,
    the vector's input, a reproduction, the failing game for the replayer), each collapsible."""
    out = [_first(case["first"])] if isinstance(case.get("first"), dict) else \
        [f"<details><summary>first divergence</summary><pre>{escape(str(case['breaks']))}</pre></details>"] \
        if case.get("breaks") else []
    if case.get("input"):
        out.append(f"<details><summary>input</summary><pre>{escape(json.dumps(case['input'], indent=2, ensure_ascii=False))}"
                   "</pre></details>")
    if isinstance(case.get("repro"), dict):
        out.append(_repro(case["repro"]))
    elif case.get("repro"):
        out.append(f"<details><summary>reproduction</summary><pre>{escape(str(case['repro']))}</pre></details>")
    if case.get("vector"):  # a fuzz game, shrunk (conformance.judge.fuzz)
        out.append("<details><summary>the game shrunk: a hands vector</summary><pre>"
                   f"{escape(json.dumps(case['vector'], indent=2, ensure_ascii=False))}</pre></details>")
    game = case.get("trajectory")
    if isinstance(game, dict) and game.get("states"):  # the failing game up to its divergence
        divergence = dict(case.get("first") or {}, step=game.get("step"))
        out.append("<details open><summary>the game up to the divergence</summary>"
                   + replayer.section(f"game-{re.sub(r'[^A-Za-z0-9_-]', '-', str(case.get('id')))}",
                                      [{"title": str(case.get("id")), "kind": "states", "data": game["states"],
                                        "start": game.get("decision", 0), "divergence": divergence}])
                   + "</details>")
    return "".join(out)


def _case(case: dict, kind: str, is_open: bool = True) -> str:
    head = f"<b>{escape(str(case.get('id')))}</b> <span class='muted'>{escape(str(case.get('family', '')))}</span>"
    body = f"<div class='msg'>{escape(str(case.get('message') or '(no message)'))}</div>"
    if kind != "failed":
        body = f"<div class='msg'>divergent on {_rulings(case.get('rulings'))}</div>" + body
    body += _extra(case)  # the first divergence, the game, the reproduction and input come first
    if case.get("diff"):
        body += f"<details open><summary>diff</summary><pre>{escape(str(case['diff']))}</pre></details>"
    if kind == "failed":
        body += _clauses(case.get("clause") or case.get("clauses"))
    cls = "case" if kind == "failed" else "case divergent"
    return f"<details class='{cls}'{' open' if is_open else ''}><summary>{head}</summary>{body}</details>"


def _more(shown: int, total: int) -> str:
    return f"<p class='sub'>and {total - shown} more in summary.json</p>" if total > shown else ""


def _causes(causes: list) -> str:
    """The failures grouped by root cause (conformance.judge.causes), before the per-vector list."""
    if not causes:
        return ""
    rows = []
    for c in causes:
        ex = c.get("example") or {}
        first = ex.get("first") or {}
        where = ", ".join(x for x in (f"hand {first.get('hand')}" if first.get("hand") is not None else "",
                                      f"decision {first.get('decision')}" if first.get("decision") is not None else "")
                          if x)
        run = ((ex.get("repro") or {}).get("run") or [""])[0]
        # a cause breaking one rule's several clauses names the part each ruled-out option reproduces
        parts = c.get("reproduces") or ({"": c["alternative"]} if c.get("alternative") else {})
        alt = "".join(
            f" <span class='muted'>(the reference under {escape(', '.join(f'{r} = {o}' for r, o in opts.items()))}"
            f" reproduces {'its ' + escape(clause) + ' failures' if clause else 'it'}: a diagnosis, not an excuse)</span>"
            for clause, opts in parts.items())
        rows.append(
            f"<tr><td>{_clauses(c.get('clauses') or ([c['breaks']] if c.get('breaks') else []))}</td>"
            f"<td>{escape(str(c.get('field', '')))}: {escape(str(c.get('kind', '')))}" + alt
            + f"</td><td class='n'>{c.get('count', 0)}</td><td class='n'>{len(c.get('vectors', []))}</td>"
            f"<td>{escape(str(ex.get('vector', '')))}{' (' + escape(where) + ')' if where else ''}"
            + (f"<br><code>{escape(run)}</code>" if run else "") + "</td></tr>")
    return (f"<h3>Causes ({len(causes)})</h3><p class='sub'>Every failure grouped by the rule it breaks; the "
            "smallest example of each, then every failed vector below.</p><div class='scroll'><table><tr>"
            "<th>breaks</th><th>what differs</th><th class='n'>failures</th><th class='n'>vectors</th>"
            "<th>smallest example</th></tr>" + "".join(rows) + "</table></div>")


def _engine(engine: dict) -> str:
    rows = []
    totals = dict.fromkeys(STATUS_CLASS, 0)
    fuzz = engine.get("engine", {}).get("fuzz")
    hands = engine.get("engine", {}).get("handFuzz")  # the hand profile's random hands: blind or guided
    for name, counts in engine.get("families", {}).items():
        label = f"{name} ({fuzz['games']} games, seed {fuzz['seed']})" if name == "fuzz" and fuzz else name
        if name == "hand-fuzz" and hands:
            label = f"{name} ({hands['games']} random hands, {hands.get('mode', 'blind')}, seed {hands['seed']})"
        rows.append(f"<tr><td>{escape(label)}</td>" + "".join(_count(k, counts.get(k, 0)) for k in STATUS_CLASS) + "</tr>")
        for k in totals:
            totals[k] += int(counts.get(k, 0))
    rows.append("<tr><th>all</th>" + "".join(_count(k, v) for k, v in totals.items()) + "</tr>")
    verdict = ("certified" if engine.get("certified")
               else "incomplete" if str(engine.get("verdict", "")).startswith("INCOMPLETE") else "not certified")
    subject = engine.get("engine", {})
    name = subject.get("source") or subject.get("command") or subject.get("name") or ""
    failures, divergences = engine.get("failures", []), engine.get("divergences", [])
    suite_errors = engine.get("suiteErrors", [])  # the suite's own errors: never the engine's failures
    smoke = "".join(f"<li>{escape(str(s.get('id')))}: <span class='{'ok' if s.get('passed') else 'bad'}'>"
                    f"{'ok' if s.get('passed') else 'failed'}</span> <span class='muted'>{escape(str(s.get('message', '')))}"
                    "</span></li>" for s in engine.get("smoke", []))
    return (
        f"<h2>Engine {_badge(verdict)}</h2><p class='sub'>{escape(str(name))}</p>"
        f"<p>{escape(str(engine.get('verdict', '')))}</p>"
        + (f"<h3>Smoke tier</h3><ul>{smoke}</ul>" if smoke else "")
        + _coverage(engine.get("coverage"))
        + _profiles(engine)
        + "<div class='scroll'><table><tr><th>family</th>"
        + "".join(f"<th class='n'>{k}</th>" for k in STATUS_CLASS) + "</tr>" + "".join(rows) + "</table></div>"
        + _causes(engine.get("causes") or [])
        + (f"<h3>Suite errors ({len(suite_errors)})</h3><p class='sub'>The suite's own driver or strategies could not "
           "judge these vectors: not the engine's failures (please report them).</p><ul>"
           + "".join(f"<li>{escape(str(e.get('id')))}: <span class='muted'>{escape(str(e.get('message', '')))}</span></li>"
                     for e in suite_errors) + "</ul>" if suite_errors else "")
        + (f"<h3>Failures ({len(failures)})</h3>" + "".join(_case(f, "failed", i < OPEN) for i, f in enumerate(failures[:SHOWN]))
           + _more(SHOWN, len(failures)) if failures else "")
        + (f"<h3>Divergences ({len(divergences)})</h3><p class='sub'>Not failures: the contract allows more than "
           "one answer here, and the ruling says which the reference takes (docs/rulings.md).</p>"
           + "".join(_case(d, "divergent", i < OPEN) for i, d in enumerate(divergences[:SHOWN])) + _more(SHOWN, len(divergences))
           if divergences else "")
    )


def _coverage(section: dict | None) -> str:
    """--coverage: the figure, and the link to the engine's source line by line (coverage_page.py)."""
    if not section:
        return ""
    link = (f" <a href='{escape(str(section['page']))}' id='coverage-link'>the engine's source, line by line</a>"
            if section.get("page") else "")
    return (f"<h3>Coverage</h3><p>V8's block coverage of the engine's own source over this run: "
            f"<b>{escape(str(section.get('summary', '')))}</b>.{link}</p>")


def _profiles(engine: dict) -> str:
    """The profile x family matrix (conformance.judge.cert_profiles): one row per profile, its verdict
    and counts, then its families' counts."""
    profiles = engine.get("profiles")
    if not profiles:
        return ""
    rows = []
    for name, row in profiles.items():
        kind = {"certified": "ok", "not implemented": "warn"}.get(str(row.get("verdict")), "bad")
        why = "; ".join(str(r) for r in row.get("reasons", []))
        rows.append(f"<tr><th>{escape(str(name))}</th><td>{_badge(str(row.get('verdict')), kind)}"
                    f"{f' <span class=muted>{escape(why)}</span>' if why else ''}</td>"
                    + "".join(_count(k, row.get(k, 0)) for k in STATUS_CLASS) + "</tr>")
        for family, counts in row.get("families", {}).items():
            rows.append(f"<tr><td>&nbsp;&nbsp;{escape(str(family))}</td><td></td>"
                        + "".join(_count(k, counts.get(k, 0)) for k in STATUS_CLASS) + "</tr>")
    return ("<h3>Profiles</h3><div class='scroll'><table><tr><th>profile / family</th><th>verdict</th>"
            + "".join(f"<th class='n'>{k}</th>" for k in STATUS_CLASS) + "</tr>" + "".join(rows) + "</table></div>")


def _roster(roster: dict) -> str:
    problems = roster.get("problems", [])
    verdict = "clean" if roster.get("ok") else "not clean"
    rows = "".join(
        f"<tr><td class='{'bad' if p.get('severity') == 'error' else 'warn'}'>{escape(str(p.get('severity', '')))}</td>"
        f"<td>{escape(str(p.get('id') or 'roster'))}</td><td><code>{escape(str(p.get('field')))}</code></td>"
        f"<td>{escape(str(p.get('message')))}</td></tr>" for p in problems)
    return f"<h2>Roster {_badge(verdict)}</h2>" + (
        f"<div class='scroll'><table><tr><th>severity</th><th>entry</th><th>field</th><th>problem</th></tr>{rows}"
        "</table></div>" if rows else "<p class='sub'>Every entry checks out.</p>")


def _pct(x) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def _ms(x) -> str:
    return "—" if x is None else format(x, ".2f")


def _bots(bots: list[dict]) -> str:
    rows = []
    for b in bots:
        p = b.get("profile") or {}
        t = b.get("timing") or {}
        reasons = "".join(f"<li>{escape(str(r))}</li>" for r in b.get("reasons", []))
        reasons += "".join(f"<li>rerun the failing state of {escape(str(r.get('category')))}: "
                           f"<a href='{escape(str(r.get('file')))}'><code>{escape(str(r.get('state')))}</code></a>"
                           f"<pre class='run'>{escape(str(r.get('run')))}</pre></li>" for r in b.get("repro") or [])
        rows.append(
            f"<tr><td><span class='swatch' style='background:{escape(str(b.get('color', '#94a3b8')))}'></span>"
            f"<b>{escape(str(b.get('name', b.get('id'))))}</b><div class='muted'>{escape(str(b.get('id')))}</div></td>"
            f"<td>{_badge(str(b.get('verdict')))}<ul>{reasons}</ul></td>"
            f"<td class='n'>{_pct(p.get('vpip'))}</td><td class='n'>{_pct(p.get('pfr'))}</td>"
            f"<td class='n'>{'—' if p.get('aggressionFactor') is None else format(p['aggressionFactor'], '.2f')}</td>"
            f"<td class='n'>{_pct(p.get('allInRate'))}</td>"
            f"<td class='n'>{_ms(t.get('p50'))} / {_ms(t.get('p95'))} ms</td></tr>"
        )
    return (
        "<h2>Bots</h2><div class='scroll'><table><tr><th>bot</th><th>verdict</th><th class='n'>VPIP</th>"
        "<th class='n'>PFR</th><th class='n'>AF</th><th class='n'>all-in</th><th class='n'>decision p50 / p95</th></tr>"
        + "".join(rows) + "</table></div>"
        "<p class='sub'>Times are measured in QuickJS, which runs integer code about 20× slower than a "
        "browser JIT: the default 1000 ms deadline is the conservative one.</p>"
    )


def nice_ticks(top: float, count: int = 5) -> list[int]:
    """Round tick values from 0 to at least ``top``: steps of 1, 2 or 5 times a power of ten."""
    if top <= 0:
        return [0, 1]
    raw = top / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    step = max(1, int(step))
    return list(range(0, int(math.ceil(top / step)) * step + 1, step))


def chart_svg(series: list[tuple[str, str, list[int]]], width: int = 1000, height: int = 320) -> str:
    """Chips over hands, one polyline per seat: ``series`` is (label, colour, chips after each hand)
    in seat order (labels may repeat: two bots can share a botName). Both axes are ticked."""
    longest = max((len(v) for _, _, v in series), default=0)
    y_ticks = nice_ticks(max((max(v) for _, _, v in series if v), default=1))
    x_ticks = [t for t in nice_ticks(longest, 8) if t >= 1] or [1]
    top = y_ticks[-1]
    left, right, pad = 56, 16, 28
    x = lambda hand: left + (width - left - right) * (hand - 1) / max(longest - 1, 1)  # noqa: E731
    y = lambda c: height - pad - (height - 2 * pad) * c / top  # noqa: E731
    axes = [f'<line x1="{left}" y1="{height - pad}" x2="{width - right}" y2="{height - pad}" stroke="#334155"/>',
            f'<line x1="{left}" y1="{pad}" x2="{left}" y2="{height - pad}" stroke="#334155"/>']
    for t in y_ticks:
        axes.append(f'<line class="tick y" x1="{left - 4}" y1="{y(t):.1f}" x2="{width - right}" y2="{y(t):.1f}" '
                    f'stroke="#1e293b"/><text x="{left - 8}" y="{y(t) + 4:.1f}" text-anchor="end">{t:,}</text>')
    for t in x_ticks:
        if t <= max(longest, 1):
            axes.append(f'<line class="tick x" x1="{x(t):.1f}" y1="{height - pad}" x2="{x(t):.1f}" y2="{height - pad + 4}" '
                        f'stroke="#334155"/><text x="{x(t):.1f}" y="{height - pad + 16}" text-anchor="middle">{t}</text>')
    axes.append(f'<text x="{left - 8}" y="{height - pad + 16}" text-anchor="end">hand</text>'
                f'<text x="{left - 8}" y="{pad - 10}" text-anchor="end">chips</text>')
    lines = []
    for label, color, values in series:
        points = " ".join(f"{x(i + 1):.1f},{y(c):.1f}" for i, c in enumerate(values))
        lines.append(f'<polyline fill="none" stroke="{escape(color)}" stroke-width="2" stroke-opacity="0.9" '
                     f'points="{points}"><title>{escape(label)}</title></polyline>')
    return (f'<svg role="img" aria-label="chips over hands" viewBox="0 0 {width} {height}" width="100%">'
            f'{"".join(axes)}{"".join(lines)}</svg>')


def _showcase(showcase: dict) -> str:
    if not showcase:
        return ""
    seats = showcase.get("seats", [])
    unseated = "".join(f"<li><b>{escape(str(u.get('bot')))}</b>: {escape(str(u.get('reason')))}</li>"
                       for u in showcase.get("unseated", []))
    head = "<h2>Showcase tournament</h2>" + (f"<p class='sub'>{escape(str(showcase['note']))}</p>"
                                              if showcase.get("note") else "")
    tail = f"<h3>Not seated</h3><ul>{unseated}</ul>" if unseated else ""
    if not seats:
        return head + tail
    series = [(f"{s.get('label')} ({s.get('bot')})", s.get("color") or PALETTE[i % len(PALETTE)], s.get("chips", []))
              for i, s in enumerate(seats)]
    legend = "".join(f"<span class='item'><span class='swatch' style='background:{escape(color)}'></span>"
                     f"{escape(label)} — place {escape(str(s.get('place')))}, {plural(int(s.get('errors', 0)), 'error')}</span>"
                     for (label, color, _), s in zip(series, seats))
    log = showcase.get("log") or []
    names = [str(s.get("label")) for s in seats]
    return (head + f"<p class='sub'>seed {escape(str(showcase.get('seed')))}, bot seed "
            f"{escape(str(showcase.get('botSeed')))}, {int(showcase.get('hands', 0))} hands</p>"
            # Below 640 px the chart scrolls in its box rather than shrink its labels out of reach.
            f"<div class='scroll'><div style='min-width:640px'>{chart_svg(series)}</div></div>"
            f"<p class='legend'>{legend}</p>" + tail
            + ("<h3>Hand replayer</h3><p class='sub'>Pick a hand; step through it with the buttons or the arrow "
               "keys.</p>" + replayer.section("showcase-replayer", replayer.hand_games(log, names)) if log else ""))


def _totals(summary: dict) -> str:
    engine = summary.get("engine", {})
    totals = dict.fromkeys(STATUS_CLASS, 0)
    for counts in engine.get("families", {}).values():
        for k in totals:
            totals[k] += int(counts.get(k, 0))
    bots = summary.get("bots", [])
    uncertified = sum(b.get("verdict") not in ("certified", "certified with warnings") for b in bots)
    errors = sum(p.get("severity") == "error" for p in summary.get("roster", {}).get("problems", []))
    parts = [f"<span class='{STATUS_CLASS[k] if v else 'muted'}'>{v} {k}</span>" for k, v in totals.items()]
    parts.append(f"<span class='{'bad' if errors else 'ok'}'>roster: {plural(errors, 'error')}</span>")
    parts.append(f"<span class='{'bad' if uncertified else 'ok'}'>bots: {len(bots) - uncertified} of {len(bots)} "
                 "certified</span>")
    return "<p>" + " · ".join(parts) + "</p>"


def render(summary: dict) -> str:
    # inconclusive: nothing failed, a bot was not judged whole (docs/bot-certification.md, Bounds)
    verdict = "certified" if summary.get("certified") else summary.get("status") or "not certified"
    verdict = verdict if verdict in ("certified", "inconclusive") else "not certified"
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width,initial-scale=1'>"
        f"<title>holdem-conformance report: {verdict}</title><style>{CSS}</style></head><body><main>"
        f"<h1>holdem-conformance {_badge(verdict)}</h1>"
        f"<p class='sub'>contract v{escape(str(summary.get('contractVersion', 1)))} · "
        f"{escape(str(summary.get('generator', {}).get('name', 'holdem-cert')))} "
        f"{escape(str(summary.get('generator', {}).get('version', '')))}</p>"
        + (f"<p class='bad'>certify stopped before its verdict: {escape(str(summary['stopped']))}</p>"
           if summary.get("stopped") else "")
        + _totals(summary)
        + _engine(summary.get("engine", {}))
        + _roster(summary.get("roster", {}))
        + _bots(summary.get("bots", []))
        + _showcase(summary.get("showcase", {}))
        + "</main>" + replayer.script() + "</body></html>\n"
    )
