"""JavaScript's words for the engine's values in messages (issue #24, item 7): null, true,
"text", [1,2] and undefined, never Python's None, True, 'text'."""
from __future__ import annotations

import json

UNDEFINED = object()  # a field the engine's value does not have: JavaScript's undefined


def js_text(value: object, limit: int = 300) -> str:
    """A JavaScript value as JavaScript writes it (null, true, "text", [1,2]; undefined), for
    messages about the engine's values (issue #24, item 7: no Python words there)."""
    if value is UNDEFINED:
        return "undefined"
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        text = "NaN" if value != value else "Infinity" if value == float("inf") else "-Infinity" \
            if value == float("-inf") else str(value)
    return text if len(text) <= limit else text[:limit] + "…"
