"""holdem-cert league: the schedule (every table, duplicate decks, coordinates), the SQLite store
(identity, idempotent rows, refusals that change nothing), Plackett-Luce ratings (recovering known
strengths, ties, optimality, bootstrap), results identical whatever the backend, the number of
workers, the finishing order, a killed worker or a rerun over a half-filled store; a real signal
stops a league on either backend keeping what finished; bad input."""
from __future__ import annotations

import hashlib
import itertools
import json
import math
import multiprocessing
import os
import random
import signal
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from cli_helpers import make_roster, run_cli
from signal_helpers import TOKEN_ENV, none_left, rows, stopped, token
from conformance.arena import series
from conformance.arena.league import backends, ratings
from conformance.arena.league.run import run_league
from conformance.arena.league.schedule import schedule, sets_for, tables
from conformance.arena.league.standings import build
from conformance.arena.league.store import Store, identity, read_identity
from conformance.arena.play import load_roster
from conformance.arena.series import plan, play_task, run_tasks
from conformance.errors import UsageError
from conformance.harness.runner import BotSpec, RunnerOptions
from conformance.host.bot_host import choose

ROOT = Path(__file__).resolve().parent.parent
ROSTER = ROOT / "bots.json"
BOTS = ("check-fold", "sample-caller", "sample-tight")
# The commands' default host (node where the suite finds one): the command's leagues are these.
OPTIONS = RunnerOptions(tournament={"max_hands": 12}, bot_host=choose(None).name)
SEED, BOT_SEED = 7, 11


def specs(ids=BOTS) -> dict[str, BotSpec]:
    return {i: b.spec for i, b in load_roster(ROSTER, ids).bots.items()}


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def without_timings(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "timings"}


# --- schedule -----------------------------------------------------------------------------------

def test_every_table_plays_every_rotation_of_each_set_over_the_same_seeds():
    bots = specs()
    tasks = schedule(bots, 2, 2, SEED, BOT_SEED, OPTIONS)
    assert [t.table for t in tasks[:6]] == ["check-fold,sample-caller"] * 2 + ["check-fold,sample-tight"] * 2 + \
        ["sample-caller,sample-tight"] * 2
    assert len({t.coordinates for t in tasks}) == len(tasks) == 3 * 2 * 2
    for t in tasks:
        assert (t.task.deck_seed, t.task.bot_seed) == (SEED + t.task.set, BOT_SEED + t.task.set)
        assert sorted(b.id for b in t.task.bots) == t.table.split(",")
    # each bot of a table sits in every seat once per set
    for (table, j), group in itertools.groupby(tasks, key=lambda t: (t.table, t.task.set)):
        seats = [[b.id for b in t.task.bots] for t in group]
        assert all(sorted(col) == table.split(",") for col in zip(*seats))


def test_the_order_the_bots_are_given_in_changes_nothing():
    bots = specs()
    reordered = {i: bots[i] for i in reversed(BOTS)}
    assert schedule(bots, 2, 2, SEED, BOT_SEED, OPTIONS) == schedule(reordered, 2, 2, SEED, BOT_SEED, OPTIONS)
    assert identity(bots.values(), 2, SEED, BOT_SEED, OPTIONS) == identity(reordered.values(), 2, SEED, BOT_SEED, OPTIONS)


def test_a_league_table_is_the_match_of_its_bots():
    """The league reuses match's duplicate-deck plan: one table's tasks are match's tasks."""
    bots = specs()
    league = [lt.task for lt in schedule(bots, 3, 2, SEED, BOT_SEED, OPTIONS)]
    match = plan([bots[i] for i in BOTS], 6, SEED, BOT_SEED, OPTIONS)
    assert [(t.set, t.rotation, t.deck_seed, t.bot_seed, t.bots) for t in league] == \
        [(t.set, t.rotation, t.deck_seed, t.bot_seed, t.bots) for t in match]


def test_tournaments_must_be_whole_sets():
    assert sets_for(12, 3, 2) == 2
    with pytest.raises(UsageError, match=r"--tournaments: 10 is not a whole number of sets: one set is 6 .*try 6 or 12"):
        sets_for(10, 3, 2)
    assert len(tables("abcde", 3)) == 10


# --- ratings ------------------------------------------------------------------------------------

def sample_sets(strengths, table_size, sets, rnd) -> list[Counter]:
    """Plackett-Luce orderings drawn at every table, one Counter per set."""
    out = []
    for _ in range(sets):
        c = Counter()
        for table in itertools.combinations(range(len(strengths)), table_size):
            for _ in range(table_size):
                left, order = list(table), []
                while left:
                    pick = rnd.choices(left, weights=[strengths[i] for i in left])[0]
                    order.append((pick,))
                    left.remove(pick)
                c[tuple(order)] += 1
        out.append(c)
    return out


