"""Garbage simulation speed: the fast path (the game's kernel) against the engine, side by side in one run.

Both lines time ``cardlab.simulate`` in one process (``processes=1``): 2-player hands from fresh deals
with ``greedy`` in both seats. The fast path is chosen automatically; ``fast=False`` forces the engine.
The ratio is taken between the two figures of this run. Other player counts, and the rollouts the
probability module runs (2,000 play-outs of one position), follow.

    .venv/bin/python benchmarks/bench_garbage.py [--hands 1000000] [--engine-hands 3000] [--repeat 3]

Targets (the issue): >= 400,000 hands/s in one process, >= 10x the engine path; 2,000 rollouts <= 50 ms.
Wall-clock seconds are the figures; CPU seconds of this process are printed beside them, since another
program on the machine slows the wall clock but not the CPU time.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import cardlab
from cardlab.games.garbage import kernel
from cardlab.policies import choose, make_policy


def timed(run: Callable[[], Any]) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = run()
    return time.perf_counter() - wall, time.process_time() - cpu, value


def verdict(ok: bool) -> str:
    return "meets the target" if ok else "BELOW THE TARGET"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands per fast-path run")
    parser.add_argument("--engine-hands", type=int, default=3000, help="hands for the engine run")
    parser.add_argument("--repeat", type=int, default=3, help="fast-path runs (the best is reported)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores)")

    # warm-up: imports and first allocations
    cardlab.simulate("garbage", players=2, games=20_000, seed=args.seed, progress=False)
    fast_runs = [timed(lambda k=k: cardlab.simulate("garbage", players=2, games=args.hands, seed=args.seed + k,
                                                         progress=False))
                 for k in range(args.repeat)]
    e_wall, e_cpu, eng = timed(lambda: cardlab.simulate("garbage", players=2, games=args.engine_hands,
                                                        seed=args.seed, fast=False, progress=False))
    f_wall, f_cpu, fast = min(fast_runs, key=lambda r: r[0])
    fast_rate, engine_rate = args.hands / f_wall, args.engine_hands / e_wall
    print(f"fast path,   2 players greedy: {args.hands:>9,} hands in {f_wall:6.3f} s wall ({f_cpu:6.3f} s CPU) = "
          f"{fast_rate:>10,.0f} hands/s  (runs: {', '.join(f'{args.hands / r[0]:,.0f}' for r in fast_runs)})")
    print(f"engine path, 2 players greedy: {args.engine_hands:>9,} hands in {e_wall:6.3f} s wall "
          f"({e_cpu:6.3f} s CPU) = {engine_rate:>10,.0f} hands/s")
    print(f"per CPU second: fast {args.hands / f_cpu:,.0f} hands, engine {args.engine_hands / e_cpu:,.0f} hands "
          "(what the wall clock shows when nothing else runs on the machine)")
    print(f"one process: {verdict(fast_rate >= 400_000)} of 400,000 hands/s; fast/engine = "
          f"{fast_rate / engine_rate:,.0f}x ({verdict(fast_rate / engine_rate >= 10)} of 10x); "
          f"CPU-time ratio {(args.hands / f_cpu) / (args.engine_hands / e_cpu):,.0f}x")
    print(f"same game: seat 0 wins {fast.win_rates[0]} on the fast path, {eng.win_rates[0]} on the engine; "
          f"mean turns {fast.turns.mean():.3f} vs {eng.turns.mean():.3f}")

    for players in (1, 3, 4, 6):
        n = args.hands // players
        wall, cpu, res = timed(lambda p=players, n=n: cardlab.simulate("garbage", players=p, games=n,
                                                                       seed=args.seed, progress=False))
        print(f"fast path, {players} player(s): {n / wall:>10,.0f} hands/s ({n / cpu:,.0f} per CPU second), "
              f"mean turns {res.turns.mean():.2f}")

    policy = make_policy("greedy", "garbage", np.random.default_rng(0))
    for players in (2, 4):
        game = cardlab.new_game("garbage", players=players, seed=args.seed)
        for _ in range(6):
            game.play(choose(policy, game))
        rng = np.random.default_rng(args.seed)
        kernel.win_rollouts(game, 0, 2000, rng)  # warm-up
        times = [timed(lambda g=game, r=rng: kernel.win_rollouts(g, 0, 2000, r))[0] for _ in range(10)]
        best, median = min(times) * 1000, float(np.median(times)) * 1000
        print(f"win_rollouts, {players} players, 2,000 play-outs of a mid-hand position: median {median:.1f} ms, "
              f"best {best:.1f} ms ({verdict(median <= 50)} of 50 ms)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
