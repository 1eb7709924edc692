"""Drivers that run one golden vector against an engine and return what the engine did.

Two drivers share one interface (``start() -> dict``, ``run(family, test) -> Run``, ``close()``):

- :class:`QuickJSDriver` loads a JavaScript engine (and an optional adapter script) in a
  QuickJS worker (:mod:`conformance.host.worker`) and installs a small driver there, so that a whole
  vector -- a hand script, a tournament, the 2.6M-hand evaluate digest -- is one round trip.
- :class:`CommandDriver` talks to an engine in any language over the JSON-lines protocol of
  ``docs/engine-protocol.md``.

Both return the *actual outcome* in the shapes that document defines (``result``), or say the
engine skipped the vector, or that the run errored (``fatal`` when the engine hung, crashed or
spoke garbage: the driver then starts a fresh engine for the next vector). Judging is
:mod:`conformance.judge.engine_cert`'s business.
"""
from __future__ import annotations

import json
import shlex
import subprocess
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.host import jsvalue
from conformance.host.worker import Worker, decode as decode_wire
from conformance.host.linepipe import Eof, Late, LinePipe, Tail, TooLong, kill_group, signal_name
from conformance.vectors.schemas import BASE, registry

ENGINE_FUNCTIONS = ("rng", "dealHand", "evaluate", "equity", "buildPots", "create")
# The digest is 2,598,960 evaluate calls inside one request: it gets its own budget.
DIGEST_FLOOR_MS = 180_000
DIGEST_FACTOR = 30
STDERR_TAIL = 2000
# The largest outcome an engine may give for one vector (its JSON; the largest expected one is about
# 1 MB): more fails the vector, so that reading and judging an answer stays fast.
MAX_ANSWER = 8 << 20
PROTOCOL_VERSION = 1


class EngineLoadError(Exception):
    """The engine could not be started: it does not parse, throws or hangs at load, lacks
    ``PokerEngine``, or (``--cmd``) cannot be run or answers ``start`` with garbage."""


@dataclass(frozen=True)
class Run:
    """What happened to one vector: ``kind`` is ``result`` (``value`` is the outcome data),
    ``skipped`` (``value`` is the reason) or ``errored`` (``value`` says what went wrong;
    ``fatal`` when the engine was killed or died and will be restarted)."""

    kind: str
    value: Any = None
    fatal: bool = False


def digest_timeout_ms(timeout_ms: float) -> float:
    return max(DIGEST_FLOOR_MS, DIGEST_FACTOR * timeout_ms)


def is_digest(test: dict) -> bool:
    return test["input"].get("digest") == "five-card"


# A whole tournament recorded step by step (every decision state) is one request: it gets a few
# timeouts' worth (the longest golden one, 2,400 decisions, takes about 1.5 s alone).
GAME_FACTOR = 4
RECORDED_GAMES = frozenset({"tournaments", "sng3v4"})


def budget_ms(family: str, test: dict, timeout_ms: float) -> float:
    """The deadline of one vector: the digest's, a recorded game's, or the plain timeout."""
    if is_digest(test):
        return digest_timeout_ms(timeout_ms)
    return GAME_FACTOR * timeout_ms if family in RECORDED_GAMES else timeout_ms


# ---------------------------------------------------------------------------------------------
# QuickJS
# ---------------------------------------------------------------------------------------------