def test_the_fit_recovers_known_strengths():
    strengths = [1, 2, 4, 8]
    sets = sample_sets(strengths, 3, 150, random.Random(5))
    fitted = ratings.centred(ratings.fit(4, sum(sets, Counter())))
    truth = ratings.centred([math.log(s) for s in strengths])
    assert all(abs(f - t) < 0.15 for f, t in zip(fitted, truth)), (fitted, truth)


@given(st.lists(st.permutations([0, 1, 2]), min_size=1, max_size=12), st.permutations([0, 1, 2]))
def test_the_fit_is_the_posterior_maximum_and_does_not_depend_on_labels(orders, relabel):
    counts = Counter(tuple((b,) for b in order) for order in orders)
    theta = ratings.fit(3, counts)
    stages = ratings._stages(counts)
    best = ratings.log_posterior(theta, stages)
    for i, d in itertools.product(range(3), (1e-4, -1e-4)):
        moved = list(theta)
        moved[i] += d
        assert ratings.log_posterior(moved, stages) <= best + 1e-12
    renamed = Counter({tuple((relabel[b],) for (b,) in o): c for o, c in counts.items()})
    again = ratings.fit(3, renamed)
    assert all(abs(again[relabel[i]] - theta[i]) < 1e-7 for i in range(3))


def test_an_unbeaten_bot_gets_a_finite_top_rating_and_tied_bots_equal_ones():
    unbeaten = ratings.centred(ratings.fit(3, Counter({((0,), (1,), (2,)): 10})))
    assert all(math.isfinite(x) for x in unbeaten) and unbeaten[0] > unbeaten[1] > unbeaten[2]
    counts = Counter({((0,), (1, 2)): 10, ((1, 2), (0,)): 5})  # 1 and 2 always share a place
    r = ratings.centred(ratings.fit(3, counts))
    assert r[0] > r[1]
    assert abs(r[1] - r[2]) < 1e-9
    assert abs(math.fsum(r)) < 1e-9


def test_bootstrap_intervals_are_deterministic_cover_the_rating_and_need_five_sets():
    sets = sample_sets([1, 3, 9], 2, 6, random.Random(9))
    first = ratings.rate(3, sets)
    assert first == ratings.rate(3, sets)
    for r, (lo, hi) in zip(*first):
        assert lo <= r <= hi
    assert ratings.rate(3, sets[:4])[1] == [None, None, None]


def test_head_to_head_shares_are_complementary():
    counts = Counter({((0,), (1,), (2,)): 3, ((2,), (0, 1)): 2})
    m = ratings.head_to_head(3, counts)
    assert m[0][1] == {"together": 5, "ahead": 3, "behind": 0, "level": 2, "share": 0.8}
    for i, j in itertools.permutations(range(3), 2):
        assert m[i][j]["share"] + m[j][i]["share"] == pytest.approx(1)
    assert m[1][1] is None


# --- store --------------------------------------------------------------------------------------

def league_id(seed=SEED):
    return identity(specs().values(), 2, seed, BOT_SEED, OPTIONS)


def summary(table="check-fold,sample-caller", j=0, r=0):
    return {"tournament": 3, "set": j, "rotation": r, "seats": table.split(","), "results": [], "wallMs": [[1.0]]}


def test_a_row_is_written_once(tmp_path):
    with Store(tmp_path / "s.db", league_id()) as store:
        store.add("check-fold,sample-caller", summary())
        store.add("check-fold,sample-caller", summary())
        assert store.done() == {("check-fold,sample-caller", 0, 0)}
        assert store.con.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_store_of_another_league_is_refused_unchanged(tmp_path):
    path = tmp_path / "s.db"
    with Store(path, league_id()) as store:
        store.add("check-fold,sample-caller", summary())
    before = sha(path)
    with pytest.raises(UsageError, match=r"written by another league \(seed 7 there, 8 here\); nothing was changed"):
        Store(path, league_id(seed=8))
    assert sha(path) == before and read_identity(path)["seed"] == SEED


@pytest.mark.parametrize("content", [b"not a database at all, just text\n" * 40, None])
def test_a_file_that_is_not_a_league_store_is_refused_unchanged(tmp_path, content):
    path = tmp_path / "s.db"
    if content is None:
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE t (x)")
        con.commit()
        con.close()
    else:
        path.write_bytes(content)
    before = sha(path)
    with pytest.raises(UsageError, match=r"--store .*s\.db: .*league store"):
        Store(path, league_id())
    assert sha(path) == before


