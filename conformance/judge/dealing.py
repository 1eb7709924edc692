"""Following an engine's own dealing (issue #23, item 1; docs/INTERPRETING.md, Step judging).

Every card a seat holds is visible in its own decision state (``you.cards``) or at the showdown,
and the board in every state and history entry; a card nobody sees changes no outcome. When the
cards an engine dealt differ from the ones the reference deals from the pinned deck (its own
shuffle, its own deal order, no burns), the dealing difference is one failure with its clause,
and the game is judged again with the reference dealt the engine's cards (the ``dealt`` option of
reference.tournament / reference.hand), so every betting, pot, award, elimination and history
rule is judged as for any engine.

The dealing is judged against the engine's own positions (its button and the seats it has in the
hand): an engine that deals the pinned deck the contract's way from a wrong button has no dealing
difference, only the wrong button. A deal the pinned deck gives under a documented ruling
alternative (R3: from the back) is that alternative, not a failure.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from reference.cards import CANONICAL_DECK
from reference.hand import complete_deck, dealing_order, needed_hole_cards

from conformance.vectors.clauses import CLAUSES
from . import step_judge
from .comparison import Divergence
from .step_judge import GameVerdict
from .trajectory import expand

_CARDS = frozenset(CANONICAL_DECK)
# A dealing failure's kind of difference (causes.py: one cause wherever the cards were seen).
DEALT_OTHER_CARDS = "other cards dealt than the pinned deck's"
# The deal alternatives of the rulings (reference/rulings.py): the pinned deck dealt from its end.
DEAL_ALTERNATIVES = ({"R3": "back"},)


class _Inconsistent(Exception):
    """The engine's cards of a hand contradict each other (a seat's cards change, a card twice)."""


@dataclass
class HandCards:
    """What an engine showed of one hand's cards: ``hole`` seat -> cards (two, or the cards a v4
    showdown reveals), ``board``, the first decision where each was seen, and the engine's own
    positions (button, the seats in the hand) when a decision state of the hand showed them."""

    hole: dict
    board: list
    seen: dict  # "hole:<seat>" / "board:<n>" -> the decision index where first seen (None: at the end)
    where: dict = field(default_factory=dict)  # the same keys -> the end record's path that showed it
    button: int | None = None
    in_hand: list | None = None
    complete: set | None = None  # seats whose two hole cards are both known

    def dealt(self) -> dict:
        return {"hole": {s: self._whole(s, c) for s, c in self.hole.items()}, "board": list(self.board)}

    def _whole(self, seat: int, cards: list) -> list:
        """A seat's hole cards; where a v4 showdown revealed only the cards its hand needs (R25),
        the unseen ones are the first free cards that leave exactly those needed (so the same
        value and the same cards public: an unseen card changes no outcome)."""
        if seat in self.complete or len(self.board) != 5 or len(cards) >= 2:
            return list(cards)
        used = {c for cs in self.hole.values() for c in cs} | set(self.board)
        free = [c for c in CANONICAL_DECK if c not in used]
        pairs = ([[cards[0], x] for x in free] if cards
                 else [[x, y] for i, x in enumerate(free) for y in free[i + 1:]])
        return next((p for p in pairs if needed_hole_cards(p, self.board) == list(cards)), list(cards))


def _card_list(cards: object) -> list:
    if not (isinstance(cards, list) and all(isinstance(c, str) and c in _CARDS for c in cards)):
        raise _Inconsistent
    return list(cards)


class Observed:
    """The engine's cards, hand by hand, gathered from its states and hand records."""

    def __init__(self) -> None:
        self.hands: dict[int, HandCards] = {}
        self.broken: set[int] = set()
        self.seat_of: dict[str, int] = {}
        self._recorded: set[bytes] = set()  # the history entries of states seen (each state repeats them)
        self.misnumbered = False  # a state's history numbered its records otherwise than the hands before it

    def _hand(self, number: object) -> HandCards | None:
        if not isinstance(number, int) or isinstance(number, bool) or number in self.broken:
            return None
        return self.hands.setdefault(number, HandCards({}, [], {}, complete=set()))

    def _guard(self, number, add) -> None:
        h = self._hand(number)
        if h is None:
            return
        try:
            add(h)
            cards = [c for cs in h.hole.values() for c in cs] + h.board
            if len(cards) != len(set(cards)):
                raise _Inconsistent
        except (_Inconsistent, KeyError, TypeError, AttributeError):
            self.broken.add(number)
            self.hands.pop(number, None)

    def _board(self, h: HandCards, board: object, at, where: str | None = None) -> None:
        board = _card_list(board)
        short, long = sorted((h.board, board), key=len)
        if long[:len(short)] != short or len(long) > 5:
            raise _Inconsistent
        h.seen.setdefault(f"board:{len(board)}", at)
        if where is not None:
            h.where.setdefault(f"board:{len(board)}", f"{where}.board")
        if len(board) > len(h.board):
            h.board = board

    def _hole(self, h: HandCards, seat: int, cards: list, whole: bool, at, where: str | None = None) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise _Inconsistent
        if where is not None:
            h.where.setdefault(f"hole:{seat}", where)
        known = h.hole.get(seat)
        if whole:
            if len(cards) != 2:
                raise _Inconsistent
            if seat in h.complete:
                if known != cards:
                    raise _Inconsistent
                return
            if known is not None and not set(known) <= set(cards):
                raise _Inconsistent
            h.hole[seat] = cards
            h.complete.add(seat)
        elif known is None:
            h.hole[seat] = cards[:2]
        elif not set(cards) <= set(known) and seat in h.complete:
            raise _Inconsistent
        h.seen.setdefault(f"hole:{seat}", at)

    def state(self, state: object, at: int | None) -> None:
        """A decision state: the seat to act's cards, the board, the positions, the history's records."""
        if not isinstance(state, dict):
            return
        for s in state.get("seats") or ():
            if isinstance(s, dict) and isinstance(s.get("id"), str) and isinstance(s.get("seat"), int):
                self.seat_of.setdefault(s["id"], s["seat"])
        history = state.get("history") or ()
        number = state.get("handNumber")
        if isinstance(number, int) and any(isinstance(e, dict) and isinstance(e.get("handNumber"), int)
                                           and not 1 <= e["handNumber"] < number for e in history):
            history = ()  # records numbered otherwise than the hands before this one: no hand's cards
            self.misnumbered = True
        for entry in history:
            # Recording an entry seen before, unchanged, changes nothing (the cards it shows are
            # already known or made the hand inconsistent): each state repeats the previous ones'.
            try:
                key = orjson.dumps(entry)
            except (TypeError, orjson.JSONEncodeError):
                key = None
            if key is not None and key in self._recorded:
                continue
            self.record(entry, None)
            if key is not None:
                self._recorded.add(key)
        number = state.get("handNumber")

        def add(h: HandCards) -> None:
            you = state["you"]
            self._hole(h, you["seat"], _card_list(you["cards"]), True, at)
            self._board(h, state["board"], at)
            if h.button is None and isinstance(state.get("buttonSeat"), int) and isinstance(state.get("seats"), list):
                h.button = state["buttonSeat"]
                # (its chips: a stack, or chips committed -- its total, or a street bet where the
                # total alone says none)
                h.in_hand = [isinstance(s, dict) and not s.get("out")
                             and s.get("stack", 0) + max(s.get("total", 0), s.get("bet", 0)) > 0 for s in state["seats"]]

        self._guard(number, add)

    def record(self, entry: object, at: int | None, number: int | None = None, where: str | None = None) -> None:
        """A hand's public record (a history entry, a log record's result, a lone hand's result);
        ``where``: its path at the end of the game (``history()[i]``), for a reproduction to look at."""
        if not isinstance(entry, dict):
            return
        # the number of the record that holds it (a log() record's own) before the entry's own
        number = entry.get("handNumber") if number is None else number

        def add(h: HandCards) -> None:
            self._board(h, entry.get("board", []), at, where)
            for j, shown in enumerate(entry.get("showdown") or ()):
                cards = _card_list(shown["cards"])
                seat = self.seat_of[shown["id"]]
                self._hole(h, seat, cards, len(cards) == 2, at, where and f"{where}.showdown[{j}].cards")

        self._guard(number, add)


