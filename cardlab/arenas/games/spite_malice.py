"""Spite and Malice's moves: the payoff top, a side pile's top or a hand card (a face) to a centre pile, a hand
card to a side pile (``CENTRE_PILES`` and ``SIDE_PILES`` piles)."""

from cardlab.arenas.moves import FACES, MoveSpace, kind_keys, register_moves
from cardlab.games.spite_malice.rules import CENTRE_PILES, SIDE_PILES, SpiteMalice, SpiteMove


def space() -> MoveSpace:
    centres, sides = range(1, CENTRE_PILES + 1), range(1, SIDE_PILES + 1)
    return MoveSpace(SpiteMalice.name, kind_keys(SpiteMove, "payoff", {"centre": centres})
                     + kind_keys(SpiteMove, "side", {"side": sides, "centre": centres})
                     + kind_keys(SpiteMove, "hand", {"card": FACES, "centre": centres})
                     + kind_keys(SpiteMove, "discard", {"card": FACES, "side": sides}))


register_moves(SpiteMalice, space)