# --- playing ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """Two sets at three tables of two, played in this process (jobs 1) into a fresh store."""
    path = tmp_path_factory.mktemp("league") / "ref.db"
    return run_league(specs(), 2, 12, SEED, BOT_SEED, OPTIONS, path), path


def test_a_rerun_over_a_half_filled_store_plays_only_what_is_missing(reference, tmp_path):
    report, ref_path = reference
    path = tmp_path / "half.db"
    run_league(specs(), 2, 6, SEED, BOT_SEED, OPTIONS, path)  # the first set only
    planned = []
    again = run_league(specs(), 2, 12, SEED, BOT_SEED, OPTIONS, path, jobs=2, on_plan=planned.append)
    assert planned == [6]
    assert without_timings(again) == without_timings(report)
    nothing = []
    run_league(specs(), 2, 12, SEED, BOT_SEED, OPTIONS, path, on_plan=nothing.append)
    assert nothing == [0]


def test_the_report_depends_on_the_rows_not_the_order_they_arrived_in(reference, tmp_path):
    report, ref_path = reference
    with Store(ref_path, read_identity(ref_path)) as store:
        rows = store.con.execute("SELECT * FROM tournaments").fetchall()
    random.Random(3).shuffle(rows)
    path = tmp_path / "shuffled.db"
    with Store(path, read_identity(ref_path)) as store:
        store.con.executemany("INSERT INTO tournaments VALUES (?, ?, ?, ?, ?)", rows)
        rebuilt = build(read_identity(ref_path), report["tables"], 2, store.rows(2))
    assert json.dumps(rebuilt) == json.dumps(report)


def test_the_report_holds_standings_ratings_errors_and_timings(reference):
    report, _ = reference
    assert report["played"] == report["tournaments"] == 12
    assert [s["bot"] for s in report["standings"]] == sorted(BOTS, key=lambda b: (-next(
        s["rating"] for s in report["standings"] if s["bot"] == b), b))
    assert all(s["tournaments"] == 8 for s in report["standings"])
    assert sum(s["wins"] for s in report["standings"]) >= 12
    assert all(report["timings"][b]["decisions"] > 0 for b in BOTS)


def kill_a_pool_process_once(killed: list):
    def on_done(summary: dict) -> None:
        alive = multiprocessing.active_children()
        if not killed and alive:  # none alive: the other task finished too; kill at the next one
            os.kill(alive[0].pid, signal.SIGKILL)
            killed.append(alive[0].pid)
    return on_done


def test_a_killed_pool_process_costs_only_its_tasks():
    tasks = [lt.task for lt in schedule(specs(), 2, 2, SEED, BOT_SEED, OPTIONS)]
    killed: list = []
    survived = run_tasks(tasks, 2, kill_a_pool_process_once(killed))
    assert killed
    untimed = lambda summaries: [{k: v for k, v in s.items() if k != "wallMs"} for s in summaries]  # noqa: E731
    assert untimed(survived) == untimed(play_task(t) for t in tasks)


def attempts(marker: Path) -> Counter:
    """How many times each task's process started (the fault injection's marker)."""
    return Counter(int(line) for line in marker.read_text(encoding="utf-8").split())


def test_a_killed_worker_costs_only_its_task_which_is_run_again(reference, tmp_path, monkeypatch):
    report, _ = reference
    marker = tmp_path / "attempts"
    monkeypatch.setenv(series.KILL_TASK_ENV, f"5:once:{marker}")
    survived = run_league(specs(), 2, 12, SEED, BOT_SEED, OPTIONS, tmp_path / "killed.db", jobs=2)
    assert without_timings(survived) == without_timings(report)
    assert attempts(marker) == Counter({**{n: 1 for n in range(12)}, 5: 2})  # only the killed task again