def observe(trajectory: dict, ids: "list[str] | None" = None, hand_number: int | None = None) -> Observed:
    """The engine's cards in a game trajectory (decisions, sng3v4 steps' states, history(), log()),
    or in a lone hand's (``hand_number``: its number; ``ids``: its seats' ids)."""
    seen = Observed()
    for k, i in enumerate(ids or ()):
        seen.seat_of[i] = k
    steps = trajectory.get("steps") if isinstance(trajectory.get("steps"), list) else []
    states = [o.get("state") for o in steps if isinstance(o, dict)]
    decisions = trajectory.get("decisions") if isinstance(trajectory.get("decisions"), list) else []
    for k, state in enumerate(states + decisions):
        if hand_number is not None and isinstance(state, dict):
            state = {**state, "handNumber": hand_number}
        seen.state(state, k)
    history = trajectory.get("history") if isinstance(trajectory.get("history"), list) else ()
    # the hands played: its log()'s (hands without a decision state included), where it has one
    logged = [x.get("handNumber") for x in trajectory.get("log") or () if isinstance(x, dict)]
    top = max((n for n in logged if isinstance(n, int) and not isinstance(n, bool)), default=None)
    if seen.misnumbered or any(isinstance(e, dict) and isinstance(e.get("handNumber"), int)
                               and (e["handNumber"] < 1 or top is not None and e["handNumber"] > top) for e in history):
        history = ()  # records numbered otherwise (as its states' are, or than its log's hands): no hand's cards
    for i, entry in enumerate(history):
        seen.record(entry, None, where=f"history()[{i}]")
    for i, entry in enumerate(trajectory.get("log") if isinstance(trajectory.get("log"), list) else ()):
        if isinstance(entry, dict):
            seen.record(entry.get("result"), None, entry.get("handNumber"), f"log()[{i}].result")
    result = trajectory.get("result")
    if hand_number is not None and isinstance(result, dict):
        seen.record(result.get("result"), None, hand_number, "result().result")
    return seen


