/*
 * other-engine-adapter.js — maps examples/engines/other-engine.js (global `Holdem`) onto the
 * PokerEngine API that holdem-cert drives (docs/engine-api.md). Loaded after the engine, like
 * test262's host hooks: it only renames and reshapes, and passes every argument through
 * untouched, so that the engine's own validation is what gets certified.
 *
 *   holdem-cert engine examples/engines/other-engine.js --prelude reference/js/poker-engine.js \
 *       --adapter examples/adapters/other-engine-adapter.js
 */
var PokerEngine = (function (H) {
  'use strict';

  const OPTIONS = {
    seed: 'seed', startingStack: 'chips', stacks: 'stacks', blindSchedule: 'blinds', handsPerLevel: 'levelLength',
    maxHands: 'handLimit', timeLimitMs: 'clockMs', decks: 'riggedDecks', ruleset: 'rules',
  };

  // Only the options given are passed: an absent option and an undefined one may differ.
  function config(seats, options) {
    const out = { players: seats };
    if (options === undefined || options === null) return out;
    for (const key of Object.keys(options)) out[key in OPTIONS ? OPTIONS[key] : key] = options[key];
    return out;
  }

  const action = (m) => ({ id: m.player, street: m.round, type: m.kind, amount: m.chips });

  // A TableError becomes the Error with code and field that docs/engine-api.md describes.
  function illegal(e) {
    if (!(e instanceof H.TableError)) return e;
    const error = new Error(e.message);
    error.code = e.reason;
    error.field = e.part;
    return error;
  }

  function create(seats, options) {
    const table = H.newTable(config(seats, options));
    return {
      get over() { return table.finished; },
      state() {
        const p = table.pending();
        return p === null ? null : p.state;
      },
      act(answer) {
        try {
          return action(table.play(answer));
        } catch (e) {
          throw illegal(e);
        }
      },
      submit(answer) {
        const r = table.playOrDefault(answer);
        return { action: action(r.move), error: r.rejected };
      },
      timeout() {
        const r = table.expire();
        return { action: action(r.move), error: r.rejected };
      },
      standings() {
        return table.leaderboard().map((s) => ({
          id: s.player, name: s.name, seat: s.seat, chips: s.stack, place: s.finish,
          eliminatedInHand: s.bustedIn, errors: s.penalties,
        }));
      },
      history() { return table.summaries(); },
      log() {
        return table.journal().map((r) => ({
          handNumber: r.hand, level: r.level, blinds: r.blinds, buttonSeat: r.dealer, smallBlindSeat: r.smallBlind,
          bigBlindSeat: r.bigBlind, actions: r.moves.map(action), eliminated: r.busted, result: r.summary,
          chips: r.stacks,
        }));
      },
    };
  }

  function evaluate(cards) {
    const r = H.rank(cards);
    return { rank: r.category, value: r.score, name: r.label, best: r.cards };
  }

  function equity(holeCards, board, opponents, iterations, random) {
    return H.odds({ hole: holeCards, board, opponents, trials: iterations, random });
  }

  return { version: 'other-engine (adapted)', rng: H.stream, dealHand: H.shuffle, evaluate, equity, create };
})(Holdem);
