"""Answer key of lesson 05, "Chances in Spite and Malice": the standard error that separates two answers by six,
a simulation of that size, and the largest half-width of an interval from 200 rounds."""

from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist

import cardlab
from cardlab.sim import prob
from cardlab.viz.exercise import Exercise

RIVAL = Fraction(16, 102)
"""The other answer the lesson weighs (the count that forgets the tied cards): 16 fitting cards of 102."""
SEPARATION = 6
ROUNDS = 200


def _p() -> Fraction:
    """The table's exact chance that the top stock card fits the centre piles as they are at the deal, seed 28
    (lesson 04's Exercise 1)."""
    return Fraction(prob.spite_next_stock_playable(cardlab.new_game("spite-and-malice", seed=28)))


def exercise_1() -> Exercise:
    return Exercise(
        "Exercise 1.", "The standard error that puts p and 16/102 six standard errors apart?",
        truth=lambda: abs(RIVAL - _p()) / SEPARATION, tolerance=0.0001, close=0.2,
        hint="the distance between the two answers must be 6 standard errors")


def exercise_2() -> Exercise:
    return Exercise(
        "Exercise 2.", "The share of simulated deals whose top stock card fits (seed 28, before any move)?",
        # right within half the distance between p and 16/102: a simulation of Exercise 1's size lands there
        # almost always (3 standard errors), and the wrong answer 16/102 is outside
        truth=_p, tolerance=0.007, close=0.05,
        hint="deal as many times as Exercise 1 says; a small simulation cannot tell the two answers apart")


def _largest_half_width(rounds: int) -> float:
    """1.96 sqrt(p(1 - p)/n) at its largest, p(1 - p) = 1/4 at p = 1/2."""
    return NormalDist().inv_cdf(0.975) * math.sqrt(0.25 / rounds)


def exercise_3() -> Exercise:
    return Exercise(
        "Exercise 3.", "The largest half-width of a 95% interval from 200 decided rounds?",
        truth=lambda: _largest_half_width(ROUNDS), tolerance=0.002, close=0.1,
        hint="the half-width is 1.96 × √(p(1 − p)/n); for which p is p(1 − p) largest?")
