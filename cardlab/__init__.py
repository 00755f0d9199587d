"""cardlab: teaching probability with card games in Jupyter.

Three games share one engine: Garbage (Trash), Spite and Malice, and Shithead (Palace)::

    import cardlab
    g = cardlab.new_game("garbage", players=2, seed=7)
    g.play(g.legal_moves()[0])
"""

from cardlab.cards import Card, Rank, Suit
from cardlab.engine import Event, Game, Move, game_names, load_game, new_game
from cardlab.errors import (
    CardlabError,
    CorruptRecordError,
    IllegalMoveError,
    InvalidCardError,
    InvalidInputError,
    UnknownGameError,
)
from cardlab.sim.simulate import SimResult, simulate

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """``cardlab.Stepper`` is imported on first use, so the core never loads the widget stack."""
    if name == "Stepper":
        from cardlab.viz.stepper import Stepper

        return Stepper
    raise AttributeError(f"module 'cardlab' has no attribute {name!r}")

__all__ = [
    "Card", "CardlabError", "CorruptRecordError", "Event", "Game", "IllegalMoveError", "InvalidCardError",
    "InvalidInputError", "Move", "Rank", "SimResult", "Stepper", "Suit", "UnknownGameError", "game_names", "load_game",
    "new_game", "simulate",
]
