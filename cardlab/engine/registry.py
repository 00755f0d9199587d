"""The registry of games: names, aliases, and the ``new_game``/``load_game`` entry points."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from cardlab.cards import Card
from cardlab.engine.game import RECORD_FORMAT, RECORD_VERSION, Game
from cardlab.engine.spec import GameSpec
from cardlab.errors import CorruptRecordError, UnknownGameError, shown

MAX_RECORD_CHARS = 10_000_000
"""The longest record text :func:`load_game` reads (a 200-round Spite and Malice match is under 1 MB)."""

_SPECS: dict[str, GameSpec] = {}
_ALIASES: dict[str, str] = {}


def register(spec: GameSpec) -> GameSpec:
    """Make a game available to :func:`new_game` under its name and aliases (each game package calls this once)."""
    if spec.rules.name != spec.name:
        raise ValueError(f"spec {spec.name!r} names rules of {spec.rules.name!r}")
    _SPECS[spec.name] = spec
    for alias in (spec.name, *spec.aliases):
        _ALIASES[_key(alias)] = spec.name
    return spec


def game_spec(game: str | Game[Any]) -> GameSpec:
    """The :class:`~cardlab.engine.spec.GameSpec` of a game (a game object, a name or an alias)."""
    _load_builtin()
    if isinstance(game, Game):
        return _SPECS[game.name]
    return _SPECS[_registered(game)]


def registered_spec(game: Game[Any]) -> GameSpec | None:
    """The spec registered for ``game``'s class, or None for a game class nobody registered."""
    _load_builtin()
    spec = _SPECS.get(game.name)
    return spec if spec is not None and isinstance(game, spec.rules) else None


def game_specs() -> list[GameSpec]:
    """Every registered game's spec, sorted by name."""
    _load_builtin()
    return [_SPECS[name] for name in sorted(_SPECS)]


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def game_names() -> list[str]:
    """The registered games' canonical names."""
    _load_builtin()
    return sorted(_SPECS)


def game_class(name: str) -> type[Game[Any]]:
    """The class registered under ``name`` or one of its aliases."""
    return _SPECS[_registered(name)].rules


def _registered(name: object) -> str:
    """The canonical name of the game registered under ``name`` (a name or an alias; anything else is
    refused with :class:`~cardlab.errors.UnknownGameError`)."""
    _load_builtin()
    if not isinstance(name, str) or _key(name) not in _ALIASES:
        accepted = ", ".join(f"{n!r}" for n in sorted(_ALIASES))
        raise UnknownGameError(f"unknown game {shown(name)}; accepted names: {accepted}")
    return _ALIASES[_key(name)]


def canonical_name(name: str) -> str:
    return game_class(name).name


def new_game(
    name: str,
    players: int | None = None,
    *,
    seed: int | None = None,
    index: int = 0,
    rng: np.random.Generator | None = None,
    deck: Sequence[str | Card] | None = None,
    **options: Any,
) -> Game[Any]:
    """Deal a new game. ``seed`` (or ``rng``) makes it reproducible: ``seed=s, index=i`` is game ``i`` of a
    run with seed ``s`` (``cardlab.simulate``'s game ``i``, on the engine and on a kernel alike: one dealer,
    :mod:`cardlab.dealer`); ``deck`` stacks the top of the deck."""
    cls = game_class(name)
    return cls(players, seed=seed, index=index, rng=rng, deck=deck, **options)


def load_game(text: str) -> Game[Any]:
    """Rebuild a game from :meth:`Game.to_json` output, replaying every move.

    Every way a record can be wrong ends in :class:`~cardlab.errors.CorruptRecordError` naming the
    field: text longer than :data:`MAX_RECORD_CHARS`, JSON that does not parse (or nests too deep, or
    holds a number of more digits than Python reads), a header field missing or of the wrong type (a
    version ``1.0`` or ``true`` is not ``1``), a state field of the wrong type or range, a dealt position
    that breaks the rules or cannot go on, a move that does not replay.
    """
    if not isinstance(text, str):
        raise CorruptRecordError(f"a record is JSON text, not {type(text).__name__}")
    if len(text) > MAX_RECORD_CHARS:
        raise CorruptRecordError(f"record of {len(text):,} characters is longer than the {MAX_RECORD_CHARS:,} "
                                 "that load_game reads")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CorruptRecordError(f"record is not valid JSON ({exc.msg} at character {exc.pos}); "
                                 "expected the text of Game.to_json()") from exc
    except RecursionError:
        raise CorruptRecordError("record nests lists or objects too deep to be a cardlab record") from None
    except ValueError:  # json reads no integer of more than 4,300 digits
        raise CorruptRecordError("record holds a number too long to read (more than 4,300 digits); expected the "
                                 "text of Game.to_json()") from None
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise CorruptRecordError(f"record is not a {RECORD_FORMAT!r} object; expected the text of Game.to_json()")
    version = record.get("version")
    if type(version) is not int or version != RECORD_VERSION:  # 1.0 and true equal 1, but no record writes them
        why = (" (a version-1 record was shuffled before the one dealer, so its later shuffles cannot be replayed)"
               if version == 1 and type(version) is int else "")
        raise CorruptRecordError(f"record field version: version {shown(version, 40)} is not "
                                 f"supported{why}; this cardlab reads version {RECORD_VERSION}")
    try:
        cls = _SPECS[_registered(record.get("game"))].rules
    except UnknownGameError as exc:
        raise CorruptRecordError(f"record field game names {exc}") from exc
    return cls._from_record(record)


def _load_builtin() -> None:
    import cardlab.games  # noqa: F401  (registers the built-in games)
