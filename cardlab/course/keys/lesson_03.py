"""Answer key of lesson 03, "Chances in Garbage": the level that makes ten intervals hold together (Bonferroni),
the chance that one of ten independent intervals misses, and the games that halve an interval's width."""

from __future__ import annotations

from fractions import Fraction

from cardlab.errors import InvalidInputError, shown
from cardlab.sim.stats import Estimate, wilson
from cardlab.viz.exercise import Exercise

FAMILY_MISS = Fraction(5, 100)
"""The family's chance of a miss the lesson allows (all intervals hold together at 95%)."""
STEP = 100
"""Exercise 3 counts games in steps of 100."""


def _count(intervals: object) -> int:
    if isinstance(intervals, bool) or not isinstance(intervals, int) or intervals < 1:
        raise InvalidInputError(f"intervals={shown(intervals)}: give the number of intervals the lesson made "
                                "(len(rates)), a whole number from 1")
    return intervals


def exercise_1(intervals: int) -> Exercise:
    """``intervals``: how many intervals section 3 made (one per layout size)."""
    k = _count(intervals)
    return Exercise(
        "Exercise 1.", "At what level must each of the ten intervals be made, so that all ten hold together at 95%?",
        truth=lambda: 1 - FAMILY_MISS / k, tolerance=0.0002, close=0.01,
        hint="the ten intervals may miss 5% in total; share that equally among them")


def _one_misses(k: int) -> Fraction:
    """Independent intervals all cover with the product of their chances; at least one misses otherwise."""
    all_cover = Fraction(1)
    for _ in range(k):
        all_cover *= 1 - FAMILY_MISS
    return 1 - all_cover


def exercise_2(intervals: int) -> Exercise:
    """``intervals``: how many intervals section 3 made."""
    k = _count(intervals)
    return Exercise(
        "Exercise 2.", "Ten independent 95% intervals: what is the chance that at least one of them misses?",
        truth=lambda: _one_misses(k), tolerance=0.005,
        hint="first find the chance that all ten cover (they are independent), then take the complement")


def _times_to_halve(estimate: Estimate) -> float:
    """The smallest number of games (in steps of 100) whose Wilson interval, at the same share of wins, is at most
    half as wide as ``estimate``'s, as a multiple of ``estimate``'s games."""
    target, n = estimate.half_width / 2, estimate.n
    while wilson(estimate.value * n, n).half_width > target:
        n += STEP
    return n / estimate.n


def exercise_3(estimate: Estimate) -> Exercise:
    """``estimate``: the Wilson interval from 20 000 games for 10 spots (``est[10]``)."""
    if not isinstance(estimate, Estimate) or estimate.n < 1:
        raise InvalidInputError(f"estimate={shown(estimate)}: give the lesson's interval for 10 spots, est[10]")
    return Exercise(
        "Exercise 3.", "How many times as many games give an interval half as wide as the one from 20 000 games?",
        truth=lambda: _times_to_halve(estimate), probability=False, tolerance=0.1, close=0.2,
        hint="the width of an interval shrinks like 1 over the square root of the number of games")
