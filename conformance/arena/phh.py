"""Replay PHH hand histories (https://phh.readthedocs.io) through the reference engine.

A PHH file records one hand: the table (``variant``, ``antes``, ``blinds_or_straddles``,
``min_bet``, ``starting_stacks``), the ``actions`` in order and, optionally, the
``finishing_stacks``. We rebuild the hand as a ``reference.hand.Hand`` with the hand's own
cards, stacks and blinds, apply every betting action and compare our final stacks with the
recorded ones. Each file gives one ``HandResult``:

* ``matched``: our stacks equal the recorded ones, or differ only by the half chips a split
  pot was recorded with, which our odd-chip rule (R13) explains;
* ``mismatched``: the hand replayed but the stacks differ;
* ``unsupported``: the file is outside what we can replay (``code`` says why): ``unreadable``,
  ``toml``, ``missing-field``, ``bad-field``, ``variant`` (not ``NT``), ``antes``,
  ``straddles``, ``blinds``, ``min-bet``, ``players``, ``incomplete`` (the record stops before
  the hand ends), ``unknown-cards`` (a showdown needs a card the record does not give), or
  ``illegal-action``: our engine refuses a recorded action (IllegalAction, a seat acting out of
  turn or on another street, an action after our hand ended). For a well-formed record that
  last one is a disagreement between the record's rules and ours.

Seats: PHH player ``pK`` is our seat ``K-1``. With three or more players p1 posts the small
blind, p2 the big blind and the last player has the button. Heads-up the blinds are reversed
(the PHH rule): p1 posts the big blind and p2 the small blind on the button.
"""
from __future__ import annotations

import math
import stat
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

from reference.cards import CANONICAL_DECK, CARD_SET
from reference.errors import HoldemError, IllegalAction
from reference.hand import STREETS, Hand
from reference.rng import MAX_SAFE_INTEGER

from conformance.errors import UsageError

MATCHED, MISMATCHED, UNSUPPORTED = "matched", "mismatched", "unsupported"
REQUIRED_FIELDS = ("variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions")
# The record's street from the number of board cards dealt so far.
_STREET_OF_BOARD = {0: 0, 3: 1, 4: 2, 5: 3}


@dataclass
class HandResult:
    file: str
    status: str
    reason: str | None = None
    code: str | None = None  # why a hand is unsupported
    stacks: list[int] | None = None  # ours, once the hand replayed to the end
    recorded: list[int | float] | None = None  # finishing_stacks as recorded

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "status": self.status,
            "reason": self.reason,
            "code": self.code,
            "stacks": self.stacks,
            "recorded": self.recorded,
        }


@dataclass
class Summary:
    hands: list[HandResult] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for h in self.hands if h.status == status)

    @property
    def matched(self) -> int:
        return self.count(MATCHED)

    @property
    def mismatched(self) -> int:
        return self.count(MISMATCHED)

    @property
    def unsupported(self) -> int:
        return self.count(UNSUPPORTED)

    def to_json(self) -> dict:
        return {
            "matched": self.matched,
            "mismatched": self.mismatched,
            "unsupported": self.unsupported,
            "hands": [h.to_json() for h in self.hands],
        }


class _Unsupported(Exception):
    def __init__(self, code: str, reason: str):
        self.code = code
        self.reason = reason
        super().__init__(reason)


def seat_layout(n: int) -> tuple[int, int, int]:
    """(button, small blind, big blind) of our seats for PHH's (and pokerkit's) player order."""
    return (1, 1, 0) if n == 2 else (n - 1, 0, 1)


def deck_for(hole: Sequence[Sequence[str | None]], board: Sequence[str]) -> tuple[list[str], set[int]]:
    """A 52-card deck that our dealing order (R3) turns into these hole cards and board.

    ``hole[k]`` are seat k's two cards (None: unknown). Dealing starts left of the button,
    which is seat 0 in ``seat_layout`` for every table size, so hole card r of seat k sits at
    ``r*n + k``; then burn, flop, burn, turn, burn, river. Unknown cards and burns take the
    unused cards in canonical order. Returns the deck and the positions so filled.
    """
    n = len(hole)
    slots: list[str | None] = [hole[k][r] for r in range(2) for k in range(n)]
    board_slots = list(board) + [None] * (5 - len(board))
    slots += [None, *board_slots[:3], None, board_slots[3], None, board_slots[4]]
    used = {c for c in slots if c is not None}
    spare = iter(c for c in CANONICAL_DECK if c not in used)
    filled = {i for i, c in enumerate(slots) if c is None}
    deck = [c if c is not None else next(spare) for c in slots]
    return deck + list(spare), filled


