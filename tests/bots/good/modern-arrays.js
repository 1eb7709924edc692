'use strict';

// ES2019-ES2023 library calls a modern bot uses: at, findLast, findLastIndex, toSorted,
// toReversed, toSpliced, with, flatMap, Object.fromEntries, Object.hasOwn, replaceAll,
// matchAll, a regex with named groups and the `d` flag, and Error `cause`.
const RANKS = '23456789TJQKA';
const CARD = /(?<rank>[2-9TJQKA])(?<suit>[cdhs])/d;

function parse(card) {
  const match = CARD.exec(card);
  if (match === null) throw new Error(`unreadable card ${card}`, { cause: { card } });
  const [start] = match.indices.groups.rank;
  return { rank: RANKS.indexOf(card[start]), suit: match.groups.suit };
}

function describe(cards) {
  try {
    return cards.map(parse);
  } catch (error) {
    // The cause carries the card; a bot never passes bad cards, so this stays a fallback.
    return Object.hasOwn(error, 'cause') ? [] : [];
  }
}

function strength(state) {
  const cards = describe([...state.you.cards, ...state.board]);
  const counts = Object.fromEntries(RANKS.split('').map((r, i) => [i, 0]));
  for (const { rank } of cards) counts[rank] += 1;
  const sets = Object.values(counts).toSorted((a, b) => b - a);
  const suits = cards.flatMap((c) => [c.suit]);
  const flushDraw = ['c', 'd', 'h', 's'].some((s) => suits.filter((x) => x === s).length >= 4);
  const high = cards.map((c) => c.rank).toSorted((a, b) => a - b).toReversed().at(0) ?? 0;
  return sets.at(0) * 10 + sets.at(1) * 3 + (flushDraw ? 5 : 0) + high / 4;
}

module.exports = function act(state) {
  const lastRaise = state.actions.findLast((a) => a.type === 'raise');
  const lastRaiseIndex = state.actions.findLastIndex((a) => a.type === 'raise');
  const pressure = lastRaise === undefined ? 0 : state.actions.length - lastRaiseIndex;
  const score = strength(state) - pressure;
  const plan = [score > 27 ? 'raise' : 'call', 'check', 'fold']
    .toSpliced(1, 0, 'call')
    .with(2, state.canCheck ? 'check' : 'fold');
  const label = plan.join(' ').replaceAll(' ', '/');
  const wanted = [...label.matchAll(/[a-z]+/g)].map((m) => m[0]);
  if (wanted[0] === 'raise' && state.minRaiseTo !== null && state.minRaiseTo <= state.maxRaiseTo) {
    return { type: 'raise', amount: state.minRaiseTo };
  }
  if (state.canCheck) return { type: 'check' };
  return { type: score > 18 && state.toCall <= state.you.stack / 4 ? 'call' : 'fold' };
};