def test_a_task_that_always_dies_is_an_error_after_its_retries_and_the_others_are_stored(reference, tmp_path,
                                                                                          monkeypatch):
    report, _ = reference
    marker, path = tmp_path / "attempts", tmp_path / "dying.db"
    monkeypatch.setenv(series.KILL_TASK_ENV, f"3:always:{marker}")
    with pytest.raises(backends.LeagueStopped) as stopped:
        run_league(specs(), 2, 12, SEED, BOT_SEED, OPTIONS, path, jobs=2)
    assert str(stopped.value) == (
        f"1 of 12 tournaments not played: their process died on each of {1 + series.TASK_RETRIES} attempts "
        "(tournament 3 (set 0, rotation 1): killed by SIGKILL); every other tournament finished")
    assert attempts(marker) == Counter({**{n: 1 for n in range(12)}, 3: 1 + series.TASK_RETRIES})
    monkeypatch.delenv(series.KILL_TASK_ENV)
    planned = []
    again = run_league(specs(), 2, 12, SEED, BOT_SEED, OPTIONS, path, on_plan=planned.append)
    assert planned == [1]  # the other eleven were stored, intact
    assert without_timings(again) == without_timings(report)


def test_match_says_a_lost_tournament_with_exit_2(capsys, tmp_path, monkeypatch):
    marker = tmp_path / "attempts"
    monkeypatch.setenv(series.KILL_TASK_ENV, f"1:always:{marker}")
    code, out, err = run_cli(capsys, "match", "--roster", ROSTER, "--bots", "check-fold,sample-caller",
                             "--tournaments", 2, "--hands", 3, "--jobs", 2)
    assert code == 2 and "tournament 1 (set 0, rotation 1): killed by SIGKILL" in err, err
    assert attempts(marker) == Counter({0: 1, 1: 1 + series.TASK_RETRIES})


def test_an_exception_in_a_task_stops_the_run():
    tasks = plan(list(specs().values())[:2], 2, SEED, BOT_SEED, RunnerOptions(tournament={"max_hands": 0}))
    with pytest.raises(Exception, match="max_hands"):
        run_tasks(tasks, 2)


@pytest.mark.skipif(not backends.ray_installed(), reason="Ray is not installed (pip install -e '.[ray]')")
def test_a_two_cpu_local_ray_gives_the_local_results_and_retries_a_killed_task(reference, tmp_path, monkeypatch):
    report, _ = reference
    marker = tmp_path / "attempts"
    monkeypatch.setenv(series.KILL_TASK_ENV, f"4:once:{marker}")  # Ray's workers inherit the environment
    on_ray = run_league(specs(), 2, 12, SEED, BOT_SEED, OPTIONS, tmp_path / "ray.db", backend="ray", jobs=2)
    assert without_timings(on_ray) == without_timings(report)
    assert attempts(marker) == Counter({**{n: 1 for n in range(12)}, 4: 2})  # Ray re-ran the killed task


def stored(path: Path) -> dict:
    """A store's tournaments: (table, set, rotation) -> the summary as stored."""
    with sqlite3.connect(path) as con:
        return {(t, j, r): s for t, j, r, s in con.execute("SELECT tbl, set_no, rotation, summary FROM tournaments")}


NEEDS_RAY = pytest.mark.skipif(not backends.ray_installed(), reason="Ray is not installed (pip install -e '.[ray]')")


@pytest.mark.parametrize("backend, sig, group", [
    ("local", signal.SIGINT, True), ("local", signal.SIGTERM, False),
    pytest.param("ray", signal.SIGINT, True, marks=NEEDS_RAY), pytest.param("ray", signal.SIGTERM, False, marks=NEEDS_RAY),
], ids=["local-SIGINT-to-the-group", "local-SIGTERM", "ray-SIGINT-to-the-group", "ray-SIGTERM"])
def test_a_signal_stops_the_league_keeping_what_finished_and_a_rerun_plays_the_rest(reference, tmp_path, backend,
                                                                                      sig, group):
    """Ctrl-C (SIGINT to the process group, as a terminal sends it) or ``kill`` (SIGTERM to the
    process), once the first tournaments are stored: exit 128 + the signal, the stored rows are the
    ones an uninterrupted league plays, nothing the run started is left running (task processes,
    QuickJS workers, the local Ray instance), and a rerun plays only the missing tournaments."""
    report, ref_path = reference
    store, run = tmp_path / "s.db", token()
    code, err, _ = stopped(["league", "--roster", ROSTER, "--bots", ",".join(BOTS), "--tournaments", 12,
                            "--table-size", 2, "--hands", 12, "--seed", SEED, "--bot-seed", BOT_SEED,
                            "--backend", backend, "--jobs", 2 if backend == "local" else 1, "--store", store,
                            "--quiet"], sig, lambda: rows(store) >= 1, group, env={TOKEN_ENV: run})
    assert code == 128 + sig and "Traceback" not in err, err
    assert ("interrupted" if sig == signal.SIGINT else "stopped by SIGTERM") in err
    kept = stored(store)
    assert 1 <= len(kept) < 12
    assert kept.items() <= stored(ref_path).items()
    assert none_left(run) == []
    planned: list = []
    again = run_league(specs(), 2, 12, SEED, BOT_SEED, OPTIONS, store, on_plan=planned.append)
    assert planned == [12 - len(kept)]
    assert without_timings(again) == without_timings(report)


