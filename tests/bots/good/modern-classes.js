'use strict';

// ES2022 classes as a browser worker runs them: private fields and methods, `#x in obj`,
// a static block, a static field naming its own class, class fields, optional chaining,
// nullish coalescing, logical assignment and numeric separators. Plays by hand strength.
class Range {
  static #tiers = new Map();
  static premium;
  static DEFAULT = new Range('default');   // a static field referring to its own class

  static {
    for (const [tier, hands] of Object.entries({ 3: 'AA KK QQ JJ AK', 2: 'TT 99 88 AQ AJ KQ', 1: '77 66 55 AT KJ QJ JT' })) {
      for (const hand of hands.split(' ')) Range.#tiers.set(hand, Number(tier));
    }
    Range.premium = Range.#tiers.size;
  }

  #name;
  calls = 0;

  constructor(name) {
    this.#name = name;
  }

  static isRange(value) {
    return #name in value;
  }

  get name() {
    return this.#name;
  }

  #key(cards) {
    const order = '23456789TJQKA';
    return cards.map((c) => c[0]).toSorted((x, y) => order.indexOf(y) - order.indexOf(x)).join('');
  }

  tier(cards) {
    this.calls += 1;
    return Range.#tiers.get(this.#key(cards)) ?? 0;
  }
}

const seen = {};

module.exports = {
  name: 'Modern Classes',
  act(state) {
    const range = Range.isRange(Range.DEFAULT) ? Range.DEFAULT : null;
    const tier = range?.tier(state.you.cards) ?? 0;
    seen[state.you.id] ||= 0;
    seen[state.you.id] += 1;
    const bigBlind = state.blinds?.at(-1) ?? 1_000;
    if (tier >= 3 && state.minRaiseTo !== null && state.minRaiseTo <= state.maxRaiseTo) {
      return { type: 'raise', amount: Math.min(state.maxRaiseTo, Math.max(state.minRaiseTo, 3 * bigBlind)) };
    }
    if (state.canCheck) return { type: 'check' };
    return { type: tier > 0 && state.toCall <= tier * 2 * bigBlind ? 'call' : 'fold' };
  },
};
