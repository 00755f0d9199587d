"""Speed of the compiled and Python Spite and Malice play-outs against the engine path, from one mid-game position.

    .venv/bin/python benchmarks/bench_fast_spite_malice.py

The position is ``bench_prob.py``'s (``mid_game("spite-and-malice", 3, 40)``). Printed:

* rollouts/s of the engine path (``game.resample`` then greedy moves through the engine, as
  ``prob.win_probability`` did), of ``rollouts_from`` (default: the numba kernel of
  ``jit_spite_malice``), of the Python play-out with the same law (``Redeal.deal_fresh`` and
  ``FreshShuffles``, the default before the kernel) and of ``rollouts_from(exact=True)`` (the engine's
  shuffles), wall clock and process CPU time;
* the 95% half-width (largest over the two seats, Wilson, as the panels show it) reached in an 80 ms
  budget, median over 15 runs: with the same anytime loop as ``prob`` (batches of 32 play-outs, and
  of 256 for comparison) on the wall clock and on this process's CPU time (what an idle core would
  give when other work shares the machine), and through ``prob.win_probability`` itself when it
  dispatches to this module;
* ``payoff_this_turn`` play-outs per second;
* the kernel's first call in a fresh process: numba's import, then the first ``rollouts_from`` with an
  empty numba cache (compiling) and again with the cache that run left (loading);
* the machine's load average, since the figures are shared with whatever else runs.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from cardlab.games.spite_malice import SpiteMalice
from cardlab.games.spite_malice import questions as spite_questions
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


def python_fresh(game: SpiteMalice, n: int, rng: np.random.Generator) -> None:
    """The Python play-out with the kernel's law: the default path before the kernel."""
    plan = fsm.Redeal.cached(game, None)
    rules = fsm.Rules.of(game)
    shuffles = fsm.FreshShuffles(rng).source
    for _ in range(n):
        fsm.play(plan.deal_fresh(rng), rules, shuffles)


def budget_half_width(game: SpiteMalice, seed: int, clock: Callable[[], float], batch: int) -> tuple[float, int]:
    """The anytime loop of ``prob``: batches of ``batch`` until the budget is spent on ``clock``."""
    rng = np.random.default_rng(seed)
    counts = np.zeros(2)
    total = 0
    start = clock()
    while True:
        winners = fsm.rollouts_from(game, None, batch, rng)
        counts += np.bincount(winners[winners >= 0], minlength=2)
        total += batch
        if clock() - start >= BUDGET:
            break
    return max(wilson(float(c), total).half_width for c in counts), total


def report_budget(game: SpiteMalice, clock: Callable[[], float], what: str, batch: int) -> None:
    runs = [budget_half_width(game, 100 + i, clock, batch) for i in range(RUNS)]
    print(f"80 ms {what}, anytime loop (batches of {batch}): median {statistics.median(r[1] for r in runs):.0f} "
          f"rollouts, half-width {statistics.median(r[0] for r in runs) * 100:.2f} percentage points "
          f"(best {min(r[0] for r in runs) * 100:.2f}, worst {max(r[0] for r in runs) * 100:.2f})")


FIRST_CALL = """
import time
start = time.perf_counter()
from cardlab.sim import jit_spite_malice
imported = time.perf_counter()
import numpy as np
import cardlab
from cardlab.sim import fast_spite_malice as fsm
g = cardlab.new_game("spite-and-malice", seed=3)
before = time.perf_counter()
fsm.rollouts_from(g, None, 32, np.random.default_rng(0))
first = time.perf_counter()
fsm.rollouts_from(g, None, 32, np.random.default_rng(1))
print(imported - start, first - before, time.perf_counter() - first)
"""


def report_first_call() -> None:
    """The kernel's first call in a fresh process, with an empty numba cache and with the one it left."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        root = Path(__file__).parent.parent
        for what in ("cold (compiles)", "warm (loads the cache)"):
            out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, cwd=root, capture_output=True,
                                 text=True, check=True).stdout.split()
            imported, first, second = (float(x) for x in out)
            print(f"fresh process, numba cache {what:23}: import cardlab + numba {imported * 1000:4.0f} ms, "
                  f"first rollouts_from (32) {first * 1000:6.0f} ms, second {second * 1000:4.1f} ms")


def main() -> None:
    g = mid_game("spite-and-malice", 3, 40)
    assert isinstance(g, SpiteMalice)
    print(f"position: mid_game('spite-and-malice', 3, 40), move {g.move_count}, turn {g.turns}, "
          f"stock {len(g.state.stock)}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    fsm.rollouts_from(g, None, 50, np.random.default_rng(99))  # warm the plan cache, the tables and the kernel
    eng = rate(lambda n: engine_rollouts(g, n, np.random.default_rng(1)), 60)
    fast = rate(lambda n: fsm.rollouts_from(g, None, n, np.random.default_rng(2)), 30_000)
    batches = rate(lambda n: [fsm.rollouts_from(g, None, 32, np.random.default_rng(5)) for _ in range(n // 32)],
                   30_016)
    python = rate(lambda n: python_fresh(g, n, np.random.default_rng(6)), 2000)
    exact = rate(lambda n: fsm.rollouts_from(g, None, n, np.random.default_rng(3), exact=True), 1000)
    turn = rate(lambda n: fsm.payoff_this_turn(g, None, n, np.random.default_rng(4)), 50_000)
    print(f"engine path            : {eng[0]:8,.0f} rollouts/s wall, {eng[1]:8,.0f} per CPU second")
    print(f"rollouts_from (kernel) : {fast[0]:8,.0f} rollouts/s wall, {fast[1]:8,.0f} per CPU second "
          f"({fast[0] / eng[0]:.0f}x the engine, {fast[0] / python[0]:.0f}x the Python play-out, wall)")
    print(f"  in calls of 32       : {batches[0]:8,.0f} rollouts/s wall, {batches[1]:8,.0f} per CPU second")
    print(f"Python play-out, fresh : {python[0]:8,.0f} rollouts/s wall, {python[1]:8,.0f} per CPU second")
    print(f"rollouts_from exact    : {exact[0]:8,.0f} rollouts/s wall, {exact[1]:8,.0f} per CPU second")
    print(f"payoff_this_turn       : {turn[0]:8,.0f} play-outs/s wall, {turn[1]:8,.0f} per CPU second")
    for batch in (32, 256):
        report_budget(g, time.perf_counter, "wall clock", batch)
        report_budget(g, time.process_time, "of this process's CPU time (an idle core)", batch)
    if spite_questions.fast_module(g) is fsm:
        widths, counts = [], []
        for i in range(RUNS):
            est = prob.win_probability(g, None, budget_s=BUDGET, rng=np.random.default_rng(200 + i))
            widths.append(max(e.half_width for e in est))
            counts.append(est[0].n)
        print(f"80 ms wall clock, prob.win_probability: median {statistics.median(counts):.0f} rollouts, "
              f"half-width {statistics.median(widths) * 100:.2f} percentage points "
              f"(worst {max(widths) * 100:.2f})")
    else:
        print("prob.win_probability does not dispatch to fast_spite_malice here")
    report_first_call()


if __name__ == "__main__":
    main()
