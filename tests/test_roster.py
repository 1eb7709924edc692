"""conformance.harness.roster and ``holdem-cert roster``: every problem named by entry and field."""
import json
import os
from pathlib import Path

import pytest

from conformance.cli.main import main
from conformance.harness.roster import (MAX_ENTRIES, MAX_LENGTHS, MAX_ROSTER_BYTES, Problem, RosterUnreadable, lint_roster,
                                 text_problem)

SOURCE = "module.exports = function act(state) {\n  return state.canCheck ? 'check' : 'fold';\n};\n"


def entry(bot_id: str = "example", **fields) -> dict:
    e = {
        "id": bot_id,
        "name": "Example",
        "botName": "Example",
        "lab": "Author or model",
        "color": "#2dd4bf",
        "file": f"bots/{bot_id}.js",
        "bytes": len(SOURCE.encode()),
        "note": "Short provenance and implementation description.",
    }
    e.update(fields)
    return e


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "example.js").write_text(SOURCE, encoding="utf-8")
    return tmp_path


def write_roster(repo: Path, bots=None, **top) -> Path:
    data = {"version": 1, "bots": [entry()] if bots is None else bots}
    data.update(top)
    path = repo / "bots.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def problems(path: Path, **kw) -> list[tuple]:
    return [(p.entry_id, p.field, p.severity) for p in lint_roster(path, **kw).problems]


def only(path: Path) -> Problem:
    [p] = lint_roster(path).problems
    return p


def test_valid_roster(repo):
    report = lint_roster(write_roster(repo))
    assert report.problems == () and report.ok and report.entries == 1


def test_house_sample_valid(repo):
    e = entry(lab="Aizanoi sample", note="House sample; not an AI-model entry.")
    assert problems(write_roster(repo, [e])) == []


# -- the roster as a whole ------------------------------------------------------

def test_invalid_json_has_line_and_column(repo):
    path = repo / "bots.json"
    path.write_text('{\n  "version": 1,\n  "bots": [,]\n}\n', encoding="utf-8")
    p = only(path)
    assert (p.entry_id, p.field, p.severity) == (None, "json", "error")
    assert "line 3, column 12" in p.message


@pytest.mark.parametrize("text,needle", [
    ('{"version": 1, "version": 1, "bots": []}', "duplicate key 'version'"),
    ('{"version": 1, "bots": [{"bytes": NaN}]}', "NaN is not valid JSON"),
])
def test_json_python_would_accept(repo, text, needle):
    path = repo / "bots.json"
    path.write_text(text, encoding="utf-8")
    p = only(path)
    assert p.field == "json" and needle in p.message


def test_roster_not_utf8(repo):
    path = repo / "bots.json"
    path.write_bytes(b'{"version": 1, "bots": [], "x": "\xff"}')
    p = only(path)
    assert p.field == "json" and "UTF-8" in p.message and "byte 33" in p.message


def test_top_level_not_object(repo):
    path = repo / "bots.json"
    path.write_text("[1]", encoding="utf-8")
    p = only(path)
    assert (p.entry_id, p.field) == (None, "roster") and "array" in p.message


@pytest.mark.parametrize("version", [2, "1", 1.0, True, None])
def test_bad_version(repo, version):
    p = only(write_roster(repo, version=version))
    assert (p.entry_id, p.field, p.severity) == (None, "version", "error")
    assert json.dumps(version) in p.message


def test_missing_version_and_bots(repo):
    path = repo / "bots.json"
    path.write_text("{}", encoding="utf-8")
    assert problems(path) == [(None, "version", "error"), (None, "bots", "error")]


def test_bots_not_a_list(repo):
    p = only(write_roster(repo, bots={"example": entry()}))
    assert (p.field, p.message) == ("bots", "must be a list, not object")


def test_unknown_top_level_field_warns(repo):
    report = lint_roster(write_roster(repo, generated="today"))
    assert [(p.field, p.severity) for p in report.problems] == [("generated", "warning")]
    assert report.ok


# -- entry fields -----------------------------------------------------------------

def test_entry_not_object(repo):
    p = only(write_roster(repo, [entry(), "example"]))
    assert (p.entry_id, p.field) == (None, "bots[1]") and "string" in p.message


