/*
 * PokerEngine — the helper globals of bot contract v1 ("Helper globals"):
 * evaluate, equity, rng and dealHand, following docs/rulings.md R1, R2, R4-R6.
 * Self-contained ES2020, no dependencies. Loaded as a classic script (QuickJS,
 * browser worker) it defines globalThis.PokerEngine; require()d in Node it is
 * module.exports.
 *
 * Cards are strings outside and integer codes inside: a card's code is its index
 * in the canonical deck (suit-major 2c..Ac 2d..Ad 2h..Ah 2s..As, R2), so
 * code = 13 * suit + rank with rank 0..12 for 2..A. A hand is held as two
 * 26-bit masks: `lo` = clubs | diamonds << 13 = bits 0..25 of the code, and
 * `hi` = hearts | spades << 13 = bits 26..51, so adding a card is one OR each.
 */
(function (self, factory) {
  const api = factory();
  // In Node's CommonJS wrapper top-level `this` is module.exports; in a classic
  // script it is the global object. A worker's module/exports shim (present for
  // bots) must not capture the engine, so only the wrapper case exports: `this`
  // is the module's exports, and that alone decides (engine.commonjs). Where there
  // is no `module` (or it is null) reading it throws: nothing to export to.
  // (It tested `self !== g && typeof module === 'object' && ...` before, whose
  // tests other than the last were equivalent mutants: docs/mutation.md.)
  let moduleExports = null;
  try { moduleExports = module.exports; } catch (e) { /* no CommonJS module here */ }
  if (self === moduleExports) {
    module.exports = api;
  } else {
    globalThis.PokerEngine = api;
  }
})(this, function () {
  'use strict';

  // Stryker disable next-line StringLiteral: PokerEngine.version is in no contract (the report only quotes it) (docs/mutation.md)
  const VERSION = '0.1.0';

  // ---------------------------------------------------------------------------
  // Cards
  // ---------------------------------------------------------------------------

  const RANKS = '23456789TJQKA';
  const SUITS = 'cdhs';
  // Card strings by code. Kept unfrozen: QuickJS turns a frozen array into a
  // slow one; the export is a frozen copy.
  const DECK = Array.from({ length: 52 }, (_, i) => RANKS[i % 13] + SUITS[(i / 13) | 0]);
  // Stryker disable next-line MethodExpression: DECK is never written once built, so freezing it instead of a copy exports the same cards (QuickJS only reads it slower) (docs/mutation.md)
  const CANONICAL_DECK = Object.freeze(DECK.slice());
  const CODE = new Map(DECK.map((card, i) => [card, i]));
  const RANK_OF = new Uint8Array(52); // 0..12
  const SUIT_OF = new Uint8Array(52); // 0..3
  const LO_BIT = new Int32Array(52); // the card's bit in `lo`, or 0
  const HI_BIT = new Int32Array(52); // the card's bit in `hi`, or 0
  // `!==` where `<` would do: a step past a typed array's end writes nothing, so `<=` there would
  // be an equivalent mutant no comment can exclude alone (docs/mutation.md); the same below.
  for (let c = 0; c !== 52; c++) {
    RANK_OF[c] = c % 13;
    SUIT_OF[c] = (c / 13) | 0;
    if (c < 26) LO_BIT[c] = 1 << c;
    else HI_BIT[c] = 1 << (c - 26);
  }

  // A short, safe rendering of a bad argument for error messages: it never throws (String of an
  // object without a toString would, and JSON.stringify of a BigInt), which submit's refusals rely
  // on. A switch, so that each choice's mutants stand on a line of their own: those that only word
  // the text differently are excluded there; those that reach String(x) with an object are killed.
  // Stryker disable next-line BlockStatement: show only words error texts, which are not judged; undefined in a message throws nothing (docs/mutation.md)
  function show(x) {
    switch (typeof x) {
      // Stryker disable next-line ConditionalExpression,StringLiteral: a string shown as 'a function' (the next case) or by String(x): error text only (docs/mutation.md)
      case 'string': return JSON.stringify(x);
      // Stryker disable next-line ConditionalExpression,StringLiteral: a function shown as 'an object' (the next case) or by String(x), which never throws for a function: error text only (docs/mutation.md)
      case 'function': return 'a function';
      case 'object':
        // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: null, an array or an object shown in another of these words: error text only (docs/mutation.md)
        return x === null ? 'null' : Array.isArray(x) ? 'an array' : 'an object';
      // Stryker disable next-line ConditionalExpression: undefined for a number, boolean, undefined, symbol or bigint: error text only (docs/mutation.md)
      default: return String(x); // numbers, booleans, undefined, symbols, bigints
    }
  }

  // Validate `cards` as an array of `min..max` distinct cards, none of them in
  // `taken` (codes already used, named by `takenName(code)`); return codes.
  function parseCards(fn, arg, cards, min, max, taken, takenName) {
    if (!Array.isArray(cards)) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw new TypeError(`${fn}: ${arg} must be an array of card strings, got ${show(cards)}`);
    }
    if (cards.length < min || cards.length > max) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: `want` is only error text (docs/mutation.md)
      const want = min === max ? `exactly ${min}` : `${min} to ${max}`;
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw new RangeError(`${fn}: ${arg} must hold ${want} cards, got ${cards.length}`);
    }
    const codes = [];
    for (let i = 0; i < cards.length; i++) {
      const card = cards[i];
      const code = CODE.get(card);
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      if (code === undefined) throw badCard(fn, `${arg}[${i}]`, card);
      const j = codes.indexOf(code);
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      if (j >= 0) throw new RangeError(`${fn}: ${arg}[${i}] "${card}" duplicates ${arg}[${j}]`);
      if (taken.indexOf(code) >= 0) {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw new RangeError(`${fn}: ${arg}[${i}] "${card}" duplicates ${takenName(code)}`);
      }
      codes.push(code);
    }
    return codes;
  }

  // Stryker disable all: badCard only builds the error its callers throw; whatever it returns (another class or text, undefined) they throw, and any refusal passes (docs/mutation.md)
  function badCard(fn, where, card) {
    if (typeof card !== 'string') {
      return new TypeError(`${fn}: ${where} ${show(card)} is not a card string (e.g. "Ah")`);
    }
    return new RangeError(
      `${fn}: ${where} ${show(card)} is not a card (rank one of ${RANKS}, then suit one of ${SUITS}, e.g. "Ah")`);
  }
  // Stryker restore all

  // ---------------------------------------------------------------------------
  // Hand values (R4): value = rank * 15^5 + tiebreak ranks (2..14) as base-15
  // digits, most significant first, zero-padded on the right.
  // ---------------------------------------------------------------------------

  const B2 = 225, B3 = 3375, B4 = 50625, B5 = 759375;
  const NAMES = Object.freeze(['High card', 'One pair', 'Two pair', 'Three of a kind', 'Straight',
    'Flush', 'Full house', 'Four of a kind', 'Straight flush']);

  // Tables over 13-bit rank masks (bit r = rank r + 2), built once at load.
  const M = 8192;
  const POP = new Uint8Array(M); // number of ranks
  const TOP_BIT = new Uint16Array(M); // the highest bit alone
  const TOP_RANK = new Uint8Array(M); // rank 2..14 of the highest bit; 0 for none
  const STRAIGHT = new Uint8Array(M); // top rank of the best straight (5 for A2345), or 0
  const TOP2 = new Int32Array(M); // top 2 ranks as digits at 15^3, 15^2 (kickers for trips)
  const TOP3 = new Int32Array(M); // top 3 ranks at 15^3..15^1 (kickers for one pair)
  const TOP5 = new Int32Array(M); // top 5 ranks at 15^4..15^0 (high card, flush)
  const TOP_IDX = new Int32Array(M); // rank indices 0..12 of the top 5 bits, 4 bits each, the top one lowest
  const SUIT_COUNT = new Uint8Array(M); // number of ranks (cards of a suit), plus 16 from five on (a flush)
  for (let m = 1; m !== M; m++) {
    const bit = 1 << (31 - Math.clz32(m));
    const rest = m ^ bit;
    POP[m] = POP[rest] + 1;
    TOP_BIT[m] = bit;
    TOP_RANK[m] = 33 - Math.clz32(m);
    TOP2[m] = TOP_RANK[m] * B3 + TOP_RANK[rest] * B2;
    TOP3[m] = TOP_RANK[m] * B3 + TOP2[rest] / 15; // exact: TOP2 is a multiple of 15^2
    // Each lower rank moves one digit right; the 6th and later fall off.
    TOP5[m] = TOP_RANK[m] * B4 + Math.floor(TOP5[rest] / 15);
    TOP_IDX[m] = TOP_RANK[m] - 2 | TOP_IDX[rest] << 4 & 0xFFFF0;
    // Stryker disable next-line ArithmeticOperator: POP[m] - 16 wraps in the Uint8Array to POP[m] + 240, also a multiple of 16 above 15, all its readers use (t & 15, & 16) (docs/mutation.md)
    SUIT_COUNT[m] = POP[m] < 5 ? POP[m] : POP[m] + 16;
    for (let top = 12; top >= 3; top--) {
      // Ranks top-4..top; for top = 3 (the five) the ace (bit 12) plays low.
      const need = top === 3 ? 0x100F : 0x1F << (top - 4);
      if ((m & need) === need) { STRAIGHT[m] = top + 2; break; }
    }
  }

  // R25: a smallest set of hole codes with which the five-card board (lo, hi) realises `value`;
  // among single cards the first dealt. Board cards that realise the same value are preferred.
  function neededHoleCards(hole, boardLo, boardHi, value) {
    if (valueOf(boardLo, boardHi) === value) return [];
    for (const c of hole) if (valueOf(boardLo | LO_BIT[c], boardHi | HI_BIT[c]) === value) return [c];
    // Stryker disable next-line MethodExpression: the caller only maps the list, never changes it, so the hole itself serves as a copy would (docs/mutation.md)
    return hole.slice();
  }

  // The value of the best five of the cards in (lo, hi), 5..7 distinct cards.
  // Hot path (`var`: QuickJS checks let/const for TDZ on each use).
  function valueOf(lo, hi) {
    var c = lo & 0x1FFF, d = lo >>> 13, h = hi & 0x1FFF, s = hi >>> 13, st, t, p, q;
    // At most one suit holds five of seven cards, and then quads and full
    // houses are impossible (they need three cards outside that suit).
    var f = 0;
    if (POP[c] >= 5) f = c;
    else if (POP[d] >= 5) f = d;
    else if (POP[h] >= 5) f = h;
    else if (POP[s] >= 5) f = s;
    if (f !== 0) {
      st = STRAIGHT[f];
      return st !== 0 ? 8 * B5 +
        // Stryker disable next-line ArithmeticOperator: the last digit divided instead of multiplied is still below 1 and increasing: valueOf's values are only compared (equivalent, docs/mutation.md)
        st * B4 :
        5 * B5 + TOP5[f];
    }
    // nK = ranks held at least K times.
    var n1 = c, n2 = c & d, n3, n4;
    n1 |= d;
    n3 = n2 & h; n2 |= n1 & h; n1 |= h;
    n4 = n3 & s; n3 |= n2 & s; n2 |= n1 & s; n1 |= s;
    if (n4 !== 0) return 7 * B5 + TOP_RANK[n4] * B4 +
      // Stryker disable next-line ArithmeticOperator: the last digit divided instead of multiplied is still below 1 and increasing: valueOf's values are only compared (equivalent, docs/mutation.md)
      TOP_RANK[n1 ^ n4] * B3;
    if (n3 !== 0) {
      t = TOP_BIT[n3];
      p = n2 ^ t; // ranks paired besides the top trips (other trips count)
      if (p !== 0) return 6 * B5 + TOP_RANK[t] * B4 +
        // Stryker disable next-line ArithmeticOperator: the last digit divided instead of multiplied is still below 1 and increasing: valueOf's values are only compared (equivalent, docs/mutation.md)
        TOP_RANK[p] * B3;
    }
    st = STRAIGHT[n1];
    if (st !== 0) return 4 * B5 +
      // Stryker disable next-line ArithmeticOperator: the last digit divided instead of multiplied is still below 1 and increasing: valueOf's values are only compared (equivalent, docs/mutation.md)
      st * B4;
    if (n3 !== 0) return 3 * B5 + TOP_RANK[n3] * B4 + TOP2[n1 ^ n3];
    if (n2 !== 0) {
      p = TOP_BIT[n2];
      q = TOP_BIT[n2 ^ p];
      // Two pair: a third pair can only be the kicker.
      if (q !== 0) return 2 * B5 + TOP_RANK[p] * B4 + TOP_RANK[q] * B3 +
        // Stryker disable next-line ArithmeticOperator: the last digit divided instead of multiplied is still below 1 and increasing: valueOf's values are only compared (equivalent, docs/mutation.md)
        TOP_RANK[n1 ^ p ^ q] * B2;
      return B5 + TOP_RANK[p] * B4 + TOP3[n1 ^ p];
    }
    return TOP5[n1];
  }

  // ---------------------------------------------------------------------------
  // evaluate (R4, R5). QuickJS interprets every bytecode as written and calls into
  // C for each property or array access, so the common path is straight-line code
  // over locals with few table reads, and nothing is allocated besides the result.
  // ---------------------------------------------------------------------------

  // Card string -> key, in objects without a prototype: after a typeof check, the
  // cheapest lookup of a string in QuickJS.
  // KEY: bits 0-12 the rank as a bit, bits 15-26 the suit as 1 << 15 + 3 * suit. Over a
  // hand, the keys ORed give the ranks held; added, bits 0-14 hold the sum of the rank
  // bits (each rank as often as held) and bits 15-26 four 3-bit suit counts.
  // BITS[key % 289] (the 52 keys leave distinct remainders, none 0) is the card's key for
  // the rarer hands: bits 0-4 where `1 << bits` puts the card in `lo` (clubs 1..13,
  // diamonds 14..26, else 0), bits 5-9 likewise for `hi` (hearts, spades), bits 10-11 the
  // suit, bits 12-15 the rank. Bit 0 of `lo` and `hi` holds no card.
  const KEY = Object.create(null);
  const BITS = new Int32Array(289);
  // Stryker disable next-line ArrayDeclaration: the loops below set entries 0..63, and 64 and above are never read (docs/mutation.md)
  const KEY_CARD = []; // BITS key >> 10 -> the card string (dense: QuickJS reads holey arrays slowly)
  // Stryker disable next-line CallExpression,ConditionalExpression,EqualityOperator,StringLiteral: entries 0..51 are set below; 52..63 (a missing card's) are read only where collect writes a missing k6 past the group's places, which the next collect or the kicker overwrites, or past out[4] (no push, or another count: a holey array is only slower) (docs/mutation.md)
  for (let i = 0; i < 64; i++) KEY_CARD.push('');
  for (let c = 0; c < 52; c++) {
    const suit = SUIT_OF[c], rank = RANK_OF[c], bit = 1 + 13 * (suit & 1) + rank;
    const key = 1 << rank | 1 << 15 + 3 * suit, bits = (suit < 2 ? bit : bit << 5) | suit << 10 | rank << 12;
    KEY[DECK[c]] = key;
    BITS[key % 289] = bits;
    KEY_CARD[bits >> 10] = DECK[c];
  }
  // A missing card of a 5- or 6-card hand has the key 0: no card bit, and in BITS rank 15.
  BITS[0] = 15 << 12;
  // FLUSH[suit counts] is 1 when a suit holds five or more cards, or when there are no
  // counts at all (the sum of the keys is NaN: a string that is not a card).
  const FLUSH = new Uint8Array(4096);
  for (let v = 0; v !== 4096; v++) {
    for (let s = 0; s !== 12; s += 3) if ((v >> s & 7) >= 5) FLUSH[v] = 1;
  }
  FLUSH[0] = 1;
  // Scratch for evaluate (synchronous, so never in use twice): rank bit -> the first card
  // of that rank in the hand being evaluated. Only ranks held in that hand are read.
  // Stryker disable next-line ArrayDeclaration: FIRST is read only at ranks of the hand evaluated, each written first in that call (docs/mutation.md)
  const FIRST = [];
  // Stryker disable next-line CallExpression,ConditionalExpression,EqualityOperator,StringLiteral: FIRST's initial entries and length are never read (a holey array is only slower) (docs/mutation.md)
  for (let i = 0; i <= 4096; i++) FIRST.push('');
  // Stryker disable next-line ArrayDeclaration,StringLiteral: every evaluateGroups call writes out[0..4] before it reads them (docs/mutation.md)
  const GROUP_BEST = ['', '', '', '', '']; // scratch for evaluateGroups and collect
  // QuickJS (2021-03-27, as bundled by the PyPI binding) frees an object shape with the
  // last object using it and builds it anew for the next one. These objects keep the
  // shapes a result object goes through alive, which makes each result cheaper; evaluate
  // refers to them so that they live as long as it does.
  // Stryker disable ArrayDeclaration,ObjectLiteral,StringLiteral: RESULT_SHAPES is never read, it only keeps shapes alive (speed) (docs/mutation.md)
  const RESULT_SHAPES = [{}, { rank: 0 }, { rank: 0, value: 0 }, { rank: 0, value: 0, name: '' },
    { rank: 0, value: 0, name: '', best: null }];
  // Stryker restore ArrayDeclaration,ObjectLiteral,StringLiteral
  const isArray = Array.isArray; // saves a global lookup per call

  /** The best five-card hand of 5..7 distinct cards: {rank, value, name, best} (R4, R5). */
  function evaluate(cards) {
    // Hot path: `var`, because QuickJS checks let/const for TDZ on each use.
    if (!isArray(cards)) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw new TypeError(`evaluate: cards must be an array of 5 to 7 card strings, got ${show(cards)}`);
    }
    var n = cards.length;
    // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
    // Not `n < 5 || n > 7`: there `n < 5` -> false is equivalent (a shorter array has no cards[4], and
    // evaluate throws anyway) yet shares its node with a killed mutant (docs/mutation.md).
    if (n !== 5 && n !== 6 && n !== 7) throw new RangeError(`evaluate: cards must hold 5 to 7 cards, got ${n}`);
    RESULT_SHAPES; // (see there)
    // Backwards, so that FIRST ends up with each rank's first card; unrolled, as a loop's
    // bookkeeping would cost about a twentieth of the call. typeof before the lookup:
    // KEY[y] would convert an object to a string with the object's own methods.
    var y0, y1, y2, y3, y4, y5, y6, k0, k1, k2, k3, k4, k5 = 0, k6 = 0;
    if (n > 5) {
      if (n > 6) {
        if (typeof (y6 = cards[6]) !== 'string') throw evaluateError(cards);
        FIRST[(k6 = KEY[y6]) & 0x1FFF] = y6;
      }
      if (typeof (y5 = cards[5]) !== 'string') throw evaluateError(cards);
      FIRST[(k5 = KEY[y5]) & 0x1FFF] = y5;
    }
    if (typeof (y4 = cards[4]) !== 'string') throw evaluateError(cards);
    FIRST[(k4 = KEY[y4]) & 0x1FFF] = y4;
    if (typeof (y3 = cards[3]) !== 'string') throw evaluateError(cards);
    FIRST[(k3 = KEY[y3]) & 0x1FFF] = y3;
    if (typeof (y2 = cards[2]) !== 'string') throw evaluateError(cards);
    FIRST[(k2 = KEY[y2]) & 0x1FFF] = y2;
    if (typeof (y1 = cards[1]) !== 'string') throw evaluateError(cards);
    FIRST[(k1 = KEY[y1]) & 0x1FFF] = y1;
    if (typeof (y0 = cards[0]) !== 'string') throw evaluateError(cards);
    FIRST[(k0 = KEY[y0]) & 0x1FFF] = y0;
    // n1: the ranks held. A string that is not a card makes t NaN, which FLUSH sends to
    // evaluateBits too (that throws). A repeated card looks like a pair here (see below).
    var n1 = (k0 | k1 | k2 | k3 | k4 | k5 | k6) & 0x1FFF, t = k0 + k1 + k2 + k3 + k4 + k5 + k6;
    if (FLUSH[t >>> 15] !== 0) return evaluateBits(cards, n, k0, k1, k2, k3, k4, k5, k6);
    // e: the ranks held twice (one bit each) or three times (the bit above); dup: the cards
    // beyond the first of their rank (three or more: a full house, quads or three pairs).
    // a..e become the five best cards (e once done with it).
    var e = (t & 0x7FFF) - n1, dup = n - POP[n1], rank, value, a, b, c, d, r = STRAIGHT[n1];
    // `r * dup !== 0` for `r !== 0 && dup !== 0` (r <= 14, dup <= 2 here): there `dup !== 0` -> true was
    // an equivalent mutant (a straight without a pair is evaluated by evaluateBits too, only slower)
    // sharing its node with a killed one (docs/mutation.md).
    if (dup > 2 || r * dup !== 0) return evaluateBits(cards, n, k0, k1, k2, k3, k4, k5, k6);
    // best (R5): FIRST has the first card of each rank; the second card of a pair is the
    // last card of its rank (scanned from the end of the hand), the same string only if
    // the input repeats a card.
    if (r !== 0) {
      rank = 4;
      value = 3037500 + r * 50625; // 4 * 15^5 + top * 15^4
      a = FIRST[1 << r - 2]; b = FIRST[1 << r - 3]; c = FIRST[1 << r - 4]; d = FIRST[1 << r - 5];
      e = FIRST[r === 5 ? 4096 : 1 << r - 6]; // the wheel's ace comes last
    } else if (dup === 1) {
      rank = 1;
      value = 759375 + TOP_RANK[e] * 50625 + TOP3[n1 ^ e]; // 15^5 + the pair * 15^4 + kickers
      a = FIRST[e];
      b = (k6 & 0x1FFF) === e ? y6 : (k5 & 0x1FFF) === e ? y5 : (k4 & 0x1FFF) === e ? y4 :
        (k3 & 0x1FFF) === e ? y3 : (k2 & 0x1FFF) === e ? y2 : y1;
      if (a === b) throw evaluateError(cards);
      t = TOP_IDX[n1 ^ e];
      c = FIRST[1 << (t & 15)]; d = FIRST[1 << (t >> 4 & 15)]; e = FIRST[1 << (t >> 8 & 15)];
    } else if (dup === 0) {
      rank = 0;
      value = TOP5[n1];
      t = TOP_IDX[n1];
      a = FIRST[1 << (t & 15)]; b = FIRST[1 << (t >> 4 & 15)]; c = FIRST[1 << (t >> 8 & 15)];
      d = FIRST[1 << (t >> 12 & 15)]; e = FIRST[1 << (t >> 16)];
    } else if ((e & e - 1) !== 0) {
      rank = 2;
      t = TOP_IDX[e]; // the two pairs
      r = TOP_BIT[n1 ^ e]; // the kicker: the top rank held once
      // 2 * 15^5 + the pairs and the kicker as digits (a rank is its index + 2)
      value = 1627200 + (t & 15) * 50625 + (t >> 4 & 15) * 3375 + (TOP_RANK[r] - 2) * 225;
      e = FIRST[r];
      r = 1 << (t & 15);
      a = FIRST[r];
      b = (k6 & 0x1FFF) === r ? y6 : (k5 & 0x1FFF) === r ? y5 : (k4 & 0x1FFF) === r ? y4 :
        (k3 & 0x1FFF) === r ? y3 : (k2 & 0x1FFF) === r ? y2 : y1;
      r = 1 << (t >> 4 & 15);
      c = FIRST[r];
      d = (k6 & 0x1FFF) === r ? y6 : (k5 & 0x1FFF) === r ? y5 : (k4 & 0x1FFF) === r ? y4 :
        (k3 & 0x1FFF) === r ? y3 : (k2 & 0x1FFF) === r ? y2 : y1;
      if (a === b || c === d) throw evaluateError(cards);
    } else {
      rank = 3;
      r = e >> 1; // trips
      value = 2278125 + TOP_RANK[r] * 50625 + TOP2[n1 ^ r]; // 3 * 15^5 + trips * 15^4 + kickers
      // Its first and last cards, and the one of its rank that is neither (none: a repeat).
      a = FIRST[r];
      c = (k6 & 0x1FFF) === r ? y6 : (k5 & 0x1FFF) === r ? y5 : (k4 & 0x1FFF) === r ? y4 :
        (k3 & 0x1FFF) === r ? y3 : y2;
      b = (k1 & 0x1FFF) === r && y1 !== a && y1 !== c ? y1 : (k2 & 0x1FFF) === r && y2 !== a && y2 !== c ? y2 :
        (k3 & 0x1FFF) === r && y3 !== a && y3 !== c ? y3 : (k4 & 0x1FFF) === r && y4 !== a && y4 !== c ? y4 :
        (k5 & 0x1FFF) === r && y5 !== c ? y5 : a; // y5 is a only as a repeat of a: b === a throws either way
      if (b === a || a === c) throw evaluateError(cards);
      t = TOP_IDX[n1 ^ r];
      d = FIRST[1 << (t & 15)]; e = FIRST[1 << (t >> 4 & 15)];
    }
    var best = [];
    best.push(a, b, c, d, e);
    return { rank, value, name: NAMES[rank], best };
  }

  // evaluate for the rarer hands (about one in nine): a flush, a straight with a paired
  // rank, a full house, quads, three pairs, or bad input (which throws). k0..k6 are the
  // cards' keys (0 past n); FIRST is filled in. Works on four 13-bit rank masks, one per
  // suit, which also tell any repeated card.
  function evaluateBits(cards, n, k0, k1, k2, k3, k4, k5, k6) {
    k0 = BITS[k0 % 289]; k1 = BITS[k1 % 289]; k2 = BITS[k2 % 289]; k3 = BITS[k3 % 289];
    k4 = BITS[k4 % 289]; k5 = BITS[k5 % 289]; k6 = BITS[k6 % 289];
    // A string that is not a card has the key undefined, and so BITS, which `1 << bits`
    // puts in bit 0; that, like a repeated card, leaves fewer than n card bits.
    var lo = 1 << k0 | 1 << k1 | 1 << k2 | 1 << k3 | 1 << k4 | 1 << k5 | 1 << k6;
    var hi = 1 << (k0 >> 5) | 1 << (k1 >> 5) | 1 << (k2 >> 5) | 1 << (k3 >> 5) | 1 << (k4 >> 5) |
      1 << (k5 >> 5) | 1 << (k6 >> 5);
    var c = lo >>> 1 & 0x1FFF, d = lo >>> 14, h = hi >>> 1 & 0x1FFF, s = hi >>> 14;
    var t = SUIT_COUNT[c] + SUIT_COUNT[d] + SUIT_COUNT[h] + SUIT_COUNT[s];
    if ((t & 15) !== n) throw evaluateError(cards);
    // A flush: bit 16 (t is n plus 16 for the suit with five cards; `t > 15` had the equivalent
    // mutant `t >= 15`, t being never 15, on a node with killed ones: docs/mutation.md).
    if ((t & 16) !== 0) return evaluateFlush(c, d, h, s);
    var n1 = c | d | h | s, r = STRAIGHT[n1];
    if (r === 0) return evaluateGroups(n1, c, d, h, s, k0, k1, k2, k3, k4, k5, k6);
    // A straight beats whatever pairs its other cards make (no full house or quads
    // with a straight in seven cards).
    const best = [];
    best.push(FIRST[1 << r - 2], FIRST[1 << r - 3], FIRST[1 << r - 4], FIRST[1 << r - 5],
      FIRST[r === 5 ? 4096 : 1 << r - 6]); // the wheel's ace comes last
    return { rank: 4, value: 3037500 + r * 50625, name: NAMES[4], best };
  }

  // evaluate for a flush or a straight flush: the suit with five or more cards (at most
  // one of seven cards, and then quads and full houses are impossible).
  function evaluateFlush(c, d, h, s) {
    // Bit 16 of SUIT_COUNT marks the suit of five or more (as in evaluateBits).
    const base = (SUIT_COUNT[c] & 16) !== 0 ? 0 : (SUIT_COUNT[d] & 16) !== 0 ? 13 :
      (SUIT_COUNT[h] & 16) !== 0 ? 26 : 39;
    const m = base === 0 ? c : base === 13 ? d : base === 26 ? h : s;
    const top = STRAIGHT[m];
    const best = [];
    let rank, value;
    if (top !== 0) {
      rank = 8;
      value = 8 * B5 + top * B4;
      const r = base + top - 2;
      best.push(DECK[r], DECK[r - 1], DECK[r - 2], DECK[r - 3], DECK[top === 5 ? base + 12 : r - 4]);
    } else {
      rank = 5;
      value = 5 * B5 + TOP5[m];
      const t = TOP_IDX[m];
      best.push(DECK[base + (t & 15)], DECK[base + (t >> 4 & 15)], DECK[base + (t >> 8 & 15)],
        DECK[base + (t >> 12 & 15)], DECK[base + (t >> 16)]);
    }
    return { rank, value, name: NAMES[rank], best };
  }

  // evaluateBits for full houses, quads and three pairs. k0..k6 are the cards' BITS keys
  // in input order (rank 15 for missing ones).
  function evaluateGroups(n1, c, d, h, s, k0, k1, k2, k3, k4, k5, k6) {
    // nK = ranks held at least K times.
    let n2 = c & d, n3 = n2 & h;
    n2 |= (c | d) & h;
    const n4 = n3 & s;
    n3 |= n2 & s;
    n2 |= (c | d | h) & s;
    const out = GROUP_BEST;
    let rank, value, t;
    if (n4 !== 0) {
      rank = 7;
      t = TOP_IDX[n1 ^ n4] & 15; // the kicker
      value = 7 * B5 + TOP_RANK[n4] * B4 + (t + 2) * B3;
      collect(TOP_RANK[n4] - 2, 0, k0, k1, k2, k3, k4, k5, k6);
      out[4] = FIRST[1 << t];
    } else if (n3 !== 0) {
      // A full house (dup > 2): ranks paired besides the top trips (other trips count).
      rank = 6;
      const trips = TOP_BIT[n3], pair = TOP_BIT[n2 ^ trips];
      value = 6 * B5 + TOP_RANK[trips] * B4 + TOP_RANK[pair] * B3;
      collect(TOP_RANK[trips] - 2, 0, k0, k1, k2, k3, k4, k5, k6);
      collect(TOP_RANK[pair] - 2, 3, k0, k1, k2, k3, k4, k5, k6);
    } else {
      // Three pairs: the third pair's rank can only be the kicker.
      rank = 2;
      t = TOP_IDX[n2];
      const kicker = TOP_IDX[n1 ^ 1 << (t & 15) ^ 1 << (t >> 4 & 15)] & 15;
      value = 2 * B5 + (t & 15) * B4 + (t >> 4 & 15) * B3 + kicker * B2 + (2 * B4 + 2 * B3 + 2 * B2);
      collect(t & 15, 0, k0, k1, k2, k3, k4, k5, k6);
      collect(t >> 4 & 15, 2, k0, k1, k2, k3, k4, k5, k6);
      out[4] = FIRST[1 << kicker];
    }
    const best = [];
    best.push(out[0], out[1], out[2], out[3], out[4]);
    return { rank, value, name: NAMES[rank], best };
  }

  // Puts the cards of rank index `r` among k0..k5 (keys in input order) into GROUP_BEST from
  // place `at` on, then k6's card at the next place whatever its rank. The group's cards come
  // first, in input order; what lands after them (a third card of the rank a full house pairs,
  // k6's card of another rank) is overwritten by the next collect or the kicker, or lies past
  // out[4], which is never read. (It stopped after `count` cards: an early return no output could
  // tell from going on, so its mutants were equivalent; docs/mutation.md.)
  function collect(r, at, k0, k1, k2, k3, k4, k5, k6) {
    var out = GROUP_BEST;
    r <<= 12;
    if ((k0 & 0xF000) === r) out[at++] = KEY_CARD[k0 >> 10];
    if ((k1 & 0xF000) === r) out[at++] = KEY_CARD[k1 >> 10];
    if ((k2 & 0xF000) === r) out[at++] = KEY_CARD[k2 >> 10];
    if ((k3 & 0xF000) === r) out[at++] = KEY_CARD[k3 >> 10];
    if ((k4 & 0xF000) === r) out[at++] = KEY_CARD[k4 >> 10];
    if ((k5 & 0xF000) === r) out[at++] = KEY_CARD[k5 >> 10];
    out[at] = KEY_CARD[k6 >> 10];
  }

  // evaluate's slow path: the first fault of `cards` in reading order.
  // Stryker disable all: evaluate throws whatever evaluateError returns (and what it throws), on input it must refuse: any refusal passes, and every loop ends (docs/mutation.md)
  function evaluateError(cards) {
    for (let i = 0; i < cards.length; i++) {
      if (!CODE.has(cards[i])) return badCard('evaluate', `cards[${i}]`, cards[i]);
      const j = cards.indexOf(cards[i]);
      if (j < i) return new RangeError(`evaluate: cards[${i}] "${cards[i]}" duplicates cards[${j}]`);
    }
    // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
    throw new Error('evaluate: internal error, no fault found'); // unreachable
  }
  // Stryker restore all

  // ---------------------------------------------------------------------------
  // Equity (R6)
  // ---------------------------------------------------------------------------

  /**
   * Monte Carlo pot share of `holeCards` against `opponents` random hands,
   * sampled exactly as R6 prescribes so that the same `random` stream gives
   * the same result to the last bit in every implementation.
   */
  function equity(holeCards, board, opponents, iterations, random) {
    // Stryker disable next-line StringLiteral,ArrayDeclaration: the names only word parseCards' errors; no card is taken before the hole cards, and a list of strings holds no card code either (equivalent, docs/mutation.md)
    const hole = parseCards('equity', 'holeCards', holeCards, 2, 2, [], null);
    // Stryker disable next-line StringLiteral: the names only word parseCards' errors (equivalent, docs/mutation.md)
    const known = parseCards('equity', 'board', board, 0, 5, hole,
      // Stryker disable next-line ArrowFunction,StringLiteral: it only names, in an error's text, the hole card a board card repeats (equivalent, docs/mutation.md)
      (code) => `holeCards[${hole.indexOf(code)}]`);
    // Stryker disable next-line ConditionalExpression,BlockStatement: without it the next test refuses every non-number too (Number.isInteger is false): only the error's kind differs (equivalent, docs/mutation.md)
    if (typeof opponents !== 'number') {
      // Stryker disable next-line StringLiteral,CallExpression: an error's text is not judged, any refusal passes (docs/mutation.md); without this throw the next test refuses every non-number too (Number.isInteger is false): only the error's kind differs (equivalent)
      throw new TypeError(`equity: opponents must be an integer 0 to 8, got ${show(opponents)}`);
    }
    if (!Number.isInteger(opponents) || opponents < 0 || opponents > 8) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw new RangeError(`equity: opponents must be an integer 0 to 8, got ${show(opponents)}`);
    }
    // Stryker disable next-line ConditionalExpression,BlockStatement: without it the next test refuses every non-number too (Number.isSafeInteger is false): only the error's kind differs (equivalent, docs/mutation.md)
    if (typeof iterations !== 'number') {
      // Stryker disable next-line StringLiteral,CallExpression: an error's text is not judged, any refusal passes (docs/mutation.md); without this throw the next test refuses every non-number too (Number.isSafeInteger is false): only the error's kind differs (equivalent)
      throw new TypeError(`equity: iterations must be a positive safe integer, got ${show(iterations)}`);
    }
    if (!Number.isSafeInteger(iterations) || iterations < 1) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw new RangeError(`equity: iterations must be a positive safe integer, got ${show(iterations)}`);
    }
    if (random === undefined) random = Math.random;
    else if (typeof random !== 'function') {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw new TypeError(`equity: random must be a function returning numbers in [0,1), got ${show(random)}`);
    }
    if (opponents === 0) return 1;

    // Hot loop: `var`, because QuickJS checks let/const for TDZ on each use.
    var boardLo = 0, boardHi = 0, k, j, t, x, lo, hi, a, b, v, hero, ties, beaten;
    // Stryker disable next-line EqualityOperator: one step past the end ORs LO_BIT[undefined] and HI_BIT[undefined], undefined, which adds no bit (equivalent, docs/mutation.md)
    for (k = 0; k < known.length; k++) { boardLo |= LO_BIT[known[k]]; boardHi |= HI_BIT[known[k]]; }
    var heroLo = LO_BIT[hole[0]] | LO_BIT[hole[1]], heroHi = HI_BIT[hole[0]] | HI_BIT[hole[1]];
    // The canonical deck less the known cards, built once and never reset:
    // each iteration shuffles on from where the last one left it.
    var rest = Int8Array.from(Array.from({ length: 52 }, (_, code) => code).filter((code) =>
      ((boardLo | heroLo) & LO_BIT[code]) === 0 && ((boardHi | heroHi) & HI_BIT[code]) === 0));
    var len = rest.length, missing = 5 - known.length, need = missing + 2 * opponents, total = 0;
    for (var it = 0; it < iterations; it++) {
      for (k = 0; k < need; k++) {
        x = random();
        if (typeof x !== 'number' || !(x >= 0 && x < 1)) {
          // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
          throw new RangeError(`equity: random() returned ${show(x)}, expected a number in [0,1)`);
        }
        j = k + Math.floor(x * (len - k));
        t = rest[k]; rest[k] = rest[j]; rest[j] = t;
      }
      lo = boardLo; hi = boardHi;
      for (k = 0; k < missing; k++) { lo |= LO_BIT[rest[k]]; hi |= HI_BIT[rest[k]]; }
      hero = valueOf(lo | heroLo, hi | heroHi);
      ties = 0;
      beaten = false;
      for (k = missing; k < need; k += 2) {
        a = rest[k]; b = rest[k + 1];
        v = valueOf(lo | LO_BIT[a] | LO_BIT[b], hi | HI_BIT[a] | HI_BIT[b]);
        if (v > hero) { beaten = true; break; }
        if (v === hero) ties++;
      }
      if (!beaten) total += 1 / (1 + ties);
    }
    return total / iterations;
  }

  // ---------------------------------------------------------------------------
  // rng (R1) and dealHand (R2)
  // ---------------------------------------------------------------------------

  // The 32-bit state rng(seed) starts from: finite numbers `>>> 0`, anything
  // else String(seed) hashed with FNV-1a over whole code points (for...of).
  function seedState(seed) {
    // Stryker disable next-line ConditionalExpression: Number.isFinite is false for every non-number, so typeof's test decides nothing (equivalent, docs/mutation.md)
    if (typeof seed === 'number' && Number.isFinite(seed)) return seed >>> 0;
    let h = 0x811C9DC5;
    for (const ch of String(seed)) h = Math.imul(h ^ ch.codePointAt(0), 0x01000193);
    return h >>> 0;
  }

  function mulberry32(state) {
    let a = state | 0;
    return function random() {
      a = (a + 0x6D2B79F5) | 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  /** A mulberry32 function producing numbers in [0,1) (R1). */
  function rng(seed) {
    return mulberry32(seedState(seed));
  }

  /** A fresh 52-card order for (seed, handNumber); card 0 is dealt first (R2, R3). */
  function dealHand(seed, handNumber) {
    // Stryker disable next-line ConditionalExpression,BlockStatement: without it the next test refuses every non-number too (Number.isSafeInteger is false): only the error's kind differs (equivalent, docs/mutation.md)
    if (typeof handNumber !== 'number') {
      // Stryker disable next-line StringLiteral,CallExpression: an error's text is not judged, any refusal passes (docs/mutation.md); without this throw the next test refuses every non-number too (Number.isSafeInteger is false): only the error's kind differs (equivalent)
      throw new TypeError(`dealHand: handNumber must be a positive safe integer, got ${show(handNumber)}`);
    }
    if (!Number.isSafeInteger(handNumber) || handNumber < 1) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw new RangeError(`dealHand: handNumber must be a positive safe integer, got ${show(handNumber)}`);
    }
    const stream = rng(`${seedState(seed)}:${handNumber}`);
    const deck = DECK.slice();
    // Stryker disable next-line EqualityOperator: i >= 0 adds a last step at i = 0, which swaps deck[0] with itself (the stream is the call's own) (equivalent, docs/mutation.md)
    for (let i = 51; i > 0; i--) {
      const j = Math.floor(stream() * (i + 1));
      const t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
    return deck;
  }

  // ---------------------------------------------------------------------------
  // Game API: create(seats, options) — a headless tournament (docs/engine-api.md)
  // ported line for line from the Python reference (reference/tournament.py,
  // hand.py, state.py, actions.py, pots.py, ruleset.py): same rules, rulings,
  // state key order, rejection codes and log records, under either ruleset.
  // Seats, cards and chips are held as integers (cards as canonical codes);
  // strings are built only for output.
  // ---------------------------------------------------------------------------

  const STREETS = ['preflop', 'flop', 'turn', 'river'];
  const STRING_FORMS = ['fold', 'check', 'call', 'allin'];
  const ACTION_TYPES = ['fold', 'check', 'call', 'raise', 'allin'];
  // holdem-sng-3-v4's words mapped onto the contract's (R24): all_in is allin;
  // bet is a raise that opens a street (only when nothing is bet yet).
  const V4_WORDS = Object.freeze({ all_in: 'allin', bet: 'bet' });
  const HISTORY_LIMIT = 20;
  const NO_SEAT = -1; // no seat is to act
  const NOT_ACTED = -1; // acted[s] before seat s acts on this street (R9)
  const OPTION_NAMES = ['seed', 'ruleset', 'startingStack', 'stacks', 'blindSchedule', 'handsPerLevel',
    'maxHands', 'timeLimitMs', 'decks', 'controllers'];
  const CONTROLLERS = ['bot', 'human', 'agent'];
  // Every parameter and house convention of a tournament (reference/ruleset.py);
  // another ruleset is contract-v1 with some parameters changed, never a fork.
  const CONTRACT_V1 = Object.freeze({
    // Stryker disable next-line StringLiteral: a ruleset's name only words errors (equivalent, docs/mutation.md)
    name: 'contract-v1',
    minSeats: 2,
    maxSeats: 9,
    startingStack: 10000,
    blindSchedule: [[50, 100], [100, 200], [150, 300], [200, 400], [300, 600],
      [400, 800], [600, 1200], [800, 1600], [1000, 2000], [1500, 3000]],
    handsPerLevel: 12,
    maxHands: 300,
    timeLimitMs: 1000,
    humanTimeLimitMs: null, // the clock when a human or agent plays; null: timeLimitMs
    seating: 'fixed', // seat i is names[i], first button seat 0; 'seeded': R23
    distinctNames: false, // each seat a distinct identity
    timeoutsToAutoFold: null, // consecutive timeouts that set persistent auto-fold; null: never
    // Stryker disable next-line StringLiteral: the engine only tests this setting for 'needed', so any other word plays the same (equivalent, docs/mutation.md)
    showdownReveal: 'all-live', // 'needed': only the cards needed by each awarded hand (R25, R31)
    // Stryker disable next-line StringLiteral: the engine only tests this setting for 'seat', so any other word plays the same (equivalent, docs/mutation.md)
    equalStackOrder: 'button', // simultaneous eliminations, equal stacks (R17); 'seat': R27
    headsUp: 'big-blind-advances', // the heads-up transition (R16); 'button-advances': none
    simultaneousBust: 'starting-stack', // larger starting stack first (R17); 'lower-seat': R27
    // Stryker disable next-line StringLiteral: the engine only tests this setting for 'v4', so any other word plays the same (equivalent, docs/mutation.md)
    vocabulary: 'contract', // 'v4' adds bet and all_in (R24)
  });
  const RULESETS = Object.freeze({
    'contract-v1': CONTRACT_V1,
    // Three identities, 500 chips, levels by completed hand number (1-10,
    // 11-20, ...), no hand cap, a 15 s bot clock (45 s with a human or agent),
    // auto-fold after three consecutive timeouts.
    'holdem-sng-3-v4': Object.freeze(Object.assign({}, CONTRACT_V1, {
      // Stryker disable next-line StringLiteral: a ruleset's name only words errors (equivalent, docs/mutation.md)
      name: 'holdem-sng-3-v4',
      minSeats: 3,
      maxSeats: 3,
      startingStack: 500,
      blindSchedule: [[5, 10], [10, 20], [20, 40], [40, 80], [80, 160], [160, 320]],
      handsPerLevel: 10,
      maxHands: null,
      timeLimitMs: 15000,
      humanTimeLimitMs: 45000,
      // Stryker disable next-line StringLiteral: the engine only tests this setting for 'fixed', so any other word plays the same (equivalent, docs/mutation.md)
      seating: 'seeded',
      distinctNames: true,
      timeoutsToAutoFold: 3,
      showdownReveal: 'needed',
      equalStackOrder: 'seat',
      // Stryker disable next-line StringLiteral: the engine only tests this setting for 'big-blind-advances', so any other word plays the same (equivalent, docs/mutation.md)
      headsUp: 'button-advances', // v4's text: the button advances to the next participant with chips
      // Stryker disable next-line StringLiteral: the engine only tests this setting for 'starting-stack', so any other word plays the same (equivalent, docs/mutation.md)
      simultaneousBust: 'lower-seat', // "equal final stacks -> lower seat number" (R27)
      vocabulary: 'v4',
    })),
  });

  // Every rejection names its `field`; an illegal answer also has a stable `code`.
  class OptionError extends Error {}
  class PotsError extends Error {}
  class IllegalAction extends Error {}
  class GameOver extends Error {}
  // Stryker disable next-line ArrayDeclaration: an error's name is its text, not judged: any refusal passes (equivalent, docs/mutation.md)
  for (const Kind of [OptionError, PotsError, IllegalAction, GameOver]) Kind.prototype.name = Kind.name;

  function fieldError(Kind, field, reason) {
    // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (equivalent, docs/mutation.md)
    const e = new Kind(`${field}: ${reason}`);
    e.field = field;
    return e;
  }
  // Stryker disable next-line BlockStatement: every call is thrown, and throwing undefined is still a refusal: any refusal passes (equivalent, docs/mutation.md)
  function optionError(field, reason) { return fieldError(OptionError, field, reason); }
  function illegal(field, reason, code) {
    const e = fieldError(IllegalAction, field, reason);
    e.code = code;
    return e;
  }

  function isPositiveInt(x) { return Number.isSafeInteger(x) && x > 0; }
  function isPlainObject(x) { return x !== null && typeof x === 'object' && !Array.isArray(x); }
  function hasOwn(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }

  // ---- pots (R7) --------------------------------------------------------------

  // Contribution layers over parallel arrays; `keys[i]` goes into `eligible`
  // (ids for output, seat indices for settlement). A layer's amount counts
  // every contributor; adjacent layers with equal eligibility merge and a layer
  // nobody can win joins the one below.
  function layerPots(keys, committed, folded) {
    const levels = [];
    // Stryker disable next-line EqualityOperator: committed[committed.length] is undefined, and undefined > 0 is false: no level (equivalent, docs/mutation.md)
    for (let i = 0; i < committed.length; i++) {
      const c = committed[i];
      if (c > 0 &&
        // Stryker disable next-line ConditionalExpression,EqualityOperator: a repeated level makes a layer of 0 chips whose eligibility is the next layer's (or none), so it merges and adds nothing (equivalent, docs/mutation.md)
        levels.indexOf(c) < 0) levels.push(c);
    }
    levels.sort((a, b) => a - b);
    const pots = [];
    let floor = 0;
    for (let l = 0; l < levels.length; l++) {
      const top = levels[l];
      let amount = 0;
      const eligible = [];
      // Stryker disable next-line EqualityOperator: committed[committed.length] is undefined, and undefined > floor is false: nothing added (equivalent, docs/mutation.md)
      for (let i = 0; i < committed.length; i++) {
        const c = committed[i];
        if (c > floor) {
          amount += top - floor; // the levels are the distinct contributions: c > floor means c >= top
          // Stryker disable next-line ConditionalExpression: c > floor already means c >= top (the levels are the distinct contributions in order) (equivalent, docs/mutation.md)
          if (c >= top && !folded[i]) eligible.push(keys[i]);
        }
      }
      const last = pots.length > 0 ? pots[pots.length - 1] : null;
      if (last !== null && (eligible.length === 0 || sameList(last.eligible, eligible))) last.amount += amount;
      else pots.push({ amount, eligible });
      floor = top;
    }
    return pots;
  }

  function sameList(a, b) {
    // Stryker disable next-line ConditionalExpression: adjacent layers' eligibility lists are nested (the non-folded contributors reaching each layer, in input order): a shorter new list differs from the old one at its end anyway (equivalent, docs/mutation.md)
    if (a.length !== b.length) return false;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BooleanLiteral: adjacent layers' eligibility lists are nested, so two of one length are the same list: the element loop decides nothing (equivalent, docs/mutation.md)
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  /** `[{id, committed, folded}]` in seat order -> `[{amount, eligible}]` (R7). */
  function buildPots(contributions) {
    // Stryker disable next-line ArrowFunction: every call is thrown, and throwing undefined is still a refusal: any refusal passes (equivalent, docs/mutation.md)
    const fail = (field, reason) => fieldError(PotsError, field, reason);
    // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
    if (!Array.isArray(contributions)) throw fail('contributions', `expected an array, got ${show(contributions)}`);
    const ids = [], committed = [], folded = [];
    for (let i = 0; i < contributions.length; i++) {
      // Stryker disable next-line StringLiteral: the field's name is an error's text, not judged (equivalent, docs/mutation.md)
      const where = `contributions[${i}]`;
      const entry = contributions[i];
      // Stryker disable next-line StringLiteral,ConditionalExpression: an error's text is not judged, any refusal passes (docs/mutation.md); without it every non-object a vector can give is still refused: 'key in' throws a TypeError on a primitive or null, and a JSON array has no id, committed or folded (equivalent, docs/mutation.md)
      if (!isPlainObject(entry)) throw fail(where, `expected an object, got ${show(entry)}`);
      // Stryker disable next-line ArrayDeclaration,BlockStatement: a missing key is refused anyway by its own test below (undefined is no string, no safe integer, no boolean) (equivalent, docs/mutation.md)
      for (const key of ['id', 'committed', 'folded']) {
        // Stryker disable next-line StringLiteral,ConditionalExpression: an error's text is not judged, any refusal passes (docs/mutation.md); a missing key is refused anyway by its own test below (undefined is no string, no safe integer, no boolean) (equivalent, docs/mutation.md)
        if (!(key in entry)) throw fail(`${where}.${key}`, 'missing');
      }
      const { id, committed: amount, folded: isFolded } = entry;
      if (typeof id !== 'string' || id === '')
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw fail(`${where}.id`, `expected a non-empty string, got ${show(id)}`);
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      if (ids.indexOf(id) >= 0) throw fail(`${where}.id`, `duplicate id ${show(id)}`);
      if (!Number.isSafeInteger(amount) || amount < 0) {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw fail(`${where}.committed`, `expected a non-negative integer, got ${show(amount)}`);
      }
      if (typeof isFolded !== 'boolean')
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw fail(`${where}.folded`, `expected a boolean, got ${show(isFolded)}`);
      ids.push(id);
      committed.push(amount);
      folded.push(isFolded);
    }
    return layerPots(ids, committed, folded);
  }

  // ---- the answer (R19) and the return-value rules ----------------------------

  // -> {kind, amount}; amount only for a raise (and v4's bet). `vocabulary`
  // 'v4' also takes the words of V4_WORDS (R24). Throws IllegalAction.
  function parseAnswer(answer, vocabulary) {
    const words = vocabulary === 'v4' ? V4_WORDS : null;
    if (typeof answer === 'string') {
      if (STRING_FORMS.indexOf(answer) >= 0) return { kind: answer, amount: null };
      if (answer === 'raise' ||
          // Stryker disable next-line ConditionalExpression: as false, holdem-sng-3-v4's 'bet' alone is refused by checkLegal with another code, only a note there (sng3v4_judge; equivalent, docs/mutation.md); the comment also takes `true`, killed by the fuzz games' odd answer 'bet' (contract-v1: malformed)
          (words !== null &&
          // Stryker disable next-line StringLiteral: in holdem-sng-3-v4 'bet' alone is then refused by checkLegal with another code, and a v4 refusal's code is only a note (sng3v4_judge; equivalent, docs/mutation.md)
          answer === 'bet')) {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw illegal('action', `'${answer}' alone is invalid: it lacks an amount`,
            'raise-without-amount');
      }
      if (words !== null && hasOwn(words, answer)) return { kind: words[answer], amount: null };
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw illegal('action', `unknown action string ${show(answer)} (accepted: ${STRING_FORMS.join(', ')})`,
          'malformed');
    }
    if (!isPlainObject(answer)) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw illegal('action', `expected a string or an object with 'type', got ${show(answer)}`,
          'malformed');
    }
    let kind = answer.type;
    if (words !== null && typeof kind === 'string' && hasOwn(words, kind)) kind = words[kind];
    else if (
      // Stryker disable next-line ConditionalExpression: indexOf compares strictly, so a non-string type is never found: typeof's test decides nothing (equivalent, docs/mutation.md)
      typeof kind !== 'string' ||
      ACTION_TYPES.indexOf(kind) < 0) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw illegal('type', `unknown action type ${show(kind)} (accepted: ${ACTION_TYPES.join(', ')})`,
          'unknown-type');
    }
    if (kind !== 'raise' && kind !== 'bet') return { kind, amount: null };
    if (!('amount' in answer))
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw illegal('amount', 'a raise needs an amount (the street total)',
          'amount-missing');
    const amount = answer.amount;
    if (!Number.isSafeInteger(amount)) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw illegal('amount', `must be a safe integer, got ${show(amount)}`,
          'amount-not-safe-integer');
    }
    return { kind, amount };
  }

  function checkLegal(kind, amount, legal) {
    if (kind === 'check' && !legal.canCheck) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw illegal('type', `check is not legal: ${legal.toCall} to call`,
          'check-not-allowed');
    }
    if (kind === 'call' && legal.canCheck) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw illegal('type', 'call is not legal when checking is possible',
          'call-not-allowed');
    }
    if (kind === 'allin' && !legal.canAllIn) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw illegal('type', 'all-in is not legal: it would be a raise and raising is closed',
          'allin-not-allowed');
    }
    if (kind === 'bet' && legal.currentBet > 0) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw illegal('type', `bet only opens a street; ${legal.currentBet} is already bet: raise`, 'bet-not-allowed');
    }
    if (kind !== 'raise' && kind !== 'bet') return;
    if (legal.minRaiseTo === null) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw illegal('type', 'raising is not permitted (minRaiseTo is null)',
          'raise-not-allowed');
    }
    if (amount <= legal.currentBet) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw illegal('amount', `${amount} does not exceed currentBet ${legal.currentBet}`,
          'amount-not-above-current-bet');
    }
    if (amount > legal.maxRaiseTo) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw illegal('amount', `${amount} exceeds maxRaiseTo ${legal.maxRaiseTo}`,
          'amount-above-max');
    }
    if (amount < legal.minRaiseTo && amount !== legal.maxRaiseTo) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw illegal('amount',
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        `${amount} is below minRaiseTo ${legal.minRaiseTo} and is not the all-in ${legal.maxRaiseTo}`,
        'amount-below-min');
    }
  }

  // ---- decks -----------------------------------------------------------------

  // A pinned deck as codes: the given distinct cards first, then the unused
  // ones in canonical order (R2, R3).
  function completeDeck(cards, field) {
    // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
    if (!Array.isArray(cards)) throw optionError(field, `expected an array of card strings, got ${show(cards)}`);
    const codes = [];
    const used = new Uint8Array(52);
    for (let i = 0; i < cards.length; i++) {
      const code = CODE.get(cards[i]);
      if (code === undefined) {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw optionError(`${field}[${i}]`,
          // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: it only picks the error's text, not judged (equivalent, docs/mutation.md)
          typeof cards[i] === 'string' ?
            // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
            `${show(cards[i])} is not a card: rank must be one of ${RANKS} and suit one of ${SUITS}` :
            // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
            `${show(cards[i])} is not a card string (expected e.g. "Ah")`);
      }
      codes.push(code);
    }
    // Stryker disable next-line EqualityOperator: codes[codes.length] is undefined: used[undefined] is no card's entry (equivalent, docs/mutation.md)
    for (let i = 0; i < codes.length; i++) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      if (used[codes[i]]) throw optionError(`${field}[${i}]`, `duplicate card ${show(cards[i])}`);
      used[codes[i]] = 1;
    }
    if (codes.length < 1 ||
        // Stryker disable next-line ConditionalExpression: at most 52 distinct cards pass the duplicate test above (equivalent, docs/mutation.md)
        codes.length > 52) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw optionError(field, `expected 1 to 52 cards, got ${codes.length}`);
    }
    // Stryker disable next-line EqualityOperator: c = 52 appends a 53rd code that no hand deals (at most 9 x 2 + 3 burns + 5 board = 26 cards) (equivalent, docs/mutation.md)
    for (let c = 0; c < 52; c++) if (!used[c]) codes.push(c);
    return codes;
  }

  function dealCodes(seed32, handNumber) {
    const cards = dealHand(seed32, handNumber);
    // Stryker disable next-line ArrayDeclaration: all 52 entries are assigned below either way (equivalent, docs/mutation.md)
    const codes = new Array(52);
    // Stryker disable next-line EqualityOperator: i = 52 appends an undefined 53rd code that no hand deals (at most 26 cards) (equivalent, docs/mutation.md)
    for (let i = 0; i < 52; i++) codes[i] = CODE.get(cards[i]);
    return codes;
  }

  // ---- one hand ----------------------------------------------------------------

  // `stacks` are every original seat's chips at the start (0: out); button and
  // blinds come from the tournament (R16); `deck` holds 52 codes dealt from the
  // front (R3); `autoFolded[s]`: seat s is in persistent auto-fold (R26).
  class Hand {
    constructor(ids, stacks, button, sbSeat, bbSeat, blinds, deck, handNumber, rules, autoFolded) {
      const n = ids.length;
      this.n = n;
      this.ids = ids;
      this.handNumber = handNumber;
      this.showdownReveal = rules.showdownReveal;
      // Stryker disable next-line MethodExpression: the array given is never written after: a game replaces its stacks at a hand's end, createHand gives its own copy (equivalent; docs/mutation.md)
      this.startStacks = stacks.slice();
      this.stacks = stacks.slice();
      this.inHand = stacks.map((c) => c > 0);
      this.button = button;
      this.sbSeat = sbSeat;
      this.bbSeat = bbSeat;
      this.sb = blinds[0];
      this.bb = blinds[1];
      this.deck = deck;
      this.pos = 0;
      // Seats in the hand clockwise from left of the button: the dealing order
      // (R3), the odd-chip order (R13), the elimination order (R17).
      this.order = [];
      for (let k = 1; k <= n; k++) {
        const s = (button + k) % n;
        if (this.inHand[s]) this.order.push(s);
      }
      this.bet = new Array(n).fill(0);
      this.total = new Array(n).fill(0);
      this.folded = this.inHand.map((x) => !x);
      // The street's currentBet at each seat's last voluntary action (R9).
      this.acted = new Array(n).fill(NOT_ACTED);
      this.street = 0;
      this.board = [];
      this.actions = [];
      this.awards = new Array(n).fill(0);
      this.showdown = []; // every live hand
      this.publicShowdown = null; // what the history shows, when it differs (R25)
      this.done = false;
      this.toAct = NO_SEAT;

      this.commit(sbSeat, Math.min(this.sb, this.stacks[sbSeat]));
      this.commit(bbSeat, Math.min(this.bb, this.stacks[bbSeat]));
      this.currentBet = Math.max(this.bet[sbSeat], this.bet[bbSeat]); // the largest blind posted (R8)
      this.lastFullRaise = this.bb;
      // Stryker disable next-line ArrayDeclaration: only seats in the hand get and have their hole cards read (equivalent; docs/mutation.md)
      this.hole = new Array(n).fill(null);
      for (const s of this.order) this.hole[s] = [];
      for (let round = 0; round < 2; round++) {
        for (const s of this.order) this.hole[s].push(this.draw());
      }
      // Persistent auto-fold (holdem-sng-3-v4): dealt in, blinds posted, folded
      // before the first decision, never contests the pot (R26).
      for (const s of this.order) if (autoFolded[s]) this.folded[s] = true;
      this.advance(bbSeat);
    }

    // The betting fields for the seat to act (R10).
    legal() {
      const s = this.toAct;
      const bet = this.bet[s], stack = this.stacks[s], cb = this.currentBet;
      const maxTo = bet + stack;
      let canRaise = maxTo > cb && this.raiseOpen(s);
      if (canRaise) {
        canRaise = false;
        for (const o of this.order) {
          if (o !== s && this.stacks[o] > 0 && !this.folded[o]) { canRaise = true; break; }
        }
      }
      return {
        // Stryker disable next-line ConditionalExpression,EqualityOperator: a bet never exceeds currentBet, the street's largest; at cb == bet, min(0, stack) is 0 too (equivalent; docs/mutation.md)
        toCall: cb > bet ? Math.min(cb - bet, stack) : 0,
        currentBet: cb,
        minRaiseTo: canRaise ? cb + this.lastFullRaise : null,
        maxRaiseTo: maxTo,
        canCheck: bet >= cb,
        // Stryker disable next-line ConditionalExpression,EqualityOperator: legal() is asked only for the seat to act, which has chips (nextToAct skips empty stacks) (equivalent; docs/mutation.md)
        canAllIn: stack > 0 && (canRaise || maxTo <= cb),
        lastFullRaise: this.lastFullRaise,
      };
    }

    // R9: a seat that acted is reopened only by a full raise's worth faced since; by the house
    // convention a checker facing only a short opening all-in is not reopened either.
    raiseOpen(s) {
      const last = this.acted[s];
      if (last === NOT_ACTED || this.currentBet - last >= this.lastFullRaise) return true;
      return false;
    }

    pots() {
      const keys = [], committed = [], folded = [];
      // Stryker disable next-line EqualityOperator: s = n is no seat: inHand[n] is undefined (equivalent; docs/mutation.md)
      for (let s = 0; s < this.n; s++) {
        // Every seat: one out of the hand committed 0 and is folded, and layerPots counts contributions above 0 only.
        keys.push(this.ids[s]); committed.push(this.total[s]); folded.push(this.folded[s]);
      }
      return layerPots(keys, committed, folded);
    }

    live() {
      const live = [];
      // Stryker disable next-line EqualityOperator: s = n is no seat: inHand[n] is undefined (equivalent; docs/mutation.md)
      for (let s = 0; s < this.n; s++) if (this.inHand[s] && !this.folded[s]) live.push(s);
      return live;
    }

    // Applies an action already known to be legal; returns the `actions` entry.
    apply(kind, amount) {
      const s = this.toAct;
      if (kind === 'bet') kind = 'raise'; // v4's opening bet is the contract's raise (R24)
      let add;
      if (kind === 'fold') { this.folded[s] = true; add = 0; }
      else if (kind === 'check') add = 0;
      else if (kind === 'call') add = Math.min(this.currentBet - this.bet[s], this.stacks[s]);
      else if (kind === 'raise') add = amount - this.bet[s];
      else add = this.stacks[s]; // allin
      this.commit(s, add);
      // Stryker disable next-line EqualityOperator: at equality the increment is 0, below lastFullRaise (at least 1), and currentBet keeps its value (equivalent; docs/mutation.md)
      if (this.bet[s] > this.currentBet) {
        const increment = this.bet[s] - this.currentBet;
        // Stryker disable next-line EqualityOperator: at equality it assigns the value lastFullRaise holds (equivalent; docs/mutation.md)
        if (increment >= this.lastFullRaise) this.lastFullRaise = increment; // a full bet/raise (R9)
        this.currentBet = this.bet[s];
      }
      this.acted[s] = this.currentBet;
      const record = { id: this.ids[s], street: STREETS[this.street], type: kind, amount: add };
      this.actions.push(record);
      this.advance(s);
      return record;
    }

    commit(s, chips) {
      this.stacks[s] -= chips;
      this.bet[s] += chips;
      this.total[s] += chips;
    }

    draw() { return this.deck[this.pos++]; }

    // The next seat clockwise after `after` that must act (R11), or NO_SEAT.
    nextToAct(after) {
      const { stacks, folded, bet, acted, n } = this;
      const cb = this.currentBet;
      let solvent = 0;
      for (const s of this.order) if (stacks[s] > 0 && !folded[s]) solvent++;
      // Stryker disable next-line EqualityOperator: k = n is `after` itself: the seat that just acted, or at the deal the big blind, which another solvent seat that has not acted precedes (equivalent; docs/mutation.md)
      for (let k = 1; k <= n; k++) {
        const s = (after + k) % n;
        if (folded[s] || stacks[s] === 0) continue;
        if (bet[s] < cb || (acted[s] === NOT_ACTED && solvent >= 2)) return s;
      }
      return NO_SEAT;
    }

    advance(last) {
      const live = this.live();
      if (live.length === 1) {
        this.refundUncalled();
        this.awardFold(live[0]);
        return;
      }
      let next = this.nextToAct(last);
      while (next === NO_SEAT) {
        this.refundUncalled();
        let solvent = 0;
        // Stryker disable next-line ConditionalExpression,EqualityOperator: counting every live seat runs the board out street by street through the loop instead: nobody acts, the same cards are dealt (equivalent; docs/mutation.md)
        for (const s of live) if (this.stacks[s] > 0) solvent++;
        // Stryker disable next-line ConditionalExpression,EqualityOperator: with at most one seat with chips the loop runs the board out street by street: nobody acts, the same cards are dealt (equivalent; docs/mutation.md)
        if (this.street === 3 || solvent <= 1) {
          while (this.street < 3) this.nextStreet(); // run out the board
          this.settleShowdown(live);
          return;
        }
        this.nextStreet();
        next = this.nextToAct(this.button);
      }
      this.toAct = next;
    }

    nextStreet() {
      this.street += 1;
      this.draw(); // burn
      for (let k = this.street === 1 ? 3 : 1; k > 0; k--) this.board.push(this.draw());
      this.bet.fill(0);
      this.acted.fill(NOT_ACTED);
      this.currentBet = 0;
      this.lastFullRaise = this.bb;
    }

    // R12: the street's largest bet above the second largest goes back to its owner.
    refundUncalled() {
      // Stryker disable next-line UnaryOperator: the first bet exceeds top = -1 and sets second to -1: its initial value is never read (equivalent; docs/mutation.md)
      let top = -1, owner = NO_SEAT, second = -1;
      for (const s of this.order) {
        const b = this.bet[s];
        // Stryker disable next-line EqualityOperator: on a tie top and second end equal either way (no refund); a larger bet later sets the owner; b == second assigns the value second holds (equivalent; docs/mutation.md)
        if (b > top) { second = top; top = b; owner = s; } else if (b > second) second = b;
      }
      // Stryker disable next-line ConditionalExpression,EqualityOperator: at equality the excess is 0: nothing moves (equivalent; docs/mutation.md)
      if (top > second) {
        const excess = top - second;
        // Stryker disable next-line AssignmentOperator: bet is not read after the round closes: nextStreet zeroes it or the hand is over (equivalent; docs/mutation.md)
        this.bet[owner] -= excess;
        this.total[owner] -= excess;
        this.stacks[owner] += excess;
      }
    }

    awardFold(winner) {
      let pot = 0;
      for (let s = 0; s < this.n; s++) pot += this.total[s];
      this.stacks[winner] += pot;
      this.awards[winner] += pot;
      this.finish();
    }

    settleShowdown(live) {
      let boardLo = 0, boardHi = 0;
      for (const c of this.board) { boardLo |= LO_BIT[c]; boardHi |= HI_BIT[c]; }
      // Stryker disable next-line ArrayDeclaration,UnaryOperator: values are read for pot-eligible seats only, all live and set below (equivalent; docs/mutation.md)
      const values = new Array(this.n).fill(-1);
      for (const s of live) {
        const [a, b] = this.hole[s];
        values[s] = valueOf(boardLo | LO_BIT[a] | LO_BIT[b], boardHi | HI_BIT[a] | HI_BIT[b]);
      }
      // Stryker disable next-line ArrayDeclaration: set below for every seat in the hand, and winners are among them (equivalent; docs/mutation.md)
      const leftOfButton = new Array(this.n).fill(0);
      this.order.forEach((s, i) => { leftOfButton[s] = i; });
      const seats = [], committed = [], folded = [];
      // Stryker disable next-line EqualityOperator: s = n is no seat: inHand[n] is undefined (equivalent; docs/mutation.md)
      for (let s = 0; s < this.n; s++) {
        // Every seat: one out of the hand committed 0 and is folded, and layerPots counts contributions above 0 only.
        seats.push(s); committed.push(this.total[s]); folded.push(this.folded[s]);
      }
      // Stryker disable next-line ArrayDeclaration: an unset entry reads as false (equivalent; docs/mutation.md)
      const wonPot = new Array(this.n).fill(false);
      for (const pot of layerPots(seats, committed, folded)) {
        // Stryker disable next-line UnaryOperator: every seven-card value is at least a high card's, far above 1 (equivalent; docs/mutation.md)
        let best = -1;
        // Stryker disable next-line EqualityOperator: at equality it assigns the value best holds (equivalent; docs/mutation.md)
        for (const s of pot.eligible) if (values[s] > best) best = values[s];
        // R13: split evenly; odd chips one at a time clockwise from left of the button.
        const winners = pot.eligible.filter((s) => values[s] === best);
        // R31: a pot with one eligible seat is awarded without a showdown.
        if (pot.eligible.length > 1) for (const s of winners) wonPot[s] = true;
        winners.sort((x, y) => leftOfButton[x] - leftOfButton[y]);
        const share = Math.floor(pot.amount / winners.length);
        const odd = pot.amount - share * winners.length;
        // Stryker disable next-line EqualityOperator: k = winners.length names no seat: it writes the arrays' property "undefined", which no output reads (equivalent; docs/mutation.md)
        for (let k = 0; k < winners.length; k++) {
          const won = share + (k < odd ? 1 : 0);
          this.stacks[winners[k]] += won;
          this.awards[winners[k]] += won;
        }
      }
      this.showdown = live.map((s) => ({
        id: this.ids[s],
        cards: [CANONICAL_DECK[this.hole[s][0]], CANONICAL_DECK[this.hole[s][1]]],
        hand: NAMES[(values[s] / B5) | 0],
      }));
      if (this.showdownReveal === 'needed') { // R25: only the hole cards each awarded hand needs
        this.publicShowdown = [];
        live.forEach((s, i) => {
          if (!wonPot[s]) return;
          const entry = this.showdown[i];
          const needed = neededHoleCards(this.hole[s], boardLo, boardHi, values[s]);
          this.publicShowdown.push({ id: entry.id, cards: needed.map((c) => CANONICAL_DECK[c]), hand: entry.hand });
        });
      }
      this.finish();
    }

    finish() {
      this.toAct = NO_SEAT;
      this.done = true;
    }

    // The public summary of the finished hand (R14; R25 for v4).
    historyEntry() {
      const winners = [];
      // Stryker disable next-line EqualityOperator: s = n is no seat: awards[n] is undefined (equivalent; docs/mutation.md)
      for (let s = 0; s < this.n; s++) if (this.awards[s] > 0) winners.push({ id: this.ids[s], amount: this.awards[s] });
      return {
        handNumber: this.handNumber,
        board: this.board.map((c) => CANONICAL_DECK[c]),
        showdown: this.publicShowdown !== null ? this.publicShowdown : this.showdown,
        winners,
      };
    }
  }

  // ---- fresh copies for output -------------------------------------------------

  // The hand-level fields of the decision state for the seat to act (docs/engine-api.md,
  // createHand); `names`: a tournament's seat names (a lone hand's seats carry none).
  function handState(hand, names) {
    const s = hand.toAct;
    const legal = hand.legal();
    const hole = hand.hole[s];
    // Stryker disable next-line ArrayDeclaration: every index is assigned below (equivalent; docs/mutation.md)
    const seats = new Array(hand.n);
    for (let i = 0; i < hand.n; i++) {
      const seat = { id: hand.ids[i] };
      if (names !== null) seat.name = names[i];
      seat.seat = i;
      if (hand.inHand[i]) {
        seat.stack = hand.stacks[i]; seat.bet = hand.bet[i]; seat.total = hand.total[i];
        seat.folded = hand.folded[i]; seat.allIn = hand.stacks[i] === 0 && !hand.folded[i]; seat.out = false;
      } else { // out before this hand (R15)
        seat.stack = 0; seat.bet = 0; seat.total = 0; seat.folded = true; seat.allIn = false; seat.out = true;
      }
      seats[i] = seat;
    }
    return {
      handNumber: hand.handNumber,
      street: STREETS[hand.street],
      you: {
        id: hand.ids[s],
        seat: s,
        cards: [CANONICAL_DECK[hole[0]], CANONICAL_DECK[hole[1]]],
        stack: hand.stacks[s],
        bet: hand.bet[s],
        total: hand.total[s],
      },
      board: hand.board.map((c) => CANONICAL_DECK[c]),
      pots: hand.pots(),
      toCall: legal.toCall,
      minRaiseTo: legal.minRaiseTo,
      maxRaiseTo: legal.maxRaiseTo,
      canCheck: legal.canCheck,
      canAllIn: legal.canAllIn,
      currentBet: legal.currentBet,
      lastFullRaise: legal.lastFullRaise,
      blinds: [hand.sb, hand.bb],
      buttonSeat: hand.button,
      smallBlindSeat: hand.sbSeat,
      bigBlindSeat: hand.bbSeat,
      seats,
      actions: hand.actions.map(copyAction),
    };
  }

  function copyAction(a) { return { id: a.id, street: a.street, type: a.type, amount: a.amount }; }
  function copyEntry(e) {
    // Plain loops: this runs up to twenty times per decision state.
    const showdown = new Array(e.showdown.length);
    for (let i = 0; i < showdown.length; i++) {
      const x = e.showdown[i];
      showdown[i] = { id: x.id, cards: x.cards.slice(), hand: x.hand };
    }
    const winners = new Array(e.winners.length);
    for (let i = 0; i < winners.length; i++) winners[i] = { id: e.winners[i].id, amount: e.winners[i].amount };
    return { handNumber: e.handNumber, board: e.board.slice(), showdown, winners };
  }

  // ---- the tournament ------------------------------------------------------------

  function validatedRules(options) {
    const name = options.ruleset === undefined ? 'contract-v1' : options.ruleset;
    if (typeof name !== 'string' || !hasOwn(RULESETS, name)) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw optionError('ruleset', `unknown ruleset ${show(name)} (known: ${Object.keys(RULESETS).join(', ')})`);
    }
    for (const key of Object.keys(options)) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      if (OPTION_NAMES.indexOf(key) < 0) throw optionError(key, `unknown option (known: ${OPTION_NAMES.join(', ')})`);
    }
    const base = RULESETS[name];
    const pick = (key) => (options[key] === undefined ? base[key] : options[key]);
    // The ruleset with the options' overrides (reference: Ruleset.with_options).
    const rules = Object.assign({}, base, {
      startingStack: pick('startingStack'),
      blindSchedule: pick('blindSchedule'),
      handsPerLevel: pick('handsPerLevel'),
      maxHands: pick('maxHands'),
      timeLimitMs: pick('timeLimitMs'),
    });
    for (const key of ['startingStack', 'handsPerLevel', 'timeLimitMs']) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      if (!isPositiveInt(rules[key])) throw optionError(key, `expected a positive integer, got ${show(rules[key])}`);
    }
    if (rules.maxHands !== null && !isPositiveInt(rules.maxHands)) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw optionError('maxHands', `expected a positive integer or null (no cap), got ${show(rules.maxHands)}`);
    }
    const schedule = rules.blindSchedule;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,BlockStatement: a schedule that is not an array has no map, and an empty one gives the first hand no blinds (a TypeError): refused either way (equivalent; docs/mutation.md)
    if (!Array.isArray(schedule) || schedule.length === 0) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw optionError('blindSchedule', 'expected a non-empty array of [small, big] pairs');
    }
    rules.blindSchedule = schedule.map((level, i) => {
      if (!Array.isArray(level) || level.length !== 2) {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw optionError(`blindSchedule[${i}]`, `expected [small, big], got ${show(level)}`);
      }
      const [small, big] = level;
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      if (!isPositiveInt(small)) throw optionError(`blindSchedule[${i}][0]`, `expected a positive integer, got ${show(small)}`);
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      if (!isPositiveInt(big)) throw optionError(`blindSchedule[${i}][1]`, `expected a positive integer, got ${show(big)}`);
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      if (small > big) throw optionError(`blindSchedule[${i}]`, `small blind ${small} exceeds big blind ${big}`);
      return [small, big];
    });
    return rules;
  }

  function validatedNames(seats, rules) {
    // Stryker disable next-line StringLiteral,ConditionalExpression: an error's text is not judged, any refusal passes; a JSON value that is not an array has no forEach: refused below anyway (equivalent; docs/mutation.md)
    if (!Array.isArray(seats)) throw optionError('seats', `expected an array of seat names, got ${show(seats)}`);
    if (seats.length < rules.minSeats || seats.length > rules.maxSeats) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw optionError('seats', `${rules.name} seats ${rules.minSeats} to ${rules.maxSeats} players, got ${seats.length}`);
    }
    seats.forEach((name, i) => {
      if (typeof name !== 'string' || name === '') {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw optionError(`seats[${i}]`, `expected a non-empty string, got ${show(name)}`);
      }
      if (rules.distinctNames && seats.indexOf(name) < i) {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw optionError(`seats[${i}]`, `${rules.name} needs distinct identities; ${show(name)} repeats`);
      }
    });
    // Stryker disable next-line MethodExpression: the constructor reads it once (names is a new array) (equivalent; docs/mutation.md)
    return seats.slice();
  }

  // Who plays each identity (in the order given): 'bot', 'human' or 'agent'
  // (all bots by default).
  function validatedControllers(controllers, n) {
    // Stryker disable next-line ArrayDeclaration: controllers is read only by .some(c => c !== 'bot'): an empty list has none, as all bots (equivalent; docs/mutation.md)
    if (controllers === undefined || controllers === null) return new Array(n).fill('bot');
    if (!Array.isArray(controllers) || controllers.length !== n) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw optionError('controllers', `expected ${n} controller types, one per identity, got ${show(controllers)}`);
    }
    controllers.forEach((c, i) => {
      if (CONTROLLERS.indexOf(c) < 0) {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw optionError(`controllers[${i}]`, `expected 'bot', 'human' or 'agent', got ${show(c)}`);
      }
    });
    // Stryker disable next-line MethodExpression: the constructor reads it once (equivalent; docs/mutation.md)
    return controllers.slice();
  }

  // `{ "<handNumber>": [cards] }` -> Map handNumber -> completed deck codes.
  function validatedDecks(decks) {
    const pinned = new Map();
    if (decks === undefined || decks === null) return pinned;
    // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
    if (!isPlainObject(decks)) throw optionError('decks', `expected an object hand number -> cards, got ${show(decks)}`);
    for (const key of Object.keys(decks)) {
      const number = Number(key);
      if (!/^[1-9][0-9]*$/.test(key) || !Number.isSafeInteger(number)) {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw optionError('decks', `hand number ${show(key)} is not a positive integer`);
      }
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      pinned.set(number, completeDeck(decks[key], `decks[${key}]`));
    }
    return pinned;
  }

  // Seats and the first button: `[order, button]` with order[seat] the index of
  // the identity sitting there. 'fixed': seat i is the i-th identity, first
  // button seat 0. 'seeded' (R23): the stream rng('seating:<seed32>') shuffles
  // the identities by Fisher-Yates (i from n-1 down to 1, j = floor(r() * (i + 1)));
  // its next output gives the first button, floor(r() * n).
  function seating(kind, seed32, n) {
    const order = Array.from({ length: n }, (_, i) => i);
    if (kind === 'fixed') return [order, 0];
    const stream = rng(`seating:${seed32}`);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(stream() * (i + 1));
      const t = order[i]; order[i] = order[j]; order[j] = t;
    }
    return [order, Math.floor(stream() * n)];
  }

  class Game {
    constructor(seats, options) {
      if (options === undefined || options === null) options = {}; // R42: null is no options given
      else if (!isPlainObject(options)) {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw optionError('options', `expected an object, got ${show(options)}`);
      }
      // An option that is undefined takes its default (maxHands: null means no cap).
      const rules = validatedRules(options);
      this.rules = rules;
      const identities = validatedNames(seats, rules);
      const n = identities.length;
      this.n = n;
      const controllers = validatedControllers(options.controllers, n);
      this.timeLimitMs = rules.humanTimeLimitMs !== null && controllers.some((c) => c !== 'bot')
        ? rules.humanTimeLimitMs : rules.timeLimitMs;
      this.ids = identities.map((_, i) => `s${i + 1}`);
      this.seed32 = seedState(options.seed === undefined ? 0 : options.seed);
      const [order, firstButton] = seating(rules.seating, this.seed32, n);
      this.names = order.map((k) => identities[k]); // who sits at each seat
      this.firstButton = firstButton;
      this.decks = validatedDecks(options.decks);
      const stacks = options.stacks;
      if (stacks === undefined || stacks === null) {
        this.stacks = new Array(n).fill(rules.startingStack);
      } else {
        if (!Array.isArray(stacks) || stacks.length !== n) {
          // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
          throw optionError('stacks', `expected an array of ${n} stacks, one per seat, got ${show(stacks)}`);
        }
        stacks.forEach((c, i) => {
          // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
          if (!isPositiveInt(c)) throw optionError(`stacks[${i}]`, `expected a positive integer, got ${show(c)}`);
        });
        this.stacks = stacks.slice();
      }
      // Stryker disable next-line ArrayDeclaration: an unset entry reads as false wherever out is read (equivalent; docs/mutation.md)
      this.out = new Array(n).fill(false);
      this.places = new Array(n).fill(null);
      this.eliminatedIn = new Array(n).fill(null);
      this.errors = new Array(n).fill(0);
      this.consecutiveTimeouts = new Array(n).fill(0);
      this.timeouts = new Array(n).fill(0);
      this.autoFolded = new Array(n).fill(false);
      this.recoveries = new Set(); // seats whose recovery waits for the next hand boundary
      this.entries = []; // every public hand summary, oldest first
      this.records = []; // the log
      this.handNumber = 0;
      this.hand = null;
      this.button = NO_SEAT; // the previous hand's button and big blind (R16)
      this.prevBB = NO_SEAT;
      this.prevCount = 0;
      this.isOver = false;
      this.nextHand();
    }

    get over() { return this.isOver; }

    // R18: one level every handsPerLevel hands, stopping at the last.
    level(handNumber) {
      return Math.min(Math.floor((handNumber - 1) / this.rules.handsPerLevel), this.rules.blindSchedule.length - 1);
    }

    nextSurvivor(seat) {
      // Stryker disable next-line EqualityOperator: positions() asks with two or more survivors: another one is found before k = n, the seat itself (equivalent; docs/mutation.md)
      for (let k = 1; k <= this.n; k++) {
        const s = (seat + k) % this.n;
        if (!this.out[s]) return s;
      }
      // Stryker disable next-line StringLiteral,CallExpression: an error's text is not judged; positions() asks with two or more survivors, so the loop returns before (equivalent; docs/mutation.md)
      throw new Error('no survivor');
    }

    // Button, small blind and big blind of the next hand (R16).
    positions() {
      const alive = [];
      for (let s = 0; s < this.n; s++) if (!this.out[s]) alive.push(s);
      let button = this.button === NO_SEAT ? this.firstButton : this.nextSurvivor(this.button);
      if (alive.length === 2) {
        if (this.prevCount >= 3 && this.rules.headsUp === 'big-blind-advances') { // the heads-up transition
          const bb = this.nextSurvivor(this.prevBB);
          button = alive[1] === bb ? alive[0] : alive[1];
        }
        return [button, button, this.nextSurvivor(button)];
      }
      const sb = this.nextSurvivor(button);
      return [button, sb, this.nextSurvivor(sb)];
    }

    nextHand() {
      while (!this.checkOver()) {
        for (const s of this.recoveries) { // recovery takes effect at the hand boundary (R26)
          // Stryker disable next-line ConditionalExpression,EqualityOperator: a recovery is queued only with chips in the hand, and an auto-folded seat is folded: its stack can only grow (a refund) before the boundary (equivalent; docs/mutation.md)
          if (this.stacks[s] > 0) {
            this.autoFolded[s] = false;
            this.consecutiveTimeouts[s] = 0;
          }
        }
        this.recoveries.clear();
        this.handNumber += 1;
        const [button, sb, bb] = this.positions();
        const number = this.handNumber;
        const deck = this.decks.has(number) ? this.decks.get(number) : dealCodes(this.seed32, number);
        this.hand = new Hand(this.ids, this.stacks, button, sb, bb, this.rules.blindSchedule[this.level(number)],
          deck, number, this.rules, this.autoFolded);
        this.button = button;
        this.prevBB = bb;
        this.prevCount = 0;
        // Stryker disable next-line EqualityOperator,ConditionalExpression: a count of 3 or more after a heads-up hand takes the transition rule, which gives the same button: the other survivor (equivalent; docs/mutation.md)
        for (let s = 0; s < this.n; s++) if (!this.out[s]) this.prevCount++;
        if (!this.hand.done) return;
        this.finishHand();
      }
      this.isOver = true;
    }

    // Sets the places when the tournament ends here.
    checkOver() {
      const survivors = [];
      for (let s = 0; s < this.n; s++) if (!this.out[s]) survivors.push(s);
      if (survivors.length === 1) {
        this.places[survivors[0]] = 1;
        return true;
      }
      const cap = this.rules.maxHands;
      if (cap !== null && this.handNumber >= cap) {
        // Competition places by chips for the survivors (1,1,3).
        for (const s of survivors) {
          let above = 0;
          for (const o of survivors) if (this.stacks[o] > this.stacks[s]) above++;
          this.places[s] = 1 + above;
        }
        return true;
      }
      return false;
    }

    finishHand() {
      const hand = this.hand;
      // Stryker disable next-line MethodExpression: the finished hand's stacks are never written again (the next hand copies them) (equivalent; docs/mutation.md)
      this.stacks = hand.stacks.slice();
      const entry = hand.historyEntry();
      this.entries.push(entry);
      const busted = hand.order.filter((s) => this.stacks[s] === 0);
      let survivors = -busted.length;
      for (let s = 0; s < this.n; s++) if (!this.out[s]) survivors++;
      // R17: larger starting-hand stack first, then button-relative order;
      // holdem-sng-3-v4: by the lower seat number alone (R27: the final stacks are all 0).
      const rank = this.rules.equalStackOrder === 'seat' ? (s) => s :
        // Stryker disable next-line ArrowFunction: busted is hand.order filtered, already button-relative: a stable sort keeps it on ties (a NaN comparison counts as 0) (equivalent; docs/mutation.md)
        (s) => hand.order.indexOf(s);
      const byStack = this.rules.simultaneousBust === 'starting-stack';
      busted.sort((a, b) => (byStack ? hand.startStacks[b] - hand.startStacks[a] : 0) || (rank(a) - rank(b)));
      busted.forEach((s, k) => {
        this.out[s] = true;
        this.places[s] = survivors + 1 + k;
        this.eliminatedIn[s] = hand.handNumber;
      });
      this.records.push({
        handNumber: hand.handNumber,
        level: this.level(hand.handNumber),
        blinds: [hand.sb, hand.bb],
        buttonSeat: hand.button,
        smallBlindSeat: hand.sbSeat,
        bigBlindSeat: hand.bbSeat,
        actions: hand.actions,
        eliminated: busted.map((s) => this.ids[s]),
        result: entry,
        // Stryker disable next-line MethodExpression: this.stacks is replaced, never written, after this; log() copies the record (equivalent; docs/mutation.md)
        chips: this.stacks.slice(),
      });
    }

    requireLive() {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      if (this.isOver) throw fieldError(GameOver, 'action', 'the tournament is over');
    }

    // The decision state for the seat to act (contract: Decision state), or null.
    state() {
      if (this.isOver) return null;
      const rules = this.rules;
      const state = handState(this.hand, this.names);
      const from = Math.max(0, this.entries.length - HISTORY_LIMIT);
      const history = [];
      for (let i = from; i < this.entries.length; i++) history.push(copyEntry(this.entries[i]));
      state.history = history;
      state.tournament = {
        startingStack: rules.startingStack,
        maxHands: rules.maxHands,
        handsPerLevel: rules.handsPerLevel,
        level: this.level(this.handNumber),
        blindSchedule: rules.blindSchedule.map((l) => [l[0], l[1]]),
      };
      state.timeLimitMs = this.timeLimitMs;
      return state;
    }

    /** Applies an answer in any accepted form; an illegal one throws (code, field) and changes nothing. */
    act(answer) {
      this.requireLive();
      const { kind, amount } = parseAnswer(answer, this.rules.vocabulary);
      checkLegal(kind, amount, this.hand.legal());
      this.consecutiveTimeouts[this.hand.toAct] = 0; // a valid voluntary action (R22)
      return this.apply(kind, amount);
    }

    /**
     * The runner's rule: an illegal answer becomes check-or-fold and counts one
     * error. holdem-sng-3-v4: an invalid answer does not consume the turn; the
     * bot's clock then runs out, so it is processed as a timeout (R22). Both are
     * a lapse's action: contract-v1's lapse is exactly that fallback.
     */
    submit(answer) {
      try {
        return { action: this.act(answer), error: null };
      } catch (e) {
        if (!(e instanceof IllegalAction)) throw e; // GameOver: the game is over (R44)
        return { action: this.lapse(), error: e.code };
      }
    }

    /**
     * A late or missing answer (code `late`). Contract v1: the fallback, one
     * error. holdem-sng-3-v4 (R22): the first and second consecutive timeouts
     * check if legal, else fold; the one that reaches timeoutsToAutoFold sets
     * persistent auto-fold and folds even when checking is legal.
     */
    timeout() {
      this.requireLive();
      return { action: this.lapse(), error: 'late' };
    }

    /** The seat to act lets its clock run out (timeout, and v4's invalid answer): the action applied. */
    lapse() {
      const limit = this.rules.timeoutsToAutoFold;
      if (limit !== null) {
        const s = this.hand.toAct;
        this.timeouts[s] += 1;
        this.consecutiveTimeouts[s] += 1;
        if (this.consecutiveTimeouts[s] >= limit) {
          this.errors[s] += 1;
          this.autoFolded[s] = true;
          return this.apply('fold', null);
        }
      }
      return this.fallback();
    }

    /** holdem-sng-3-v4: queue recovery from auto-fold; it takes effect at the next hand boundary (R26). */
    recover(seat) {
      // Stryker disable next-line ConditionalExpression,BlockStatement: no seat is ever auto-folded without auto-fold: the check below refuses every seat (equivalent; docs/mutation.md)
      if (this.rules.timeoutsToAutoFold === null) {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw optionError('seat', `${this.rules.name} has no auto-fold to recover from`);
      }
      if (!Number.isSafeInteger(seat)) {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw optionError('seat', `seat ${show(seat)} does not exist`);
      }
      const chips = this.isOver ? this.stacks[seat] : this.hand.stacks[seat];
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      if (this.out[seat] || chips === 0) throw optionError('seat', `seat ${seat} has no chips: recovery is unavailable`);
      if (!this.autoFolded[seat]) { // a seat the game lacks has no entry either: refused here
        // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator,LogicalOperator: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw optionError('seat', seat >= 0 && seat < this.n ? `seat ${seat} is not in auto-fold` : `seat ${seat} does not exist`);
      }
      this.recoveries.add(seat);
    }

    fallback() {
      const hand = this.hand;
      this.errors[hand.toAct] += 1;
      return this.apply(hand.legal().canCheck ? 'check' : 'fold', null);
    }

    apply(kind, amount) {
      const hand = this.hand;
      const record = hand.apply(kind, amount);
      if (hand.done) {
        this.finishHand();
        this.nextHand();
      }
      return copyAction(record);
    }

    standings() {
      const extra = STANDING_EXTRAS[this.rules.name];
      return this.names.map((name, s) => {
        const entry = {
          id: this.ids[s],
          name,
          seat: s,
          chips: this.stacks[s],
          place: this.places[s],
          eliminatedInHand: this.eliminatedIn[s],
          errors: this.errors[s],
        };
        for (const field of extra) entry[field] = this[field][s];
        return entry;
      });
    }

    history() { return this.entries.map(copyEntry); }

    log() {
      return this.records.map((r) => ({
        handNumber: r.handNumber,
        level: r.level,
        blinds: r.blinds.slice(),
        buttonSeat: r.buttonSeat,
        smallBlindSeat: r.smallBlindSeat,
        bigBlindSeat: r.bigBlindSeat,
        actions: r.actions.map(copyAction),
        eliminated: r.eliminated.slice(),
        result: copyEntry(r.result),
        chips: r.chips.slice(),
      }));
    }
  }

  // The standings fields a ruleset adds (docs/engine-api.md): one with auto-fold reports timeouts.
  const STANDING_EXTRAS = { 'contract-v1': [], 'holdem-sng-3-v4': ['timeouts', 'autoFolded'] };

  // ---- one hand on its own (the `hand` profile) ------------------------------------

  const HAND_FIELDS = ['ids', 'stacks', 'button', 'smallBlindSeat', 'bigBlindSeat', 'blinds', 'deck', 'handNumber'];

  // A hand spec checked field by field (reference: reference/hand_api.py and Hand's checks).
  function validatedHandSpec(spec) {
    // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
    // Stryker disable next-line ConditionalExpression: any other JSON value is refused below: a string or array by its unknown fields, a number or boolean as missing ids, null by Object.keys (equivalent; docs/mutation.md)
    if (!isPlainObject(spec)) throw optionError('spec', `expected an object, got ${show(spec)}`);
    for (const key of Object.keys(spec)) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      if (HAND_FIELDS.indexOf(key) < 0) throw optionError(key, `unknown hand field (known: ${HAND_FIELDS.join(', ')})`);
    }
    // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
    // Stryker disable next-line UnaryOperator,ConditionalExpression: each field absent is refused by its own check below (equivalent; docs/mutation.md)
    for (const key of HAND_FIELDS.slice(0, -1)) if (!hasOwn(spec, key)) throw optionError(key, 'missing');
    const { ids, stacks, blinds } = spec;
    // 2 to 9 ids: one unsigned comparison (fewer than 2 wraps round to 2^32 - 1 or so).
    if (!Array.isArray(ids) || (ids.length - 2) >>> 0 > 7) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw optionError('ids', `expected 2 to 9 seat ids, got ${show(ids)}`);
    }
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (typeof id !== 'string' || id === '' || ids.indexOf(id) < i) {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw optionError(`ids[${i}]`, `expected a distinct non-empty string, got ${show(id)}`);
      }
    }
    const n = ids.length;
    if (!Array.isArray(stacks) || stacks.length !== n) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw optionError('stacks', `expected ${n} stacks, one per seat, got ${show(stacks)}`);
    }
    stacks.forEach((c, i) => {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      if (!Number.isSafeInteger(c) || c < 0) throw optionError(`stacks[${i}]`, `expected a non-negative integer, got ${show(c)}`);
    });
    if (!Array.isArray(blinds) || blinds.length !== 2 || !isPositiveInt(blinds[0]) || !isPositiveInt(blinds[1]) ||
        blinds[0] > blinds[1]) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw optionError('blinds', `expected [small, big] positive integers with small <= big, got ${show(blinds)}`);
    }
    let withChips = 0;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the blinds check below already needs two different seats with chips (equivalent; docs/mutation.md)
    for (const c of stacks) if (c > 0) withChips++;
    // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
    // Stryker disable next-line ConditionalExpression: the blinds check below already needs two different seats with chips (equivalent; docs/mutation.md)
    if (withChips < 2) throw optionError('stacks', 'a hand needs at least two seats with chips');
    for (const key of ['button', 'smallBlindSeat', 'bigBlindSeat']) {
      if (!Number.isSafeInteger(spec[key]) || spec[key] < 0 || spec[key] >= n) {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        throw optionError(key, `seat ${show(spec[key])} does not exist`);
      }
    }
    const sb = spec.smallBlindSeat, bb = spec.bigBlindSeat;
    if (sb === bb || stacks[sb] === 0 || stacks[bb] === 0) {
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      throw optionError('bigBlindSeat', 'the blinds must be two different seats with chips');
    }
    const handNumber = spec.handNumber === undefined ? 1 : spec.handNumber;
    // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
    if (!isPositiveInt(handNumber)) throw optionError('handNumber', `expected a positive integer, got ${show(handNumber)}`);
    return {
      ids: ids.slice(),
      // Stryker disable next-line MethodExpression: the Hand copies the stacks it is given (startStacks, stacks, inHand) and keeps none (equivalent; docs/mutation.md)
      stacks: stacks.slice(),
      blinds: [blinds[0], blinds[1]],
      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
      deck: completeDeck(spec.deck, 'deck'),
      handNumber,
    };
  }

  /** One hand from given seats, stacks, positions, blinds and pinned cards (docs/engine-api.md, createHand). */
  function createHand(spec) {
    const v = validatedHandSpec(spec);
    const rules = RULESETS['contract-v1'];
    const hand = new Hand(v.ids, v.stacks, spec.button, spec.smallBlindSeat, spec.bigBlindSeat, v.blinds, v.deck,
      // Stryker disable next-line ArrayDeclaration: an unset entry reads as false: no seat auto-folded (equivalent; docs/mutation.md)
      v.handNumber, rules, new Array(v.ids.length).fill(false));
    return Object.freeze({
      get over() { return hand.done; },
      state: () => (hand.done ? null : handState(hand, null)),
      act: (answer) => {
        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)
        if (hand.done) throw fieldError(GameOver, 'action', 'the hand is over');
        const { kind, amount } = parseAnswer(answer, rules.vocabulary);
        checkLegal(kind, amount, hand.legal());
        return copyAction(hand.apply(kind, amount));
      },
      result: () => (hand.done ? { result: copyEntry(hand.historyEntry()), chips: hand.stacks.slice() } : null),
    });
  }

  /** A new headless game (docs/engine-api.md); bad seats or options throw naming the field. */
  function create(seats, options) {
    const game = new Game(seats, options);
    // Only the documented API: the internals stay out of reach of callers.
    return Object.freeze({
      get over() { return game.over; },
      state: () => game.state(),
      standings: () => game.standings(),
      history: () => game.history(),
      log: () => game.log(),
      act: (answer) => game.act(answer),
      submit: (answer) => game.submit(answer),
      timeout: () => game.timeout(),
      recover: (seat) => game.recover(seat),
    });
  }

  return Object.freeze({
    version: VERSION,
    // Stryker disable next-line ObjectLiteral: PokerEngine.cards is neither the contract's nor docs/engine-api.md's: nothing defined reads it (equivalent; docs/mutation.md)
    cards: Object.freeze({ RANKS, SUITS, CANONICAL_DECK }),
    CANONICAL_DECK,
    evaluate,
    equity,
    rng,
    dealHand,
    create,
    createHand,
    buildPots,
    // The conformance profiles implemented (docs/engine-api.md, Profiles).
    profiles: Object.freeze(['helpers', 'hand', 'tournament', 'sng3v4']),
  });
});
