"""Shithead engine speed: turns and moves per second of whole games played through the engine.

Each game is dealt and played by ``cardlab.simulate`` (greedy bots), the same path the figures use, so
the time includes set-up moves, observations handed to the bots and the undo snapshots of ``play``.
A second line times uniformly random bots, whose games are much longer.

    .venv/bin/python benchmarks/bench_shithead.py [--games 2000] [--seed 0]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import cardlab


def bench(players: int, games: int, seed: int, policy: str) -> None:
    start = time.perf_counter()
    res = cardlab.simulate("shithead", players=players, games=games, seed=seed, policy=policy, progress=False)
    elapsed = time.perf_counter() - start
    turns = int(res.turns.sum())
    moves = turns + 9 * players * games  # set-up choices are moves but not turns
    print(f"{players} players, {policy:<6}: {games} games in {elapsed:6.2f} s = {games / elapsed:8.1f} games/s, "
          f"{turns / elapsed:9.0f} turns/s (~{moves / elapsed:7.0f} moves/s); mean turns {np.mean(res.turns):.1f}, "
          f"longest {int(res.turns.max())}, safety stops {int(res.extras['stopped'].sum())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per line (random bots: a tenth)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for players in (2, 3, 4, 5):
        bench(players, args.games, args.seed, "greedy")
    for players in (2, 3):
        bench(players, max(1, args.games // 10), args.seed, "random")


if __name__ == "__main__":
    main()
