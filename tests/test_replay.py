"""Transcripts and holdem-cert replay: what a transcript holds, replay confirming it (recorded
late answers replayed as late), the first divergence of a tampered transcript, a changed bot
refused, transcripts written whole or not at all."""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from conformance.arena import transcript
from conformance.arena.play import play, select_bots
from conformance.cli.main import main
from conformance.errors import UsageError
from conformance.harness.runner import RunnerOptions
from conformance.host.worker import Outcome, Worker
from conformance.host.bot_host import choose
from cli_helpers import make_roster, run_cli

DEFAULT_HOST = choose(None).name  # node where the suite finds one (issue #35)

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "tests" / "bots" / "bad"
# Its answers carry its Math.random stream, so replay checks the bot randomness too.
RANDOM_RAISER = ("'use strict';\nmodule.exports = function (s) {\n"
                 "  if (s.minRaiseTo !== null && s.minRaiseTo <= s.maxRaiseTo && Math.random() < 0.2)\n"
                 "    return { type: 'raise', amount: s.minRaiseTo };\n"
                 "  return s.canCheck ? 'check' : 'call';\n};\n")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """One recorded tournament with a late bot, a throwing one, a random one and house samples."""
    root = tmp_path_factory.mktemp("recorded")
    roster = make_roster(root, {"act-loop": BAD / "act-loop.js", "random-raiser": RANDOM_RAISER,
                                "throw-string": BAD / "throw-string.js",
                                "sample-tight": ROOT / "bots" / "sample-tight.js",
                                "equity-bot": ROOT / "bots" / "equity-bot.js"})
    assert main(["play", "--roster", str(roster), "--seed", "21", "--bot-seed", "34", "--hands", "8",
                 "--decision-ms", "300", "--init-ms", "2000", "--transcript", str(root / "t.jsonl"),
                 "--json", str(root / "s.json")]) == 0
    return root


