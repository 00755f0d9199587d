"""cardlab's games in the peers' arenas: PettingZoo and OpenSpiel.

``cardlab.arenas.pettingzoo.env(name, players=2, **options)`` is a PettingZoo AEC environment of any
registered game, and importing :mod:`cardlab.arenas.openspiel` registers one OpenSpiel game per registered
game (``cardlab_<name>``, with ``-`` as ``_``). Both share :mod:`cardlab.arenas.moves` (a fixed numbering of
every move of a game) and :mod:`cardlab.arenas.encoding` (a view as a fixed-size array). The core of cardlab
never imports this package, and this package imports PettingZoo, Gymnasium and OpenSpiel only in the modules
named after them (install them with ``pip install "cardlab[arenas]"``). docs/arenas.md shows how to train or
evaluate an agent in each framework.
"""

from cardlab.arenas import games  # the built-in games' move spaces, declared on import
from cardlab.arenas.encoding import ViewEncoder
from cardlab.arenas.moves import MoveSpace, MoveSpaceError, move_space, register_moves

__all__ = ["MoveSpace", "MoveSpaceError", "ViewEncoder", "games", "move_space", "register_moves"]
