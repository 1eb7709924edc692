"""Tournament transcripts (JSON lines) and their replay.

A transcript has three kinds of line, each one JSON object with a ``type``:

``header``    the first line: ``format``/``version``, both seeds (``seed`` deals, ``botSeed``
              seeds the workers' ``Math.random``, R21), the runner ``options`` (ruleset,
              ``decisionMs``, ``initMs``, tournament options, ``botHost``: where the bots ran,
              ``node`` or ``quickjs``; absent in transcripts from before issue #35: QuickJS),
              the ``roster`` path and, in the order the bots were given, each bot's roster
              id, seat name, file and the sha256
              of its source; the sha256 of the engine: the Python reference that deals and
              settles (``engine.reference``) and the JS helper the workers load
              (``engine.helper``).
``decision``  one per decision, in order: :meth:`conformance.harness.runner.DecisionRecord.to_json`
              (hand, seat, state hash, the transported answer, the action applied, error
              category and code, violations, ``wallMs``/``cpuMs``).
``footer``    the last line: hands and decisions played, each seat's report without timings
              (load outcome, errors by category, termination), the standings and the result
              digest (:meth:`conformance.harness.runner.TournamentResult.digest`).

A transcript is written whole or not at all: lines go to a temporary file beside the
target, renamed into place once the footer is written.

Replay (:func:`replay`) runs the tournament again with the same bots (refused when a bot's
source no longer has its recorded sha256), seeds and options, and compares every decision's
deterministic fields (:data:`COMPARED`: state hash, outcome, answer, error, action, ...),
then the seats and standings. Timings are never compared. A deadline failure depends on the
machine, so a recorded late answer is replayed as late: that worker is not asked, it is
terminated and takes the same outcome (:class:`conformance.harness.runner.ForcedLate`), and the same
for a late load. A decision answered in time when recorded but late on replay is reported
as a divergence (``--decision-ms`` gives a slow machine more time; the clock is not part of
any state).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from conformance.errors import UsageError
from conformance.host import bot_host
from conformance.harness.runner import (ENGINE_PATH, ROOT, BotSpec, DecisionRecord, ForcedLate, RunnerOptions, TournamentResult,
                     canonical_json, run_tournament)

FORMAT = "holdem-cert transcript"
VERSION = 1
# Compared decision fields, most fundamental first: the first difference is the one reported.
COMPARED = ("handNumber", "street", "seat", "id", "stateHash", "outcome", "answer", "error", "code", "action",
            "violations")
REFERENCE_DIR = ROOT / "reference"


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def reference_sha256() -> str:
    """sha256 over the reference package's Python sources: each relative path, NUL, its bytes, NUL."""
    h = hashlib.sha256()
    for path in sorted(REFERENCE_DIR.rglob("*.py")):
        h.update(path.relative_to(REFERENCE_DIR).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def engine_hashes(options: RunnerOptions) -> dict:
    helper = options.engine_source.encode("utf-8") if options.engine_source is not None else ENGINE_PATH.read_bytes()
    return {"reference": reference_sha256(), "helper": sha256_hex(helper)}


def options_json(options: RunnerOptions) -> dict:
    return {"ruleset": options.ruleset, "decisionMs": options.decision_ms, "initMs": options.init_ms,
            "tournament": json.loads(json.dumps(dict(options.tournament))), "botHost": options.bot_host}


def options_from_json(data: dict, decision_ms: float | None = None) -> RunnerOptions:
    """The recorded options; replay runs the bots on the recorded host (``botHost``; QuickJS before #35)."""
    host = data.get("botHost", "quickjs")
    if host not in bot_host.HOSTS:
        raise UsageError(f"options.botHost: unknown bot host {host!r} (known: {', '.join(bot_host.HOSTS)})")
    return RunnerOptions(init_ms=data["initMs"], decision_ms=decision_ms or data["decisionMs"],
                         tournament=data["tournament"], ruleset=data["ruleset"], bot_host=host)


@dataclass(frozen=True)
class RecordedBot:
    """A bot as a transcript names it: roster id, seat name, file (as in the roster), sha256."""

    bot: str
    name: str
    file: str
    sha256: str

    def to_json(self) -> dict:
        return {"bot": self.bot, "name": self.name, "file": self.file, "sha256": self.sha256}


def header(roster: Path, bots: list[RecordedBot], seed: int, bot_seed: int, options: RunnerOptions) -> dict:
    return {"type": "header", "format": FORMAT, "version": VERSION, "seed": seed, "botSeed": bot_seed,
            "options": options_json(options), "roster": str(roster), "bots": [b.to_json() for b in bots],
            "engine": engine_hashes(options)}


def _line(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"


class TranscriptWriter:
    """Streams lines to a temporary file beside ``path``; leaving the ``with`` block normally
    renames it to ``path``, leaving it by an exception removes it."""

    def __init__(self, path: Path):
        self.path = Path(path)
        fd, self._tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        self._file = os.fdopen(fd, "w", encoding="utf-8", newline="\n")

    def write(self, obj: dict) -> None:
        self._file.write(_line(obj))

    def __enter__(self) -> TranscriptWriter:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc_type is None:
                self._file.flush()
                os.fsync(self._file.fileno())
            self._file.close()
            if exc_type is None:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(self._tmp, 0o666 & ~umask)  # mkstemp makes 0600; a transcript is an ordinary file
                os.replace(self._tmp, self.path)
        finally:
            if os.path.exists(self._tmp):
                os.unlink(self._tmp)


def decision_line(record: DecisionRecord) -> dict:
    return {"type": "decision", **record.to_json()}


@dataclass
class Transcript:
    path: Path
    header: dict
    decisions: list[dict]
    footer: dict


def _need(obj: object, keys: tuple, where: str) -> None:
    if not isinstance(obj, dict):
        raise UsageError(f"{where}: expected an object")
    missing = [k for k in keys if k not in obj]
    if missing:
        raise UsageError(f"{where}: missing {', '.join(missing)}")


def _list(obj: object, where: str) -> list:
    if not isinstance(obj, list):
        raise UsageError(f"{where}: expected a list")
    return obj


def read(path: Path) -> Transcript:
    """Parse and check a transcript's structure; UsageError naming the line at fault."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not UTF-8 (byte {exc.start})") from None
    except OSError as exc:
        raise UsageError(f"cannot read transcript {path}: {exc.strerror or exc}") from None
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        try:
            obj = json.loads(raw)
        except ValueError as exc:
            raise UsageError(f"{path}:{number}: not JSON ({exc})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise UsageError(f"{path}:{number}: expected an object with a 'type'")
        lines.append(obj)
    if not lines or lines[0]["type"] != "header":
        raise UsageError(f"{path}:1: the first line must be the header")
    head = lines[0]
    if head.get("format") != FORMAT or head.get("version") != VERSION:
        raise UsageError(f"{path}:1: not a {FORMAT} version {VERSION} "
                         f"(format {head.get('format')!r}, version {head.get('version')!r})")
    _need(head, ("seed", "botSeed", "options", "roster", "bots", "engine"), f"{path}:1")
    _need(head["options"], ("ruleset", "decisionMs", "initMs", "tournament"), f"{path}:1: options")
    _need(head["options"]["tournament"], (), f"{path}:1: options.tournament")
    _need(head["engine"], (), f"{path}:1: engine")
    for k, bot in enumerate(_list(head["bots"], f"{path}:1: bots")):
        _need(bot, ("bot", "name", "file", "sha256"), f"{path}:1: bots[{k}]")
        for key in ("bot", "name", "file", "sha256"):
            if not isinstance(bot[key], str):
                raise UsageError(f"{path}:1: bots[{k}].{key}: expected a string")
    if len(lines) < 2 or lines[-1]["type"] != "footer":
        raise UsageError(f"{path}:{len(lines)}: the last line must be the footer")
    footer = lines[-1]
    _need(footer, ("seats", "standings", "digest", "decisions"), f"{path}:{len(lines)}")
    for k, seat in enumerate(_list(footer["seats"], f"{path}:{len(lines)}: seats")):
        where = f"{path}:{len(lines)}: seats[{k}]"
        _need(seat, ("seat", "id", "bot", "name", "botSeed", "init", "errors", "decisions", "terminated",
                     "violations"), where)
        _need(seat["init"], ("kind",), f"{where}.init")
        if seat["terminated"] is not None:
            _need(seat["terminated"], ("decision",), f"{where}.terminated")
        for v in _list(seat["violations"], f"{where}.violations"):
            _need(v, ("kind", "decision"), f"{where}.violations")
    for k, row in enumerate(_list(footer["standings"], f"{path}:{len(lines)}: standings")):
        _need(row, ("terminated",), f"{path}:{len(lines)}: standings[{k}]")
        if row["terminated"] is not None:
            _need(row["terminated"], ("decision",), f"{path}:{len(lines)}: standings[{k}].terminated")
    decisions = lines[1:-1]
    for k, d in enumerate(decisions):
        where = f"{path}:{k + 2}"
        if d["type"] != "decision":
            raise UsageError(f"{where}: expected a decision line, got {d['type']!r}")
        _need(d, ("index",) + COMPARED, where)
        if d["index"] != k:
            raise UsageError(f"{where}: decision index {d['index']!r}, expected {k}")
    if footer["decisions"] != len(decisions):
        raise UsageError(f"{path}:{len(lines)}: the footer counts {footer['decisions']} decisions, "
                         f"the transcript has {len(decisions)}")
    return Transcript(path, head, decisions, footer)


@dataclass(frozen=True)
class Divergence:
    """The first difference: at a decision (``index``) or, after the last one, in the results."""

    index: int | None
    where: str  # e.g. "hand 3, seat 2 (s3)", "standings"
    field: str
    expected: object
    actual: object
    note: str = ""


@dataclass
class ReplayResult:
    decisions: int  # decisions compared equal
    divergence: Divergence | None
    digest_matches: bool | None  # None when the replay stopped at a divergence
    warnings: list[str] = field(default_factory=list)

    @property
    def confirmed(self) -> bool:
        return self.divergence is None


class _Diverged(Exception):
    def __init__(self, divergence: Divergence):
        self.divergence = divergence


def _plain(value: object) -> object:
    return json.loads(json.dumps(value))  # tuples as lists, as read back from a transcript


def _same(a: object, b: object) -> bool:
    """Equal as JSON: unlike ==, true is not 1 and 1.0 is not 1."""
    return canonical_json(a) == canonical_json(b)


def _where(d: dict) -> str:
    return f"hand {d['handNumber']}, seat {d['seat']} ({d['id']})"


def _compare(index: int, expected: dict | None, actual: dict) -> None:
    if expected is None:
        raise _Diverged(Divergence(index, _where(actual), "decision", "the end of the tournament",
                                   {k: actual[k] for k in COMPARED}))
    for key in COMPARED:
        if not _same(actual[key], expected[key]):
            note = ""
            if key == "outcome" and actual[key] == "late":
                note = ("answered in time when recorded, late on this machine: a deadline failure; "
                        "--decision-ms gives a slow machine more time")
            raise _Diverged(Divergence(index, _where(expected), key, expected[key], _plain(actual[key]), note))


def load_bots(transcript: Transcript, roster: Path | None = None) -> list[BotSpec]:
    """The recorded bots, read again from their files and checked against their sha256.

    Files are relative to the directory of ``roster`` (default: the recorded roster path).
    """
    base = Path(roster if roster is not None else transcript.header["roster"]).parent
    specs = []
    for bot in transcript.header["bots"]:
        path = base / bot["file"]
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UsageError(f"cannot read bot {bot['bot']!r} at {path}: {exc.strerror or exc} "
                             "(--roster names the bots.json the files are relative to)") from None
        digest = sha256_hex(data)
        if digest != bot["sha256"]:
            raise UsageError(f"bot {bot['bot']!r} changed since the transcript was recorded: {path} has sha256 "
                             f"{digest}, the transcript recorded {bot['sha256']}; replay refuses another bot")
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UsageError(f"bot {bot['bot']!r}: {path} is not UTF-8 (byte {exc.start})") from None
        specs.append(BotSpec(bot["bot"], source, bot["name"]))
    return specs


def replay(transcript: Transcript, roster: Path | None = None, decision_ms: float | None = None) -> ReplayResult:
    """Run the recorded tournament again and compare it with the transcript (see the module doc)."""
    head, recorded = transcript.header, transcript.decisions
    bots = load_bots(transcript, roster)
    options = options_from_json(head["options"], decision_ms)
    warnings = []
    now = engine_hashes(options)
    for part, label in (("reference", "the reference engine (reference/*.py)"),
                        ("helper", "the engine helper (PokerEngine)")):
        if now[part] != head["engine"].get(part):
            warnings.append(f"{label} changed since the transcript was recorded "
                            f"(sha256 {now[part]}, recorded {head['engine'].get(part)}): divergences may come from it")
    forced = ForcedLate(
        init=frozenset(s["seat"] for s in transcript.footer["seats"] if s["init"]["kind"] == "late"),
        decisions=frozenset(d["index"] for d in recorded if d["outcome"] == "late"))

    def check(record: DecisionRecord) -> None:
        i = record.index
        _compare(i, recorded[i] if i < len(recorded) else None, record.to_json(timings=False))

    try:
        result = run_tournament(bots, head["seed"], head["botSeed"], options, on_decision=check, forced_late=forced)
    except _Diverged as stop:
        return ReplayResult(stop.divergence.index, stop.divergence, None, warnings)
    if len(result.decisions) < len(recorded):
        missing = recorded[len(result.decisions)]
        return ReplayResult(len(result.decisions), Divergence(
            len(result.decisions), _where(missing), "decision", {k: missing[k] for k in COMPARED},
            "the end of the tournament"), None, warnings)
    summary = footer(result)
    for key, project in (("seats", _seat_key), ("standings", _standing_key)):
        expected = [project(x) for x in transcript.footer[key]]
        actual = [project(x) for x in _plain(summary[key])]
        if not _same(expected, actual):
            at = next(k for k in range(max(len(expected), len(actual)))
                      if k >= len(expected) or k >= len(actual) or not _same(expected[k], actual[k]))
            return ReplayResult(len(recorded), Divergence(
                None, key, f"{key}[{at}]", expected[at] if at < len(expected) else None,
                actual[at] if at < len(actual) else None), None, warnings)
    return ReplayResult(len(recorded), None, summary["digest"] == transcript.footer["digest"], warnings)


def _seat_key(seat: dict) -> dict:
    """A seat report's compared part: messages (deadline wording, crash texts) are left out."""
    terminated = seat["terminated"]
    return {"seat": seat["seat"], "id": seat["id"], "bot": seat["bot"], "name": seat["name"],
            "botSeed": seat["botSeed"], "init": seat["init"]["kind"], "errors": seat["errors"],
            "decisions": seat["decisions"], "terminated": None if terminated is None else terminated["decision"],
            "violations": [(v["kind"], v["decision"]) for v in seat["violations"]]}


def _standing_key(row: dict) -> dict:
    return {**row, "terminated": None if row["terminated"] is None else row["terminated"]["decision"]}


def standings(result: TournamentResult) -> list[dict]:
    """Each seat's result, best place first: the reference's standing, its bot, its errors by
    category (contract v1, Timing) and its termination."""
    rows = []
    for standing, seat in zip(result.standings, result.seats):
        row = {"place": standing["place"], "seat": seat.seat, "id": seat.id, "bot": seat.bot, "name": seat.name,
               "chips": standing["chips"], "eliminatedInHand": standing["eliminatedInHand"],
               "errors": dict(seat.errors), "errorTotal": seat.error_count, "terminated": seat.terminated}
        for key in ("timeouts", "autoFolded"):  # holdem-sng-3-v4
            if key in standing:
                row[key] = standing[key]
        rows.append(row)
    return sorted(rows, key=lambda r: (r["place"], r["seat"]))


def footer(result: TournamentResult) -> dict:
    return {"type": "footer", "hands": len(result.hands), "decisions": len(result.decisions),
            "seats": [s.to_json(timings=False) for s in result.seats], "standings": standings(result),
            "digest": result.digest()}
