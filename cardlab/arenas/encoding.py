"""A game's view (``game.observe(seat)``) as a fixed-size integer array, the same for every game.

The encoder reads nothing but the view: the dataclass a game's ``observe`` returns. Each field of the view,
in the order the dataclass declares them, gets a block of ``capacity`` integers, filled from the start by
the field's *tokens* and padded with zeros:

* ``None`` is -1; ``False``/``True`` are 0/1; a whole number (a count, a seat, a score, a rank) is itself;
* a card is ``1 + face id`` (1 to 52: ``suit * 13 + rank - 1`` plus one, spades A..K first; which pack a card
  is from is never shown, so two copies of a face give the same token);
* a word (Garbage's ``phase``) is its position among the words the game's state description accepts for the
  field of that name;
* a tuple or list is its length, then its items' tokens; a nested dataclass is its fields' tokens.

Lengths come before items, so the tokens of a field are self-delimiting and the array loses nothing the view
holds. ``capacity`` is ``4 * cards + 4 * players + 8`` (cards: the cards in play), more than any field of
the built-in games needs (a field holds each card at most once, with one length per pile); a view that
would overflow a block raises :class:`EncodingError` rather than being cut.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from cardlab.cards import Card
from cardlab.engine.game import Game
from cardlab.engine.state import Choice
from cardlab.errors import InvalidInputError, shown

NONE_TOKEN = -1
"""The token of ``None`` (a hidden card, a seat not yet known)."""


class EncodingError(InvalidInputError):
    """A view holds something the encoder cannot write (a value of an unknown type, a word outside its field's
    words, a field longer than its block)."""


class ViewEncoder:
    """Encodes the views of games with one class, player count and options (the ``game`` given)."""

    def __init__(self, game: Game[Any]) -> None:
        view = game.observe(None)
        if not dataclasses.is_dataclass(view):
            raise EncodingError(f"{game.name} views are {type(view).__name__}, not dataclasses")
        self.fields: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(view))
        self.capacity = 4 * 52 * game.packs + 4 * game.players + 8
        self.size = self.capacity * len(self.fields)
        self.words: Mapping[str, tuple[str, ...]] = {
            name: tuple(spec.words) for name, spec in type(game).state_description.items()
            if isinstance(spec, Choice)}

    def encode(self, view: Any) -> np.ndarray:
        """The array of ``view`` (int32, :attr:`size` long)."""
        out = np.zeros(self.size, dtype=np.int32)
        for i, name in enumerate(self.fields):
            tokens: list[int] = []
            self._tokens(getattr(view, name), name, tokens)
            if len(tokens) > self.capacity:
                raise EncodingError(f"view field {name} needs {len(tokens)} tokens; its block holds "
                                    f"{self.capacity}")
            out[i * self.capacity:i * self.capacity + len(tokens)] = tokens
        return out

    def _tokens(self, value: Any, name: str, out: list[int]) -> None:
        kind = type(value)
        if kind is Card:
            out.append(1 + value.id % 52)
        elif kind is tuple or kind is list:
            out.append(len(value))
            for item in value:
                self._tokens(item, name, out)
        elif value is None:
            out.append(NONE_TOKEN)
        elif isinstance(value, (bool, int, np.integer)):   # IntEnum ranks and suits too
            out.append(int(value))
        elif isinstance(value, str):
            words = self.words.get(name, ())
            if value not in words:
                raise EncodingError(f"view field {name} holds the word {shown(value)}; the game's state "
                                    f"description accepts {list(words)} there")
            out.append(words.index(value))
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                self._tokens(getattr(value, f.name), f.name, out)
        else:
            raise EncodingError(f"view field {name} holds {shown(value)}, a {type(value).__name__}, which the "
                                "encoder does not write")

    def __repr__(self) -> str:
        return f"ViewEncoder({len(self.fields)} fields x {self.capacity})"


__all__ = ["NONE_TOKEN", "EncodingError", "ViewEncoder"]
