"""Differential fuzzing (conformance/judge/fuzz.py, issue #12 item 6): random games judged step by step
against the reference in both drivers, reproducible by seed; bugs that only fuzzing reaches are
caught, shrunk, and the shrunk game is a hands vector that fails the mutant and passes the engine."""
from __future__ import annotations

import copy
import json
import shutil
import sys

import pytest
from hypothesis import given, strategies as st

from conformance.cli.main import main
from conformance.host.jsvalue import decode
from conformance.judge import fuzz
from conformance.judge.engine_cert import RETRY_SCALE, Runner, certify, load_tests, start
from conformance.judge.engine_drivers import CommandDriver, QuickJSDriver
from conformance.judge.verdicts import Report
from conformance.report import repro
from conformance.vectors import schemas, library as vectors
from conformance.vectors.gamespec import tournament
from js_vector_runner import ENGINE_PATH
from mutants.mutants import FUZZ_MUTANTS

SOURCE = ENGINE_PATH.read_text(encoding="utf-8")
NODE = shutil.which("node")
GAMES = 25  # per engine: a second or two
MUTANT_SEED, MUTANT_GAMES = 1, 60  # the mutants fail within these games (measured: by game 7)


def mutate(mutant: dict) -> str:
    assert SOURCE.count(mutant["find"]) == 1, mutant["name"]
    return SOURCE.replace(mutant["find"], mutant["replace"])


def fuzz_with(source: str, seed: int, games: int) -> fuzz.FuzzRun:
    driver = QuickJSDriver(source, engine_name="engine.js")
    try:
        _, _, runner = start(driver, ["hands"])
        assert runner is not None, "the smoke tier failed"
        return fuzz.run(runner, seed, seconds=None, games=games)
    finally:
        driver.close()


def hands_case(source: str, test: dict):
    driver = QuickJSDriver(source, engine_name="engine.js")
    try:
        driver.start()
        return Runner(driver).vector("hands", test)
    finally:
        driver.close()


# ---- the games ----------------------------------------------------------------------------------

@given(st.integers(0, 2**32 - 1), st.integers(0, 10_000))
def test_a_game_depends_on_its_seed_and_number_alone(seed, k):
    assert json.dumps(fuzz.generate(seed, k)) == json.dumps(fuzz.generate(seed, k))


def test_games_cover_seats_stacks_schedules_illegal_answers_and_timeouts():
    games = [fuzz.generate(3, k) for k in range(150)]
    assert len({json.dumps(g["input"]) for g in games}) == len(games)
    seats = {len(g["input"]["game"]["seats"]) for g in games}
    assert seats == set(range(2, 10))
    assert any(1 in g["input"]["game"]["options"]["stacks"] for g in games)
    assert len({len(g["input"]["game"]["options"]["blindSchedule"]) for g in games}) > 2
    assert len({g["input"]["game"]["options"]["maxHands"] for g in games}) > 10
    steps = [s for g in games for s in g["input"]["steps"]]
    assert fuzz.TIMEOUT in steps
    errors = set()
    for g in games:  # the reference refuses some answers, with varied codes
        t = tournament(g["input"]["game"])
        for s in g["input"]["steps"]:
            if s == fuzz.TIMEOUT:
                t.timeout()
            else:
                errors.add(t.submit(decode(s))[1])
    assert len(errors - {None}) >= 5, errors
    for g in games:  # every hand the reference plays has its deck pinned
        assert len(g["input"]["game"]["options"]["decks"]) >= len(g["expected"]["history"])


def test_a_fuzz_game_is_a_valid_hands_vector():
    family = copy.deepcopy(vectors.load("hands"))
    family["tests"] = [fuzz.generate(8, k) for k in range(5)]
    family["numberOfTests"] = len(family["tests"])
    assert schemas.errors("vectors/hands", family) == []


# ---- engines pass ---------------------------------------------------------------------------------

def test_the_bundled_engine_passes_fuzz_games():
    out = fuzz_with(SOURCE, 11, GAMES)
    assert out.games == GAMES and [c.status for c in out.cases] == ["passed"] * GAMES, \
        [c.message for c in out.cases if c.status != "passed"]
    assert all(c.group == fuzz.FUZZ_GROUP for c in out.cases)


def test_the_reference_adapter_passes_fuzz_games_over_the_protocol():
    driver = CommandDriver(f"{sys.executable} -m reference.adapter")
    try:
        driver.start()
        out = fuzz.run(Runner(driver), 12, seconds=None, games=GAMES)
    finally:
        driver.close()
    assert [c.status for c in out.cases] == ["passed"] * GAMES, [c.message for c in out.cases if c.status != "passed"]


