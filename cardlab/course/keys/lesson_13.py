"""Answer key of lesson 13, "Markov chains": the exact chance of completing 6 spots of Garbage solitaire within 5
draws, and the exact chance that a one-spot solitaire takes more draws than its expected number, each to the three
decimals its question names.

The chances come from the same state ``(d, w, U)`` as lesson 12's, with one more argument, the number of turns
still allowed (:mod:`cardlab.course.keys._solitaire`, shared with lesson 12's key).
"""

from __future__ import annotations

import math
from fractions import Fraction

from cardlab.course.keys._solitaire import done_within, expected_draws
from cardlab.viz.exercise import Exercise

THREE_DECIMALS = 0.0005
"""An answer rounded to three decimals is within this of the truth: the precision both questions name."""
SLIPS_NOT_CLOSE = 0.015
"""Exercise 2's "close" band, 1.5% of the truth: the two classic slips of drawing without replacement, with
replacement, (44/52)^5, about 4% off, and "8 useful among the 51 stock cards", C(43, 5)/C(51, 5), about 2% off, get
"not yet"; a three-decimal answer one step off stays "close"."""


def exercise_1() -> Exercise:
    return Exercise(
        "Exercise 1.", "The exact chance of completing 6 spots within 5 draws, to three decimals?",
        truth=lambda: done_within(6, 5), tolerance=THREE_DECIMALS,
        hint="section 4's curve, for 6 spots instead of 10: P(T ≤ 5)")


def _longer_than_the_mean(spots: int) -> Fraction:
    """P(T > E[T]): T is a whole number of draws, so that is 1 - P(T <= floor(E[T]))."""
    return 1 - done_within(spots, math.floor(expected_draws(spots)))


def exercise_2() -> Exercise:
    return Exercise(
        "Exercise 2.", "One spot: the exact chance that a game takes more draws than the expected number 53/9, to "
        "three decimals?",
        truth=lambda: _longer_than_the_mean(1), tolerance=THREE_DECIMALS, close=SLIPS_NOT_CLOSE,
        hint="a game takes more than 53/9 ≈ 5.89 draws when it is not complete within 5 draws")
