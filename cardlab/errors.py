"""Errors raised by cardlab.

Every error is a :class:`CardlabError`, which is a :class:`ValueError`, so a caller can catch
bad input with ``except ValueError`` too. Messages quote the input that was refused and say what
would have been accepted.
"""

from __future__ import annotations


class CardlabError(ValueError):
    """Base class of every error cardlab raises on purpose."""


class InvalidInputError(CardlabError):
    """An argument is not one cardlab accepts (unknown game, player count, option, seed...)."""


class UnknownGameError(InvalidInputError):
    """A game name that is not registered."""


class InvalidCardError(InvalidInputError):
    """A card text that does not parse, or a deck that does not fit the packs in play."""


class IllegalMoveError(CardlabError):
    """A move that is not legal in the current position. The game is left unchanged."""


class CorruptRecordError(CardlabError):
    """A saved game (JSON record) that cannot be read back or does not replay."""


__all__ = [
    "CardlabError",
    "CorruptRecordError",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidInputError",
    "UnknownGameError",
]
