"""Move values, the search player and its tournament against greedy: the figures of issue 23.

    .venv/bin/python benchmarks/bench_move_values.py [--parts speed,crn,search,twins,tournament]
        [--pairs 500] [--chunk 50] [--processes 1] [--games garbage,shithead,spite-and-malice] [--positions 15]

* ``speed``: :func:`~cardlab.sim.move_values.move_values` for every distinct legal move, 1,000 play-outs
  each, at mid-game positions of greedy games (one core): median and largest time, and the moves valued.
* ``crn``: the variance of a move difference with common random numbers against independent play-outs.
  Two figures: the ratio the play-outs themselves estimate (``MoveValues.variance_ratio``, median over the
  positions), and the ratio measured directly: the variance, over 40 seeds, of the estimated difference
  between the best move and the runner-up, with common numbers and with independent play-outs.
* ``search``: one decision of ``make_policy("search", ...)`` at its default budget, at mid-game decisions
  with a choice: median and largest time.
* ``twins``: 200 twin pairs per game (two games the mover cannot tell apart: :func:`tests.sim.chance_checks.twin`):
  move values and the search choice must be identical; the count of differences.
* ``tournament``: :func:`~cardlab.sim.tournament.paired_tournament` of search against greedy, ``--pairs`` deal
  pairs per game with seats swapped: the search player's advantage (wins minus losses per deal pair) with its
  paired 95% interval, the budget and the run time.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import numpy as np

import cardlab
from cardlab.policies import choose, make_policy
from cardlab.policies.search import DEFAULT_SEARCH_BUDGET, SearchPolicy
from cardlab.sim.move_values import distinct_moves, move_key, move_values
from cardlab.sim.tournament import paired_tournament

GAMES = ("garbage", "shithead", "spite-and-malice")


def mid_game_positions(name: str, count: int, seed0: int = 100) -> list[cardlab.Game[Any]]:
    """Decisions with a choice around the middle of greedy games (one per game): the first position with at
    least two distinct moves after a third of the game's moves."""
    out = []
    seed = seed0
    while len(out) < count:
        g = cardlab.new_game(name, players=2, seed=seed)
        bot = make_policy("greedy", name, np.random.default_rng(seed))
        history = [g.copy()]
        while not g.is_over:
            g.play(choose(bot, g))
            history.append(g.copy())
        for h in history[len(history) // 3:]:
            if not h.is_over and len(distinct_moves(h.legal_moves())) >= 2:
                out.append(h)
                break
        seed += 1
    return out


def speed(name: str, positions: list[cardlab.Game[Any]]) -> None:
    """Wall and CPU time of the move values at each position (on a loaded machine the CPU time is the figure:
    the wall clock also counts the time other processes held the core)."""
    move_values(positions[0], rollouts=8, rng=np.random.default_rng(0))  # loads the compiled kernel
    times, cpus, moves = [], [], []
    for k, g in enumerate(positions):
        t, c = time.perf_counter(), time.process_time()
        mv = move_values(g, rollouts=1000, rng=np.random.default_rng(k))
        cpus.append(time.process_time() - c)
        times.append(time.perf_counter() - t)
        moves.append(len(mv.values))
    print(f"speed {name}: 1,000 play-outs per move, {len(positions)} mid-game positions: CPU median "
          f"{statistics.median(cpus):.3f} s, max {max(cpus):.3f} s (wall median {statistics.median(times):.3f} s, "
          f"max {max(times):.3f} s, load {os.getloadavg()[0]:.1f}); moves per position median "
          f"{statistics.median(moves):.0f}, max {max(moves)}; path {mv.path}", flush=True)


def crn(name: str, positions: list[cardlab.Game[Any]]) -> None:
    ratios = []
    direct = []
    for k, g in enumerate(positions):
        mv = move_values(g, rollouts=1000, rng=np.random.default_rng(k))
        ratios.append(mv.variance_ratio)
        order = sorted(range(len(mv.values)), key=lambda i: -mv.values[i].win.value)
        a, b = mv.values[order[0]].move, mv.values[order[1]].move
        diffs: dict[bool, list[float]] = {True: [], False: []}
        for common in (True, False):
            for s in range(40):
                v = move_values(g, rollouts=100, rng=np.random.default_rng([k, s]), crn=common)
                diffs[common].append(v.value_of(a).win.value - v.value_of(b).win.value)
        var_c, var_i = np.var(diffs[True], ddof=1), np.var(diffs[False], ddof=1)
        if var_i > 0:
            direct.append(float(var_c / var_i))
    finite = [r for r in ratios if np.isfinite(r)]
    print(f"crn {name}: variance ratio (common / independent) of a move difference, {len(positions)} positions: "
          f"from the play-outs median {statistics.median(finite):.3f} (range {min(finite):.3f}-{max(finite):.3f}); "
          f"measured over 40 seeds x 100 play-outs, best vs runner-up: median {statistics.median(direct):.3f} "
          f"(range {min(direct):.3f}-{max(direct):.3f})", flush=True)


def search(name: str, positions: list[cardlab.Game[Any]]) -> None:
    times, cpus = [], []
    for k, g in enumerate(positions):
        policy = make_policy("search", name, np.random.default_rng(k))
        t, c = time.perf_counter(), time.process_time()
        choose(policy, g)
        cpus.append(time.process_time() - c)
        times.append(time.perf_counter() - t)
    print(f"search {name}: one decision at the default budget ({DEFAULT_SEARCH_BUDGET} play-outs), "
          f"{len(positions)} mid-game decisions: CPU median {statistics.median(cpus):.3f} s, max {max(cpus):.3f} s "
          f"(wall median {statistics.median(times):.3f} s, max {max(times):.3f} s, load {os.getloadavg()[0]:.1f})",
          flush=True)


def twins(name: str, pairs: int) -> None:
    from tests.sim import chance_checks as cc

    options = {"payoff_size": 5} if name == "spite-and-malice" else {}
    every = {"garbage": 1, "shithead": 3, "spite-and-malice": 3}[name]
    done = differences = really_differ = 0
    seed = 0
    while done < pairs:
        for g in cc.sample_positions(name, 2, range(seed, seed + 1), every, **options):
            if done >= pairs or len(distinct_moves(g.legal_moves())) < 2:
                continue
            t = cc.twin(g, g.current_player, np.random.default_rng(done))
            really_differ += cc.state_faces(t.state) != cc.state_faces(g.state)
            a = move_values(g, rollouts=16, rng=np.random.default_rng(done)).records()
            b = move_values(t, rollouts=16, rng=np.random.default_rng(done)).records()
            pa = SearchPolicy(np.random.default_rng(done), budget=64).decide(g)
            pb = SearchPolicy(np.random.default_rng(done), budget=64).decide(t)
            differences += a != b or move_key(pa) != move_key(pb)
            done += 1
        seed += 1
    print(f"twins {name}: {done} twin pairs ({really_differ} with other hidden cards): {differences} differences "
          "in move values or search choice", flush=True)


def _chunk(name: str, pairs: int, c: int) -> tuple[int, list[int], float, float]:
    """Chunk ``c`` of the tournament: ``pairs`` deal pairs with seed 2026 + c; its scores, wall and CPU seconds."""
    cpu = time.process_time()
    r = paired_tournament(name, "search", "greedy", pairs, seed=2026 + c)
    return c, r.scores.tolist(), r.seconds, time.process_time() - cpu


def tournament(name: str, pairs: int, chunk: int, processes: int = 1, only: list[int] | None = None,
               log: str | None = None) -> None:
    """In chunks of ``chunk`` deal pairs (chunk ``c`` with seed 2026 + c, whatever process plays it), a running
    total after each: a run stopped early still reports every pair it finished. With ``processes`` > 1 the
    chunks are played in that many worker processes; each chunk's games depend only on its seed, so the
    scores are the same for any number of processes (the running totals come in the order chunks finish).
    ``only`` plays those chunks alone, in that order (a run shared by several commands); ``log`` appends one
    JSON line per chunk (its number, seed and scores) to that file, so that such runs can be added up exactly."""
    sizes = []
    while sum(sizes) < pairs:
        sizes.append(min(chunk, pairs - sum(sizes)))
    order = list(range(len(sizes))) if only is None else [c for c in only if 0 <= c < len(sizes)]
    scores: dict[int, list[int]] = {}
    wall = cpu = 0.0
    start = time.perf_counter()

    def report(c: int, got: list[int], seconds: float, used: float) -> None:
        nonlocal wall, cpu
        scores[c] = got
        if log is not None:
            with open(log, "a", encoding="utf-8") as f:
                f.write(json.dumps({"game": name, "chunk": c, "seed": 2026 + c, "scores": got, "seconds": seconds,
                                    "cpu": used}) + "\n")
        wall += seconds
        cpu += used
        a = np.array([x for k in sorted(scores) for x in scores[k]], dtype=float)
        half = 1.959963984540054 * a.std(ddof=1) / np.sqrt(a.size)
        done = ",".join(str(2026 + k) for k in sorted(scores))
        print(f"tournament {name}: search against greedy, {a.size} deal pairs (chunk seeds {done}, {chunk} pairs "
              f"each) at budget {DEFAULT_SEARCH_BUDGET} play-outs per decision: advantage {a.mean():+.3f} "
              f"[{a.mean() - half:+.3f}, {a.mean() + half:+.3f}] per deal pair; pairs won {int((a > 0).sum())}, "
              f"lost {int((a < 0).sum())}, even {int((a == 0).sum())}; games {wall:.0f} s, CPU {cpu:.0f} s in "
              f"{processes} process(es), elapsed {time.perf_counter() - start:.0f} s; {os.getloadavg()[0]:.1f} load",
              flush=True)

    if processes == 1:
        for c in order:
            report(*_chunk(name, sizes[c], c))
        return
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(_chunk, name, sizes[c], c) for c in order]
        for f in as_completed(futures):
            report(*f.result())