def test_the_time_budget_decides_only_how_many_games_run():
    ticks = iter(range(1000))
    driver = QuickJSDriver(SOURCE, engine_name="engine.js")
    try:
        driver.start()
        out = fuzz.run(Runner(driver), 5, seconds=3, clock=lambda: next(ticks))  # one tick per clock read
    finally:
        driver.close()
    assert out.games == 2  # the clock reads 1 and 2 before the games, 3 after them: the budget is spent
    assert [c.id for c in out.cases] == [f"hands.fuzz.5.{k}" for k in range(2)]


# ---- mutants only fuzzing catches -----------------------------------------------------------------

@pytest.mark.parametrize("mutant", FUZZ_MUTANTS, ids=[m["name"] for m in FUZZ_MUTANTS])
def test_the_golden_and_fresh_game_vectors_miss_the_mutant(mutant):
    families = ["legality", "hands", "tournaments"]
    report = certify(QuickJSDriver(mutate(mutant), engine_name="mutant.js"), load_tests(families, fresh_seed=MUTANT_SEED),
                     {}, ruleset="contract-v1")
    assert report.ok, report.verdict  # why fuzzing is needed for it


@pytest.mark.parametrize("mutant", FUZZ_MUTANTS, ids=[m["name"] for m in FUZZ_MUTANTS])
def test_fuzzing_catches_the_mutant_and_its_shrunk_vector_reproduces_it(mutant, tmp_path):
    source = mutate(mutant)
    out = fuzz_with(source, MUTANT_SEED, MUTANT_GAMES)
    failed = out.cases[-1]
    assert failed.status == "failed" and failed.breaks == mutant["breaks"], failed.message
    assert all(c.status == "passed" for c in out.cases[:-1])  # fuzzing stops at the first failure
    original = fuzz.generate(MUTANT_SEED, out.games - 1)
    shrunk = out.vector
    assert failed.vector is shrunk and "shrunk in" in failed.message
    # Smaller unless already minimal (one step of one hand: the one-chip mutant's first failing game).
    assert fuzz.size(shrunk) < fuzz.size(original) or fuzz.size(original)[:2] == (1, 1)
    assert 0 < out.shrink_runs <= fuzz.MAX_SHRINK_RUNS
    # The shrunk vector, run as a hands vector: the mutant fails it at the same clause, the engine passes.
    vector = json.loads(json.dumps(shrunk))  # as pasted into vectors/hands
    assert hands_case(source, vector).breaks == mutant["breaks"]
    assert hands_case(SOURCE, vector).status == "passed"
    # Issue #24, item 6: the failure's reproduction, as certify writes it (repro.attach on the
    # report's fuzz row), exits 1 on the mutant and 0 on the bundled engine under node (one
    # process, repro.run_batch). The fuzz run above is reused; without node this part is left out.
    if NODE is None:
        return
    engine = tmp_path / "mutant.js"
    engine.write_text(source, encoding="utf-8")
    report = Report("holdem-cert engine", "engine", {}, [fuzz.FUZZ_GROUP], cases=[failed])
    repro.attach(report, {"driver": "quickjs", "source": str(engine)}, {})
    script = failed.repro["script"]
    assert failed.repro["file"].endswith(".js") and script.count(json.dumps([str(engine)])) == 1
    scripts = []
    for name, path in (("mutant", engine), ("bundled", ENGINE_PATH)):
        scripts.append(tmp_path / f"{name}.repro.js")
        scripts[-1].write_text(script.replace(json.dumps([str(engine)]), json.dumps([str(path)])), encoding="utf-8")
    mutant_run, bundled_run = repro.run_batch(NODE, scripts)
    assert mutant_run["exit"] == 1, (mutant_run["stdout"][-600:], mutant_run["stderr"][-300:])
    assert bundled_run["exit"] == 0, (bundled_run["stdout"][-600:], bundled_run["stderr"][-300:])


def test_shrinking_is_deterministic_and_bounded():
    test = fuzz.generate(4, 9)
    calls = []

    def judge(candidate):  # cause x while some seat holds more than 1000 chips and a step remains; y always
        calls.append(candidate)
        fails = max(candidate["input"]["game"]["options"]["stacks"]) > 1000 and candidate["input"]["steps"]
        return {"x": None, "y": None} if fails else {"y": None}

    first, runs = fuzz.shrink(test, judge, "x", None, max_runs=15)
    again, _ = fuzz.shrink(test, judge, "x", None, max_runs=15)
    assert json.dumps(first) == json.dumps(again)
    assert runs <= 15 and len(calls) == 2 * runs
    # the cause shrunk is kept: another cause the smaller games still show does not count (issue #38, item 3)
    assert max(first["input"]["game"]["options"]["stacks"]) > 1000 and first["input"]["steps"]


# ---- the command line and the report --------------------------------------------------------------