def replay_file(path: "str | Path") -> HandResult:
    """Replay one PHH file; never raises for a bad file (it is ``unsupported``)."""
    name = str(path)
    try:
        # Only a regular file: opening a FIFO or a device could block for ever.
        if not stat.S_ISREG(Path(path).stat().st_mode):
            return HandResult(name, UNSUPPORTED, "cannot read the file: not a regular file", "unreadable")
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        return HandResult(name, UNSUPPORTED, f"cannot read the file: {exc.strerror or exc}", "unreadable")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return HandResult(name, UNSUPPORTED, f"not valid TOML: {exc}", "toml")
    except RecursionError:  # tomllib parses nested arrays recursively
        return HandResult(name, UNSUPPORTED, "not valid TOML here: nested too deeply", "toml")
    except ValueError as exc:  # e.g. a decimal integer past Python's digit limit
        return HandResult(name, UNSUPPORTED, f"not valid TOML here: {exc}", "toml")
    try:
        return _replay(name, data)
    except _Unsupported as exc:
        return HandResult(name, UNSUPPORTED, exc.reason, exc.code)


def phh_files(paths: Iterable["str | Path"]) -> list[Path]:
    """The files to replay: each file as given, each directory's ``*.phh`` recursively, sorted."""
    files: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found = sorted(p.rglob("*.phh"))
            if not found:
                raise UsageError(f"{raw}: no *.phh files in this directory")
            files.extend(found)
        elif p.exists():
            files.append(p)
        else:
            raise UsageError(f"{raw}: no such file or directory")
    return files


def replay_paths(paths: Iterable["str | Path"]) -> Summary:
    return Summary([replay_file(f) for f in phh_files(paths)])


# -- fields -----------------------------------------------------------------------
def _number(value: object, where: str) -> int | float:
    """A finite number of at most 2**53 - 1 in size (chips are safe integers, as in the contract)."""
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or isinstance(value, int) and abs(value) > MAX_SAFE_INTEGER
            or isinstance(value, float) and not (math.isfinite(value) and abs(value) <= MAX_SAFE_INTEGER)):
        if isinstance(value, int):  # repr of a huge int may itself fail (the digit limit)
            shown = f"an integer of {value.bit_length()} bits"
        else:
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise _Unsupported("bad-field", f"{where}: expected a finite number of at most 2**53 - 1, got {shown}")
    return value


def _chips(value: object, where: str) -> int:
    """A whole number of chips (an integral float such as 10000.0 is accepted)."""
    number = _number(value, where)
    if number != int(number):
        raise _Unsupported("bad-field", f"{where}: expected a whole number of chips, got {value!r}")
    return int(number)


def _numbers(data: dict, key: str, n: int | None) -> list[int | float]:
    values = data[key]
    if not isinstance(values, list) or (n is not None and len(values) != n):
        size = "a list" if n is None else f"a list of {n} numbers, one per player"
        raise _Unsupported("bad-field", f"{key}: expected {size}, got {values!r}")
    return [_number(v, f"{key}[{i}]") for i, v in enumerate(values)]


def _table(data: dict) -> tuple[list[int], tuple[int, int]]:
    missing = [k for k in REQUIRED_FIELDS if k not in data]
    if missing:
        raise _Unsupported("missing-field", f"missing required field(s): {', '.join(missing)}")
    if data["variant"] != "NT":
        raise _Unsupported("variant", f"variant {data['variant']!r} is not no-limit Texas hold'em ('NT')")
    stacks = _numbers(data, "starting_stacks", None)
    n = len(stacks)
    if not 2 <= n <= 9:
        raise _Unsupported("players", f"starting_stacks: {n} players; the contract seats two to nine")
    stacks = [_chips(c, f"starting_stacks[{i}]") for i, c in enumerate(stacks)]
    for i, c in enumerate(stacks):
        if c <= 0:
            raise _Unsupported("bad-field", f"starting_stacks[{i}]: expected a positive stack, got {c}")
    antes = _numbers(data, "antes", n)
    if any(antes):
        raise _Unsupported("antes", f"antes: {antes} (the contract has no antes)")
    forced = _numbers(data, "blinds_or_straddles", n)
    if any(forced[2:]):
        raise _Unsupported("straddles", f"blinds_or_straddles: {forced} (the contract has no straddles)")
    sb, bb = _chips(forced[0], "blinds_or_straddles[0]"), _chips(forced[1], "blinds_or_straddles[1]")
    if not 0 < sb <= bb:
        raise _Unsupported("blinds", f"blinds_or_straddles: {forced} (the contract needs 0 < small blind <= big blind)")
    min_bet = _number(data["min_bet"], "min_bet")
    if min_bet != bb:
        raise _Unsupported("min-bet", f"min_bet {min_bet} differs from the big blind {bb} (the contract's minimum bet)")
    if not isinstance(data["actions"], list):
        raise _Unsupported("bad-field", f"actions: expected a list of strings, got {data['actions']!r}")
    return stacks, (sb, bb)


