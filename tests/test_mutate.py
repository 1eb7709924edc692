"""``holdem-cert mutate`` (issue #37): StrykerJS's mutants of the bundled engine judged by the
certification's tests, the report in the mutation-testing-report schema, its HTML view in Chromium,
and clear errors for bad input.

The sample (``--sample 12 --sample-seed 3`` over the legality and hands families, ten fuzz games)
holds mutants of the betting round's code, the hand evaluator's tables (made while the engine loads:
a static mutant) and code those families never reach; its statuses are checked one by one where the
reason is known (docs/INTERPRETING.md, Mutation score)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft7Validator

from conformance.mutate import score, stryker
from conformance.mutate.session import COVER_HELPER, NAMESPACE_HELPER, loaded_active

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "reference" / "js" / "poker-engine.js"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def line_of(text: str) -> int:
    """The engine's line holding ``text`` (1-based): lines move as comments are added, the code does not."""
    found = [k for k, line in enumerate(ENGINE.read_text(encoding="utf-8").splitlines(), 1) if text in line]
    assert len(found) == 1, (text, found)
    return found[0]


REFUND = line_of("else if (b > second) second = b")  # refundUncalled (R12): the second-largest bet
TOP3 = line_of("TOP3[m] = TOP_RANK[m] * B3 + TOP2[rest] / 15")  # the evaluator's tables, made at load
IDS_CHECK = line_of("if (!Array.isArray(ids) || (ids.length - 2) >>> 0 > 7) {")  # a hand spec's ids: an array
PROFILES = line_of("profiles: Object.freeze(['helpers'")  # the profiles the engine declares
NODE_BRANCH = line_of("if (self === moduleExports) {")  # the module wrapper's CommonJS case
FROZEN_DECK = line_of("const CANONICAL_DECK = Object.freeze(DECK.slice());")  # made at load, equivalent (disabled)
FROZEN_COLUMN = ENGINE.read_text(encoding="utf-8").splitlines()[FROZEN_DECK - 1].index("DECK.slice()") + 1
NEXT_TO_ACT = line_of("if (bet[s] < cb || (acted[s] === NOT_ACTED && solvent >= 2)) return s;")  # R11
WITH_CHIPS = line_of("if (withChips < 2) throw optionError('stacks'")  # a hand spec's count of seats with chips
# Game.recover (holdem-sng-3-v4's auto-fold only): no test of the sample reaches it, smoke.module's calls
# of every API function included.
RECOVER_CHIPS = line_of("if (!this.autoFolded[seat]) { // a seat the game lacks")  # a seat not in auto-fold
RECOVER_COLUMN = ENGINE.read_text(encoding="utf-8").splitlines()[RECOVER_CHIPS - 1].index("!this.autoFolded") + 1
UNKNOWN_TYPE = line_of("unknown action type ${show(kind)}")  # a refusal's message (disabled), its code next line
# The sample: the code of these lines (Stryker selects by range: lines, unlike a seeded draw from the
# list of mutants, do not move when a disable comment elsewhere changes that list), judged on two
# families and five fuzz games of a fixed seed (derived from the engine's bytes, any edit of the engine
# would draw other games: the refusal code's mutant below is killed by one of these five).
SAMPLE = [*(a for a, b in ((REFUND, REFUND), (TOP3, TOP3), (NEXT_TO_ACT, NEXT_TO_ACT), (WITH_CHIPS, WITH_CHIPS),
                           (RECOVER_CHIPS, RECOVER_CHIPS), (UNKNOWN_TYPE, UNKNOWN_TYPE + 1))
            for a in ("--lines", f"{a}-{b}")),
          "--family", "legality", "--family", "hands", "--fuzz-games", "5", "--fuzz-seed", "603218399", "--jobs", "2"]


def _stryker() -> tuple[str, Path]:
    try:
        return stryker.stryker_node(), stryker.install()
    except stryker.Unavailable as exc:
        pytest.skip(f"StrykerJS cannot run here: {exc}")


