"""Shithead's kernel, for now a thin adapter over today's fast modules (the GameKernel protocol).

``win_rollouts`` runs the integer play-outs of :mod:`cardlab.sim.fast_shithead`, or the engine for options
they do not handle. There is no fresh-deal fast path yet: ``plays`` is False, so ``simulate`` plays on
the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cardlab.engine.game import Game


def plays(policies: Sequence[object]) -> bool:
    """No fresh-deal fast path yet: every simulation plays on the engine."""
    return False


def play_shard(players: int, options: Mapping[str, Any], seed: int, start: int, stop: int,
               policies: Sequence[str]) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    raise NotImplementedError("Shithead has no fresh-deal fast path yet (plays() is False)")


def win_rollouts(game: Game[Any], viewpoint: int | None, n: int, rng: np.random.Generator) -> np.ndarray:
    """Winners of ``n`` resampled greedy play-outs (-1 for none)."""
    from cardlab.sim import fast_shithead
    from cardlab.sim.prob import engine_win_rollouts

    if not fast_shithead.supports(game):
        return engine_win_rollouts(game, viewpoint, n, rng)
    return np.asarray(fast_shithead.rollouts_from(game, viewpoint, n, rng), dtype=np.int64)
