"""Garbage's moves: a draw from the stock or the discard pile, a wild to a spot, a pip displacing a wild from its
spot (spots 1 to ``MAX_SPOTS``), a discard."""

from cardlab.arenas.moves import MoveSpace, kind_keys, register_moves
from cardlab.games.garbage.rules import MAX_SPOTS, Garbage, GarbageMove

SOURCES = ("stock", "discard")
"""Where a draw takes its card from (the ``source`` of a :class:`GarbageMove` of kind ``draw``)."""


def space() -> MoveSpace:
    spots = range(1, MAX_SPOTS + 1)
    return MoveSpace(Garbage.name, kind_keys(GarbageMove, "draw", {"source": SOURCES})
                     + kind_keys(GarbageMove, "wild", {"spot": spots})
                     + kind_keys(GarbageMove, "displace", {"spot": spots})
                     + kind_keys(GarbageMove, "discard", {}))


register_moves(Garbage, space)
