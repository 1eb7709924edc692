"""Generators of the golden vectors, one module per family (see conformance.vectors.vectorfile)."""
from . import deck, equity, evaluate, hand, hands, legality, pots, rng, runner, sng3v4, tournaments

FAMILIES = {m.__name__.rsplit(".", 1)[1]: m for m in (rng, deck, evaluate, equity, pots, legality, hands, hand, tournaments, sng3v4, runner)}
