"""The one contract clause that governs a difference (docs/INTERPRETING.md, Root causes): the
field's own, except where the values around it decide (who acts heads-up, a raise offered after a
short all-in, a winner's amount: a refund, an odd chip, the ranking)."""
from __future__ import annotations

import re

from reference.errors import EvaluateError
from reference.actions import V4_WORDS
from reference.evaluator import evaluate

from conformance.vectors.clauses import CLAUSES


# A decision state's field -> its clause (contract, Decision state).
STATE_CLAUSES = {
    "handNumber": "rules.end", "street": "rules.raise-total", "board": "rules.burn", "pots": "state.pots",
    "toCall": "state.to-call", "currentBet": "state.to-call", "minRaiseTo": "state.min-raise-to",
    "maxRaiseTo": "state.max-raise-to", "canCheck": "state.can-check", "canAllIn": "state.can-allin",
    "lastFullRaise": "state.last-full-raise", "blinds": "rules.levels", "buttonSeat": "rules.button",
    "smallBlindSeat": "state.positions", "bigBlindSeat": "state.positions", "seats": "state.seats",
    "actions": "state.actions", "tournament": "state.tournament", "timeLimitMs": "state.tournament",
    "you": "state.you",
}
# A hand record's field (history entry, log record) -> its clause.
RECORD_CLAUSES = {
    "board": "rules.burn", "showdown": "rules.showdown-public", "winners": "state.history-winners",
    "level": "rules.levels", "blinds": "rules.levels", "buttonSeat": "rules.button",
    "smallBlindSeat": "rules.heads-up-transition", "bigBlindSeat": "rules.heads-up-transition",
    "actions": "state.actions", "eliminated": "rules.simultaneous", "chips": "rules.side-pots",
}
STANDING_CLAUSES = {"place": "rules.cap-places", "chips": "rules.side-pots", "eliminatedInHand": "rules.elimination",
                    "id": "rules.seats", "errors": "timing.fallback"}
_INDEX = re.compile(r"\[\d+\]")


def _fields(path: str) -> list[str]:
    """``state.history[1].showdown[0].hand`` -> ``['state', 'history', 'showdown', 'hand']``."""
    return [p for p in _INDEX.sub("", path).split(".") if p]


def _record_clause(parts: list[str]) -> str:
    """The clause of a field of a hand record (``parts`` start inside the record)."""
    if not parts:
        return "state.history"
    if parts[0] == "result":
        parts = parts[1:] or ["winners"]
    if parts[0] == "showdown" and parts[-1] == "hand":
        return "rules.best-five"
    if parts[0] == "winners" and parts[-1] == "id":
        return "rules.best-five"  # who won: the hands' ranking decides
    if parts[0] == "showdown" and parts[-1] == "cards":
        # The cards shown (the dealing itself is judged and followed first, conformance.judge.dealing):
        # which cards are public is the reveal rule (v4: only the cards the winner's hand needs).
        return "rules.showdown-public"
    if parts[0] in ("length", "handNumber"):
        return "state.history"  # entries missing, extra or out of order
    return RECORD_CLAUSES.get(parts[0], "state.history")


