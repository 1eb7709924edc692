"""The HTML view of ``--coverage`` (issue #27 item 1): the engine's source with every line marked
by what a certification ran of it, after the figures (total, per source of tests, per family) and
the functions never called. One self-contained page (no script, no network), written beside the
report (``coverage.html``) and linked from the report's engine section."""
from __future__ import annotations

from html import escape

PAGE = "coverage.html"
STATES = {"never": "never run", "partly": "partly run", "run": "run", "blank": ""}

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:0;background:#0f1115;color:#e6e6e6}
main{max-width:1200px;margin:0 auto;padding:20px}
h1{font-size:22px;margin:0 0 4px} h2{font-size:18px;margin:24px 0 8px} .sub{color:#9aa0a6;margin:0 0 12px}
table{border-collapse:collapse;margin:6px 0} td,th{padding:3px 10px;border-bottom:1px solid #2a2e36;text-align:left}
th.n,td.n{text-align:right} a{color:#8ab4f8}
.figure{font-size:20px;font-weight:600}
pre.src{margin:0;font:12.5px/1.5 ui-monospace,Menlo,Consolas,monospace;background:#14171c;border:1px solid #2a2e36;
        overflow-x:auto;counter-reset:none}
pre.src span.l{display:block;white-space:pre;padding-right:12px}
pre.src span.l:target{outline:2px solid #8ab4f8}
pre.src span.no{display:inline-block;width:5.5em;color:#6b7280;text-align:right;padding-right:1em;user-select:none}
span.never{background:#5c1f24} span.never span.no{color:#fca5a5}
span.partly{background:#4a3b12} span.partly span.no{color:#fcd34d}
.key span{padding:1px 8px;margin-right:8px}
"""


def _stats_row(label: str, stats: dict) -> str:
    return (f"<tr><td>{escape(label)}</td><td class='n'>{stats['percent']:g}%</td><td class='n'>{stats['run']}</td>"
            f"<td class='n'>{stats['blocks'] - stats['run']}</td><td class='n'>{stats['called']}</td>"
            f"<td class='n'>{stats['neverCalled']}</td></tr>")


def _stats_table(rows: list[tuple[str, dict]]) -> str:
    return ("<table><tr><th></th><th class='n'>% of blocks</th><th class='n'>run</th><th class='n'>never run</th>"
            "<th class='n'>functions called</th><th class='n'>never called</th></tr>"
            + "".join(_stats_row(label, stats) for label, stats in rows) + "</table>")


def _anchor(k: int, line: int) -> str:
    return f"f{k}-L{line}"


def render(section: dict, files: list[tuple[str, str]], title: str = "holdem-cert coverage") -> str:
    """The page of ``section`` (conformance.judge.coverage.summarize, with its ``lines``) over the
    engine's ``files`` ((name, text), as summarized)."""
    names = {name: k for k, (name, _) in enumerate(files)}
    never_called = [f for f in section["functions"] if f["calls"] == 0]
    lost = section.get("lost", {})
    parts = [
        f"<h1>Coverage of the engine's source</h1><p class='sub'>{escape(section['tool'])}; sandbox: "
        f"{escape(section['sandbox'])}</p>",
        f"<p class='figure' id='figure'>{escape(section['summary'])}</p>",
        "<p class='sub'>A block is a function body or a place where V8 keeps a count of its own (an arm of "
        "<code>if</code> or <code>?:</code>, a loop body, the right of <code>&amp;&amp;</code>, <code>||</code>, "
        "<code>??</code>, <code>catch</code>, <code>finally</code>, a <code>case</code>, the code after a jump). "
        "Only the engine's own files count: not the adapter, the suite's driver or its bootstrap.</p>",
    ]
    if lost.get("vectors"):
        parts.append(f"<p class='sub'>{escape(lost.get('note', ''))}: {escape(', '.join(lost['vectors'][:20]))}</p>")
    for problem in section.get("problems", []):
        parts.append(f"<p class='sub'>{escape(problem)}</p>")
    parts.append("<h2>By source of tests</h2>" + _stats_table([("all", section["total"])]
                                                                + list(section["bySource"].items())))
    if section["byFamily"]:
        parts.append("<h2>By family</h2><p class='sub'>Golden vectors and fresh tests of the family; the fuzz "
                     "games as the report's fuzz row.</p>" + _stats_table(list(section["byFamily"].items())))
    if len(files) > 1:
        parts.append("<h2>By file</h2><table><tr><th>file</th><th class='n'>blocks run</th><th class='n'>lines "
                     "never run</th><th class='n'>partly</th></tr>" + "".join(
                         f"<tr><td><a href='#file{names[f['file']]}'>{escape(f['file'])}</a></td><td class='n'>"
                         f"{f['percent']:g}%</td><td class='n'>{f['lines']['never']}</td><td class='n'>"
                         f"{f['lines']['partly']}</td></tr>" for f in section["files"]) + "</table>")
    rows = "".join(f"<tr><td><a href='#{_anchor(names[f['file']], f['line'])}'>{escape(f['name'])}</a></td>"
                   f"<td>{escape(f['file'])}:{f['line']}</td></tr>" for f in never_called)
    parts.append(f"<h2 id='never-called'>Functions never called ({len(never_called)})</h2>"
                 + (f"<table><tr><th>function</th><th>where</th></tr>{rows}</table>" if never_called else "<p>none</p>"))
    parts.append("<h2>Source</h2><p class='key'><span class='never'>never run</span><span class='partly'>partly "
                 "run (some of its code never ran)</span><span>run</span></p>")
    for k, ((name, text), states) in enumerate(zip(files, section["lines"])):
        lines = text.split("\n")
        body = "".join(
            f"<span class='l {state}' id='{_anchor(k, i)}' data-state='{state}'><span class='no'>{i}</span>"
            f"{escape(line)}</span>" for i, (line, state) in enumerate(zip(lines, states), 1))
        parts.append(f"<h3 id='file{k}'>{escape(name)}</h3><pre class='src'>{body}</pre>")
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body><main>{''.join(parts)}</main></body></html>\n")
