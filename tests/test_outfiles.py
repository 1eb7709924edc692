"""Report files as users expect them: '-' is stdout, symlinks and devices are written through,
regular files are replaced whole, and new files and directories honour the umask. Also the
command line's --version and each subcommand's own usage."""
import json
import os
import stat
from pathlib import Path

import pytest

from conformance.outfiles import replace_directory, write_text
from cli_helpers import run_cli

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_dash_is_stdout(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_text(Path("-"), "hello\n")
    assert capsys.readouterr().out == "hello\n" and not (tmp_path / "-").exists()


def test_a_symlink_is_kept_and_its_target_replaced(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_text(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_device_is_written_through(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_text(fifo, "through")
        assert os.read(reader, 100) == b"through"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # not replaced by a regular file (a FIFO stands in for
    # /dev/stdout: a test must never risk replacing a real device)


def test_regular_files_are_replaced_whole_and_honour_the_umask(tmp_path, umask_022):
    new = tmp_path / "new.json"
    write_text(new, "a")
    assert mode(new) == 0o644
    kept = tmp_path / "kept.json"
    kept.write_text("old")
    kept.chmod(0o640)
    inode = kept.stat().st_ino
    write_text(kept, "b")
    assert kept.read_text() == "b" and mode(kept) == 0o640 and kept.stat().st_ino != inode  # renamed over
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left


def test_a_missing_directory_is_an_error_not_created(tmp_path):
    with pytest.raises(FileNotFoundError):
        write_text(tmp_path / "no" / "x.json", "a")


def test_report_directories_honour_the_umask_and_replace_the_old_one(tmp_path, umask_022):
    target = tmp_path / "report"
    target.mkdir()
    (target / "stale").write_text("x")
    replace_directory(target, lambda d: (d / "a.txt").write_text("a"))
    assert [p.name for p in target.iterdir()] == ["a.txt"] and mode(target) == 0o755 and mode(target / "a.txt") == 0o644

    def broken(d):
        (d / "half").write_text("x")
        raise RuntimeError("while filling")
    with pytest.raises(RuntimeError):
        replace_directory(target, broken)
    assert [p.name for p in target.iterdir()] == ["a.txt"]  # the old report stands
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]  # no staging left


def test_engine_json_dash_goes_to_stdout_and_the_summary_to_stderr(capsys):
    code, out, err = run_cli(capsys, "engine", str(ROOT / "reference/js/poker-engine.js"), "--family", "rng",
                             "--no-fresh", "--json", "-")
    report = json.loads(out)  # --family rng: no failures, and no certification (issue #12, item 7)
    assert code == 0 and report["ok"] and report["partial"] and not report["certified"] and "NO FAILURES" in err


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        run_cli(capsys, "--version")
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("holdem-cert 0.1.0") and "docs:" in out


@pytest.mark.parametrize("command", ["certify", "engine", "match", "play", "bot", "roster", "vectors"])
def test_each_subcommand_prints_its_own_usage(capsys, command):
    code, _, err = run_cli(capsys, command, "--bogus")
    assert code == 2 and err.startswith(f"usage: holdem-cert {command}")  # not the top level's usage


def test_rich_tables_keep_ids_whole_at_80_columns(monkeypatch, capsys, tmp_path):
    from conformance.cli.commands.roster import _print_rich
    from conformance.harness.roster import Problem, RosterReport

    monkeypatch.setenv("COLUMNS", "80")
    long_id = "a-very-long-bot-identifier.with-many-parts-v2"
    _print_rich(RosterReport(tmp_path / "bots.json", 1, (
        Problem(long_id, "file", "does not exist, and this message is long enough that it has to wrap somewhere"),)))
    out = capsys.readouterr().out
    assert long_id in out and max(map(len, out.splitlines())) <= 80


def test_certify_wraps_its_lines_at_spaces_on_a_terminal(monkeypatch):
    from conformance.cli.commands.certify import wrapped

    class Terminal:
        def isatty(self):
            return True
    monkeypatch.setenv("COLUMNS", "40")
    ids = "engine: not certified; failed: evaluate.order.wheel-beats-trips, evaluate.rank.steel-wheel"
    lines = wrapped(ids, Terminal()).splitlines()
    assert len(lines) > 1 and "evaluate.order.wheel-beats-trips," in lines[1 if len(lines[0]) < 40 else 0] + lines[1]
    assert all(part in "\n".join(lines) for part in ("evaluate.order.wheel-beats-trips", "evaluate.rank.steel-wheel"))


def test_roster_and_play_json_dash_keep_stdout_for_the_json(capsys):
    code, out, err = run_cli(capsys, "roster", ROOT / "bots.json", "--json", "-")
    assert code == 0 and json.loads(out)["ok"] is True and "OK" in err
    code, out, err = run_cli(capsys, "play", "--roster", ROOT / "bots.json", "--bots", "check-fold,sample-caller",
                             "--seed", "1", "--bot-seed", "1", "--hands", "2", "--json", "-", "--quiet")
    assert code == 0 and json.loads(out)["seed"] == 1
