"""The Shithead kernel against the engine path, side by side in one run.

    .venv/bin/python benchmarks/bench_kernel_shithead.py [--kernel-games 200000] [--engine-games 200]
    .venv/bin/python benchmarks/bench_kernel_shithead.py --house 2000   # house rules, card for card only

``--house N`` only checks the kernel against the engine card for card with each house rule on (and all
three together): N greedy games per option (:func:`tests.games.shithead.test_kernel.house_card_for_card`),
printing the games compared, the mismatches and how many games used each rule.

Prints, in one process (the machine may be shared: the load average and the CPU seconds of this
process are printed with every figure, and each ratio is taken from the same run):

* games/s from fresh deals, engine path (game by game through ``Game.play`` with the policies, as
  ``simulate`` plays without a kernel) and kernel (``play_shard``): greedy on both seats, greedy
  against random, random on both seats; 4 players greedy and greedy against random;
* play-outs/s from a mid-game position: ``win_rollouts`` (greedy to the end) and ``must_pick_up``
  (to the end of one seat's next turn), and the time of one panel's worth (2,000 P(win) play-outs for
  the table's view plus 1,000 "picks up on its next turn" play-outs for each other seat);
* the first call in a fresh process (a subprocess: import, then one ``play_shard`` of 1,000 games and
  one ``win_rollouts`` of 2,000), after ``compile_now`` has filled numba's cache;
* the peak memory (max RSS) of a fresh process playing 1,000,000 two-player greedy games through
  ``play_shard`` in chunks of 65,536 and keeping the results.
"""

from __future__ import annotations

import argparse
import datetime
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import cardlab
from cardlab.games.shithead import kernel as ks
from cardlab.policies import choose, make_policy


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


def timed(fn: Callable[..., Any], *args: Any) -> tuple[float, float, Any]:
    """(wall seconds, CPU seconds of this process, result of ``fn(*args)``)."""
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn(*args)
    return time.perf_counter() - wall, time.process_time() - cpu, out


def engine_games(players: int, policies: list[str], games: int, seed: int) -> np.ndarray:
    turns = np.zeros(games, dtype=np.int64)
    for i in range(games):
        rng = np.random.default_rng([seed, i])
        g = cardlab.new_game("shithead", players=players, rng=rng)
        seats = [make_policy(p, "shithead", rng) for p in policies]
        while not g.is_over:
            g.play(choose(seats[g.current_player], g))
        turns[i] = g.turns
    return turns


def mid_game(players: int, seed: int, moves: int) -> Any:
    g = cardlab.new_game("shithead", players=players, seed=seed)
    policy = make_policy("greedy", "shithead", np.random.default_rng(seed))
    for _ in range(moves):
        g.play(choose(policy, g))
    assert not g.is_over
    return g


def panel_once(g: Any, rng: np.random.Generator) -> None:
    """One panel's play-outs: 2,000 for P(win), 1,000 for each other seat's "picks up on its next turn"."""
    ks.win_rollouts(g, None, 2000, rng)
    for s in range(g.players):
        if s != g.current_player:
            ks.must_pick_up(g, s, None, 1000, rng)


FRESH = (
    "import time\nt0 = time.perf_counter()\nimport numpy as np, cardlab\n"
    "from cardlab.games.shithead import kernel as ks\nt1 = time.perf_counter()\n"
    "ks.play_shard(2, {}, 1, 0, 1000, ['greedy', 'greedy'])\nt2 = time.perf_counter()\n"
    "g = cardlab.new_game('shithead', seed=3)\n"
    "ks.win_rollouts(g, None, 2000, np.random.default_rng(0))\nt3 = time.perf_counter()\n"
    "print(f'{t1 - t0:.3f} {t2 - t1:.3f} {t3 - t2:.3f}')\n")

MEMORY = (
    "import resource, numpy as np\nfrom cardlab.games.shithead import kernel as ks\n"
    "w = np.empty(1_000_000, dtype=np.int64); t = np.empty(1_000_000, dtype=np.int64)\n"
    "x = {}\n"
    "for a in range(0, 1_000_000, 65536):\n"
    "    b = min(a + 65536, 1_000_000)\n"
    "    ww, tt, xx = ks.play_shard(2, {}, 9, a, b, ['greedy', 'greedy'])\n"
    "    w[a:b], t[a:b] = ww, tt\n"
    "    for k, v in xx.items():\n"
    "        x.setdefault(k, np.empty(1_000_000))[a:b] = v\n"
    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, int(w.min()), float(t.mean()))\n")