# Installed with evalFn after the engine and the adapter have loaded. `__holdemDriver(family,
# input)` returns the outcome shapes of docs/engine-protocol.md as one string, in the worker's
# tagged JSON encoding (conformance.host.worker.decode), so that a long game's outcome is not cut at the
# worker's limit on transported values; it never throws on the engine's account. Everything the
# engine returns is copied at once: an engine that later mutates an object it handed out must not
# change what was recorded.
DRIVER_JS = r"""
function () {
  'use strict';
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
  function failure(at, x) { return Object.assign({ at }, describe(x)); }
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
  function randomArg(spec) {
    if (spec.kind === 'mulberry32') return mulberry32(spec.seed);
    if (spec.kind === 'constant') return () => spec.value;
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
    const options = i.game.options, decks = {};
    for (let n = 1; n <= options.maxHands; n++) {
      try { decks[n] = clone(e.dealHand(options.seed, n)); } catch (x) { return { threw: describe(x) }; }
    }
    const out = {};
    for (const [key, game] of [['seeded', i.game], ['pinned', { seats: i.game.seats, options: Object.assign({}, options, { decks }) }]]) {
      let g;
      try { g = create(game); } catch (x) { if (x instanceof Missing) throw x; out[key] = { error: failure('create', x) }; continue; }
      out[key] = playOut(g, i.strategies, {});
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
    const e = engine('equity');
    try { return { equity: clone(e.equity(i.hole, i.board, i.opponents, i.iterations, randomArg(i.random))) }; }
    catch (x) { return { threw: describe(x) }; }
  }

  function pots(i) {
    const e = typeof PokerEngine === 'undefined' ? undefined : PokerEngine;
    if (e === null || (typeof e !== 'object' && typeof e !== 'function') || typeof e.buildPots !== 'function') {
      return { skipped: 'PokerEngine.buildPots is not provided (an optional extension)' };
    }
    try { return { pots: clone(e.buildPots(i.contributions)) }; } catch (x) { return { threw: describe(x) }; }
  }

  function create(spec) { return engine('create').create(spec.seats, spec.options); }

  // A fresh game with the prefix applied, or {error}.
  function prepared(i) {
    let g;
    try { g = create(i.game); } catch (x) { if (x instanceof Missing) throw x; return { error: failure('create', x) }; }
    for (let k = 0; k < i.prefix.length; k++) {
      try { g.act(i.prefix[k]); } catch (x) { return { error: failure('act(prefix[' + k + '])', x) }; }
    }
    return { game: g };
  }

  function legality(i) {
    const first = prepared(i);
    if (first.error) return { error: first.error };
    const g = first.game, out = {};
    try { out.state = clone(g.state()); } catch (x) { return { error: failure('state()', x) }; }
    try { out.act = { action: clone(g.act(i.answer)) }; } catch (x) {
      out.act = { threw: describe(x) };
      try { out.stateAfter = clone(g.state()); } catch (y) { out.error = failure('state() after the rejected act', y); return out; }
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
  function playOut(g, strategies, out) {
    let lastHistory = null, lastHand = null;
    for (let n = 0; ; n++) {
      let s;
      try { s = g.state(); } catch (x) { out.error = failure('state() at decision ' + n, x); break; }
      if (s === null) break;
      if (n === MAX_DECISIONS) { out.error = { at: 'decision ' + n, message: 'the game did not end within ' + n + ' decisions' }; break; }
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
          try { again = clone(g.state()); } catch (x) { out.error = failure('second state() at decision ' + n, x); break; }
          if (!equal(again, seen)) {
            out.fresh.push({ decision: n, state: again });
            out.decisions.push(seen);
            out.error = { at: 'decision ' + n, message: 'not recorded further: a second state() differs from the first after the runner edited it' };
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
      try { answer = STRATEGIES[strategies[seen.you.seat]](seen); } catch (x) {
        out.error = failure('decision ' + n + ': the strategy of the seat to act could not read the state', x);
        break;
      }
      let action;
      try { action = g.act(answer); } catch (x) { out.error = failure('act(' + JSON.stringify(answer) + ') at decision ' + n, x); break; }
      if (out.actions) out.actions.push(clone(action));
    }
    try { out.log = clone(g.log()); } catch (x) { out.error = out.error || failure('log()', x); }
    try { out.standings = clone(g.standings()); } catch (x) { out.error = out.error || failure('standings()', x); }
    if (out.decisions) finish(g, out);
    return out;
  }

  function tournaments(i) {
    const out = { decisions: [], histories: [], fresh: [], actions: [] };
    let g;
    try { g = create(i.game); } catch (x) { if (x instanceof Missing) throw x; out.error = failure('create', x); return out; }
    return playOut(g, i.strategies, out);
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
    const out = { steps: [], decisions: [], histories: [], fresh: [], actions: [] };
    const options = Object.assign({}, i.game.options, { ruleset: 'holdem-sng-3-v4' });
    if (i.game.controllers !== undefined) options.controllers = i.game.controllers;
    let g;
    try { g = engine('create').create(i.game.seats, options); } catch (x) {
      if (x instanceof Missing) throw x;
      out.error = failure('create', x);
      return out;
    }
    for (let k = 0; k < i.steps.length; k++) {
      const o = step(g, k, i.steps[k]);
      if (o.error !== undefined && !('state' in o)) { out.error = o.error; return out; }
      out.steps.push(o);
    }
    return playOut(g, i.strategies, out);
  }

  const FAMILIES = { rng, deck, evaluate, equity, pots, legality, hands, tournaments, sng3v4 };
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
    try { out = FAMILIES[family](input); } catch (x) {
      out = x instanceof Missing ? { missing: x.name } : { error: failure('driver', x) };
    }
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
  }
  return probe;
}
""".replace("FUNCTIONS", json.dumps(list(ENGINE_FUNCTIONS))).replace("MAX_ANSWER", str(MAX_ANSWER))


