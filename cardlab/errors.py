"""Errors raised by cardlab.

Every error is a :class:`CardlabError`, which is a :class:`ValueError`, so a caller can catch
bad input with ``except ValueError`` too. Messages quote the input that was refused and say what
would have been accepted.
"""

from __future__ import annotations

import math
import reprlib
from typing import Any

QUOTE_LIMIT = 80
"""The longest quotation of an input that an error message carries (in characters of its ``repr``)."""
MESSAGE_LIMIT = 500
"""The longest message a :class:`CardlabError` carries: a longer one is cut in the middle."""
_LOG10_2 = math.log10(2)


def shown(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to about ``limit`` characters: a 50 MB input gives a short message, not a 100 MB one.

    A cut quotation ends with ``...`` and says how long the input was, so the reader knows it was cut. It never
    raises, whatever ``value`` is: an integer too long for Python to print (more than 4,300 digits) is
    described by its number of digits, and an object whose ``repr`` fails by its type.
    """
    try:
        return _shown(value, limit)
    except Exception:  # a repr that fails (or a len, or a slice of a strange subclass) is itself bad input
        return f"<{type(value).__name__} object>"


class _Quoter(reprlib.Repr):
    """``reprlib``'s bounded ``repr`` (a few items of each container, a few levels deep), with integers too long
    to print described by their number of digits."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = self.maxdeque = self.maxarray = 12
        self.maxdict = 8
        self.maxstring = self.maxlong = limit
        self.maxother = 4 * limit

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 3 * self.maxlong:  # about 0.9 * limit digits and more
            digits = int(x.bit_length() * _LOG10_2) + 1  # exact or one too many
            return f"<{'a negative' if x < 0 else 'an'} integer of about {digits:,} digits>"
        return repr(x)

    def repr_instance(self, x: object, level: int) -> str:
        try:
            text = repr(x)
        except Exception:  # a repr that fails is itself bad input
            return f"<{type(x).__name__} object>"
        return text if len(text) <= self.maxother else f"{text[:self.maxother]}..."


def _shown(value: Any, limit: int) -> str:
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)) and len(value) > limit:
        head = value[:limit] if isinstance(value, (str, bytes)) else None
        unit = "characters" if isinstance(value, str) else "bytes" if isinstance(value, bytes) else "items"
        size = f"{len(value):,} {unit}"
        if head is not None:
            return f"{head!r}... ({size})"
        return f"{type(value).__name__} of {size}"
    text = _Quoter(limit).repr(value)
    if not isinstance(text, str):
        raise TypeError("__repr__ returned a non-string")
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def bounded(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message`` if it has at most ``limit`` characters, else its start and its end with the middle cut out
    (the start names the input, the end usually says what is accepted)."""
    if len(message) <= limit:
        return message
    marker = f" [... {len(message):,} characters, cut ...] "
    keep = max(limit - len(marker), 0)
    head = keep * 2 // 3
    return message[:head] + marker + message[len(message) - (keep - head):]


class CardlabError(ValueError):
    """Base class of every error cardlab raises on purpose.

    Its message is at most :data:`MESSAGE_LIMIT` characters: a longer one is cut in the middle (:func:`bounded`),
    so that no message, however it was built, floods a notebook. (A :class:`KernelError` keeps its whole replay
    in its ``report``.)
    """

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str):
            args = (bounded(args[0]), *args[1:])
        super().__init__(*args)


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

    This is a bug in cardlab, not bad input: the report carries the seed and the move list so that the game
    can be replayed on the engine and reported. It is never a :class:`CorruptRecordError`. The message is
    bounded like every other (a long move list is cut in its middle); the whole report, every move
    included, is :attr:`report`.
    """

    def __init__(self, report: str) -> None:
        self.report = report
        """The whole text: what broke, the seed, and every move (never cut)."""
        super().__init__(report if len(report) <= MESSAGE_LIMIT else
                         f"{report} (the whole report, every move included, is this error's .report)")


class UnknownExerciseError(InvalidInputError):
    """A lesson or an exercise that the course's answer keys do not have (``cardlab.course.lesson``)."""


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


class ClassroomError(CardlabError):
    """A request to the class server (:mod:`cardlab.classroom`) that is refused; nothing was changed by it.
    ``status`` is the HTTP status the server answers with (always a 4xx: the request, not the server, is at
    fault)."""

    status = 400


class BadGuessError(ClassroomError):
    """A guess that is not a probability (accepted: ``0.3``, ``30%``, ``1/3``)."""


class BadJoinCodeError(ClassroomError):
    """A join code that names no class session."""

    status = 404


class BadRequestError(ClassroomError):
    """A request whose body or fields are not what the endpoint accepts (wrong type, missing field, bad JSON)."""


class TooLargeError(ClassroomError):
    """A request body or field longer than the server's limit."""

    status = 413


class NotAllowedError(ClassroomError):
    """A request without the token it needs (the teacher's, or a student's own)."""

    status = 403


class QuestionStateError(ClassroomError):
    """A request that does not fit the question's state: a guess after Reveal, a reveal with nothing asked."""

    status = 409


class ClassServerError(ClassroomError):
    """The class server does not answer (not started, stopped, or another address), or answers with something that
    is not the class server's; a refusal of a request is one of the other :class:`ClassroomError` classes."""

    status = 502


class RateLimitedError(ClassroomError):
    """Too many requests from one student (or too many joins) in a short time: try again in a moment."""

    status = 429


__all__ = [
    "BadGuessError",
    "BadJoinCodeError",
    "BadRequestError",
    "CardlabError",
    "ClassServerError",
    "ClassroomError",
    "CorruptRecordError",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidInputError",
    "KernelError",
    "MissingExtraError",
    "NotAllowedError",
    "PolicyError",
    "QuestionStateError",
    "RateLimitedError",
    "TooLargeError",
    "UnknownExerciseError",
    "UnknownGameError",
    "bounded",
    "shown",
]
