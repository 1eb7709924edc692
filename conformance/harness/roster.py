"""Roster linting: ``bots.json`` against the Submission section of bot contract v1.

``lint_roster(path)`` returns every problem it finds rather than stopping at the
first, each naming the entry (its ``id``, or None when the entry has no usable
id) and the field at fault. Files named by entries are resolved against the
repository root, the directory holding ``bots.json`` unless given: a ``file``
must be exactly ``bots/<id>.js``, stay inside the root (no ``..``, no symlink
leading out), be a regular UTF-8 file, and ``bytes`` must be its size in bytes.

The contract sets no sizes; R29 bounds what the suite reads: the roster file itself
(``MAX_ROSTER_BYTES``, a regular file: a FIFO or a device is refused before it is opened
for reading), the number of entries (``MAX_ENTRIES``) and each text field's length
(``MAX_LENGTHS``, in characters). No text may hold a NUL character or a lone UTF-16
surrogate (JSON allows the escape ``"\\ud83d"``): such a string is not a path or a name
that can be written out.
"""
from __future__ import annotations

import errno
import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

Severity = Literal["error", "warning"]

FIELDS = ("id", "name", "botName", "lab", "color", "file", "bytes", "note")
TOP_LEVEL_FIELDS = ("version", "bots")
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9.-]*")  # used with fullmatch: `$` would allow "\n"
_SURROGATE = re.compile("[\ud800-\udfff]")
COLOR_PATTERN = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
HOUSE_LAB = "Aizanoi sample"
HOUSE_PHRASE = "not an AI-model entry"

# R29: the bounds, stated in the README.
MAX_ROSTER_BYTES = 1024 * 1024
MAX_ENTRIES = 256
MAX_LENGTHS = {"id": 64, "name": 100, "botName": 100, "lab": 100, "color": 7, "file": 72, "note": 2000}


class RosterUnreadable(OSError):
    """The roster is not a regular file, or is larger than MAX_ROSTER_BYTES: ``filename`` is the
    roster, ``strerror`` the reason (as callers print OSErrors)."""

    def __init__(self, code: int, reason: str, path: Path):
        super().__init__(code, reason, str(path))


def read_roster_bytes(path: Path) -> bytes:
    """The roster's bytes, read only if it is a regular file of at most MAX_ROSTER_BYTES.

    Opened non-blocking (a FIFO would otherwise wait for a writer) and checked on the open
    descriptor; the read stops one byte past the bound whatever the file claims (/dev/zero).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RosterUnreadable(errno.EINVAL, "not a regular file (a roster must be a plain JSON file)", path)
        data = f.read(MAX_ROSTER_BYTES + 1)
    if len(data) > MAX_ROSTER_BYTES:
        raise RosterUnreadable(errno.EFBIG, f"larger than the roster bound of {MAX_ROSTER_BYTES:,} bytes (R29)", path)
    return data


def parse_roster(data: bytes) -> object:
    """The roster's JSON as Python values; ValueError (with a message) when it is not a roster's JSON."""
    return json.loads(data.decode("utf-8"), object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant)


def text_problem(text: str) -> str | None:
    """Why a roster string cannot be used as text (a NUL or a lone surrogate), or None."""
    if "\0" in text:
        return f"contains a NUL character at index {text.index(chr(0))}"
    if (lone := _SURROGATE.search(text)) is not None:
        return f"contains a lone UTF-16 surrogate U+{ord(lone[0]):04X} at index {lone.start()} (not valid Unicode)"
    return None


def unusable_fields(entry: dict) -> dict[str, tuple[str, str]]:
    """The entry's fields that cannot be used at all: key -> (the field as it can be printed, why).

    A field is unusable when a string in it (its name included) is not text (``text_problem``)
    or a text field is longer than its R29 bound."""
    out = {}
    for key, value in entry.items():
        field = key if text_problem(key) is None else ascii(key)
        problem = next(filter(None, map(text_problem, _strings({key: value}))), None)
        if problem is not None:
            out[key] = (field, problem)
        elif key in MAX_LENGTHS and isinstance(value, str) and len(value) > MAX_LENGTHS[key]:
            out[key] = (field, f"has {len(value):,} characters, more than the bound of {MAX_LENGTHS[key]} (R29)")
    return out


def _strings(value: object):
    """Every string in a JSON value, keys included (iteratively: nesting may be deep)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                stack += [key, inner]


