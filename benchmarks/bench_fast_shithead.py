"""Fast Shithead rollouts against the engine path, from the mid-game position of ``bench_prob.py``.

    .venv/bin/python benchmarks/bench_fast_shithead.py

Prints, in one run and from the same position (``mid_game("shithead", 3, 40)``, two players):

* rollouts/s of the engine path (``game.resample`` then ``prob.play_on`` with greedy moves, as
  ``prob.win_probability`` plays it without a fast path) and of ``fast_shithead.rollouts_from``;
* the 95% Wilson half-width (largest over the seats) reached in an 80 ms budget, median of 10 runs,
  for both paths (the fast one in batches of ``BATCH`` play-outs, checking the clock between batches),
  and through ``prob.win_probability`` as it is wired at the time of the run;
* where a fast rollout spends its time: the engine's ``game.resample`` alone, the rank-space redeal
  that replaces it, and the play-out loop; and the same rates with 3-5 players and for ``must_pick_up``.

The machine may be shared: the rates are also given per CPU second of this process, which another
program's load changes much less than the wall-clock rates and the 80 ms figures.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np

import cardlab
from cardlab.games.shithead import Shithead
from cardlab.policies import choose, make_policy
from cardlab.sim import fast_shithead as fs
from cardlab.sim import prob
from cardlab.sim.stats import wilson

BUDGET_S = 0.080
BATCH = 32
RUNS = 10


def mid_game(name: str, seed: int, moves: int, players: int = 2) -> Shithead:
    """The position of ``bench_prob.mid_game`` (greedy play from a seeded deal), for any player count."""
    g = cardlab.new_game(name, players=players, seed=seed)
    assert isinstance(g, Shithead)
    policy = make_policy("greedy", g.name, np.random.default_rng(seed))
    for _ in range(moves):
        if g.is_over:
            break
        g.play(choose(policy, g))
    assert not g.is_over, f"{name} seed {seed} ended before move {moves}"
    return g


def fast_budget(g: Shithead, seed: int) -> tuple[int, float]:
    """Fast win chances within the budget: (rollouts, largest half-width)."""
    rng = np.random.default_rng(seed)
    counts = np.zeros(g.players)
    n = 0
    start = time.perf_counter()
    while True:
        w = fs.rollouts_from(g, None, BATCH, rng)
        counts += np.bincount(w[w >= 0], minlength=g.players)
        n += BATCH
        if time.perf_counter() - start >= BUDGET_S:
            break
    return n, max(wilson(float(c), n).half_width for c in counts)


def engine_trial(g: Shithead, rng: np.random.Generator) -> Callable[[], list[float]]:
    """One rollout through the engine, as ``prob.win_probability`` plays it without a fast path."""
    def trial() -> list[float]:
        end = prob.play_on(g.resample(None, rng), rng)
        return [1.0 if end.winner == s else 0.0 for s in range(g.players)]
    return trial


def per_call_us(fn: Callable[[], object], repeats: int) -> float:
    start = time.perf_counter()
    for _ in range(repeats):
        fn()
    return (time.perf_counter() - start) / repeats * 1e6


def main() -> None:
    g = mid_game("shithead", 3, 40)
    print(f"position: shithead, 2 players, move {g.move_count}, turn {g.turns}, draw pile {len(g.state.draw)}")

    wall, cpu = time.perf_counter(), time.process_time()
    prob.anytime(engine_trial(g, np.random.default_rng(0)), g.players, 300, None)
    engine_rate, engine_cpu_rate = 300 / (time.perf_counter() - wall), 300 / (time.process_time() - cpu)
    widths, counts = [], []
    for i in range(RUNS):
        totals, k = prob.anytime(engine_trial(g, np.random.default_rng(100 + i)), g.players, None, BUDGET_S)
        widths.append(max(wilson(float(t), k).half_width for t in totals))
        counts.append(k)
    print(f"engine path: {engine_rate:8,.0f} rollouts/s ({engine_cpu_rate:,.0f} per CPU second); in 80 ms: "
          f"median {statistics.median(counts):5.0f} rollouts, "
          f"half-width {statistics.median(widths) * 100:4.1f} percentage points")

    n = 20_000
    wall, cpu = time.perf_counter(), time.process_time()
    w = fs.rollouts_from(g, None, n, np.random.default_rng(0))
    fast_rate, fast_cpu_rate = n / (time.perf_counter() - wall), n / (time.process_time() - cpu)
    runs = [fast_budget(g, 100 + i) for i in range(RUNS)]
    p0 = wilson(float(np.sum(w == 0)), n)
    print(f"fast path:   {fast_rate:8,.0f} rollouts/s ({fast_cpu_rate:,.0f} per CPU second); in 80 ms: median "
          f"{statistics.median(r[0] for r in runs):5.0f} rollouts, half-width "
          f"{statistics.median(r[1] for r in runs) * 100:4.1f} percentage points (P(seat 0) = {p0}); "
          f"{fast_rate / engine_rate:.0f}x the engine path")
    wired = [prob.win_probability(g, None, budget_s=BUDGET_S, rng=np.random.default_rng(100 + i)) for i in range(RUNS)]
    print(f"prob.win_probability as wired now: in 80 ms: median {statistics.median(e[0].n for e in wired):5.0f} "
          f"rollouts, half-width {statistics.median(max(x.half_width for x in e) for e in wired) * 100:4.1f} "
          "percentage points")

    rng = np.random.default_rng(1)
    deal = fs._Resampler(g, None)
    tables = [deal.deal(rng) for _ in range(5000)]
    start = time.perf_counter()
    for t in tables:
        fs._run(t, deal.rules)
    play_us = (time.perf_counter() - start) / len(tables) * 1e6
    print(f"per rollout: engine game.resample {per_call_us(lambda: g.resample(None, rng), 2000):6.1f} us, "
          f"rank-space redeal {per_call_us(lambda: deal.deal(rng), 5000):5.1f} us, play-out {play_us:5.1f} us; "
          f"playout(game.resample(...)) {per_call_us(lambda: fs.playout(g.resample(None, rng)), 2000):6.1f} us")

    for players, seed, moves in ((3, 3, 60), (4, 3, 70), (5, 3, 80)):
        m = mid_game("shithead", seed, moves, players)
        start = time.perf_counter()
        fs.rollouts_from(m, None, 5000, np.random.default_rng(0))
        rate = 5000 / (time.perf_counter() - start)
        print(f"fast path, {players} players (move {m.move_count}, turn {m.turns}): {rate:8,.0f} rollouts/s")

    for seat in range(g.players):
        start = time.perf_counter()
        picks = fs.must_pick_up(g, seat, None, n, np.random.default_rng(0))
        rate = n / (time.perf_counter() - start)
        print(f"must_pick_up(seat {seat}), fast: {rate:8,.0f} play-outs/s; P = {wilson(float(picks.sum()), n)}")


if __name__ == "__main__":
    main()