@pytest.mark.parametrize("field", ["name", "botName", "lab", "color", "file", "bytes", "note"])
def test_missing_field(repo, field):
    e = entry()
    del e[field]
    found = problems(write_roster(repo, [e]))
    assert ("example", field, "error") in found


def test_missing_id_names_the_position(repo):
    e = entry()
    del e["id"]
    found = lint_roster(write_roster(repo, [e])).problems
    assert found[0] == Problem(None, "id", "bots[0]: missing", "error")


@pytest.mark.parametrize("field,value,needle", [
    ("name", 7, "must be a string, not number"),
    ("botName", None, "must be a string, not null"),
    ("lab", ["x"], "must be a string, not array"),
    ("note", "   ", "must not be empty"),
    ("bytes", -1, "non-negative integer, not -1"),
    ("bytes", 83.0, "non-negative integer, not 83.0"),
    ("bytes", "83", 'non-negative integer, not "83"'),
    ("bytes", True, "non-negative integer, not true"),
])
def test_field_types(repo, field, value, needle):
    p = only(write_roster(repo, [entry(**{field: value})]))
    assert (p.entry_id, p.field, p.severity) == ("example", field, "error")
    assert needle in p.message


@pytest.mark.parametrize("bad_id", ["Example", ".x", "-x", "a_b", "a/b", "a\n", "a..b", "é"])
def test_bad_id(repo, bad_id):
    found = problems(write_roster(repo, [entry(bad_id, file="bots/example.js")]))
    assert (bad_id, "id", "error") in found


def test_good_ids(repo):
    for bot_id in ("a", "0", "gpt-5.1", "x.y-z"):
        (repo / "bots" / f"{bot_id}.js").write_text(SOURCE, encoding="utf-8")
    assert problems(write_roster(repo, [entry(i) for i in ("a", "0", "gpt-5.1", "x.y-z")])) == []


def test_duplicate_ids(repo):
    report = lint_roster(write_roster(repo, [entry(), entry(name="Again")]))
    [p] = report.problems
    assert (p.entry_id, p.field) == ("example", "id") and "bots[0]" in p.message


@pytest.mark.parametrize("color", ["#abc", "#ABC", "#a1b2c3", "#2DD4BF"])
def test_good_colors(repo, color):
    assert problems(write_roster(repo, [entry(color=color)])) == []


@pytest.mark.parametrize("color", ["red", "abc", "#abcd", "#ggg", "#a1b2c3d4", "#abc\n", "#1234567"])
def test_bad_colors(repo, color):
    p = only(write_roster(repo, [entry(color=color)]))
    assert (p.entry_id, p.field) == ("example", "color")


def test_house_sample_must_say_so(repo):
    p = only(write_roster(repo, [entry(lab="Aizanoi sample", note="A house bot.")]))
    assert (p.entry_id, p.field, p.severity) == ("example", "note", "error")
    assert "not an AI-model entry" in p.message


def test_house_phrase_without_house_lab_warns(repo):
    p = only(write_roster(repo, [entry(note="not an AI-model entry")]))
    assert (p.field, p.severity) == ("lab", "warning")


def test_unknown_entry_field_warns(repo):
    report = lint_roster(write_roster(repo, [entry(model="gpt")]))
    assert [(p.entry_id, p.field, p.severity) for p in report.problems] == [
        ("example", "model", "warning")]
    assert report.ok


# -- files --------------------------------------------------------------------

def test_file_must_be_bots_id_js(repo):
    (repo / "other.js").write_text(SOURCE, encoding="utf-8")
    p = only(write_roster(repo, [entry(file="other.js")]))
    assert (p.entry_id, p.field) == ("example", "file")
    assert "bots/example.js" in p.message


@pytest.mark.parametrize("file", ["bots/../../outside.js", "../outside.js", "/etc/passwd",
                                  "bots\\example.js"])
def test_traversal_and_absolute_paths(repo, file):
    found = lint_roster(write_roster(repo, [entry(file=file)])).problems
    assert [(p.entry_id, p.field) for p in found] == [("example", "file"), ("example", "file")]
    assert "relative path inside the repository" in found[1].message


