"""PHH replay: the sample matches, unsupported files are classified, the CLI, and all of Pluribus."""
import json
import os
from collections import Counter
from pathlib import Path

import pytest

from conformance.arena.phh import MATCHED, MISMATCHED, UNSUPPORTED, deck_for, replay_file, replay_paths, seat_layout
from conformance.cli.main import main
from reference.hand import Hand

DATA = Path(__file__).resolve().parent / "data" / "phh"
PLURIBUS = Path(__file__).resolve().parents[1].parent / "shared" / "phh" / "pluribus"
SPLIT_POTS = {"32/23.phh", "41b/204.phh", "60/88.phh"}  # recorded with half chips

# Three-handed: p1 small blind, p2 big blind, p3 button (first to act preflop; p1 first postflop).
DEAL = ["d dh p1 AcAd", "d dh p2 KsKh", "d dh p3 4c5c"]
CHECKED_DOWN = [
    "p3 cc", "p1 cc", "p2 cc",
    "d db 2c7d9h", "p1 cc", "p2 cc", "p3 cc",
    "d db Js", "p1 cc", "p2 cc", "p3 cc",
    "d db 3d", "p1 cc", "p2 cc", "p3 cc",
]


def phh(actions, finishing=(1200, 900, 900), **fields) -> str:
    table = {
        "variant": "NT",
        "antes": [0, 0, 0],
        "blinds_or_straddles": [50, 100, 0],
        "min_bet": 100,
        "starting_stacks": [1000, 1000, 1000],
        "actions": list(actions),
        "finishing_stacks": None if finishing is None else list(finishing),
    }
    table.update(fields)  # a field set to None is left out
    return "".join(f"{k} = {json.dumps(v)}\n" for k, v in table.items() if v is not None)


def write(tmp_path: Path, text: str, name: str = "hand.phh") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# -- the sample -------------------------------------------------------------------
def test_sample_replays_all_matched():
    summary = replay_paths([DATA / "pluribus", DATA / "handwritten"])
    assert [h.status for h in summary.hands] == [MATCHED] * 21, [h.reason for h in summary.hands if h.status != MATCHED]
    split = {h.file.split("pluribus/")[-1] for h in summary.hands if h.reason}
    assert split == SPLIT_POTS
    for h in summary.hands:
        if h.reason:  # the half chips: one winner ours +0.5, the other -0.5
            diffs = sorted(o - r for o, r in zip(h.stacks, h.recorded) if o != r)
            assert diffs == [-0.5, 0.5]


def test_directories_are_searched_recursively_in_sorted_order():
    files = [h.file for h in replay_paths([DATA]).hands]
    assert len(files) == 24
    assert files == sorted(files, key=lambda f: Path(f).parts)


def test_unsupported_sample_files_are_classified():
    results = {Path(h.file).name: h for h in replay_paths([DATA / "unsupported"]).hands}
    assert {name: (h.status, h.code) for name, h in results.items()} == {
        "antes.phh": (UNSUPPORTED, "antes"),
        "pot-limit-omaha.phh": (UNSUPPORTED, "variant"),
        "malformed.phh": (UNSUPPORTED, "toml"),
    }
    assert "'PO'" in results["pot-limit-omaha.phh"].reason


# -- replay details ---------------------------------------------------------------
def test_checked_down_showdown_matches(tmp_path):
    assert replay_file(write(tmp_path, phh(DEAL + CHECKED_DOWN))).status == MATCHED


def test_shown_cards_complete_an_unknown_deal(tmp_path):
    hidden = ["d dh p1 AcAd", "d dh p2 ????", "d dh p3 4c5c"]
    result = replay_file(write(tmp_path, phh(hidden + CHECKED_DOWN)))
    assert (result.status, result.code) == (UNSUPPORTED, "unknown-cards")
    assert "p2" in result.reason
    shown = replay_file(write(tmp_path, phh(hidden + CHECKED_DOWN + ["p2 sm KsKh"])))
    assert shown.status == MATCHED


