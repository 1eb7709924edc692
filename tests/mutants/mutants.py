"""Single-rule faulty variants of reference/js/poker-engine.js, made at test time by a textual patch.

Each mutant replaces one exact snippet (``find`` must occur exactly once in the pristine engine)
with ``replace`` and breaks one rule; ``family_expected_to_fail`` names the vector family that must
report at least one FAILED vector for it (a divergence on a ruling does not count).
"""

MUTANTS = [
    {
        "name": "odd-chip-wrong-seat",
        "description": "R13: odd chips go to the tied winners nearest the button (counter-clockwise), not left of it",
        "family_expected_to_fail": "hands",
        "find": "const won = share + (k < odd ? 1 : 0);",
        "replace": "const won = share + (k >= winners.length - odd ? 1 : 0);",
    },
    {
        "name": "short-all-in-reopens",
        "description": "R9: any raise, even a short all-in, reopens a seat that already acted",
        "family_expected_to_fail": "hands",
        "find": "if (last === NOT_ACTED || this.currentBet - last >= this.lastFullRaise) return true;",
        "replace": "if (last === NOT_ACTED || this.currentBet > last) return true;",
    },
    {
        "name": "wheel-not-a-straight",
        "description": "R4: A2345 is not recognised as a five-high straight",
        "family_expected_to_fail": "hands",
        "find": "for (let top = 12; top >= 3; top--) {",
        "replace": "for (let top = 12; top >= 4; top--) {",
    },
    {
        "name": "no-burn-card",
        "description": "R3: no card is burned before a board street",
        "family_expected_to_fail": "hands",
        "find": "this.draw(); // burn",
        "replace": "// no burn",
    },
    {
        "name": "heads-up-big-blind-acts-first",
        "description": "R11: heads-up, the big blind acts first preflop instead of the button",
        "family_expected_to_fail": "hands",
        "find": "this.advance(bbSeat);",
        "replace": "this.advance(this.order.length === 2 ? sbSeat : bbSeat);",
    },
    {
        "name": "pots-not-merged",
        "description": "R7: adjacent layers with identical eligibility stay separate",
        "family_expected_to_fail": "pots",
        "find": "if (last !== null && (eligible.length === 0 || sameList(last.eligible, eligible))) last.amount += amount;",
        "replace": "if (last !== null && eligible.length === 0) last.amount += amount;",
    },
    {
        "name": "refund-counted-as-award",
        "description": "R12/R14: an uncalled refund is listed in the history winners",
        "family_expected_to_fail": "hands",
        "find": "this.stacks[owner] += excess;",
        "replace": "this.stacks[owner] += excess;\n        this.awards[owner] += excess;",
    },
    {
        "name": "fnv-over-utf16-units",
        "description": "R1: string seeds hashed over UTF-16 code units instead of code points",
        "family_expected_to_fail": "rng",
        "find": "for (const ch of String(seed)) h = Math.imul(h ^ ch.codePointAt(0), 0x01000193);",
        "replace": "const str = String(seed);\n    for (let i = 0; i < str.length; i++) h = Math.imul(h ^ str.charCodeAt(i), 0x01000193);",
    },
    {
        "name": "min-raise-from-raise-to",
        "description": "R9: lastFullRaise becomes the raise-to total instead of the raise increment",
        "family_expected_to_fail": "hands",
        "find": "if (increment >= this.lastFullRaise) this.lastFullRaise = increment;",
        "replace": "if (increment >= this.lastFullRaise) this.lastFullRaise = this.bet[s];",
    },
    {
        "name": "heads-up-transition-button",
        "description": "R16: at the heads-up transition the seat after the previous big blind gets the button",
        "family_expected_to_fail": "tournaments",
        "find": "button = alive[1] === bb ? alive[0] : alive[1];",
        "replace": "button = alive[1] === bb ? alive[1] : alive[0];",
    },
    {
        "name": "deal-from-the-button",
        "description": "R3: hole cards are dealt starting at the button instead of left of it",
        "family_expected_to_fail": "hands",
        "find": "for (const s of this.order) this.hole[s].push(this.draw());",
        "replace": "for (const s of [this.order[this.order.length - 1], ...this.order.slice(0, -1)]) this.hole[s].push(this.draw());",
    },
    {
        "name": "simultaneous-smaller-stack-first",
        "description": "R17: seats eliminated together rank the smaller starting stack higher",
        "family_expected_to_fail": "tournaments",
        "find": "(byStack ? hand.startStacks[b] - hand.startStacks[a] : 0)",
        "replace": "(byStack ? hand.startStacks[a] - hand.startStacks[b] : 0)",
    },
    {
        "name": "simultaneous-equal-button-first",
        "description": "R17: equal starting stacks eliminated together rank the button first, not the seat left of it",
        "family_expected_to_fail": "tournaments",
        "find": "|| (rank(a) - rank(b))",
        "replace": "|| (rank(b) - rank(a))",
    },
    {
        "name": "level-one-hand-late",
        "description": "R18: the blind level advances one hand after it should",
        "family_expected_to_fail": "tournaments",
        "find": "Math.floor((handNumber - 1) / this.rules.handsPerLevel)",
        "replace": "Math.floor(Math.max(0, handNumber - 2) / this.rules.handsPerLevel)",
    },
    {
        "name": "raise-without-responder",
        "description": "R10: minRaiseTo is not null when every other live seat is all-in",
        "family_expected_to_fail": "hands",
        "find": "if (o !== s && this.stacks[o] > 0 && !this.folded[o]) { canRaise = true; break; }",
        "replace": "if (o !== s && !this.folded[o]) { canRaise = true; break; }",
    },
    {
        "name": "call-not-capped",
        "description": "Return values: a call commits the whole amount owed even beyond the stack",
        "family_expected_to_fail": "legality",
        "find": "else if (kind === 'call') add = Math.min(this.currentBet - this.bet[s], this.stacks[s]);",
        "replace": "else if (kind === 'call') add = this.currentBet - this.bet[s];",
    },
    {
        "name": "big-blind-option-without-raise",
        "description": "R9: the big blind's option (nobody raised) is check only: it may not raise",
        "family_expected_to_fail": "legality",
        "find": "let canRaise = maxTo > cb && this.raiseOpen(s);",
        "replace": "let canRaise = maxTo > cb && this.raiseOpen(s) && !(s === this.bbSeat && this.street === 0 && bet === cb);",
    },
    {
        "name": "raise-amount-as-additional-chips",
        "description": "Rules: a raise amount is taken as chips added instead of the street total",
        "family_expected_to_fail": "hands",
        "find": "else if (kind === 'raise') add = amount - this.bet[s];",
        "replace": "else if (kind === 'raise') add = Math.min(amount, this.stacks[s]);",
    },
    {
        "name": "strings-case-insensitive",
        "description": "R19: string answers are accepted in any case ('Fold')",
        "family_expected_to_fail": "legality",
        "find": "if (STRING_FORMS.indexOf(answer) >= 0) return { kind: answer, amount: null };",
        "replace": "if (STRING_FORMS.indexOf(answer.toLowerCase()) >= 0) return { kind: answer.toLowerCase(), amount: null };",
    },
    {
        "name": "cap-places-by-seat",
        "description": "Rules: at the hand cap survivors are placed by seat order instead of by chips",
        "family_expected_to_fail": "tournaments",
        "find": "for (const o of survivors) if (this.stacks[o] > this.stacks[s]) above++;",
        "replace": "for (const o of survivors) if (o < s) above++;",
    },
    # The showdown of a game (settleShowdown -> valueOf, which evaluate() does not use); only the
    # hands family's showdown vectors (conformance/vectors/generators/showdowns.py) reach these cases.
    {
        "name": "showdown-trips-before-straight",
        "description": "Rules (best five): in a game showdown, trips that also hold a straight rank as trips",
        "family_expected_to_fail": "hands",
        "find": "st = STRAIGHT[n1];",
        "replace": "st = n3 !== 0 ? 0 : STRAIGHT[n1];",
    },
    {
        "name": "showdown-third-pair-not-a-kicker",
        "description": "Rules (best five): with three pairs, the kicker is taken from the unpaired ranks only",
        "family_expected_to_fail": "hands",
        "find": "TOP_RANK[n1 ^ p ^ q] * B2",
        "replace": "TOP_RANK[n1 ^ n2] * B2",
    },
    {
        "name": "showdown-two-trips-not-a-full-house",
        "description": "Rules (best five): two trips in seven cards are not read as a full house",
        "family_expected_to_fail": "hands",
        "find": "p = n2 ^ t;",
        "replace": "p = n2 ^ n3;",
    },
    {
        "name": "showdown-straight-flush-any-suit",
        "description": "Rules (best five): a flush plus a straight of any suits is taken for a straight flush",
        "family_expected_to_fail": "hands",
        "find": "st = STRAIGHT[f];",
        "replace": "st = STRAIGHT[c | d | h | s];",
    },
    {
        "name": "showdown-quads-kicker-ignored",
        "description": "Rules (best five): four of a kind ties whatever the fifth card",
        "family_expected_to_fail": "hands",
        "find": "return 7 * B5 + TOP_RANK[n4] * B4 +",
        "replace": "return 7 * B5 + TOP_RANK[n4] * B4 + 0 *",
    },
    {
        "name": "showdown-trips-one-kicker",
        "description": "Rules (best five): three of a kind is compared on one kicker instead of two",
        "family_expected_to_fail": "hands",
        "find": "TOP2[n1 ^ n3]",
        "replace": "TOP_RANK[n1 ^ n3] * B3",
    },
    {
        "name": "showdown-full-house-lowest-pair",
        "description": "Rules (best five): trips with two pairs take the lower pair for the full house",
        "family_expected_to_fail": "hands",
        "find": "TOP_RANK[p] * B3;",
        "replace": "TOP_RANK[p & -p] * B3;",
    },
    {
        "name": "showdown-high-card-four-cards",
        "description": "Rules (best five): a high-card hand is compared on its top four cards only",
        "family_expected_to_fail": "hands",
        "find": "return TOP5[n1];",
        "replace": "return TOP5[n1] - TOP5[n1] % 15;",
    },
    {
        "name": "equity-every-tie-a-half",
        "description": "Helper globals: equity counts a tie as 1/2 whatever the number of tied opponents (not only R6)",
        "family_expected_to_fail": "equity",
        "find": "if (!beaten) total += 1 / (1 + ties);",
        "replace": "if (!beaten) total += ties > 0 ? 0.5 : 1;",
    },
    {
        "name": "evaluate-duplicate-in-low-pair",
        "description": "Helper globals: evaluate accepts a repeated card that makes the lower pair of two pair",
        "family_expected_to_fail": "evaluate",
        "find": "if (a === b || c === d) throw evaluateError(cards);",
        "replace": "if (a === b) throw evaluateError(cards);",
    },
    # holdem-sng-3-v4 (judged by the sng3v4 family's contract checks, docs/INTERPRETING.md).
    {
        "name": "v4-auto-fold-after-second-timeout",
        "description": "R22: the second consecutive timeout already sets persistent auto-fold and folds",
        "family_expected_to_fail": "sng3v4",
        "find": "if (this.consecutiveTimeouts[s] >= limit) {",
        "replace": "if (this.consecutiveTimeouts[s] >= limit - 1) {",
    },
    {
        "name": "v4-third-timeout-checks",
        "description": "R22: the third consecutive timeout sets auto-fold but checks when checking is legal",
        "family_expected_to_fail": "sng3v4",
        "find": "          return this.apply('fold', null);",
        "replace": "          return this.apply(this.hand.legal().canCheck ? 'check' : 'fold', null);",
    },
    {
        "name": "v4-recovery-never-applied",
        "description": "R26: an accepted recovery request is dropped instead of queued for the next hand",
        "family_expected_to_fail": "sng3v4",
        "find": "this.recoveries.add(seat);",
        "replace": "// the request is forgotten",
    },
    {
        "name": "v4-auto-fold-not-persistent",
        "description": "R26: a seat in auto-fold is dealt in as a live seat in later hands (and can win)",
        "family_expected_to_fail": "sng3v4",
        "find": "for (const s of this.order) if (autoFolded[s]) this.folded[s] = true;",
        "replace": "// auto-folded seats play on",
    },
    {
        "name": "v4-showdown-reveals-losers",
        "description": "R25: every live hand is public at a v4 showdown, losers included",
        "family_expected_to_fail": "sng3v4",
        "find": "if (this.showdownReveal === 'needed') {",
        "replace": "if (this.showdownReveal === 'every live hand') {",
    },
    {
        "name": "v4-heads-up-transition",
        "description": "R16: contract v1's heads-up transition under v4, whose button advances to the next participant with chips",
        "family_expected_to_fail": "sng3v4",
        "find": "if (this.prevCount >= 3 && this.rules.headsUp === 'big-blind-advances') {",
        "replace": "if (this.prevCount >= 3) {",
    },
    {
        "name": "v4-reveal-hole-cards-in-best-five",
        "description": "R25: the winner's hole cards in evaluate's best five are public, needed or not (Kc 9d on 9h Td Jc Qs 2c)",
        "family_expected_to_fail": "sng3v4",
        "find": "const needed = neededHoleCards(this.hole[s], boardLo, boardHi, values[s]);",
        "replace": "const best = evaluate(entry.cards.concat(this.board.map((c) => CANONICAL_DECK[c]))).best;\n"
                   "          const needed = this.hole[s].filter((c) => best.indexOf(CANONICAL_DECK[c]) >= 0);",
    },
    {
        "name": "v4-human-clock-ignored",
        "description": "R22: the 45,000 ms clock is not used when a human or agent participates",
        "family_expected_to_fail": "sng3v4",
        "find": "rules.humanTimeLimitMs !== null && controllers.some((c) => c !== 'bot')",
        "replace": "rules.humanTimeLimitMs !== null && controllers.every((c) => c !== 'bot')",
    },
    {
        "name": "v4-recovery-immediate",
        "description": "R26: recovery takes effect at once instead of at the next hand boundary",
        "family_expected_to_fail": "sng3v4",
        "find": "this.recoveries.add(seat);",
        "replace": "this.autoFolded[seat] = false; this.consecutiveTimeouts[seat] = 0;",
    },
    {
        "name": "v4-valid-action-keeps-timeout-count",
        "description": "R22: a valid voluntary action does not reset the consecutive timeout count",
        "family_expected_to_fail": "sng3v4",
        "find": "this.consecutiveTimeouts[this.hand.toAct] = 0; // a valid voluntary action (R22)",
        "replace": "// the count is kept",
    },
    {
        "name": "fallback-counts-no-error",
        "description": "the contract's error counting: a late or invalid answer's fallback leaves the seat's standings errors unchanged",
        "family_expected_to_fail": "sng3v4",
        "find": "this.errors[hand.toAct] += 1;",
        "replace": "// no error counted",
    },
]

