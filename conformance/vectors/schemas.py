"""The JSON Schemas in ``schemas/``: loading them into one registry and validating against them."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING

from conformance.resources import SCHEMA_DIR

if TYPE_CHECKING:  # imported on first use below
    from jsonschema import Draft202012Validator
    from referencing import Registry

BASE = "https://holdem-conformance.dev/schemas/"


@lru_cache(maxsize=1)
def registry() -> "Registry":
    # jsonschema and referencing are imported on first use: a tenth of the command line's start-up,
    # which most commands (holdem-cert bot among them) never need.
    from referencing import Registry, Resource

    resources = []
    for path in sorted(SCHEMA_DIR.rglob("*.schema.json")):
        schema = json.loads(path.read_text())
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def validator(name: str) -> "Draft202012Validator":
    """A validator for ``schemas/<name>.schema.json`` (name may include a subfolder: ``vectors/hands``)."""
    from jsonschema import Draft202012Validator

    schema = registry().contents(f"{BASE}{name}.schema.json")
    return Draft202012Validator(schema, registry=registry(), format_checker=Draft202012Validator.FORMAT_CHECKER)


def errors(name: str, instance: object, limit: int = 5) -> list[str]:
    """Readable schema errors (path: message), at most ``limit``."""
    found = sorted(validator(name).iter_errors(instance), key=lambda e: list(e.absolute_path))
    out = []
    for e in found[:limit]:
        where = "/".join(str(p) for p in e.absolute_path) or "(root)"
        out.append(f"{where}: {e.message[:300]}")
    return out