def test_missing_file(repo):
    (repo / "bots" / "example.js").unlink()
    p = only(write_roster(repo))
    assert (p.field, p.message) == ("file", "'bots/example.js' does not exist")


def test_file_is_directory(repo):
    (repo / "bots" / "example.js").unlink()
    (repo / "bots" / "example.js").mkdir()
    p = only(write_roster(repo))
    assert p.field == "file" and "not a regular file" in p.message


def test_symlink_escaping_repo(tmp_path):
    repo, outside = tmp_path / "repo", tmp_path / "outside.js"
    (repo / "bots").mkdir(parents=True)
    outside.write_text(SOURCE, encoding="utf-8")
    (repo / "bots" / "example.js").symlink_to(outside)
    p = only(write_roster(repo))
    assert (p.entry_id, p.field) == ("example", "file") and "outside the repository" in p.message


def test_symlinked_directory_escaping_repo(tmp_path):
    repo, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    repo.mkdir()
    elsewhere.mkdir()
    (elsewhere / "example.js").write_text(SOURCE, encoding="utf-8")
    (repo / "bots").symlink_to(elsewhere, target_is_directory=True)
    p = only(write_roster(repo))
    assert p.field == "file" and "outside the repository" in p.message


def test_symlink_inside_repo_is_fine(repo):
    (repo / "src").mkdir()
    (repo / "bots" / "example.js").rename(repo / "src" / "example.js")
    (repo / "bots" / "example.js").symlink_to(Path("..") / "src" / "example.js")
    assert problems(write_roster(repo)) == []


def test_bytes_off_by_one_final_newline(repo):
    size = len(SOURCE.encode())
    p = only(write_roster(repo, [entry(bytes=size - 1)]))
    assert (p.entry_id, p.field) == ("example", "bytes")
    assert p.message == f"is {size - 1} but 'bots/example.js' has {size} bytes (the final newline counts)"


def test_bytes_counts_utf8_bytes_not_characters(repo):
    text = "// é\n" + SOURCE  # é is two bytes
    (repo / "bots" / "example.js").write_text(text, encoding="utf-8")
    p = only(write_roster(repo, [entry(bytes=len(text))]))
    assert p.field == "bytes" and f"has {len(text) + 1} bytes" in p.message
    assert problems(write_roster(repo, [entry(bytes=len(text.encode()))])) == []


def test_bytes_counts_crlf_as_written(repo):
    (repo / "bots" / "example.js").write_bytes(SOURCE.replace("\n", "\r\n").encode())
    p = only(write_roster(repo))
    assert p.field == "bytes"


def test_file_not_utf8(repo):
    (repo / "bots" / "example.js").write_bytes(b"// \xff\n")
    p = only(write_roster(repo, [entry(bytes=5)]))
    assert (p.field, p.severity) == ("file", "error") and "not valid UTF-8 (byte 3)" in p.message


def test_repo_root_argument(repo):
    config = repo / "config"
    config.mkdir()
    path = write_roster(repo)
    path = path.rename(config / "bots.json")
    assert problems(path, repo_root=repo) == []
    assert problems(path) == [("example", "file", "error")]  # bots/ is not beside it


# -- command line ---------------------------------------------------------------

def test_cli_clean_exit_0(repo, capsys):
    path = write_roster(repo)
    assert main(["roster", str(path)]) == 0
    assert "OK, 1 entry" in capsys.readouterr().out


def test_cli_default_path_in_cwd(repo, monkeypatch, capsys):
    write_roster(repo)
    monkeypatch.chdir(repo)
    assert main(["roster"]) == 0
    assert "bots.json: OK" in capsys.readouterr().out


def test_cli_warnings_only_exit_0(repo, capsys):
    assert main(["roster", str(write_roster(repo, [entry(model="x")]))]) == 0
    out = capsys.readouterr().out
    assert "warning: example: model: unknown field 'model'" in out
    assert "OK, 0 errors, 1 warning in 1 entry" in out