def clause_for(path: str) -> str:
    """The one contract clause that governs the field at ``path`` of a step (see :func:`judge_game`)."""
    parts = _fields(path)
    head, rest = parts[0], parts[1:]
    if head in ("state", "again", "stateAfter"):
        if head == "again":
            return "state.fresh"
        if not rest or rest[0] == "length":
            return "state.fields"
        if rest[0] == "history":
            return "state.history" if len(rest) == 1 or rest[1] == "length" else _record_clause(rest[1:])
        if rest[0] == "you":
            if rest[1:2] == ["cards"]:
                return "rules.deal-order"
            if rest[1:2] in (["seat"], ["id"]):
                return "rules.multiway-order"
            return "state.you"
        if rest[0] == "seats" and rest[-1] == "out":
            return "rules.elimination"
        if rest[0] == "board" and rest[-1] == "length":
            return "state.board"
        if rest[:2] == ["tournament", "level"]:
            return "rules.levels"
        return STATE_CLAUSES.get(rest[0], "state.fields")
    if head == "act":
        return "return.forms"
    if head == "steps":  # a holdem-sng-3-v4 step: its state, or what the clock and auto-fold made of it
        return clause_for(".".join(["state"] + rest[1:])) if rest[:1] == ["state"] else "timing.fallback"
    if head == "state()":
        return "rules.end"
    if head == "result()":  # a lone hand's result (hand_judge): its history entry, or its chips
        return _record_clause(rest)
    if head in ("history()", "log()"):
        return "state.history" if not rest or rest == ["length"] else _record_clause(rest)
    if head == "standings()":
        return STANDING_CLAUSES.get(rest[0], "rules.cap-places") if rest else "rules.cap-places"
    if head == "over":
        return "rules.end"
    return "state.fields"


def v4_clause_for(path: str) -> str:
    """:func:`clause_for` in a holdem-sng-3-v4 game, whose own rules have the clauses its vectors
    cite (generators/sng3v4.py's flags): the decision clock is R22's (``timing.fallback``), a
    recovery's taking effect R26's (``rules.elimination``: auto-folded seats and their recovery)."""
    parts = _fields(path)
    if parts[-1] == "timeLimitMs" and parts[0] in ("state", "steps"):
        return "timing.fallback"
    if parts[:2] == ["steps", "recovered"] or parts[-1] == "autoFolded":
        return "rules.elimination"
    return clause_for(path)


def action_clause(answer: object, expected: object, actual: object) -> str:
    """The clause of an action that differs: the return-value rule of the answer's kind."""
    kind = answer.get("type") if isinstance(answer, dict) else answer
    kind = V4_WORDS.get(kind, kind) if isinstance(kind, str) else kind  # holdem-sng-3-v4's all_in is allin (R24)
    if isinstance(expected, dict) and isinstance(actual, dict) and "threw" not in expected and "threw" not in actual:
        if kind in ("raise", "bet"):  # (holdem-sng-3-v4's "bet" is a raise to its amount)
            return "rules.raise-total"
    clause = f"return.{kind}" if isinstance(kind, str) else "return.forms"
    return clause if clause in CLAUSES else "return.forms"


_TOKEN = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def _at(root: object, path: str) -> object:
    """The value at ``path`` (``.key`` and ``[i]`` steps) inside ``root``, or None."""
    for key, index in _TOKEN.findall(path):
        try:
            root = root[int(index)] if index else root[key]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
    return root


