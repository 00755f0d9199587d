"""The peers' arenas (issue 32): adapter overhead, PettingZoo's performance benchmark, and the search player
against OpenSpiel's Python ISMCTS at equal CPU time per decision.

    .venv/bin/python benchmarks/bench_arenas.py [--parts overhead,pettingzoo,tournament] [--deals 20]
        [--pairs 200] [--budgets 0.01,0.1] [--games garbage,shithead,spite-and-malice] [--opponents search,greedy]
        [--first 0] [--playouts N] [--simulations N] [--log FILE]
    .venv/bin/python benchmarks/bench_arenas.py --summarize FILE [FILE ...]

* ``overhead``: ``--deals`` seeded deals per game (2 players) played by uniformly random moves three ways, the
  same moves each way (one generator per deal): on the engine (``legal_moves``/``play``), through the PettingZoo
  environment (``last()`` with its observation and mask, ``step``), through the OpenSpiel state
  (``legal_actions``/``apply_action``, no observation asked). CPU time per move (``time.process_time``) and each
  adapter's ratio to the engine, measured in one run.
* ``pettingzoo``: ``pettingzoo.test.performance_benchmark`` on each game's environment (it plays random moves
  for 5 s of wall time and prints turns and cycles per second).
* ``tournament``: a paired tournament per game (2 players) and per CPU budget per decision: each deal played
  twice, seats swapped, between cardlab's search player (:class:`cardlab.policies.search.SearchPolicy`, the
  player ``make_policy("search", ...)`` makes, here with its budget of play-outs set to spend the CPU budget) or
  the greedy bot, and OpenSpiel's Python ``ISMCTSBot`` (random-rollout evaluator, one rollout per simulation,
  UCT c = 2, resampling from the game's chance law with a seeded generator) with its number of simulations set to
  spend the same budget. Both are calibrated on the game's own positions before the run: CPU per play-out of the
  search player and per simulation of ISMCTS (at least 2 simulations, the fewest ISMCTS decides from, and 1
  play-out per move). Per deal pair: the cardlab player's wins minus losses (-2 to 2), the mean with its 95%
  interval, and the measured CPU per decision of each side (decisions with more than one legal move).
  ``--first``, ``--playouts``, ``--simulations`` and ``--log`` split one tournament over processes or runs (deal
  pair i is always seed 50,000 + i); ``--summarize`` gives the figure of the pairs the logs hold.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cardlab  # noqa: E402
from cardlab.arenas.moves import move_space  # noqa: E402
from cardlab.chance.stats import mean_interval  # noqa: E402
from cardlab.policies import choose, make_policy  # noqa: E402
from cardlab.policies.search import SearchPolicy  # noqa: E402

GAMES = ("garbage", "shithead", "spite-and-malice")
UCT_C = 2.0
MIN_SIMULATIONS = 2
"""The fewest simulations OpenSpiel's Python ISMCTS can decide from: its first simulation only expands the root
(with one, ``get_final_policy`` fails on a root of no visits)."""


def say(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


# ------------------------------------------------------------------------------------------------ overhead
def overhead(name: str, deals: int) -> dict[str, Any]:
    import pyspiel

    import cardlab.arenas.openspiel as ao
    from cardlab.arenas.pettingzoo import env

    space = move_space(name)
    game = pyspiel.load_game(ao.short_name(name), {"players": 2})
    e = env(name, 2)
    cpu = {"engine": 0.0, "pettingzoo": 0.0, "openspiel": 0.0}
    moves = 0
    for seed in range(deals):
        # the move sequence every way replays: uniformly random legal moves (not timed)
        rng = np.random.default_rng([seed, 1])
        g = cardlab.new_game(name, 2, seed=seed)
        while not g.is_over:
            legal = g.legal_moves()
            g.play(legal[int(rng.integers(len(legal)))])
        record = g.moves
        actions = [space.index(m) for m in record]
        moves += len(record)
        # the engine: an agent asks for the legal moves, then plays one
        t = time.process_time()
        g = cardlab.new_game(name, 2, seed=seed)
        for m in record:
            g.legal_moves()
            g.play(m)
        cpu["engine"] += time.process_time() - t
        # PettingZoo: each agent reads its observation and mask, then steps
        t = time.process_time()
        e.reset(seed=seed)
        it = iter(actions)
        for _ in e.agent_iter():
            _, _, termination, truncation, _ = e.last()
            e.step(None if termination or truncation else next(it))
        cpu["pettingzoo"] += time.process_time() - t
        assert e.game.moves == record
        # OpenSpiel: legal actions, then apply one (no observation asked)
        t = time.process_time()
        state = game.state_of(cardlab.new_game(name, 2, seed=seed))
        for a in actions:
            state.legal_actions()
            state.apply_action(a)
        cpu["openspiel"] += time.process_time() - t
        assert state.game.moves == record and state.is_terminal()
    per_move = {k: v / moves * 1e6 for k, v in cpu.items()}
    return {"part": "overhead", "game": name, "deals": deals, "moves": moves,
            "us_per_move": {k: round(v, 1) for k, v in per_move.items()},
            "ratio": {k: round(per_move[k] / per_move["engine"], 2) for k in ("pettingzoo", "openspiel")}}


def pettingzoo_benchmark(name: str) -> dict[str, Any]:
    from pettingzoo.test import performance_benchmark

    from cardlab.arenas.pettingzoo import env

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        performance_benchmark(env(name, 2))
    lines = [line for line in out.getvalue().splitlines() if "per second" in line]
    return {"part": "pettingzoo", "game": name, "performance_benchmark": lines}


# ------------------------------------------------------------------------------------------------ tournament
class Ismcts:
    """OpenSpiel's Python ISMCTS for one seat, resampling from the chance law with its own seeded generator."""

    def __init__(self, game: Any, simulations: int, seed: int) -> None:
        from open_spiel.python.algorithms import ismcts, mcts

        self.rng = np.random.default_rng([seed, 7])
        self.bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)), uct_c=UCT_C,
                                    max_simulations=simulations, random_state=np.random.RandomState(seed + 1))
        self.bot.set_resampler(lambda state, player: state.resample(player, self.rng))

    def action(self, state: Any) -> int:
        return int(self.bot.step(state))


