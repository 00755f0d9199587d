"""Randomness helpers. cardlab never touches a global RNG: every random draw comes from a
``numpy.random.Generator`` that the caller passes in, or that a seed builds."""

from __future__ import annotations

import numpy as np

from cardlab.errors import InvalidInputError, shown


def make_rng(seed: int | None = None, rng: np.random.Generator | None = None) -> np.random.Generator:
    """The generator for a new game: ``rng`` if given, else one built from ``seed``.

    ``seed=None`` and ``rng=None`` draws fresh entropy from the operating system, which is the one
    way to get an unrepeatable game; notebooks and tests always pass a seed.
    """
    if rng is not None and seed is not None:
        raise InvalidInputError("give seed= or rng=, not both")
    if rng is not None:
        if not isinstance(rng, np.random.Generator):
            raise InvalidInputError(f"rng={shown(rng)} is not a numpy.random.Generator")
        return rng
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise InvalidInputError(f"seed={shown(seed)} is not allowed; a seed is a non-negative integer")
    return np.random.default_rng(seed)


def game_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of the policies of game number ``index`` in a seeded batch (its cards come from the one
    dealer, :mod:`cardlab.dealer`): independent of how batches are split."""
    return np.random.default_rng([seed, index])
