"""holdem-cert match: the duplicate-deck plan (seat rotations over the same seeds), results
independent of --jobs, honest intervals (bootstrap, within what is possible, none below five
sets), a real signal stops it, usage errors."""
from __future__ import annotations

import json
import math
import signal
from pathlib import Path

import pytest

from conformance.cli.main import main
from hypothesis import given, strategies as st

from conformance.arena.match import MIN_SETS, interval, plan, rotation, summarize, tournaments_for_width
from conformance.harness.runner import BotSpec, RunnerOptions, run_tournament
from reference.errors import OptionError
from cli_helpers import run_cli
from conformance.arena.series import KILL_TASK_ENV
from signal_helpers import TOKEN_ENV, lines, none_left, stopped, token

ROOT = Path(__file__).resolve().parent.parent
BOTS = ("sample-caller", "sample-tight", "check-fold")


@pytest.fixture(scope="module")
def series(tmp_path_factory):
    """The same series played with --jobs 1 and --jobs 2."""
    root = tmp_path_factory.mktemp("match")
    for jobs in (1, 2):
        assert main(["match", "--roster", str(ROOT / "bots.json"), "--bots", ",".join(BOTS), "--tournaments", "6",
                     "--hands", "8", "--seed", str(2**32 - 1), "--bot-seed", "40", "--jobs", str(jobs),
                     "--json", str(root / f"jobs{jobs}.json")]) == 0
    return root


def test_results_do_not_depend_on_jobs(series):
    assert (series / "jobs1.json").read_bytes() == (series / "jobs2.json").read_bytes()


def test_each_set_plays_every_rotation_over_the_same_seeds(series):
    report = json.loads((series / "jobs1.json").read_text())
    assert report["bots"] == list(BOTS) and report["tournaments"] == 6 and report["sets"] == 2
    k = len(BOTS)
    for t in report["series"]:
        j, r = t["set"], t["rotation"]
        assert t["tournament"] == j * k + r
        assert t["deckSeed"] == (2**32 - 1 + j) % 2**32 and t["botSeed"] == 40 + j  # the deck seed wraps
        for b, bot in enumerate(BOTS):  # rotation r: the bot given b-th sits in seat (b + r) mod k
            assert t["seats"][(b + r) % k] == bot
        assert [x["bot"] for x in t["results"]] == t["seats"]
    for j in range(2):
        sets = [t for t in report["series"] if t["set"] == j]
        for bot in BOTS:  # every bot in every seat once per set
            assert sorted(t["seats"].index(bot) for t in sets) == list(range(k))
    assert report["series"][0]["deckSeed"] == 2**32 - 1 and report["series"][3]["deckSeed"] == 0


def test_a_series_tournament_is_the_tournament_play_would_give(series):
    report = json.loads((series / "jobs2.json").read_text())
    t = report["series"][4]
    bots = [BotSpec.from_file(ROOT / "bots" / f"{b}.js", id=b, name=name)
            for b, name in zip(t["seats"], [_name(b) for b in t["seats"]])]
    # on the host the match recorded (the digest covers it): node where installed, the command's default
    result = run_tournament(bots, t["deckSeed"], t["botSeed"],
                            RunnerOptions(tournament={"max_hands": 8}, bot_host=report["options"]["botHost"]))
    assert result.digest() == t["digest"]


def _name(bot_id: str) -> str:
    return next(e["name"] for e in json.loads((ROOT / "bots.json").read_text())["bots"] if e["id"] == bot_id)


def test_the_summary_averages_over_sets(series):
    report = json.loads((series / "jobs1.json").read_text())
    for row in report["summary"]:
        mine = [next(x for x in t["results"] if x["bot"] == row["bot"]) for t in report["series"]]
        assert row["tournaments"] == 6
        assert row["meanPlace"] == round(sum(m["place"] for m in mine) / 6, 4)
        assert row["meanChips"] == round(sum(m["chips"] for m in mine) / 6, 2)
        assert sum(row["places"].values()) == 6
        assert row["placeCI95"] is None and row["chipsCI95"] is None  # two sets say too little
    assert "2 sets are too few" in report["warning"] and report["precision"]["tournaments"] % 3 == 0


def test_rotation_and_plan():
    assert rotation(["a", "b", "c"], 0) == ["a", "b", "c"]
    assert rotation(["a", "b", "c"], 1) == ["c", "a", "b"]
    assert rotation(["a", "b", "c"], 2) == ["b", "c", "a"]
    bots = [BotSpec(x, "module.exports = () => 'fold';") for x in "ab"]
    tasks = plan(bots, 4, seed=7, bot_seed=7, options=RunnerOptions())
    assert [(t.set, t.rotation, t.deck_seed, t.bot_seed, [b.id for b in t.bots]) for t in tasks] == [
        (0, 0, 7, 7, ["a", "b"]), (0, 1, 7, 7, ["b", "a"]), (1, 0, 8, 8, ["a", "b"]), (1, 1, 8, 8, ["b", "a"])]
    for bad in (0, 3):
        with pytest.raises(OptionError) as err:
            plan(bots, bad, 1, 2, RunnerOptions())
        assert err.value.field == "tournaments"