def _context_clause(path: str, expected: object, actual: object) -> str | None:
    """A clause that the values around ``path`` decide, or None (then the path's own applies):
    who is to act heads-up (rules.heads-up-order); the button heads-up (rules.heads-up-transition); a winner's amount when the same seats won the
    same total, one chip moved between them (a split's odd chips, rules.odd-chips), more chips
    awarded than due (a refund counted, state.history-winners), the same chips to other seats (the
    ranking, rules.best-five) or shared otherwise among the same seats (rules.side-pots)."""
    if simultaneous_order(path, expected, actual):
        return "rules.simultaneous", SIMULTANEOUS_ORDER
    if path.startswith(".state.") and isinstance(expected, dict) and isinstance(expected.get("state"), dict) \
            and isinstance(actual, dict):  # a step's record (state, action, error): its state decides
        return _context_clause(path[len(".state"):], expected["state"], actual.get("state"))
    if (match := _RECORD_PLACE.match(path)) is not None \
            and (found := records_difference(_at(expected, match.group(1)), _at(actual, match.group(1)))):
        return found
    if _RECORD_NUMBER.match(path):
        return "state.history", NUMBERED_OTHERWISE
    if isinstance(expected, dict) and isinstance(actual, dict) and _auto_fold_differs(expected, actual):
        return "rules.elimination"  # who is auto-folded (R26) decides what differs: the pots, the folds
    if path == ".minRaiseTo" and _at(expected, path) is None and isinstance(expected, dict) \
            and _at(actual, path) is not None:
        if _reopened(expected):
            return "rules.short-allin"
        if not _responders(expected):  # no other seat has chips to answer a raise (R10)
            return "rules.no-responder"
    if path in (".you.seat", ".you.id"):
        return "rules.heads-up-order" if _live(expected) == 2 else "rules.multiway-order"
    if (match := _POSITION.match(path)) is not None:
        e, a = _at(expected, match.group(1)), _at(actual, match.group(1))
        if isinstance(e, dict) and isinstance(a, dict) and e.get("buttonSeat") != a.get("buttonSeat"):
            # another button, and the blinds after it: one behaviour, the button's rule (heads-up, the transition's)
            heads_up = _live(e) == 2 if isinstance(e.get("seats"), list) else e.get("smallBlindSeat") == e.get("buttonSeat")
            return ("rules.heads-up-transition" if heads_up else "rules.button"), "another button (and the blinds after it)"
        return None
    if _LEVEL.match(path):
        return "rules.levels", "another blind level (its blinds)"
    if _SEAT_CHIPS.match(path):  # a seat's stack, street bet and total move together: one behaviour
        return "state.seats", "a seat's chips otherwise (its stack, bet and total)"
    if _CHIPS.match(path) and chips_moved(_at(expected, path), _at(actual, path)):
        return "rules.side-pots", CHIPS_MOVED
    if _POTS.match(path) and pots_unmerged(_at(expected, path), _at(actual, path)):
        return "state.pots", UNMERGED
    if _POTS.match(path) and pots_with_folded(_at(expected, path), _at(actual, path),
                                              folded_ids(_at(actual, path[:-len(".pots")]))):
        return "rules.folded-chips", FOLDED_ELIGIBLE
    if (match := _WINNERS.match(path)) is not None:
        return award_difference(_at(expected, match.group(1)), _at(actual, match.group(1)))
    if (match := _SHOWDOWN.match(path)) is not None:
        return showdown_difference(_at(expected, match.group(1)), _at(actual, match.group(1)))
    if (match := _BOARD_CARD.match(path)) is not None:
        e, a = _at(expected, match.group(1)), _at(actual, match.group(1))
        if isinstance(e, dict) and isinstance(a, dict) and e.get("showdown") == [] and isinstance(e.get("board"), list) \
                and isinstance(a.get("board"), list) and len(a["board"]) > len(e["board"]):
            # "Folded cards, burn cards, deck order [...] never appear in state": the hand dealt no more
            return "state.secrecy", "a board dealt after a fold win (deck cards the hand never dealt)"
    return None


_POSITION = re.compile(r"^(.*)\.(?:buttonSeat|smallBlindSeat|bigBlindSeat)$")
_SEAT_CHIPS = re.compile(r"^(?:.*\.)?seats\[\d+\]\.(?:stack|bet|total)$")
_LEVEL = re.compile(r"^(?:.*\.)?(?:tournament\.level|level|blinds(?:\[\d+\])?)$")


def _live(state: object) -> int:
    """The seats of a state that are not out."""
    seats = _at(state, ".seats")
    return sum(1 for x in seats if isinstance(x, dict) and not x.get("out")) if isinstance(seats, list) else 0


RANKED_OTHERWISE = "hands ranked otherwise (a shown hand's name, another winner)"
WHEEL_MISSED = "A2345 not taken for a five-high straight"
_WINNERS = re.compile(r"^(.*)\.winners$")
# A history's record, or its hand number (comparison.record_differences: the list's one difference).
_RECORD_PLACE = re.compile(r"^((?:.*\.)?history|)\[\d+\](?:\.handNumber)?$")
_POTS = re.compile(r"^(?:.*\.)?pots$")
_SHOWDOWN = re.compile(r"^(.*)\.showdown$")
_BOARD_CARD = re.compile(r"^(.*)\.board\[\d+\]$")