def test_unknown_cards_do_not_matter_when_nobody_shows_down(tmp_path):
    hidden = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 f"]
    assert replay_file(write(tmp_path, phh(hidden, finishing=(950, 1050, 1000)))).status == MATCHED


@pytest.mark.parametrize(
    "actions, fields, code, words",
    [
        (DEAL + ["p3 cbr 150"], {}, "illegal-action", ["amount-below-min", "minRaiseTo 200"]),
        (DEAL + ["p1 f"], {}, "illegal-action", ["p1 f", "our engine has p3 to act"]),
        (DEAL + ["p3 f", "p1 f", "p2 f"], {}, "illegal-action", ["actions[5]", "already over"]),
        (DEAL + ["p3 cc", "p1 cc", "p2 cc", "p1 cc"], {}, "illegal-action", ["on the preflop", "on the flop"]),
        (DEAL + ["p3 cc", "p1 cc", "p2 cbr 100"], {}, "illegal-action", ["does not exceed currentBet"]),
        (DEAL + ["p3 f"], {}, "incomplete", ["p1 to act on the preflop"]),
        (DEAL, {"blinds_or_straddles": [50, 100, 200]}, "straddles", ["blinds_or_straddles"]),
        (DEAL, {"blinds_or_straddles": [0, 100, 0]}, "blinds", ["blinds_or_straddles"]),
        (DEAL, {"min_bet": 200}, "min-bet", ["min_bet 200"]),
        (DEAL, {"antes": [0, 0]}, "bad-field", ["antes: expected a list of 3 numbers"]),
        (DEAL, {"starting_stacks": [1000, 1000.5, 1000]}, "bad-field", ["starting_stacks[1]"]),
        (DEAL, {"starting_stacks": [1000] * 10, "antes": [0] * 10}, "players", ["10 players"]),
        (DEAL + ["p3 f", "p1 f"], {"finishing_stacks": None}, "missing-field", ["finishing_stacks"]),
        (["d dh p1 AcXx"], {}, "bad-field", ["actions[0]", "'Xx' is not a card"]),
        (["d dh p1 AcAd", "d dh p2 AcKs", "d dh p3 4c5c"], {}, "bad-field", ["Ac is dealt twice"]),
        (["d dh p1 AcAd", "d dh p2 KsKh"], {}, "bad-field", ["no hole cards dealt to p3"]),
        (DEAL + ["p4 f"], {}, "bad-field", ["'p4' is not one of the players"]),
        (DEAL + ["p3 sd"], {}, "bad-field", ["'p3 sd'"]),
        (DEAL + ["p3 cbr lots"], {}, "bad-field", ["not a number"]),
    ],
)
def test_unsupported_hands_name_the_reason(tmp_path, actions, fields, code, words):
    result = replay_file(write(tmp_path, phh(actions, **fields)))
    assert (result.status, result.code) == (UNSUPPORTED, code), result.reason
    for word in words:
        assert word in result.reason


def test_missing_required_field_and_unreadable_file(tmp_path):
    text = "\n".join(line for line in phh(DEAL).splitlines() if not line.startswith("actions"))
    result = replay_file(write(tmp_path, text))
    assert (result.code, result.reason) == ("missing-field", "missing required field(s): actions")
    assert replay_file(tmp_path).code == "unreadable"  # a directory cannot be opened as a file


def test_wrong_finishing_stacks_mismatch(tmp_path):
    result = replay_file(write(tmp_path, phh(DEAL + CHECKED_DOWN, finishing=(1100, 1000, 900))))
    assert result.status == MISMATCHED
    assert result.reason == "final stacks differ: p1: ours 1200, recorded 1100; p2: ours 900, recorded 1000"
    assert result.stacks == [1200, 900, 900]


@pytest.mark.parametrize(
    "finishing",
    [(1200.5, 900, 900), (1200.5, 899.5, 900.5), (1198.5, 901.5, 900), (1201, 899, 900)],
    ids=["one-half-chip", "not-summing-to-zero", "more-than-a-chip", "whole-chips"],
)
def test_half_chips_match_only_when_the_odd_chip_explains_them(tmp_path, finishing):
    assert replay_file(write(tmp_path, phh(DEAL + CHECKED_DOWN, finishing=finishing))).status == MISMATCHED


