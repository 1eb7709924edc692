"""Pots as contribution layers (contract, Decision state: ``pots``; ruling R7)."""
from __future__ import annotations

from collections.abc import Sequence

from .errors import PotsError
from .rulings import as_profile


def layer_pots(ids: Sequence[str], committed: Sequence[int], folded: Sequence[bool],
               dead_alone: bool = False, raw: bool = False) -> list[dict]:
    """Layers for already-validated parallel lists (the engine's hot path).

    A layer is cut at every distinct contribution level; its amount counts every
    contributor (folded chips stay in the pot); its eligible ids are the non-folded
    contributors reaching it. Adjacent layers with identical eligibility merge; a
    layer nobody can win joins the layer below (R7).

    Eligibility changes only just above the level of a seat still in, so the merged
    layers are cut at those levels alone; chips above the highest (folded excess) join
    the top layer, or make the one layer nobody can win when every contributor folded.

    Ruling alternatives: ``dead_alone`` (R7) keeps the chips nobody can win as a layer of
    their own with ``eligible: []``; ``raw`` (R13) cuts at every level, folded ones too, and
    merges nothing (the layers nobody can win are then the ones above the top live level).
    """
    levels = sorted({c for c, f in zip(committed, folded) if c > 0 and (raw or not f)})
    pots: list[dict] = []
    floor = 0
    for top in levels:
        amount = 0
        eligible = []
        for pid, c, f in zip(ids, committed, folded):
            if c > floor:
                amount += (c if c < top else top) - floor
                if c >= top and not f:
                    eligible.append(pid)
        pots.append({"amount": amount, "eligible": eligible})
        floor = top
    if raw:  # the layers nobody can win are at the top
        while not dead_alone and len(pots) > 1 and not pots[-1]["eligible"]:
            pots[-2]["amount"] += pots.pop()["amount"]
        return pots
    rest = sum([c - floor for c in committed if c > floor])
    if rest:
        if pots and not dead_alone:
            pots[-1]["amount"] += rest
        else:
            pots.append({"amount": rest, "eligible": []})
    return pots


def build_pots(contributions: object, rulings=None) -> list[dict]:
    """``build_pots([{id, committed, folded}, ...])`` -> ``[{amount, eligible}, ...]``.

    ``rulings`` (a ``reference.rulings.Profile`` or a plain dict) may choose R7's alternative.
    Raises PotsError naming the entry and field on malformed input.
    """
    dead_alone = as_profile(rulings).get("R7") == "stand-alone"
    if not isinstance(contributions, (list, tuple)):
        raise PotsError("contributions", f"expected a list, got {type(contributions).__name__}")
    ids, committed, folded = [], [], []
    for i, entry in enumerate(contributions):
        where = f"contributions[{i}]"
        if not isinstance(entry, dict):
            raise PotsError(where, f"expected an object, got {type(entry).__name__}")
        for key in ("id", "committed", "folded"):
            if key not in entry:
                raise PotsError(f"{where}.{key}", "missing")
        pid, amount, is_folded = entry["id"], entry["committed"], entry["folded"]
        if not isinstance(pid, str) or not pid:
            raise PotsError(f"{where}.id", f"expected a non-empty string, got {pid!r}")
        if pid in ids:
            raise PotsError(f"{where}.id", f"duplicate id {pid!r}")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise PotsError(f"{where}.committed", f"expected a non-negative integer, got {amount!r}")
        if not isinstance(is_folded, bool):
            raise PotsError(f"{where}.folded", f"expected a boolean, got {is_folded!r}")
        ids.append(pid)
        committed.append(amount)
        folded.append(is_folded)
    return layer_pots(ids, committed, folded, dead_alone)
