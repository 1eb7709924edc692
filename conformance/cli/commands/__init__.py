"""Subcommands of ``holdem-cert``; one module each (see ``conformance.cli.main``)."""
