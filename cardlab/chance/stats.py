"""Interval estimates used everywhere a number is shown.

Wilson score interval for a proportion: with ``k`` successes in ``n`` trials and ``z`` = 1.96,

    centre = (p + z²/2n) / (1 + z²/n),   half = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n).

It stays inside [0, 1] and behaves well near 0 and 1, unlike the plain normal interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A proportion with its 95% Wilson interval and the sample size behind it."""

    value: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def contains(self, x: float) -> bool:
        return self.low <= x <= self.high

    def __str__(self) -> str:
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}] (n={self.n})"


def wilson(successes: float, n: int, z: float = Z95) -> Estimate:
    """Wilson score interval for ``successes`` out of ``n`` (95% by default)."""
    if n <= 0:
        return Estimate(float("nan"), 0.0, 1.0, 0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)  # the bounds are exact at the edges,
    high = 1.0 if successes >= n else min(1.0, centre + half)  # whatever the rounding
    return Estimate(p, min(low, p), max(high, p), n)


def mean_interval(values_sum: float, squares_sum: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Mean and 95% half-width from running sums (normal approximation)."""
    if n <= 1:
        return (values_sum / n if n else float("nan"), float("inf"))
    mean = values_sum / n
    var = max(0.0, (squares_sum - n * mean * mean) / (n - 1))
    return mean, z * math.sqrt(var / n)