def _too_large(size: str) -> str:
    return f"answer too large: {size} of JSON, limit {MAX_ANSWER} (docs/engine-protocol.md, Limits)"


def _thrown_text(error: dict | None) -> str:
    error = error or {}
    return f"{error['name']}: {error.get('message')}" if error.get("name") else str(error.get("message"))


def _fatal_message(kind: str, error: dict | None, timeout_ms: float) -> str:
    if kind == "memory":
        return "the engine ran out of memory; it is restarted for the next vector"
    if kind == "late":
        return f"no answer within {timeout_ms:g} ms; the engine was stopped and is restarted for the next vector"
    message = (error or {}).get("message") or kind
    if kind == "crash":
        tail = (error or {}).get("stderr") or ""
        return f"the engine process died: {message}" + (f"; stderr: {tail[-500:]}" if tail else "")
    return f"{kind}: {message}; the engine is restarted for the next vector"


class QuickJSDriver:
    """A JavaScript engine (plus preludes and an adapter) in a QuickJS worker.

    ``preludes`` are scripts loaded before the engine in the same script (libraries the engine
    wraps); the adapter is loaded after it and may define or replace ``PokerEngine``.
    """

    language = "javascript"

    def __init__(self, engine_source: str, *, engine_name: str, adapter_source: str | None = None,
                 timeout_ms: float = 10_000) -> None:
        self.engine_source = engine_source
        self.engine_name = engine_name
        self.adapter_source = adapter_source
        self.timeout_ms = timeout_ms
        self.digest_ms = digest_timeout_ms(timeout_ms)
        self.info: dict | None = None
        self._worker: Worker | None = None

    def start(self) -> dict:
        """Load the engine; its description (name, version, functions). Raises EngineLoadError."""
        probe = self._spawn()
        if probe["type"] not in ("object", "function"):
            self.close()
            raise EngineLoadError(f"the engine does not define a global PokerEngine object (typeof PokerEngine is "
                                  f"{probe['type']!r}); an adapter script may define it (--adapter)")
        functions = probe["functions"]
        self.info = {
            "name": self.engine_name, "version": probe["version"], "language": self.language,
            "missing": [f"PokerEngine.{n}" for n in ENGINE_FUNCTIONS if not functions.get(n)],
        }
        return self.info

    def _spawn(self) -> dict:
        worker = Worker(cpu_limit_ms=int(self.digest_ms))
        out = worker.start(self.engine_source, self.adapter_source or "", 0, mode="engine",
                           init_timeout_ms=self.timeout_ms)
        if not out.ok:
            worker.close()
            raise EngineLoadError(self._load_failure(out))
        probe = worker.eval_fn(DRIVER_JS, [], timeout_ms=self.timeout_ms)
        if not probe.ok or not isinstance(probe.answer, dict):
            worker.close()
            raise EngineLoadError(f"installing the vector driver failed ({probe.kind}): {(probe.error or {}).get('message')}")
        self._worker = worker
        return probe.answer

    def _load_failure(self, out) -> str:
        error = out.error or {}
        where = "the adapter" if error.get("source") == "script" else "the engine"
        message = error.get("message") or out.kind
        if out.kind == "syntax":
            return f"{where} does not parse: {message}"
        if out.kind == "throw":
            name = f"{error['name']}: " if error.get("name") else ""
            return f"{where} threw while loading: {name}{message}"
        if out.kind == "late":
            return f"the engine did not finish loading within {self.timeout_ms:g} ms"
        return f"the engine could not be loaded ({out.kind}): {message}"

    def run(self, family: str, test: dict) -> Run:
        if self._worker is None or self._worker.dead:
            try:
                self._spawn()
            except EngineLoadError as exc:
                return Run("errored", f"restarting the engine failed: {exc}", fatal=True)
        timeout = budget_ms(family, test, self.timeout_ms)
        out = self._worker.call("__holdemDriver", [family, jsvalue.decode(test["input"])], timeout_ms=timeout)
        if out.kind == "ok":
            try:
                value = decode_wire(json.loads(out.answer)) if isinstance(out.answer, str) else out.answer
            except (ValueError, KeyError, TypeError, RecursionError) as exc:  # the driver bounds depth: a bug
                return Run("errored", f"the driver's answer could not be decoded ({type(exc).__name__}: {exc})")
            if isinstance(value, dict) and set(value) == {"skipped"}:
                return Run("skipped", value["skipped"])
            if isinstance(value, dict) and set(value) == {"tooLarge"}:
                return Run("errored", _too_large(f"{value['tooLarge']} characters"))
            return Run("result", value)
        if out.kind == "throw":  # only an exhausted stack escapes the driver (see exhausted() there)
            self.close()
            return Run("errored", f"the engine exhausted its resources ({_thrown_text(out.error)}); "
                                  "it is restarted for the next vector", fatal=True)
        if self._worker.dead:
            return Run("errored", _fatal_message(out.kind, out.error, timeout), fatal=True)
        return Run("errored", f"the driver call failed ({out.kind}): {(out.error or {}).get('message')}")

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None