def decision_positions(name: str, count: int) -> list[cardlab.Game[Any]]:
    """Positions with a choice from greedy games (seeds 1000 up), spread over each game."""
    out: list[cardlab.Game[Any]] = []
    seed = 1000
    while len(out) < count:
        g = cardlab.new_game(name, 2, seed=seed)
        bot = make_policy("greedy", name, np.random.default_rng(seed))
        k = 0
        while not g.is_over and len(out) < count:
            if len(g.legal_moves()) > 1 and k % 7 == 3:
                out.append(g.copy())
            g.play(choose(bot, g))
            k += 1
        seed += 1
    return out


def calibrate(name: str, game: Any, positions: list[cardlab.Game[Any]]) -> dict[str, float]:
    """CPU seconds per search play-out and per ISMCTS simulation at these positions (median over them)."""
    per_playout, per_sim = [], []
    for k, g in enumerate(positions):
        policy = SearchPolicy(np.random.default_rng(k), budget=200)
        t = time.process_time()
        policy.decide(g)
        per_playout.append((time.process_time() - t) / max(200, len(g.legal_moves())))
        bot = Ismcts(game, 8, k)
        state = game.state_of(g)
        t = time.process_time()
        bot.action(state)
        per_sim.append((time.process_time() - t) / 8)
    return {"playout": statistics.median(per_playout), "simulation": statistics.median(per_sim)}


def search_playouts(positions: list[cardlab.Game[Any]], budget: float, per_playout: float) -> int:
    """The search player's play-outs per decision for ``budget`` CPU seconds: from the calibration's cost per
    play-out, then corrected once by the mean CPU of decisions at that many play-outs (a decision has fixed costs,
    and moves equal up to a card's copy share their play-outs)."""
    playouts = max(1, round(budget / per_playout))
    spent = []
    for k, g in enumerate(positions):
        t = time.process_time()
        SearchPolicy(np.random.default_rng(k), budget=playouts).decide(g)
        spent.append(time.process_time() - t)
    return max(1, round(playouts * budget / max(statistics.mean(spent), 1e-6)))


def play_pair(name: str, game: Any, seed: int, ours: Callable[[], Any], sims: int) -> tuple[int, list[float],
                                                                                         list[float]]:
    """Deal ``seed`` twice, the cardlab player in seat 0 then seat 1: its wins minus losses, and the CPU seconds
    of each side's decisions with a choice."""
    space = move_space(name)
    score = 0
    ours_cpu: list[float] = []
    theirs_cpu: list[float] = []
    for seat in (0, 1):
        player = ours()
        rival = Ismcts(game, sims, seed * 2 + seat)
        state = game.state_of(cardlab.new_game(name, 2, seed=seed))
        while not state.is_terminal():
            g = state.game
            choice = len(g.legal_moves()) > 1
            t = time.process_time()
            if g.current_player == seat:
                action = space.index(choose(player, g))
                (ours_cpu if choice else []).append(time.process_time() - t)
            else:
                action = rival.action(state)
                (theirs_cpu if choice else []).append(time.process_time() - t)
            state.apply_action(action)
        winner = state.game.winner if state.game.is_over else None
        score += (winner == seat) - (winner == 1 - seat) if winner is not None else 0
    return score, ours_cpu, theirs_cpu


