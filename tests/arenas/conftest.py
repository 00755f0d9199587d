"""The arenas' tests: PettingZoo and OpenSpiel come with the ``arenas`` extra (``pip install ".[arenas]"``).

Without them these tests skip with that advice, except when ``CI`` is set: then a missing package is a failure,
so CI can never pass without having run the peers' own test functions. The toy game of ``tests/toy_game.py``
gets its move space here (a game outside cardlab registers one, as it registers its spec).
"""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from cardlab.arenas.moves import FACES, MoveSpace, kind_keys, register_moves

INSTALL_HINT = 'install the arenas extra: pip install -e ".[arenas]"'


def need(module: str) -> ModuleType:
    """Import ``module``; skip without it locally, fail in CI (where the extra is installed)."""
    try:
        return __import__(module, fromlist=["_"])
    except ImportError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"{module} is missing ({exc}); CI is set, so the arenas tests must run: {INSTALL_HINT}",
                        pytrace=False)
        pytest.skip(f"{module} is not installed; {INSTALL_HINT}")


def _toy_space() -> MoveSpace:
    from tests.toy_game import NAME, HighMove

    return MoveSpace(NAME, kind_keys(HighMove, "play", {"card": FACES}))


def _register_toy() -> None:
    from tests.toy_game import HighCard, register_toy

    register_toy()   # idempotent; tests/conftest.py has done it already in a full run
    register_moves(HighCard, _toy_space)


_register_toy()


def seat_counts(name: str) -> list[int]:
    """2 and 4 players where the game allows them (its minimum when it takes neither)."""
    from cardlab.engine import game_class

    cls = game_class(name)
    return [p for p in (2, 4) if cls.min_players <= p <= cls.max_players] or [cls.min_players]
