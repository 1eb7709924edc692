// The hand replayer of the HTML report (conformance/report/replayer.py puts it in the page).
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
    view.step.textContent = 'frame ' + (k + 1) + ' of ' + total + ' \u00b7 ' + frame.title + ' \u00b7 ' + frame.street;
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