@dataclass(frozen=True)
class Problem:
    """One roster problem: the entry's id (None for the roster as a whole or an
    entry without a usable id), the field at fault, a message and a severity."""

    entry_id: str | None
    field: str
    message: str
    severity: Severity = "error"


@dataclass(frozen=True)
class RosterReport:
    path: Path
    entries: int  # number of items in `bots` (0 if the roster is unusable)
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "error")

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "warning")

    @property
    def ok(self) -> bool:
        """No errors (warnings allowed)."""
        return not self.errors


class _Rejected(ValueError):
    """JSON that Python's parser accepts but a roster must not contain."""


def _reject_duplicates(pairs: list[tuple[str, object]]) -> dict:
    # json keeps the last of duplicated keys silently; a roster must be unambiguous.
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise _Rejected(f"duplicate key {key!r} in an object")
        seen[key] = value
    return seen


def _reject_constant(name: str):
    raise _Rejected(f"{name} is not valid JSON")


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    def __init__(self, path: Path, repo_root: Path):
        self.path = path
        self.root = repo_root
        self.root_resolved = repo_root.resolve()
        self.problems: list[Problem] = []

    def add(self, entry_id: str | None, field: str, message: str,
            severity: Severity = "error") -> None:
        self.problems.append(Problem(entry_id, field, message, severity))

    def load(self) -> object:
        """The parsed roster, or None after reporting why it cannot be parsed."""
        try:
            return parse_roster(read_roster_bytes(self.path))
        except UnicodeDecodeError as exc:
            self.add(None, "json", f"not valid UTF-8 at byte {exc.start}")
        except json.JSONDecodeError as exc:
            self.add(None, "json", f"invalid JSON at line {exc.lineno}, column {exc.colno}: "
                     f"{exc.msg}")
        except _Rejected as exc:
            self.add(None, "json", str(exc))
        except (ValueError, RecursionError) as exc:  # e.g. an integer of 5,000 digits
            self.add(None, "json", f"unreadable JSON: {exc}")
        return None

    def check(self) -> int:
        """Check the whole roster; returns the number of entries in `bots`."""
        data = self.load()
        if data is None:
            return 0
        if not isinstance(data, dict):
            self.add(None, "roster", f"top level must be an object, not {_type_name(data)}")
            return 0
        for key in data:
            if key not in TOP_LEVEL_FIELDS:
                self.add(None, key, f"unknown top-level field {key!r}", "warning")
        if "version" not in data:
            self.add(None, "version", "missing; must be 1")
        elif not (_is_int(data["version"]) and data["version"] == 1):
            self.add(None, "version", f"must be exactly 1, not {json.dumps(data['version'])}")
        if "bots" not in data:
            self.add(None, "bots", "missing; must be a list of entries")
            return 0
        bots = data["bots"]
        if not isinstance(bots, list):
            self.add(None, "bots", f"must be a list, not {_type_name(bots)}")
            return 0
        if len(bots) > MAX_ENTRIES:
            self.add(None, "bots", f"has {len(bots)} entries, more than the bound of {MAX_ENTRIES} (R29)")
            return len(bots)
        first_index: dict[str, int] = {}
        for index, entry in enumerate(bots):
            self.check_entry(index, entry, first_index)
        return len(bots)

    def check_entry(self, index: int, entry: object, first_index: dict[str, int]) -> None:
        where = f"bots[{index}]"
        if not isinstance(entry, dict):
            self.add(None, where, f"entry must be an object, not {_type_name(entry)}")
            return
        unusable = unusable_fields(entry)
        raw_id = entry.get("id")
        # An id that is not plain text, or too long, is not used to name the entry in messages.
        entry_id = raw_id if isinstance(raw_id, str) and raw_id and "id" not in unusable else None
        # Messages about an entry without a usable id say where it is.
        prefix = "" if entry_id else f"{where}: "

        def add(field: str, message: str, severity: Severity = "error") -> None:
            self.add(entry_id, field, prefix + message, severity)

        for key, (field, message) in unusable.items():
            add(field, message)
        for key in entry:
            if key not in FIELDS:
                add(key if key not in unusable else unusable[key][0], f"unknown field {key!r}", "warning")
        entry = {k: v for k, v in entry.items() if k not in unusable}  # reported once, above
        for field in FIELDS:
            if field in unusable:
                continue
            if field not in entry:
                add(field, "missing")
            elif field == "bytes":
                value = entry[field]
                if not _is_int(value) or value < 0:
                    add(field, f"must be a non-negative integer, not {json.dumps(value)}")
            elif not isinstance(entry[field], str):
                add(field, f"must be a string, not {_type_name(entry[field])}")
            elif not entry[field].strip():
                add(field, "must not be empty")

        valid_id = False
        if entry_id:
            if not ID_PATTERN.fullmatch(entry_id):
                add("id", f"{entry_id!r} must match ^[a-z0-9][a-z0-9.-]*$")
            elif ".." in entry_id:
                add("id", f"{entry_id!r} must not contain '..'")
            else:
                valid_id = True
            if entry_id in first_index:
                add("id", f"duplicate id; already used by bots[{first_index[entry_id]}]")
            else:
                first_index[entry_id] = index

        color = entry.get("color")
        if isinstance(color, str) and color.strip() and not COLOR_PATTERN.fullmatch(color):
            add("color", f"{color!r} is not a hex colour #rgb or #rrggbb")

        # The phrase is matched ignoring case: it may open a sentence.
        lab, note = entry.get("lab"), entry.get("note")
        if lab == HOUSE_LAB:
            if not (isinstance(note, str) and HOUSE_PHRASE.lower() in note.lower()):
                add("note", f"a house sample (lab {HOUSE_LAB!r}) must say {HOUSE_PHRASE!r}")
        elif isinstance(note, str) and HOUSE_PHRASE.lower() in note.lower():
            add("lab", f"the note says {HOUSE_PHRASE!r} but lab is not {HOUSE_LAB!r}",
                "warning")

        file = entry.get("file")
        if isinstance(file, str) and file.strip():
            if valid_id and file != f"bots/{entry_id}.js":
                add("file", f"must be exactly 'bots/{entry_id}.js', not {file!r}")
            self.check_file(file, entry.get("bytes"), add)

    def check_file(self, file: str, declared: object, add) -> None:
        """The named file is a regular UTF-8 file inside the root whose size is `declared`."""
        rel = PurePosixPath(file)
        if "\\" in file or rel.is_absolute() or ".." in rel.parts:
            add("file", f"{file!r} must be a relative path inside the repository "
                "(no absolute path, '..' or backslash)")
            return
        target = self.root / rel
        try:
            resolved = target.resolve(strict=True)
        except FileNotFoundError:
            add("file", f"{file!r} does not exist")
            return
        except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop (Python < 3.13)
            add("file", f"{file!r} cannot be resolved: {exc}")
            return
        if not resolved.is_relative_to(self.root_resolved):
            add("file", f"{file!r} resolves to {resolved}, outside the repository root "
                f"{self.root} (a symlink leads out)")
            return
        if not resolved.is_file():
            add("file", f"{file!r} is not a regular file")
            return
        data = resolved.read_bytes()
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            add("file", f"{file!r} is not valid UTF-8 (byte {exc.start})")
        if _is_int(declared) and declared >= 0 and declared != len(data):
            hint = ""
            if declared == len(data) - 1 and data.endswith(b"\n"):
                hint = " (the final newline counts)"
            elif declared == len(data) + 1 and not data.endswith(b"\n"):
                hint = " (the file has no final newline)"
            add("bytes", f"is {declared} but {file!r} has {len(data)} bytes{hint}")


def lint_roster(path: Path, repo_root: Path | None = None) -> RosterReport:
    """Check a ``bots.json``. Raises OSError if the roster itself cannot be read."""
    path = Path(path)
    checker = _Checker(path, Path(repo_root) if repo_root is not None else path.parent)
    entries = checker.check()
    return RosterReport(path, entries, tuple(checker.problems))
