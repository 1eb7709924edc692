"""Issue #36, items 1 and 2: the hand profile as strong as the tournament. Fresh hand tests and
random hands (the report's ``hand-fuzz`` row, blind or coverage-guided) catch what the public
golden vectors cannot: an engine that answers them from memory, a bug that shows only with seven
or more seats and a short blind. A ``--cmd`` failure's reproduction is a JSON file replayed
against any command (``holdem-cert repro FILE --cmd COMMAND``)."""
from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from reference import adapter
from conformance.judge import cert_profiles, fuzz, hand_fuzz
from conformance.judge.smoke import SMOKE_LONE_HAND
from conformance.report.html import render
from conformance.vectors import fresh_vectors, library as vectors, schemas
from conformance.vectors.generators import hand as hand_family
from conformance.vectors.gamespec import play_hand
from conformance.vectors.library import structural_problems
from conformance.vectors.vectorfile import document
from cli_helpers import SEVEN_SEAT_BUG, run_cli

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
SEEDS = ("--fresh-seed", "5", "--fuzz-seed", "5")  # the command's text is a temporary path: fix the seeds


def _live(spec: dict) -> int:
    return sum(c > 0 for c in spec["stacks"])


def _short_small_blind(spec: dict) -> bool:
    return spec["stacks"][spec["smallBlindSeat"]] < spec["blinds"][0]


# A --cmd engine that knows only what it was shown: each input it remembers, its answer.
FROM_MEMORY = """
import json
import sys

from reference.adapter import serve

MEMORY = json.load(open(sys.argv[1]))


def respond(request):
    if request.get("cmd") == "start":
        return {"version": 1, "implementation": {"name": "memory", "version": "1", "language": "python"},
                "profiles": ["hand"]}
    answer = MEMORY.get(json.dumps(request["vector"]["test"]["input"], sort_keys=True))
    if answer is None:
        return {"seq": request["seq"], "errored": {"context": "not a vector I remember"}}
    return {"seq": request["seq"], "result": answer}


serve(respond)
"""


def _engine(tmp_path: Path, name: str, source: str, *args: str) -> str:
    (tmp_path / name).write_text(source, encoding="utf-8")
    return " ".join([sys.executable, str(tmp_path / name), *args])


@pytest.fixture(scope="module")
def seven_seat_bug(tmp_path_factory):
    """The mutant certified for hand with fixed seeds: (folder, command, JSON report, terminal text)."""
    out = tmp_path_factory.mktemp("seven")
    command = _engine(out, "engine.py", SEVEN_SEAT_BUG)
    code = run_cli_plain("engine", "--cmd", command, "--profile", "hand", *SEEDS, "--json", str(out / "r.json"),
                         "--junit", str(out / "r.xml"), "--quiet", stdout=out / "terminal.txt")
    assert code == 1
    return out, command, json.loads((out / "r.json").read_text()), (out / "terminal.txt").read_text()


def run_cli_plain(*argv: str, stdout: Path) -> int:
    """``holdem-cert`` in a child (ROOT as the working directory), its standard output in ``stdout``."""
    with open(stdout, "w", encoding="utf-8") as out:
        return subprocess.run([sys.executable, "-m", "conformance", *argv], cwd=ROOT, stdout=out, timeout=600,
                              env=_env()).returncode


def _env() -> dict:
    import os

    return {**os.environ, "PYTHONPATH": str(ROOT)}


# ---- fresh hand tests ------------------------------------------------------------------------------