def is_wheel(cards: object, board: object = ()) -> bool:
    """Whether the best five of ``cards`` and ``board`` are A2345 as a straight (or a straight flush,
    the steel wheel: not another flush)."""
    try:
        best = evaluate(list(cards) + list(board))
    except (EvaluateError, TypeError):
        return False
    return best["name"] in ("Straight", "Straight flush") and sorted(c[0] for c in best["best"]) == sorted("A2345")


def merged_pots(pots: object) -> "list | None":
    """``pots`` with adjacent pots of the same eligible seats merged (contract: "pots are merged
    contribution layers with eligibility"), or None when they are not a list of pots."""
    if not isinstance(pots, list) or not all(isinstance(p, dict) and isinstance(p.get("amount"), (int, float))
                                             and "eligible" in p for p in pots):
        return None
    out: list = []
    for pot in pots:
        if out and out[-1]["eligible"] == pot["eligible"]:
            out[-1] = {**out[-1], "amount": out[-1]["amount"] + pot["amount"]}
        else:
            out.append(dict(pot))
    return out


UNMERGED = "adjacent pots with the same eligible seats not merged"
SIMULTANEOUS_ORDER = "seats eliminated in one hand placed in another order"
_ELIMINATED_AT = re.compile(r"^\[(\d+)\]\.eliminated\[\d+\]$")  # a log()/history() record's eliminated seats
_PLACE_AT = re.compile(r"^\[(\d+)\]\.place$")  # a standings entry's place


def simultaneous_order(path: str, expected: object, actual: object) -> bool:
    """Whether what differs at ``path`` is only the order of seats eliminated in the same hand: a
    record's ``eliminated`` holding the same seats in another order, or a standings place swapped
    among seats out in the same hand (the same places between them). One behaviour (rules.simultaneous,
    R17), whichever record shows it: a game's log at its end, its standings read while in play (R43)."""
    if (match := _ELIMINATED_AT.match(path)) is not None:
        e, a = _at(expected, f"[{match.group(1)}].eliminated"), _at(actual, f"[{match.group(1)}].eliminated")
        return isinstance(e, list) and isinstance(a, list) and e != a and _same_items(e, a)
    if (match := _PLACE_AT.match(path)) is None or not isinstance(expected, list) or not isinstance(actual, list) \
            or len(expected) != len(actual):
        return False
    e, a = _at(expected, f"[{match.group(1)}]"), _at(actual, f"[{match.group(1)}]")
    if not isinstance(e, dict) or not isinstance(a, dict) or e.get("id") != a.get("id"):
        return False
    hand = e.get("eliminatedInHand")
    if not isinstance(hand, int) or a.get("eliminatedInHand") != hand:
        return False
    return _out_in(expected, hand) == _out_in(actual, hand)


def _out_in(standings: list, hand: int) -> tuple:
    """The ids and the places of the seats ``standings`` has out in ``hand``, each sorted apart."""
    out = [(str(x.get("id")), str(x.get("place"))) for x in standings
           if isinstance(x, dict) and x.get("eliminatedInHand") == hand]
    return sorted(i for i, _ in out), sorted(p for _, p in out)


def _same_items(e: list, a: list) -> bool:
    return sorted(map(str, e)) == sorted(map(str, a))


FOLDED_ELIGIBLE = "a folded seat eligible to win a pot"
CHIPS_MOVED = "chips moved between seats (the same total)"
_CHIPS = re.compile(r"^(?:.*\.)?chips$")


def chips_moved(e: object, a: object) -> bool:
    """Whether a hand's ``chips`` (a seat's each) differ only in chips moved between seats: the same
    total, some seats more and some less. One behaviour (an award or a refund paid to another seat),
    one difference, not one per seat."""
    numbers = lambda x: isinstance(x, list) and all(isinstance(c, int) and not isinstance(c, bool) for c in x)  # noqa: E731
    return numbers(e) and numbers(a) and len(e) == len(a) and e != a and sum(e) == sum(a)


