"""``holdem-cert``: the command-line entry point.

Each subcommand is a module in ``conformance/cli/commands/`` defining ``NAME``, ``HELP``,
``configure(parser)`` and ``run(args) -> int``; they are discovered, so adding a
command touches no shared file. Exit codes: 0 success, 1 a verdict of failure,
2 usage or I/O error (printed without a traceback).
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.metadata
import pkgutil
import signal
import sys
import threading

from reference.errors import HoldemError

from conformance.errors import UsageError
from conformance.host.linepipe import kill_all, live_children, signal_name
from conformance.host.reaper import become_subreaper, kill_orphans
from conformance.resources import DOCS_DIR
from conformance.vectors.vectorfile import GENERATOR
from . import commands


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's default exit code is also 2; keep the prefix ours
        self.print_usage(sys.stderr)
        raise UsageError(message)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone when it is one (its module's name is the
    command's): a command imports only what it uses (``holdem-cert bot`` needs none of the engine
    judges' libraries, a third of the CLI's start-up; issue #35)."""
    parser = _Parser(prog="holdem-cert", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"holdem-cert {_version()} (docs: {DOCS_DIR})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    names = sorted(m.name for m in pkgutil.iter_modules(commands.__path__))
    for name in [command] if command in names else names:
        module = importlib.import_module(f"{commands.__name__}.{name}")
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.configure(p)
        p.set_defaults(_run=module.run, _parser=p)
    return parser


def _version() -> str:
    try:
        return importlib.metadata.version("holdem-conformance")
    except importlib.metadata.PackageNotFoundError:  # a checkout run without installing
        return GENERATOR["version"]


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The arguments; an unknown option is reported with its subcommand's usage, not the top level's."""
    argv = sys.argv[1:] if argv is None else argv
    args, unknown = build_parser(argv[0] if argv else None).parse_known_args(argv)
    if unknown:
        args._parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived. A BaseException, like KeyboardInterrupt: it unwinds through every
    ``finally`` and ``with`` (drivers and workers close there, and their finalizers kill what is
    left), and no ``except Exception`` takes it for an engine's fault."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminate(signum: int, frame) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def _terminable():
    """SIGTERM and SIGHUP raise Terminated while the command runs (the default action would kill
    us at once and leave engine and worker processes behind)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _terminate) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def main(argv: list[str] | None = None) -> int:
    become_subreaper()  # a --cmd engine's setsid grandchild becomes ours, killed at the end
    try:
        return _main(argv)
    finally:
        kill_orphans(live_children())


def _main(argv: list[str] | None) -> int:
    try:
        with _terminable():
            args = parse(argv)
            return int(args._run(args))
    except Terminated as exc:
        kill_all()  # closing has already stopped them; this is in case something held on
        print(f"holdem-cert: stopped by {signal_name(exc.signum)}; the engines and workers it ran "
              "were stopped", file=sys.stderr)
        return 128 + exc.signum
    except (UsageError, HoldemError) as exc:
        print(f"holdem-cert: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"holdem-cert: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("holdem-cert: interrupted", file=sys.stderr)
        return 130
