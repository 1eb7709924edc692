"""``holdem-cert implementations``: the bundled implementations (registry.py) certified on their
declared profiles, and the table of them (table.py), as Bowtie's table of JSON Schema
implementations: people choose an implementation by looking at it (issue #15)."""
from .registry import REGISTRY, Implementation, by_name
from .table import certify_all, profile_table, to_html, to_json, to_markdown

__all__ = ["REGISTRY", "Implementation", "by_name", "certify_all", "profile_table", "to_html", "to_json", "to_markdown"]