# p1 and p2 tie with ace-king; the pot of 603 splits 301.5 each; R13 gives the odd chip to p1,
# the first tied winner clockwise from left of the button (p3).
SPLIT_DEAL = ["d dh p1 AcKd", "d dh p2 AhKs", "d dh p3 4c5c"]
SPLIT_ACTIONS = SPLIT_DEAL + ["p3 cbr 201", "p1 cc", "p2 cc"] + CHECKED_DOWN[3:]


@pytest.mark.parametrize("finishing, status", [
    ((1100.5, 1100.5, 799), MATCHED),
    ((1101, 1100, 799), MATCHED),  # recorded as R13 does it
    ((1100, 1101, 799), MISMATCHED),  # the odd chip on the wrong seat
    ((1100.5, 1100.5, 799.5), MISMATCHED),
], ids=["half-chips", "whole-chips-r13", "whole-chips-wrong-seat", "half-chip-to-a-loser"])
def test_a_split_pot_in_half_chips_matches_when_r13_explains_it(tmp_path, finishing, status):
    result = replay_file(write(tmp_path, phh(SPLIT_ACTIONS, finishing=finishing)))
    assert result.status == status, result.reason
    assert result.stacks == [1101, 1100, 799]


def test_half_chips_do_not_match_when_the_engine_gives_the_odd_chip_to_the_wrong_seat(tmp_path, monkeypatch):
    """The check recomputes R13 itself: an engine placing the odd chip wrongly is caught."""
    import conformance.arena.phh as phh_module

    real = phh_module._compare

    def swapped(name, hand, recorded):
        hand.stacks[0], hand.stacks[1] = hand.stacks[1], hand.stacks[0]  # p2 got the odd chip
        return real(name, hand, recorded)

    monkeypatch.setattr(phh_module, "_compare", swapped)
    result = replay_file(write(tmp_path, phh(SPLIT_ACTIONS, finishing=(1100.5, 1100.5, 799))))
    assert result.status == MISMATCHED and result.stacks == [1100, 1101, 799]


@pytest.mark.parametrize("field, value", [
    ("starting_stacks", "[1000, 1000, %s]" % ("9" * 400)),
    ("starting_stacks", "[1000, 1000, 1e300]"),
    ("min_bet", "9" * 30),
], ids=["huge-int", "huge-float", "huge-min-bet"])
def test_a_huge_number_is_a_bad_field_not_a_crash(tmp_path, field, value):
    text = "\n".join(f"{field} = {value}" if line.startswith(field) else line
                     for line in phh(DEAL + CHECKED_DOWN).splitlines())
    result = replay_file(write(tmp_path, text))
    assert (result.status, result.code) == (UNSUPPORTED, "bad-field"), result.reason
    assert result.reason.startswith(f"{field}") and "2**53 - 1" in result.reason


@pytest.mark.parametrize("value, code", [("9" * 5000, "toml"), ("0x" + "f" * 4000, "bad-field")],
                         ids=["past-the-digit-limit", "huge-hex"])
def test_integers_python_cannot_print_are_unsupported_not_a_crash(tmp_path, value, code):
    text = "\n".join(f"starting_stacks = [1000, 1000, {value}]" if line.startswith("starting_stacks") else line
                     for line in phh(DEAL + CHECKED_DOWN).splitlines())
    result = replay_file(write(tmp_path, text))
    assert (result.status, result.code) == (UNSUPPORTED, code), result.reason


def test_a_huge_raise_amount_is_a_bad_field_not_a_crash(tmp_path):
    result = replay_file(write(tmp_path, phh(DEAL + ["p3 cbr " + "9" * 400])))
    assert (result.status, result.code) == (UNSUPPORTED, "bad-field"), result.reason


def test_deeply_nested_toml_and_a_fifo_are_unsupported_not_a_crash_or_a_hang(tmp_path):
    deep = write(tmp_path, "a = " + "[" * 5000 + "]" * 5000 + "\n", "deep.phh")
    assert (replay_file(deep).status, replay_file(deep).code) == (UNSUPPORTED, "toml")
    fifo = tmp_path / "fifo.phh"
    os.mkfifo(fifo)
    result = replay_file(fifo)  # opening it would block until a writer came
    assert (result.status, result.code, result.reason) == (
        UNSUPPORTED, "unreadable", "cannot read the file: not a regular file")