# Engines that took a documented alternative of a ruling: judged divergent on that ruling, never
# failed; the reference under the ruling's alternative (reference.rulings.profiles_to_try for the
# family's ruleset) reproduces them exactly.
DIVERGENT_MUTANTS = [
    {
        "name": "v4-simultaneous-bust-by-starting-stack",
        "description": "R27 (b): seats busting together under v4 rank by their starting stacks, then the lower seat",
        "family": "sng3v4",
        "ruling": "R27",
        "find": "const byStack = this.rules.simultaneousBust === 'starting-stack';",
        "replace": "const byStack = true;",
    },
    {
        "name": "v4-uncontested-pot-reveals",
        "description": "R31 (any-showdown-pot): a side pot with one eligible seat reveals its winner's needed cards",
        "family": "sng3v4",
        "ruling": "R31",
        "find": "if (pot.eligible.length > 1) for (const s of winners) wonPot[s] = true;",
        "replace": "for (const s of winners) wonPot[s] = true;",
    },
]

# The step judge's blind spots (issue #12): each must fail with its first divergence naming the
# clause in ``breaks``. ``family_expected_to_fail`` is where; tests/test_step_judge.py judges them,
# some on its own pinned-card hands (SHOWDOWN_TRAPS there).
SHOWDOWN_VALUE = "values[s] = valueOf(boardLo | LO_BIT[a] | LO_BIT[b], boardHi | HI_BIT[a] | HI_BIT[b]);"
# The showdown's ranks held at least twice (n2) and three times (n3) of the seven cards (lo, hi).
_GROUPS = ("var c = lo & 0x1FFF, d = lo >>> 13, h = hi & 0x1FFF, q = hi >>> 13, n1 = c, n2 = c & d, n3; "
           "n1 |= d; n3 = n2 & h; n2 |= n1 & h; n1 |= h; n3 |= n2 & q; n2 |= n1 & q; n1 |= q; var v = valueOf(lo, hi);")
