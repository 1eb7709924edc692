'use strict';

// Mixes its play with Math.random, the runner's seeded stream: reproducible
// for a given botSeed.
function raiseTo(state, target) {
  if (state.minRaiseTo === null) return null;
  return { type: 'raise', amount: Math.min(Math.max(state.minRaiseTo, target), state.maxRaiseTo) };
}

module.exports = function act(state) {
  const r = Math.random();
  if (r < 0.15) {
    const raise = raiseTo(state, state.currentBet + Math.floor(Math.random() * 4 + 1) * state.blinds[1]);
    if (raise) return raise;
  }
  if (state.canCheck) return 'check';
  return r < 0.6 ? 'call' : 'fold';
};
