"""Game state containers: light copies and an exact JSON encoding.

A game keeps all of its mutable position in one :class:`State` dataclass whose fields are plain
values, cards, and lists/dicts of them (nested at any depth). ``clone()`` copies the containers only;
cards are immutable and shared, so a snapshot costs a few list copies, never a deepcopy.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Self

from cardlab.cards import Card
from cardlab.errors import CorruptRecordError, InvalidCardError


def _copy(value: Any) -> Any:
    """Copy containers (lists, dicts) at every depth; share everything else (cards are immutable)."""
    t = type(value)
    if t is list:
        return [_copy(v) for v in value] if value and type(value[0]) in (list, dict) else value[:]
    if t is dict:
        return {k: _copy(v) for k, v in value.items()}
    return value


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def encode(value: Any) -> Any:
    """Cards become their exact code (``"7H:1"``); other strings get a leading ``=`` so they never clash."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, str):
        return "=" + value
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    return value


def decode(value: Any) -> Any:
    if isinstance(value, str):
        if value.startswith("="):
            return value[1:]
        try:
            return Card.parse(value)
        except InvalidCardError as exc:
            raise CorruptRecordError(f"record holds {value!r}, which is neither a card nor a tagged string") from exc
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        return {k: decode(v) for k, v in value.items()}
    return value


@dataclasses.dataclass
class State:
    """Base for each game's position. Subclasses are dataclasses with container-only fields."""

    def clone(self) -> Self:
        cls = type(self)
        names = _FIELD_NAMES.get(cls)
        if names is None:
            names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(self))
        new = object.__new__(cls)
        src = self.__dict__
        new.__dict__.update({n: _copy(src[n]) for n in names})
        return new

    def to_data(self) -> dict[str, Any]:
        return {f.name: encode(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_data(cls, data: Any) -> Self:
        if not isinstance(data, dict):
            raise CorruptRecordError(f"record state is {type(data).__name__}, expected an object")
        names = [f.name for f in dataclasses.fields(cls)]
        missing = [n for n in names if n not in data]
        extra = [k for k in data if k not in names]
        if missing or extra:
            raise CorruptRecordError(
                f"record state does not fit {cls.__name__}: missing {missing}, unexpected {extra}")
        return cls(**{n: decode(data[n]) for n in names})
