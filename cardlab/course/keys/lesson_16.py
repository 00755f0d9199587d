"""Answer key of lesson 16, "The value of a move": the share of 20 worlds that mislead a player who sees one game,
the play-outs independent sampling needs against paired, and the win chance a discard gives up."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

import cardlab
from cardlab.course.keys import greedy_moves, play_out_table
from cardlab.sim.move_values import move_values
from cardlab.viz.exercise import Exercise

ROLLOUTS_3 = 40_000


def _misleading_share(worlds: np.ndarray[Any, Any]) -> Fraction:
    """The share of the worlds in which the first move (drawing blind) wins and the second (taking the discard)
    loses: one game in such a world makes drawing look better."""
    return Fraction(int(np.sum((worlds[:, 0] == 1) & (worlds[:, 1] == 0))), len(worlds))


def exercise_1(worlds: object) -> Exercise:
    """``worlds``: the 20 worlds the lesson prints (``first_20``: columns draw stock, take discard)."""
    table = play_out_table(worlds, "worlds").copy()
    return Exercise(
        "Exercise 1.", f"In the {len(table)} worlds printed, what share would make a player who saw only that one "
                       "game think drawing blind is the better move?",
        truth=lambda: _misleading_share(table),
        close=0.1,   # not the default 0.05: a share of 1/20 would equal it, and an attribute must not show the answer
        hint="such a world needs drawing to win and taking to lose")


def _factor(paired: np.ndarray[Any, Any], independent: np.ndarray[Any, Any]) -> float:
    """Var(independent difference) / Var(paired difference): a difference's variance with n play-outs each is the
    variance of one difference over n, so equal precision takes this many times the play-outs."""
    var_paired = np.var(paired[:, 1] - paired[:, 0], ddof=1)
    var_independent = np.var(independent[:, 1] - independent[:, 0], ddof=1)
    return float(var_independent / var_paired)


def exercise_2(paired: object, independent: object) -> Exercise:
    """``paired`` and ``independent``: section 2's and section 3's tables of play-outs (``common``,
    ``independent``)."""
    same, apart = play_out_table(paired, "paired").copy(), play_out_table(independent, "independent").copy()
    return Exercise(
        "Exercise 2.", "Independent play-outs need how many times as many play-outs as paired ones, for the same "
                       "precision of a difference?",
        truth=lambda: _factor(same, apart), tolerance=0.05, close=0.15, probability=False,
        hint="the variance of an average of n play-outs is (variance of one) / n")


def _discard_loss() -> float:
    """The win chance given up by discarding, from 40,000 paired play-outs (about 0.173; the difference's 95%
    interval is about ±0.006 wide). A 4,000-play-out estimate has a standard deviation of about 0.006, so rounded to
    two decimals it is 0.16 to 0.19 (seeds 0-9 of ``default_rng`` give 0.17 to 0.19: 0.1862 for seed 2), all within
    the tolerance of 0.02; 0.15 and 0.20, three or more standard deviations away, are not, and the plausible
    wrong answers, the discard's own win chance or 0, are far outside it."""
    game = greedy_moves(cardlab.new_game("garbage", players=2, seed=17), 5)
    return move_values(game, rollouts=ROLLOUTS_3, rng=np.random.default_rng(99)).value_of("discard").gap


def exercise_3() -> Exercise:
    return Exercise(
        "Exercise 3.", "How much win chance does discarding the 3 give up against the best move?",
        truth=_discard_loss, tolerance=0.02, close=0.3,
        hint="the gap between the best move's win chance and the discard's")
