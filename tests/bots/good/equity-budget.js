'use strict';

// PokerEngine.equity with a fixed budget of 200 samples, against every live
// opponent; calls when its share beats the pot odds.
const ITERATIONS = 200;

module.exports = function act(state) {
  const opponents = state.seats.filter((s) => !s.folded && !s.out && s.id !== state.you.id).length;
  const equity = PokerEngine.equity(state.you.cards, state.board, Math.min(8, Math.max(1, opponents)),
    ITERATIONS, Math.random);
  const pot = state.pots.reduce((sum, p) => sum + p.amount, 0);
  if (equity > 0.7 && state.minRaiseTo !== null) {
    return { type: 'raise', amount: Math.min(Math.max(state.minRaiseTo, state.currentBet + pot), state.maxRaiseTo) };
  }
  if (state.canCheck) return { type: 'check' };
  return { type: equity >= state.toCall / (pot + state.toCall) ? 'call' : 'fold' };
};