def test_fresh_hand_tests_are_valid_new_and_spread_over_what_lone_hands_can_be():
    """Over a few seeds: 2 to 9 seats, short blinds, seats out, heads-up, refused answers, showdowns,
    unfinished scripts; every test a valid hand vector the reference plays as expected, none golden."""
    golden = {json.dumps(t["input"], sort_keys=True) for t in vectors.load("hand")["tests"]}
    flags, seats = Counter(), set()
    for seed in range(6):
        tests = fresh_vectors.generate(seed, ["hand"])["hand"]
        assert [t["id"] for t in tests] == [f"hand.fresh.{k + 1}" for k in range(fresh_vectors.COUNTS["hand"])]
        doc = document("hand", hand_family.NOTES, tests)
        assert schemas.errors("vectors/hand", doc) == [] and structural_problems(doc, "hand") == []
        for t in tests:
            assert json.dumps(t["input"], sort_keys=True) not in golden
            assert t["expected"] == play_hand(t["input"])
            flags.update(t["flags"])
            seats.add(len(t["input"]["hand"]["ids"]))
    assert seats == set(range(2, 10))
    assert all(flags[f] for f in ("ShortBlind", "OutSeat", "HeadsUp", "Refused", "Showdown", "Unfinished", "Refund"))
    assert json.dumps(fresh_vectors.generate(3, ["hand"])) == json.dumps(fresh_vectors.generate(3, ["hand"]))


def test_a_random_hands_script_holds_legal_answers_in_every_form_and_refused_ones():
    rnd = random.Random(1)
    forms, refused = set(), 0
    for _ in range(200):
        t = hand_family.random_test(rnd, "hand.x", "x")
        forms.update(type(a).__name__ for a in t["input"]["script"])
        refused += "Refused" in t["flags"]
        actions = t["expected"]["actions"]
        # a refusal ends the hand vector: it is the script's last answer played
        assert all("threw" not in a for a in actions[:-1])
    assert {"str", "dict"} <= forms and refused >= 10


# ---- random hands: the hand profile's fuzz row ---------------------------------------------------

def test_random_hand_k_depends_on_the_seed_and_k_alone():
    assert json.dumps(hand_fuzz.generate(4, 7)) == json.dumps(hand_fuzz.generate(4, 7))
    assert hand_fuzz.generate(4, 7)["input"] != hand_fuzz.generate(4, 8)["input"] != hand_fuzz.generate(5, 7)["input"]
    assert hand_fuzz.generate(4, 7)["id"] == "hand.fuzz.4.7"


def test_the_shrinker_keeps_a_hand_that_still_fails_at_the_clause():
    """A judge that fails every hand with seven seats in it and a short small blind: the hand shrinks
    to seven seats, the short blind kept, and at most the answers the failure needs."""
    test = next(t for t in (hand_fuzz.generate(9, k) for k in range(500))
                if _live(t["input"]["hand"]) >= 8 and _short_small_blind(t["input"]["hand"])
                and len(t["input"]["script"]) > 3)

    def judge_test(candidate):  # every cause the hand shows, with its failure (fuzz.failure_causes)
        spec = candidate["input"]["hand"]
        return {"state.seats": {"decision": 0}} if _live(spec) >= 7 and _short_small_blind(spec) else {}

    small, runs = hand_fuzz.shrink(test, judge_test, "state.seats", {"decision": 0})
    spec = small["input"]["hand"]
    assert 0 < runs <= fuzz.MAX_SHRINK_RUNS and hand_fuzz.size(small) < hand_fuzz.size(test)
    assert _live(spec) == 7 and _short_small_blind(spec) and len(small["input"]["script"]) <= 1
    assert small["expected"] == play_hand(small["input"])


class _Blocks:
    """Coverage feedback stand-in: every game reaches one new block, then nothing new."""

    def __init__(self, new: int) -> None:
        self.k, self.new = 0, new

    def __call__(self) -> set[int]:
        self.k += 1
        return {self.k} if self.k <= self.new else set()


