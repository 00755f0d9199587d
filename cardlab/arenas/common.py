"""What both arenas share: the returns at the end of a game and the bound on a game's length."""

from __future__ import annotations

from typing import Any

from cardlab.engine.game import Game

MAX_MOVES = 20_000
"""The arenas' hard bound on a game's length in moves (option ``max_moves``): a game still going after it ends
with no winner (PettingZoo: truncated; OpenSpiel: terminal, every return 0). OpenSpiel needs such a bound
(``max_game_length``); no built-in game reaches it in random play (Shithead's own ``max_turns`` safety rule
stops a game first, and Garbage and Spite and Malice deals end in hundreds of moves: see
tests/arenas/test_moves_and_views.py and docs/arenas.md)."""


def returns(game: Game[Any]) -> list[float]:
    """Zero-sum terminal returns: the winner +1, every other seat ``-1 / (players - 1)``; no winner (a drawn
    game, a game cut at the bound, or one not over): 0 each."""
    winner = game.winner if game.is_over else None
    if winner is None:
        return [0.0] * game.players
    loss = -1.0 / (game.players - 1) if game.players > 1 else 0.0
    return [1.0 if p == winner else loss for p in range(game.players)]


__all__ = ["MAX_MOVES", "returns"]
