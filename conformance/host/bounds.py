"""What a bot's worker may hand back, bounded (ruling R34; the roster's bounds are R29's).

The worker (:mod:`conformance.host.worker_process`) enforces these before anything crosses into Python, so a
bot answering or throwing a megabyte costs the suite a few hundred bytes per decision.
"""
from __future__ import annotations

MAX_ANSWER_CHARS = 1000  # a string in an answer (the answer, its type, its amount); longer: not read
MAX_TEXT_CHARS = 200  # a thrown name or message, a description; longer: cut, "… (N more characters)"
MAX_NAME_CHARS = 100  # an exported `name` (as the roster's name, R29); longer: cut the same way


def bounded(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """At most ``limit`` characters of ``text``, the cut said as the worker says it."""
    return text if len(text) <= limit else f"{text[:limit]}\u2026 ({len(text) - limit} more characters)"
MAX_SEAT_VIOLATIONS = 1000  # violations kept per seat (or battery run); later ones are only counted


def extend_bounded(records: list, items, limit: int = MAX_SEAT_VIOLATIONS) -> int:
    """Append ``items`` to ``records`` up to ``limit`` records in all; how many were left out."""
    items = list(items)
    room = max(0, limit - len(records))
    records.extend(items[:room])
    return len(items) - min(room, len(items))
