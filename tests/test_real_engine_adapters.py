"""The adapters of the real engines (conformance/implementations/): pokerkit over the protocol and
poker-ts in QuickJS. They must only reshape: what they report is the engine's, and the judge
(not the adapter) finds the differences, which docs/implementations.md explains
(conformance/implementations/findings.toml)."""
from __future__ import annotations

import json
import os
import shlex
import stat
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
import quickjs

from conformance.implementations import findings, poker_ts
from conformance.implementations.pokerkit_engine import run_hand
from conformance.judge.engine_cert import certify, load_tests
from conformance.judge.engine_drivers import CommandDriver, QuickJSDriver
from conformance.report.formats import to_json as report_json
from reference.hand import complete_deck

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
SPEC = {"ids": ["a", "b", "c"], "stacks": [1000, 1000, 1000], "button": 2, "smallBlindSeat": 0,
        "bigBlindSeat": 1, "blinds": [50, 100], "deck": ["Ah", "Kd", "Qs", "Ad", "Kh", "Qc"]}


# ---- pokerkit over the protocol -----------------------------------------------------------------

def protocol(*requests: dict) -> list[dict]:
    lines = "".join(json.dumps(r) + "\n" for r in (*requests, {"cmd": "stop"}))
    done = subprocess.run([sys.executable, "-m", "conformance.implementations.pokerkit_engine"], input=lines,
                          capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_pokerkit_declares_the_hand_profile_and_its_installed_version():
    start, skipped = protocol({"cmd": "start", "version": 1},
                              {"cmd": "run", "seq": 1, "vector": {"family": "rng", "test": {"input": {}}}})
    assert start["implementation"] == {"name": "pokerkit", "version": version("pokerkit"), "language": "python"}
    assert start["profiles"] == ["hand"]
    assert "hand profile only" in skipped["skipped"]["reason"]


def test_pokerkit_deals_the_pinned_cards_in_the_contracts_order():
    """Hole cards one at a time from the left of the button (seat 0 here), a burn before the flop."""
    out = run_hand({"hand": SPEC, "script": ["call", "call", "check"]})
    assert [d["you"]["cards"] for d in out["decisions"]] == [["Qs", "Qc"], ["Ah", "Ad"], ["Kd", "Kh"]]
    assert out["result"] is None and not out["over"]
    flop = run_hand({"hand": SPEC, "script": ["call", "call", "check", "check"]})["decisions"][3]
    assert flop["board"] == complete_deck(SPEC["deck"])[7:10]  # six hole cards, a burn, three cards


def test_pokerkit_reports_its_refusals_with_the_contracts_code():
    out = run_hand({"hand": SPEC, "script": [{"type": "raise", "amount": 150}]})
    assert out["actions"][0]["threw"]["code"] == "amount-below-min"
    assert "pokerkit" in out["actions"][0]["threw"]["message"]
    out = run_hand({"hand": SPEC, "script": ["check"]})
    assert out["actions"][0]["threw"]["code"] == "check-not-allowed"


def test_pokerkit_names_the_field_of_a_spec_it_cannot_read():
    out = run_hand({"hand": {**SPEC, "deck": ["Ah", "Ah"]}, "script": []})
    assert out["error"]["at"] == "createHand" and out["error"]["field"].startswith("deck")
    out = run_hand({"hand": {k: v for k, v in SPEC.items() if k != "blinds"}, "script": []})
    assert out["error"]["field"] == "blinds"


def test_pokerkit_skips_blinds_it_cannot_place():
    """pokerkit puts the blinds by position: a spec with them elsewhere is skipped with the reason."""
    skipped, = protocol({"cmd": "run", "seq": 1, "vector": {"family": "hand", "test": {"input": {
        "hand": {**SPEC, "smallBlindSeat": 1, "bigBlindSeat": 0}, "script": []}}}})
    assert "pokerkit puts the button and blinds by position" in skipped["skipped"]["reason"]


# ---- poker-ts: the CommonJS prelude and the installer -------------------------------------------

def fake_package(root: Path, files: dict[str, str], main: str = "dist/index.js") -> Path:
    package = root / "npm" / "node_modules" / poker_ts.PACKAGE
    for name, text in files.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text, encoding="utf-8")
    (package / "package.json").write_text(json.dumps({"version": poker_ts.VERSION, "main": main}), encoding="utf-8")
    return package


