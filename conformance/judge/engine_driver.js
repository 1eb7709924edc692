// The suite's engine driver (DRIVER_JS, conformance/judge/engine_drivers.py): installs globalThis.__holdemDriver.
(function () {
  'use strict';
  // The built-ins it uses, read once: in node's vm realm (the node host) every global name read is a
  // call into the context's interceptor, which made recording a long game 2.5 times slower (#25).
  const { Object, Array, JSON, Map, Math, Set, String, RangeError, InternalError, Infinity, NaN, isFinite } = globalThis;
  const undefined = void 0;
  const CARDS = [];
  for (const s of 'cdhs') for (const r of '23456789TJQKA') CARDS.push(r + s);
  const MAX_DECISIONS = 100000;

  class Missing { constructor(name) { this.name = name; } }
  function engine(name) {
    const e = typeof PokerEngine === 'undefined' ? undefined : PokerEngine;
    if (e === null || (typeof e !== 'object' && typeof e !== 'function') || typeof e[name] !== 'function') {
      throw new Missing('PokerEngine.' + name);
    }
    return e;
  }
  function text(v) { try { return String(v); } catch (_) { return '(unprintable)'; } }
  // Running out of memory or stack is not the engine's answer (an invalid vector would pass as
  // "threw") and may leave the context unusable: it escapes to the host, which restarts the worker.
  // quickjs-ng's words: InternalError "out of memory", RangeError "Maximum call stack size exceeded".
  function exhausted(x) {
    try {
      return (x instanceof InternalError && x.message === 'out of memory') ||
             (x instanceof RangeError && x.message === 'Maximum call stack size exceeded');
    } catch (_) { return false; }
  }
  function exhaustedText(x) {
    return x instanceof RangeError ? 'Maximum call stack size exceeded' : 'out of memory';
  }
  function describe(x) {
    if (exhausted(x)) throw x;
    if (x === null || typeof x !== 'object') return { name: null, message: text(x) };
    const out = { name: null, message: null };
    try { if (typeof x.name === 'string') out.name = x.name; } catch (_) {}
    try { out.message = typeof x.message === 'string' ? x.message : text(x); } catch (_) { out.message = '(unprintable)'; }
    try { if (typeof x.code === 'string') out.code = x.code; } catch (_) {}
    try { if (typeof x.field === 'string') out.field = x.field; } catch (_) {}
    return out;
  }
  function failure(at, x) {
    if (exhausted(x) && playing !== null) throw new Spent(at, x);
    return Object.assign({ at }, describe(x));
  }
  // A game's or lone hand's record while the engine plays it (after create or createHand): an engine
  // that exhausts memory or stack inside one of its calls ends the record there (`error.exhausted`),
  // the engine called no further (the host restarts the worker after it: engine_drivers.py), so the
  // game is judged up to that call (issue #38) rather than lost with the worker.
  let playing = null;
  class Spent { constructor(at, x) { this.at = at; this.x = x; } }
  // Deeper data is recorded as TOO_DEEP (sent as a "truncated" tag): nothing the engine returns may
  // nest deeper than the parent can decode and judge.
  const MAX_DEPTH = 32, TOO_DEEP = {};
  function clone(v, depth) {
    depth = depth || 0;
    if (v === null || typeof v !== 'object') return v;
    if (depth > MAX_DEPTH) return TOO_DEEP;
    if (Array.isArray(v)) {
      const a = new Array(v.length);
      for (let i = 0; i < v.length; i++) a[i] = clone(v[i], depth + 1);
      return a;
    }
    const o = {};
    for (const k of Object.keys(v)) o[k] = clone(v[k], depth + 1);
    return o;
  }
  function show(v) {
    if (v === null) return 'null';
    if (Array.isArray(v)) return 'an array';
    return typeof v === 'object' ? 'an object' : typeof v === 'string' ? JSON.stringify(v) : text(v);
  }
  function mulberry32(seed) {
    let a = seed | 0;
    return function random() {
      a = (a + 0x6D2B79F5) | 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  // `counted`: mulberry32(seed), its calls counted in `counter` (R6: none with no opponents);
  // `omitted`: no random at all (R41: JavaScript's equity then takes Math.random).
  function randomArg(spec, counter) {
    if (spec.kind === 'mulberry32') return mulberry32(spec.seed);
    if (spec.kind === 'constant') return () => spec.value;
    if (spec.kind === 'counted') {
      const r = mulberry32(spec.seed);
      return () => { counter.calls++; return r(); };
    }
    return spec.value;
  }

  function rng(i) {
    const e = engine('rng');
    let r;
    try { r = e.rng(i.seed); } catch (x) { return { threw: describe(x) }; }
    if (typeof r !== 'function') return { error: { at: 'rng(seed)', message: 'returned ' + show(r) + ', not a function' } };
    const values = [];
    for (let k = 0; k < i.count; k++) {
      try { values.push(clone(r())); } catch (x) { return { threw: describe(x) }; }
    }
    return { values };
  }

  // A seeded game, then the same game with the engine's own dealHand(seed, n) pinned for its hands.
  function seededGame(i) {
    const e = engine('dealHand');
    const options = i.game.options == null ? {} : i.game.options, decks = {}; // null or absent: none given (R42)
    for (let n = 1; n <= options.maxHands; n++) {
      try { decks[n] = clone(e.dealHand(options.seed, n)); } catch (x) { return { threw: describe(x) }; }
    }
    const out = {};
    for (const [key, game] of [['seeded', i.game], ['pinned', { seats: i.game.seats, options: Object.assign({}, options, { decks }) }]]) {
      let g;
      try { g = create(game); } catch (x) { if (x instanceof Missing) throw x; out[key] = { error: failure('create', x) }; continue; }
      out[key] = playOut(g, i.strategies, {}, i.game.seats);
    }
    return out;
  }

  function deck(i) {
    if (i.game) return seededGame(i);
    const e = engine('dealHand');
    try {
      const first = clone(e.dealHand(i.seed, i.handNumber));
      return { deck: first, again: clone(e.dealHand(i.seed, i.handNumber)) };
    } catch (x) { return { threw: describe(x) }; }
  }

  function digest() {
    const e = engine('evaluate');
    const N = 2598960, values = new Array(N), counts = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    let n = 0;
    for (let a = 0; a < 48; a++) for (let b = a + 1; b < 49; b++) for (let c = b + 1; c < 50; c++)
    for (let d = c + 1; d < 51; d++) for (let f = d + 1; f < 52; f++) {
      const hand = [CARDS[a], CARDS[b], CARDS[c], CARDS[d], CARDS[f]];
      let r;
      try { r = e.evaluate(hand); } catch (x) { return { error: failure('evaluate(' + JSON.stringify(hand) + ')', x) }; }
      const v = r === null || typeof r !== 'object' ? undefined : r.value;
      const rank = r === null || typeof r !== 'object' ? undefined : r.rank;
      if (typeof v !== 'number' || !isFinite(v) || !(rank >= 0 && rank <= 8 && rank % 1 === 0)) {
        return { error: { at: 'evaluate(' + JSON.stringify(hand) + ')', message:
          'returned value ' + show(v) + ' and rank ' + show(rank) + ': expected a finite value and a rank 0..8' } };
      }
      values[n++] = v;
      counts[rank]++;
    }
    // Classes: the index of each value among the sorted distinct values.
    const index = new Map();
    for (let k = 0; k < N; k++) index.set(values[k], 0);
    const distinct = Array.from(index.keys()).sort((x, y) => x - y);
    for (let k = 0; k < distinct.length; k++) index.set(distinct[k], k);
    let h = 0x811C9DC5;
    for (let k = 0; k < N; k++) h = Math.imul(h ^ index.get(values[k]), 0x01000193);
    return { hands: n, categoryCounts: counts, distinctValues: distinct.length, classHash: h >>> 0 };
  }

  function evaluate(i) {
    if (i.digest === 'five-card') return digest();
    const e = engine('evaluate');
    if ('a' in i) {
      try { return { a: clone(e.evaluate(i.a)), b: clone(e.evaluate(i.b)) }; } catch (x) { return { threw: describe(x) }; }
    }
    let r;
    try { r = clone(e.evaluate(i.cards)); } catch (x) { return { threw: describe(x) }; }
    let bestValue;
    try {
      const again = e.evaluate(r.best);
      bestValue = again === null || typeof again !== 'object' ? clone(again) : clone(again.value);
    } catch (x) { bestValue = { threw: describe(x) }; }
    return { result: r, bestValue };
  }

  function equity(i) {
    const e = engine('equity'), counter = { calls: 0 }, counted = i.random.kind === 'counted';
    try {
      const value = i.random.kind === 'omitted' ? e.equity(i.hole, i.board, i.opponents, i.iterations)
        : e.equity(i.hole, i.board, i.opponents, i.iterations, randomArg(i.random, counter));
      const out = counted ? { equity: clone(value), calls: counter.calls } : { equity: clone(value) };
      // on a complete board, the engine's own evaluate of the hero's seven cards: an equity that is
      // off is judged with it (helper_causes.equity_behaviour: a hand it ranks otherwise)
      if (Array.isArray(i.board) && i.board.length === 5 && typeof e.evaluate === 'function') {
        try { out.own = clone(e.evaluate(i.hole.concat(i.board))); } catch (x) { if (exhausted(x)) throw x; }
      }
      return out;
    } catch (x) { return { threw: describe(x) }; }
  }

  function pots(i) {
    const e = typeof PokerEngine === 'undefined' ? undefined : PokerEngine;
    if (e === null || (typeof e !== 'object' && typeof e !== 'function') || typeof e.buildPots !== 'function') {
      return { skipped: 'PokerEngine.buildPots is not provided (an optional extension)' };
    }
    try { return { pots: clone(e.buildPots(i.contributions)) }; } catch (x) { return { threw: describe(x) }; }
  }

  // A game's `controllers`, when it lists them, are the `controllers` option (as for sng3v4).
  function create(spec) {
    const options = spec.controllers === undefined ? spec.options : Object.assign({}, spec.options, { controllers: spec.controllers });
    return engine('create').create(spec.seats, options);
  }

  // A fresh game with the prefix applied, or {error}.
  // With `trail`, the prefix's decisions and action records (the judge follows them as a game's).
  function prepared(i, trail) {
    let g;
    try { g = create(i.game); } catch (x) { if (x instanceof Missing) throw x; return { error: failure('create', x) }; }
    for (let k = 0; k < i.prefix.length; k++) {
      if (trail) {
        try { trail.decisions.push(clone(g.state())); } catch (x) { if (exhausted(x)) throw x; trail = null; }
      }
      let action;
      try { action = g.act(i.prefix[k]); } catch (x) {
        // the state the refused answer was given in: the judge judges that decision (the engine's own)
        const out = { error: failure('act(prefix[' + k + '])', x) };
        try { out.prefixState = { at: k, state: clone(g.state()) }; } catch (y) { if (exhausted(y)) throw y; }
        return out;
      }
      if (trail) trail.actions.push(clone(action));
    }
    return { game: g };
  }

  function legality(i) {
    const trail = { decisions: [], actions: [] };
    const first = prepared(i, trail);
    if (first.error) {
      const out = { error: first.error, prefix: trail };
      if (first.prefixState) out.prefixState = first.prefixState;
      return out;
    }
    const g = first.game, out = { prefix: trail };
    try { out.state = clone(g.state()); } catch (x) { return { error: failure('state()', x) }; }
    try { out.act = { action: clone(g.act(i.answer)) }; } catch (x) {
      out.act = { threw: describe(x) };
      try { out.stateAfter = clone(g.state()); } catch (y) { out.error = failure('state() after the rejected act', y); return out; }
    }
    if (!out.act.threw) {  // the state the accepted answer left: tells a misstated record from a misapplied answer
      try { out.next = clone(g.state()); } catch (x) { if (exhausted(x)) throw x; }
    }
    const second = prepared(i);
    if (second.error) { out.error = second.error; return out; }
    try { out.submit = clone(second.game.submit(i.answer)); } catch (x) { out.submit = { threw: describe(x) }; }
    return out;
  }

  // The runner's edits of a state it received (INTERPRETING.md, hands): every field at every depth
  // (actions and history entries, seats, pots, you, tournament.blindSchedule) is overwritten and
  // every list grows; none of it may reach the engine's later states, log, history or standings.
  function junk(v) { return typeof v === 'number' ? -7 : typeof v === 'boolean' ? !v : 'mutated'; }
  function mutate(s, newestHistoryOnly) {
    const seen = new Set();
    function walk(v, depth) {
      if (v === null || typeof v !== 'object' || seen.has(v) || depth > MAX_DEPTH) return;
      seen.add(v);
      let keys;
      try { keys = Array.isArray(v) ? Array.from(v.keys()) : Object.keys(v); } catch (x) { if (exhausted(x)) throw x; return; }
      for (const k of keys) {
        try {
          const x = v[k];
          if (x !== null && typeof x === 'object') walk(x, depth + 1); else v[k] = junk(x);
        } catch (x) { if (exhausted(x)) throw x; /* frozen or exotic */ }
      }
      try { if (Array.isArray(v)) v.push({ handNumber: -1, mutated: true }); else v.mutated = true; }
      catch (x) { if (exhausted(x)) throw x; }
    }
    if (newestHistoryOnly && isObject(s) && Array.isArray(s.history)) {
      try { for (let k = 0; k < s.history.length - 1; k++) seen.add(s.history[k]); } catch (x) { if (exhausted(x)) throw x; }
    }
    walk(s, 0);
  }
  // Equality of two recorded (cloned) values.
  function equal(a, b) {
    if (a === b) return true;
    if (typeof a === 'number' && typeof b === 'number') return a !== a && b !== b;
    if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (let k = 0; k < ka.length; k++) if (ka[k] !== kb[k] || !equal(a[ka[k]], b[ka[k]])) return false;
    return true;
  }

  function finish(g, out) {
    try { out.over = clone(g.over); } catch (x) { out.error = out.error || failure('over', x); }
    try { out.history = clone(g.history()); } catch (x) { out.error = out.error || failure('history()', x); }
    try { out.standings = clone(g.standings()); } catch (x) { out.error = out.error || failure('standings()', x); }
    return out;
  }

  function hands(i) {
    const out = { decisions: [], again: [], actions: [] };
    let g;
    try { g = create(i.game); } catch (x) { if (x instanceof Missing) throw x; out.error = failure('create', x); return out; }
    playing = out;
    // Optional steps first (fuzz games, conformance/judge/fuzz.py): answers through submit, timeouts.
    if (i.steps !== undefined) {
      out.steps = [];
      for (let k = 0; k < i.steps.length; k++) {
        const o = step(g, k, i.steps[k]);
        if (o.error !== undefined && !('state' in o)) { out.error = o.error; return finish(g, out); }
        out.steps.push(o);
      }
    }
    for (let k = 0; k < i.script.length; k++) {
      let s;
      try { s = g.state(); } catch (x) { out.error = failure('state() before answer ' + k, x); return out; }
      if (s === null || typeof s !== 'object') {
        out.error = { at: 'state() before answer ' + k, message: 'returned ' + show(s) + ' before the script ended' };
        return finish(g, out);
      }
      out.decisions.push(clone(s));
      mutate(s);
      try { out.again.push(clone(g.state())); } catch (x) { out.error = failure('second state() before answer ' + k, x); return out; }
      try { out.actions.push(clone(g.act(i.script[k]))); } catch (x) { out.error = failure('act(answer ' + k + ')', x); return finish(g, out); }
    }
    return finish(g, out);
  }

  const check = s => s.canCheck ? 'check' : null;
  const caller = s => check(s) || 'call';
  const checker = s => check(s) || 'fold';
  const shover = s => s.canAllIn ? 'allin' : caller(s);
  const minRaiser = s => s.minRaiseTo !== null ? { type: 'raise', amount: Math.min(s.minRaiseTo, s.maxRaiseTo) } : caller(s);
  const STRATEGIES = {
    caller, checker, shover, 'min-raiser': minRaiser,
    cycler: s => [caller, minRaiser, checker, shover][(s.handNumber + s.actions.length) % 4](s),
  };

  // Play the strategies to the end, then record log() and standings() into `out`. With `out.decisions`
  // (tournaments), every decision state is recorded before the runner's edits (its history in
  // `histories`, once per change), each action the engine records, then history() and over.
  function playOut(g, strategies, out, seats) {
    let lastHistory = null, lastHand = null;
    // `n` indexes this list of decisions; messages number them as the judge and reproductions do,
    // after the game's steps (sng3v4's come first).
    const base = Array.isArray(out.steps) ? out.steps.length : 0;
    for (let n = 0; ; n++) {
      let s;
      try { s = g.state(); } catch (x) { out.error = failure('state() at decision ' + (base + n), x); break; }
      if (s === null) break;
      if (n === MAX_DECISIONS) { out.error = { at: 'decision ' + (base + n), message: 'the game did not end within ' + n + ' decisions' }; break; }
      let answer, seen = s;
      if (out.decisions) {
        seen = clone(s);
        // Every field at every depth; the older history entries at a hand's first decision only
        // (they were the same objects at every decision of the hand). The next state, log,
        // history and standings are judged against the reference's: nothing may have leaked.
        const handStart = !(isObject(seen) && seen.handNumber === lastHand);
        mutate(s, !handStart);
        if (isObject(seen)) lastHand = seen.handNumber;
        if (handStart) {
          // A second state() after the edits at each hand's first decision; once it differs, the
          // engine hands out its own objects and the game is not recorded further (it would grow
          // with every edit).
          let again;
          try { again = clone(g.state()); } catch (x) { out.error = failure('second state() at decision ' + (base + n), x); break; }
          if (!equal(again, seen)) {
            out.fresh.push({ decision: n, state: again });
            out.decisions.push(seen);
            out.error = { at: 'decision ' + (base + n), message: 'not recorded further: a second state() differs from the first after the runner edited it' };
            break;
          }
          // The standings while the hand is in play (docs/engine-api.md: place null; R43: chips at its start).
          try { out.standingsAt.push({ decision: n, standings: clone(g.standings()) }); } catch (x) {
            out.error = failure('standings() at decision ' + (base + n), x);
            break;
          }
        }
        // A history is recorded once, at the first decision that shows it (trajectory.expand).
        const recorded = isObject(seen) ? Object.assign({}, seen) : seen;
        if (isObject(seen)) {
          const h = [Object.prototype.hasOwnProperty.call(seen, 'history'), seen.history];
          if (lastHistory === null || !equal(h, lastHistory)) {
            out.histories.push({ decision: n, present: h[0], history: seen.history });
            lastHistory = h;
          }
          delete recorded.history;
        }
        out.decisions.push(recorded);
      }
      // A seat of the vector's own game that the vector gives no strategy is the suite's error (a
      // suite error, never the engine's failure: issue #38); a seat the game does not have, or a
      // state the strategy cannot read, is the engine's.
      const seat = isObject(seen) && isObject(seen.you) ? seen.you.seat : undefined;
      if (Number.isInteger(seat) && seat >= 0 && Array.isArray(seats) && seat < seats.length
          && !(Array.isArray(strategies) && typeof STRATEGIES[strategies[seat]] === 'function')) {
        out.suiteError = { at: 'decision ' + (base + n), message: 'the vector gives no strategy for seat ' + seat
          + ' of the ' + seats.length + ' seats of its game (strategies ' + show(strategies) + ')' };
        break;
      }
      try { answer = STRATEGIES[strategies[seen.you.seat]](seen); } catch (x) {
        out.error = failure('decision ' + (base + n) + ': the strategy of the seat to act could not read the state', x);
        break;
      }
      let action;
      try { action = g.act(answer); } catch (x) { out.error = failure('act(' + JSON.stringify(answer) + ') at decision ' + (base + n), x); break; }
      if (out.actions) out.actions.push(clone(action));
    }
    try { out.log = clone(g.log()); } catch (x) { out.error = out.error || failure('log()', x); }
    try { out.standings = clone(g.standings()); } catch (x) { out.error = out.error || failure('standings()', x); }
    if (out.decisions) finish(g, out);
    if (out.decisions && out.error === undefined) {
      out.shared = { log: shared(() => g.log()), history: shared(() => g.history()), standings: shared(() => g.standings()) };
    }
    if (out.decisions && out.error === undefined) afterTheEnd(out, g, () => [g.over, g.history(), g.log(), g.standings()], [
      ['act', () => g.act('fold')], ['submit', () => g.submit('fold')], ['timeout', () => g.timeout()]]);
    return out;
  }

  // R45: whether a caller's edit of a value the engine handed out (`read()`) reaches the engine.
  function shared(read) {
    try {
      const first = read(), before = clone(first);
      mutate(first);
      return !equal(clone(read()), before);
    } catch (x) { if (exhausted(x)) throw x; return false; }
  }
  // R45: whether a caller's edit of the input it gave (`input`, JSON) after the call reaches the
  // engine: a second game or hand made from a copy, read (`read`) before and after editing the copy.
  function keepsInput(make, input, read) {
    try {
      const copy = JSON.parse(JSON.stringify(input)), made = make(copy), before = clone(read(made));
      mutate(copy);
      return !equal(clone(read(made)), before);
    } catch (x) { if (exhausted(x)) throw x; return false; }
  }

  // R44: answers given once the game (or hand) is over, each recorded as {threw} or {returned},
  // and whether what the engine reports of the finished game (`ends()`) stayed the same.
  function afterTheEnd(out, g, ends, calls) {
    let before;
    try { if (g.state() !== null) return; before = clone(ends()); } catch (x) { if (exhausted(x)) throw x; return; }
    const probes = {};
    for (const [name, call] of calls) {
      try { probes[name] = { returned: clone(call()) }; } catch (x) { if (exhausted(x)) throw x; probes[name] = { threw: describe(x) }; }
    }
    let same;
    try { same = equal(clone(ends()), before); } catch (x) { if (exhausted(x)) throw x; same = false; }
    out.afterEnd = { probes, same };
  }

  function tournaments(i) {
    const out = { decisions: [], histories: [], fresh: [], standingsAt: [], actions: [] };
    let g;
    try { g = create(i.game); } catch (x) { if (x instanceof Missing) throw x; out.error = failure('create', x); return out; }
    playing = out;
    const input = keepsInput((o) => engine('create').create(i.game.seats, o), i.game.options, (m) => [m.state(), m.standings()]);
    playOut(g, i.strategies, out, i.game.seats);
    if (out.shared) out.shared.options = input;
    return out;
  }

  // holdem-sng-3-v4 (INTERPRETING.md, sng3v4): the steps with virtual time, then the strategies.
  const isObject = v => v !== null && typeof v === 'object' && !Array.isArray(v);
  function step(g, k, st) {
    const where = 'steps[' + k + ']';
    if (isObject(st) && 'recover' in st) {
      if (typeof g.recover !== 'function') {
        return { error: { at: 'recover(' + show(st.recover) + ') at ' + where, message: 'game.recover is not a function' } };
      }
      try { g.recover(st.recover); } catch (x) {
        const d = describe(x);
        return { refused: d.field === undefined ? null : d.field, seat: st.recover, reason: d.message };
      }
      return { recovered: st.recover };
    }
    let s;
    try { s = clone(g.state()); } catch (x) { return { error: failure('state() at ' + where, x) }; }
    if (!isObject(s)) return { error: { at: 'state() at ' + where, message: 'returned ' + show(s) + ' before the steps ended' } };
    const timed = isObject(st) && 'atMs' in st;
    const late = (isObject(st) && Object.keys(st).length === 1 && st.timeout === true) || (timed && st.atMs >= s.timeLimitMs);
    let r;
    try { r = late ? g.timeout() : g.submit(timed ? st.answer : st); } catch (x) {
      return { error: failure((late ? 'timeout()' : 'submit(answer)') + ' at ' + where, x) };
    }
    r = clone(r);
    return isObject(r) ? { state: s, action: r.action, error: r.error } : { state: s, action: r };
  }

  function sng3v4(i) {
    const out = { steps: [], decisions: [], histories: [], fresh: [], standingsAt: [], actions: [] };
    const options = Object.assign({}, i.game.options, { ruleset: 'holdem-sng-3-v4' });
    if (i.game.controllers !== undefined) options.controllers = i.game.controllers;
    let g;
    try { g = engine('create').create(i.game.seats, options); } catch (x) {
      if (x instanceof Missing) throw x;
      out.error = failure('create', x);
      return out;
    }
    playing = out;
    for (let k = 0; k < i.steps.length; k++) {
      const o = step(g, k, i.steps[k]);
      if (o.error !== undefined && !('state' in o)) { out.error = o.error; return out; }
      out.steps.push(o);
    }
    return playOut(g, i.strategies, out, i.game.seats);
  }

  // The hand-level API (INTERPRETING.md, hand): the state before each answer, the runner's edits
  // of it and a second state() (as for hands: nothing may leak), then act; a refused answer is
  // recorded as {threw} and ends the script.
  function hand(i) {
    const e = engine('createHand');
    let h;
    try { h = e.createHand(i.hand); } catch (x) { return { error: failure('createHand', x) }; }
    const out = { decisions: [], again: [], actions: [] };
    playing = out;
    for (let k = 0; k < i.script.length; k++) {
      let s;
      try { s = h.state(); } catch (x) { out.error = failure('state() before answer ' + k, x); return out; }
      if (s === null) break;
      out.decisions.push(clone(s));
      mutate(s);
      try { out.again.push(clone(h.state())); } catch (x) { out.error = failure('second state() before answer ' + k, x); return out; }
      try { out.actions.push(clone(h.act(i.script[k]))); } catch (x) {
        if (exhausted(x)) throw new Spent('act(answer ' + k + ')', x);
        out.actions.push({ threw: describe(x) });
        break;
      }
    }
    try { out.over = clone(h.over); } catch (x) { out.error = failure('over', x); return out; }
    try { out.result = clone(h.result()); } catch (x) { out.error = failure('result()', x); }
    if (out.over === true && out.error === undefined) {
      out.shared = { result: shared(() => h.result()), spec: keepsInput((sp) => e.createHand(sp), i.hand, (m) => [m.state(), m.result()]) };
    }
    if (out.over === true && out.error === undefined) afterTheEnd(out, h, () => [h.over, h.result()], [['act', () => h.act('fold')]]);
    // A hand not over after the script: the state it waits on (the seat it asks; issue #38).
    if (out.over === false && out.actions.length === i.script.length) {
      try { out.waiting = clone(h.state()); } catch (x) { /* optional: judged without it */ }
    }
    return out;
  }

  // The contract's "exported identically through UMD in Node" (engine.commonjs): `wrapper` is the
  // engine's text in Node's CommonJS wrapper, function (exports, require, module, __filename,
  // __dirname) {...} (compiled by the host: engine_drivers.commonjs_source), called as Node calls it,
  // with `this` = module.exports, in this realm, where the classic load defined PokerEngine.
  // module.exports must be the same API (each function of the global's, called once with the same
  // arguments, gives the same outcome), and the load must leave the global alone.
  const SAMPLE_CALLS = {
    rng: (e) => { const r = e.rng(7); return [r(), r(), r()]; },
    dealHand: (e) => e.dealHand(7, 1),
    evaluate: (e) => e.evaluate(['Ah', 'Kh', 'Qd', 'Qs', '2c', '7h', '9d']),
    equity: (e) => e.equity(['Ah', 'Ad'], ['Kc', '7d', '2s'], 1, 20, mulberry32(3)),
    buildPots: (e) => e.buildPots([{ id: 'a', committed: 100, folded: false }, { id: 'b', committed: 40, folded: false },
      { id: 'c', committed: 100, folded: true }]),
    create: (e) => e.create(['A', 'B', 'C'], { seed: 1, maxHands: 1 }).state(),
    createHand: (e) => e.createHand({ ids: ['s1', 's2', 's3'], stacks: [1000, 1000, 1000], button: 0, smallBlindSeat: 1,
      bigBlindSeat: 2, blinds: [10, 20], deck: ['Ah', 'Kd', '7c', 'As', 'Kh', '2d'] }).state(),
  };
  function outcome(e, name) {
    try { return JSON.stringify(clone(SAMPLE_CALLS[name](e)), wire()); } catch (x) { return JSON.stringify({ threw: describe(x) }); }
  }
  function commonjs(wrapper) {
    const global = typeof PokerEngine === 'undefined' ? undefined : PokerEngine, holder = {}, unset = {};
    if (global === null || (typeof global !== 'object' && typeof global !== 'function')) throw new Missing('PokerEngine');
    const saved = globalThis.PokerEngine;
    const module = { exports: {} };
    let threw = null;
    try {
      globalThis.PokerEngine = unset;
      wrapper.call(module.exports, module.exports, function require(name) {
        throw new Error('require(' + text(name) + '): the engine is self-contained');
      }, module, '/engine/poker-engine.js', '/engine');
    } catch (x) { threw = describe(x); }
    const after = globalThis.PokerEngine;
    globalThis.PokerEngine = saved;
    holder.definedGlobal = after !== unset;
    if (threw !== null) return Object.assign(holder, { loadThrew: threw });
    const api = module.exports;
    holder.type = api === null ? 'null' : typeof api;
    holder.differs = [];
    for (const name of FUNCTIONS) {
      if (typeof global[name] !== 'function') continue;
      let theirs;
      try { theirs = api === null || api === undefined ? undefined : api[name]; } catch (x) { theirs = undefined; }
      if (typeof theirs !== 'function') { holder.differs.push({ name, missing: true }); continue; }
      if (!(name in SAMPLE_CALLS)) continue;
      // A function whose outcome differs between two calls on the global (it draws from Math.random,
      // say) cannot be compared by outcome: being a function is all that is checked of it.
      const want = outcome(global, name);
      if (outcome(global, name) !== want) continue;
      const got = outcome(api, name);
      if (want !== got) holder.differs.push({ name, global: want.slice(0, 300), exported: got.slice(0, 300) });
    }
    return holder;
  }

  const FAMILIES = { rng, deck, evaluate, equity, pots, legality, hands, hand, tournaments, sng3v4, module: commonjs };
  // A JSON.stringify replacer giving the worker's tags for what JSON cannot carry.
  function wire() {
    const wrapped = new Set(); // objects with their own '$' key, already wrapped as {$: 'object', value}
    return function (key, x) {
      if (x === TOO_DEEP) return { $: 'truncated', reason: 'nested deeper than ' + MAX_DEPTH + ' levels' };
      switch (typeof x) {
        case 'number':
          if (x !== x) return { $: 'number', value: 'NaN' };
          if (x === Infinity || x === -Infinity) return { $: 'number', value: x > 0 ? 'Infinity' : '-Infinity' };
          return Object.is(x, -0) ? { $: 'number', value: '-0' } : x;
        case 'undefined': return { $: 'undefined' };
        case 'bigint': return { $: 'bigint', value: String(x) };
        case 'symbol': return { $: 'symbol', description: text(x.description) };
        case 'function': return { $: 'function', name: text(x.name) };
        default:
          if (x !== null && typeof x === 'object' && !Array.isArray(x) && Object.prototype.hasOwnProperty.call(x, '$')
              && !wrapped.has(x)) {
            wrapped.add(x);
            return { $: 'object', value: x };
          }
          return x;
      }
    };
  }
  globalThis.__holdemDriver = function (family, input) {
    let out;
    playing = null;
    try { out = FAMILIES[family](input); } catch (x) {
      const spent = x instanceof Spent ? x : playing !== null && exhausted(x) ? new Spent('a call of the engine', x) : null;
      if (spent !== null) {  // the game recorded up to the call that exhausted memory or stack
        out = playing;
        out.error = { at: spent.at, name: null, message: exhaustedText(spent.x), exhausted: true };
        out.exhausted = true;
      } else {
        out = x instanceof Missing ? { missing: x.name } : { error: failure('driver', x) };
      }
    }
    playing = null;
    let text;
    try { text = JSON.stringify(out, wire()); } catch (x) {
      return JSON.stringify({ error: failure('driver: recording the outcome', x) });
    }
    return text.length > MAX_ANSWER ? JSON.stringify({ tooLarge: text.length }) : text;
  };

  const e = typeof PokerEngine === 'undefined' ? undefined : PokerEngine;
  const probe = { type: e === null ? 'null' : typeof e, version: null, functions: {} };
  if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
    for (const name of FUNCTIONS) {
      try { probe.functions[name] = typeof e[name] === 'function'; } catch (_) { probe.functions[name] = false; }
    }
    try { if (typeof e.version === 'string') probe.version = e.version; } catch (_) {}
    try { if (Array.isArray(e.profiles)) probe.profiles = e.profiles.filter((p) => typeof p === 'string').slice(0, 16); } catch (_) {}
  }
  return probe;
})