def cli(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "conformance", "mutate", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """One run of the sample: (the process, the JSON report, the HTML directory)."""
    _stryker()
    out = tmp_path_factory.mktemp("mutate")
    run = cli(str(ENGINE), *SAMPLE, "--json", str(out / "mutants.json"), "--html", str(out / "html"))
    assert run.returncode == 0, run.stdout + run.stderr
    return run, json.loads((out / "mutants.json").read_text(encoding="utf-8")), out / "html"


def by_place(report: dict) -> dict[tuple[int, int, str], dict]:
    """Each mutant by (line, column, replacement): Stryker's ids number the run's mutants, not the code."""
    return {(m["location"]["start"]["line"], m["location"]["start"]["column"], m["replacement"]): m
            for _, m in score.mutants(report)}


def test_the_sample_mutants_statuses(sample):
    run, report, _ = sample
    mutants = by_place(report)
    # refundUncalled (R12): `else if (b > second) second = b`. With `>=`, b == second assigns the value
    # second already holds: no input tells them apart (an equivalent mutant), excluded in the engine with
    # Stryker's disable comment, whose reason the report keeps: Ignored (docs/mutation.md).
    assert mutants[(REFUND, 69, "b >= second")]["status"] == "Ignored"
    # The evaluator's rank tables are filled while the engine loads (a static mutant: every test runs,
    # from a fresh load with it active); a wrong TOP2 misranks a showdown of the hands family.
    static = mutants[(TOP3, 34, "TOP2[rest] * 15")]
    assert static["status"] == "Killed" and static["static"] is True
    # nextToAct (R11): `bet[s] < cb || (acted[s] === NOT_ACTED && solvent >= 2)`: a wrong comparison
    # asks the wrong seat to act, or nobody, at once.
    assert mutants[(NEXT_TO_ACT, 13, "bet[s] <= cb")]["status"] == "Killed"
    assert mutants[(NEXT_TO_ACT, 55, "solvent > 2")]["status"] == "Killed"
    # A hand spec's `withChips < 2`: the blinds check after it already needs two different seats with
    # chips, so no input tells `false` from it: Ignored, with its reason.
    ignored = mutants[(WITH_CHIPS, 9, "false")]
    assert ignored["status"] == "Ignored" and "blinds check" in ignored["statusReason"]
    # Recovering from auto-fold belongs to holdem-sng-3-v4, not run here: no test reaches it.
    assert mutants[(RECOVER_CHIPS, RECOVER_COLUMN, "true")]["status"] == "NoCoverage"
    # A refusal's message is never judged (any refusal passes): Ignored with its reason; the refusal's
    # code, which submit() returns, is judged: on the next line, not excluded, and killed.
    message = [m for (line, _, _), m in mutants.items() if line == UNKNOWN_TYPE and m["mutatorName"] == "StringLiteral"]
    assert message and all(m["status"] == "Ignored" and "any refusal passes" in m["statusReason"] for m in message)
    assert mutants[(UNKNOWN_TYPE + 1, 11, '""')]["status"] == "Killed"
    # Every Killed names the vectors that killed it, each a test of the run that reaches the mutant.
    tests = {t["id"] for f in report["testFiles"].values() for t in f["tests"]}
    assert "smoke.showdown" in tests and "legality.raise-when-closed" in tests
    for _, m in score.mutants(report):
        assert m["status"] in ("Killed", "Survived", "NoCoverage", "Ignored"), m
        if m["status"] == "Killed":
            assert m["killedBy"] and set(m["killedBy"]) <= tests, m
            assert m.get("static") or set(m["killedBy"]) <= set(m["coveredBy"]), m
        if m["status"] == "NoCoverage":
            assert not m.get("coveredBy"), m
        if m["status"] == "Ignored":
            assert m["statusReason"], m  # the disable comment's reason
    # The terminal: the counts, the score, and each survivor with its line and replacement (the
    # Ignored are not survivors).
    tally = score.counts(report)
    assert f"{tally['Killed']} Killed" in run.stdout and f"{tally['Survived']} Survived" in run.stdout
    assert f"mutation score: {score.score(tally):.2f}%" in run.stdout
    assert f"poker-engine.js:{RECOVER_CHIPS}:{RECOVER_COLUMN} ConditionalExpression -> true  (no test reaches it)" in run.stdout
    assert f"poker-engine.js:{WITH_CHIPS}:9 ConditionalExpression -> false" not in run.stdout


def test_the_report_validates_against_the_mutation_testing_report_schema(sample):
    _, report, _ = sample
    schema = json.loads(stryker.report_schema(_stryker()[1]).read_text(encoding="utf-8"))
    errors = sorted(Draft7Validator(schema).iter_errors(report), key=lambda e: list(e.absolute_path))
    assert not errors, errors[0].message
    assert list(report["files"]) == ["poker-engine.js"]  # the engine's own source only
    assert report["files"]["poker-engine.js"]["source"] == ENGINE.read_text(encoding="utf-8")


def test_the_report_is_the_same_whatever_order_the_runners_finish_in():
    mutant = {"mutatorName": "EqualityOperator", "replacement": "a <= b", "status": "Killed",
              "location": {"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 5}}}
    tests = {"": {"tests": [{"id": "0", "name": "smoke.load"}, {"id": "1", "name": "hands.x"}]}}

    def report(order):
        return {"files": {"e.js": {"language": "javascript", "source": "a < b", "mutants": [
            {**mutant, "id": i, "killedBy": ["1"], "coveredBy": ["1"]} for i in order]}},
            "testFiles": json.loads(json.dumps(tests)), "projectRoot": f"/tmp/scratch-{order[0]}", "schemaVersion": "1"}
    one, two = score.normalized(report(["2", "10", "1"]), "/e"), score.normalized(report(["10", "1", "2"]), "/e")
    assert json.dumps(one) == json.dumps(two)
    assert [m["id"] for m in one["files"]["e.js"]["mutants"]] == ["1", "2", "10"]
    assert one["files"]["e.js"]["mutants"][0]["killedBy"] == ["hands.x"] and one["projectRoot"] == "/e"


def test_score_counts_detected_over_valid_mutants():
    from collections import Counter
    assert score.score(Counter(Killed=6, Timeout=1, Survived=2, NoCoverage=1, Ignored=5, RuntimeError=3)) == 70.0
    assert score.score(Counter(Ignored=2)) is None


PROBE = """<script>
window.addEventListener('load', function () {
  setTimeout(function () {
    var app = document.querySelector('mutation-test-report-app'), text = '';
    (function walk(n) {
      if (n.shadowRoot) walk(n.shadowRoot);
      for (var c = n.firstChild; c; c = c.nextSibling) { if (c.nodeType === 3) text += c.nodeValue + ' '; else walk(c); }
    })(app);
    var pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = text.replace(/\\s+/g, ' ');
    document.body.appendChild(pre);
  }, 3000);
});
</script>"""


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_the_html_view_renders_the_mutants_in_chromium(sample, tmp_path):
    _, report, html_dir = sample
    html = (html_dir / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"<script[^>]+src=|<link[^>]+href=\"?https?:", html)  # self-contained: no network
    embedded = re.search(r"app\.report = (\{.*\});\n", html)
    assert embedded and json.loads(embedded.group(1)) == report  # the view shows the JSON report itself
    page = tmp_path / "page.html"
    page.write_text(html.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=15000",
                          "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120).stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    text = found.group(1)
    # mutation-testing-elements drew its table of files (from the report in the page, not the page's text):
    # the engine's row with the run's score and counts.
    tally = score.counts(report)
    row = re.search(r"poker-engine\.js ([\d.]+) [\d.]+ (\d+) (\d+) \d+ (\d+)", text)
    assert "Mutation Score" in text and row, text[:2000]
    assert row.groups() == (f"{score.score(tally):.2f}", str(tally["Killed"]), str(tally["Survived"]),
                            str(tally["NoCoverage"])), text[:2000]


def test_an_engine_file_that_is_missing_is_a_clear_error(tmp_path):
    _stryker()
    run = cli(str(tmp_path / "absent.js"), timeout=120)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "absent.js" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("source, said", [("throw new Error('no engine today');", "no engine today"),
                                          ("var PokerEngine = {;", "does not parse")])
def test_an_engine_that_does_not_load_is_a_clear_error(tmp_path, source, said):
    _stryker()
    engine = tmp_path / "broken.js"
    engine.write_text(source, encoding="utf-8")
    run = cli(str(engine), "--json", str(tmp_path / "out.json"), timeout=120)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "the engine does not load" in run.stderr and said in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "out.json").exists()


def test_lines_mutate_only_the_code_of_those_lines(tmp_path):
    _stryker()
    line = next(k for k, text in enumerate(ENGINE.read_text(encoding="utf-8").splitlines(), 1)
                if "if (bet[s] < cb || (acted[s] === NOT_ACTED && solvent >= 2)) return s;" in text)  # nextToAct (R11)
    run = cli(str(ENGINE), "--lines", f"{line}-{line}", "--family", "hands", "--fuzz-games", "1", "--jobs", "1",
              "--json", str(tmp_path / "out.json"), timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    places = {(m["location"]["start"]["line"], m["replacement"]): m["status"] for _, m in score.mutants(report)}
    assert {at for at, _ in places} == {line}
    assert places[(line, "bet[s] <= cb")] == "Killed"
    assert f"lines {line}-{line})" in run.stdout


def test_a_mutant_that_only_makes_a_vector_divergent_is_killed_naming_the_ruling(tmp_path):
    """buildPots without its empty-id check returns pots for an id of "": R38 leaves such input open, so the
    vector is divergent on R38, not failed; the certification still tells the mutant from the original."""
    _stryker()
    line = next(k for k, text in enumerate(ENGINE.read_text(encoding="utf-8").splitlines(), 1)
                if "if (typeof id !== 'string' || id === '')" in text)
    run = cli(str(ENGINE), "--lines", f"{line}-{line}", "--family", "pots", "--fuzz-games", "1", "--jobs", "1",
              "--json", str(tmp_path / "out.json"), timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    accepting = [m for _, m in score.mutants(report) if m["mutatorName"] == "ConditionalExpression"
                 and m["replacement"] == "false" and m["location"]["start"]["line"] == line]
    assert accepting and all(m["status"] == "Killed" for m in accepting), accepting  # the check, or either half
    for m in accepting:
        assert m["statusReason"].startswith("pots.error.") and ": divergent on R38" in m["statusReason"], m
    by_divergence = sum(1 for _, m in score.mutants(report) if ": divergent on " in m.get("statusReason", ""))
    assert f"Killed ({by_divergence} of them only as a proven ruling divergence)" in run.stdout


def test_a_runner_that_did_not_run_the_dry_run_judges_a_mutant_as_the_one_that_did(tmp_path):
    """Stryker runs the dry run in one of its test runners (--jobs 2: one of two). The others must learn
    from it which tests the original passes: without it a divergence detected nothing there (the full
    run at 4eae0b2 left such mutants Survived that `--lines --jobs 1` kills), and a test the original
    fails would have killed every static mutant."""
    from conformance.mutate.session import DRY_RUN_FILE, Plan, Session
    from conformance.vectors import fresh_vectors
    node, prefix = _stryker()
    instrumented = tmp_path / ENGINE.name
    mutants = stryker.list_mutants(node, prefix, ENGINE, instrumented)
    line = line_of("if (typeof id !== 'string' || id === '')") - 1
    accepting = [m for m in mutants if m["location"]["start"]["line"] == line and m["replacement"] == "false"
                 and m["mutatorName"] == "ConditionalExpression"]
    seed = fresh_vectors.engine_seed([ENGINE.read_text(encoding="utf-8")], None)
    plan = Plan(str(ENGINE), (), None, ("pots",), ("helpers",), "contract-v1", seed, seed, 1, 10_000, node)
    said = tmp_path / DRY_RUN_FILE
    dry, other = Session(plan, said=str(said)), Session(plan, said=str(said))
    try:
        dry.init(str(instrumented))
        dry_out = dry.dry_run()
        said.write_text(json.dumps({"left": dry_out["left"], **dry.dry_run_said()}), encoding="utf-8")
        other.init(str(instrumented))
        assert accepting
        for m in accepting:
            args = (m["id"], None, False, None, True, m["location"], m["replacement"])
            there, here = dry.mutant_run(*args), other.mutant_run(*args)
            assert there["status"] == "killed" and "divergent on R38" in there["failure"], there
            assert here == there
        assert set(other.kept) == set(dry.kept) and other.passed == dry.passed
    finally:
        dry.close()
        other.close()


@pytest.mark.parametrize("lines, said", [("5-2", "expected 1 <= A <= B"), ("x", "expected lines as A-B"),
                                         ("1-99999", "has 1")])
def test_lines_outside_the_engine_are_a_clear_error(lines, said):
    run = cli(str(ENGINE), "--lines", lines, timeout=120)
    assert run.returncode == 2 and said in run.stderr and "--lines" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


def test_the_instrumented_engine_has_the_helpers_the_session_names(tmp_path):
    node, prefix = _stryker()
    instrumented = tmp_path / "engine.js"
    mutants = stryker.list_mutants(node, prefix, ENGINE, instrumented)
    text = instrumented.read_text(encoding="utf-8")
    assert f"function {NAMESPACE_HELPER}()" in text and f"function {COVER_HELPER}()" in text
    assert len(mutants) > 1000 and {m["mutatorName"] for m in mutants} >= {"EqualityOperator", "StringLiteral"}


def test_a_mutant_active_at_load_keeps_the_directive_prologue():
    text = "'use strict';\nfunction stryNS_9fa48() { return 1; }\nvar x = 1;\n"
    out = loaded_active(text, "7")
    assert out.startswith("'use strict';\nglobalThis.__stryker__ = {\"activeMutant\": \"7\"};\nfunction stryNS_9fa48()")
    with pytest.raises(ValueError, match="no stryNS_9fa48 head"):
        loaded_active("var x = 1;", "7")


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    """A certification session (what each Stryker test runner runs) on the instrumented bundled engine,
    judging on the legality and hands families, and Stryker's mutants of it by (line, column, replacement)
    in the report's numbering (1-based lines and columns)."""
    from conformance.mutate.session import Plan, Session
    from conformance.vectors import fresh_vectors
    node, prefix = _stryker()
    instrumented = tmp_path_factory.mktemp("instrumented") / ENGINE.name
    mutants = stryker.list_mutants(node, prefix, ENGINE, instrumented)
    seed = fresh_vectors.engine_seed([ENGINE.read_text(encoding="utf-8")], None)
    plan = Plan(str(ENGINE), (), None, ("legality", "hands"), ("tournament",), "contract-v1", seed, seed, 2, 10_000, node)
    s = Session(plan)
    assert s.init(str(instrumented)) == {"tests": len(s.tests)}
    places = {(m["location"]["start"]["line"] + 1, m["location"]["start"]["column"] + 1, m["replacement"]): m
              for m in mutants}
    yield s, places
    s.close()


def run_mutant(session, place, static=False, tests=None):
    s, places = session
    m = places[place]
    return s.mutant_run(m["id"], tests, static, None, True, m["location"], m["replacement"])


def test_a_static_mutant_that_changes_the_declared_profiles_is_killed_at_load(session):
    # `profiles: Object.freeze([...])` emptied: the engine declares no profile, so certification would
    # certify nothing of what the original is certified for; the engine's load tells.
    out = run_mutant(session, (PROFILES, 29, "[]"), static=True)
    assert out["status"] == "killed" and out["killedBy"] == ["smoke.load"], out
    assert "declares profiles []" in out["failure"]


def test_a_static_mutant_runs_every_test_on_its_own_text_and_survives_when_equivalent(session):
    # CANONICAL_DECK frozen from DECK itself instead of a copy (an equivalent mutant, disabled in the
    # engine, which a session still runs when asked): every test runs (static) and none can tell.
    s, _ = session
    out = run_mutant(session, (FROZEN_DECK, FROZEN_COLUMN, "DECK"), static=True)
    assert out == {"status": "survived", "tests": len(s.kept)}, out


def test_the_session_runs_the_commonjs_check_which_kills_the_module_wrapper_s_node_branch(session):
    # `self === moduleExports` -> false: in the worker the engine loads as before; required in Node it
    # sets the global and exports nothing, which the certification's CommonJS check (smoke.module,
    # engine.commonjs) tells.
    s, _ = session
    assert s.tests[0].id == "smoke.module"
    out = run_mutant(session, (NODE_BRANCH, 7, "false"), static=True)
    assert out["status"] == "killed" and out["killedBy"] == ["smoke.module"], out
    assert "breaks engine.commonjs" in out["failure"]


def test_a_mutant_run_is_deterministic_and_stops_at_the_first_failure(session):
    s, _ = session
    tests = [t.id for t in s.tests]
    first = run_mutant(session, (NEXT_TO_ACT, 13, "bet[s] <= cb"), tests=tests)
    again = run_mutant(session, (NEXT_TO_ACT, 13, "bet[s] <= cb"), tests=tests)
    assert first == again and first["status"] == "killed" and len(first["killedBy"]) == 1, first
    assert first["tests"] == tests.index(first["killedBy"][0]) + 1  # bail: nothing after the first failure
    # createHand's array check of the ids as false: the legality and hands families never call
    # createHand (hand.error.ids-a-string-of-distinct-letters does): every test runs, none tells.
    assert run_mutant(session, (IDS_CHECK, 9, "false"), tests=tests) == {"status": "survived", "tests": len(tests)}


def test_a_mutant_that_changes_the_engine_s_own_state_leaves_nothing_for_the_next(tmp_path):
    """dealHand shuffling the engine's canonical deck in place (`DECK.slice()` made `DECK`) is killed by
    the deck family, and leaves that deck shuffled: the next mutant must run on a fresh engine, or it is
    judged on what the first left (one that changes nothing would be 'killed')."""
    from conformance.mutate.session import Plan, Session
    from conformance.vectors import fresh_vectors
    node, prefix = _stryker()
    instrumented = tmp_path / ENGINE.name
    mutants = stryker.list_mutants(node, prefix, ENGINE, instrumented)
    line = line_of("const deck = DECK.slice();") - 1
    poison = next(m for m in mutants if m["location"]["start"]["line"] == line and m["replacement"] == "DECK")
    seed = fresh_vectors.engine_seed([ENGINE.read_text(encoding="utf-8")], None)
    s = Session(Plan(str(ENGINE), (), None, ("deck",), ("helpers",), "contract-v1", seed, seed, 2, 10_000, node))
    try:
        s.init(str(instrumented))
        s.dry_run()
        tests = [t.id for t in s.tests]
        first = s.mutant_run(poison["id"], tests, False, None, True, poison["location"], poison["replacement"])
        assert first["status"] == "killed", first
        assert s.mutant_run("no-such-mutant", tests, False, None, True) == {"status": "survived", "tests": len(tests)}
    finally:
        s.close()


def test_spliced_puts_the_replacement_at_strykers_location():
    from conformance.mutate.session import spliced
    text = "let a = 1;\nif (x < 2) {\n  y();\n}\n"
    assert spliced(text, {"start": {"line": 1, "column": 4}, "end": {"line": 1, "column": 9}}, "x >= 2") == \
        "let a = 1;\nif (x >= 2) {\n  y();\n}\n"
    assert spliced(text, {"start": {"line": 1, "column": 11}, "end": {"line": 3, "column": 1}}, "{}") == \
        "let a = 1;\nif (x < 2) {}\n"


def test_a_mutant_past_its_hit_limit_is_a_timeout(session):
    # Stryker's hit limit (a hundred times the dry run's hits) ends an endless loop; here a tiny one on a
    # mutant the betting round runs at every street.
    s, places = session
    m = places[(NEXT_TO_ACT, 55, "solvent > 2")]
    out = s.mutant_run(m["id"], [t.id for t in s.tests], False, 2, True, m["location"], m["replacement"])
    assert out["status"] == "timeout" and "hit limit 2 reached" in out["reason"], out


def _processes_in(directory: Path) -> list[int]:
    """The processes whose working directory is inside ``directory`` (Stryker, its runners, their sessions)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and str(directory) in os.readlink(proc / "cwd"):
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def test_ctrl_c_writes_no_report_and_leaves_nothing_running(tmp_path):
    import signal
    import time
    _stryker()
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen([sys.executable, "-m", "conformance", "mutate", str(ENGINE), *SAMPLE,
                             "--json", str(tmp_path / "out.json"), "--html", str(tmp_path / "html")],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list(scratch.glob("holdem-mutate-*/.stryker-tmp/sandbox-*")) and time.monotonic() < deadline:
        time.sleep(0.2)  # Stryker has made its sandbox: its runners start now
    assert proc.poll() is None, proc.communicate()
    time.sleep(1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    assert "interrupted" in err and "Traceback" not in err
    assert not (tmp_path / "out.json").exists() and not (tmp_path / "html").exists()
    assert list(scratch.iterdir()) == []  # Stryker's scratch directory is gone
    time.sleep(1)
    assert _processes_in(scratch) == []


def test_without_npm_and_stryker_the_error_says_so(tmp_path):
    node, _ = _stryker()
    env = {**os.environ, "HOLDEM_CACHE": str(tmp_path / "cache"), "HOLDEM_NODE": node, "PATH": str(tmp_path),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    run = subprocess.run([sys.executable, "-m", "conformance", "mutate", str(ENGINE), "--json", str(tmp_path / "o.json")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "@stryker-mutator/core 10.1.1 is not in" in run.stderr and "npm is not on PATH" in run.stderr, run.stderr
    assert not (tmp_path / "o.json").exists()


def with_replaced(tmp_path: Path, name: str, function: str, family: str) -> subprocess.CompletedProcess:
    """The sample's command on the bundled engine with ``PokerEngine[name]`` replaced by ``function`` (an
    adapter; ``original`` is the engine's), judged on ``family`` only: one mutant's code, one job."""
    _stryker()
    adapter = tmp_path / "adapter.js"
    adapter.write_text(f"var original = PokerEngine; PokerEngine = Object.assign({{}}, original, {{{name}: {function}}});\n",
                       encoding="utf-8")
    return cli(str(ENGINE), "--adapter", str(adapter), "--family", family, "--sample", "1", "--jobs", "1",
               "--json", str(tmp_path / "out.json"))


def test_tests_the_original_fails_are_left_out_and_said(tmp_path):
    # rng broken for seed 42 only: the vectors of that seed cannot kill a mutant.
    run = with_replaced(tmp_path, "rng", "function (seed) { return seed === 42 ? function () { return 0.5; } : "
                                         "original.rng(seed); }", "rng")
    assert run.returncode == 0, run.stdout + run.stderr
    said = re.search(r"left out: (\d+) tests? the original engine does not pass: (.*)", run.stdout)
    assert said and "rng." in said.group(2) and "failed" in said.group(2), run.stdout
    report = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    tests = {t["id"] for f in report["testFiles"].values() for t in f["tests"]}
    left = re.findall(r"(rng\.[\w.-]+) \(failed", said.group(2))
    assert left and not set(left) & tests  # not among the run's tests
    assert all(t == "smoke.load" or t.startswith("rng.") for t in tests) and len(tests) > 30, tests


def test_an_engine_that_fails_the_smoke_tier_is_a_clear_error(tmp_path):
    run = with_replaced(tmp_path, "create", "function () { throw new Error('no tables today'); }", "hands")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "the engine fails the smoke tier (smoke.showdown" in run.stderr and "no tables today" in run.stderr
    assert "Traceback" not in run.stderr and not (tmp_path / "out.json").exists()


def test_a_second_run_writes_the_same_bytes(sample, tmp_path):
    # Two runners finish mutants in any order; the report, its view and the terminal's text are the same.
    first, report, html_dir = sample
    run = cli(str(ENGINE), *SAMPLE, "--json", str(tmp_path / "again.json"), "--html", str(tmp_path / "html"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert (tmp_path / "again.json").read_bytes() == (html_dir.parent / "mutants.json").read_bytes()
    assert (tmp_path / "html" / "index.html").read_bytes() == (html_dir / "index.html").read_bytes()
    assert run.stdout == first.stdout
    assert "Timeout" not in score.counts(report)  # the one status that may differ between runs


def test_a_static_mutant_whose_text_does_not_parse_runs_on_the_instrumented_build(session):
    # Were Stryker's printed replacement not to fit the original's text, the mutant still runs: switched on
    # in the instrumented build from its first statement (here CANONICAL_DECK's equivalent mutant).
    s, places = session
    m = places[(FROZEN_DECK, FROZEN_COLUMN, "DECK")]
    out = s.mutant_run(m["id"], None, True, None, True, m["location"], "((")
    assert out == {"status": "survived", "tests": len(s.kept)}, out
    assert "globalThis.__stryker__" in s.driver.engine_source  # the instrumented build, loaded active
