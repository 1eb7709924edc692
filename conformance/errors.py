"""Errors of the certification tools (the CLI prints them and exits 2)."""


class UsageError(Exception):
    """Bad command-line usage or unreadable input: printed as ``holdem-cert: <message>``, exit 2."""
