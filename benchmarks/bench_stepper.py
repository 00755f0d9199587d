"""How long one click takes in the stepper, headless (no browser), with every panel refreshed.

For each game (2 players, default settings): build ``cardlab.Stepper(game, players=2, seed=…)``,
then time ``next_move()`` 30 times — the bot's move, the table drawing, the move log, the win
chance with its band, and the per-game panel. When a game ends, a new deal is made (not timed) and
the timing goes on. The target is a median of at most 100 ms per Next move. Beside the wall-clock figures, the
median of this process's CPU time per Next move and the load average (the machine may be shared).

Also printed: one Step (an event of a move, no probability work), and a switch of the viewpoint
after the timed moves, which recomputes the whole win-chance history for the new viewpoint.

Run: ``.venv/bin/python benchmarks/bench_stepper.py [--moves 30] [--seed 3] [--games garbage ...]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from cardlab.viz.stepper import Stepper

GAMES = ("garbage", "spite-and-malice", "shithead")
TARGET_MS = 100.0


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _ms(seconds: list[float]) -> tuple[float, float]:
    arr = np.asarray(seconds) * 1000
    return float(np.median(arr)), float(np.percentile(arr, 90))


def bench(name: str, moves: int, seed: int, rollouts: int | None = None,
          panel_rollouts: int | None = None) -> dict[str, float]:
    start = time.perf_counter()
    s = Stepper(name, players=2, seed=seed, rollouts=rollouts, panel_rollouts=panel_rollouts)
    build = time.perf_counter() - start
    times: list[float] = []
    cpu: list[float] = []
    deals = 1
    while len(times) < moves:
        if s.game.is_over:
            s.new_deal()
            deals += 1
        t0, c0 = time.perf_counter(), time.process_time()
        s.next_move()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        if s.message.value and "game is over" not in s.message.value:
            raise SystemExit(f"{name}: the widget reported an error: {s.message.value}")
    steps: list[float] = []
    for _ in range(10):
        if s.game.is_over:
            break
        t0 = time.perf_counter()
        s.step()
        steps.append(time.perf_counter() - t0)
    s.next_move()
    t0 = time.perf_counter()
    s.viewpoint.value = "seat 1"
    switch = time.perf_counter() - t0
    median, p90 = _ms(times)
    step_median = statistics.median(steps) * 1000 if steps else float("nan")
    return {"build_s": build, "median_ms": median, "p90_ms": p90, "max_ms": max(times) * 1000,
            "step_ms": step_median, "switch_ms": switch * 1000, "history_points": len(s.win_history),
            "deals": deals, "rollouts": s.rollouts, "panel_rollouts": s.panel_rollouts,
            "cpu_median_ms": statistics.median(cpu) * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--rollouts", type=int, default=None, help="override the win-chart play-outs")
    parser.add_argument("--panel-rollouts", type=int, default=None, help="override the panel play-outs")
    args = parser.parse_args()
    settings = "default settings" if args.rollouts is None and args.panel_rollouts is None else (
        f"rollouts={args.rollouts}, panel_rollouts={args.panel_rollouts}")
    print(f"Stepper, one Next move with every panel refreshed; {args.moves} moves per game, seed {args.seed}, "
          f"{settings}")
    print("game               rollouts  median ms   p90 ms   max ms   step ms   viewpoint switch ms (points)  "
          "build s  deals")
    worst = 0.0
    for name in args.games:
        r = bench(name, args.moves, args.seed, args.rollouts, args.panel_rollouts)
        worst = max(worst, r["median_ms"])
        print(f"{name:<18} {int(r['rollouts']):>3}/{int(r['panel_rollouts']):<4} {r['median_ms']:>9.1f} "
              f"{r['p90_ms']:>8.1f} {r['max_ms']:>8.1f} {r['step_ms']:>9.1f} {r['switch_ms']:>12.1f} "
              f"({int(r['history_points'])})          {r['build_s']:>6.2f}  {int(r['deals']):>5}"
              f"   (CPU time median {r['cpu_median_ms']:.1f} ms; {load()})")
    verdict = "meets" if worst <= TARGET_MS else "MISSES"
    print(f"worst median {worst:.1f} ms: {verdict} the {TARGET_MS:.0f} ms target")


if __name__ == "__main__":
    main()
