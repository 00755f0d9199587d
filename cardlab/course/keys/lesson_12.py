"""Answer key of lesson 12, "Expected value": Garbage solitaire's exact expected number of draws with Kings wild,
and how many draws more the slowest layout size takes than 10 spots, each to the two decimals its question names.

The exact expectations come from first-step analysis on the state ``(d, w, U)`` of the lesson, with the state
table's numbers read from the game (:mod:`cardlab.course.keys._solitaire`, shared with lesson 13's key).
"""

from __future__ import annotations

from fractions import Fraction

from cardlab.course.keys._solitaire import SIZES, expected_draws
from cardlab.viz.exercise import Exercise

TWO_DECIMALS = 0.005
"""An answer rounded to two decimals is within this of the truth: the precision both questions name."""


def exercise_1() -> Exercise:
    return Exercise(
        "Exercise 1.", "10 spots, Kings wild: the exact expected number of draws, to two decimals?",
        truth=lambda: expected_draws(10, "K"), probability=False,
        tolerance=TWO_DECIMALS,   # the question's two decimals; a simulated mean is "close"; 6 spots' is "not yet"
        hint="the state table only counts how many wild cards there are, not which rank they have")


def _slowest_minus_ten() -> Fraction:
    """The largest expected number of draws over 1-10 spots, minus 10 spots'."""
    means = {n: expected_draws(n) for n in SIZES}
    return max(means.values()) - means[max(SIZES)]


def exercise_2() -> Exercise:
    return Exercise(
        "Exercise 2.", "How many more draws, on average, does the slowest layout size take than 10 spots? Give the "
        "exact difference to two decimals.",
        truth=_slowest_minus_ten, probability=False, tolerance=TWO_DECIMALS,   # the two decimals the question names
        hint="section 4's exact expectations: find the largest, subtract the one for 10 spots")
