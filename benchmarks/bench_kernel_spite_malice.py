"""Speed of the Spite and Malice kernel against the engine path, side by side in one process.

    .venv/bin/python benchmarks/bench_kernel_spite_malice.py            # rates, first call
    .venv/bin/python benchmarks/bench_kernel_spite_malice.py --million  # and 1,000,000 games' memory
    .venv/bin/python benchmarks/bench_kernel_spite_malice.py --equality # engine vs kernel, every option set

Printed (2 players, default options unless said; the machine's load average before and after):

* games/s (wall clock and this process's CPU time) from fresh deals, greedy in both seats: the kernel
  (``play_shard``) and the engine path (``run_engine_games``, what ``simulate(..., fast=False)`` plays),
  and their ratio; then greedy against random and random against random, kernel and engine;
* play-outs/s of ``win_rollouts`` and ``payoff_this_turn`` from a mid-game position (``bench_prob``'s);
* the first call in a fresh process (numba's cache warm, as after ``cardlab compile``): import, then the
  first ``play_shard`` of 100 games and the first ``win_rollouts`` of 100 play-outs;
* ``--million``: 1,000,000 greedy games through ``play_shard`` in shards of 65,536 (as ``simulate``
  would), in a fresh process: seconds and peak resident memory;
* ``--equality``: for every combination of the options (and both policies in each seat), 100 engine games
  against 20,000 kernel games: the largest |z| over seat 0's win rate, the draw rate (pooled two-proportion
  z) and the mean turns and points (Welch z). Over about 200 comparisons, a few |z| above 3.29 (99.9%) would
  be expected by chance alone even with equal laws.
"""

from __future__ import annotations

import itertools
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import cardlab
from cardlab.games.spite_malice import kernel as ksm
from cardlab.sim.parallel import run_engine_games

sys.path.insert(0, str(Path(__file__).parent))
from bench_prob import mid_game  # noqa: E402

GAME = "spite-and-malice"


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def kernel_rate(policies: list[str], games: int, options: dict[str, Any] | None = None) -> tuple[float, float]:
    """(wall, CPU) games per second."""
    opts = cardlab.new_game(GAME, seed=0, **(options or {})).options
    wall, cpu = time.perf_counter(), time.process_time()
    ksm.play_shard(2, opts, 1, 0, games, policies)
    return games / (time.perf_counter() - wall), games / (time.process_time() - cpu)


def engine_rate(policies: list[str], games: int) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    run_engine_games(GAME, 2, 1, 0, games, policies, {})
    return games / (time.perf_counter() - wall), games / (time.process_time() - cpu)


FIRST_CALL = """
import time
t0 = time.perf_counter()
import numpy as np, cardlab
from cardlab.games.spite_malice import kernel as ksm
t1 = time.perf_counter()
g = cardlab.new_game("spite-and-malice", seed=3)
ksm.play_shard(2, g.options, 0, 0, 100, ["greedy", "greedy"])
t2 = time.perf_counter()
ksm.win_rollouts(g, 0, 100, np.random.default_rng(0))
t3 = time.perf_counter()
print(f"{t1 - t0:.3f} {t2 - t1:.3f} {t3 - t2:.3f}")
"""

MILLION = """
import resource, time
import numpy as np, cardlab
from cardlab.games.spite_malice import kernel as ksm
n, shard = 1_000_000, 65_536
opts = cardlab.new_game("spite-and-malice", seed=0).options
winners = np.empty(n, dtype=np.int64); turns = np.empty(n, dtype=np.int64)
extras = {k: np.empty(n) for k in ("points", "draw", "rounds")}
t = time.perf_counter()
for a in range(0, n, shard):
    w, tu, x = ksm.play_shard(2, opts, 7, a, min(n, a + shard), ["greedy", "greedy"])
    winners[a:a + w.size] = w; turns[a:a + w.size] = tu
    for k in extras:
        extras[k][a:a + w.size] = x[k]
dt = time.perf_counter() - t
print(f"{dt:.1f} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} {np.mean(winners == 0):.4f}")
"""