def test_the_guided_hands_mutate_the_corpus_into_valid_hand_vectors():
    guide = hand_fuzz.HandGuide(3, _Blocks(5))
    games = []
    for k in range(60):
        games.append(guide.game(k))
        guide.after()
    assert len(guide.corpus) == 5 and guide.mutated >= 30
    assert guide.summary() == {"mode": "guided", "corpus": 5, "mutated": guide.mutated, "blocks": 5}
    doc = document("hand", hand_family.NOTES, games)
    assert schemas.errors("vectors/hand", doc) == [] and structural_problems(doc, "hand") == []
    assert all(g["expected"] == play_hand(g["input"]) for g in games)
    again, same = hand_fuzz.HandGuide(3, _Blocks(5)), []
    for k in range(60):  # the same seed and feedback: the same hands
        same.append(again.game(k))
        again.after()
    assert json.dumps(same) == json.dumps(games)


# ---- what the golden vectors cannot catch ---------------------------------------------------------

def test_an_engine_that_knows_only_the_golden_hand_vectors_is_not_certified(tmp_path, capsys):
    """It answers the golden hand vectors (and the smoke hand) from memory: certified on them alone,
    not certified once the run's fresh hand tests and random hands are played."""
    shown = [t["input"] for t in vectors.load("hand")["tests"]] + [SMOKE_LONE_HAND[1]["input"]]
    memory = {json.dumps(i, sort_keys=True): adapter.encode(adapter.run_hand(adapter.decode(i))) for i in shown}
    (tmp_path / "memory.json").write_text(json.dumps(memory))
    command = _engine(tmp_path, "memory.py", FROM_MEMORY, str(tmp_path / "memory.json"))
    code, out, _ = run_cli(capsys, "engine", "--cmd", command, "--no-fresh", "--fuzz-seconds", "0", "--quiet")
    assert code == 0 and "CERTIFIED for hand" in out
    code, out, _ = run_cli(capsys, "engine", "--cmd", command, "--quiet", "--json", tmp_path / "r.json")
    report = json.loads((tmp_path / "r.json").read_text())
    assert code == 1 and report["profiles"]["hand"]["verdict"] == cert_profiles.NOT_CERTIFIED
    failed = {f["id"] for f in report["failures"]}
    assert failed == {f"hand.fresh.{k + 1}" for k in range(fresh_vectors.COUNTS["hand"])} | {
        f"hand.fuzz.{report['engine']['handFuzz']['seed']}.0"}


def test_a_bug_with_seven_seats_and_a_short_blind_escapes_the_golden_vectors(tmp_path, capsys, seven_seat_bug):
    out, command, report, _ = seven_seat_bug
    # the golden vectors alone certify it: none has seven seats in a hand with a short small blind
    assert not [t for t in vectors.load("hand")["tests"] if isinstance(t["input"]["hand"], dict)
                and "error" not in t["expected"] and _live(t["input"]["hand"]) >= 7
                and _short_small_blind(t["input"]["hand"])]
    code, text, _ = run_cli(capsys, "engine", "--cmd", command, "--profile", "hand", "--no-fresh", "--fuzz-seconds", "0",
                            "--quiet")
    assert code == 0 and "CERTIFIED for hand" in text
    # the fresh hand tests and the random hands catch it, each failure at the seat's allIn
    fresh = [f for f in report["failures"] if f["id"].startswith("hand.fresh.")]
    fuzzed = [f for f in report["failures"] if f["id"].startswith("hand.fuzz.")]
    assert fresh and len(fuzzed) == 1 and report["families"]["hand-fuzz"]["failed"] == 1
    for f in fresh + fuzzed:
        assert f["breaks"] == "state.seats" and f["first"]["path"].endswith(".allIn")
        assert f["first"]["expected"] is True and f["first"]["actual"] is False
    shrunk = fuzzed[0]["vector"]["input"]["hand"]
    assert _live(shrunk) == 7 and _short_small_blind(shrunk) and "shrunk in" in fuzzed[0]["message"]


# ---- the report's hand-fuzz row ---------------------------------------------------------------------

