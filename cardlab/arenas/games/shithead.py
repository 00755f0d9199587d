"""Shithead's moves: a face put face up in the set-up, a play of ``count`` cards (1 to ``MAX_OF_A_RANK``) of a
rank from the hand or the face-up cards, a blind play of face-down card ``index`` (below ``FACE_DOWN``), a
pick-up."""

from cardlab.arenas.moves import FACES, MoveSpace, kind_keys, register_moves
from cardlab.cards import Rank
from cardlab.games.shithead.rules import FACE_DOWN, MAX_OF_A_RANK, Shithead, ShitheadMove

SOURCES = ("hand", "up")
"""Where a play takes its cards from (the ``source`` of a :class:`ShitheadMove` of kind ``play``)."""


def space() -> MoveSpace:
    return MoveSpace(Shithead.name, kind_keys(ShitheadMove, "setup", {"card": FACES})
                     + kind_keys(ShitheadMove, "play", {"source": SOURCES, "rank": [int(r) for r in Rank],
                                                        "count": range(1, MAX_OF_A_RANK + 1)})
                     + kind_keys(ShitheadMove, "blind", {"index": range(FACE_DOWN)})
                     + kind_keys(ShitheadMove, "pickup", {}))


register_moves(Shithead, space)