def folded_ids(state: object) -> set:
    """The ids of the seats a decision state shows folded (out seats are folded too: eligible to nothing)."""
    seats = state.get("seats") if isinstance(state, dict) else None
    return {x.get("id") for x in seats if isinstance(x, dict) and x.get("folded") is True} if isinstance(seats, list) else set()


def pots_with_folded(e: object, a: object, folded: set) -> bool:
    """Whether pots ``a`` are ``e`` but for folded seats left eligible (contract: "folded chips stay
    in the pot; folded seats cannot win"): without them, and the layers that leaves alike merged
    (a layer no one can win joins the one below, as buildPots merges it), they are ``e``. One
    behaviour, one difference, whichever pot, amount or entry it moved."""
    if not (folded and isinstance(a, list) and all(isinstance(p, dict) and isinstance(p.get("eligible"), list) for p in a)):
        return False
    if not any(i in folded for p in a for i in p["eligible"]):
        return False
    out: list = []
    for pot in a:
        eligible = [i for i in pot["eligible"] if i not in folded]
        if out and (not eligible or out[-1]["eligible"] == eligible) and isinstance(pot.get("amount"), (int, float)):
            out[-1] = {**out[-1], "amount": out[-1]["amount"] + pot["amount"]}
        else:
            out.append({**pot, "eligible": eligible})
    return out == e


def pots_unmerged(e: object, a: object) -> bool:
    """Whether pots ``a`` differ from ``e`` only in adjacent pots of the same eligible seats left
    unmerged: one behaviour, one difference (not one per amount and entry shifted)."""
    merged = merged_pots(a)
    return merged is not None and merged != a and merged == e


NUMBERED_OTHERWISE = "hand records numbered otherwise"
# A lone record's hand number (a log() record's result, a lone hand's result): numbered otherwise.
_RECORD_NUMBER = re.compile(r"^(?:\[\d+\])?\.result\.handNumber$")


def numbered_otherwise(e: list, a: list) -> bool:
    """Whether two lists of hand records are the same records, place by place, but for their hand
    numbers (one behaviour: an engine numbering its records otherwise)."""
    return len(e) == len(a) and all(isinstance(x, dict) and isinstance(y, dict)
                                    and {**x, "handNumber": None} == {**y, "handNumber": None} for x, y in zip(e, a))


def records_difference(e: object, a: object) -> "tuple[str, str] | None":
    """The clause and kind of a list of hand records (a history) that lists other hands, or the
    same in another order, than due (comparison.record_differences: one difference for the list)."""
    numbers = lambda records: [r.get("handNumber") for r in records if isinstance(r, dict)]  # noqa: E731
    if not (isinstance(e, list) and isinstance(a, list)) or numbers(e) == numbers(a):
        return None
    if numbered_otherwise(e, a):
        return "state.history", NUMBERED_OTHERWISE
    if sorted(numbers(e)) == sorted(numbers(a)):
        return "state.history", "the hand records in another order"
    return "state.history", "other hand records than due (one missing, or one too many)"


