"""One game's kernel in two source trees, side by side: microseconds per game of ``play_shard``.

    .venv/bin/python benchmarks/bench_kernel_trees.py --base /path/to/other/tree [--game shithead]
        [--games 4000] [--repeats 3] [--policies greedy random]

For each policy (the same on every seat), each tree is timed in its own fresh process
(``PYTHONPATH=tree``), the two trees alternating, ``--repeats`` times; each process imports
``cardlab.games.<game>.kernel``, warms it (compiles or loads numba's cache, then plays the games once),
and times ``play_shard(players, new_game(game, players=players, seed=0).options, 7, 0, games, policies)``
with ``time.process_time`` (CPU seconds of that process, so another job on a shared machine costs less).
The best of the repeats is kept per tree. Prints µs per game for both trees, the ratio (this tree / base),
the date and the load average. Both trees must give ``play_shard`` the signature
``(players, options, seed, start, stop, policies)``; the games played differ when the trees seed
differently, so the figures are per game over many games, not the same games.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TIMED = """
import time, cardlab
if not cardlab.__file__.startswith({tree!r}):
    raise SystemExit('imported ' + cardlab.__file__ + ', not the tree ' + {tree!r})
from cardlab.games.{game} import kernel as k
opts = cardlab.new_game({game!r}, players={players}, seed=0).options
pol = [{policy!r}] * {players}
k.play_shard({players}, opts, 7, 0, {games}, pol)
t = time.process_time()
k.play_shard({players}, opts, 7, 0, {games}, pol)
print((time.process_time() - t) / {games} * 1e6)
"""


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


def per_game(tree: str, game: str, players: int, policy: str, games: int) -> float:
    """µs of CPU per game of ``play_shard`` in a fresh process running ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": tree}
    code = TIMED.format(tree=os.path.abspath(tree), game=game, players=players, policy=policy, games=games)
    # run from inside the tree: ``python -c`` puts the working directory ahead of PYTHONPATH
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=tree, capture_output=True, text=True,
                          check=True)
    return float(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="the other source tree (a checkout or worktree)")
    parser.add_argument("--tree", default=HERE, help="this tree (default: the one holding this script)")
    parser.add_argument("--game", default="shithead")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--policies", nargs="+", default=["random", "greedy"])
    args = parser.parse_args()
    print(f"bench_kernel_trees {args.game}, {args.players} players, {args.games} games, best of {args.repeats}, "
          f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {load()}")
    print(f"  tree {args.tree}\n  base {args.base}")
    for policy in args.policies:
        best = {"tree": float("inf"), "base": float("inf")}
        for _ in range(args.repeats):
            for name in ("base", "tree"):
                path = args.base if name == "base" else args.tree
                best[name] = min(best[name], per_game(path, args.game, args.players, policy, args.games))
        print(f"{policy:<8} base {best['base']:8.2f} µs/game   tree {best['tree']:8.2f} µs/game   "
              f"ratio {best['tree'] / best['base']:.3f}  [{load()}]")


if __name__ == "__main__":
    main()