def test_the_engine_command_reports_the_fuzz_row_and_reproduces_by_seed_and_count(tmp_path, capsys):
    reports = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.json"
        code = main(["engine", str(ENGINE_PATH), "--family", "hands", "--no-fresh", "--fuzz-seed", "77",
                     "--fuzz-games", "4", "--json", str(out), "--quiet"])
        assert code == 0, capsys.readouterr()
        reports.append(json.loads(out.read_text()))
    report = reports[0]
    assert report["engine"]["fuzz"] == {"seed": 77, "games": 4, "budgetSeconds": None}  # a count, no budget
    assert report["families"]["fuzz"] == {"passed": 4, "failed": 0, "divergent": 0, "skipped": 0, "error": 0}
    assert "partial" in report  # a --family run, with or without fuzzing
    assert reports[0] == reports[1]
    assert "4 fuzz games, seed 77 (--fuzz-seed 77 --fuzz-games 4)" in capsys.readouterr().out


@pytest.mark.parametrize("args, games, seconds", [
    ([], fuzz.DEFAULT_GAMES, None),  # the default: a fixed count, the same games under any load (issue #25)
    (["--fuzz-games", "7"], 7, None),
    (["--fuzz-seconds", "2.5"], None, 2.5),  # a time budget instead of the count
    (["--fuzz-seconds", "2.5", "--fuzz-games", "7"], 7, None),  # the count wins (it reruns a report's games)
    (["--fuzz-seconds", "0"], None, None),  # no fuzzing
])
def test_the_default_fuzzing_is_a_fixed_game_count(args, games, seconds):
    from conformance.cli.engine_choice import prepare, spec_from_args
    from conformance.cli.main import build_parser

    parsed = build_parser().parse_args(["engine", str(ENGINE_PATH), "--family", "hands", "--no-fresh", *args])
    plan = prepare(spec_from_args(parsed, parsed.engine)).fuzz
    if games is None and seconds is None:
        assert plan is None
    else:
        assert (plan.games, plan.seconds) == (games, seconds)


def test_a_time_budget_is_reported_as_such(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["engine", str(ENGINE_PATH), "--family", "hands", "--no-fresh", "--fuzz-seed", "77",
                 "--fuzz-seconds", "0.01", "--json", str(out), "--quiet"]) == 0
    capsys.readouterr()
    fuzzed = json.loads(out.read_text())["engine"]["fuzz"]
    assert fuzzed["budgetSeconds"] == 0.01 and fuzzed["games"] >= 1


@pytest.mark.parametrize("args, message", [
    (["--fuzz-seconds", "-1"], "--fuzz-seconds: expected a finite number of seconds >= 0, got '-1'"),
    (["--fuzz-seconds", "soon"], "--fuzz-seconds: expected a number of seconds, got 'soon'"),
    (["--fuzz-games", "0"], "--fuzz-games: expected a positive whole number of games, got '0'"),
])
def test_bad_fuzz_options_are_usage_errors_naming_the_option(args, message, capsys):
    assert main(["engine", str(ENGINE_PATH), *args]) == 2
    assert message in capsys.readouterr().err


def test_a_mutant_fails_the_fuzz_row_with_its_shrunk_vector_in_the_json(tmp_path, capsys):
    mutant = FUZZ_MUTANTS[1]
    engine = tmp_path / "mutant.js"
    engine.write_text(mutate(mutant), encoding="utf-8")
    out = tmp_path / "r.json"
    code = main(["engine", str(engine), "--family", "hands", "--no-fresh", "--fuzz-seed", str(MUTANT_SEED),
                 "--fuzz-games", str(MUTANT_GAMES), "--json", str(out), "--quiet"])
    capsys.readouterr()
    report = json.loads(out.read_text())
    assert code == 1 and report["families"]["fuzz"]["failed"] == 1
    failure = next(f for f in report["failures"] if f["family"] == "fuzz")
    assert failure["breaks"] == mutant["breaks"] and failure["vector"]["id"].startswith("hands.fuzz-")
    assert report["engine"]["fuzz"]["shrinkRuns"] > 0


def test_an_engine_that_hangs_in_fuzz_games_stops_fuzzing_after_a_few_timeouts():
    hangs = SOURCE + "\n;\n" + """(function () {
      const create = PokerEngine.create;
      globalThis.PokerEngine = Object.assign({}, PokerEngine, {create: function (seats, options) {
        // The game object may be frozen: a child object whose own submit never returns.
        return Object.create(create(seats, options), {submit: {value: function () { for (;;) {} }}});
      }});
    })();"""
    driver = QuickJSDriver(hangs, engine_name="hangs.js", timeout_ms=300)
    try:
        _, _, runner = start(driver, ["hands"])
        out = fuzz.run(runner, 6, seconds=120)
    finally:
        driver.close()
    statuses = [c.status for c in out.cases]
    # The first hang (late again when retried with RETRY_SCALE x the limit, issue #24 item 5) fails
    # its game and ends fuzzing: no shrinking without a divergence to keep.
    assert statuses == ["failed"] and f"no answer within {300 * RETRY_SCALE} ms" in out.cases[0].message, statuses
    assert out.shrink_runs == 0 and out.vector["id"] == "hands.fuzz-6-0"
