"""The adapters of the real engines (conformance/implementations/): pokerkit over the protocol and
poker-ts in QuickJS. They must only reshape: what they report is the engine's, and the judge
(not the adapter) finds the differences, which docs/implementations.md explains
(conformance/implementations/findings.toml)."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
import quickjs

from conformance.implementations import poker_ts
from conformance.implementations.pokerkit_engine import run_hand
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
    from conformance.clauses import CLAUSES
    from conformance.implementations import findings
    from reference.rulings import RULINGS
    loaded = findings.load()
    assert {f.implementation for f in loaded} == {"pokerkit", "poker-ts"}
    for f in loaded:
        assert set(f.clauses) <= set(CLAUSES), f.id
        assert f.kind != "ruling" or f.ruling in RULINGS and RULINGS[f.ruling].alternatives(), f.id
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
