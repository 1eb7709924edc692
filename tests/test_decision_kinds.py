"""The stratified battery (issue #18 item 2): decision kinds, the seeded generator, and bots that are
wrong about a single rule, each caught by many states; legal but unusual bots pass."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.bots.bot_cert import CertOptions, certify_file, find_state
from cli_helpers import certify_folder
from conformance.bots.decision_kinds import KINDS, decision_kinds, kind_counts, stratified_states
from reference.tournament import Tournament

# One worker runs the whole module (pytest-xdist --dist loadgroup): its module fixture, a certification
# of many bots or engines, is then computed once, not on each worker that gets one of its tests.
pytestmark = pytest.mark.xdist_group("decision-kinds")

ROOT = Path(__file__).resolve().parent.parent
MISTAKES = ROOT / "tests" / "bots" / "mistakes"
UNUSUAL = ROOT / "tests" / "bots" / "unusual"
PER_KIND = 10
LEAST_CAUGHT = 5  # a single-rule mistake must be met by at least this many states
# Only the stratified part: what it catches by itself.
KINDS_ONLY = CertOptions(vector_states=0, generated_states=0, kind_states=PER_KIND, smoke_seats=(), full_table_hands=0)
# bot -> (error category, the codes it must get, a kind every failing state shows or None)
MISTAKE_EXPECTED = {
    "call-instead-of-check": ("engine-invalid", {"call-not-allowed"}, "free-check-preflop"),
    "check-facing-bet": ("engine-invalid", {"check-not-allowed"}, "facing-bet"),
    # legal only where it sees the old fixed fixture names and ids: the drawn names catch it (R36)
    "fixture-names-only": ("engine-invalid", {"check-not-allowed"}, "facing-bet"),
    "raise-when-closed": ("engine-invalid", {"raise-not-allowed"}, "raise-closed"),
    "raise-below-min": ("engine-invalid", {"amount-below-min"}, None),
    "raise-above-max": ("engine-invalid", {"amount-above-max"}, None),
    "min-raise-past-stack": ("engine-invalid", {"amount-above-max"}, "min-raise-above-max"),
    "allin-when-closed": ("engine-invalid", {"allin-not-allowed"}, "raise-closed"),
    "raise-by-chips-added": ("engine-invalid", {"amount-below-min", "amount-not-above-current-bet"},
                             "raise-with-chips-in"),
    "fractional-amount": ("malformed", {"amount-not-safe-integer"}, None),
    "null-amount": ("malformed", {"amount-not-safe-integer"}, "raise-with-chips-in"),
}


def _certify_dir(folder: Path) -> dict:
    return certify_folder(folder, KINDS_ONLY)


@pytest.fixture(scope="module")
def mistake_reports():
    return _certify_dir(MISTAKES)


def test_every_mistake_bot_has_an_expectation():
    assert {p.stem for p in MISTAKES.glob("*.js")} == set(MISTAKE_EXPECTED)


@pytest.mark.parametrize("name", sorted(MISTAKE_EXPECTED))
def test_a_single_rule_mistake_is_caught_by_many_states(mistake_reports, name):
    report = mistake_reports[name]
    category, codes, kind = MISTAKE_EXPECTED[name]
    assert report.verdict == "rejected"
    error = report.battery["errors"][category]
    assert set(error["codes"]) == codes, error["codes"]
    assert error["count"] >= LEAST_CAUGHT, error["count"]
    if kind is not None:
        assert error["kinds"][kind] == error["count"], error["kinds"]
    # What failed is shown: the state itself, the answer, and the betting numbers in JS words.
    assert error["state"]["you"]["id"] and error["answer"] is not None
    assert error["states"][0] == error["example"] and len(error["states"]) == error["count"]
    message = next(r.message for r in report.reasons if r.code == category)
    for name_ in ("you.bet", "currentBet", "minRaiseTo", "maxRaiseTo"):
        assert name_ in message
    assert "None" not in message and "True" not in message and "False" not in message


@pytest.mark.parametrize("path", sorted(UNUSUAL.glob("*.js")), ids=lambda p: p.stem)
def test_legal_but_unusual_bots_pass(path):
    report = certify_file(path, KINDS_ONLY)
    assert report.verdict == "certified", [r.to_json() for r in report.reasons]
    assert report.battery["answered"] == report.battery["states"]


def test_every_kind_gets_its_states_deterministically():
    states = stratified_states(PER_KIND, 5)
    counts = kind_counts(states)
    assert set(counts) == set(KINDS)
    assert all(n >= PER_KIND for n in counts.values()), counts
    assert json.dumps(states) == json.dumps(stratified_states(PER_KIND, 5))
    assert json.dumps(states) != json.dumps(stratified_states(PER_KIND, 6))
    assert stratified_states(0, 5) == []


def _names(states) -> list[list[str]]:
    return [[s["name"] for s in b.state["seats"]] for b in states]


def test_battery_seat_names_and_ids_are_drawn_from_the_seed_and_renamed_everywhere():
    # R36: the names and ids of every battery state come from the botSeed; the kinds, the schema
    # and every place an id appears follow the renaming.
    from conformance.vectors import schemas
    from conformance.bots.bot_cert import battery

    def drawn(seed: int):
        return battery(CertOptions(bot_seed=seed, vector_states=40, generated_states=5, kind_states=PER_KIND))

    first, again, other = drawn(7), drawn(7), drawn(8)
    assert json.dumps([(b.id, b.state) for b in first]) == json.dumps([(b.id, b.state) for b in again])
    assert [b.id for b in first] == [b.id for b in other]
    assert sum(a != b for a, b in zip(_names(first), _names(other))) == len(first)  # every state differs
    plain = CertOptions(bot_seed=7, vector_states=40, generated_states=5, kind_states=PER_KIND)
    fixture = {"P0", "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "A", "B", "C", "D"}
    assert not fixture & {n for names in _names(first) for n in names}
    assert any(s["id"] != f"s{s['seat'] + 1}" for b in first for s in b.state["seats"])
    from conformance.bots.bot_cert import KIND_SEED, generated_states, vector_states
    # by id: the battery runs them in its own order, the most discriminating first (#35 item 4)
    by_id = {b.id: b.state for b in vector_states()[:40] + generated_states(5)}
    by_id |= {f"kind.{i:03d}": s for i, s in enumerate(stratified_states(PER_KIND, KIND_SEED))}
    assert len(by_id) == len(first)
    originals = [by_id[b.id] for b in first]
    for b, original in zip(first, originals):
        state = b.state
        assert schemas.errors("state", state) == [], b.id
        assert decision_kinds(state) == decision_kinds(original)
        rename = {old["id"]: new["id"] for old, new in zip(original["seats"], state["seats"])}
        assert sorted(rename.values()) == sorted(rename)  # the table's own ids, permuted
        assert state["you"]["id"] == rename[original["you"]["id"]]
        assert [a["id"] for a in state["actions"]] == [rename[a["id"]] for a in original["actions"]]
        assert [p["eligible"] for p in state["pots"]] == [[rename[i] for i in p["eligible"]] for p in original["pots"]]
        for h, h0 in zip(state["history"], original["history"]):
            for part in ("showdown", "winners"):
                assert [e["id"] for e in h[part]] == [rename[e["id"]] for e in h0[part]]
        assert {k: v for k, v in state.items() if k not in ("you", "seats", "pots", "actions", "history")} == \
            {k: v for k, v in original.items() if k not in ("you", "seats", "pots", "actions", "history")}
    assert battery(plain)[0].state == first[0].state


def test_the_battery_reports_kind_counts(mistake_reports):
    battery = mistake_reports["raise-above-max"].battery
    assert list(battery["kinds"]) == list(KINDS)
    assert battery["kindsRan"] == battery["kinds"]
    assert battery["sources"] == {"kind": battery["states"]}


def test_the_big_blinds_option_is_a_free_check_preflop():
    t = Tournament(["A", "B", "C"], seed=1)
    t.act("call")
    t.act("call")
    state = t.decision_state()  # the big blind, everyone limped
    assert "free-check-preflop" in decision_kinds(state) and "first-decision" not in decision_kinds(state)
    assert "facing-bet" not in decision_kinds(state)
    first = Tournament(["A", "B", "C"], seed=1).decision_state()
    assert {"facing-bet", "first-decision"} <= decision_kinds(first)


def test_raising_closed_and_the_capped_call():
    # s1 raises to 200, s2 (250 chips) shoves 50 more: less than a full raise, so s3 may re-raise
    # (it has not acted) but s1, facing the short all-in, may not: raising is closed for it.
    t = Tournament(["A", "B", "C"], seed=1, stacks=[10000, 250, 10000])
    t.act({"type": "raise", "amount": 200})
    t.act("allin")
    t.act("call")
    state = t.decision_state()
    assert state["you"]["id"] == "s1"
    assert {"raise-closed", "min-raise-null", "facing-short-all-in", "facing-bet"} <= decision_kinds(state)
    t = Tournament(["A", "B", "C"], seed=1, stacks=[10000, 10000, 400])
    t.act({"type": "raise", "amount": 1000})
    t.act("fold")
    state = t.decision_state()
    assert state["you"]["stack"] == state["toCall"] and "call-capped-all-in" in decision_kinds(state)


# ---- showing the author what failed ----------------------------------------------------------

def test_coverage_counts_only_the_states_that_ran():
    options = CertOptions(decision_ms=300, init_ms=1000, vector_states=10, generated_states=0, kind_states=3,
                          smoke_seats=(), node=False, full_table_hands=0)
    report = certify_file(ROOT / "tests" / "bots" / "bad" / "act-loop.js", options)
    battery = report.battery
    assert battery["answered"] == 1 and battery["notRun"] == battery["states"] - 1
    assert sum(battery["kindsRan"].values()) == len(decision_kinds(_first_state(options)))
    assert sum(battery["kinds"].values()) > sum(battery["kindsRan"].values())
    assert sum(n > 0 for n in battery["coverage"].values()) <= 3  # one state's features, not every feature
    from conformance.cli.commands.bot import summary_lines
    text = "\n".join(summary_lines(report))
    assert "every feature" not in text and "of the 1 states that ran" in text


def _first_state(options: CertOptions) -> dict:
    from conformance.bots.bot_cert import battery
    return battery(options)[0].state


def test_cli_reruns_one_state_by_id_or_file(tmp_path, capsys):
    from conformance.cli.main import main

    bot = str(MISTAKES / "raise-when-closed.js")
    report = certify_file(MISTAKES / "raise-when-closed.js", KINDS_ONLY)
    error = report.battery["errors"]["engine-invalid"]
    args = ["--states", "0", "--kinds", str(PER_KIND), "--full-hands", "0"]
    assert main(["bot", bot, *args, "--state", error["example"]]) == 1
    out = capsys.readouterr().out
    assert json.loads(out[:out.index("\nkinds:")]) == error["state"]  # the state, as JSON
    assert "minRaiseTo null" in out and "raise-not-allowed" in out and 'answer: {type: "raise"' in out
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(error), encoding="utf-8")  # the report's entry, saved as a file
    assert main(["bot", bot, "--state", str(saved)]) == 1
    assert "raise-not-allowed" in capsys.readouterr().out
    assert main(["bot", bot, *args, "--tables", "", "--save-failed", str(tmp_path / "failed")]) == 1
    (written,) = (tmp_path / "failed").iterdir()  # one error category: its first state
    entry = json.loads(written.read_text(encoding="utf-8"))
    assert entry["state"] == find_state(CertOptions(generated_states=0, kind_states=PER_KIND), entry["id"])
    capsys.readouterr()
    assert main(["bot", bot, "--state", str(written)]) == 1
    assert "raise-not-allowed" in capsys.readouterr().out
    fine = next(a["id"] for a in report.battery["answers"] if a["error"] is None)
    assert main(["bot", bot, *args, "--state", fine]) == 0
    assert "verdict: accepted" in capsys.readouterr().out
    assert main(["bot", bot, *args, "--state", "kind.999"]) == 2
    (tmp_path / "bad.json").write_text('{"handNumber": 1}', encoding="utf-8")
    assert main(["bot", bot, "--state", str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err
    assert "kind.999" in err and "not a decision state" in err and "'toCall' is a required property" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("body, words", [
    ("throw null;", "threw a non-Error value null"),
    ("throw 'no';", 'threw a non-Error value "no"'),
    ("return {type: 'raise', amount: null};", "got null"),
    ("return {type: 'raise', amount: 10n};", "got BigInt 10n"),
    ("return {type: 'raise', amount: NaN};", "got NaN"),
    ("return {type: undefined};", "unknown action type undefined"),
    ("return 'Check';", 'unknown action string "Check"'),
    ("return true;", "got true"),
])
def test_messages_speak_javascript(body, words):
    options = CertOptions(vector_states=3, generated_states=0, kind_states=0, smoke_seats=(), node=False,
                          full_table_hands=0)
    from conformance.bots.bot_cert import certify
    report = certify(f"module.exports = function act(s) {{ {body} }};", options)
    (reason,) = [r for r in report.reasons if r.category == "decision"]
    assert words in reason.message, reason.message
    for python in ("None", "NoneType", "nan", "True", "'no'", "JSValue"):
        assert python not in reason.message, reason.message


def test_the_shipped_default_states_are_what_generation_gives():
    # conformance/bots/battery_file.py: the default battery reads them from battery.json.gz instead of
    # generating them on every run; they must be exactly a fresh generation's.
    from conformance.bots import battery_file, random_states
    from conformance.bots.bot_cert import battery
    from conformance.vectors.gamespec import STRATEGIES
    shipped, fresh = battery_file.shipped(), battery_file.build()
    assert fresh["kinds"] == shipped["kinds"]
    states = {b.id: b.state for b in battery(CertOptions(bot_seed=1))}
    assert sum(1 for i in states if i.startswith("kind.")) == len(shipped["kinds"])
    assert sum(1 for i in states if i.startswith("generated.")) == len(shipped["generated"]) == battery_file.GENERATED
    # On any hypothesis version: the shipped states are exactly the reference's play of the shipped
    # games (no spare game), each game a draw the generator's strategy can make.
    games = shipped["games"]
    assert random_states.states_of(games, battery_file.GENERATED) == shipped["generated"]
    assert len(random_states.states_of(games[:-1], battery_file.GENERATED)) < battery_file.GENERATED
    schedules = [[list(level) for level in schedule] for schedule in random_states.SCHEDULES]
    for game in games:
        n = game["n"]
        assert n in (2, 9, 3, 6) and 0 <= game["seed"] < 2**32 and 0 <= game["pick"] <= 2**16, game
        assert len(game["stacks"]) == len(game["strategies"]) == n and set(game["stacks"]) <= set(random_states.STACKS)
        assert set(game["strategies"]) <= set(STRATEGIES) and game["schedule"] in schedules, game
        assert game["handsPerLevel"] in (1, 3, 12) and 1 <= game["maxHands"] <= 4, game
        assert game["board"] is None or game["board"] in random_states.TIED_BOARDS, game
    # Which games hypothesis draws from the seed depends on its version: compared when it is the file's.
    if fresh["hypothesis"] == shipped["hypothesis"]:
        assert fresh["games"] == games and fresh["generated"] == shipped["generated"]
