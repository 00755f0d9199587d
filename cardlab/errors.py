"""Errors raised by cardlab.

Every error is a :class:`CardlabError`, which is a :class:`ValueError`, so a caller can catch
bad input with ``except ValueError`` too. Messages quote the input that was refused and say what
would have been accepted.
"""

from __future__ import annotations

from typing import Any

QUOTE_LIMIT = 80
"""The longest quotation of an input that an error message carries (in characters of its ``repr``)."""


def shown(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to about ``limit`` characters: a 50 MB input gives a short message, not a 100 MB one.

    A cut quotation ends with ``...`` and says how long the input was, so the reader knows it was cut.
    """
    if isinstance(value, (str, bytes, list, tuple, dict, set)) and len(value) > limit:
        head = value[:limit] if isinstance(value, (str, bytes)) else None
        size = f"{len(value):,} {'characters' if isinstance(value, str) else 'items'}"
        if head is not None:
            return f"{head!r}... ({size})"
        return f"{type(value).__name__} of {size}"
    try:
        text = repr(value)
    except Exception:  # a repr that fails is itself bad input
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


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


class KernelError(CardlabError):
    """A fast kernel broke one of its invariants (a card lost or duplicated, a game that cannot end).

    This is a bug in cardlab, not bad input: the message carries the seed and the move list so that the
    game can be replayed on the engine and reported. It is never a :class:`CorruptRecordError`.
    """


class MissingExtraError(CardlabError, ImportError):
    """A feature that needs an optional part of cardlab that is not installed (it names the pip command)."""


class PolicyError(CardlabError):
    """A policy (a student's function, or a bot) failed when asked for a move: it raised an error, or it cannot be
    called with ``(view, legal_moves)``.

    The message names the seat, the move number and how to deal the game again (its seed, or the run's seed and
    the game's number in a simulation), so the position can be replayed; the policy's own error is chained to it
    (``raise ... from``), so its traceback, which points at the bug, is shown too. A policy that answers with
    something that is not a legal move is an :class:`IllegalMoveError` instead.
    """


__all__ = [
    "CardlabError",
    "CorruptRecordError",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidInputError",
    "KernelError",
    "MissingExtraError",
    "PolicyError",
    "UnknownGameError",
    "shown",
]