def test_the_hand_fuzz_row_is_in_the_json_terminal_junit_and_html(seven_seat_bug):
    out, command, report, terminal = seven_seat_bug
    hands = report["engine"]["handFuzz"]
    assert hands["seed"] == 5 and hands["mode"] == "blind" and hands["games"] >= 1 and "shrinkRuns" in hands
    assert report["families"]["hand-fuzz"]["failed"] == 1
    assert report["profiles"]["hand"]["families"]["hand-fuzz"] == report["families"]["hand-fuzz"]
    assert f"{hands['games']} random hands (blind), seed 5 (--fuzz-seed 5 --fuzz-games {hands['games']})" in terminal
    assert any(line.split()[:1] == ["hand-fuzz"] and line.rstrip().endswith("hand") for line in terminal.splitlines())
    html = render({"engine": report})
    assert f"hand-fuzz ({hands['games']} random hands, blind, seed 5)" in html
    suite = next(s for s in ET.parse(out / "r.xml").getroot().findall("testsuite") if s.get("name") == "hand-fuzz")
    assert {p.get("name"): p.get("value") for p in suite.find("properties")} == {
        "profile": "hand", "profile-verdict": cert_profiles.NOT_CERTIFIED}
    assert suite.get("failures") == "1" and int(suite.get("tests")) == hands["games"]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_javascript_engine_with_coverage_gets_coverage_guided_hands(tmp_path, capsys):
    code, out, _ = run_cli(capsys, "engine", ROOT / "reference" / "js" / "poker-engine.js", "--profile", "hand", "--coverage",
                           "--fuzz-games", "30", "--no-fresh",
                           "--quiet", "--json", tmp_path / "r.json")
    hands = json.loads((tmp_path / "r.json").read_text())["engine"]["handFuzz"]
    assert code == 0 and hands["mode"] == "guided" and hands["corpus"] >= 1 and hands["blocks"] > 0
    assert "30 random hands (coverage-guided)" in out and "--fuzz-games 30 --coverage" in out


# ---- reproductions for any language ---------------------------------------------------------------

def _repro(out: Path, f: dict, *cmd: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance", "repro", f["repro"]["file"], *cmd], cwd=out,
                          capture_output=True, text=True, timeout=120, env=_env())


def test_a_cmd_failures_reproduction_replays_against_the_command_given(seven_seat_bug):
    """Exit 1 with --cmd naming the buggy engine (expected and actual at the first divergence), 0 with
    the reference; the file holds the vector and the expected trajectory and never runs a command itself."""
    out, command, report, terminal = seven_seat_bug
    assert f"reproductions: {len(report['failures'])} written to {out / 'repro'}/" in terminal
    chosen = [next(f for f in report["failures"] if f["id"].startswith(p)) for p in ("hand.fresh.", "hand.fuzz.")]
    for f in chosen:
        assert f["repro"]["file"].endswith(".json") and f["repro"]["run"] == [
            f"holdem-cert repro {f['repro']['file']} --cmd '{command}'"]
        data = json.loads((out / f["repro"]["file"]).read_text())
        assert data["failedCommand"] == command and data["family"] == "hand"
        if "vector" in f:  # a random hand, shrunk: the file holds the shrunk hand and its own first divergence
            assert data["test"] == f["vector"] and data["first"]["path"].endswith(".allIn")
        else:
            assert data["test"]["id"] == f["id"] and data["first"] == f["first"]
        assert data["expectedTrajectory"] == play_hand(data["test"]["input"])
        done = _repro(out, f, "--cmd", command)
        assert done.returncode == 1, done.stderr
        assert f"{data['first']['path']} (breaks state.seats)" in done.stdout and "DIVERGES" in done.stdout
        assert "expected (reference): true" in done.stdout and "actual (this engine): false" in done.stdout
        done = _repro(out, f, "--cmd", f"{sys.executable} -m reference.adapter")
        assert done.returncode == 0 and "the same now" in done.stdout, done.stdout + done.stderr
    done = _repro(out, chosen[0])  # no command given: none is run, the one it was written for is named
    assert done.returncode == 2 and "pass the engine to replay it against, --cmd" in done.stderr
    assert command in done.stderr