def contract_deal(deck: list, order: list[int]) -> dict:
    """What the contract's deal gives from ``deck``: each seat of ``order`` its two cards, the board."""
    m = len(order)
    return {"hole": {s: [deck[i], deck[i + m]] for i, s in enumerate(order)},
            "board": [deck[2 * m + 1 + j + (j - 2 if j >= 3 else 0)] for j in range(5)]}


def _agrees(h: HandCards, deal: dict) -> tuple[bool, bool]:
    """(hole cards agree, board agrees) between what the engine showed and ``deal``."""
    holes = all(s in deal["hole"] and (cards == deal["hole"][s] if s in h.complete else set(cards) <= set(deal["hole"][s]))
                for s, cards in h.hole.items())
    return holes, deal["board"][:len(h.board)] == h.board


@dataclass
class Dealing:
    """How an engine's dealing compares with the pinned decks: ``dealt`` (hand -> cards by seat)
    to follow, the dealing ``failure`` (a Divergence, None when the pinned deck dealt the contract's
    way from the engine's positions gives its cards) and the ruling ``alternative`` it follows."""

    dealt: dict
    failure: Divergence | None = None
    alternative: dict | None = None


def compare(observed: Observed, decks: dict, positions: "dict | None" = None) -> Dealing | None:
    """The engine's dealing against the pinned ``decks`` (hand number -> a 52-card deck), each hand
    dealt the contract's way from the engine's own positions (where no state of the hand shows
    them, the reference's ``positions``: hand -> (button, in_hand)); None when every card it showed
    is the pinned deal's (nothing to follow: a difference is then the positions', judged as such)."""
    failure, alternatives = None, [dict(a) for a in DEAL_ALTERNATIVES]
    for number in sorted(observed.hands):
        h = observed.hands[number]
        own = (h.button, h.in_hand) if h.button is not None else (positions or {}).get(number)
        if number not in decks or own is None:
            continue
        deck, order = decks[number], dealing_order(*own)
        holes, board = _agrees(h, contract_deal(deck, order))
        if holes and board:
            continue
        alternatives = [a for a in alternatives if all(_agrees(h, contract_deal(deck[::-1], order)))]
        if failure is None or (not holes and failure.clause != "rules.deal-order"):
            failure = _failure(number, h, contract_deal(deck, order), holes)  # hole cards first
    if failure is None:
        return None
    dealt = {n: h.dealt() for n, h in observed.hands.items()}
    if alternatives:
        return Dealing(dealt, None, alternatives[0])
    return Dealing(dealt, failure)