def test_interval_is_a_bootstrap_interval_inside_the_values():
    values = [1.0, 1.5, 2.0, 3.0, 1.0, 2.5]
    mean, ci = interval(values)
    assert mean == pytest.approx(11 / 6)
    assert min(values) <= ci[0] < mean < ci[1] <= max(values)
    assert interval(values) == (mean, ci)  # a fixed bootstrap seed: the same series, the same interval
    assert interval([4.0] * (MIN_SETS - 1)) == (4.0, None)  # too few sets: no interval
    assert interval([4.0] * MIN_SETS) == (4.0, [4.0, 4.0])


@given(st.integers(2, 9).flatmap(lambda k: st.tuples(
    st.just(k), st.lists(st.lists(st.integers(1, k), min_size=k, max_size=k), min_size=1, max_size=12))))
def test_place_intervals_never_leave_1_to_k(case):
    """Whatever the places, a mean-place interval lies within 1..k (a t-interval over few sets did not)."""
    k, sets = case
    mean, ci = interval([sum(s) / k for s in sets])
    assert 1 <= mean <= k
    if ci is not None:
        assert 1 <= ci[0] <= mean <= ci[1] <= k


def test_chip_intervals_never_go_below_zero():
    """Two sets that a t-interval would have stretched below zero (the issue's example)."""
    mean, ci = interval([0.0, 0.0, 0.0, 0.0, 30000.0])
    assert ci[0] >= 0 and ci[1] <= 30000


def test_tournaments_for_width():
    # 2 * 1.96 * sd / sqrt(n) = width: sd 1, width 0.5 -> n = 61.5 -> 62 sets of 3
    assert tournaments_for_width(1.0, 0.5, 3) == 62 * 3
    assert tournaments_for_width(0.0, 0.5, 4) == MIN_SETS * 4  # never below the sets an interval needs


def test_summarize_uses_set_means():
    def t(places):  # one tournament: bot -> (place, chips)
        return {"results": [{"bot": b, "place": p, "chips": c, "errors": dict.fromkeys(
            ("late", "missing", "malformed", "throwing", "engine-invalid"), 0)} for b, (p, c) in places.items()]}
    series = [t({"a": (1, 20), "b": (2, 0)}), t({"a": (2, 0), "b": (1, 20)}),  # set 0
              t({"a": (1, 20), "b": (2, 0)}), t({"a": (1, 20), "b": (2, 0)})]  # set 1
    a, b = summarize(["a", "b"], series)
    assert a["meanPlace"] == 1.25 and a["places"] == {"1": 3, "2": 1}
    assert a["placeCI95"] is None and a["placeSetSd"] == round(math.sqrt(2 * 0.25 ** 2), 4)
    assert b["meanChips"] == 5.0
    five = (series * 3)[:10]  # five sets: now an interval, inside the set means 1..1.5
    a, _ = summarize(["a", "b"], five)
    assert 1 <= a["placeCI95"][0] <= a["meanPlace"] <= a["placeCI95"][1] <= 1.5


def test_match_prints_the_warning_and_the_tournaments_a_width_needs(capsys):
    code, out, _ = run_cli(capsys, "match", "--roster", ROOT / "bots.json", "--bots", "sample-caller,check-fold",
                           "--tournaments", "4", "--hands", "3", "--seed", "1", "--bot-seed", "1", "--place-width", "0.2")
    assert code == 0 and "none (too few sets)" in out and "warning: 2 sets are too few" in out
    assert "tournaments would make the mean-place intervals 0.2 places wide" in out
    assert "[-" not in out  # no negative bound


@pytest.mark.parametrize("argv, message", [
    (["--bots", "sample-caller,sample-tight", "--tournaments", "3"], "--tournaments: 3 is not a multiple of the 2"),
    (["--bots", "sample-caller,sample-caller"], "'sample-caller' repeated; a match needs distinct bots"),
    (["--bots", "sample-caller"], "got 1"),
    (["--bots", "sample-caller,ghost"], "unknown bot id 'ghost'"),
    (["--bots", "sample-caller,check-fold", "--jobs", "0"], "argument --jobs"),
])
def test_match_usage_errors(capsys, argv, message):
    code, _, err = run_cli(capsys, "match", "--roster", ROOT / "bots.json", *argv)
    assert code == 2 and message in err


@pytest.mark.parametrize("sig, group", [(signal.SIGINT, True), (signal.SIGTERM, False)],
                         ids=["SIGINT-to-the-group", "SIGTERM"])
def test_a_signal_stops_the_match_and_everything_it_ran(tmp_path, sig, group):
    """Ctrl-C (SIGINT to the process group) or ``kill`` (SIGTERM to the process) once tournaments
    have finished: exit 128 + the signal, no report, and nothing the run started is left running."""
    marker, run = tmp_path / "started", token()
    code, err, _ = stopped(["match", "--roster", ROOT / "bots.json", "--bots", ",".join(BOTS), "--tournaments", 30,
                            "--hands", 40, "--seed", 1, "--bot-seed", 2, "--jobs", 2, "--quiet"], sig,
                           lambda: lines(marker) > 2,  # a task started after one of the first two finished
                           group, env={TOKEN_ENV: run, KILL_TASK_ENV: f"-1:once:{marker}"})
    assert code == 128 + sig and "Traceback" not in err, err
    assert ("interrupted" if sig == signal.SIGINT else "stopped by SIGTERM") in err
    assert lines(marker) < 30
    assert none_left(run) == []
