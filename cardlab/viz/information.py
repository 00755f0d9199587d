"""What a viewpoint knows, compared across viewpoints: two viewpoints with the same information are twins.

``game.observe(seat)`` is everything ``seat`` (or the table, ``None``) may see. Two views that differ only in
whose view they are (the view's own ``seat`` field) hold the same information: in Garbage every card in a
layout is face down to everybody, so the table and each seat know exactly the same. The stepper uses this in
two places:

* the estimates of a twin are the estimates of the first viewpoint with that information (the table, then seat
  0, 1, ...): the same generator and the same play-outs, so switching between twins changes no number
  (:func:`canonical_code`, used by :class:`~cardlab.viz.estimates.Estimates`);
* the move values of the seat to move (computed from its own information) show in any view that knows what
  the mover knows, not only in the mover's own (:func:`same_information`).

The comparison reads only the views' public fields (dataclass equality), never a game's internals; a game
whose view is not a dataclass with a ``seat`` field has no twins.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from cardlab.engine.game import Game


def information(game: Game[Any], seat: int | None) -> Any:
    """What ``seat`` knows of the position, without the name of whose view it is."""
    view = game.observe(seat)
    if dataclasses.is_dataclass(view) and not isinstance(view, type) \
            and any(f.name == "seat" for f in dataclasses.fields(view)):
        return dataclasses.replace(view, seat=None)
    return (seat, view)


def same_information(game: Game[Any], a: int | None, b: int | None) -> bool:
    """Whether viewpoints ``a`` and ``b`` (a seat, or None for the table) know the same in this position."""
    if a == b:
        return True
    try:
        return bool(information(game, a) == information(game, b))
    except (TypeError, ValueError):   # a view holding arrays compares element by element: no twins then
        return False


def canonical_code(game: Game[Any], code: int) -> int:
    """The viewpoint code (0 for the table, k + 1 for seat k) of the first viewpoint knowing what ``code``
    knows in this position: the table, then seat 0, 1, ... (``code`` itself when it has no twin before it)."""
    seat = None if code == 0 else code - 1
    for first in range(code):
        if same_information(game, None if first == 0 else first - 1, seat):
            return first
    return code
