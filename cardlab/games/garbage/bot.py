"""The Garbage ``greedy`` bot.

Exact definition:

1. At the start of a turn, take the discard's top card when it can be used (placed on a face-down
   spot, or used to displace a wild, or a wild with a face-down spot left); otherwise draw from the
   stock.
2. Always place a wild card, on the lowest-numbered face-down spot.
3. Always displace a face-up wild with its pip card; the wild then goes (by rule 2) to the lowest
   face-down spot.

Garbage has no other choices, so this is the whole policy. It is written once, as an order of preference
over the legal moves (:data:`PREFERENCE`, :func:`preference`): the bot makes the legal move that comes
first. The kernel tabulates the same order when it plays (:func:`cardlab.games.garbage.kernel.prefer_table`).
None of these choices depends on a hidden card (a face-down spot is hidden from its owner too), so this
bot also serves as Garbage's ``uninformed`` player: the chance law's assumption, that choices carry no
information about hidden cards, holds here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardlab.engine.game import Move
from cardlab.games.garbage.rules import garbage_move

PREFERENCE = ("displace", "wild", "draw discard", "draw stock", "discard")
"""**The greedy preference**: the kinds of move (:func:`choice`) in the order the bot prefers them: displace
a wild, place a wild, take the discard's top card, draw from the stock, discard. Only moves of one phase
are ever legal together (draw stock or take the discard; a wild's spots or discard; displace or discard),
so this reads as rules 1-3 above."""


def choice(move: Move) -> str:
    """The kind of a Garbage move as :data:`PREFERENCE` names it: a draw by its source, else its kind."""
    m = garbage_move(move)
    return f"draw {m.source}" if m.kind == "draw" else m.kind


def preference(move: Move) -> tuple[int, int]:
    """The bot's key of a legal move (lower is preferred): its kind's place in :data:`PREFERENCE`, then its
    spot (the lowest face-down spot first for a wild; 0 for a move that names no spot)."""
    return PREFERENCE.index(choice(move)), garbage_move(move).spot or 0


def greedy_garbage(view: Any, legal_moves: Sequence[Move]) -> Move:
    return min(legal_moves, key=preference)