def main() -> None:
    print(f"numba: {ksm.HAVE_NUMBA}; {load()}")
    ksm.compile_now()
    print("games/s from fresh deals (2 players, default options), kernel vs engine in this process:")
    for policies, k_games, e_games in ((["greedy", "greedy"], 100_000, 60), (["greedy", "random"], 100_000, 60),
                                       (["random", "random"], 100_000, 60)):
        k = kernel_rate(policies, k_games)
        e = engine_rate(policies, e_games)
        k2 = kernel_rate(policies, k_games)
        print(f"  {policies[0]:>6} vs {policies[1]:<6}: kernel {k[0]:>7,.0f} and {k2[0]:>7,.0f} (before and after "
              f"the engine), engine {e[0]:>6.1f}: {min(k[0], k2[0]) / e[0]:,.0f}x wall clock; CPU time: kernel "
              f"{k[1]:>7,.0f} and {k2[1]:>7,.0f}, engine {e[1]:>6.1f}: {min(k[1], k2[1]) / e[1]:,.0f}x  ({load()})")
    g = mid_game(GAME, 3, 40)
    rng = np.random.default_rng(0)
    for name, fn in (("win_rollouts", ksm.win_rollouts), ("payoff_this_turn", ksm.payoff_this_turn)):
        wall, cpu = time.perf_counter(), time.process_time()
        fn(g, 0, 20_000, rng)
        print(f"  {name} from mid_game(3, 40): {20_000 / (time.perf_counter() - wall):,.0f} play-outs/s wall clock, "
              f"{20_000 / (time.process_time() - cpu):,.0f} CPU time")
    times = [subprocess.run([sys.executable, "-c", FIRST_CALL], capture_output=True, text=True, check=True)
             .stdout.split() for _ in range(3)]
    print("first call in a fresh process, cache warm (import / play_shard of 100 / win_rollouts of 100), 3 runs: "
          + "; ".join(" / ".join(f"{float(x) * 1000:.0f} ms" for x in t) for t in times))
    if "--million" in sys.argv:
        out = subprocess.run([sys.executable, "-c", MILLION], capture_output=True, text=True, check=True).stdout.split()
        print(f"1,000,000 greedy games in shards of 65,536: {out[0]} s, peak resident memory {out[1]} MB "
              f"(seat 0 won {out[2]}) ({load()})")
    if "--equality" in sys.argv:
        equality()
    print(f"done; {load()}")


def z_prop(k1: float, n1: int, k2: float, n2: int) -> float:
    p = (k1 + k2) / (n1 + n2)
    return 0.0 if p in (0.0, 1.0) else (k1 / n1 - k2 / n2) / math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))


def z_mean(a: np.ndarray, b: np.ndarray) -> float:
    v = a.var(ddof=1) / a.size + b.var(ddof=1) / b.size
    return 0.0 if v == 0 else float((a.mean() - b.mean()) / math.sqrt(v))


def equality() -> None:
    print("engine (100 games) vs kernel (20,000 games), largest |z| per option set and policy mix:")
    worst = []
    combos = itertools.product((True, False), (True, False), ("bottom", "shuffle"), ("higher", "seat0"),
                               (False, True))
    for i, (king, refill, completed, first, match) in enumerate(combos):
        options = {"king_starts_pile": king, "refill_on_empty": refill, "completed_to": completed, "first": first,
                   "match": match, "payoff_size": (20, 6, 12)[i % 3], "target": 10}
        opts = cardlab.new_game(GAME, seed=0, **options).options
        for policies in (["greedy", "greedy"], ["random", "greedy"], ["greedy", "random"]):
            ew, et, ex = run_engine_games(GAME, 2, 100 + i, 0, 100, policies, options)
            kw, kt, kx = ksm.play_shard(2, opts, 200 + i, 0, 20_000, policies)
            zs = [z_prop(np.sum(kw == 0), kw.size, np.sum(ew == 0), ew.size),
                  z_prop(np.sum(kw < 0), kw.size, np.sum(ew < 0), ew.size),
                  z_mean(kt.astype(float), et.astype(float)), z_mean(kx["points"], ex["points"])]
            z = max(abs(x) for x in zs)
            worst.append(z)
            print(f"  {options} {policies}: max |z| {z:.2f}")
    print(f"comparisons: {4 * len(worst)}; option sets with max |z| >= 3.29: {sum(z >= 3.29 for z in worst)} "
          f"of {len(worst)}")


if __name__ == "__main__":
    main()