BLIND_SPOT_MUTANTS = [
    {
        "name": "showdown-trips-straight-as-trips",
        "description": "Rules: the game's showdown ranks trips that also make a straight as trips",
        "family_expected_to_fail": "hands",
        "breaks": "rules.best-five",
        "find": SHOWDOWN_VALUE,
        "replace": "values[s] = (function (lo, hi) { " + _GROUPS + " if (n3 !== 0 && (v / B5 | 0) === 4) "
                   "return 3 * B5 + TOP_RANK[n3] * B4 + TOP2[n1 ^ n3]; return v; })"
                   "(boardLo | LO_BIT[a] | LO_BIT[b], boardHi | HI_BIT[a] | HI_BIT[b]);",
    },
    {
        "name": "showdown-third-pair-not-a-kicker",
        "description": "Rules: the game's showdown takes a two-pair kicker only from unpaired ranks",
        "family_expected_to_fail": "hands",
        "breaks": "rules.best-five",
        "find": SHOWDOWN_VALUE,
        "replace": "values[s] = (function (lo, hi) { " + _GROUPS + " var p = TOP_BIT[n2], r = TOP_BIT[n2 ^ p]; "
                   "if ((v / B5 | 0) === 2 && (n2 ^ p ^ r) !== 0) return 2 * B5 + TOP_RANK[p] * B4 + TOP_RANK[r] * B3 "
                   "+ TOP_RANK[n1 & ~n2] * B2; return v; })(boardLo | LO_BIT[a] | LO_BIT[b], boardHi | HI_BIT[a] | HI_BIT[b]);",
    },
    {
        "name": "history-newest-first",
        "description": "Decision state: history lists the newest hand first",
        "family_expected_to_fail": "tournaments",
        "breaks": "state.history",
        "find": "for (let i = from; i < this.entries.length; i++) history.push(copyEntry(this.entries[i]));",
        "replace": "for (let i = from; i < this.entries.length; i++) history.unshift(copyEntry(this.entries[i]));",
    },
    {
        "name": "history-longer-than-twenty",
        "description": "Decision state: history holds twenty-one entries",
        "family_expected_to_fail": "tournaments",
        "breaks": "state.history",
        "find": "const from = Math.max(0, this.entries.length - HISTORY_LIMIT);",
        "replace": "const from = Math.max(0, this.entries.length - HISTORY_LIMIT - 1);",
    },
    {
        "name": "history-entries-shared",
        "description": "Decision state: history entries are the engine's own objects",
        "family_expected_to_fail": "tournaments",
        "breaks": "state.fresh",
        "find": "for (let i = from; i < this.entries.length; i++) history.push(copyEntry(this.entries[i]));",
        "replace": "for (let i = from; i < this.entries.length; i++) history.push(this.entries[i]);",
    },
    {
        "name": "actions-shared",
        "description": "Decision state: actions entries are the engine's own objects",
        "family_expected_to_fail": "hands",
        "breaks": "state.fresh",
        "find": "      actions: hand.actions.map(copyAction),\n    };",
        "replace": "      actions: hand.actions,\n    };",
    },
    {
        "name": "blind-schedule-shared",
        "description": "Decision state: tournament.blindSchedule levels are the engine's own arrays",
        "family_expected_to_fail": "tournaments",
        "breaks": "state.fresh",
        "find": "blindSchedule: rules.blindSchedule.map((l) => [l[0], l[1]]),",
        "replace": "blindSchedule: rules.blindSchedule.map((l) => l),",
    },
    {
        "name": "responder-counts-folded-seats",
        "description": "R10: a folded seat with chips counts as a responder, so a raise is offered with no one to answer it",
        "family_expected_to_fail": "hands",
        "breaks": "rules.no-responder",  # the rule R10 applies (issue #23, item 4: the right clause)
        "find": "if (o !== s && this.stacks[o] > 0 && !this.folded[o]) { canRaise = true; break; }",
        "replace": "if (o !== s && this.stacks[o] > 0) { canRaise = true; break; }",
    },
    {
        "name": "raise-accepted-when-closed",
        "description": "Return values: a raise is accepted although minRaiseTo is null (the raise right is closed)",
        "family_expected_to_fail": "legality",
        "breaks": "return.raise",
        "find": "    if (legal.minRaiseTo === null) {\n      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)\n      throw illegal('type', 'raising is not permitted",
        "replace": "    if (false) {\n      // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)\n      throw illegal('type', 'raising is not permitted",
    },
    {
        "name": "v4-odd-chip-wrong-seat",
        "description": "R13 under holdem-sng-3-v4: odd chips go to the tied winners nearest the button (every sng3v4 "
                       "vector rests on rulings: this must still fail where no documented alternative gives the same)",
        "family_expected_to_fail": "sng3v4",
        "breaks": "rules.odd-chips",
        "find": "const won = share + (k < odd ? 1 : 0);",
        "replace": "const won = share + (k >= winners.length - odd ? 1 : 0);",
    },
]