# --- the command --------------------------------------------------------------------------------

def league_cli(capsys, *extra):
    return run_cli(capsys, "league", "--roster", ROSTER, "--tournaments", 6, "--table-size", 2, "--hands", 12,
                   "--seed", SEED, "--bot-seed", BOT_SEED, *extra)


def test_the_command_writes_json_html_and_the_table(capsys, tmp_path, reference):
    report, _ = reference
    code, out, err = league_cli(capsys, "--bots", ",".join(reversed(BOTS)), "--store", tmp_path / "s.db",
                                "--json", tmp_path / "l.json", "--html", tmp_path / "html")
    assert code == 0, err
    written = json.loads((tmp_path / "l.json").read_text())
    assert written["league"] == report["league"] and written["sets"] == 1
    assert [s["rank"] for s in written["standings"]] == [1, 2, 3]
    assert "head to head" in out and "rating" in out
    page = (tmp_path / "html" / "index.html").read_text()
    assert page.count("<svg") == 1 and "ratings with 95% intervals" in page and "Head to head" in page
    assert "http://" not in page and "https://" not in page and "<script src" not in page


def test_a_store_of_another_league_is_exit_2_and_left_as_it_was(capsys, tmp_path):
    store = tmp_path / "s.db"
    assert league_cli(capsys, "--bots", ",".join(BOTS), "--store", store)[0] == 0
    before = sha(store)
    code, out, err = run_cli(capsys, "league", "--roster", ROSTER, "--bots", ",".join(BOTS), "--tournaments", 6,
                             "--table-size", 2, "--hands", 12, "--seed", SEED + 1, "--bot-seed", BOT_SEED,
                             "--store", store)
    assert code == 2 and "written by another league (seed 7 there, 8 here)" in err
    assert sha(store) == before


def test_seeds_not_given_are_the_stores(capsys, tmp_path):
    store = tmp_path / "s.db"
    assert league_cli(capsys, "--bots", ",".join(BOTS), "--store", store)[0] == 0
    code, out, err = run_cli(capsys, "league", "--roster", ROSTER, "--bots", ",".join(BOTS), "--tournaments", 12,
                             "--table-size", 2, "--hands", 12, "--store", store)
    assert code == 0 and f"--seed {SEED} --bot-seed {BOT_SEED} (the store" in err


@pytest.mark.parametrize("argv, message", [
    (["--bots", "check-fold,nobody"], "--bots: unknown bot id 'nobody'"),
    (["--bots", "check-fold,check-fold"], "'check-fold' repeated"),
    (["--bots", "check-fold", "--table-size", "2"], "--table-size: 2 is more than the 1 bots chosen"),
    (["--table-size", "10"], "--table-size: contract-v1 seats 2 to 9 bots, got 10"),
    (["--tournaments", "7"], "--tournaments: 7 is not a whole number of sets"),
    (["--address", "127.0.0.1:1"], "--address 127.0.0.1:1: cannot reach a Ray cluster there"),
    (["--address", "nowhere"], "--address: expected HOST:PORT or ray://HOST:PORT, got 'nowhere'"),
])
def test_bad_input_is_exit_2_with_a_message_and_no_store(capsys, tmp_path, argv, message):
    args = ["--bots", ",".join(BOTS), "--tournaments", "6", "--table-size", "2", *argv]  # later options win
    code, out, err = run_cli(capsys, "league", "--roster", ROSTER, "--store", tmp_path / "s.db", "--seed", 1,
                             "--bot-seed", 2, *args)
    assert code == 2 and message in err, err
    assert not (tmp_path / "s.db").exists()


def test_a_broken_roster_is_exit_2(capsys, tmp_path):
    roster = make_roster(tmp_path, {"a": "module.exports = function act(s) { return {type: 'fold'}; };"})
    roster.write_text(roster.read_text()[:-5])
    code, out, err = run_cli(capsys, "league", "--roster", roster, "--tournaments", 2, "--table-size", 2,
                             "--store", tmp_path / "s.db")
    assert code == 2 and "roster" in err and not (tmp_path / "s.db").exists()


def test_ray_absent_is_a_clear_message(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(UsageError, match=r"--backend ray needs Ray, an optional extra: pip install"):
        backends.check("ray", None)
