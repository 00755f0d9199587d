"""How long the stepper's move-values panel takes to update, headless, at its own budget (issue 23: median <= 300 ms).

For each game (2 players, greedy seats, viewpoint "everything revealed" so that every mover's values may
show): play deals from ``--seed`` on with the panel off and, going back from each game's end with **Back**,
time at every decision of the middle third of the game with two or more distinct moves what turning the
panel on costs there: ``stepper.show_move_values(True)``, which computes the mover's move values at the
panel's budget (``cardlab.viz.estimates``: 4,000 play-outs per position shared by the moves, 100 to 1,000
per move), fills the figure and redraws the table. Each position is new to the panel's cache, so every
timing includes the play-outs. Until ``--positions`` positions per game are timed.

Also timed, as a check of what a user meets: ``--moves`` Next moves with the panel on from a fresh deal
(the bot's move, every panel, the move values of the next mover), against the same Next moves with the
panel off, on the same deal.

Printed per game: wall-clock median, 90th percentile and largest time, the median CPU time of this process,
the play-outs per move (median and range) and the distinct moves per position, with the load average (the
machine may be shared). One core: the play-outs run in this process's one thread.

Run: ``.venv/bin/python benchmarks/bench_stepper_moves.py [--positions 20] [--moves 20] [--seed 3]
[--games garbage ...] [--move-rollouts N]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from cardlab.sim.move_values import distinct_moves
from cardlab.viz import controls
from cardlab.viz.stepper import Stepper

GAMES = ("garbage", "spite-and-malice", "shithead")
TARGET_MS = 300.0


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def panel_updates(name: str, positions: int, seed: int, move_rollouts: int | None) -> dict[str, list[float]]:
    """Wall and CPU seconds of turning the panel on at mid-game decisions, and the play-outs and moves there."""
    out: dict[str, list[float]] = {"wall": [], "cpu": [], "playouts": [], "moves": []}
    deal = seed
    while len(out["wall"]) < positions:
        s = Stepper(name, players=2, seed=deal, rollouts=3, panel_rollouts=4, move_rollouts=move_rollouts)
        s.viewpoint.value = controls.REVEAL
        while not s.game.is_over:
            s.next_move()
        length = s.game.move_count
        while s.game.move_count > 0 and len(out["wall"]) < positions:
            s.back()
            g = s.game
            if not length // 3 <= g.move_count < 2 * length // 3 or len(distinct_moves(g.legal_moves())) < 2:
                continue
            t0, c0 = time.perf_counter(), time.process_time()
            s.show_move_values(True)
            out["wall"].append(time.perf_counter() - t0)
            out["cpu"].append(time.process_time() - c0)
            if s.last_error or s.shown_move_values is None:
                raise SystemExit(f"{name}: the panel showed no values: {s.last_error or s.move_numbers()}")
            out["playouts"].append(s.shown_move_values.playouts)
            out["moves"].append(len(s.shown_move_values.values))
            s.show_move_values(False)
        s.close()
        deal += 1
    return out


def next_moves(name: str, moves: int, seed: int, on: bool, move_rollouts: int | None) -> list[float]:
    """Wall seconds of ``moves`` Next moves (default panel budgets) with the move-values panel on or off."""
    s = Stepper(name, players=2, seed=seed, move_values=on, move_rollouts=move_rollouts)
    s.viewpoint.value = controls.REVEAL
    times = []
    while len(times) < moves:
        if s.game.is_over:
            s.new_deal()
            s.viewpoint.value = controls.REVEAL
        t0 = time.perf_counter()
        s.next_move()
        times.append(time.perf_counter() - t0)
        if s.last_error:
            raise SystemExit(f"{name}: the stepper reported an error: {s.last_error}")
    s.close()
    return times


def ms(seconds: list[float]) -> str:
    arr = np.asarray(seconds) * 1000
    return f"median {np.median(arr):6.1f}  p90 {np.percentile(arr, 90):6.1f}  max {arr.max():6.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--move-rollouts", type=int, default=None, help="fix the play-outs per move")
    args = parser.parse_args()
    budget = "the panel's budget" if args.move_rollouts is None else f"{args.move_rollouts} play-outs per move"
    print(f"bench_stepper_moves {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: the move-values panel "
          f"turned on at {args.positions} mid-game decisions per game, {budget}, seed {args.seed}; {load()}",
          flush=True)
    worst = 0.0
    for name in args.games:
        next_moves(name, 2, args.seed, True, args.move_rollouts)   # compiles or loads the kernels (not timed)
        r = panel_updates(name, args.positions, args.seed, args.move_rollouts)
        worst = max(worst, float(np.median(r["wall"])) * 1000)
        print(f"{name:<17} panel update ms: {ms(r['wall'])}  (CPU median {statistics.median(r['cpu']) * 1000:.1f});"
              f" play-outs per move median {statistics.median(r['playouts']):.0f} (range "
              f"{min(r['playouts']):.0f}-{max(r['playouts']):.0f}); moves median {statistics.median(r['moves']):.0f}"
              f" (max {max(r['moves']):.0f}); {load()}", flush=True)
        on = next_moves(name, args.moves, args.seed, True, args.move_rollouts)
        off = next_moves(name, args.moves, args.seed, False, args.move_rollouts)
        print(f"{name:<17} Next move ms, panel on: {ms(on)}; off: {ms(off)}", flush=True)
    verdict = "meets" if worst <= TARGET_MS else "MISSES"
    print(f"worst median panel update {worst:.1f} ms: {verdict} the {TARGET_MS:.0f} ms target")


if __name__ == "__main__":
    main()