def test_a_javascript_reproduction_refuses_cmd_and_a_cmd_one_checks_its_fields(tmp_path, capsys):
    (tmp_path / "x.json").write_text(json.dumps({"format": "holdem-cert --cmd reproduction", "family": "hand"}))
    code, _, err = run_cli(capsys, "repro", tmp_path / "x.json", "--cmd", "true")
    assert code == 2 and "without its 'id'" in err
    (tmp_path / "y.json").write_text(json.dumps({"format": "holdem-cert --cmd reproduction", "id": "hand.x",
                                                 "family": "hand", "test": {"id": "hand.x", "input": {}}}))
    code, _, err = run_cli(capsys, "repro", tmp_path / "y.json", "--cmd", '"unbalanced')
    assert code == 2 and "--cmd: No closing quotation" in err
    code, out, _ = run_cli(capsys, "repro", tmp_path / "y.json", "--cmd", "no-such-engine-anywhere")
    assert code == 1 and "the engine could not be started: cannot run 'no-such-engine-anywhere'" in out
    (tmp_path / "x.js").write_text("console.log(1);")
    code, _, err = run_cli(capsys, "repro", tmp_path / "x.js", "--cmd", "true")
    assert code == 2 and "this is not one" in err


# The same bug in a JavaScript engine: an adapter over the bundled engine's createHand.
SEVEN_SEAT_ADAPTER = """
var inner = PokerEngine;
PokerEngine = Object.assign({}, inner, {profiles: ['hand'], createHand: function (spec) {
  var h = inner.createHand(spec);
  var live = spec.stacks.filter(function (c) { return c > 0; }).length;
  var sb = spec.smallBlindSeat, bug = live >= 7 && spec.stacks[sb] < spec.blinds[0];
  return {
    get over() { return h.over; },
    state: function () { var s = h.state(); if (bug && s) s.seats[sb].allIn = false; return s; },
    act: function (a) { return h.act(a); },
    result: function () { return h.result(); }
  };
}});
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_shrunk_random_hands_javascript_reproduction_points_at_its_own_divergence(tmp_path, capsys):
    """The shrunk hand (a seat fewer moves the seats' indices) is reproduced at its own first
    divergence: node exits 1 on the engine with the bug, 0 on the bundled engine alone."""
    adapter = tmp_path / "seven.js"
    adapter.write_text(SEVEN_SEAT_ADAPTER)
    engine = ROOT / "reference" / "js" / "poker-engine.js"
    code, _, _ = run_cli(capsys, "engine", engine, "--adapter", adapter, *SEEDS, "--json", tmp_path / "r.json", "--quiet")
    f = next(f for f in json.loads((tmp_path / "r.json").read_text())["failures"] if f["id"].startswith("hand.fuzz."))
    assert code == 1 and f["vector"]["id"].startswith("hand.fuzz-")
    done = subprocess.run([NODE, f["repro"]["file"]], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and ".allIn (breaks state.seats)" in done.stdout, done.stdout + done.stderr
    path = done.stdout.split(": ", 1)[1].split(" ", 1)[0]
    seat = int(path.split("[")[1].split("]")[0])
    assert seat == f["vector"]["input"]["hand"]["smallBlindSeat"]  # the shrunk hand's small blind, not the unshrunk one's
    script = (tmp_path / f["repro"]["file"]).read_text()
    fixed = tmp_path / "fixed.js"
    fixed.write_text(script.replace(json.dumps([str(engine), str(adapter)]), json.dumps([str(engine)]))
                     .replace("const HAS_ADAPTER = true;", "const HAS_ADAPTER = false;"))
    done = subprocess.run([NODE, str(fixed)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "the same now" in done.stdout, done.stdout + done.stderr
