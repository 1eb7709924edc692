/*
 * poker-ts (npm) behind the hand-level API (docs/engine-api.md): PokerEngine.createHand(spec).
 * It renames and reshapes only (docs/adapters.md); poker-ts plays every decision:
 *
 * - seats: poker-ts's Table keeps seat indices; a seat with 0 chips is left empty. poker-ts puts
 *   the blinds itself from the button (startHand(button)); a spec with the blinds elsewhere is
 *   refused (field smallBlindSeat).
 * - cards: poker-ts deals from the end of its shuffled Deck, two cards per seat from seat 0, then
 *   3, 1 and 1 board cards, burning none. Its Deck takes the shuffle as a strategy
 *   (new Deck(shuffleAlgorithm)); the adapter replaces the table's deck's `shuffle` with one that
 *   lays the cards out so that poker-ts's own dealing gives every seat and the board the cards
 *   the contract's dealing (R3: one at a time from left of the button, burns) gives from the
 *   pinned deck (R37). The dealing procedure itself is therefore not judged for poker-ts (a finding).
 * - the state's numbers are poker-ts's: its largest bet (Dealer.biggestBet: currentBet), its last
 *   raise size (BettingRound.minRaise: lastFullRaise), whether it offers bet/raise (minRaiseTo:
 *   largest bet + last raise size, else null), check (canCheck); pots are the contribution layers
 *   of the seats' totals (the contract's view of what seats[].total and folded already say).
 * - answers: the contract's forms (R19) become poker-ts's actions: raise -> 'bet' when poker-ts
 *   offers bet, else 'raise'; allin -> a bet/raise of the whole stack, or 'call' when the stack
 *   does not exceed the largest bet. poker-ts's actionTaken checks only a bet's range, so the
 *   adapter refuses what its legalActions() does not offer; refusals carry the contract's code.
 * - the result: board and hole cards as dealt; winners are the chips each seat gained in
 *   showdown() (poker-ts's own award), chips its seats' totals afterwards; the hands' names are
 *   poker-ts's Hand rankings renamed.
 */