def showdown_difference(record_e: object, record_a: object) -> "tuple[str, str] | None":
    """The clause and kind of a hand record whose ``showdown`` differs, judged as one list: a shown
    hand's name for the same cards is the ranking (``rules.wheel`` when it misses A2345, else
    ``rules.best-five``); other entries or cards shown are the reveal rule (``rules.showdown-public``:
    more shown than due, or another showdown)."""
    try:
        e, a = record_e["showdown"], record_a["showdown"]
        mine = {x["id"]: x for x in e}
        theirs = {x["id"]: x for x in a}
    except (TypeError, KeyError):
        return None
    if mine.keys() == theirs.keys() and all(mine[i]["cards"] == theirs[i]["cards"] for i in mine):
        named = [i for i in mine if mine[i].get("hand") != theirs[i].get("hand")]
        if any(is_wheel(mine[i]["cards"], record_e.get("board")) for i in named):
            return "rules.wheel", WHEEL_MISSED
        return "rules.best-five", RANKED_OTHERWISE
    if mine.keys() == theirs.keys() and all(_follows_ranking(mine[i], theirs[i], kickers=False) for i in mine):
        # R25 reveals the cards the hand's value needs: a hand named otherwise follows the engine's
        # own ranking of that hand (one cause with it, issue #38)
        return "rules.best-five", RANKED_OTHERWISE
    board = record_e.get("board")
    if mine.keys() == theirs.keys() and all(mine[i]["cards"] == theirs[i]["cards"]
                                            or _value_not_realised(mine[i], theirs[i], board) for i in mine):
        # cards shown that make only a lower hand of the same name (a kicker the value needs left
        # unshown, another pair): the engine's value of that hand (its ranking, issue #38). A card
        # shown that is not needed stays the reveal rule's, even one that plays no part in the hand:
        # an engine showing every hole card shows those too.
        return "rules.best-five", RANKED_OTHERWISE
    award = award_difference(record_e, record_a)
    if award is not None and award[1] in (RANKED_OTHERWISE, WHEEL_MISSED) and _winners_shown(record_a) \
            and all(_follows_ranking(mine[i], theirs[i]) for i in mine.keys() & theirs.keys()):
        return award  # the engine's own winners by its ranking shown (R25): the award's difference
    shown = lambda entries: {(x.get("id"), c) for x in entries for c in (x.get("cards") or ())}  # noqa: E731
    if shown(e) < shown(a):
        return "rules.showdown-public", "more shown than due"
    return "rules.showdown-public", "another showdown"


# The hand names whose value counts kickers (R5's ranking), where which hole card plays is the ranking's.
KICKER_HANDS = frozenset(("High card", "One pair", "Two pair", "Three of a kind", "Four of a kind"))


def _winners_shown(record: dict) -> bool:
    """Whether a hand record's showdown shows its winners (R25: only seats awarded at the showdown)."""
    try:
        return {x["id"] for x in record["showdown"]} == {w["id"] for w in record["winners"]}
    except (TypeError, KeyError):
        return False


def _follows_ranking(mine: dict, theirs: dict, kickers: bool = True) -> bool:
    """Whether a seat's showdown entry differs from ours only as its own ranking of the hand makes it
    (R25: the cards its value needs): the same cards or a hand named otherwise, or (``kickers``: where
    the engine's winners differ by its ranking) the same name of a hand with kickers and one hole card
    more or fewer shown (the kicker that plays). Alone, a kicker shown that is not needed is the reveal
    rule's (one needed and not shown: :func:`_value_not_realised`)."""
    if mine.get("hand") != theirs.get("hand") or mine["cards"] == theirs["cards"]:
        return True
    if not kickers:
        return False
    ours, shown = set(mine["cards"]), set(theirs["cards"])
    return mine.get("hand") in KICKER_HANDS and len(ours ^ shown) == 1 and (ours < shown or shown < ours)


def _value_not_realised(mine: dict, theirs: dict, board: object) -> bool:
    """Whether a seat's showdown entry names the same hand as ours but shows hole cards with which
    the board makes only a lower hand of that name (a kicker left out, the lower pair of a full
    house): R25 shows the cards the hand's value needs, so the engine's value of that hand is not the
    reference's -- its ranking. (Cards shown that make the whole value, needed or not, are the reveal
    rule's.)"""
    try:
        if mine.get("hand") != theirs.get("hand") or set(mine["cards"]) == set(theirs["cards"]):
            return False
        shown = evaluate(list(theirs["cards"]) + list(board))
        return shown["name"] == mine["hand"] and shown["value"] < evaluate(list(mine["cards"]) + list(board))["value"]
    except (EvaluateError, TypeError, KeyError):
        return False


