/*
 * other-engine.js — an engine whose API is not PokerEngine's: the example for docs/adapters.md.
 *
 * It stands in for a third-party engine. Its rules are the bundled engine's (it is a thin
 * wrapper: load reference/js/poker-engine.js before it), but everything a caller sees is
 * named and shaped differently, and it removes the global PokerEngine, so only an adapter
 * (examples/adapters/other-engine-adapter.js) can certify it:
 *
 *   holdem-cert engine examples/engines/other-engine.js --prelude reference/js/poker-engine.js \
 *       --adapter examples/adapters/other-engine-adapter.js
 *
 * API (global `Holdem`):
 *   Holdem.stream(seed) -> () => number            the rng
 *   Holdem.shuffle(seed, handNumber) -> cards       the deal
 *   Holdem.rank(cards) -> {category, score, label, cards}
 *   Holdem.odds({hole, board, opponents, trials, random}) -> number
 *   Holdem.newTable({players, seed, chips, stacks, blinds, levelLength, handLimit, clockMs,
 *                    riggedDecks, rules}) -> table
 *   table.pending() -> {player, state} | null      whose turn, and the contract's decision state
 *   table.play(answer) -> {player, round, kind, chips}; throws a TableError {reason, part}
 *   table.playOrDefault(answer) -> {move, rejected}
 *   table.expire() -> {move, rejected: 'late'}
 *   table.finished                                   boolean
 *   table.leaderboard() -> [{player, name, seat, stack, finish, bustedIn, penalties}]
 *   table.summaries() -> the public hand summaries
 *   table.journal() -> [{hand, level, blinds, dealer, smallBlind, bigBlind, moves, busted,
 *                        summary, stacks}]
 * There is no side-pot builder (the optional `pots` family is skipped).
 */
var Holdem = (function (base) {
  'use strict';
  if (base === undefined) {
    throw new Error('other-engine.js wraps the bundled engine: load reference/js/poker-engine.js first');
  }

  // Copy the keys of `from` present in `names` under their new names; others unchanged.
  function renamed(from, names) {
    const out = {};
    for (const key of Object.keys(from)) out[key in names ? names[key] : key] = from[key];
    return out;
  }

  const CONFIG = {
    seed: 'seed', chips: 'startingStack', stacks: 'stacks', blinds: 'blindSchedule', levelLength: 'handsPerLevel',
    handLimit: 'maxHands', clockMs: 'timeLimitMs', riggedDecks: 'decks', rules: 'ruleset',
  };

  class TableError extends Error {
    constructor(cause) {
      super(cause.message);
      this.name = 'TableError';
      this.reason = cause.code;
      this.part = cause.field;
    }
  }

  const move = (a) => ({ player: a.id, round: a.street, kind: a.type, chips: a.amount });

  function newTable(config) {
    const { players, ...rest } = config;
    const game = base.create(players, renamed(rest, CONFIG));
    return {
      get finished() { return game.over; },
      pending() {
        const state = game.state();
        return state === null ? null : { player: state.you.id, state };
      },
      play(answer) {
        try {
          return move(game.act(answer));
        } catch (e) {
          throw typeof e.code === 'string' ? new TableError(e) : e;
        }
      },
      playOrDefault(answer) {
        const r = game.submit(answer);
        return { move: move(r.action), rejected: r.error };
      },
      expire() {
        const r = game.timeout();
        return { move: move(r.action), rejected: r.error };
      },
      leaderboard() {
        return game.standings().map((s) => ({
          player: s.id, name: s.name, seat: s.seat, stack: s.chips, finish: s.place,
          bustedIn: s.eliminatedInHand, penalties: s.errors,
        }));
      },
      summaries() { return game.history(); },
      journal() {
        return game.log().map((r) => ({
          hand: r.handNumber, level: r.level, blinds: r.blinds, dealer: r.buttonSeat, smallBlind: r.smallBlindSeat,
          bigBlind: r.bigBlindSeat, moves: r.actions.map(move), busted: r.eliminated, summary: r.result,
          stacks: r.chips,
        }));
      },
    };
  }

  function rank(cards) {
    const r = base.evaluate(cards);
    return { category: r.rank, score: r.value, label: r.name, cards: r.best };
  }

  function odds(spot) {
    return base.equity(spot.hole, spot.board, spot.opponents, spot.trials, spot.random);
  }

  return Object.freeze({ stream: base.rng, shuffle: base.dealHand, rank, odds, newTable, TableError });
})(typeof PokerEngine === 'undefined' ? undefined : PokerEngine);

delete globalThis.PokerEngine; // from here on, only Holdem
