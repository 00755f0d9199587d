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
    KernelError,
    MissingExtraError,
    PolicyError,
    UnknownGameError,
)
from cardlab.sim.simulate import SimResult, simulate

__version__ = "0.1.0"
LAB_MODULES = frozenset({"ipywidgets", "plotly", "anywidget", "traitlets", "IPython", "tqdm"})
"""Modules of the ``lab`` extra: the widget and the figures need them, the core does not."""


def __getattr__(name: str) -> object:
    """``cardlab.Stepper`` is imported on first use, so the core never loads the widget stack."""
    if name == "Stepper":
        try:
            from cardlab.viz.stepper import Stepper
        except ImportError as exc:
            if exc.name not in LAB_MODULES and (exc.name or "").split(".")[0] not in LAB_MODULES:
                raise
            raise MissingExtraError(
                f'cardlab.Stepper needs the teaching stack ({exc.name} is not installed); install it with: '
                'pip install "cardlab[lab]"') from exc
        return Stepper
    if name == "ClassSession":   # the teacher's side of a class session (cardlab.classroom; standard library only)
        from cardlab.classroom.client import ClassSession

        return ClassSession
    raise AttributeError(f"module 'cardlab' has no attribute {name!r}")

__all__ = [
    "Card", "CardlabError", "ClassSession", "CorruptRecordError", "Event", "Game", "IllegalMoveError",
    "InvalidCardError", "InvalidInputError", "KernelError", "MissingExtraError", "Move", "PolicyError", "Rank",
    "SimResult", "Stepper",
    "Suit", "UnknownGameError",
    "game_names", "load_game", "new_game", "simulate",
]
