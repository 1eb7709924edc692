"""Tournaments as the arena runs them: bots from a roster, seated and played by
:func:`conformance.harness.runner.run_tournament`, recorded in a transcript (:mod:`conformance.arena.transcript`).

``holdem-cert play`` and ``holdem-cert match`` read the roster through :func:`load_roster`
(``lint_roster``: an error about the roster as a whole or about a bot that is to play
stops them) and seat bots through :func:`select_bots`.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from reference.errors import HoldemError
from reference.ruleset import get_ruleset

from conformance.errors import UsageError
from conformance.harness.roster import lint_roster, parse_roster, read_roster_bytes
from conformance.harness.runner import BotSpec, DecisionRecord, RunnerOptions, TournamentResult, run_tournament
from . import transcript
from .transcript import RecordedBot


@dataclass(frozen=True)
class RosterBot:
    """A roster entry with its source read: ``spec`` seats it, ``recorded`` names it in transcripts."""

    spec: BotSpec
    recorded: RecordedBot


@dataclass(frozen=True)
class Roster:
    path: Path
    ids: tuple[str, ...]  # every entry's id, in roster order
    bots: dict[str, RosterBot]  # the entries read (those asked for)


def load_roster(path: Path, ids: Sequence[str] | None = None) -> Roster:
    """The roster with the bots ``ids`` (None: all) read; UsageError listing the problems when
    the roster as a whole, or an entry asked for, has an error."""
    path = Path(path)
    try:
        report = lint_roster(path)
    except OSError as exc:
        raise UsageError(f"cannot read roster {path}: {exc.strerror or exc}") from None
    wanted = None if ids is None else set(ids)
    problems = [p for p in report.errors if p.entry_id is None or wanted is None or p.entry_id in wanted]
    if problems:
        lines = "".join(f"\n  {p.entry_id or '-'}: {p.field}: {p.message}" for p in problems)
        raise UsageError(f"{path}: the roster has errors (see 'holdem-cert roster {path}'):{lines}")
    entries = parse_roster(read_roster_bytes(path))["bots"]
    bots = {}
    for entry in entries:
        if wanted is None or entry["id"] in wanted:
            data = (path.parent / entry["file"]).read_bytes()
            bots[entry["id"]] = RosterBot(
                BotSpec(entry["id"], data.decode("utf-8"), entry["name"]),
                RecordedBot(entry["id"], entry["name"], entry["file"], transcript.sha256_hex(data)))
    return Roster(path, tuple(e["id"] for e in entries), bots)


def select_bots(roster_path: Path, ids: Sequence[str] | None, ruleset: str, distinct: bool = False,
                one_table: bool = True) -> list[RosterBot]:
    """The bots to seat, in order: ``ids`` (an id may repeat unless ``distinct`` or the ruleset
    wants distinct identities), or every roster bot once; ``one_table``: as many as one table seats."""
    try:
        rules = get_ruleset(ruleset)
    except HoldemError as exc:
        raise UsageError(f"--ruleset: {exc.reason}") from None
    roster = load_roster(roster_path, ids)
    if ids is None:
        ids = list(roster.ids)
    unknown = [i for i in dict.fromkeys(ids) if i not in roster.bots]
    if unknown:
        raise UsageError(f"--bots: unknown bot id{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
                         f"(the roster {roster_path} has {', '.join(roster.ids) or 'none'})")
    if (distinct or rules.distinct_names) and len(set(ids)) != len(ids):
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        raise UsageError(f"--bots: {', '.join(map(repr, repeated))} repeated; "
                         f"{'a match' if distinct else rules.name} needs distinct bots")
    if one_table and not rules.min_seats <= len(ids) <= rules.max_seats:
        seats = (f"exactly {rules.min_seats}" if rules.min_seats == rules.max_seats
                 else f"{rules.min_seats} to {rules.max_seats}")
        raise UsageError(f"--bots: {rules.name} seats {seats} bots, got {len(ids)} ({', '.join(ids)})")
    return [roster.bots[i] for i in ids]


def play(roster_path: Path, bots: Sequence[RosterBot], seed: int, bot_seed: int, options: RunnerOptions,
         transcript_path: Path | None = None, on_hand: Callable[[dict], None] | None = None) -> TournamentResult:
    """Play one tournament; with ``transcript_path``, record it (written whole or not at all)."""
    specs = [b.spec for b in bots]
    if transcript_path is None:
        return run_tournament(specs, seed, bot_seed, options, on_hand=on_hand)
    try:
        writer = transcript.TranscriptWriter(transcript_path)
    except OSError as exc:
        raise UsageError(f"cannot write {transcript_path}: {exc.strerror or exc}") from None
    with writer:
        writer.write(transcript.header(roster_path, [b.recorded for b in bots], seed, bot_seed, options))

        def record(decision: DecisionRecord) -> None:
            writer.write(transcript.decision_line(decision))

        result = run_tournament(specs, seed, bot_seed, options, on_decision=record, on_hand=on_hand)
        writer.write(transcript.footer(result))
    return result


def standings_json(result: TournamentResult, options: RunnerOptions) -> dict:
    """The ``--json`` report: seeds, options, counts, digest and the standings (no timings)."""
    return {"seed": result.seed, "botSeed": result.bot_seed, "options": transcript.options_json(options),
            "hands": len(result.hands), "decisions": len(result.decisions), "digest": result.digest(),
            "standings": transcript.standings(result)}