def _failure(number: int, h: HandCards, deal: dict, holes_agree: bool) -> Divergence:
    """The first place where the engine's cards of hand ``number`` are not the pinned deal's."""
    if not holes_agree:
        wrong = [s for s, cards in h.hole.items() if deal["hole"].get(s) != cards]
        seat = min(wrong, key=lambda s: (h.seen.get(f"hole:{s}") is None, h.seen.get(f"hole:{s}") or 0, s))
        at = h.seen.get(f"hole:{seat}")
        path = "state.you.cards" if at is not None else h.where.get(f"hole:{seat}", f"the cards of seat {seat}")
        return Divergence(number, at, path, deal["hole"].get(seat), h.hole[seat], "rules.deal-order",
                          kind=DEALT_OTHER_CARDS)
    j = next(j for j, card in enumerate(h.board) if deal["board"][j] != card)
    length = 3 if j < 3 else j + 1
    at = h.seen.get(f"board:{length}")
    if at is None:  # seen only at the end: the first record that showed it, as the record shows it
        length, path = next(((n, h.where[f"board:{n}"]) for n in range(length, 6) if f"board:{n}" in h.where),
                            (length, "the board"))
    else:
        path = "state.board"
    return Divergence(number, at, path, deal["board"][:length], h.board[:length], "rules.burn",
                      kind=DEALT_OTHER_CARDS)


def pinned_decks(spec: dict) -> dict:
    """A game spec's pinned decks, whole (hand number -> 52 cards)."""
    decks = (spec.get("options") or {}).get("decks") or {}
    out = {}
    for number, cards in decks.items():
        try:
            out[int(number)] = complete_deck(cards)
        except Exception:  # noqa: BLE001 - a spec the reference refuses is judged elsewhere
            continue
    return out



def _show_failure(d: Divergence) -> str:
    return (f"first divergence at {d.where()}: {d.path} expected {' '.join(d.expected or [])}, got "
            f"{' '.join(d.actual)} -- breaks {d.clause} ({CLAUSES[d.clause][1]}): the engine deals other cards "
            "than the pinned deck")


def followed(verdict: GameVerdict, observed: Observed, decks: dict, rejudge, positions: "dict | None" = None) -> GameVerdict:
    """``verdict`` on a game judged with the pinned cards; when it failed and the engine dealt other
    cards, the game judged again with the reference dealt the engine's cards (``rejudge(dealt)``,
    a GameVerdict), the dealing difference its first failure (none when a documented alternative
    deals them: then the vector can still be divergent on it). ``positions``: the reference's, where
    the verdict has none (compare)."""
    if verdict.status != "failed":
        return verdict
    dealing = compare(observed, decks, positions or verdict.positions)
    if dealing is None:
        return verdict
    again = rejudge(dealing.dealt)
    if dealing.failure is None:  # the pinned cards dealt as a documented alternative (R3 = back)
        if again.status == "failed":
            again.message += f"; it deals the pinned cards as {_profile(dealing.alternative)}"
            return again
        profile = {**dealing.alternative, **(again.alternative or {})}
        return GameVerdict("divergent", f"the reference under {_profile(profile)} reproduces every step",
                           rulings=sorted(set(profile) | set(again.rulings), key=lambda r: int(r[1:])),
                           alternative=profile, notes=again.notes)
    d = dealing.failure
    if again.status == "failed":
        message = f"{_show_failure(d)}; judged on the cards it dealt: {again.message}"
    elif again.status == "divergent":
        message = f"{_show_failure(d)}; judged on the cards it dealt, divergent: {again.message}"
    else:
        message = f"{_show_failure(d)}; judged on the cards it dealt, every other step is the reference's"
    failures = [d] + (again.failures if again.status == "failed" else [])
    return GameVerdict("failed", message, d, 0, again.answers or verdict.answers, details=again.details,
                       failures=failures, notes=again.notes,
                       diagnosis=again.diagnosis if again.status == "failed" else None)


def _profile(profile: dict) -> str:
    return ", ".join(f"{r} = {o!r}" for r, o in sorted(profile.items()))