def test_commonjs_prelude_runs_each_module_once_resolving_relative_paths(tmp_path):
    package = fake_package(tmp_path, {
        "dist/index.js": 'exports.table = require("./lib/table"); exports.same = exports.table === require("./lib/table");',
        "dist/lib/table.js": 'var c = require("../util/count"); c.n += 1; exports.n = c.n;'
                             'exports.ok = (function () { require("assert")(true, "never"); return 1; })();',
        "dist/util/count.js": "exports.n = 0;",
    })
    ctx = quickjs.Context()
    ctx.eval(poker_ts.PRELUDE.read_text(encoding="utf-8") + "\n;\n" + poker_ts.bundle(package))
    assert ctx.eval('JSON.stringify(require("poker-ts"))') == '{"table":{"n":1,"ok":1},"same":true}'
    message = ctx.eval('try { require("assert")(false, "the reason") } catch (e) { e.name + ": " + e.message }')
    assert message == "AssertionError: the reason"
    assert "no module" in ctx.eval('try { require("./nowhere") } catch (e) { e.message }')


def test_bundle_keeps_every_module_verbatim(tmp_path):
    text = "var x = 1; // a comment\n/* and */ exports.x = x;\n"
    package = fake_package(tmp_path, {"dist/index.js": text})
    assert text in poker_ts.bundle(package)


