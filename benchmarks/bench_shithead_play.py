"""Shithead engine play move by move: ``Game.play`` with the greedy bot choosing, nobody asking a question.

Each of ``--games`` seeded two-player games (seeds ``seed .. seed + games - 1``) is dealt and played to the end
through ``observe``, ``legal_moves``, the greedy bot and ``play``: the path a student's own policy and a record's
replay take. The figure is milliseconds per move (set-up choices included). ``--ask`` also asks the table's
chance law after every move (the panel's path), to show what the beliefs cost when a question needs them.

``--against PATH`` times the same games in a second process whose ``cardlab`` is imported from ``PATH`` (a
worktree of another commit, say the engine before the must-play law), alternating the two ``--rounds`` times,
and prints each pair and the ratio (wall clock, and CPU time of the timed loop): a same-run comparison on a
shared machine.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_shithead_play.py [--games 20] [--rounds 3] [--against PATH]

On a crowded machine the clock says little; the instructions a game costs do not depend on the load. Count them
with valgrind for 21 games and for 1, in each tree, and divide the difference by the moves in between (``--bare``
prints ``wall cpu moves``)::

    PYTHONHASHSEED=0 PYTHONPATH=TREE valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        .venv/bin/python benchmarks/bench_shithead_play.py --bare --games 21
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def run(games: int, seed: int, ask: bool) -> tuple[float, float, int]:
    """Seconds (wall clock and this process's CPU) and moves of ``games`` seeded greedy two-player games
    through the engine."""
    import cardlab
    from cardlab.games.shithead.bot import greedy_shithead

    elapsed = cpu = 0.0
    moves = 0
    for k in range(games):
        g = cardlab.new_game("shithead", players=2, seed=seed + k)
        start, start_cpu = time.perf_counter(), time.process_time()
        while not g.is_over:
            g.play(greedy_shithead(g.observe(g.current_player), g.legal_moves()))
            if ask:
                g.chance_law(None)
        elapsed += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        moves += g.move_count
    return elapsed, cpu, moves


def _child(path: str, args: argparse.Namespace) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=path)
    cmd = [sys.executable, __file__, "--games", str(args.games), "--seed", str(args.seed), "--rounds", "1", "--bare"]
    out = subprocess.run(cmd + (["--ask"] if args.ask else []), env=env, capture_output=True, text=True, check=True)
    wall, cpu, _ = out.stdout.split()
    return float(wall), float(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds with --against")
    parser.add_argument("--ask", action="store_true", help="ask the table's chance law after every move")
    parser.add_argument("--against", help="a source tree to time side by side (same games, alternating)")
    parser.add_argument("--bare", action="store_true", help="print ms per move only (for --against)")
    args = parser.parse_args()
    if args.bare:
        elapsed, cpu, moves = run(args.games, args.seed, args.ask)
        print(f"{1000 * elapsed / moves:.4f} {1000 * cpu / moves:.4f} {moves}")
        return
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    print(f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.games} games from seed {args.seed}"
          f"{', asking the table law after every move' if args.ask else ''}")
    if args.against is None:
        elapsed, cpu, moves = run(args.games, args.seed, args.ask)
        print(f"{moves} moves, {1000 * elapsed / moves:.4f} ms per move (CPU {1000 * cpu / moves:.4f})")
        return
    ratios, cpu_ratios = [], []
    for r in range(args.rounds):
        mine = _child(here, args)
        other = _child(args.against, args)
        ratios.append(mine[0] / other[0])
        cpu_ratios.append(mine[1] / other[1])
        print(f"round {r + 1}: this tree {mine[0]:.4f} ms per move (CPU {mine[1]:.4f}), {args.against} {other[0]:.4f} "
              f"(CPU {other[1]:.4f}): ratio {ratios[-1]:.3f} (CPU {mine[1] / other[1]:.3f})")
    print(f"median ratio {statistics.median(ratios):.3f} (CPU {statistics.median(cpu_ratios):.3f}); load average now "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
