"""Speed of the integer Spite and Malice play-outs against the engine path, from one mid-game position.

    .venv/bin/python benchmarks/bench_fast_spite_malice.py

The position is ``bench_prob.py``'s (``mid_game("spite-and-malice", 3, 40)``). Printed:

* rollouts/s of the engine path (``game.resample`` then greedy moves through the engine, as
  ``prob.win_probability`` did), of ``rollouts_from`` (default: fresh shuffles) and of
  ``rollouts_from(exact=True)`` (the engine's shuffles), wall clock and process CPU time;
* the 95% half-width (largest over the two seats, Wilson, as the panels show it) reached in an 80 ms
  budget, median over 15 runs: with the same anytime loop as ``prob`` (batches of 8 play-outs) on the
  wall clock and on this process's CPU time (what an idle core would give when other work shares
  the machine), and through ``prob.win_probability`` itself when it dispatches to this module;
* ``payoff_this_turn`` play-outs per second;
* the machine's load average, since the figures are shared with whatever else runs.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from cardlab.games.spite_malice import SpiteMalice
from cardlab.sim import fast_spite_malice as fsm
from cardlab.sim import prob
from cardlab.sim.stats import wilson

sys.path.insert(0, str(Path(__file__).parent))
from bench_prob import mid_game  # noqa: E402

BUDGET = 0.080
RUNS = 15


def rate(fn: object, n: int) -> tuple[float, float]:
    """(wall, CPU) calls per second of ``fn(n)``."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn(n)  # type: ignore[operator]
    return n / (time.perf_counter() - wall), n / (time.process_time() - cpu)


def engine_rollouts(game: SpiteMalice, n: int, rng: np.random.Generator) -> None:
    for _ in range(n):
        prob.play_on(game.resample(None, rng), rng)


def budget_half_width(game: SpiteMalice, seed: int, clock: Callable[[], float]) -> tuple[float, int]:
    """The anytime loop of ``prob``: batches of 8 until the budget is spent on ``clock``."""
    rng = np.random.default_rng(seed)
    counts = np.zeros(2)
    total = 0
    start = clock()
    while True:
        winners = fsm.rollouts_from(game, None, 8, rng)
        counts += np.bincount(winners[winners >= 0], minlength=2)
        total += 8
        if clock() - start >= BUDGET:
            break
    return max(wilson(float(c), total).half_width for c in counts), total


def report_budget(game: SpiteMalice, clock: Callable[[], float], what: str) -> None:
    runs = [budget_half_width(game, 100 + i, clock) for i in range(RUNS)]
    print(f"80 ms {what}, anytime loop (batches of 8): median {statistics.median(r[1] for r in runs):.0f} "
          f"rollouts, half-width {statistics.median(r[0] for r in runs) * 100:.1f} percentage points "
          f"(best {min(r[0] for r in runs) * 100:.1f}, worst {max(r[0] for r in runs) * 100:.1f})")


def main() -> None:
    g = mid_game("spite-and-malice", 3, 40)
    assert isinstance(g, SpiteMalice)
    print(f"position: mid_game('spite-and-malice', 3, 40), move {g.move_count}, turn {g.turns}, "
          f"stock {len(g.state.stock)}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    fsm.rollouts_from(g, None, 50, np.random.default_rng(99))  # warm the plan cache and the tables
    eng = rate(lambda n: engine_rollouts(g, n, np.random.default_rng(1)), 60)
    fast = rate(lambda n: fsm.rollouts_from(g, None, n, np.random.default_rng(2)), 3000)
    exact = rate(lambda n: fsm.rollouts_from(g, None, n, np.random.default_rng(3), exact=True), 1000)
    turn = rate(lambda n: fsm.payoff_this_turn(g, None, n, np.random.default_rng(4)), 5000)
    print(f"engine path          : {eng[0]:8,.0f} rollouts/s wall, {eng[1]:8,.0f} per CPU second")
    print(f"rollouts_from        : {fast[0]:8,.0f} rollouts/s wall, {fast[1]:8,.0f} per CPU second "
          f"({fast[0] / eng[0]:.0f}x the engine, wall)")
    print(f"rollouts_from exact  : {exact[0]:8,.0f} rollouts/s wall, {exact[1]:8,.0f} per CPU second")
    print(f"payoff_this_turn     : {turn[0]:8,.0f} play-outs/s wall, {turn[1]:8,.0f} per CPU second")
    report_budget(g, time.perf_counter, "wall clock")
    report_budget(g, time.process_time, "of this process's CPU time (an idle core)")
    if prob.fast_module(g) is fsm:
        widths, counts = [], []
        for i in range(RUNS):
            est = prob.win_probability(g, None, budget_s=BUDGET, rng=np.random.default_rng(200 + i))
            widths.append(max(e.half_width for e in est))
            counts.append(est[0].n)
        print(f"80 ms wall clock, prob.win_probability: median {statistics.median(counts):.0f} rollouts, "
              f"half-width {statistics.median(widths) * 100:.1f} percentage points")
    else:
        print("prob.win_probability does not dispatch to fast_spite_malice here")


if __name__ == "__main__":
    main()