# Bugs only differential fuzzing (conformance/judge/fuzz.py) catches: the golden vectors and the fresh
# tests of contract-v1 never reach them (no contract-v1 timeout, no one-chip blind). Each must fail
# a fuzz game at ``breaks``; tests/test_fuzz.py shrinks it and replays the shrunk vector.
FUZZ_MUTANTS = [
    {
        "name": "v1-timeout-folds-when-check-is-legal",
        "description": "Contract v1: a timeout folds even when checking is legal (the fallback is check, else fold)",
        "family_expected_to_fail": "hands",
        "breaks": "timing.fallback",
        "find": "      return { action: this.lapse(), error: 'late' };",
        "replace": "      return { action: this.rules.timeoutsToAutoFold === null"
                   " ? (this.errors[this.hand.toAct] += 1, this.apply('fold', null)) : this.lapse(), error: 'late' };",
    },
    {
        "name": "one-chip-small-blind-posts-nothing",
        "description": "Rules: a small blind seat holding one chip posts nothing (it must post its one chip, all-in)",
        "family_expected_to_fail": "hands",
        # the seat's own figures (its pots follow from them: conformance/judge/derived_fields.py)
        "breaks": "state.seats",
        "find": "this.commit(sbSeat, Math.min(this.sb, this.stacks[sbSeat]));",
        "replace": "this.commit(sbSeat, this.stacks[sbSeat] === 1 ? 0 : Math.min(this.sb, this.stacks[sbSeat]));",
    },
]

