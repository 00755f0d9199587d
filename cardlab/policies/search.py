"""The search player: it plays the move with the highest value from its own information.

At each decision with more than one distinct move (moves equal up to the copy of a card are one move,
:func:`cardlab.sim.move_values.distinct_moves`), it spends its **budget** of play-outs evenly on the
moves (``budget // moves`` each, at least one) and values them with
:func:`~cardlab.sim.move_values.move_values`: flat Monte Carlo over the worlds its chance law allows
(determinized Monte Carlo with common random numbers; greedy bots play every play-out on). It reads the
game only through ``game.chance_law(seat)`` and what the seat sees, so two games it cannot tell apart get
the same move for the same generator. The budget is counted in play-outs, not seconds: a seeded game
is the same game on any machine.

Which move it plays: a **rollout policy** (policy improvement over the greedy bot, as in Bertsekas's
rollout algorithm). Its default is the greedy bot's move; it plays the best-valued move instead only when
that move beats the greedy one beyond the noise: the paired interval of their difference excludes 0 at the
level ``1 - 0.05 / (moves - 1)`` (Bonferroni: the best is the largest of ``moves - 1`` noisy rivals, so
a plain 95% interval would let noise pick it far more often than 5% of the time). With exact values the
one-step improvement of a policy never does worse than the policy; with noisy values, a move that merely
looks best is not played. ``greedy_default=False`` plays the best-valued move always (plain flat Monte
Carlo), which with few play-outs per move is close to choosing at random among good-looking moves.

A policy that needs more than the view reads the game itself: it has a method ``decide(game) -> Move`` (a
:class:`~cardlab.engine.policy.Decider`), which :func:`cardlab.policies.choose` calls in place of
``policy(view, legal_moves)`` (so it plays in ``simulate``, in tournaments and in the stepper alike).
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

import numpy as np

from cardlab.chance.stats import Z95
from cardlab.engine.game import Game, Move
from cardlab.engine.policy import builtin_policy, choose
from cardlab.errors import InvalidInputError, shown
from cardlab.sim.move_values import MoveValue, distinct_moves, move_values

DEFAULT_SEARCH_BUDGET = 500
"""Play-outs per decision of ``make_policy("search", ...)``. At 500 a deal pair of Spite and Malice (the longest
play-outs, about 12 µs each, and some 115 decisions of the search seat per game) takes about 1.8 s of CPU, so a
paired tournament of 500 deal pairs about 15 minutes of one core, and one decision far less than half a second;
the search player still beats greedy at it (``benchmarks/bench_move_values.py --parts tournament``; the figures
are in ``docs/performance.md``)."""
MAX_SEARCH_BUDGET = 10**7


def gap_low(move: MoveValue, z: float) -> float:
    """The lower end of the ``z``-interval of how much less than the best move ``move`` wins (paired)."""
    half_95 = (move.gap_high - move.gap_low) / 2
    return move.gap - half_95 * z / Z95


class SearchPolicy:
    """Chooses by move values from its seat's information, ``budget`` play-outs per decision."""

    def __init__(self, rng: np.random.Generator, budget: int = DEFAULT_SEARCH_BUDGET, *,
                 greedy_default: bool = True) -> None:
        if not isinstance(rng, np.random.Generator):
            raise InvalidInputError(f"rng={shown(rng)} is not a numpy.random.Generator")
        if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) \
                or not 1 <= budget <= MAX_SEARCH_BUDGET:
            raise InvalidInputError(f"budget={shown(budget)} is not allowed; give play-outs per decision, a whole "
                                    f"number from 1 to {MAX_SEARCH_BUDGET:,}")
        if not isinstance(greedy_default, bool):
            raise InvalidInputError(f"greedy_default={shown(greedy_default)} is not allowed; accepted: True or False")
        self.rng = rng
        self.budget = int(budget)
        self.greedy_default = greedy_default

    def decide(self, game: Game[Any]) -> Move:
        """The move to play in ``game`` for the seat to move (one distinct move: that one, with no play-out)."""
        moves = distinct_moves(game.legal_moves())
        if len(moves) == 1:
            return moves[0]
        n = max(1, self.budget // len(moves))
        values = move_values(game, rollouts=n, rng=self.rng)
        if not self.greedy_default:
            return values.best_move
        default = values.value_of(choose(builtin_policy("greedy", game.name, self.rng), game))
        if default.best:
            return default.move
        best = values.values[values.best]
        z = NormalDist().inv_cdf(1 - 0.05 / (2 * (len(moves) - 1)))
        return best.move if gap_low(default, z) > 0 else default.move

    def __call__(self, view: Any, legal_moves: Sequence[Move]) -> Move:
        if len(legal_moves) == 1:
            return legal_moves[0]
        raise InvalidInputError("the search player reads the game, not only the view: let "
                                "cardlab.policies.choose(policy, game) (or simulate, or the stepper) ask it")

    def __repr__(self) -> str:
        return f"SearchPolicy(budget={self.budget})"