def judge_game(spec: dict, trajectory: object, plan, *, family: str, broken=lambda: None, **how) -> GameVerdict:
    """step_judge.judge_game, following the engine's own dealing (:func:`followed`)."""
    ids = [f"s{k + 1}" for k in range(len(spec.get("seats") or ()))]  # a game's seat ids (the contract's)

    def rejudge(dealt: dict) -> GameVerdict:
        return step_judge.judge_game({**spec, "dealt": dealt}, trajectory, plan, family=family, broken=broken, **how)

    other = False  # the engine deals other cards: its pinned-cards verdict only carries the dealing's
    if isinstance(trajectory, dict):
        decks = pinned_decks(spec)
        if decks and (other := deals_other_cards(trajectory, decks, ids)):
            whole = expand(trajectory)
            quick = followed_first(
                lambda: step_judge.replay(spec, trajectory, plan, lite=True, **how), lambda: observe(whole, ids),
                decks, rejudge,
                lambda c, irreproducible: step_judge.verdict(c, family, spec, lambda p: step_judge.replay(
                    {**spec, "rulings": p}, trajectory, plan, stop=True, **how), broken, outcome_only=True,
                    irreproducible=irreproducible), states=lambda: observe(_states_only(whole), ids))
            if quick is not None:
                return quick
    verdict = step_judge.judge_game(spec, trajectory, plan, family=family, broken=broken, prove_each=not other, **how)
    if verdict.status != "failed" or not isinstance(trajectory, dict):
        return verdict
    return followed(verdict, observe(expand(trajectory), ids), pinned_decks(spec), rejudge)


FIRST_STATES = 12  # deals_other_cards: the decision states looked at (a passing engine pays for them)


def deals_other_cards(trajectory: dict, decks: dict, ids: "list[str] | None" = None,
                      hand_number: int | None = None) -> bool:
    """Whether the engine's first FIRST_STATES states already show cards other than the pinned
    decks' (at the engine's own positions): a cheap look that only chooses how to judge
    (:func:`followed_first` checks it on the whole game; a False only means judging in full)."""
    steps = trajectory.get("steps") if isinstance(trajectory.get("steps"), list) else []
    decisions = trajectory.get("decisions") if isinstance(trajectory.get("decisions"), list) else []
    first = {"steps": steps[:FIRST_STATES], "decisions": decisions[:max(0, FIRST_STATES - len(steps))]}
    if isinstance(trajectory.get("histories"), list):  # recorded as changes (expand): the first ones
        first["histories"] = trajectory["histories"]
    try:
        return compare(observe(expand(first), ids, hand_number), decks) is not None
    except Exception:  # noqa: BLE001 - a look only
        return False


def _states_only(trajectory: dict) -> dict:
    """A trajectory's decision states (and sng3v4 steps' states) alone: what every step of a replay compares."""
    return {k: trajectory[k] for k in ("steps", "decisions") if isinstance(trajectory.get(k), list)}


def followed_first(lite_replay, observed, decks: dict, rejudge, pinned_verdict,
                   positions: "dict | None" = None, states=None) -> GameVerdict | None:
    """The verdict of :func:`followed` without the full judging on the pinned cards, for an engine
    that dealt other cards (issue #25: the reference's work only where it shows): that verdict is
    then replaced by the one judged on the engine's cards, only its status and answers are kept,
    and a replay adding only each comparison's first difference (``lite_replay()``,
    Comparison.lite: the same steps, resynchronisations and positions) with ``pinned_verdict(c)``
    (a failure's message may leave out the rest) gives them exactly. None (judge in full) when the
    game shows no difference, the engine dealt the pinned cards, or anything raised (the full
    judging then decides what the report says).

    ``pinned_verdict(c, irreproducible)``: with ``irreproducible`` no ruling alternative is searched
    for. That is when ``states()`` (the engine's cards in its decision states alone, each of which a
    replay compares) show, in a hand at the engine's own positions, cards that neither the
    contract's deal nor R3's alternative gives from the pinned deck: a profile reproducing every
    step would stand at those positions and deal that deck one of those two ways (no other ruling
    changes which card a seat gets from a pinned deck: tests/test_judge_shortcuts.py), so no
    profile, playable or ruled out, can reproduce the game."""
    try:
        c = lite_replay()
        if c.first is None:
            return None
        seen = observed()
        if compare(seen, decks, positions or c.positions) is None:
            return None
        own = compare(states(), decks) if states is not None else None
        irreproducible = own is not None and own.failure is not None
        return followed(pinned_verdict(c, irreproducible), seen, decks, rejudge, positions)
    except Exception:  # noqa: BLE001 - the full judging reports it as before
        return None
