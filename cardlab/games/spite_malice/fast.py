"""Spite and Malice's kernel, for now a thin adapter over today's fast modules (the GameKernel protocol).

``win_rollouts`` runs the compiled play-outs (:mod:`cardlab.sim.jit_spite_malice`, through
:func:`cardlab.sim.fast_spite_malice.rollouts_from`), or the engine for options they do not handle.
There is no fresh-deal fast path yet: ``plays`` is False, so ``simulate`` plays on the engine.
``compile`` compiles the play-outs ahead of time (``cardlab compile``).
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
    raise NotImplementedError("Spite and Malice has no fresh-deal fast path yet (plays() is False)")


def win_rollouts(game: Game[Any], viewpoint: int | None, n: int, rng: np.random.Generator) -> np.ndarray:
    """Winners of ``n`` resampled greedy play-outs (-1 for none)."""
    from cardlab.sim import fast_spite_malice
    from cardlab.sim.prob import engine_win_rollouts

    if not fast_spite_malice.supports(game):
        return engine_win_rollouts(game, viewpoint, n, rng)
    return np.asarray(fast_spite_malice.rollouts_from(game, viewpoint, n, rng), dtype=np.int64)  # type: ignore[arg-type]


def compile_now() -> float:
    """Compile the play-outs now (cached on disk); the seconds it took."""
    from cardlab.sim import jit_spite_malice

    return float(jit_spite_malice.compile_now())


def compiled() -> bool:
    """True when numba is installed (else the play-outs run as plain Python, same results, slower)."""
    from cardlab.sim import jit_spite_malice

    return bool(jit_spite_malice.HAVE_NUMBA)
