"""Garbage's kernel, for now a thin adapter over today's fast modules (the GameKernel protocol).

``play_shard`` runs the vectorised hands of :mod:`cardlab.sim.fast_garbage` (greedy in every seat) on the
seed sequence ``SeedSequence(seed, spawn_key=(start,))``: one generator per shard, so its results depend on
where the shards start (fixed by :data:`cardlab.sim.parallel.FAST_SHARD`, never by the number of
workers); the kernel that replaces this adapter draws each game from ``(seed, i)`` alone.
``win_rollouts`` plays resampled hands
(:func:`cardlab.games.garbage.questions.garbage_rollouts`); a match plays on the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError


def plays(policies: Sequence[object]) -> bool:
    """The vectorised hands play the greedy bot only, in every seat."""
    return all(isinstance(p, str) and p == "greedy" for p in policies)


def shard_seed_sequence(seed: int, start: int) -> np.random.SeedSequence:
    """The seed sequence of the shard that starts at game ``start`` (the first shard's is the first child
    that ``SeedSequence(seed).spawn`` gives)."""
    return np.random.SeedSequence(seed, spawn_key=(start,))


def play_shard(players: int, options: Mapping[str, Any], seed: int, start: int, stop: int,
               policies: Sequence[str]) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Games ``start..stop-1`` of the run, greedy in every seat, on the vectorised hands."""
    from cardlab.sim import fast_garbage

    if not plays(policies):
        raise InvalidInputError(f"the Garbage fast path plays 'greedy' in every seat, not {list(policies)}")
    out = fast_garbage.play_fresh(stop - start, np.random.default_rng(shard_seed_sequence(seed, start)), players,
                                  wild=options["wild"], last_round=options["last_round"],
                                  layout_sizes=options["layout_sizes"], match=options["match"])
    return out.winners, out.turns, {"hands": out.hands, "shuffles": out.shuffles}


def win_rollouts(game: Game[Any], viewpoint: int | None, n: int, rng: np.random.Generator) -> np.ndarray:
    """Winners of ``n`` resampled greedy play-outs of the hand (a match: of the whole match, on the engine)."""
    from cardlab.games.garbage.questions import garbage_rollouts
    from cardlab.sim.prob import engine_win_rollouts

    if game.options.get("match"):
        return engine_win_rollouts(game, viewpoint, n, rng)
    return garbage_rollouts(game, viewpoint, n, rng)[0]
