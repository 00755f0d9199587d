"""The table as plain text, for the arenas' ``ansi`` render: the public view (``game.observe(None)``) field by
field, cards as ``7♥``, hidden cards as ``##``. Nothing here reads a hidden card."""

from __future__ import annotations

import dataclasses
from typing import Any

from cardlab.cards import Card
from cardlab.engine.game import Game


def text_of(value: Any) -> str:
    """A view value as text: cards as faces, None (a hidden card, or nothing) as ``##``, tuples bracketed."""
    if value is None:
        return "##"
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (tuple, list)):
        return "[" + " ".join(text_of(v) for v in value) + "]"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return "{" + ", ".join(f"{f.name}={text_of(getattr(value, f.name))}" for f in dataclasses.fields(value)) + "}"
    return str(value)


def status(game: Game[Any], moves: int | None = None) -> str:
    """``Garbage, 2 players, move 12, seat 0 to move``; ``moves`` counts the moves (default: the game's own count,
    which a resampled game restarts from 0)."""
    where = "over" if game.is_over else f"seat {game.current_player} to move"
    return f"{game.title}, {game.players} players, move {game.move_count if moves is None else moves}, {where}"


def table_text(game: Game[Any], seat: int | None = None, moves: int | None = None) -> str:
    """What ``seat`` (None: anybody at the table) sees, one field a line, under the status line (:func:`status`)."""
    view = game.observe(seat)
    lines = [status(game, moves)]
    if dataclasses.is_dataclass(view) and not isinstance(view, type):
        lines += [f"  {f.name}: {text_of(getattr(view, f.name))}" for f in dataclasses.fields(view)]
    else:
        lines.append(f"  {view!r}")
    return "\n".join(lines)


__all__ = ["status", "table_text", "text_of"]
