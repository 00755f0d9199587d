"""Game state containers: light copies and an exact JSON encoding.

A game keeps all of its mutable position in one :class:`State` dataclass whose fields are plain
values, cards, and lists/dicts of them (nested at any depth). ``clone()`` copies the containers only;
cards are immutable and shared, so a snapshot costs a few list copies, never a deepcopy.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, Self

from cardlab.cards import Card
from cardlab.errors import CorruptRecordError, InvalidCardError, shown


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


# ---------------------------------------------------------------------------------------------- descriptions
# A game describes every field of its state with the specs below: the JSON a record may hold there, by
# type and range. ``State.from_data`` reads a record's state through the description alone, so a value of
# the wrong type, out of range or nested too deep is refused with the field's path before any rule runs.
# Bounds are numbers, or functions of the game being loaded (its ``players`` and ``options``).

Bound = int | Callable[[Any], int]


def _bound(b: Bound, ctx: Any) -> int:
    return b(ctx) if callable(b) else b


class Spec(abc.ABC):
    """How one field of a state is written in a record."""

    @abc.abstractmethod
    def read(self, value: Any, path: str, ctx: Any) -> Any:
        """The field's value read from a record's ``value`` at ``path``, or :meth:`fail`."""

    @staticmethod
    def fail(path: str, value: Any, wanted: str, described: str | None = None) -> CorruptRecordError:
        return CorruptRecordError(f"record field {path} is {described or shown(value, 40)}; expected {wanted}")


class Int(Spec):
    """A whole number from ``lo`` to ``hi`` (JSON integer; ``true``/``false`` are not numbers)."""

    def __init__(self, lo: Bound, hi: Bound) -> None:
        self.lo, self.hi = lo, hi

    def read(self, value: Any, path: str, ctx: Any) -> int:
        lo, hi = _bound(self.lo, ctx), _bound(self.hi, ctx)
        if type(value) is not int or not lo <= value <= hi:
            raise self.fail(path, value, f"a whole number from {lo} to {hi}")
        return value


class Bool(Spec):
    """``true`` or ``false``."""

    def read(self, value: Any, path: str, ctx: Any) -> bool:
        if type(value) is not bool:
            raise self.fail(path, value, "true or false")
        return value


class Choice(Spec):
    """One of a few words (written with the record's ``=`` tag for text)."""

    def __init__(self, *words: str) -> None:
        self.words = words

    def read(self, value: Any, path: str, ctx: Any) -> str:
        if not isinstance(value, str) or not value.startswith("=") or value[1:] not in self.words:
            raise self.fail(path, value, "one of " + ", ".join(repr("=" + w) for w in self.words))
        return value[1:]


class Text(Spec):
    """Free text of at most ``limit`` characters (tagged with ``=``)."""

    def __init__(self, limit: int = 1000) -> None:
        self.limit = limit

    def read(self, value: Any, path: str, ctx: Any) -> str:
        if not isinstance(value, str) or not value.startswith("=") or len(value) > self.limit + 1:
            raise self.fail(path, value, f"text tagged with '=' of at most {self.limit} characters")
        return value[1:]


class CardSpec(Spec):
    """One physical card of the packs in play, by its code (``"7H"``, ``"7H:1"``)."""

    def read(self, value: Any, path: str, ctx: Any) -> Card:
        if not isinstance(value, str) or value.startswith("=") or len(value) > 8:
            raise self.fail(path, value, "a card code such as '7H' or '7H:1'")
        try:
            card = Card.parse(value)
        except InvalidCardError:
            raise self.fail(path, value, "a card code such as '7H' or '7H:1'") from None
        if card.code != value or card.pack >= ctx.packs:
            raise self.fail(path, value, f"the exact code of a card of the {ctx.packs} pack(s) in play")
        return card


class Maybe(Spec):
    """``null`` or what ``inner`` reads."""

    def __init__(self, inner: Spec) -> None:
        self.inner = inner

    def read(self, value: Any, path: str, ctx: Any) -> Any:
        return None if value is None else self.inner.read(value, path, ctx)


class ListOf(Spec):
    """A list of ``item`` with a length from ``lo`` to ``hi`` (or exactly ``length``)."""

    def __init__(self, item: Spec, lo: Bound = 0, hi: Bound = 10**6, *, length: Bound | None = None,
                 unique: bool = False) -> None:
        self.item, self.lo, self.hi, self.length, self.unique = item, lo, hi, length, unique

    def read(self, value: Any, path: str, ctx: Any) -> list[Any]:
        if self.length is not None:
            lo = hi = _bound(self.length, ctx)
        else:
            lo, hi = _bound(self.lo, ctx), _bound(self.hi, ctx)
        if type(value) is not list or not lo <= len(value) <= hi:
            size = f"{lo}" if lo == hi else f"{lo} to {hi}"
            raise self.fail(path, value, f"a list of {size} entries",
                            f"a list of {len(value)}" if type(value) is list else None)
        out = [self.item.read(v, f"{path}[{i}]", ctx) for i, v in enumerate(value)]
        if self.unique and len(set(out)) != len(out):
            raise CorruptRecordError(f"record field {path} repeats an entry: {shown(value, 60)}")
        return out


def cards(hi: Bound = lambda g: 52 * g.packs, lo: Bound = 0) -> ListOf:
    """A list of cards, at most every card in play."""
    return ListOf(CardSpec(), lo, hi)


def last_seat(ctx: Any) -> int:
    """The highest seat number of the game being loaded."""
    return int(ctx.players) - 1


def per_seat(item: Spec) -> ListOf:
    """One entry per seat."""
    return ListOf(item, length=lambda g: g.players)


COUNTER_MAX = 10**9
"""The largest value a counter (turns, shuffles, plays...) may hold in a record."""


def counter() -> Int:
    return Int(0, COUNTER_MAX)


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
    def from_data(cls, data: Any, description: Mapping[str, Spec] | None = None, ctx: Any = None) -> Self:
        """Read a state from a record. With the game's ``description`` every field is checked by type and
        range as it is read (the error names the field); without it, values are only decoded."""
        if not isinstance(data, dict):
            raise CorruptRecordError(f"record field initial is {type(data).__name__}, expected an object")
        names = [f.name for f in dataclasses.fields(cls)]
        missing = [n for n in names if n not in data]
        extra = [k for k in data if k not in names]
        if missing or extra:
            raise CorruptRecordError(
                f"record field initial does not fit {cls.__name__}: missing {missing}, unexpected {shown(extra)}")
        if description is None:
            return cls(**{n: decode(data[n]) for n in names})
        undescribed = [n for n in names if n not in description]
        if undescribed:  # a developer's slip, not a user's: every field must be described
            raise TypeError(f"{cls.__name__} fields {undescribed} have no description")
        return cls(**{n: description[n].read(data[n], f"initial.{n}", ctx) for n in names})


class PlayState(State):
    """Typed base of every game's state: the fields the engine reads in every game.

    Each game's state is a dataclass that declares these fields among its own (in the order its records
    write them); this class only types them for the engine. It is not a dataclass itself, so it adds no
    field and does not change a state's field order or its records.
    """

    to_move: int
    """The seat to move."""
    turn: int
    """Turns taken so far (one player's go, from their first action to passing on)."""
    shuffles: int
    """In-game shuffles so far (each one's order comes from the deal's shuffle key and this count)."""
    over: bool
    """The game has ended."""
    winner: int | None
    """The winning seat once the game is over (None: no winner, or not over)."""
