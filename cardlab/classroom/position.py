"""The position the students see: drawn from ``game.observe(viewpoint)`` only, by the stepper's own drawer.

:func:`position_html` is :func:`cardlab.viz.table.table_html` with ``reveal_all`` off, so the picture is built from
the view the engine gives that seat (or the table, ``None``): a card the viewpoint has not seen is not in it, and
neither is the game's seed, shuffle key or record, which the drawer never reads. Everything a student page
receives about the game is this HTML and the question's text.
"""

from __future__ import annotations

from typing import Any

from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError, shown
from cardlab.viz.table import table_html


def position_html(game: Game[Any], viewpoint: int | None = None, four_colour: bool = False) -> str:
    """The table of ``game`` as ``viewpoint`` sees it (``None``: the table's public view, the default)."""
    if not isinstance(game, Game):
        raise InvalidInputError(f"position_html needs a cardlab game, got {shown(game)}")
    game.observe(viewpoint)   # refuses a seat the game does not have, with what it accepts
    return table_html(game, viewpoint=viewpoint, reveal_all=False, four_colour=four_colour)
