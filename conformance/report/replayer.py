"""The visual hand replayer of the HTML report: cards, stacks, bets and pots step by step,
forward and back, in plain JavaScript inside the page (no network, no library).

``section(element_id, games)`` returns the markup: a ``<div>`` the script fills, the games as a
JSON data island, and the script. A game is ``{"title", "kind", "data"}``:

- ``kind`` ``"hand"``: ``data`` is a list of completed-hand log records, as the reference's
  tournament writes them (``startStacks``, ``holeCards``, ``actions``, ``history``, ``endStacks``...)
  with ``names`` (seat names) beside them: each hand is replayed action by action.
- ``kind`` ``"states"``: ``data`` is a list of contract decision states (bot-contract-v1, Decision
  state), one step each: what a failing engine or bot saw, in order. This is how a failing game's
  trajectory is shown: ``start`` is the first state's decision index and ``divergence`` (the step
  judge's first divergence with ``step``, its index in ``data`` or None for after the last state)
  is highlighted with expected and actual, and the game opens there.

Frames are built in the page, one game at a time, so a 300-hand tournament costs nothing until
it is opened.
"""
from __future__ import annotations

import json
from html import escape

from conformance.resources import javascript

CSS = """
.rp{background:#020617;border:1px solid #1e293b;border-radius:8px;padding:10px;margin:10px 0}
.rp-bar{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin-bottom:8px}
.rp-bar button,.rp-bar select{background:#1e293b;color:#e2e8f0;border:1px solid #334155;border-radius:6px;
 padding:4px 10px;font:inherit;max-width:100%}
.rp-step{color:#94a3b8;font-variant-numeric:tabular-nums}
.rp-board{margin:6px 0;min-height:34px}
.rp-seats{display:grid;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));gap:6px}
.rp-seat{border:1px solid #334155;border-radius:6px;padding:6px;font-size:13px;overflow-wrap:anywhere}
.rp-seat.acting{border-color:#facc15;box-shadow:0 0 0 1px #facc15}.rp-seat.folded{opacity:.45}
.rp-seat.out{opacity:.25}.rp-seat b{display:block}
.rp-diverge{margin:6px 0;padding:6px 8px;border:1px solid #f87171;border-radius:6px;color:#fecaca;background:#450a0a;overflow-wrap:anywhere}
.rp-seat.diverged{border-color:#f87171}
.rp-note{margin-top:8px;color:#cbd5e1;overflow-wrap:anywhere}.rp-pot{font-weight:700;color:#facc15}
.card{display:inline-block;min-width:24px;padding:2px 4px;margin:1px;border-radius:4px;background:#f8fafc;
 color:#0f172a;font-weight:700;text-align:center}.card.red{color:#dc2626}.card.back{background:#475569;color:#475569}
"""

SCRIPT = javascript(__package__, "replayer.js")


def data_island(element_id: str, data: object) -> str:
    """JSON inside the page that no text in it can end early (``</script>``, ``<!--``)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="{escape(element_id)}">{text}</script>'


def hand_games(hands: list[dict], names: list[str]) -> list[dict]:
    """The games of a tournament log: one per hand."""
    return [{"title": f"hand {h['handNumber']}", "kind": "hand", "data": h, "names": names} for h in hands]


def section(element_id: str, games: list[dict]) -> str:
    """The replayer's markup for ``games`` (see the module doc); the script is added once per
    page by :func:`script`."""
    return (f'<div class="rp" data-replayer="{escape(element_id)}-data" id="{escape(element_id)}"></div>'
            + data_island(f"{element_id}-data", games))


def script() -> str:
    return f"<script>{SCRIPT}</script>"
