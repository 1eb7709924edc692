"""holdem-cert play: exit codes and messages, the --json standings, a worker per seat with its
R21 seed, broken bots at the table, holdem-sng-3-v4's clock and auto-fold."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from conformance.arena.play import play, select_bots
from conformance.cli.main import main
from conformance.harness.runner import CATEGORIES, RunnerOptions, seat_seed
from conformance.host.bot_host import choose
from reference.rng import mulberry32
from cli_helpers import make_roster, run_cli

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "tests" / "bots" / "bad"
HOUSE = ("check-fold", "sample-caller", "sample-tight", "equity-bot")
# Answers legally; `amount` (ignored) is its decision count plus its next Math.random value.
COUNTER = ("'use strict';\nlet n = 0;\nmodule.exports = function (s) {\n  n += 1;\n"
           "  return { type: s.canCheck ? 'check' : 'fold', amount: n + Math.random() };\n};\n")


def test_play_writes_the_standings_and_the_same_seeds_give_the_same_bytes(tmp_path, capsys):
    args = ["play", "--roster", ROOT / "bots.json", "--bots", "sample-caller,sample-tight,check-fold",
            "--seed", 5, "--bot-seed", 7, "--hands", 6]
    code, out, _ = run_cli(capsys, *args, "--json", tmp_path / "a.json")
    assert code == 0
    report = json.loads((tmp_path / "a.json").read_text())
    assert report["seed"] == 5 and report["botSeed"] == 7 and report["hands"] == 6
    assert report["options"] == {"ruleset": "contract-v1", "decisionMs": 1000, "initMs": 5000,
                                 "tournament": {"max_hands": 6}, "botHost": choose(None).name}  # node where installed
    rows = report["standings"]
    assert [r["bot"] for r in sorted(rows, key=lambda r: r["seat"])] == ["sample-caller", "sample-tight", "check-fold"]
    assert [r["place"] for r in rows] == sorted(r["place"] for r in rows)  # best first
    assert sum(r["chips"] for r in rows) == 30_000
    for r in rows:
        assert set(r["errors"]) == set(CATEGORIES) and r["errorTotal"] == 0 and r["terminated"] is None
        assert r["eliminatedInHand"] is None or r["chips"] == 0
    assert report["digest"] in out
    assert run_cli(capsys, *args, "--json", tmp_path / "b.json")[0] == 0
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


@pytest.mark.parametrize("argv, message", [
    (["--bots", "sample-caller,nope"], "unknown bot id 'nope'"),
    (["--bots", "sample-caller"], "contract-v1 seats 2 to 9 bots, got 1"),
    (["--bots", ",".join(["check-fold"] * 10)], "got 10"),
    (["--bots", "check-fold,,sample-caller"], "argument --bots"),
    (["--seed", "-1"], "argument --seed"),
    (["--seed", str(2**32)], "argument --seed"),
    (["--bot-seed", "x"], "argument --bot-seed"),
    (["--hands", "0"], "argument --hands"),
    (["--decision-ms", "0"], "argument --decision-ms"),
    (["--ruleset", "holdem-sng-3-v4"], "holdem-sng-3-v4 seats exactly 3 bots, got 4"),
    (["--ruleset", "holdem-sng-3-v4", "--bots", "check-fold,check-fold,equity-bot"], "'check-fold' repeated"),
    (["--ruleset", "no-such-rules"], "argument --ruleset"),
    (["--roster", "/nonexistent/bots.json"], "cannot read roster"),
])
def test_usage_errors_exit_2_with_a_message_naming_the_field(capsys, argv, message):
    argv = ["--roster", ROOT / "bots.json", *argv] if "--roster" not in argv else argv
    code, _, err = run_cli(capsys, "play", *argv)
    assert code == 2
    assert message in err


def test_a_bad_roster_is_refused_with_its_problems(tmp_path, capsys):
    roster = make_roster(tmp_path, {"check-fold": ROOT / "bots" / "check-fold.js",
                                    "sample-caller": ROOT / "bots" / "sample-caller.js"})
    data = json.loads(roster.read_text())
    data["bots"][1]["bytes"] += 1
    roster.write_text(json.dumps(data))
    code, _, err = run_cli(capsys, "play", "--roster", roster, "--seed", 1, "--bot-seed", 2)
    assert code == 2 and "sample-caller: bytes:" in err
    roster.write_text("{not json")
    code, _, err = run_cli(capsys, "play", "--roster", roster, "--seed", 1, "--bot-seed", 2)
    assert code == 2 and "json: invalid JSON" in err


def test_the_same_bot_twice_gets_two_workers_with_different_r21_seeds(tmp_path):
    roster = make_roster(tmp_path, {"counter": COUNTER, "sample-caller": ROOT / "bots" / "sample-caller.js"})
    bots = select_bots(roster, ["counter", "sample-caller", "counter"], "contract-v1")
    seen: dict[int, list[float]] = {0: [], 2: []}
    result = play(roster, bots, 9, 42, RunnerOptions(tournament={"max_hands": 4}))
    for d in result.decisions:
        if d.seat in seen:
            seen[d.seat].append(d.answer["amount"])
    for seat, amounts in seen.items():
        # Each seat's worker counts only its own decisions: two module memories, two processes.
        assert [math.floor(a) for a in amounts] == list(range(1, len(amounts) + 1))
        assert amounts[0] - 1 == pytest.approx(mulberry32(seat_seed(42, seat))(), abs=1e-12)
    assert seat_seed(42, 0) != seat_seed(42, 2)
    assert [s.bot_seed for s in result.seats] == [seat_seed(42, s) for s in range(3)]


def test_broken_bots_get_the_fallback_while_the_others_keep_playing(tmp_path, capsys):
    roster = make_roster(tmp_path, {"sample-caller": ROOT / "bots" / "sample-caller.js",
                                    "act-loop": BAD / "act-loop.js", "throw-string": BAD / "throw-string.js",
                                    "syntax-error": BAD / "syntax-error.js", "always-check": BAD / "always-check.js",
                                    "equity-bot": ROOT / "bots" / "equity-bot.js"})
    code, out, _ = run_cli(capsys, "play", "--roster", roster, "--seed", 3, "--bot-seed", 9, "--hands", 5,
                           "--decision-ms", 300, "--init-ms", 1500, "--json", tmp_path / "s.json",
                           "--transcript", tmp_path / "t.jsonl")
    assert code == 0
    rows = {r["bot"]: r for r in json.loads((tmp_path / "s.json").read_text())["standings"]}
    lines = [json.loads(x) for x in (tmp_path / "t.jsonl").read_text().splitlines()]
    decisions = [x for x in lines if x["type"] == "decision"]
    assert len(lines[-1]["standings"]) == 6 and lines[-1]["hands"] == 5
    by_bot = {r["seat"]: r["bot"] for r in rows.values()}
    count = {bot: sum(1 for d in decisions if by_bot[d["seat"]] == bot) for bot in rows}
    for bot in ("sample-caller", "equity-bot"):
        assert rows[bot]["errorTotal"] == 0 and rows[bot]["terminated"] is None and count[bot] > 0
    loop = rows["act-loop"]
    assert loop["errors"]["late"] == 1 and loop["errors"]["missing"] == count["act-loop"] - 1
    assert loop["terminated"]["reason"] == "late: no answer within 300 ms" and "worker terminated" in out
    assert rows["throw-string"]["errors"]["throwing"] == count["throw-string"] > 1
    assert rows["throw-string"]["terminated"] is None
    assert rows["syntax-error"]["errors"]["missing"] == count["syntax-error"] > 0
    assert rows["syntax-error"]["terminated"]["decision"] is None  # it never loaded
    assert rows["always-check"]["errors"]["engine-invalid"] > 0 and rows["always-check"]["terminated"] is None
    for d in decisions:
        if d["error"] is not None:  # the fallback: check if legal, else fold
            assert d["action"]["type"] in ("check", "fold") and d["action"]["amount"] == 0
        assert isinstance(d["wallMs"], float)


def test_sng_v4_three_house_bots_play_until_one_participant_holds_every_chip(tmp_path, capsys):
    code, _, _ = run_cli(capsys, "play", "--roster", ROOT / "bots.json", "--ruleset", "holdem-sng-3-v4",
                         "--bots", "sample-caller,sample-tight,equity-bot", "--seed", 9, "--bot-seed", 3,
                         "--json", tmp_path / "s.json")
    assert code == 0
    report = json.loads((tmp_path / "s.json").read_text())
    assert report["options"]["decisionMs"] == 15000 and report["options"]["ruleset"] == "holdem-sng-3-v4"
    holding = [r for r in report["standings"] if r["chips"] > 0]
    assert len(holding) == 1 and holding[0]["chips"] == 1500 and holding[0]["place"] == 1
    assert sorted(r["place"] for r in report["standings"]) == [1, 2, 3]
    assert all(r["timeouts"] == 0 and r["autoFolded"] is False for r in report["standings"])


def test_sng_v4_late_answers_are_timeouts_and_the_third_in_a_row_auto_folds(tmp_path):
    roster = make_roster(tmp_path, {"act-loop": BAD / "act-loop.js",
                                    "sample-caller": ROOT / "bots" / "sample-caller.js",
                                    "check-fold": ROOT / "bots" / "check-fold.js"})
    bots = select_bots(roster, ["act-loop", "sample-caller", "check-fold"], "holdem-sng-3-v4")
    options = RunnerOptions(decision_ms=300, ruleset="holdem-sng-3-v4", tournament={"max_hands": 12})
    result = play(roster, bots, 4, 5, options)
    seat = next(s for s in result.seats if s.bot == "act-loop")
    standing = result.standings[seat.seat]
    # Late once (the worker is terminated), then two more timeouts without an answer: auto-fold.
    assert seat.errors["late"] == 1 and seat.errors["missing"] == 2 and seat.decisions == 3
    assert standing["timeouts"] == 3 and standing["autoFolded"] is True
    mine = [d for d in result.decisions if d.seat == seat.seat]
    assert [d.code for d in mine] == ["late", "terminated", "terminated"]
    assert mine[-1].action["type"] == "fold"


@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["replay", "--help"], ["match", "--help"]])
def test_help_is_printed(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 0 and "usage: holdem-cert" in capsys.readouterr().out