@pytest.mark.parametrize("n", [2, 3, 6, 9])
def test_deck_reproduces_the_recorded_cards(n):
    hole = [[f"{r}c", f"{r}d"] for r in "23456789T"[:n]]
    hole[n - 1] = [None, f"{'23456789T'[n - 1]}d"]  # one unknown card
    board = ["Ah", "Kh", "Qh", "Js"]  # the river is unknown
    deck, filled = deck_for(hole, board)
    assert sorted(deck) == sorted(set(deck)) and len(deck) == 52
    assert filled == {n - 1, 2 * n, 2 * n + 4, 2 * n + 6, 2 * n + 7}
    button, sb, bb = seat_layout(n)
    hand = Hand(
        ids=[f"p{k + 1}" for k in range(n)], stacks=[1000] * n, button=button,
        small_blind_seat=sb, big_blind_seat=bb, blinds=(50, 100), deck=deck,
    )
    for k in range(n - 1):
        assert hand.hole[k] == hole[k]
    assert hand.hole[n - 1][1] == hole[n - 1][1]
    while not hand.done:
        hand.act("check" if hand.legal().can_check else "call")
    assert hand.board[:4] == board


# -- the CLI ------------------------------------------------------------------------
def test_cli_text_summary(capsys):
    assert main(["phh", "replay", str(DATA)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "phh replay: 24 hands: 21 matched, 0 mismatched, 3 unsupported",
        "unsupported: antes 1, toml 1, variant 1",
    ]


def test_cli_json_shape(capsys):
    assert main(["phh", "replay", str(DATA / "unsupported"), str(DATA / "pluribus" / "32" / "23.phh"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["matched"], report["mismatched"], report["unsupported"]) == (1, 0, 3)
    assert len(report["hands"]) == 4
    for hand in report["hands"]:
        assert set(hand) == {"file", "status", "reason", "code", "stacks", "recorded"}
    split = report["hands"][-1]
    assert split["file"].endswith("23.phh") and split["status"] == MATCHED
    assert split["stacks"] == [9950, 9275, 10388, 10000, 10000, 10387]


def test_cli_exit_1_lists_mismatches(tmp_path, capsys):
    bad = write(tmp_path, phh(DEAL + CHECKED_DOWN, finishing=(1100, 1000, 900)), "bad.phh")
    assert main(["phh", "replay", str(DATA / "handwritten"), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "2 hands: 1 matched, 1 mismatched, 0 unsupported" in out
    assert f"mismatched {bad}: final stacks differ: p1: ours 1200, recorded 1100" in out
    assert main(["phh", "replay", "--json", str(bad)]) == 1
    assert json.loads(capsys.readouterr().out)["hands"][0]["status"] == MISMATCHED


def test_cli_usage_errors(tmp_path, capsys):
    missing = tmp_path / "nowhere.phh"
    assert main(["phh", "replay", str(DATA), str(missing)]) == 2
    assert capsys.readouterr().err == f"holdem-cert: {missing}: no such file or directory\n"
    assert main(["phh", "replay", str(tmp_path)]) == 2
    assert "no *.phh files" in capsys.readouterr().err
    assert main(["phh"]) == 2
    assert main(["phh", "replay"]) == 2
    assert "Traceback" not in capsys.readouterr().err


# -- all of Pluribus ---------------------------------------------------------------
@pytest.mark.skipif(not PLURIBUS.is_dir(), reason=f"{PLURIBUS} is absent")
def test_all_pluribus_hands_match():
    summary = replay_paths([PLURIBUS])
    assert len(summary.hands) == 3463
    problems = [(h.file, h.status, h.code, h.reason) for h in summary.hands if h.status != MATCHED]
    assert problems == []
    split = Counter(h.reason is not None for h in summary.hands)
    assert split[True] == len(SPLIT_POTS)