def _cards(text: str, where: str) -> list[str | None]:
    """``AcKd`` -> ['Ac', 'Kd']; ``??`` is an unknown card (None)."""
    if len(text) % 2:
        raise _Unsupported("bad-field", f"{where}: {text!r} is not a sequence of two-character cards")
    out: list[str | None] = []
    for i in range(0, len(text), 2):
        card = text[i : i + 2]
        if card == "??":
            out.append(None)
        elif card in CARD_SET:
            out.append(card)
        else:
            raise _Unsupported("bad-field", f"{where}: {card!r} is not a card")
    return out


def _player(token: str, n: int, where: str) -> int:
    if len(token) > 1 and token[0] == "p" and token[1:].isdigit() and 1 <= int(token[1:]) <= n:
        return int(token[1:]) - 1
    raise _Unsupported("bad-field", f"{where}: {token!r} is not one of the players p1..p{n}")


def _parse_actions(actions: list, n: int):
    """Cards (hole per seat, board in order) and the betting actions with their record street."""
    hole: list[list[str | None] | None] = [None] * n
    board: list[str] = []
    shown: list[tuple[int, list[str | None], str]] = []
    bets: list[tuple[str, int, str, int | None, int]] = []  # (where, seat, verb, amount, street)
    for i, raw in enumerate(actions):
        where = f"actions[{i}]"
        if not isinstance(raw, str):
            raise _Unsupported("bad-field", f"{where}: expected a string, got {raw!r}")
        words = raw.split("#", 1)[0].split()  # '#' starts a commentary
        if not words:
            continue
        if words[0] == "d":
            if len(words) == 4 and words[1] == "dh":
                seat = _player(words[2], n, where)
                cards = _cards(words[3], where)
                if hole[seat] is not None or len(cards) != 2:
                    raise _Unsupported("bad-field", f"{where}: {raw!r}: hold'em deals each player two hole cards once")
                hole[seat] = cards
            elif len(words) == 3 and words[1] == "db":
                cards = _cards(words[2], where)
                if None in cards or len(board) == 5 or len(cards) != (1 if board else 3):
                    raise _Unsupported("bad-field", f"{where}: {raw!r}: expected a known flop, then turn and river")
                board.extend(cards)  # type: ignore[arg-type]
            else:
                raise _Unsupported("bad-field", f"{where}: {raw!r} is not a dealing action ('d dh pN cards' or 'd db cards')")
            continue
        seat = _player(words[0], n, where)
        verb = words[1] if len(words) > 1 else ""
        if verb == "sm":
            if len(words) > 2:
                shown.append((seat, _cards(words[2], where), where))
            continue
        if verb in ("f", "cc") and len(words) == 2:
            amount = None
        elif verb == "cbr" and len(words) == 3:
            try:
                amount = _chips(float(words[2]) if "." in words[2] else int(words[2]), where)
            except ValueError:
                raise _Unsupported("bad-field", f"{where}: {raw!r}: the amount is not a number") from None
        else:
            raise _Unsupported("bad-field", f"{where}: {raw!r} is not a no-limit hold'em action (f, cc, cbr X, sm)")
        bets.append((where, seat, verb, amount, _STREET_OF_BOARD[len(board)]))
    missing = [f"p{k + 1}" for k in range(n) if hole[k] is None]
    if missing:
        raise _Unsupported("bad-field", f"actions: no hole cards dealt to {', '.join(missing)}")
    # A shown hand reveals hole cards the deal left unknown.
    for seat, cards, where in shown:
        dealt = hole[seat]
        if len(cards) != 2 or any(d is not None and c is not None and c != d for c, d in zip(cards, dealt)):
            raise _Unsupported("bad-field", f"{where}: the shown cards differ from p{seat + 1}'s hole cards")
        hole[seat] = [d if d is not None else c for c, d in zip(cards, dealt)]
    known = [c for h in hole for c in h if c is not None] + board  # type: ignore[union-attr]
    if len(set(known)) != len(known):
        dup = next(c for c in known if known.count(c) > 1)
        raise _Unsupported("bad-field", f"actions: card {dup} is dealt twice")
    return hole, board, bets