def tournament(name: str, budget: float, pairs: range, opponent: str, sims: int, playouts: int,
               log: Path | None = None) -> dict[str, Any]:
    """Deal pairs ``pairs`` (pair i is seed 50,000 + i, its search player seeded by i, so a range split over
    processes plays the same games as one run); each pair is appended to ``log`` as one JSON line."""
    import pyspiel

    import cardlab.arenas.openspiel as ao

    game = pyspiel.load_game(ao.short_name(name), {"players": 2})
    rows: list[dict[str, Any]] = []
    for i in pairs:
        def ours(i: int = i) -> Any:
            if opponent == "search":
                return SearchPolicy(np.random.default_rng([i, 3]), budget=playouts)
            return make_policy("greedy", name, np.random.default_rng(0))

        start = time.process_time()
        s, a, b = play_pair(name, game, 50_000 + i, ours, sims)
        row = {"part": "pair", "game": name, "player": opponent, "budget_ms": budget * 1e3, "pair": i, "score": s,
               "search_playouts": playouts if opponent == "search" else None, "ismcts_simulations": sims,
               "ours_cpu": [len(a), sum(a)], "ismcts_cpu": [len(b), sum(b)],
               "cpu_s": time.process_time() - start}
        rows.append(row)
        if log is not None:
            with log.open("a") as f:
                f.write(json.dumps(row) + "\n")
    return summary(rows)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One tournament's figure from its pairs: the mean score per deal pair with its 95% interval (normal, from
    the pairs' sample variance), won / lost / even pairs, and each side's mean CPU per decision."""
    arr = np.asarray([r["score"] for r in rows], dtype=float)
    mean, half = mean_interval(float(arr.sum()), float((arr * arr).sum()), len(arr))
    ours_n = sum(r["ours_cpu"][0] for r in rows)
    theirs_n = sum(r["ismcts_cpu"][0] for r in rows)
    first = rows[0]
    return {"part": "tournament", "game": first["game"], "player": first["player"],
            "budget_ms": first["budget_ms"], "pairs": len(rows),
            "won_lost_even": [int((arr > 0).sum()), int((arr < 0).sum()), int((arr == 0).sum())],
            "search_playouts": sorted({r["search_playouts"] for r in rows}, key=str),
            "ismcts_simulations": sorted({r["ismcts_simulations"] for r in rows}),
            "advantage": round(mean, 3), "low": round(mean - half, 3), "high": round(mean + half, 3),
            "ours_ms_per_decision":
                round(sum(r["ours_cpu"][1] for r in rows) / ours_n * 1e3, 2) if ours_n else None,
            "ismcts_ms_per_decision":
                round(sum(r["ismcts_cpu"][1] for r in rows) / theirs_n * 1e3, 2) if theirs_n else None,
            "cpu_s": round(sum(r["cpu_s"] for r in rows), 1)}


def summarize(logs: list[Path]) -> None:
    """Print one tournament figure per game, player and budget from per-pair logs (a pair counted once)."""
    groups: dict[tuple[str, str, float], dict[int, dict[str, Any]]] = {}
    for log in logs:
        for line in log.read_text().splitlines():
            row = json.loads(line)
            if row.get("part") == "pair":
                groups.setdefault((row["game"], row["player"], row["budget_ms"]), {})[row["pair"]] = row
    for key in sorted(groups):
        say(summary([groups[key][i] for i in sorted(groups[key])]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parts", default="overhead,pettingzoo,tournament")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--budgets", default="0.01,0.1", help="CPU seconds per decision")
    parser.add_argument("--opponents", default="search,greedy", help="cardlab players to face ISMCTS")
    parser.add_argument("--first", type=int, default=0, help="the first deal pair (pairs first .. first+pairs-1)")
    parser.add_argument("--playouts", type=int, help="the search player's play-outs (else calibrated)")
    parser.add_argument("--simulations", type=int, help="ISMCTS's simulations (else calibrated)")
    parser.add_argument("--log", type=Path, help="append each deal pair as a JSON line")
    parser.add_argument("--summarize", type=Path, nargs="*", help="print the tournaments of these logs and stop")
    args = parser.parse_args()
    if args.summarize:
        summarize(args.summarize)
        return
    parts = args.parts.split(",")
    games = args.games.split(",")
    say({"date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "command": " ".join(sys.argv)})
    for name in games:
        if "overhead" in parts:
            say(overhead(name, args.deals))
        if "pettingzoo" in parts:
            say(pettingzoo_benchmark(name))
    if "tournament" in parts:
        import pyspiel

        import cardlab.arenas.openspiel as ao

        for name in games:
            game = pyspiel.load_game(ao.short_name(name), {"players": 2})
            positions = decision_positions(name, 6)
            SearchPolicy(np.random.default_rng(0), budget=50).decide(positions[0])   # compile or load the kernel
            calibration = calibrate(name, game, positions)
            say({"part": "calibration", "game": name, "ms_per_playout": round(calibration["playout"] * 1e3, 4),
                 "ms_per_simulation": round(calibration["simulation"] * 1e3, 3)})
            for budget in (float(b) for b in args.budgets.split(",")):
                playouts = args.playouts or search_playouts(positions, budget, calibration["playout"])
                sims = args.simulations or max(MIN_SIMULATIONS, round(budget / calibration["simulation"]))
                say({"part": "settings", "game": name, "budget_ms": budget * 1e3, "search_playouts": playouts,
                     "ismcts_simulations": sims})
                for opponent in args.opponents.split(","):
                    say(tournament(name, budget, range(args.first, args.first + args.pairs), opponent, sims,
                                   playouts, args.log))


if __name__ == "__main__":
    main()