def test_cli_problems_exit_1(repo, capsys):
    path = write_roster(repo, [entry(color="teal"), entry(bytes=1)])
    assert main(["roster", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("error: example: color: ")
    assert out[1].startswith("error: example: id: duplicate id")
    assert out[2].startswith("error: example: bytes: is 1 but")
    assert out[-1].endswith("FAILED, 3 errors, 0 warnings in 2 entries")


def test_cli_missing_roster_exit_2(tmp_path, capsys):
    missing = tmp_path / "nope.json"
    assert main(["roster", str(missing)]) == 2
    err = capsys.readouterr().err
    assert str(missing) in err and "No such file" in err


def test_cli_usage_error_exit_2(capsys):
    assert main(["roster", "a.json", "b.json"]) == 2


def test_cli_json_report(repo, capsys):
    path = write_roster(repo, [entry(color="teal", extra=1)])
    out = repo / "report.json"
    assert main(["roster", str(path), "--json", str(out)]) == 1
    assert json.loads(out.read_text(encoding="utf-8")) == {
        "roster": str(path),
        "ok": False,
        "problems": [
            {"id": "example", "field": "extra", "message": "unknown field 'extra'",
             "severity": "warning"},
            {"id": "example", "field": "color",
             "message": "'teal' is not a hex colour #rgb or #rrggbb", "severity": "error"},
        ],
    }
    assert sorted(os.listdir(repo)) == ["bots", "bots.json", "report.json"]  # no temp left


def test_cli_json_report_clean(repo):
    out = repo / "report.json"
    out.write_text("stale", encoding="utf-8")
    assert main(["roster", str(write_roster(repo)), "--json", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8")) == {
        "roster": str(repo / "bots.json"), "ok": True, "problems": []}


def test_cli_json_unwritable_exit_2(repo, capsys):
    out = repo / "no-such-dir" / "report.json"
    assert main(["roster", str(write_roster(repo)), "--json", str(out)]) == 2
    assert str(out) in capsys.readouterr().err
    assert not (repo / "no-such-dir").exists()


# -- hostile rosters (issue #19; bounds are R29) ----------------------------------

def run_roster_cli(path: Path) -> "subprocess.CompletedProcess":
    """``holdem-cert roster PATH`` in a child process, killed if it hangs."""
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "conformance", "roster", str(path)], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONIOENCODING": "utf-8"})


def test_a_fifo_is_refused_without_waiting_for_a_writer(repo):
    fifo = repo / "bots.json"
    os.mkfifo(fifo)
    done = run_roster_cli(fifo)  # in a child: a hang would fail the test on the timeout, not stall the suite
    assert done.returncode == 2 and "not a regular file" in done.stderr and "Traceback" not in done.stderr


def test_a_symlink_to_dev_zero_is_refused_without_reading_it(repo):
    link = repo / "bots.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(RosterUnreadable, match="not a regular file"):
        lint_roster(link)


def test_a_roster_past_the_size_bound_is_refused_with_its_bound(repo):
    path = write_roster(repo, [entry(note="x" * MAX_ROSTER_BYTES)])
    with pytest.raises(RosterUnreadable, match=f"{MAX_ROSTER_BYTES:,} bytes"):
        lint_roster(path)


def test_a_120_mb_name_is_refused_by_the_lint(repo):
    path = repo / "bots.json"
    with path.open("w", encoding="utf-8") as f:  # written in pieces: the test itself stays small
        f.write('{"version": 1, "bots": [{"id": "example", "name": "')
        for _ in range(120):
            f.write("n" * 1024 * 1024)
        f.write('"}]}')
    done = run_roster_cli(path)
    assert done.returncode == 2 and "larger than the roster bound" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("field", ["name", "botName", "lab", "note", "id"])
def test_text_fields_past_their_bound_are_errors(repo, field):
    at_bound = entry(**{field: "a" * MAX_LENGTHS[field]})
    at_bound["file"] = f"bots/{at_bound['id']}.js"
    (repo / "bots" / f"{at_bound['id']}.js").write_text(SOURCE, encoding="utf-8")
    assert lint_roster(write_roster(repo, [at_bound])).ok
    over = entry(**{field: "a" * (MAX_LENGTHS[field] + 1)})
    errors = lint_roster(write_roster(repo, [over])).errors
    assert [p.field for p in errors if "more than the bound" in p.message] == [field]


def test_more_entries_than_the_bound_is_an_error(repo):
    many = [entry(f"bot{i}") for i in range(MAX_ENTRIES + 1)]
    report = lint_roster(write_roster(repo, many))
    assert [(p.field, p.severity) for p in report.problems] == [("bots", "error")]
    assert f"more than the bound of {MAX_ENTRIES}" in report.problems[0].message


BAD_TEXT = {"nul": ("\u0000", "NUL character"), "surrogate": ("\ud83d", "lone UTF-16 surrogate U+D83D")}


@pytest.mark.parametrize("kind", sorted(BAD_TEXT))
@pytest.mark.parametrize("field", ["file", "name", "botName", "lab", "note", "color"])
def test_nul_or_lone_surrogate_in_a_field_names_the_field(repo, field, kind):
    bad, words = BAD_TEXT[kind]
    e = entry(**{field: f"bots/exa{bad}mple.js" if field == "file" else f"Ex{bad}"})
    path = write_roster(repo, [e])  # json.dumps escapes both as \\u0000 / \\ud83d
    report = lint_roster(path)
    assert [(p.entry_id, p.field) for p in report.errors] == [("example", field)]
    assert words in report.errors[0].message
    if field == "file":  # printed by a real process (a surrogate would not encode to its stdout)
        done = run_roster_cli(path)
        assert done.returncode == 1 and words in done.stdout and "Traceback" not in done.stderr


@pytest.mark.parametrize("kind", sorted(BAD_TEXT))
def test_bad_text_in_the_id_or_an_unknown_field_is_named_without_using_it(repo, kind):
    bad, words = BAD_TEXT[kind]
    path = write_roster(repo, [entry(f"ex{bad}", file="bots/example.js"), entry(extra={"deep": [f"x{bad}"]}), entry("other", **{f"k{bad}": 1})])
    report = lint_roster(path)
    fields = [(p.entry_id, p.field) for p in report.errors if words in p.message]
    assert fields == [(None, "id"), ("example", "extra"), ("other", ascii(f"k{bad}"))]
    assert all(p.entry_id is None or text_problem(p.entry_id) is None for p in report.problems)
    assert main(["roster", str(path)]) == 1


def test_play_refuses_such_a_roster_with_a_usage_message(repo, capsys):
    path = write_roster(repo, [entry(name="Ex\ud83d"), entry("other")])
    (repo / "bots" / "other.js").write_text(SOURCE, encoding="utf-8")
    assert main(["play", "--roster", str(path), "--hands", "1"]) == 2
    assert "name: contains a lone UTF-16 surrogate" in capsys.readouterr().err


def test_certify_rejects_such_an_entry_and_its_report_can_be_written(repo):
    from conformance.cli.certify import CertifyOptions, _certify_bot
    bot = _certify_bot(entry(name="Ex\ud83d", note="n" * 5000), 0, repo, CertifyOptions(roster=repo / "bots.json"))
    assert bot["verdict"] == "rejected" and bot["name"] == "example"
    assert "error: name: contains a lone UTF-16 surrogate U+D83D at index 2 (not valid Unicode)" in bot["reasons"]
    assert "error: note: has 5,000 characters, more than the bound of 2000 (R29)" in bot["reasons"]
    json.dumps(bot, ensure_ascii=False).encode("utf-8")  # the summary is written this way


def test_bot_certification_refuses_a_fifo_roster_at_once(repo):
    import subprocess
    import sys
    fifo = repo / "fifo.json"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "conformance", "bot", str(repo / "bots" / "example.js"),
                           "--roster", str(fifo)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"cannot read {fifo}: not a regular file" in done.stderr


def test_a_raw_nul_byte_in_the_roster_is_a_json_error(repo):
    path = repo / "bots.json"
    path.write_bytes(b'{"version": 1, "bots": [{"id": "ex\x00"}]}')
    p = only(path)
    assert (p.field, p.severity) == ("json", "error") and "line 1" in p.message


def test_deeply_nested_unknown_fields_are_walked_without_recursion(repo):
    path = repo / "bots.json"
    deep = "[" * 900 + '"x\\ud83d"' + "]" * 900
    path.write_text('{"version": 1, "bots": [{"id": "example", "extra": ' + deep + "}]}", encoding="utf-8")
    report = lint_roster(path)
    assert ("example", "extra") in [(p.entry_id, p.field) for p in report.errors]
