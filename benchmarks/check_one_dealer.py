"""The one dealer's figure: kernel games and engine games with the same seed and index, greedy bots in every
seat, compared move for move for every registered game with a kernel and every player count.

    python benchmarks/check_one_dealer.py [--seeds 1000] [--games garbage,shithead]

Game ``i`` (``i`` from 0 to seeds - 1) of the run with seed 2026 is played by the kernel (``game_moves``) and by
the engine (``new_game(name, players=p, seed=2026, index=i)`` with the greedy bots); the script prints, per game
and player count, how many of the games differ (in any move or in the winner) and the seconds taken, and exits
with status 1 when any differs. tests/test_dealer.py runs the same comparison on a few seeds per option.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import cardlab
from cardlab.engine.registry import game_spec
from cardlab.policies import choose, make_policy

SEED = 2026


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--games", default="")
    args = parser.parse_args()
    names = [n for n in args.games.split(",") if n] or cardlab.game_names()
    failed = 0
    print(f"one dealer, {args.seeds} games per game and player count, seed {SEED}, greedy bots")
    for name in names:
        spec = game_spec(name)
        if spec.kernel is None:
            print(f"{name}: no kernel")
            continue
        cls = spec.rules
        for players in range(cls.min_players, cls.max_players + 1):
            start = time.perf_counter()
            options = cardlab.new_game(name, players=players, seed=0).options
            differ = 0
            for i in range(args.seeds):
                kernel = spec.kernel.game_moves(players, options, SEED, i, ["greedy"] * players)
                game = cardlab.new_game(name, players=players, seed=SEED, index=i)
                bots = [make_policy("greedy", name, np.random.default_rng(0)) for _ in range(players)]
                while not game.is_over:
                    game.play(choose(bots[game.current_player], game))
                differ += kernel != [m.text for m in game.moves]
            failed += differ
            print(f"{name:18s} {players} players: {differ} of {args.seeds} games differ "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