# Engines that take input the engine API refuses (R38: docs/rulings.md), each in one way; what they
# then play is judged by the rules every game keeps (conformance/judge/invariants.py), or fails
# outright where the ruleset's own text rules the input out (tests/test_taken_input.py).
TAKEN_MUTANTS = {
    # A deck with a duplicate card is taken: ["Ah", "Kd", "Ah"] deals the ace of hearts to two seats.
    "deck-duplicate-taken": ("if (used[codes[i]]) throw optionError(`${field}[${i}]`, `duplicate card ${show(cards[i])}`);",
                             "/* a duplicate card is taken */"),
    # A ten-seat game is taken and played to its end.
    "ten-seats-taken": ("maxSeats: 9,", "maxSeats: 10,"),
    # holdem-sng-3-v4 with a repeated identity is taken ("Exactly three distinct identities start the game").
    "v4-repeated-identity-taken": ("distinctNames: true,", "distinctNames: false,"),
    # buildPots takes any committed value (fractional, negative, a string, a boolean) as given.
    "pots-committed-unchecked": ("if (!Number.isSafeInteger(amount) || amount < 0) {\n"
                                 "        // Stryker disable next-line StringLiteral: an error's text is not judged, any refusal passes (docs/mutation.md)\n"
                                 "        throw fail(`${where}.committed`, `expected a non-negative integer, got ${show(amount)}`);\n"
                                 "      }", "/* any committed value is taken */"),
}
