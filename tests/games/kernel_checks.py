"""Statistics shared by the games' kernel tests (``tests/games/<game>/test_kernel.py``): comparing what a
kernel's play-outs give with what the engine's games give."""

from __future__ import annotations

import math


def z_proportions(k1: float, n1: int, k2: float, n2: int) -> float:
    """Two-proportion z of ``k1`` in ``n1`` against ``k2`` in ``n2``, pooled variance (under the hypothesis
    tested both counts come from one proportion); 0 when both samples are all 0 or all 1."""
    p = (k1 + k2) / (n1 + n2)
    if p in (0.0, 1.0):
        return 0.0
    return (k1 / n1 - k2 / n2) / math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