def award_difference(record_e: object, record_a: object) -> "tuple[str, str] | None":
    """The clause and kind of a hand record whose ``winners`` differ, from what differs (issue #38,
    item 2): more chips awarded than won (a refund counted or inserted as an award:
    state.history-winners, "refunds are not awards"), an odd chip lost or moved between the same
    tied winners (rules.odd-chips), a tie not split (rules.split), the wheel missed (rules.wheel),
    another winner by rank (rules.best-five), the same winners sharing the pots otherwise
    (rules.side-pots)."""
    try:
        e, a = record_e["winners"], record_a["winners"]
        awarded, due = sum(w["amount"] for w in a), sum(w["amount"] for w in e)
        ids_e, ids_a = [w["id"] for w in e], [w["id"] for w in a]
    except (TypeError, KeyError):
        return None
    if awarded > due:
        return "state.history-winners", "more awarded than won (a refund counted as an award)"
    if awarded < due:
        if due - awarded < max(len(e), 2) and set(ids_a) <= set(ids_e):
            return "rules.odd-chips", "an odd chip not awarded"
        return "state.history-winners", "less awarded than won"
    shown = {x.get("id"): x.get("cards") for x in record_e.get("showdown") or () if isinstance(x, dict)}
    board = record_e.get("board")
    if ids_e == ids_a:
        moved = [x["id"] for x, y in zip(e, a) if x["amount"] != y["amount"]]
        values = {_value(shown.get(i), board) for i in moved}
        if len(e) > 1 and all(abs(x["amount"] - y["amount"]) <= 1 for x, y in zip(e, a)) \
                and (not shown or (len(values) == 1 and None not in values)):  # between tied hands
            return "rules.odd-chips", "an odd chip to another of the tied winners"
        return "rules.side-pots", "the same winners sharing the pots otherwise"
    if set(ids_e) == set(ids_a):
        return "rules.side-pots", "the same winners sharing the pots otherwise"
    missed = set(ids_e) - set(ids_a)
    if any(is_wheel(shown.get(i), board) for i in missed):
        return "rules.wheel", WHEEL_MISSED
    values = {i: _value(shown.get(i), board) for i in set(ids_e) | set(ids_a)}
    if set(ids_a) < set(ids_e) and any(values[i] is not None and values[i] in {values[j] for j in ids_a} for i in missed):
        return "rules.split", "a tie not split"
    return "rules.best-five", RANKED_OTHERWISE


def _value(cards: object, board: object) -> "int | None":
    try:
        return evaluate(list(cards) + list(board))["value"]
    except (EvaluateError, TypeError):
        return None


def _auto_fold_differs(expected: dict, actual: dict) -> bool:
    """Whether a seat is auto-folded (R26) in one state and not in the other: an auto-fold not
    applied, or a recovery not taken into effect."""
    seats = expected.get("seats")
    return isinstance(seats, list) and isinstance(actual.get("seats"), list) and \
        len(seats) == len(actual["seats"]) and "actions" in expected and \
        any(auto_folded(expected, k) != auto_folded(actual, k) for k in range(len(seats)))


def auto_folded(state: dict, k: int) -> bool:
    """Whether seat ``k`` of ``state`` is folded without a fold of its own in the hand's actions
    and is not out: folded by holdem-sng-3-v4's auto-fold (R26), which contract v1 never does."""
    try:
        seat = state["seats"][k]
        return seat["folded"] is True and not seat.get("out") and not any(
            a["id"] == seat["id"] and a["type"] == "fold" for a in state["actions"])
    except (KeyError, TypeError, IndexError):
        return False


def _responders(state: dict) -> bool:
    """Whether a seat other than the one to act is in the hand with chips behind."""
    try:
        you = state["you"]["id"]
        return any(x["id"] != you and not x["folded"] and not x.get("out") and x["stack"] > 0 for x in state["seats"])
    except (KeyError, TypeError):
        return True


def _reopened(state: dict) -> bool:
    """A raise offered where the reference closes it for a seat that already acted this street while
    someone else can still respond: the reopening rule (only a full raise reopens), not R10."""
    try:
        you, street = state["you"], state["street"]
        acted = any(a["id"] == you["id"] and a["street"] == street for a in state["actions"])
        others = any(x["id"] != you["id"] and not x["folded"] and not x.get("out") and x["stack"] > 0
                     for x in state["seats"])
        return acted and others
    except (KeyError, TypeError):
        return False

