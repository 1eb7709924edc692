"""argparse types shared by the subcommands: each rejects bad text with a message naming why."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from conformance.errors import UsageError
from conformance.outfiles import write_text


def whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def count(text: str) -> int:
    value = whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {value}")
    return value


def at_least_one(text: str) -> int:
    value = whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def uint32(text: str) -> int:
    value = whole(text)
    if not 0 <= value <= 2**32 - 1:
        raise argparse.ArgumentTypeError(f"expected an unsigned 32-bit integer 0..4294967295, got {value}")
    return value


def positive_number(text: str, unit: str = "") -> float:
    what = f"number of {unit}" if unit else "number"
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a {what}, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive {what}, got {text}")
    return value


def milliseconds(text: str) -> float:
    value = positive_number(text, "milliseconds")
    return int(value) if value.is_integer() else value


def seconds(text: str) -> float:
    return positive_number(text, "seconds")


def write_json_report(path: Path, data: object) -> None:
    """Write a report whole or not at all; an unwritable path is a usage error naming it."""
    try:
        write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def add_quiet_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quiet", action="store_true", help="no progress display (there is none when stderr is not a terminal)")


def show_progress(args: argparse.Namespace) -> bool:
    """A progress display on stderr: only for a person watching, and not when asked to be quiet."""
    return sys.stderr.isatty() and not args.quiet
