"""Stable ids for the normative clauses of bot-contract-v1 (cited by vectors, tests and reports), and
of holdem-sng-3-v4 where its text states a rule v1 has not (the section says so).

An id is ``<section>.<topic>``; ids are never renamed or reused. ``vectors coverage``
prints how many vectors exercise each clause; every clause here is normative and
has at least one vector. Clauses marked ``engine`` are exercised through an engine
(``holdem-cert engine``); those marked ``runner`` through an arena runner or linter
(the ``runner`` family).
"""
from __future__ import annotations

# id -> (section of the contract, the clause in brief, who tests it)
CLAUSES: dict[str, tuple[str, str, str]] = {
    # Submission
    "submission.id": ("Submission", "identifier matches ^[a-z0-9][a-z0-9.-]*$ and has no '..'", "runner"),
    "submission.exports": ("Submission", "module.exports is act(state) or {name?, act}", "runner"),
    "submission.self-contained": ("Submission", "no import, require, dynamic code, network or DOM", "runner"),
    "submission.roster": ("Submission", "bots.json entry fields; bytes is the UTF-8 size", "runner"),
    # Rules
    "rules.seats": ("Rules", "two through nine fixed seats; eliminated seats keep their indices", "engine"),
    "rules.cards": ("Rules", "a card is a rank 23456789TJQKA plus a suit cdhs", "engine"),
    "rules.deal-order": ("Rules", "hole cards one at a time clockwise from left of the button, two rounds", "engine"),
    "rules.burn": ("Rules", "a card is burned before each board street", "engine"),
    # A hand is dealt from one deck of the 52 cards ("Returns a fresh 52-card shuffled order";
    # holdem-sng-3-v4: "one 52-card deck per hand"): no card is dealt twice in a hand, to two seats or
    # to a seat and the board. Judged on every game an engine plays, a game it should have refused
    # (R38) included (conformance/judge/invariants.py).
    "rules.deck-distinct": ("Rules", "one 52-card deck per hand: no card is dealt twice", "engine"),
    # The table's chips never change: a stack is "uncommitted chips", `total` "chips committed during
    # this whole hand", and a hand moves them only into pots, back as refunds and out as awards
    # (holdem-sng-3-v4: "the table total is 1,500 chips"). Judged with rules.deck-distinct.
    "rules.chips-conserved": ("Rules", "chips move only by commitments, refunds and awards: the table total never changes",
                              "engine"),
    "rules.starting-stack": ("Rules", "default starting stack 10,000", "engine"),
    "rules.blind-schedule": ("Rules", "the default blind schedule", "engine"),
    "rules.levels": ("Rules", "advance one level every twelve hands, stopping at the final level", "engine"),
    "rules.button": ("Rules", "the next surviving seat becomes the button", "engine"),
    "rules.heads-up-transition": ("Rules", "to heads-up: big blind advances from the previous big blind", "engine"),
    "rules.heads-up-order": ("Rules", "heads-up: button posts small blind, acts first preflop, last postflop", "engine"),
    "rules.multiway-order": ("Rules", "preflop starts left of the big blind, postflop left of the button", "engine"),
    "rules.raise-total": ("Rules", "a bet/raise amount is the seat's street total", "engine"),
    "rules.min-open": ("Rules", "minimum opening bet is the big blind", "engine"),
    "rules.min-raise": ("Rules", "minimum raise increment is the last full bet/raise increment", "engine"),
    "rules.short-allin": ("Rules", "short all-ins are accepted but do not reopen a player who acted", "engine"),
    "rules.cumulative-reopen": ("Rules", "cumulative short raises reopen once a full raise is faced", "engine"),
    "rules.checker-convention": ("Rules", "a checker facing only a short opening all-in is not reopened", "engine"),
    "rules.no-responder": ("Rules", "no raise when no opponent has chips to respond", "engine"),
    "rules.lone-solvent": ("Rules", "a lone solvent seat acts only if it owes chips", "engine"),
    "rules.side-pots": ("Rules", "side pots are settled separately", "engine"),
    "rules.folded-chips": ("Rules", "folded chips stay in the pot; folded seats cannot win", "engine"),
    "rules.refund": ("Rules", "unmatched excess is refunded", "engine"),
    "rules.best-five": ("Rules", "best five of seven cards wins", "engine"),
    "rules.wheel": ("Rules", "A2345 is a five-high straight", "engine"),
    "rules.suits": ("Rules", "suits have no rank", "engine"),
    "rules.split": ("Rules", "tied winners split each pot", "engine"),
    "rules.odd-chips": ("Rules", "odd chips go clockwise starting left of the button", "engine"),
    "rules.showdown-public": ("Rules", "all live hands at showdown are public", "engine"),
    "rules.fold-private": ("Rules", "a hand won by folds reveals no hole cards", "engine"),
    "rules.elimination": ("Rules", "zero-chip seats are eliminated", "engine"),
    "rules.simultaneous": ("Rules", "simultaneous eliminations: larger start stack, then button order", "engine"),
    "rules.end": ("Rules", "end at one survivor or after maxHands hands", "engine"),
    # holdem-sng-3-v4's own text, Format: "Exactly three distinct identities start the game." A game
    # of repeated identities is one the ruleset says cannot start: taking it fails (not R38's reading).
    "rules.distinct-identities": ("Rules (holdem-sng-3-v4, Format)", "exactly three distinct identities start the game",
                                  "engine"),
    "rules.cap-places": ("Rules", "at the cap survivors rank by chips with competition places", "engine"),
    # Decision state
    "state.fields": ("Decision state", "exactly the documented fields with their meanings", "engine"),
    "state.integers": ("Decision state", "chip amounts and seat indices are integers", "engine"),
    "state.you": ("Decision state", "you: id, seat, two cards, stack, bet, total", "engine"),
    "state.board": ("Decision state", "zero, three, four or five public cards", "engine"),
    "state.pots": ("Decision state", "pots are merged contribution layers with eligibility", "engine"),
    "state.to-call": ("Decision state", "toCall is the capped call; currentBet the outstanding wager", "engine"),
    "state.min-raise-to": ("Decision state", "minRaiseTo or null; may exceed maxRaiseTo", "engine"),
    "state.max-raise-to": ("Decision state", "maxRaiseTo = you.bet + you.stack", "engine"),
    "state.can-check": ("Decision state", "canCheck", "engine"),
    "state.can-allin": ("Decision state", "canAllIn includes an all-in call", "engine"),
    "state.last-full-raise": ("Decision state", "lastFullRaise is the minimum full raise increment", "engine"),
    "state.positions": ("Decision state", "blinds, buttonSeat, smallBlindSeat, bigBlindSeat", "engine"),
    "state.seats": ("Decision state", "all original seats with exactly the illustrated fields", "engine"),
    "state.actions": ("Decision state", "voluntary actions; amount is the chips added", "engine"),
    "state.history": ("Decision state", "at most twenty public summaries, oldest first", "engine"),
    "state.history-winners": ("Decision state", "winners are gross awards; refunds are not awards", "engine"),
    "state.secrecy": ("Decision state", "no folded/burn/deck/seed/opponent cards in state", "engine"),
    "state.tournament": ("Decision state", "tournament block and timeLimitMs", "engine"),
    "state.fresh": ("Decision state", "a fresh detached object every decision", "engine"),
    # Return values
    "return.forms": ("Return values", "the accepted objects and strings", "engine"),
    "return.raise-alone": ("Return values", "'raise' alone is invalid", "engine"),
    "return.fold": ("Return values", "fold is always legal", "engine"),
    "return.check": ("Return values", "check requires canCheck", "engine"),
    "return.call": ("Return values", "call requires !canCheck and commits toCall", "engine"),
    "return.raise": ("Return values", "raise: safe integer, > currentBet, <= maxRaiseTo, >= minRaiseTo or all-in", "engine"),
    "return.allin": ("Return values", "allin requires canAllIn and commits the stack", "engine"),
    "return.no-bet": ("Return values", "there is no separate bet action", "engine"),
    "return.extra-fields": ("Return values", "extra return fields are ignored", "engine"),
    # Timing, failures and lifecycle
    "timing.deadlines": ("Timing", "5000 ms initialisation, 1000 ms per decision", "runner"),
    "timing.fallback": ("Timing", "an invalid answer counts an error; fallback check else fold", "engine"),
    "timing.terminate": ("Timing", "a late or broken worker is terminated; later decisions fall back", "runner"),
    "timing.worker-per-seat": ("Timing", "each seat a separate worker; helper loads before the bot", "runner"),
    # Determinism
    "determinism.engine": ("Determinism", "deterministic for seats, options, seed and actions", "engine"),
    "determinism.math-random": ("Determinism", "Math.random is a persistent stream seeded by botSeed", "runner"),
    # Helper globals
    "helper.evaluate": ("Helper globals", "evaluate: 5-7 distinct cards -> rank, value, name, best", "engine"),
    "helper.evaluate-errors": ("Helper globals", "evaluate throws on bad counts, cards, duplicates", "engine"),
    "helper.equity": ("Helper globals", "equity: Monte Carlo fractional pot share in [0,1]", "engine"),
    "helper.equity-errors": ("Helper globals", "equity throws on invalid parameters", "engine"),
    "helper.rng": ("Helper globals", "rng: mulberry32; numeric seeds >>> 0; others FNV-1a", "engine"),
    "helper.deal-hand": ("Helper globals", "dealHand: a fresh 52-card order from (seed, handNumber)", "engine"),
    "helper.deal-hand-errors": ("Helper globals", "handNumber is a positive safe integer", "engine"),
    # "The engine API is described in `index.md` and exported identically through UMD in Node."
    # (under `PokerEngine.create`): require()d as a CommonJS module, module.exports is the API and no
    # global is set. Checked by the smoke tier (smoke.module), not by a vector: it is about the
    # engine's text, not a call.
    "engine.commonjs": ("Helper globals", "exported identically through UMD in Node: module.exports is the API", "engine"),
}

# Clauses no vector holds, and what checks them instead: a vector is a call and its outcome, and
# these are about the engine's text.
NOT_BY_VECTOR: dict[str, str] = {
    "engine.commonjs": "the smoke tier's smoke.module, in every certification of a JavaScript engine",
}


def clause(clause_id: str) -> str:
    """Return ``clause_id`` after checking it exists (a typo in a generator fails loudly)."""
    if clause_id not in CLAUSES:
        raise KeyError(f"unknown contract clause id {clause_id!r}")
    return clause_id
