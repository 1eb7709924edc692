'use strict';

// BigInt arithmetic, globalThis, WeakMap/WeakRef caches, Symbol keys, getters, optional catch
// binding, String padStart and Array.prototype.flat. It mixes the seeded Math.random stream into
// a 64-bit BigInt hash to vary its play.
const MASK = (1n << 64n) - 1n;
const PRIME = 0x100000001b3n;
const cache = new WeakMap();
const lastState = { ref: null };
const TAG = Symbol('modern-bigint');

function fnv(text) {
  let h = 0xcbf29ce484222325n;
  for (const ch of text) h = ((h ^ BigInt(ch.codePointAt(0))) * PRIME) & MASK;
  return h;
}

function hashOf(state) {
  let h = cache.get(state);
  if (h === undefined) {
    h = fnv([state.you.cards, state.board].flat().join('') + String(state.handNumber).padStart(4, '0'));
    cache.set(state, h);
  }
  return h;
}

const bot = {
  [TAG]: true,
  name: 'Modern BigInt',
  get ready() {
    return typeof globalThis.PokerEngine === 'object' && typeof globalThis.WeakRef === 'function';
  },
  act(state) {
    const previous = lastState.ref?.deref();
    lastState.ref = new WeakRef(state);
    let noise;
    try {
      noise = BigInt(Math.floor(Math.random() * 1024));
    } catch {
      noise = 0n;
    }
    const roll = Number((hashOf(state) ^ noise) % 100n);
    const aggressive = this.ready && this[TAG] && previous !== state && roll < 15;
    if (aggressive && state.minRaiseTo !== null && state.minRaiseTo <= state.maxRaiseTo) {
      return { type: 'raise', amount: state.minRaiseTo };
    }
    if (state.canCheck) return { type: 'check' };
    return { type: roll < 40 && state.toCall <= state.you.stack / 10 ? 'call' : 'fold' };
  },
};

module.exports = bot;
