"""Garbage kernel speed, side by side in one run with the engine.

    .venv/bin/python benchmarks/bench_kernel_garbage.py [--hands 1000000] [--engine-hands 2000] [--repeat 3]

Prints, in one process (2 players unless said):

* hands/s from fresh deals, greedy in both seats: the compiled kernel (``kernel.play_shard``) and the
  engine (``run_engine_games``), each timed in this run (best of ``--repeat`` for the kernel);
* greedy vs random and random vs random on the kernel (target: within 2x of greedy);
* 4 and 6 players;
* play-outs from a mid-game position: 2,000 for P(win) and 1,000 for the completion curves (the
  stepper's budgets);
* the first call in a fresh process after ``cardlab compile`` (a subprocess; the import is timed apart);
* the peak memory of a fresh process playing 1,000,000 games with ``play_shard`` in shards of 65,536 and
  keeping the results (winners, turns, hands, shuffles).

Targets (issue 12): >= 400,000 hands/s greedy and not slower than the numpy row-vectorised path it replaced
(that path, ``cardlab/sim/fast_garbage.py``, is deleted; this script compared the two side by side before,
see docs/performance.md); greedy vs random within 2x; first call <= 1 s; 1,000,000 games <= 500 MB. The
machine may be shared: the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cardlab.games.garbage import Garbage
from cardlab.games.garbage import kernel as kernel_garbage
from cardlab.policies import choose, make_policy
from cardlab.sim.parallel import run_engine_games

FRESH_PROCESS = """
import time
start = time.perf_counter()
import numpy as np
from cardlab.games.garbage import Garbage
from cardlab.games.garbage import kernel as kg
imported = time.perf_counter()
kg.play_shard(2, {}, 1, 0, 1000, ["greedy", "greedy"])
first = time.perf_counter()
game = Garbage(2, seed=4)
for _ in range(6):
    game.play(game.legal_moves()[0])
kg.win_rollouts(game, None, 2000, np.random.default_rng(0))
kg.completion_turns(game, None, 1000, np.random.default_rng(1))
rollouts = time.perf_counter()
print(f"{imported - start:.3f} {first - imported:.3f} {rollouts - first:.3f}")
"""

MEMORY_PROCESS = """
import resource
import numpy as np
from cardlab.games.garbage import kernel as kg
n, shard = 1_000_000, 1 << 16
winners, turns = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
hands, shuffles = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
for start in range(0, n, shard):
    stop = min(n, start + shard)
    w, t, x = kg.play_shard(2, {}, 3, start, stop, ["greedy", "greedy"])
    winners[start:stop], turns[start:stop] = w, t
    hands[start:stop], shuffles[start:stop] = x["hands"], x["shuffles"]
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, (winners == 0).mean(), turns.mean())
"""


def timed(run: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = run()
    return time.perf_counter() - start, value


def best(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    return min((timed(run) for _ in range(repeat)), key=lambda r: r[0])


def verdict(ok: bool) -> str:
    return "meets the target" if ok else "BELOW THE TARGET"


def mid_game(players: int, seed: int, moves: int) -> Garbage:
    game = Garbage(players, seed=seed)
    greedy = make_policy("greedy", "garbage", np.random.default_rng(0))
    for _ in range(moves):
        game.play(choose(greedy, game))
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--engine-hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = args.hands
    print(f"{time.strftime('%Y-%m-%d %H:%M')} UTC; load average {os.getloadavg()[0]:.2f} (2 cores, numba "
          f"{'on' if kernel_garbage.HAVE_NUMBA else 'OFF'})")
    greedy2 = ["greedy", "greedy"]
    kernel_garbage.play_shard(2, {}, 0, 0, 1000, greedy2)           # load the compiled kernel

    k_wall, (kw, kt, _) = best(lambda: kernel_garbage.play_shard(2, {}, 1, 0, n, greedy2), args.repeat)
    e_wall, (ew, et, _) = timed(lambda: run_engine_games("garbage", 2, 1, 0, args.engine_hands, greedy2, {}))
    k_rate, e_rate = n / k_wall, args.engine_hands / e_wall
    print(f"2 players greedy, fresh deals: kernel {k_rate:>10,.0f} hands/s | engine {e_rate:>7,.0f}")
    print(f"  kernel / engine = {k_rate / e_rate:,.0f}x; {verdict(k_rate >= 400_000)} of 400,000 hands/s")
    print(f"  same game: seat 0 wins {np.mean(kw == 0):.4f} (kernel), {np.mean(ew == 0):.4f} (engine, "
          f"{args.engine_hands} hands); mean turns {kt.mean():.3f}, {et.mean():.3f}")

    for label, pol in (("greedy vs random", ["greedy", "random"]), ("random vs random", ["random", "random"])):
        wall, (w, t, _) = best(lambda pol=pol: kernel_garbage.play_shard(2, {}, 2, 0, n, pol), args.repeat)
        print(f"2 players {label}: kernel {n / wall:>10,.0f} hands/s = greedy / {k_rate / (n / wall):.2f} "
              f"({verdict(k_rate / (n / wall) <= 2)} of 2x); seat 0 wins {np.mean(w == 0):.4f}, "
              f"mean turns {t.mean():.2f}")

    for players in (4, 6):
        m = n // 2
        wall, _ = timed(lambda p=players, m=m: kernel_garbage.play_shard(p, {}, 3, 0, m, ["greedy"] * p))
        print(f"{players} players greedy: kernel {m / wall:>10,.0f} hands/s")

    game = mid_game(2, 4, 6)
    rng = np.random.default_rng(5)
    kernel_garbage.win_rollouts(game, None, 100, rng)
    for count in (2000, 1000):
        k_ms = 1000 * min(timed(lambda c=count: kernel_garbage.win_rollouts(game, None, c, rng))[0]
                          for _ in range(5))
        c_ms = 1000 * min(timed(lambda c=count: kernel_garbage.completion_turns(game, None, c, rng))[0]
                          for _ in range(5))
        print(f"{count} play-outs from a mid-game position: kernel {k_ms:.2f} ms (to the game's end), "
              f"{c_ms:.2f} ms (to the hand's end, with turns to complete)")

    done = subprocess.run([sys.executable, "-c", FRESH_PROCESS], capture_output=True, text=True, check=True)
    imp, first, roll = (float(v) for v in done.stdout.split())
    print(f"fresh process after `cardlab compile`: import {imp:.3f} s, first play_shard (1,000 hands) {first:.3f} s "
          f"({verdict(first <= 1)} of 1 s), then 2,000 + 1,000 play-outs {roll:.3f} s")
    done = subprocess.run([sys.executable, "-c", MEMORY_PROCESS], capture_output=True, text=True, check=True)
    peak, share, turns = (float(v) for v in done.stdout.split())
    print(f"1,000,000 games in shards of 65,536 (results kept): peak memory {peak:.0f} MB "
          f"({verdict(peak <= 500)} of 500 MB); seat 0 wins {share:.4f}, mean turns {turns:.3f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
