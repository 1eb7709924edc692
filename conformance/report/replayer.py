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

SCRIPT = r"""
(function () {
  'use strict';
  var SUITS = {c: '\u2663', d: '\u2666', h: '\u2665', s: '\u2660'};
  var STREETS = ['preflop', 'flop', 'turn', 'river'];
  var BOARD_SIZE = {preflop: 0, flop: 3, turn: 4, river: 5, showdown: 5};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function card(c) {
    if (!c) return el('span', 'card back', '??');
    return el('span', 'card' + (c[1] === 'h' || c[1] === 'd' ? ' red' : ''), c[0] + (SUITS[c[1]] || c[1]));
  }
  function seatIndex(id) { return parseInt(String(id).slice(1), 10) - 1; }
  function sum(xs) { return xs.reduce(function (a, b) { return a + b; }, 0); }

  // A frame: {title, street, board, seats: [{name, stack, bet, cards, folded, allIn, out}], pot, acting, note}
  function framesFromHand(hand, names) {
    var n = hand.startStacks.length, frames = [];
    var seats = hand.startStacks.map(function (stack, i) {
      var id = 's' + (i + 1);
      return {name: names[i] || id, stack: stack, bet: 0, cards: (hand.holeCards || {})[id] || null,
              folded: stack === 0, allIn: false, out: stack === 0};
    });
    var pot = 0, street = 'preflop', board = (hand.history || {}).board || [];
    function snap(note, acting) {
      frames.push({title: 'hand ' + hand.handNumber, street: street, board: board.slice(0, BOARD_SIZE[street]),
                   seats: seats.map(function (s) { return Object.assign({}, s); }),
                   pot: pot + sum(seats.map(function (s) { return s.bet; })), acting: acting, note: note});
    }
    function post(i, amount, what) {
      var paid = Math.min(amount, seats[i].stack);
      seats[i].stack -= paid; seats[i].bet += paid; seats[i].allIn = seats[i].stack === 0;
      return names[i] + ' posts ' + what + ' ' + paid;
    }
    var notes = ['blinds ' + hand.blinds.join('/') + ', button ' + (names[hand.buttonSeat] || hand.buttonSeat)];
    if (hand.smallBlindSeat !== null && hand.smallBlindSeat !== undefined) notes.push(post(hand.smallBlindSeat, hand.blinds[0], 'the small blind'));
    notes.push(post(hand.bigBlindSeat, hand.blinds[1], 'the big blind'));
    snap(notes.join('; '), null);
    function toStreet(next) {
      pot += sum(seats.map(function (s) { return s.bet; }));
      seats.forEach(function (s) { s.bet = 0; });
      street = next;
    }
    (hand.actions || []).forEach(function (a) {
      if (a.street !== street) { toStreet(a.street); snap(a.street + ': ' + board.slice(0, BOARD_SIZE[a.street]).join(' '), null); }
      var i = seatIndex(a.id), s = seats[i];
      s.stack -= a.amount; s.bet += a.amount;
      if (a.type === 'fold') s.folded = true;
      if (s.stack === 0 && a.amount > 0) s.allIn = true;
      snap(s.name + ' ' + a.type + (a.amount ? ' ' + a.amount : ''), i);
    });
    var h = hand.history || {};
    if (street !== 'river' && board.length === 5 && seats.filter(function (s) { return !s.folded; }).length > 1) {
      toStreet('river'); snap('the board runs out: ' + board.join(' '), null);
    }
    var shown = (h.showdown || []).map(function (x) { return names[seatIndex(x.id)] + ' shows ' + x.hand; });
    var won = (h.winners || []).map(function (w) { return names[seatIndex(w.id)] + ' wins ' + w.amount; });
    seats.forEach(function (s, i) { s.stack = hand.endStacks[i]; s.bet = 0; s.out = hand.endStacks[i] === 0; });
    pot = 0;
    snap(shown.concat(won).join('; ') || 'hand over', null);
    return frames;
  }

  // One frame per contract decision state: what the acting seat saw. `start`: the first state's
  // decision index; `divergence` ({step, path, expected, actual, clause}) marks the divergent step,
  // or adds a last frame when the divergence comes after the last state (the end of the game).
  function framesFromStates(states, divergence, start) {
    start = start || 0;
    var frames = states.map(function (st, k) {
      var you = st.you || {};
      return {title: 'decision ' + (start + k) + (st.handNumber ? ' (hand ' + st.handNumber + ')' : ''),
              street: st.street, board: st.board || [],
              seats: (st.seats || []).map(function (s) {
                return {name: s.name || s.id, stack: s.stack, bet: s.bet, folded: s.folded, allIn: s.allIn,
                        out: s.out, cards: s.seat === you.seat ? you.cards : null};
              }),
              pot: sum((st.pots || []).map(function (p) { return p.amount; })), acting: you.seat,
              note: (you.id || 'the seat') + ' to act: toCall ' + st.toCall + ', currentBet ' + st.currentBet +
                    ', minRaiseTo ' + st.minRaiseTo + ', maxRaiseTo ' + st.maxRaiseTo};
    });
    if (divergence && frames.length) {
      var at = divergence.step === null || divergence.step === undefined ? null : frames[divergence.step];
      if (!at) {
        var last = frames[frames.length - 1];
        at = Object.assign({}, last, {acting: null, note: 'after the last decision shown',
          title: divergence.decision === null || divergence.decision === undefined ? 'the end of the game' : 'decision ' + divergence.decision});
        frames.push(at);
      }
      at.diverges = divergence;
    }
    return frames;
  }
  function show(v) { try { return JSON.stringify(v); } catch (_) { return String(v); } }

  function draw(view, frame, k, total) {
    view.step.textContent = 'step ' + (k + 1) + ' of ' + total + ' \u00b7 ' + frame.title + ' \u00b7 ' + frame.street;
    view.board.textContent = '';
    frame.board.forEach(function (c) { view.board.appendChild(card(c)); });
    view.board.appendChild(el('span', 'rp-pot', '  pot ' + frame.pot));
    view.seats.textContent = '';
    frame.seats.forEach(function (s, i) {
      var box = el('div', 'rp-seat' + (i === frame.acting ? ' acting' : '') + (s.folded ? ' folded' : '') + (s.out ? ' out' : ''));
      box.appendChild(el('b', '', s.name));
      var cards = el('div');
      (s.cards || [null, null]).forEach(function (c) { cards.appendChild(card(c)); });
      box.appendChild(cards);
      box.appendChild(el('div', '', 'stack ' + s.stack + (s.bet ? ' \u00b7 bet ' + s.bet : '') +
                                   (s.out ? ' \u00b7 out' : s.folded ? ' \u00b7 folded' : s.allIn ? ' \u00b7 all-in' : '')));
      view.seats.appendChild(box);
    });
    view.note.textContent = frame.note;
    var d = frame.diverges;
    view.diverge.hidden = !d;
    view.diverge.textContent = d ? 'first divergence: ' + d.path + ': expected ' + show(d.expected) + ', actual ' +
                                   show(d.actual) + ' \u2014 breaks ' + d.clause : '';
    if (d) view.step.textContent += ' \u00b7 diverges here';
  }

  function mount(root, games) {
    var bar = el('div', 'rp-bar'), pick = el('select');
    pick.setAttribute('aria-label', 'game');
    games.forEach(function (g, i) { var o = el('option', '', g.title); o.value = i; pick.appendChild(o); });
    var buttons = {};
    [['first', '\u00ab first'], ['back', '\u25c0 back'], ['forward', 'forward \u25b6'], ['last', 'last \u00bb']].forEach(function (b) {
      buttons[b[0]] = el('button', '', b[1]);
      buttons[b[0]].type = 'button';
      buttons[b[0]].setAttribute('data-step', b[0]);
    });
    var view = {step: el('span', 'rp-step'), board: el('div', 'rp-board'), seats: el('div', 'rp-seats'), note: el('div', 'rp-note'), diverge: el('div', 'rp-diverge')};
    bar.appendChild(pick);
    ['first', 'back', 'forward', 'last'].forEach(function (b) { bar.appendChild(buttons[b]); });
    bar.appendChild(view.step);
    [bar, view.diverge, view.board, view.seats, view.note].forEach(function (e) { root.appendChild(e); });
    var frames = [], k = 0;
    function open(i) {
      var g = games[i];
      frames = g.kind === 'states' ? framesFromStates(g.data, g.divergence, g.start) : framesFromHand(g.data, g.names || []);
      k = 0;  // a failing game opens at its divergence
      frames.forEach(function (f, i) { if (f.diverges) k = i; });
      redraw();
    }
    function redraw() {
      k = Math.max(0, Math.min(k, frames.length - 1));
      draw(view, frames[k], k, frames.length);
      buttons.first.disabled = buttons.back.disabled = k === 0;
      buttons.last.disabled = buttons.forward.disabled = k === frames.length - 1;
    }
    pick.addEventListener('change', function () { open(+pick.value); });
    buttons.first.addEventListener('click', function () { k = 0; redraw(); });
    buttons.back.addEventListener('click', function () { k -= 1; redraw(); });
    buttons.forward.addEventListener('click', function () { k += 1; redraw(); });
    buttons.last.addEventListener('click', function () { k = frames.length - 1; redraw(); });
    root.tabIndex = 0;
    root.addEventListener('keydown', function (e) {
      if (e.key === 'ArrowRight') { k += 1; redraw(); } else if (e.key === 'ArrowLeft') { k -= 1; redraw(); }
    });
    if (games.length) open(0);
  }

  window.HoldemReplayer = {mount: mount, framesFromHand: framesFromHand, framesFromStates: framesFromStates};
  document.querySelectorAll('[data-replayer]').forEach(function (root) {
    mount(root, JSON.parse(document.getElementById(root.getAttribute('data-replayer')).textContent));
  });
})();
"""


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
