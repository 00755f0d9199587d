"""The registry of games: names, aliases, and the ``new_game``/``load_game`` entry points."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from cardlab.cards import Card
from cardlab.engine.game import RECORD_FORMAT, RECORD_VERSION, Game
from cardlab.errors import CorruptRecordError, UnknownGameError

_GAMES: dict[str, type[Game[Any]]] = {}
_ALIASES: dict[str, str] = {}


def register(cls: type[Game[Any]]) -> type[Game[Any]]:
    """Class decorator: make a game available to :func:`new_game` under its name and aliases."""
    _GAMES[cls.name] = cls
    for alias in (cls.name, *cls.aliases):
        _ALIASES[_key(alias)] = cls.name
    return cls


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def game_names() -> list[str]:
    """The registered games' canonical names."""
    _load_builtin()
    return sorted(_GAMES)


def game_class(name: str) -> type[Game[Any]]:
    """The class registered under ``name`` or one of its aliases."""
    _load_builtin()
    if not isinstance(name, str) or _key(name) not in _ALIASES:
        accepted = ", ".join(f"{n!r}" for n in sorted(_ALIASES))
        raise UnknownGameError(f"unknown game {name!r}; accepted names: {accepted}")
    return _GAMES[_ALIASES[_key(name)]]


def canonical_name(name: str) -> str:
    return game_class(name).name


def new_game(
    name: str,
    players: int | None = None,
    *,
    seed: int | None = None,
    rng: np.random.Generator | None = None,
    deck: Sequence[str | Card] | None = None,
    **options: Any,
) -> Game[Any]:
    """Deal a new game. ``seed`` (or ``rng``) makes it reproducible; ``deck`` stacks the top of the deck."""
    cls = game_class(name)
    return cls(players, seed=seed, rng=rng, deck=deck, **options)


def load_game(text: str) -> Game[Any]:
    """Rebuild a game from :meth:`Game.to_json` output, replaying every move."""
    if not isinstance(text, str):
        raise CorruptRecordError(f"a record is JSON text, not {type(text).__name__}")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CorruptRecordError(f"record is not valid JSON ({exc.msg} at character {exc.pos}); "
                                 "expected the text of Game.to_json()") from exc
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise CorruptRecordError(f"record is not a {RECORD_FORMAT!r} object; expected the text of Game.to_json()")
    if record.get("version") != RECORD_VERSION:
        raise CorruptRecordError(f"record version {record.get('version')!r} is not supported; "
                                 f"this cardlab reads version {RECORD_VERSION}")
    try:
        cls = game_class(record.get("game"))  # type: ignore[arg-type]
    except UnknownGameError as exc:
        raise CorruptRecordError(f"record names {exc}") from exc
    return cls._from_record(record)


def _load_builtin() -> None:
    import cardlab.games  # noqa: F401  (registers the built-in games)