def lines_of(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_a_transcript_has_the_seeds_hashes_options_every_decision_and_the_standings(recorded):
    lines = lines_of(recorded / "t.jsonl")
    head, decisions, foot = lines[0], lines[1:-1], lines[-1]
    assert head["type"] == "header" and head["seed"] == 21 and head["botSeed"] == 34
    assert head["options"] == {"ruleset": "contract-v1", "decisionMs": 300, "initMs": 2000,
                               "tournament": {"max_hands": 8}, "botHost": DEFAULT_HOST}
    for bot in head["bots"]:
        assert bot["sha256"] == hashlib.sha256((recorded / bot["file"]).read_bytes()).hexdigest()
    assert head["engine"]["helper"] == hashlib.sha256(
        (ROOT / "reference" / "js" / "poker-engine.js").read_bytes()).hexdigest()
    assert head["engine"]["reference"] == transcript.reference_sha256()
    assert [d["index"] for d in decisions] == list(range(len(decisions)))
    for d in decisions:
        assert d["type"] == "decision"
        assert {"handNumber", "seat", "stateHash", "answer", "action", "error", "wallMs"} <= set(d)
    assert any(d["outcome"] == "late" for d in decisions)
    report = json.loads((recorded / "s.json").read_text())
    assert foot["type"] == "footer" and foot["decisions"] == len(decisions)
    assert foot["standings"] == report["standings"] and foot["digest"] == report["digest"]


def test_replay_confirms_the_same_decks_randomness_actions_and_standings(recorded, capsys):
    code, out, _ = run_cli(capsys, "replay", recorded / "t.jsonl")
    assert code == 0, out
    assert "confirmed" in out and "digest identical" in out


def test_replay_of_a_recorded_late_answer_does_not_wait_for_the_deadline(recorded, monkeypatch):
    # A generous deadline: were the late seat asked again, its loop would be late only after 60 s
    # (or the worker's CPU backstop): slower, and still confirmed. So every worker's asks are
    # counted: a late seat's worker is asked only for its decisions before its first late one.
    recorded_t = transcript.read(recorded / "t.jsonl")
    late_seats = {d["seat"] for d in recorded_t.decisions if d["outcome"] == "late"}
    assert late_seats
    expected_asks = {}
    for s in late_seats:
        mine = [d for d in recorded_t.decisions if d["seat"] == s]
        expected_asks[s] = next(k for k, d in enumerate(mine) if d["outcome"] == "late")
    seat_of_source = {}
    for seat in recorded_t.footer["seats"]:
        file = next(b["file"] for b in recorded_t.header["bots"] if b["bot"] == seat["bot"])
        seat_of_source[(recorded / file).read_text(encoding="utf-8")] = seat["seat"]
    seat_of_worker, asks = {}, {}
    real_start, real_act = Worker.start, Worker.act

    def start(self, engine_source, script_source, *args, **kwargs):
        seat_of_worker[id(self)] = seat_of_source[script_source]
        return real_start(self, engine_source, script_source, *args, **kwargs)

    def act(self, *args, **kwargs):
        s = seat_of_worker[id(self)]
        asks[s] = asks.get(s, 0) + 1
        if s in late_seats and asks[s] > expected_asks[s]:  # asked again: fail now, not after the deadline
            return Outcome("late", error={"category": "late", "message": "asked again on replay"})
        return real_act(self, *args, **kwargs)

    monkeypatch.setattr(Worker, "start", start)
    monkeypatch.setattr(Worker, "act", act)
    result = transcript.replay(recorded_t, decision_ms=60_000)
    assert {s: asks.get(s, 0) for s in late_seats} == expected_asks
    assert result.confirmed and result.digest_matches is False  # the deadline is worded in the messages


def test_same_seeds_give_the_same_standings(recorded, capsys):
    roster = recorded / "bots.json"
    assert main(["play", "--roster", str(roster), "--seed", "21", "--bot-seed", "34", "--hands", "8",
                 "--decision-ms", "300", "--init-ms", "2000", "--json", str(recorded / "again.json")]) == 0
    assert (recorded / "again.json").read_bytes() == (recorded / "s.json").read_bytes()


def test_a_tampered_answer_is_the_first_divergence(recorded, tmp_path, capsys):
    lines = (recorded / "t.jsonl").read_text().splitlines()
    index = next(json.loads(x)["index"] for x in lines[1:-1]
                 if json.loads(x)["outcome"] == "ok" and json.loads(x)["index"] > 5)
    tampered = json.loads(lines[index + 1])
    original = tampered["answer"]
    tampered["answer"] = "fold" if original != "fold" else "check"
    lines[index + 1] = json.dumps(tampered)
    (tmp_path / "t.jsonl").write_text("\n".join(lines) + "\n")
    shutil.copytree(recorded / "bots", tmp_path / "bots")
    code, out, _ = run_cli(capsys, "replay", tmp_path / "t.jsonl", "--roster", recorded / "bots.json")
    assert code == 1
    assert f"first divergence at decision {index} (hand {tampered['handNumber']}, seat {tampered['seat']}" in out
    assert f"expected: {json.dumps(tampered['answer'])}" in out
    assert f"actual:   {json.dumps(original, sort_keys=True)}" in out

    result = transcript.replay(transcript.read(tmp_path / "t.jsonl"), recorded / "bots.json")
    assert result.divergence.index == index and result.divergence.field == "answer"
    assert result.decisions == index


def test_a_changed_bot_is_refused(recorded, tmp_path, capsys):
    root = tmp_path / "copy"
    shutil.copytree(recorded, root)
    bot = root / "bots" / "sample-tight.js"
    bot.write_text(bot.read_text() + "// changed\n")
    code, _, err = run_cli(capsys, "replay", root / "t.jsonl", "--roster", root / "bots.json")
    assert code == 2
    assert "bot 'sample-tight' changed since the transcript was recorded" in err


@pytest.mark.parametrize("edit, message", [
    (lambda lines: lines[:-1], "the last line must be the footer"),
    (lambda lines: lines[1:], "the first line must be the header"),
    (lambda lines: [lines[0], lines[2]] + lines[3:], "decision index 1, expected 0"),
    (lambda lines: lines[:3] + ["{oops"] + lines[3:], ":4: not JSON"),
])
def test_a_broken_transcript_is_a_usage_error(recorded, tmp_path, capsys, edit, message):
    lines = (recorded / "t.jsonl").read_text().splitlines()
    (tmp_path / "t.jsonl").write_text("\n".join(edit(lines)) + "\n")
    code, _, err = run_cli(capsys, "replay", tmp_path / "t.jsonl", "--roster", recorded / "bots.json")
    assert code == 2 and message in err


def test_a_transcript_is_written_whole_or_not_at_all(tmp_path):
    roster = make_roster(tmp_path, {"sample-caller": ROOT / "bots" / "sample-caller.js",
                                    "check-fold": ROOT / "bots" / "check-fold.js"})
    bots = select_bots(roster, None, "contract-v1")
    out = tmp_path / "t.jsonl"

    def interrupt(hand: dict) -> None:
        if hand["handNumber"] == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play(roster, bots, 1, 2, RunnerOptions(tournament={"max_hands": 5}), out, on_hand=interrupt)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bots", "bots.json"]  # no transcript, no temp file


def test_sng_v4_transcript_with_timeouts_replays(tmp_path, capsys):
    roster = make_roster(tmp_path, {"act-loop": BAD / "act-loop.js", "random-raiser": RANDOM_RAISER,
                                    "sample-caller": ROOT / "bots" / "sample-caller.js"})
    code, _, _ = run_cli(capsys, "play", "--roster", roster, "--ruleset", "holdem-sng-3-v4", "--seed", 8,
                         "--bot-seed", 13, "--decision-ms", 300, "--hands", 30, "--transcript", tmp_path / "t.jsonl")
    assert code == 0
    foot = lines_of(tmp_path / "t.jsonl")[-1]
    assert any(r["autoFolded"] for r in foot["standings"] if r["bot"] == "act-loop")
    code, out, _ = run_cli(capsys, "replay", tmp_path / "t.jsonl")
    assert code == 0 and "confirmed" in out


def test_replay_runs_the_bots_on_the_recorded_host(tmp_path):
    """The header records where the bots ran (botHost); replay uses it, and a transcript from before
    issue #35 (no botHost) was played on QuickJS."""
    roster = make_roster(tmp_path, {"sample-tight": ROOT / "bots" / "sample-tight.js",
                                    "equity-bot": ROOT / "bots" / "equity-bot.js"})
    assert main(["play", "--roster", str(roster), "--seed", "3", "--bot-seed", "4", "--hands", "3",
                 "--bot-host", "quickjs", "--transcript", str(tmp_path / "q.jsonl"), "--quiet"]) == 0
    recorded = transcript.read(tmp_path / "q.jsonl")
    assert recorded.header["options"]["botHost"] == "quickjs"
    assert transcript.options_from_json(recorded.header["options"]).bot_host == "quickjs"
    old = dict(recorded.header["options"])
    del old["botHost"]
    assert transcript.options_from_json(old).bot_host == "quickjs"
    assert transcript.replay(recorded).confirmed
    with pytest.raises(UsageError, match="options.botHost: unknown bot host 'v8'"):
        transcript.options_from_json({**old, "botHost": "v8"})
