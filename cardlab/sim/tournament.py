"""A paired tournament: two policies on the same deals, seats swapped.

Deal ``i`` of a run is played twice: policy ``a`` in seat 0 and ``b`` in seat 1, then the very same deal
with the seats swapped (``simulate`` deals game ``i`` from its seed and ``i`` alone, whatever the
policies, so both games start from one deal). The score of deal pair ``i`` is ``a``'s wins minus its
losses over its two games (from -2 to 2; a game without a winner counts 0). Pairing cancels the luck
of the deal and of the seat: a good deal for seat 0 is good for each policy once. The advantage of
``a`` is the mean score per deal pair, with the normal 95% interval ``mean ± 1.96 s / sqrt(pairs)``
(the pairs are independent).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cardlab.chance.stats import mean_interval
from cardlab.engine.registry import game_class
from cardlab.errors import InvalidInputError, shown
from cardlab.sim.parallel import PolicySpec
from cardlab.sim.simulate import simulate


@dataclass(frozen=True)
class PairedResult:
    """``scores[i]``: policy ``a``'s wins minus losses on deal pair ``i``; ``advantage`` their mean with its
    95% interval ``[low, high]``; ``seconds`` the wall time of both runs."""

    game: str
    a: str
    b: str
    pairs: int
    seed: int
    scores: np.ndarray
    advantage: float
    low: float
    high: float
    seconds: float

    def __str__(self) -> str:
        return (f"{self.game}: {self.a} against {self.b}, {self.pairs} deal pairs (seed {self.seed}): advantage "
                f"{self.advantage:+.3f} [{self.low:+.3f}, {self.high:+.3f}] per deal pair ({self.seconds:.0f} s)")


def _label(spec: PolicySpec) -> str:
    return spec if isinstance(spec, str) else getattr(spec, "__name__", type(spec).__name__)


def paired_tournament(name: str, a: PolicySpec, b: PolicySpec, pairs: int, seed: int = 0, *, processes: int = 1,
                      **options: Any) -> PairedResult:
    """Play ``pairs`` deals of the two-player game ``name`` twice each, ``a`` and ``b`` swapping seats (module
    notes). ``processes`` and ``options`` go to :func:`~cardlab.sim.simulate.simulate`."""
    cls = game_class(name)
    if not cls.min_players <= 2 <= cls.max_players:
        raise InvalidInputError(f"a paired tournament takes two seats; {cls.name} does not play with 2 players")
    if isinstance(pairs, bool) or not isinstance(pairs, (int, np.integer)) or pairs < 2:
        raise InvalidInputError(f"pairs={shown(pairs)} is not allowed; give a whole number of deal pairs, 2 or more")
    first = simulate(name, 2, int(pairs), seed, [a, b], processes=processes, progress=False, **options)
    second = simulate(name, 2, int(pairs), seed, [b, a], processes=processes, progress=False, **options)
    w1, w2 = np.asarray(first.winners), np.asarray(second.winners)
    scores = (w1 == 0).astype(np.int64) - (w1 == 1) + (w2 == 1) - (w2 == 0)
    mean, half = mean_interval(float(scores.sum()), float((scores * scores).sum()), int(pairs))
    return PairedResult(cls.name, _label(a), _label(b), int(pairs), seed, scores, mean, mean - half, mean + half,
                        first.elapsed + second.elapsed)
