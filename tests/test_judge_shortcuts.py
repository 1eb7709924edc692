"""The judge's shortcuts for an engine that deals other cards than the pinned decks (issue #25,
conformance/judge/dealing.py ``followed_first``): a lite replay instead of the full judging on the
pinned cards, broken() asked only when a profile reproduces the game, and no search at all when no
deal of the pinned decks gives the engine's cards. Each must give the verdict the full judging
gives, byte for byte; and the fact the last one rests on -- no ruling but R3 changes which card a
seat gets from a pinned deck -- is checked on the reference itself."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conformance.judge import dealing, engine_cert
from conformance.judge.engine_cert import Runner
from conformance.judge.engine_drivers import QuickJSDriver, default_host
from conformance.vectors import library as vectors
from conformance.vectors.gamespec import answer as decode_answer
from reference.errors import HoldemError
from reference.hand import complete_deck, dealing_order
from reference.hand_api import create_hand
from reference.rulings import RULINGS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutants.mutants import MUTANTS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SOURCE = (ROOT / "reference/js/poker-engine.js").read_text(encoding="utf-8")
# An engine that deals every pinned deck from its end: R3's documented alternative (divergent).
BACK_DEALER = ("draw() { return this.deck[this.pos++]; }",
               "draw() { return this.deck[this.deck.length - 1 - this.pos++]; }")
# A few vectors of each family that follows the engine's dealing (the long games cost the most).
SAMPLE = {"legality": 8, "hand": 24, "hands": 16, "tournaments": 3, "sng3v4": 4}


def _source(name: str) -> str:
    if name == "back-dealer":
        find, replace = BACK_DEALER
    else:
        m = next(m for m in MUTANTS if m["name"] == name)
        find, replace = m["find"], m["replace"]
    assert SOURCE.count(find) == 1, name
    return SOURCE.replace(find, replace)


def _runs(name: str) -> list:
    driver = QuickJSDriver(_source(name), engine_name=f"{name}.js", host=default_host())
    try:
        driver.start()
        runner = Runner(driver)
        return [(family, test, runner.run(family, test)[0])
                for family, count in SAMPLE.items() for test in vectors.load(family)["tests"][:count]]
    finally:
        driver.close()


def _report(items: list) -> list[str]:
    runner = Runner(None)
    out = []
    for family, test, run in items:
        case = runner._judge(family, test, run, None, 0.0)
        case.seconds = 0.0
        out.append(json.dumps(case.__dict__, default=repr, sort_keys=True))
    return out


@pytest.mark.parametrize("name", ["no-burn-card", "deal-from-the-button", "back-dealer"])
def test_shortcuts_give_the_full_judgings_verdicts(name, monkeypatch):
    items = _runs(name)
    taken = []
    original = dealing.followed_first

    def counted(*args, **kwargs):
        verdict = original(*args, **kwargs)
        taken.append(verdict is not None)
        return verdict

    monkeypatch.setattr(dealing, "followed_first", counted)
    quick = _report(items)
    monkeypatch.setattr(dealing, "followed_first", lambda *args, **kwargs: None)  # always the full judging
    full = _report(items)
    assert quick == full
    assert any(taken), "the shortcut was never taken"
    statuses = {json.loads(c)["status"] for c in full}
    if name == "back-dealer":  # a documented alternative: divergent on R3, found through the shortcut
        assert "divergent" in statuses
        assert any('"R3"' in c for c in full)
    else:
        assert "failed" in statuses


def _contract_deal(deck: list, order: list) -> dict:
    return dealing.contract_deal(deck, order)


def test_no_ruling_but_r3_changes_the_cards_a_pinned_deck_deals():
    """For every option of every ruling a hand plays (ruled-out ones too: the judge replays them),
    the reference deals each pinned hand vector's cards the contract's way from the hand's
    positions, or from the deck's end under R3 = back (dealing.followed_first's premise)."""
    tests = [t for t in vectors.load("hand")["tests"] if t["result"] != "invalid" and "deck" in t["input"]["hand"]][:60]
    assert tests
    checked = 0
    for rid, ruling in RULINGS.items():
        if "hand" not in ruling.families:
            continue
        for option in ruling.options:
            for t in tests:
                spec = t["input"]["hand"]
                try:
                    hand = create_hand(spec, rulings={rid: option})
                except HoldemError:
                    continue
                deck = complete_deck(spec["deck"])
                deck = deck[::-1] if (rid, option) == ("R3", "back") else deck
                deal = _contract_deal(deck, dealing_order(spec["button"], [c > 0 for c in spec["stacks"]]))
                assert hand.hole == deal["hole"], (rid, option, t["id"])
                for a in t["input"]["script"]:
                    if hand.done:
                        break
                    try:
                        hand.act(decode_answer(a))
                    except HoldemError:
                        break
                assert hand.board == deal["board"][:len(hand.board)], (rid, option, t["id"])
                checked += 1
    assert checked > 100