def test_install_without_npm_is_unavailable_with_the_reason(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(poker_ts.Unavailable, match="npm is not on PATH"):
        poker_ts.install(tmp_path / "cache")


def test_install_runs_npm_when_absent_and_says_so(tmp_path, monkeypatch, capsys):
    """A stand-in npm on PATH: the installer calls it with the pinned version, says so, then finds it."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text("#!/bin/sh\n"  # npm install --prefix DIR ... poker-ts@VERSION
                   'echo "$@" > "$3/args"; mkdir -p "$3/node_modules/poker-ts"\n'
                   f"echo '{{\"version\": \"{poker_ts.VERSION}\"}}' > \"$3/node_modules/poker-ts/package.json\"\n")
    npm.chmod(npm.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    cache = tmp_path / "cache"
    assert poker_ts.install(cache, log=sys.stderr) == cache / "npm" / "node_modules" / "poker-ts"
    assert f"installing poker-ts {poker_ts.VERSION} with npm" in capsys.readouterr().err
    assert f"poker-ts@{poker_ts.VERSION}" in (cache / "npm" / "args").read_text()
    poker_ts.install(cache, log=sys.stderr)  # present now: npm is not run again, nothing said
    assert capsys.readouterr().err == ""


def test_a_failing_npm_is_unavailable_with_its_message(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text("#!/bin/sh\necho 'npm ERR! network request failed' >&2\nexit 1\n")
    npm.chmod(npm.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(bin_dir))
    with pytest.raises(poker_ts.Unavailable, match="network request failed"):
        poker_ts.install(tmp_path / "cache", log=open(os.devnull, "w"))


# ---- findings: every judged difference explained, or listed as unexplained ------------------------

def test_findings_file_is_well_formed():
    from conformance.vectors.clauses import CLAUSES
    from reference.rulings import RULINGS
    loaded = findings.load()
    assert {f.implementation for f in loaded} == {"pokerkit", "poker-ts"}
    for f in loaded:
        assert set(f.clauses) <= set(CLAUSES), f.id
        # A ruling finding names a ruling with alternatives the judge replays, or R38, whose
        # divergence (invalid input taken) is judged without a replay (docs/rulings.md).
        assert f.kind != "ruling" or f.ruling in RULINGS and (RULINGS[f.ruling].alternatives() or f.ruling == "R38"), f.id
        assert f.what and f.reproduction and f.title, f.id


def test_explain_assigns_each_difference_once_and_lists_the_rest():
    from conformance.implementations.findings import Finding, explain
    fs = [Finding("e", "a", "bug", "A", "what a", "repro a", vectors=("v.listed",), clauses=("rules.split",)),
          Finding("e", "b", "convention", "B", "what b", "repro b", clauses=("rules.refund",), where="amount"),
          Finding("e", "c", "ruling", "C", "what c", "repro c", ruling="R13"),
          Finding("other", "d", "bug", "D", "what d", "repro d", clauses=("rules.end",))]
    failures = [{"id": "v.listed", "clause": ["rules.end"], "message": "over"},  # listed: whatever its clause
                {"id": "v2", "clause": ["rules.refund"], "message": "winners[0].amount expected 1, got 2"},
                {"id": "v3", "clause": ["rules.end"], "message": "over expected true"}]
    divergences = [{"id": "v4", "rulings": ["R13"], "message": "under R13"}]
    out = {f["id"]: f for f in explain("e", failures, divergences, fs)}
    assert {k: (v["vectors"], v["first"]["id"]) for k, v in out.items()} == {
        "a": (1, "v.listed"), "b": (1, "v2"), "c": (1, "v4"), "unexplained": (1, "v3")}
    assert out["unexplained"]["clauses"] == ["rules.end"]
    assert "d" not in out  # another implementation's


# ---- both engines judged on every hand vector -----------------------------------------------------

HAND_TESTS = load_tests(["hand"])
POKERKIT_CMD = f"{sys.executable} -m conformance.implementations.pokerkit_engine"


def pokerkit_variant(patch: str) -> CommandDriver:
    """The pokerkit adapter with ``patch`` (Python run after import, the module as ``m``) applied."""
    code = f"import conformance.implementations.pokerkit_engine as m\n{patch}\nm.main()"
    return CommandDriver(shlex.join([sys.executable, "-c", code]))


@pytest.fixture(scope="module")
def poker_ts_source() -> tuple[str, str]:
    """poker-ts's bundle with the CommonJS prelude, and the adapter (skipped when it cannot be installed)."""
    try:
        engine = poker_ts.engine_file(log=sys.stderr)
    except poker_ts.Unavailable as exc:
        pytest.skip(f"poker-ts unavailable: {exc}")
    source = poker_ts.PRELUDE.read_text(encoding="utf-8") + "\n;\n" + engine.read_text(encoding="utf-8")
    return source, poker_ts.ADAPTER.read_text(encoding="utf-8")


def poker_ts_driver(source: tuple[str, str], adapter_edit=lambda text: text) -> QuickJSDriver:
    return QuickJSDriver(source[0], engine_name=f"poker-ts-{poker_ts.VERSION}.js", adapter_source=adapter_edit(source[1]))


def judged(driver) -> dict:
    return report_json(certify(driver, HAND_TESTS, {}))


def check_explained(name: str, report: dict) -> dict:
    """Every difference is explained by a finding of ``name``, whose listed vectors do differ."""
    counts = report["families"]["hand"]
    assert sum(counts.values()) == len(HAND_TESTS["hand"]) >= 300
    # Skipped only where an invalid spec (R38) cannot be laid out in the engine at all.
    assert counts["skipped"] == len(report["skipped"]) and all(x["id"].startswith("hand.error.") for x in report["skipped"])
    explained = {f["id"]: f for f in findings.explain(name, report["failures"], report["divergences"])}
    assert "unexplained" not in explained, explained.get("unexplained")
    differing = {x["id"] for x in report["failures"] + report["divergences"]}
    for f in findings.load():
        if f.implementation == name:
            assert set(f.vectors) <= differing, (f.id, set(f.vectors) - differing)
    return explained


def test_pokerkit_on_every_hand_vector_differs_only_as_its_findings_say():
    report = judged(CommandDriver(POKERKIT_CMD))
    explained = check_explained("pokerkit", report)
    # Its rule alternatives are proven divergent (the reference under them reproduces every step);
    # its R9 and R13 rules are options the text rules out (issue #24): failures, diagnosed.
    divergent = {r for d in report["divergences"] for r in d["rulings"]}
    assert "R10" in divergent and not {"R9", "R13"} & divergent
    diagnosed = {r for f in report["failures"] for r in f.get("diagnosis", {})}
    assert {"R9", "R13"} <= diagnosed
    assert report["families"]["hand"]["passed"] >= 200  # the rest of its betting is the contract's
    assert {"fold-when-check-is-free", "fold-win-award", "equal-blinds-heads-up"} <= set(explained)


def test_poker_ts_on_every_hand_vector_differs_only_as_its_findings_say(poker_ts_source):
    report = judged(poker_ts_driver(poker_ts_source))
    explained = check_explained("poker-ts", report)
    assert {r for d in report["divergences"] for r in d["rulings"]} == {"R8", "R38"}
    assert explained["all-in-winner-loses-the-pot"]["vectors"] >= 1 and explained["quads-kicker"]["vectors"] >= 1


def test_an_adapter_that_decides_instead_of_reshaping_is_caught():
    """Checking where pokerkit refuses the fold would hide pokerkit's own rule: the judge sees the check."""
    driver = pokerkit_variant("""
act = m.PokerkitHand.act
def decide(self, answer):
    if answer == "fold" and self.state.checking_or_calling_amount == 0:
        answer = "check"  # the adapter deciding a rule pokerkit does not have
    return act(self, answer)
m.PokerkitHand.act = decide""")
    tests = {"hand": [t for t in HAND_TESTS["hand"] if t["id"] == "hand.fold-when-check-possible.h1"]}
    case = certify(driver, tests, {}).cases[0]
    assert case.status == "failed" and "action.type" in case.message


def test_a_broken_reshaping_is_caught_at_its_field(poker_ts_source):
    """An adapter that reports poker-ts's capped raise range as minRaiseTo fails where the contract's is not capped."""
    broken = poker_ts_driver(poker_ts_source, lambda text: text.replace(
        "var minRaiseTo = canRaise ? current + lastRaise : null;",
        "var minRaiseTo = canRaise ? poker.legalActions().chipRange.min : null;"))
    report = judged(broken)
    assert any(f["first"]["path"].endswith("minRaiseTo") for f in report["failures"] if f.get("first"))
    assert any(f["id"] == "unexplained" for f in findings.explain("poker-ts", report["failures"], report["divergences"]))


# ---- the table of implementations ---------------------------------------------------------------

def test_the_table_shows_both_engines_on_the_hand_profile_with_every_finding_explained(
        implementations_run, unavailable_implementations):
    out, _ = implementations_run
    rows = {e["name"]: e for e in json.loads((out / "table.json").read_text())["implementations"]}
    for name in ("pokerkit", "poker-ts"):
        if name in unavailable_implementations:
            continue
        row = rows[name]
        assert row["profiles"]["hand"]["verdict"] == "not certified" and row["profiles"]["hand"]["passed"] > 100
        assert {p for p, r in row["profiles"].items() if r["verdict"] == "not implemented"} == {
            "helpers", "tournament", "sng3v4"}
        assert all("finding" in f for f in row["findings"]), [f for f in row["findings"] if "finding" not in f]
        assert sum(f["count"] for f in row["findings"]) == row["profiles"]["hand"]["failed"] + row["profiles"]["hand"]["divergent"]
    assert rows["pokerkit"]["version"] == version("pokerkit")
    # R13's first-winner options are ruled out by the text (issue #24): a failure, diagnosed
    assert rows["pokerkit"]["rulings"]["R13"] == "first-winner-left-of-button (ruled out by the text: fails)"


def test_the_command_stops_with_the_reason_when_poker_ts_cannot_be_installed(tmp_path, monkeypatch, capsys):
    from conformance.cli.main import main
    monkeypatch.setenv("HOLDEM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert main(["implementations", "--only", "poker-ts", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "npm is not on PATH" in err and "--only" in err