var PokerEngine = (function () {
  'use strict';
  var Poker = require('poker-ts/dist/facade/poker')['default'];
  var Card = require('poker-ts/dist/lib/card')['default'];
  var PokerHand = require('poker-ts/dist/lib/hand')['default'];
  var CommunityCards = require('poker-ts/dist/lib/community-cards')['default'];

  var RANKS = '23456789TJQKA';
  var SUITS = 'cdhs';  // poker-ts's CardSuit order: CLUBS, DIAMONDS, HEARTS, SPADES
  var STREETS = {preflop: 'preflop', flop: 'flop', turn: 'turn', river: 'river'};
  // poker-ts's HandRanking, renamed to the contract's names (a royal flush is a straight flush).
  var NAMES = ['High card', 'One pair', 'Two pair', 'Three of a kind', 'Straight', 'Flush', 'Full house',
    'Four of a kind', 'Straight flush', 'Straight flush'];
  var CANONICAL = [];
  SUITS.split('').forEach(function (s) { RANKS.split('').forEach(function (r) { CANONICAL.push(r + s); }); });

  function refuse(field, message, code) {
    var error = new Error(message);
    error.field = field;
    if (code) error.code = code;
    return error;
  }

  function cardName(card) { return RANKS.charAt(card.rank) + SUITS.charAt(card.suit); }
  function pokerTsCard(name) { return new Card(RANKS.indexOf(name.charAt(0)), SUITS.indexOf(name.charAt(1))); }

  // The pinned deck completed with the unused cards in canonical order (R2).
  function completeDeck(cards) {
    if (!Array.isArray(cards) || cards.length < 1 || cards.length > 52) throw refuse('deck', 'expected 1 to 52 cards');
    var seen = {};
    cards.forEach(function (c, i) {
      if (typeof c !== 'string' || CANONICAL.indexOf(c) < 0) throw refuse('deck[' + i + ']', 'not a card: ' + String(c));
      if (seen[c]) throw refuse('deck[' + i + ']', 'duplicate card ' + c);
      seen[c] = true;
    });
    return cards.concat(CANONICAL.filter(function (c) { return !seen[c]; }));
  }

  // The contract's answer forms (R19) as [type, amount]; anything else is refused.
  function parseAnswer(answer) {
    if (typeof answer === 'string') {
      if (['fold', 'check', 'call', 'allin'].indexOf(answer) >= 0) return [answer, null];
      if (answer === 'raise') throw refuse('action', '"raise" alone is invalid: it lacks an amount', 'raise-without-amount');
      throw refuse('action', 'unknown action string', 'malformed');
    }
    if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
      throw refuse('action', 'expected a string or an object with a type', 'malformed');
    }
    var type = answer.type;
    if (['fold', 'check', 'call', 'raise', 'allin'].indexOf(type) < 0) throw refuse('type', 'unknown action type', 'unknown-type');
    if (type !== 'raise') return [type, null];
    if (!('amount' in answer)) throw refuse('amount', 'a raise needs an amount (the street total)', 'amount-missing');
    if (!Number.isSafeInteger(answer.amount)) throw refuse('amount', 'must be a safe integer', 'amount-not-safe-integer');
    return [type, answer.amount];
  }

  // Contribution layers (contract, Decision state: pots): cut at each level a live seat reaches.
  function layerPots(ids, totals, folded) {
    var levels = [];
    totals.forEach(function (c, i) { if (c > 0 && !folded[i] && levels.indexOf(c) < 0) levels.push(c); });
    levels.sort(function (a, b) { return a - b; });
    var pots = [], floor = 0;
    levels.forEach(function (top) {
      var amount = 0, eligible = [];
      totals.forEach(function (c, i) {
        if (c > floor) {
          amount += Math.min(c, top) - floor;
          if (c >= top && !folded[i]) eligible.push(ids[i]);
        }
      });
      pots.push({amount: amount, eligible: eligible});
      floor = top;
    });
    var rest = 0;
    totals.forEach(function (c) { if (c > floor) rest += c - floor; });
    if (rest) {
      if (pots.length) pots[pots.length - 1].amount += rest;
      else pots.push({amount: rest, eligible: []});
    }
    return pots;
  }

  function createHand(spec) {
    if (spec === null || typeof spec !== 'object') throw refuse('spec', 'expected an object');
    var ids = spec.ids, stacks = spec.stacks, blinds = spec.blinds;
    if (!Array.isArray(ids) || ids.length < 2 || ids.length > 9) throw refuse('ids', 'expected 2 to 9 ids');
    if (!Array.isArray(stacks) || stacks.length !== ids.length) throw refuse('stacks', 'expected one stack per seat');
    if (!Array.isArray(blinds) || blinds.length !== 2) throw refuse('blinds', 'expected [small, big]');
    ids = ids.slice(); stacks = stacks.slice(); blinds = blinds.slice();  // the caller's arrays stay the caller's (R45)
    var n = ids.length, button = spec.button;
    var handNumber = spec.handNumber === undefined ? 1 : spec.handNumber;
    var inHand = stacks.map(function (c) { return c > 0; });
    // Clockwise from left of the button: the contract's dealing order (R3).
    var order = [];
    for (var k = 1; k <= n; k++) if (inHand[(button + k) % n]) order.push((button + k) % n);
    var deck = completeDeck(spec.deck);

    var poker = new Poker({smallBlind: blinds[0], bigBlind: blinds[1]}, n);
    stacks.forEach(function (c, s) { if (c > 0) poker.sitDown(s, c); });
    var table = poker._table;
    // The cards each seat and the board get under the contract's dealing, in poker-ts's drawing
    // order (seat index order, two each; then the five board cards), then the rest; poker-ts
    // draws from the end of its deck.
    var m = order.length, holes = {};
    order.forEach(function (s, i) { holes[s] = [deck[i], deck[i + m]]; });
    var board = [deck[2 * m + 1], deck[2 * m + 2], deck[2 * m + 3], deck[2 * m + 5], deck[2 * m + 7]];
    var drawn = [];
    order.slice().sort(function (a, b) { return a - b; }).forEach(function (s) { drawn.push(holes[s][0], holes[s][1]); });
    drawn = drawn.concat(board);
    deck.forEach(function (c) { if (drawn.indexOf(c) < 0) drawn.push(c); });
    table._deck.shuffle = function () {
      for (var i = 0; i < 52; i++) table._deck[51 - i] = pokerTsCard(drawn[i]);
    };
    poker.startHand(button);
    var dealer = table._dealer;
    var actual = [table.button(), null, null];
    // poker-ts's blinds: heads-up the button and the other seat, else the two seats after it.
    if (m === 2) { actual[1] = button; actual[2] = order[0]; } else { actual[1] = order[0]; actual[2] = order[1]; }
    if (actual[0] !== button || actual[1] !== spec.smallBlindSeat || actual[2] !== spec.bigBlindSeat) {
      throw refuse('smallBlindSeat', 'poker-ts puts the button and blinds itself: button ' + actual[0] + ', small blind ' +
        actual[1] + ', big blind ' + actual[2] + ' for these seats');
    }

    var folded = ids.map(function () { return false; });
    var actions = [];
    var awards = null, finalBoard = null, shown = null, finalChips = null;

    function seat(s) { return table.seats()[s]; }
    function numbers(s) {  // [stack, bet, total] of seat s from poker-ts's player
      if (!inHand[s]) return [0, 0, 0];
      var p = seat(s);
      var stack = p === null ? 0 : p.stack(), bet = p === null ? 0 : p.betSize();
      return [stack, bet, stacks[s] - stack];
    }
    function street() { return STREETS[poker.roundOfBetting()]; }

    // poker-ts's own steps between decisions: close betting rounds, then the showdown.
    function advance() {
      while (poker.isHandInProgress() && !poker.isBettingRoundInProgress()) {
        if (poker.areBettingRoundsCompleted()) {
          finalBoard = table._communityCards.cards().map(cardName);
          var pots = poker.pots();
          var live = {};
          pots.forEach(function (pot) { pot.eligiblePlayers.forEach(function (s) { live[s] = true; }); });
          var hole = dealer.holeCards();
          var before = ids.map(function (_, s) { return seat(s) === null ? 0 : seat(s).totalChips(); });
          var contested = !(pots.length === 1 && pots[0].eligiblePlayers.length === 1);
          shown = [];
          if (contested) {
            var community = table._communityCards;
            for (var s = 0; s < n; s++) {
              if (!live[s]) continue;
              shown.push({id: ids[s], cards: hole[s].map(cardName),
                hand: NAMES[PokerHand.create(hole[s], community).ranking()]});
            }
          }
          poker.showdown();
          finalChips = ids.map(function (_, s) { return seat(s) === null ? 0 : seat(s).totalChips(); });
          awards = finalChips.map(function (c, s) { return c - before[s]; });
          return;
        }
        poker.endBettingRound();
      }
    }
    advance();

    var hand = {
      get over() { return !poker.isHandInProgress(); },
      state: function () {
        if (this.over) return null;
        var s = poker.playerToAct();
        var mine = numbers(s);
        var legal = poker.legalActions().actions;
        var current = dealer.biggestBet();
        var lastRaise = dealer._bettingRound.minRaise();
        var canRaise = legal.indexOf('bet') >= 0 || legal.indexOf('raise') >= 0;
        var minRaiseTo = canRaise ? current + lastRaise : null;
        var all = ids.map(function (_, i) { return numbers(i); });
        var isFolded = ids.map(function (_, i) { return folded[i] || !inHand[i]; });
        return {
          handNumber: handNumber,
          street: street(),
          you: {id: ids[s], seat: s, cards: dealer.holeCards()[s].map(cardName), stack: mine[0], bet: mine[1], total: mine[2]},
          board: table._communityCards.cards().map(cardName),
          pots: layerPots(ids, all.map(function (x) { return x[2]; }), isFolded),
          toCall: Math.min(current - mine[1], mine[0]),
          minRaiseTo: minRaiseTo,
          maxRaiseTo: mine[1] + mine[0],
          canCheck: legal.indexOf('check') >= 0,
          canAllIn: mine[0] > 0 && (minRaiseTo !== null || mine[1] + mine[0] <= current),
          currentBet: current,
          lastFullRaise: lastRaise,
          blinds: [blinds[0], blinds[1]],
          buttonSeat: button,
          smallBlindSeat: actual[1],
          bigBlindSeat: actual[2],
          seats: ids.map(function (id, i) {
            return {id: id, seat: i, stack: all[i][0], bet: all[i][1], total: all[i][2], folded: isFolded[i],
              allIn: inHand[i] && !folded[i] && all[i][0] === 0, out: !inHand[i]};
          }),
          actions: actions.map(function (a) { return {id: a.id, street: a.street, type: a.type, amount: a.amount}; }),
        };
      },
      act: function (answer) {
        if (this.over) throw refuse('action', 'the hand is over');
        var parsed = parseAnswer(answer), type = parsed[0];
        var s = poker.playerToAct(), mine = numbers(s), allChips = mine[0] + mine[1];
        var legal = poker.legalActions().actions;
        var opens = legal.indexOf('bet') >= 0 ? 'bet' : 'raise';
        var record = {id: ids[s], street: street(), type: type, amount: 0};
        // poker-ts's actionTaken checks only a bet's range: the other actions are checked against
        // its own legalActions() here, and a refusal is named with the contract's code.
        var passive = type === 'fold' || type === 'check' || type === 'call';
        if (passive && legal.indexOf(type) < 0) {
          throw refuse('type', type + ' is not among poker-ts\'s legal actions (' + legal.join(', ') + ')', type + '-not-allowed');
        }
        var to = type === 'raise' ? parsed[1] : allChips;
        var raising = type === 'raise' || (type === 'allin' && allChips > dealer.biggestBet());
        if (raising && legal.indexOf(opens) < 0) {
          throw refuse('type', 'poker-ts offers no bet or raise here (' + legal.join(', ') + ')', type + '-not-allowed');
        }
        if (raising) {
          var range = poker.legalActions().chipRange;
          if (to < range.min || to > range.max) {
            throw refuse('amount', 'poker-ts: ' + to + ' is outside its range ' + range.min + '..' + range.max,
              to > range.max ? 'amount-above-max' : to <= dealer.biggestBet() ? 'amount-not-above-current-bet' : 'amount-below-min');
          }
          poker.actionTaken(opens, to);
        } else {  // an all-in that does not exceed the largest bet is poker-ts's call
          poker.actionTaken(passive ? type : 'call');
        }
        if (type === 'fold') folded[s] = true;
        record.amount = mine[0] - numbers(s)[0];
        actions.push(record);
        advance();
        return {id: record.id, street: record.street, type: record.type, amount: record.amount};
      },
      result: function () {
        if (!this.over) return null;
        var winners = [];
        awards.forEach(function (a, s) { if (a > 0) winners.push({id: ids[s], amount: a}); });
        // Copies (R45): a caller's edit of a result must not reach the next one.
        var showdown = shown === null ? null : shown.map(function (x) { return {id: x.id, cards: x.cards.slice(), hand: x.hand}; });
        return {result: {handNumber: handNumber, board: finalBoard === null ? null : finalBoard.slice(), showdown: showdown, winners: winners},
          chips: finalChips.slice()};
      },
    };
    return hand;
  }

  return {profiles: ['hand'], createHand: createHand};
})();
