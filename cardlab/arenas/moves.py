"""A fixed numbering of every move a game can offer: the action space the arenas share.

PettingZoo and OpenSpiel number actions ``0 .. n-1`` once per game, while a cardlab game lists its legal moves
as :class:`~cardlab.engine.game.Move` objects. A move's *key* is its ``kind`` and its typed fields (``text``
left out, a card read by its face, which is all a move ever names): ``("wild", (("source", None),
("spot", 4)))``. A :class:`MoveSpace` is the sorted list of every key a game can produce, built from the
game's move type and the domain of each of its fields, which the game's rules module states as constants
(Garbage's ``MAX_SPOTS``, Spite and Malice's ``CENTRE_PILES`` and ``SIDE_PILES``, Shithead's ``FACE_DOWN``
and ``MAX_OF_A_RANK``, every :class:`~cardlab.cards.Rank`, every face of one pack). A field a kind does not
name keeps the default its dataclass gives it.

A game that is not built in (the tests' toy game, a student's own game) registers its space with
:func:`register_moves`; :func:`move_space` of a game with none raises :class:`MoveSpaceError` naming
:func:`register_moves`.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from cardlab.cards import Card, face_of, full_deck
from cardlab.engine.game import Game, Move
from cardlab.engine.registry import game_class
from cardlab.errors import InvalidInputError, shown

MoveKey = tuple[str, tuple[tuple[str, Any], ...]]
"""A move's kind and its named fields (cards as faces), the one thing its action number depends on."""
FACES: tuple[Card, ...] = tuple(full_deck(1))
"""Every face of a pack: the domain of a card a move names."""


class MoveSpaceError(InvalidInputError):
    """A game has no move space, or one of its legal moves falls outside it (a developer's slip)."""


def move_key(move: Move) -> MoveKey:
    """The key of ``move``: its kind and every dataclass field but ``text`` and ``kind``, cards as faces."""
    return (move.kind, tuple((f.name, _norm(getattr(move, f.name))) for f in dataclasses.fields(move)
                             if f.name not in ("text", "kind")))


def _norm(value: Any) -> Any:
    return face_of(value) if isinstance(value, Card) else value


def _sort_value(value: Any) -> tuple[int, Any]:
    """A total order over field values of mixed types (None first, then numbers, then text, then cards)."""
    if value is None:
        return (0, 0)
    if isinstance(value, Card):
        return (3, value.id)
    if isinstance(value, (bool, int)):
        return (1, int(value))
    return (2, str(value))


def kind_keys(move_type: type[Move], kind: str, domains: Mapping[str, Iterable[Any]]) -> list[MoveKey]:
    """Every key of the moves of one ``kind``: the product of the ``domains`` of the fields it names, every other
    field at its dataclass default. A field without a default must be given a domain."""
    fields = [f for f in dataclasses.fields(move_type) if f.name not in ("text", "kind")]
    unknown = set(domains) - {f.name for f in fields}
    if unknown:
        raise MoveSpaceError(f"{move_type.__name__} has no field {sorted(unknown)[0]!r}")
    columns: list[list[Any]] = []
    for f in fields:
        field_name = f.name   # a dataclass field's name (not a game's)
        domain = domains.get(field_name)
        if domain is not None:
            columns.append([_norm(v) for v in domain])
        elif f.default is not dataclasses.MISSING:
            columns.append([f.default])
        else:
            raise MoveSpaceError(f"{move_type.__name__}.{f.name} has no default; give kind {kind!r} its domain")
    names = [f.name for f in fields]
    return [(kind, tuple(zip(names, combo, strict=True))) for combo in itertools.product(*columns)]


class MoveSpace:
    """The numbered moves of one game: ``index(move)`` gives a legal move's action number, ``key(action)``
    the key it stands for. Numbers follow the sorted keys, so they never depend on the order a space was
    declared in or on a position."""

    def __init__(self, game: str, keys: Iterable[MoveKey]) -> None:
        self.game = game
        unique = set(keys)
        self.keys: tuple[MoveKey, ...] = tuple(sorted(unique, key=lambda k: (k[0], [(n, _sort_value(v))
                                                                                       for n, v in k[1]])))
        self._index = {k: i for i, k in enumerate(self.keys)}
        self._seen: dict[Move, int] = {}   # moves met so far (games reuse their move objects): their numbers

    @property
    def size(self) -> int:
        """How many actions the game has."""
        return len(self.keys)

    def index(self, move: Move) -> int:
        """The action number of ``move``."""
        known = self._seen.get(move)
        if known is not None:
            return known
        key = move_key(move)
        try:
            number = self._seen[move] = self._index[key]
            return number
        except KeyError:
            raise MoveSpaceError(f"move {move.text!r} of {self.game} (key {shown(key)}) is outside its move "
                                 "space; the space's declaration misses a field value") from None

    def key(self, action: int) -> MoveKey:
        """The key action number ``action`` stands for."""
        return self.keys[action]

    def legal(self, moves: Sequence[Move]) -> dict[int, Move]:
        """The legal ``moves`` by action number, in increasing order; two moves with one number are refused."""
        out: dict[int, Move] = {}
        for m in moves:
            i = self.index(m)
            if i in out:
                raise MoveSpaceError(f"moves {out[i].text!r} and {m.text!r} of {self.game} share action {i}")
            out[i] = m
        return dict(sorted(out.items()))

    def __repr__(self) -> str:
        return f"MoveSpace({self.game!r}, {self.size} actions)"


_BUILDERS: dict[type[Game[Any]], Callable[[], MoveSpace]] = {}
_SPACES: dict[type[Game[Any]], MoveSpace] = {}


def register_moves(rules: type[Game[Any]], build: Callable[[], MoveSpace]) -> None:
    """Give the game class ``rules`` its move space (``build`` is called once, on first use). The built-in
    games' spaces are declared in :mod:`cardlab.arenas.games`, one module per game."""
    _BUILDERS[rules] = build
    _SPACES.pop(rules, None)


def move_space(game: str | Game[Any]) -> MoveSpace:
    """The move space of a game (a game object, a name or an alias). The built-in games' spaces are declared
    when :mod:`cardlab.arenas` is imported (which importing this module does first)."""
    rules = type(game) if isinstance(game, Game) else game_class(game)
    if rules not in _SPACES:
        if rules not in _BUILDERS:
            raise MoveSpaceError(f"game {rules.name!r} has no move space; register one with "
                                 "cardlab.arenas.moves.register_moves (games with one: "
                                 f"{', '.join(sorted(r.name for r in _BUILDERS))})")
        _SPACES[rules] = _BUILDERS[rules]()
    return _SPACES[rules]


__all__ = ["FACES", "MoveKey", "MoveSpace", "MoveSpaceError", "kind_keys", "move_key", "move_space",
           "register_moves"]
