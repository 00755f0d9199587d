"""The lessons' answer keys, one module per lesson (``lesson_NN.py``), and the helpers they share.

Each module has one public function per exercise, ``exercise_N(**inputs) -> Exercise``; everything that computes a
truth is private to the key. See :mod:`cardlab.course`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

import cardlab
from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError, shown
from cardlab.policies import choose, make_policy


def folder() -> Path:
    """The folder of the key modules."""
    return Path(__file__).resolve().parent


def greedy_moves(game: Game[Any], moves: int, *, seed: int = 0) -> Game[Any]:
    """``game`` after ``moves`` more moves of greedy bots (fewer if it ends sooner), played in place."""
    bot = make_policy("greedy", game.name, np.random.default_rng(seed))
    for _ in range(moves):
        if game.is_over:
            break
        game.play(choose(bot, game))
    return game


def play_out_table(value: object, name: str) -> np.ndarray[Any, Any]:
    """``value`` as a table of play-out results, one row per world and one 0/1 column per move of two (lessons 16
    and 17 print such tables), else an error naming it."""
    table = np.asarray(value) if isinstance(value, (list, tuple, np.ndarray)) else None
    if table is None or table.ndim != 2 or table.shape[0] < 2 or table.shape[1] != 2 or \
            not np.isin(table, (0, 1)).all():
        raise InvalidInputError(f"{name}={shown(value)}: give the lesson's table of play-out results (one row per "
                                "world, 1 or 0 for each of the two moves)")
    return table.astype(int)


def a_game(value: object, name: str = "game") -> Game[Any]:
    """``value`` if it is a cardlab game, else an error naming it (a key is given the game its question names)."""
    if not isinstance(value, Game):
        raise InvalidInputError(f"{name}={shown(value)} is not a cardlab game: give the game the exercise asks "
                                "about (e.g. game=cardlab.new_game(...))")
    return value


__all__ = ["a_game", "cardlab", "folder", "greedy_moves", "play_out_table"]
