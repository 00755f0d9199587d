"""Answer key of lesson 05, "Chances in Spite and Malice": the standard error that separates two answers by six,
the count of a seeded simulation of that size (the lesson fixes its seed and its loop, so the count is exact), and
the largest half-width of an interval from 200 rounds."""

from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist

import numpy as np

import cardlab
from cardlab.cards import Rank
from cardlab.sim import prob
from cardlab.viz.exercise import Exercise

RIVAL = Fraction(16, 102)
"""The other answer the lesson weighs (the count that forgets the tied cards): 16 fitting cards of 102."""
SEPARATION = 6
ROUNDS = 200
SIMULATION_SEED = 41
"""The seed of Exercise 2's loop, as the lesson's cell fixes it."""
ROUND_UP = 1000
"""Exercise 2 deals Exercise 1's n rounded up to a whole thousand."""


def _p() -> Fraction:
    """The table's exact chance that the top stock card fits the centre piles as they are at the deal, seed 28
    (lesson 04's Exercise 1: 14 fitting cards of the 100 it can be)."""
    return Fraction(prob.spite_next_stock_playable(cardlab.new_game("spite-and-malice", seed=28)))


def exercise_1() -> Exercise:
    return Exercise(
        "Exercise 1.", "The standard error that puts p and 16/102 six standard errors apart?",
        truth=lambda: abs(RIVAL - _p()) / SEPARATION, tolerance=0.0001, close=0.2,
        hint="the distance between the two answers must be 6 standard errors")


def _deals() -> int:
    """Exercise 1's n (the smallest n whose standard error puts p and 16/102 six apart), rounded up to a whole
    thousand."""
    p = _p()
    standard_error = abs(RIVAL - p) / SEPARATION
    n = math.ceil(p * (1 - p) / standard_error ** 2)
    return math.ceil(n / ROUND_UP) * ROUND_UP


def _hits() -> int:
    """The lesson's loop: ``rng = default_rng(41)``, then for each of the deals one ``start.resample(None, rng)``,
    counting the top stock cards that are an Ace or a King (at the deal, the cards that fit the empty piles)."""
    start = cardlab.new_game("spite-and-malice", seed=28)
    rng = np.random.default_rng(SIMULATION_SEED)
    return sum(start.resample(None, rng).state.stock[-1].rank in (Rank.ACE, Rank.KING) for _ in range(_deals()))


def exercise_2() -> Exercise:
    return Exercise(
        "Exercise 2.", "Seed 28, the lesson's loop with its seed: how many of the deals have an Ace or a King on "
                       "top?",
        # the seed and the loop are fixed, so a right simulation gives exactly this count; p times n (no dealing)
        # and 16/102 times n are further than 1% away
        truth=_hits, count=True, close=0.01, value_name="the count of the lesson's loop",
        hint="deal exactly Exercise 1's n rounded up to a whole thousand, with the seed the cell gives, one "
             "start.resample(None, rng) per deal, and count the deals, not the share")


def _largest_half_width(rounds: int) -> float:
    """1.96 sqrt(p(1 - p)/n) at its largest, p(1 - p) = 1/4 at p = 1/2."""
    return NormalDist().inv_cdf(0.975) * math.sqrt(0.25 / rounds)


def exercise_3() -> Exercise:
    return Exercise(
        "Exercise 3.", "The largest half-width of a 95% interval for seat 0's share of 200 decided rounds?",
        truth=lambda: _largest_half_width(ROUNDS), tolerance=0.002, close=0.1,
        hint="the half-width is 1.96 × √(p(1 − p)/n); for which p is p(1 − p) largest?")
