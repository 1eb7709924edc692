'use strict';

// House sample: equity + pot odds + a personality, after the TypeScript
// engine's AI policy. It estimates its pot share against the live opponents
// with PokerEngine.equity (a fixed number of samples, so its work never
// depends on time), continues when that share beats the pot odds by a margin,
// value-raises strong hands with a jittered fraction of the pot, and now and
// then bluffs when checked to. Math.random is the runner's seeded stream.

const PROFILE = {
  tightness: 0.4,  // 0 loose .. 1 nit: the preflop cutoff and the margin over the pot odds
  aggression: 0.6, // 0 passive .. 1 maniac: how strong a hand must be to raise, and how big
  bluff: 0.1,      // chance of a bet with a weak hand when checked to after the flop
  iterations: 300, // equity samples per decision
};

const RANKS = '23456789TJQKA';
const GAP_PENALTY = [0, 1, 2, 4];

function rank(card) {
  return RANKS.indexOf(card[0]) + 2;
}

// Starting-hand quality in [0, 1]: Bill Chen's score (-1 for 72o .. 20 for AA)
// rescaled. Raw equity against random cards flatters junk, so preflop this
// cutoff decides what is worth playing at all.
function holeStrength(cards) {
  const a = rank(cards[0]);
  const b = rank(cards[1]);
  const hi = Math.max(a, b);
  const lo = Math.min(a, b);
  const top = { 14: 10, 13: 8, 12: 7, 11: 6 }[hi] || hi / 2;
  let score;
  if (hi === lo) {
    score = Math.max(top * 2, 5);
  } else {
    const gap = hi - lo - 1;
    score = top + (cards[0][1] === cards[1][1] ? 2 : 0);
    score -= gap < GAP_PENALTY.length ? GAP_PENALTY[gap] : 5;
    if (gap <= 1 && hi < 12) score += 1;
  }
  return Math.min(1, Math.max(0, (score + 1) / 21));
}

function potSize(state) {
  return state.pots.reduce((sum, pot) => sum + pot.amount, 0);
}

// Opponents to beat: those still in the hand with chips already in it (all-in
// ones included), at least one. Seats yet to act may still fold; counting them
// as sure callers would make every hand look hopeless multiway.
function contenders(state) {
  const n = state.seats.filter((s) => !s.folded && !s.out && s.id !== state.you.id && s.total > 0).length;
  return Math.min(8, Math.max(1, n));
}

// A raise to `target`, clamped to [minRaiseTo, maxRaiseTo]; null when raising is
// closed. When minRaiseTo exceeds maxRaiseTo this is the short all-in raise.
function raiseTo(state, target) {
  if (state.minRaiseTo === null) return null;
  const amount = Math.min(Math.max(state.minRaiseTo, Math.floor(target)), state.maxRaiseTo);
  return { type: 'raise', amount };
}

function passive(state, continues) {
  if (state.canCheck) return { type: 'check' };
  return { type: continues ? 'call' : 'fold' };
}

function decide(state, p) {
  if (state.street === 'preflop' && holeStrength(state.you.cards) < 0.1 + 0.35 * p.tightness) {
    return passive(state, false);
  }
  const opponents = contenders(state);
  const equity = PokerEngine.equity(state.you.cards, state.board, opponents, p.iterations, Math.random);
  const pot = potSize(state);
  const fairShare = 1 / (opponents + 1);
  const strong = equity >= fairShare + (1 - fairShare) * (0.45 - 0.25 * p.aggression);
  if (strong) {
    const fraction = 0.5 + 0.5 * p.aggression * Math.random();
    const raise = raiseTo(state, state.currentBet + fraction * (pot + state.toCall));
    if (raise) return raise;
  }
  if (state.canCheck) {
    if (state.street !== 'preflop' && Math.random() < p.bluff) {
      const bluff = raiseTo(state, state.currentBet + 0.5 * pot);
      if (bluff) return bluff;
    }
    return { type: 'check' };
  }
  const potOdds = state.toCall / (pot + state.toCall);
  // A loose profile discounts the pot odds, a nit demands a premium over them.
  return passive(state, strong || equity >= potOdds + 0.2 * (p.tightness - 0.5));
}

module.exports = {
  name: 'Equity Bot',
  act(state) {
    return decide(state, PROFILE);
  }
};
