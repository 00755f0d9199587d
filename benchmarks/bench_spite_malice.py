"""Engine speed for Spite and Malice: seeded rounds played by the greedy bot on both seats.

Run: ``.venv/bin/python benchmarks/bench_spite_malice.py [--games N] [--seed S] [--policy greedy|random]``.
Prints turns per second (the figure the issue asks for), moves per second and rounds per second. The
timer covers dealing and playing (bots, legal moves, views, undo snapshots), as ``cardlab.simulate`` does.
"""

from __future__ import annotations

import argparse
import time

from cardlab.engine.registry import game_class
from cardlab.engine.rng import game_rng
from cardlab.policies import make_policy
from cardlab.sim.simulate import play_out

GAME = "spite-and-malice"


def bench(games: int, seed: int, policy: str) -> tuple[float, int, int, int]:
    """Seconds taken, turns, moves and drawn rounds over ``games`` seeded rounds."""
    cls = game_class(GAME)
    turns = moves = draws = 0
    start = time.perf_counter()
    for i in range(games):
        rng = game_rng(seed, i)
        game = cls(2, rng=rng)
        bots = [make_policy(policy, GAME, rng) for _ in range(2)]
        play_out(game, bots)
        turns += game.turns
        moves += game.move_count
        draws += game.winner is None
    return time.perf_counter() - start, turns, moves, draws


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--policy", default="greedy", choices=["greedy", "random"])
    args = parser.parse_args()
    seconds, turns, moves, draws = bench(args.games, args.seed, args.policy)
    print(f"{GAME}: {args.games} rounds, {args.policy} on both seats, seed {args.seed}")
    print(f"  time            {seconds:.2f} s")
    print(f"  turns           {turns} ({turns / args.games:.1f} per round), {draws} drawn rounds")
    print(f"  turns/s         {turns / seconds:,.0f}")
    print(f"  moves/s         {moves / seconds:,.0f}")
    print(f"  rounds/s        {args.games / seconds:,.1f}")


if __name__ == "__main__":
    main()
