'use strict';

// Module-level memory that persists across decisions: decisions seen per hand
// and a running count of hands. It makes no assumption about which states come
// next, so it works whatever the order.
const seen = new Map();
let hands = 0;

module.exports = function act(state) {
  const key = state.handNumber + ':' + state.you.id;
  if (!seen.has(key)) {
    hands += 1;
    seen.set(key, 0);
    if (seen.size > 1000) seen.clear(); // bounded memory
  }
  seen.set(key, seen.get(key) + 1);
  // Gets more cautious the more it has acted in one hand.
  if (state.canCheck) return 'check';
  return seen.get(key) <= 2 && hands % 3 !== 0 ? 'call' : 'fold';
};
