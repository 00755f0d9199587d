"""The shared engine: game base class, moves, events, records and the registry."""

from cardlab.engine.game import Event, Game, Move, Option, View
from cardlab.engine.registry import (
    canonical_name,
    game_class,
    game_names,
    game_spec,
    game_specs,
    load_game,
    new_game,
    register,
)
from cardlab.engine.spec import GameKernel, GameSpec, RolloutBudgets
from cardlab.engine.state import PlayState, State

__all__ = ["Event", "Game", "Move", "Option", "PlayState", "State", "View", "canonical_name", "game_class",
           "game_names", "game_spec", "game_specs", "load_game", "new_game", "register", "GameKernel", "GameSpec",
           "RolloutBudgets"]
