"""Estimates for the games' questions and the panels: a :class:`Quantity` (exact, estimated with its interval, or
not applicable), anytime play-out counts (a number of play-outs or a time budget), and the checks every question
makes of its arguments.

A building block below the games: each game's ``questions`` module builds its numbers from these, and the
analyses (:mod:`cardlab.sim.prob`) gather them for the panels.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import isnan
from typing import Any

import numpy as np

from cardlab.cards import Card
from cardlab.chance.stats import Estimate, wilson
from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError, shown

DEFAULT_ROLLOUTS = 200


SHOWN_DENOMINATOR = 10_000
"""An exact chance is shown as a fraction when its denominator is at most this, else as a decimal only."""


@dataclass(frozen=True)
class Quantity:
    """One number for a panel: exact (``exact`` is a Fraction), an estimate with its interval, or not applicable.

    A question that has no meaning in this position (the draw pile it asks about is empty, say) is
    *not applicable*: ``reason`` says why, ``value``, ``low`` and ``high`` are NaN, and a panel shows the
    reason instead of a number. Never report such a question as an exact 0. Two quantities are equal when
    every field is, NaN counting as equal to NaN (two answers "not applicable, for this reason" are the same).
    """

    key: str
    label: str
    value: float
    low: float
    high: float
    n: int | None = None
    exact: Fraction | None = None
    seat: int | None = None
    reason: str | None = None

    def _fields(self) -> tuple[Any, ...]:
        """The fields, NaN read as None (NaN is unequal to itself, and each NaN object hashes apart)."""
        return tuple(None if isinstance(v, float) and isnan(v) else v for v in
                     (self.key, self.label, self.value, self.low, self.high, self.n, self.exact, self.seat,
                      self.reason))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Quantity):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    @property
    def is_exact(self) -> bool:
        return self.exact is not None

    @property
    def is_applicable(self) -> bool:
        return self.reason is None

    @classmethod
    def not_applicable(cls, key: str, label: str, reason: str, seat: int | None = None) -> Quantity:
        nan = float("nan")
        return cls(key, label, nan, nan, nan, None, None, seat, reason)

    @classmethod
    def from_exact(cls, key: str, label: str, value: Fraction, seat: int | None = None) -> Quantity:
        v = float(value)
        return cls(key, label, v, v, v, None, value, seat)

    @classmethod
    def from_estimate(cls, key: str, label: str, est: Estimate, seat: int | None = None) -> Quantity:
        return cls(key, label, est.value, est.low, est.high, est.n, None, seat)

    def exact_text(self, digits: int) -> str:
        """An exact value in words: ``"5/12 = 0.417"``, or the decimal alone when the fraction's
        denominator is above :data:`SHOWN_DENOMINATOR` (a weighted sum, say)."""
        assert self.exact is not None
        if self.exact.denominator <= SHOWN_DENOMINATOR:
            return f"{self.exact} = {self.value:.{digits}f}"
        return f"{self.value:.{digits}f}"

    def __str__(self) -> str:
        if self.reason is not None:
            return f"{self.label}: not applicable ({self.reason})"
        if self.exact is not None:
            return f"{self.label}: {self.exact_text(4)} (exact)"
        return f"{self.label}: {self.value:.3f} [{self.low:.3f}, {self.high:.3f}] ({self.n} play-outs)"


def require_rng(rng: np.random.Generator | None) -> np.random.Generator:
    if rng is None:
        raise InvalidInputError("pass rng=numpy.random.default_rng(seed): estimates are seeded, never global")
    if not isinstance(rng, np.random.Generator):
        raise InvalidInputError(f"rng={shown(rng)} is not a numpy.random.Generator")
    return rng


def rollout_count(rollouts: int | None, budget_s: float | None) -> tuple[int, float | None]:
    if rollouts is not None and (isinstance(rollouts, bool) or not isinstance(rollouts, (int, np.integer))
                                 or not 1 <= rollouts <= 10**9):
        raise InvalidInputError(f"rollouts={shown(rollouts)} is not allowed; give a whole number from 1 to 10**9")
    if budget_s is not None and (isinstance(budget_s, bool) or not isinstance(budget_s, (int, float, np.number))
                                 or not 0 < budget_s <= 3600):
        raise InvalidInputError(f"budget_s={shown(budget_s)} is not allowed; give a number of seconds above 0, "
                                "at most 3600")
    rollouts = None if rollouts is None else int(rollouts)
    budget_s = None if budget_s is None else float(budget_s)
    if rollouts is None and budget_s is None:
        return DEFAULT_ROLLOUTS, None
    return (rollouts if rollouts is not None else 10**9), budget_s


def anytime_counts(run_batch: Callable[[int], np.ndarray], width: int, rollouts: int | None,
                   budget_s: float | None, batch: int = 16) -> tuple[np.ndarray, int]:
    """Run batches of play-outs until ``rollouts`` are done or ``budget_s`` seconds have passed.

    ``run_batch(size)`` returns a ``(size, width)`` array of 0/1 outcomes. Returns the success counts
    per column and the number of play-outs. At least one batch always runs; with a fixed ``rollouts``
    and no budget the whole count runs as one batch, so results do not depend on the batch size.
    """
    limit, budget = rollout_count(rollouts, budget_s)
    counts = np.zeros(width)
    n = 0
    start = time.perf_counter()
    step = limit if budget is None else batch
    while n < limit:
        size = min(step, limit - n)
        counts += np.asarray(run_batch(size), dtype=float).reshape(size, width).sum(axis=0)
        n += size
        if budget is not None and time.perf_counter() - start >= budget:
            break
    return counts, n


def anytime(trial: Callable[[], Sequence[float]], width: int, rollouts: int | None, budget_s: float | None,
            batch: int = 16) -> tuple[np.ndarray, int]:
    """:func:`anytime_counts` for an engine ``trial`` that returns ``width`` 0/1 outcomes per play-out."""
    return anytime_counts(lambda size: np.array([trial() for _ in range(size)], dtype=float), width,
                          rollouts, budget_s, batch)


def certain(happened: bool) -> Estimate:
    """A settled outcome: probability 0 or 1 with no uncertainty left."""
    v = 1.0 if happened else 0.0
    return Estimate(v, v, v, 0)


def fast_share(run: Callable[[int], Any], rollouts: int | None, budget_s: float | None) -> Estimate:
    """An anytime proportion from a fast module's batches of 0/1 outcomes."""
    counts, n = anytime_counts(run, 1, rollouts, budget_s, batch=32)
    return wilson(float(counts[0]), n)


def fraction_of(cards: Sequence[Card], predicate: Callable[[Card], bool]) -> Fraction:
    """The share of ``cards`` for which ``predicate`` holds, exactly (0 when there are none)."""
    if not cards:
        return Fraction(0)
    return Fraction(sum(1 for c in cards if predicate(c)), len(cards))


def expect_game(game: Game[Any], name: str | None) -> None:
    """``game`` must be a cardlab game (of the game ``name``, unless None)."""
    if not isinstance(game, Game):
        raise InvalidInputError(f"game={shown(game)} is not a cardlab game; deal one with cardlab.new_game(...)")
    if name is not None and game.name != name:
        raise InvalidInputError(f"this question is about {name}; the game given is {game.name}")
