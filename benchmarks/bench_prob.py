"""Probability-module speed: the figures the probability panels need.

    .venv/bin/python benchmarks/bench_prob.py

* Garbage ``win_probability`` from a mid-hand position with 2,000 resampled rollouts (target <= 50 ms).
* Spite and Malice and Shithead: rollouts/s of ``win_probability`` from a mid-game position, and the 95%
  interval half-width reached in an 80 ms budget (target <= 5 percentage points).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np

import cardlab
from cardlab.policies import choose, make_policy
from cardlab.sim import prob


def mid_game(name: str, seed: int, moves: int) -> cardlab.Game[Any]:
    g = cardlab.new_game(name, players=2, seed=seed)
    policy = make_policy("greedy", g.name, np.random.default_rng(seed))
    for _ in range(moves):
        if g.is_over:
            break
        g.play(choose(policy, g))
    assert not g.is_over, f"{name} seed {seed} ended before move {moves}"
    return g


def garbage() -> None:
    g = mid_game("garbage", 7, 8)
    times = []
    for i in range(25):
        t = time.perf_counter()
        est = prob.win_probability(g, None, rollouts=2000, rng=np.random.default_rng(i))
        times.append(time.perf_counter() - t)
    print(f"garbage win_probability, 2,000 rollouts, mid-hand (move {g.move_count}): "
          f"median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms; "
          f"P(seat 0) = {est[0]}")


def rollouts(name: str, seed: int, moves: int) -> None:
    g = mid_game(name, seed, moves)
    prob.win_probability(g, None, rollouts=8, rng=np.random.default_rng(1))  # warm-up: loads a compiled kernel
    t = time.perf_counter()
    est = prob.win_probability(g, None, rollouts=3000, rng=np.random.default_rng(0))
    rate = 3000 / (time.perf_counter() - t)
    widths = []
    counts = []
    for i in range(10):
        e = prob.win_probability(g, None, budget_s=0.080, rng=np.random.default_rng(100 + i))
        widths.append(max(x.half_width for x in e))
        counts.append(e[0].n)
    print(f"{name} (move {g.move_count}): {rate:,.0f} rollouts/s; in 80 ms: median {statistics.median(counts):.0f} "
          f"rollouts, half-width {statistics.median(widths) * 100:.1f} percentage points "
          f"(P(seat 0) = {est[0]})")


if __name__ == "__main__":
    garbage()
    rollouts("spite-and-malice", 3, 40)
    rollouts("shithead", 3, 40)