# ---------------------------------------------------------------------------------------------
# --cmd: the JSON-lines protocol
# ---------------------------------------------------------------------------------------------

def _validator(definition: str):
    from jsonschema import Draft202012Validator

    schema = {"$ref": f"{BASE}engine-protocol.schema.json#/$defs/{definition}"}
    return Draft202012Validator(schema, registry=registry())


def _schema_problem(validator, message: dict) -> str | None:
    errors = sorted(validator.iter_errors(message), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    e = errors[0]
    where = "/".join(str(p) for p in e.absolute_path) or "(root)"
    return f"{where}: {e.message[:300]}"


class CommandDriver:
    """An engine in any language, run as ``command`` and spoken to in JSON lines (docs/engine-protocol.md).

    Each request has a wall-clock deadline; a late, crashed or garbled engine is killed (its whole
    process group) and started afresh before the next vector.
    """

    def __init__(self, command: str, *, timeout_ms: float = 10_000, start_timeout_ms: float = 10_000) -> None:
        self.command = command
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("the engine command is empty")
        self.timeout_ms = timeout_ms
        self.start_timeout_ms = max(start_timeout_ms, timeout_ms)
        self.info: dict | None = None
        self._proc: subprocess.Popen | None = None
        self._seq = 0
        self._start_validator = _validator("startResponse")
        self._run_validator = _validator("runResponse")

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> dict:
        implementation = self._spawn()
        self.info = {"name": implementation["name"], "version": implementation.get("version"),
                     "language": implementation.get("language"), "command": self.command, "missing": []}
        return self.info

    def _spawn(self) -> dict:
        try:
            self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, start_new_session=True, bufsize=0)
        except OSError as exc:
            self._proc = None
            raise EngineLoadError(f"cannot run {self.argv[0]!r}: {exc.strerror or exc}") from None
        # Killed however we end (an exception, a signal turned into one, interpreter exit).
        self._finalizer = weakref.finalize(self, kill_group, self._proc)
        self._stderr = Tail(self._proc.stderr, STDERR_TAIL)  # only its end is shown: only its end is kept
        self._pipe = LinePipe(self._proc)
        try:
            reply = self._exchange({"cmd": "start", "version": PROTOCOL_VERSION}, self.start_timeout_ms)
        except Late:
            self._kill()
            raise EngineLoadError(f"no answer to start within {self.start_timeout_ms:g} ms") from None
        except Eof:
            raise EngineLoadError(f"the engine exited before answering start ({self._exit_status()})") from None
        except (TooLong, ValueError) as exc:
            self._kill()
            raise EngineLoadError(f"bad answer to start: {exc}") from None
        problem = _schema_problem(self._start_validator, reply)
        if problem:
            self._kill()
            raise EngineLoadError(f"bad answer to start: {problem}")
        return reply["implementation"]

    def run(self, family: str, test: dict) -> Run:
        if self._proc is None:
            try:
                self._spawn()
            except EngineLoadError as exc:
                return Run("errored", f"restarting the engine failed: {exc}", fatal=True)
        self._seq += 1
        seq = self._seq
        # The engine reports what it does; the expectation stays with the runner.
        vector = {"family": family, "test": {k: v for k, v in test.items() if k != "expected"}}
        timeout = budget_ms(family, test, self.timeout_ms)
        try:
            reply = self._exchange({"cmd": "run", "seq": seq, "vector": vector}, timeout)
        except Late:
            self._kill()
            return Run("errored", _fatal_message("late", None, timeout), fatal=True)
        except Eof:
            return Run("errored", f"the engine process died: {self._exit_status()}", fatal=True)
        except TooLong as exc:
            self._kill()
            return Run("errored", _too_large(f"more than {exc.size} bytes"), fatal=True)
        except ValueError as exc:
            self._kill()
            return Run("errored", f"malformed answer: {exc}", fatal=True)
        problem = _schema_problem(self._run_validator, reply)
        if problem is None and reply["seq"] != seq:
            problem = f"seq: expected {seq}, got {reply['seq']}"
        if problem:
            self._kill()
            return Run("errored", f"malformed answer: {problem}", fatal=True)
        if "result" in reply:
            try:
                return Run("result", jsvalue.decode(reply["result"]))
            except ValueError as exc:
                return Run("errored", f"malformed result: {exc}")
        if "skipped" in reply:
            return Run("skipped", reply["skipped"].get("reason") or "(no reason given)")
        return Run("errored", f"the engine reported an error: {json.dumps(reply['errored'].get('context'))[:2000]}")

    def close(self) -> None:
        if self._proc is None:
            return
        try:
            self._pipe.write(b'{"cmd":"stop"}\n', time.perf_counter() + 0.5)
            self._proc.wait(1)
        except (Late, Eof, subprocess.TimeoutExpired):
            pass
        self._kill()

    # -- plumbing -------------------------------------------------------------------------------
    def _exchange(self, message: dict, timeout_ms: float) -> dict:
        deadline = time.perf_counter() + timeout_ms / 1000
        data = json.dumps(message, separators=(",", ":"), allow_nan=False).encode() + b"\n"
        self._pipe.write(data, deadline)
        line = self._pipe.read_line(deadline, MAX_ANSWER)
        try:
            reply = json.loads(line, parse_constant=_not_json)
        except (ValueError, RecursionError) as exc:
            raise ValueError(f"not JSON ({exc}): {line[:200]!r}") from None
        if not isinstance(reply, dict):
            raise ValueError(f"expected a JSON object, got {line[:200]!r}")
        return reply

    def _exit_status(self) -> str:
        try:
            code = self._proc.wait(1)
        except subprocess.TimeoutExpired:
            code = None
        how = ("it closed its output" if code is None else
               f"killed by {signal_name(-code)}" if code < 0 else f"exit status {code}")
        tail = self._stderr_tail()
        self._kill()
        return how + (f"; stderr: {tail}" if tail else "")

    def _stderr_tail(self) -> str:
        return self._stderr.text(wait=0.5).strip()

    def _kill(self) -> None:
        """SIGKILL the engine's process group (it leads its own session) and release everything."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        self._finalizer()  # kill_group, once
        self._pipe.close()
        proc.stdin.close()
        proc.stdout.close()  # stderr: the Tail's thread closes it at its end


def _not_json(token: str) -> None:
    """Python's json reads NaN, Infinity and -Infinity; JSON has no such tokens."""
    raise ValueError(f"{token} is not JSON")


def read_source(path: Path, what: str) -> str:
    """A script's text; OSError (exit 2) when it cannot be read, ValueError when it is not UTF-8."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: the {what} is not UTF-8 ({exc.reason} at byte {exc.start})") from None
