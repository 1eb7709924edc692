"""The default battery's generated states, shipped (issue #25): ``battery.json.gz`` beside this module.

Generating them -- the 200 random states (hypothesis games, :mod:`conformance.bots.random_states`)
and the 20 states of each decision kind (seeded reference tournaments,
:func:`conformance.bots.decision_kinds.stratified_states`) -- took one to three seconds of every
``holdem-cert bot`` run, for the same states every time. With the default counts the battery reads
them from this file; any other count generates as before. The file also makes the default battery
the same whatever hypothesis version is installed (it records the version it was made with, and
the games hypothesis drew: the states are the reference's play of them on any version).

    python -m conformance.bots.battery_file [--write]

checks the file against a fresh generation (exit 1 when it differs), or writes it (byte-identical
for the same states: gzip without a time stamp). tests/test_decision_kinds.py checks it too.
"""
from __future__ import annotations

import argparse
import functools
import gzip
import json
import sys
from pathlib import Path

from . import decision_kinds, random_states

PATH = Path(__file__).with_name("battery.json.gz")
GENERATED = 200  # the default count of random states (CertOptions.generated_states)
PER_KIND = 20  # the default states per decision kind (CertOptions.kind_states)


def build() -> dict:
    """The file's content from a fresh generation."""
    import hypothesis

    games, generated = random_states.generate_games(GENERATED)
    games = json.loads(json.dumps(games))  # as the file holds them (a schedule's tuples are lists)
    return {"hypothesis": hypothesis.__version__,
            "generationSeed": random_states.GENERATION_SEED, "games": games, "generated": generated,
            "kindSeed": decision_kinds.KIND_SEED, "perKind": PER_KIND,
            "kinds": decision_kinds.generate(PER_KIND, decision_kinds.KIND_SEED)}


def encode(content: dict) -> bytes:
    return gzip.compress(json.dumps(content, separators=(",", ":"), ensure_ascii=False).encode("utf-8"), mtime=0)


@functools.cache
def shipped() -> dict:
    """The file's content (read once)."""
    return json.loads(gzip.decompress(PATH.read_bytes()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the file instead of checking it")
    args = parser.parse_args(argv)
    content = build()
    if args.write:
        PATH.write_bytes(encode(content))
        print(f"wrote {PATH} ({len(content['generated'])} generated, {len(content['kinds'])} kind states)")
        return 0
    old = shipped()
    for key in ("games", "generated", "kinds"):
        if old[key] != content[key]:
            print(f"{PATH}: the {key} differ from a fresh generation (hypothesis {content['hypothesis']}; "
                  f"the file's: {old['hypothesis']}): rerun with --write")
            return 1
    print(f"{PATH}: up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