def house(games: int, only: str = "") -> None:
    """The kernel against the engine, card for card, ``games`` greedy games per house-rule option (or only
    the option set ``only``)."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from tests.games.shithead import test_kernel as tk

    print(f"bench_kernel_shithead --house {games}, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, "
          f"{load()}")
    for name, options in tk.HOUSE_OPTIONS.items():
        if only and name != only:
            continue
        wall, _, (n, bad, used) = timed(tk.house_card_for_card, options, games, 1)
        marks = ", ".join(f"{tk.HOUSE_MARK[k]!r} in {used[tk.HOUSE_MARK[k]]}" for k in options)
        print(f"{name}: {n} games, {len(bad)} differences; games using the rule: {marks}; clears in "
              f"{used['clear']}, blind plays in {used['blind']} ({wall:.0f} s, {load()})")
        for row in bad[:5]:
            print("   ", row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kernel-games", type=int, default=200_000)
    parser.add_argument("--engine-games", type=int, default=200)
    parser.add_argument("--house", type=int, default=0, help="only: N card-for-card games per house-rule option")
    parser.add_argument("--rule", default="", help="with --house: only this option set (e.g. seven_lower)")
    args = parser.parse_args()
    if args.house:
        house(args.house, args.rule)
        return
    print(f"bench_kernel_shithead, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, numba "
          f"{'on' if ks.HAVE_NUMBA else 'OFF (plain Python)'}, {os.cpu_count()} CPUs, {load()}")
    print(f"compile_now (or load from numba's cache): {ks.compile_now():.2f} s")

    print("\ngames/s from fresh deals: per wall-clock second, then per CPU second of this process")
    print(f"{'case':<22} {'engine':>8} {'kernel':>10} {'ratio':>7}   {'engine':>8} {'kernel':>10} {'ratio':>7}"
          "   mean turns engine / kernel")
    kernel_rates: dict[str, float] = {}
    for players, label, policies, share in (
            (2, "2p greedy", ["greedy", "greedy"], 1), (2, "2p greedy vs random", ["greedy", "random"], 1),
            (2, "2p random", ["random", "random"], 8), (4, "4p greedy", ["greedy"] * 4, 2),
            (4, "4p greedy vs random", ["greedy", "random"] * 2, 2)):
        n_engine = max(20, args.engine_games // share)
        n_kernel = max(1000, args.kernel_games // share)
        ew, ec, et = timed(engine_games, players, policies, n_engine, 1)
        kw, kc, (_, kt, _) = timed(ks.play_shard, players, {}, 1, 0, n_kernel, policies)
        er, kr = n_engine / ew, n_kernel / kw
        kernel_rates[label] = kr
        print(f"{label:<22} {er:>8,.0f} {kr:>10,.0f} {kr / er:>6,.0f}x   {n_engine / ec:>8,.0f} {n_kernel / kc:>10,.0f}"
              f" {(n_kernel / kc) / (n_engine / ec):>6,.0f}x   {et.mean():.1f} / {kt.mean():.1f}  [{load()}]")
    slow2 = kernel_rates["2p greedy"] / kernel_rates["2p greedy vs random"]
    slow4 = kernel_rates["4p greedy"] / kernel_rates["4p greedy vs random"]
    print(f"kernel greedy vs random is {slow2:.2f}x slower than greedy (2 players), {slow4:.2f}x (4 players)")

    print("\nplay-outs from a mid-game position (greedy moves from seed 3)")
    for players, moves in ((2, 40), (4, 60)):
        g = mid_game(players, 3, moves)
        rng = np.random.default_rng(0)
        w, _, _ = timed(ks.win_rollouts, g, None, 20_000, rng)
        w2, _, _ = timed(ks.must_pick_up, g, (g.current_player + 1) % players, None, 20_000, rng)
        panel = []
        for _ in range(15):
            pw, _, _ = timed(panel_once, g, rng)
            panel.append(pw * 1000)
        print(f"{players} players: win_rollouts {20_000 / w:,.0f}/s, must_pick_up {20_000 / w2:,.0f}/s; "
              f"one panel (2,000 P(win) + 1,000 per other seat) median {np.median(panel):.1f} ms "
              f"(min {min(panel):.1f}, max {max(panel):.1f})  [{load()}]")

    print("\nfirst call in a fresh process after compile_now (import / play_shard 1,000 games / "
          "win_rollouts 2,000):")
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, check=True)
        print(f"  {done.stdout.strip()} s  [{load()}]")

    done = subprocess.run([sys.executable, "-c", MEMORY], capture_output=True, text=True, check=True)
    rss, lowest, mean_turns = done.stdout.split()
    print(f"\n1,000,000 games (2p greedy) via play_shard in chunks: peak RSS {float(rss):.0f} MB "
          f"(mean turns {float(mean_turns):.1f}, lowest winner {lowest})  [{load()}]")
    print(f"this process: max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
