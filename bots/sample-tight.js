'use strict';

// House sample: plays only strong starting hands. Preflop it raises premium
// hands, calls a small bet with good ones and folds the rest; after the flop
// it bets two pair or better, continues cheaply with a pair and otherwise
// gives up. It checks whenever checking is free.

const RANKS = '23456789TJQKA';
const RAISE_SCORE = 10; // TT+, AK, AQs, AJs, KQs
const CALL_SCORE = 8;   // 88+, AQo, AJo, KQo, KJs, QJs, suited connectors down to 98s
const GAP_PENALTY = [0, 1, 2, 4]; // by the number of ranks between the cards; 5 beyond

function rank(card) {
  return RANKS.indexOf(card[0]) + 2;
}

// Bill Chen's starting-hand score, -1 (72o) to 20 (AA).
function chenScore(cards) {
  const a = rank(cards[0]);
  const b = rank(cards[1]);
  const hi = Math.max(a, b);
  const lo = Math.min(a, b);
  const top = { 14: 10, 13: 8, 12: 7, 11: 6 }[hi] || hi / 2;
  if (hi === lo) return Math.max(top * 2, 5);
  let score = top;
  if (cards[0][1] === cards[1][1]) score += 2;
  const gap = hi - lo - 1;
  score -= gap < GAP_PENALTY.length ? GAP_PENALTY[gap] : 5;
  if (gap <= 1 && hi < 12) score += 1;
  return Math.ceil(score);
}

// A raise to about `target`, kept within the legal bounds; null if raising is closed.
function raiseTo(state, target) {
  if (state.minRaiseTo === null) return null;
  const amount = Math.min(Math.max(state.minRaiseTo, Math.floor(target)), state.maxRaiseTo);
  return { type: 'raise', amount };
}

function checkOr(state, other) {
  return { type: state.canCheck ? 'check' : other };
}

function potSize(state) {
  return state.pots.reduce((sum, pot) => sum + pot.amount, 0);
}

function preflop(state) {
  const score = chenScore(state.you.cards);
  const bigBlind = state.blinds[1];
  if (score >= RAISE_SCORE) {
    return raiseTo(state, Math.max(3 * state.currentBet, 3 * bigBlind)) || checkOr(state, 'call');
  }
  if (score >= CALL_SCORE && state.toCall <= 3 * bigBlind) return checkOr(state, 'call');
  return checkOr(state, 'fold');
}

function postflop(state) {
  const made = PokerEngine.evaluate(state.you.cards.concat(state.board)).rank;
  const pot = potSize(state);
  if (made >= 2) return raiseTo(state, state.currentBet + pot / 2) || checkOr(state, 'call');
  if (made === 1 && state.toCall <= pot / 3) return checkOr(state, 'call');
  return checkOr(state, 'fold');
}

module.exports = {
  name: 'Sample Tight',
  act(state) {
    return state.street === 'preflop' ? preflop(state) : postflop(state);
  }
};