# -- replay -----------------------------------------------------------------------
def _replay(name: str, data: dict) -> HandResult:
    stacks, blinds = _table(data)
    n = len(stacks)
    recorded = None
    if "finishing_stacks" in data:
        recorded = _numbers(data, "finishing_stacks", n)
    hole, board, bets = _parse_actions(data["actions"], n)
    deck, filled = deck_for(hole, board)  # type: ignore[arg-type]
    button, sb, bb = seat_layout(n)
    try:
        hand = Hand(
            ids=[f"p{k + 1}" for k in range(n)],
            stacks=stacks,
            button=button,
            small_blind_seat=sb,
            big_blind_seat=bb,
            blinds=blinds,
            deck=deck,
        )
    except HoldemError as exc:
        raise _Unsupported("bad-field", f"our engine cannot start this hand: {exc}") from None
    for where, seat, verb, amount, street in bets:
        label = f"{where}: p{seat + 1} {verb}{'' if amount is None else f' {amount}'}"
        if hand.done:
            raise _Unsupported("illegal-action", f"{label}: our hand is already over")
        if hand.street != street or hand.to_act != seat:
            raise _Unsupported(
                "illegal-action",
                f"{label} on the {STREETS[street]}: our engine has p{hand.to_act + 1} to act on the {STREETS[hand.street]}",
            )
        legal = hand.legal()
        if verb == "f":
            answer: object = "fold"
        elif verb == "cc":
            answer = "check" if legal.can_check else "call"
        else:
            answer = {"type": "raise", "amount": amount}
        try:
            hand.act(answer)
        except IllegalAction as exc:
            raise _Unsupported("illegal-action", f"{label}: {exc} ({exc.code})") from None
    if not hand.done:
        raise _Unsupported(
            "incomplete", f"the record ends with p{hand.to_act + 1} to act on the {STREETS[hand.street]}"
        )
    if hand.showdown:
        _check_showdown_cards(hand, filled, n)
    return _compare(name, hand, recorded)


def _check_showdown_cards(hand: Hand, filled: set[int], n: int) -> None:
    """A showdown decided with cards the record does not give would compare nothing."""
    board_positions = (2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7)
    if any(p in filled for p in board_positions):
        raise _Unsupported("unknown-cards", "the hand reaches a showdown but the record does not give the whole board")
    for s in hand.live():
        if s in filled or s + n in filled:
            raise _Unsupported("unknown-cards", f"p{s + 1} reaches the showdown with hole cards the record does not give")


def _compare(name: str, hand: Hand, recorded: list[int | float] | None) -> HandResult:
    if recorded is None:
        raise _Unsupported("missing-field", "no finishing_stacks to compare with")
    ours = hand.stacks
    diffs = {k: ours[k] - recorded[k] for k in range(len(ours)) if ours[k] != recorded[k]}
    if not diffs:
        return HandResult(name, MATCHED, stacks=ours, recorded=recorded)
    if recorded == _split_exactly(hand) and all(recorded[k] % 1 == 0.5 for k in diffs):
        seats = ", ".join(f"p{k + 1}" for k in diffs)
        return HandResult(
            name, MATCHED, f"split pot recorded with half chips ({seats}); our odd-chip rule (R13) explains it",
            stacks=ours, recorded=recorded,
        )
    detail = "; ".join(f"p{k + 1}: ours {ours[k]}, recorded {recorded[k]}" for k in diffs)
    return HandResult(name, MISMATCHED, f"final stacks differ: {detail}", stacks=ours, recorded=recorded)


def _split_exactly(hand: Hand) -> list[Fraction]:
    """Our final stacks had each pot been split into exact fractions among its winners.

    Recomputes R13 independently of the engine: each pot's odd chips go one at a time to its
    tied winners clockwise from left of the button, which in ``seat_layout`` is seat 0 upward.
    A record in half chips then matches only when it equals these stacks, that is when our
    stacks differ from it by exactly the chips R13 placed, on the seats R13 names.
    """
    index = {sid: k for k, sid in enumerate(hand.ids)}
    exact = [Fraction(c) for c in hand.stacks]
    for pot in hand.pots_awarded:
        winners = sorted(index[w] for w in pot["winners"])
        share, odd = divmod(pot["amount"], len(winners))
        for k, seat in enumerate(winners):
            exact[seat] += Fraction(pot["amount"], len(winners)) - share - (1 if k < odd else 0)
    return exact
