"""The league's results store: one SQLite file (stdlib ``sqlite3``, WAL).

- ``league``: one row per key of the league's *identity*: the bots (ids, names, sha256 of their
  sources), table size, seeds and runner options, and its hash. The number of tournaments is not
  part of it: a larger ``--tournaments`` over the same store plays only the sets it lacks.
- ``tournaments``: one row per tournament, primary key its coordinates (table, set, rotation);
  rows are inserted with ``INSERT OR IGNORE`` in their own transaction, so a rerun or a second run
  writing the same store never writes a row twice, and a run stopped at any point leaves every
  finished tournament in it.

A store written by another league (or a file that is not a league store) is refused before
anything is written to it (:class:`~conformance.errors.UsageError`, exit 2).
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from conformance.arena.transcript import options_json
from conformance.errors import UsageError
from conformance.harness.runner import BotSpec, RunnerOptions, canonical_json

FORMAT = "holdem-cert league store 1"
BUSY_MS = 30_000  # another run writing the same store: wait for its transaction, do not fail
SCHEMA = """
CREATE TABLE IF NOT EXISTS league (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournaments (
    tbl TEXT NOT NULL, set_no INTEGER NOT NULL, rotation INTEGER NOT NULL,
    summary TEXT NOT NULL,  -- the tournament's summary, canonical JSON, no measurements
    wall_ms TEXT NOT NULL,  -- each seat's decision wall times (a measurement), JSON
    PRIMARY KEY (tbl, set_no, rotation)
) WITHOUT ROWID;
"""


def identity(bots: Iterable[BotSpec], table_size: int, seed: int, bot_seed: int, options: RunnerOptions) -> dict:
    """What makes two runs one league: equal identities give equal tournaments at equal coordinates."""
    doc = {
        "format": FORMAT,
        "bots": {b.id: {"name": b.name, "sha256": hashlib.sha256(b.source.encode("utf-8")).hexdigest()}
                 for b in sorted(bots, key=lambda b: b.id)},
        "tableSize": table_size, "seed": seed, "botSeed": bot_seed, "options": options_json(options),
    }
    # in canonical key order, as the store gives it back: the report is the same bytes either way
    return json.loads(canonical_json({**doc, "hash": hashlib.sha256(canonical_json(doc)).hexdigest()}))


def _describe(path: Path, exc: sqlite3.Error) -> UsageError:
    return UsageError(f"--store {path}: cannot use it as a league store: {exc}")


def read_identity(path: Path) -> dict | None:
    """The identity a store holds, without changing the file; None when there is no store yet."""
    path = Path(path)
    if not path.exists() or (path.is_file() and path.stat().st_size == 0):
        return None
    if not path.is_file():
        raise UsageError(f"--store {path}: not a file")
    try:
        con = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "league" not in tables:
                raise UsageError(f"--store {path}: a SQLite file, but not a league store (no league table); "
                                 "give a new path")
            row = con.execute("SELECT value FROM league WHERE key='identity'").fetchone()
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise _describe(path, exc) from None
    if row is None:
        raise UsageError(f"--store {path}: a league store without its identity; give a new path")
    return json.loads(row[0])


def differences(a: dict, b: dict) -> list[str]:
    """The identity fields that differ, by name (bots one by one)."""
    out = []
    for key in ("tableSize", "seed", "botSeed", "options"):
        if a.get(key) != b.get(key):
            out.append(f"{key} {json.dumps(a.get(key))} there, {json.dumps(b.get(key))} here")
    bots_a, bots_b = a.get("bots", {}), b.get("bots", {})
    if set(bots_a) != set(bots_b):
        out.append(f"bots {', '.join(sorted(bots_a))} there, {', '.join(sorted(bots_b))} here")
    else:
        out += [f"bot {i}: its source or name changed" for i in sorted(bots_a) if bots_a[i] != bots_b[i]]
    return out or ["the format"]


class Store:
    """An open store of one league: ``add`` streams tournaments in, ``rows`` reads them back."""

    def __init__(self, path: Path, league: dict) -> None:
        self.path = Path(path)
        held = read_identity(self.path)
        if held is not None and held.get("hash") != league["hash"]:
            raise UsageError(f"--store {self.path}: written by another league ({'; '.join(differences(held, league))}); "
                             "nothing was changed; give a new path or that league's options")
        try:
            self.con = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None)
            self.con.execute("PRAGMA journal_mode=WAL")
            self.con.executescript(SCHEMA)
            self.con.execute("INSERT OR IGNORE INTO league VALUES ('identity', ?)",
                             (canonical_json(league).decode("utf-8"),))
        except sqlite3.Error as exc:
            raise _describe(self.path, exc) from None

    def done(self) -> set[tuple[str, int, int]]:
        return {tuple(r) for r in self.con.execute("SELECT tbl, set_no, rotation FROM tournaments")}

    def add(self, table: str, summary: dict) -> None:
        """Store one finished tournament (its own transaction; a row already there stays as it is)."""
        wall = summary.pop("wallMs", [])
        del summary["tournament"]  # the task's place in one run's schedule, not a coordinate
        self.con.execute("INSERT OR IGNORE INTO tournaments VALUES (?, ?, ?, ?, ?)",
                         (table, summary["set"], summary["rotation"], canonical_json(summary).decode("utf-8"),
                          json.dumps(wall, separators=(",", ":"))))

    def rows(self, sets: int) -> list[tuple[str, dict, list]]:
        """(table, summary, wall times) of the tournaments in sets ``0..sets-1``, in coordinate order."""
        return [(t, json.loads(s), json.loads(w)) for t, s, w in self.con.execute(
            "SELECT tbl, summary, wall_ms FROM tournaments WHERE set_no < ? ORDER BY set_no, tbl, rotation", (sets,))]

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
