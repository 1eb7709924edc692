"""Where the suite's data lives: ``vectors/``, ``schemas/``, ``bots/``, ``bots.json`` and ``docs/``.

In a source checkout (and an editable install) they sit at the repository root beside the
packages. A wheel carries a copy inside the package, ``conformance/_data/`` (``setup.py``'s
``build_py`` puts it there), so an installed suite finds its vectors and house bots wherever it
runs from; it carries ``docs/`` (without images) too, because messages cite docs/rulings.md and
the like: ``holdem-cert --version`` says where they are.
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path

# Copied into the wheel by setup.py, in this order.
DATA_ITEMS = ("vectors", "schemas", "bots", "bots.json", "docs")

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent


def _data_root() -> Path:
    if all((_CHECKOUT / item).exists() for item in DATA_ITEMS):
        return _CHECKOUT
    return _PACKAGE / "_data"


DATA_ROOT = _data_root()
VECTOR_DIR = DATA_ROOT / "vectors"
SCHEMA_DIR = DATA_ROOT / "schemas"
HOUSE_ROSTER = DATA_ROOT / "bots.json"
DOCS_DIR = DATA_ROOT / "docs"


def default_roster() -> Path:
    """``./bots.json`` when the working directory has one, else the bundled house roster."""
    local = Path("bots.json")
    return local if local.is_file() else HOUSE_ROSTER


def javascript(package: str, name: str) -> str:
    """The JavaScript file ``name`` kept beside the modules of ``package`` (a ``.js`` file, so that
    JavaScript tools can check it; packaged by pyproject's package-data)."""
    return files(package).joinpath(name).read_text(encoding="utf-8")
