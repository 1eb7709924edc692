"""The one rule for refusals, shared by every family (docs/INTERPRETING.md, Refusals).

Where the contract requires a refusal (an invalid answer to ``act``, an invalid input to a helper,
a recovery ``recover`` must refuse), any refusal passes: the contract names no error codes, so a
missing or different ``error.code`` (or ``field``) is reported as a note, never failed. A refusal
of what the contract accepts fails (the reference accepts it: the outcomes differ).
"""
from __future__ import annotations

import json

NOTE_TAIL = "any refusal passes: reported, not failed"


def is_refusal(outcome: object) -> bool:
    """An outcome recording that the engine refused (threw): ``{"threw": ...}``, whatever it threw."""
    return isinstance(outcome, dict) and "threw" in outcome


def code_of(thrown: object, key: str = "code") -> str | None:
    """The code (or ``key``) an engine gave with a refusal: a thrown error's ``code``, or the code
    itself where a view already holds only the code; None when it gave none."""
    if isinstance(thrown, dict):
        thrown = thrown.get(key)
    return thrown if isinstance(thrown, str) else None


def refusal_note(where: str, given: str | None, wanted: str | None, what: str = "error.code") -> str | None:
    """The note on a refusal that the contract requires, or None: ``given`` is the engine's code
    (None: it gave none), ``wanted`` the one the vectors give (None: they give none)."""
    if wanted is None or given == wanted:
        return None
    if given is None:
        return f"{where}: refused without {what}; the vectors give {json.dumps(wanted)} ({NOTE_TAIL})"
    return f"{where}: {what} is {json.dumps(given)}; the vectors give {json.dumps(wanted)} ({NOTE_TAIL})"
