"""The Garbage ``greedy`` bot.

Exact definition:

1. At the start of a turn, take the discard's top card when it can be used (placed on a face-down
   spot, or used to displace a wild, or a wild with a face-down spot left); otherwise draw from the
   stock.
2. Always place a wild card, on the lowest-numbered face-down spot.
3. Always displace a face-up wild with its pip card; the wild then goes (by rule 2) to the lowest
   face-down spot.

Garbage has no other choices, so this is the whole policy. None of these choices depends on a hidden
card (a face-down spot is hidden from its owner too), so this bot also serves as Garbage's ``uninformed``
player: the chance law's assumption, that choices carry no information about hidden cards, holds here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardlab.engine.game import Move
from cardlab.games.garbage.rules import garbage_move, spot_of


def greedy_garbage(view: Any, legal_moves: Sequence[Move]) -> Move:
    by_kind: dict[str, list[Move]] = {}
    for m in legal_moves:
        by_kind.setdefault(m.kind, []).append(m)
    if "displace" in by_kind:
        return by_kind["displace"][0]
    if "wild" in by_kind:
        return min(by_kind["wild"], key=lambda m: spot_of(garbage_move(m)))
    draws = by_kind.get("draw", [])
    for m in draws:
        if garbage_move(m).source == "discard":
            return m
    if draws:
        return draws[0]
    return legal_moves[0]