def chunk_list(text: str | None) -> list[int] | None:
    """``"A-B"`` as the chunks from A to B (either way), ``"a,b,c"`` as those; None for all."""
    if text is None:
        return None
    if "-" in text:
        a, b = (int(x) for x in text.split("-"))
        return list(range(a, b + 1)) if a <= b else list(range(a, b - 1, -1))
    return [int(x) for x in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", default="speed,crn,search,twins,tournament")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--positions", type=int, default=15)
    parser.add_argument("--chunk", type=int, default=50, help="deal pairs per chunk of the tournament")
    parser.add_argument("--processes", type=int, default=1, help="worker processes of the tournament's chunks")
    parser.add_argument("--chunks", default=None, help="play only these chunks of the tournament, in this order: "
                        "A-B (from A to B, either way) or a comma list")
    parser.add_argument("--log", default=None, help="append each chunk's scores to this file (JSON lines)")
    args = parser.parse_args()
    parts = args.parts.split(",")
    print(f"bench_move_values {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", flush=True)
    for name in args.games.split(","):
        positions = mid_game_positions(name, args.positions) if {"speed", "crn", "search"} & set(parts) else []
        if "speed" in parts:
            speed(name, positions)
        if "crn" in parts:
            crn(name, positions[:8])
        if "search" in parts:
            search(name, positions)
        if "twins" in parts:
            twins(name, 200)
        if "tournament" in parts:
            tournament(name, args.pairs, args.chunk, args.processes, chunk_list(args.chunks), args.log)


if __name__ == "__main__":
    main()
