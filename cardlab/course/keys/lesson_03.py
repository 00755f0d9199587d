"""Answer key of lesson 03, "Chances in Garbage": the level that makes ten intervals hold together (Bonferroni),
the chance that one of ten independent intervals at that level misses, and the games that section 1's check needs
to notice an error half as large as often."""

from __future__ import annotations

from fractions import Fraction

from cardlab.errors import InvalidInputError, shown
from cardlab.viz.exercise import Exercise

FAMILY_MISS = Fraction(5, 100)
"""The family's chance of a miss the lesson allows (all intervals hold together at 95%)."""
NOTICED = Fraction(4, 100)
"""Section 1's check notices an average error of this size (4 points) with the power it prints."""
SMALLER = Fraction(2, 100)
"""Exercise 3 asks for the games that notice an error of this size (2 points) as often."""


def _count(intervals: object) -> int:
    if isinstance(intervals, bool) or not isinstance(intervals, int) or intervals < 1:
        raise InvalidInputError(f"intervals={shown(intervals)}: give the number of intervals the lesson made "
                                "(len(rates)), a whole number from 1")
    return intervals


def _level(k: int) -> Fraction:
    """Each of ``k`` intervals at 1 - 5%/k: the 5% shared out equally (Bonferroni)."""
    return 1 - FAMILY_MISS / k


def exercise_1(intervals: int) -> Exercise:
    """``intervals``: how many intervals section 3 made (one per layout size). Closeness is judged on the miss rate
    (1 - level): within 0.001 of the level is "close", so 99% (twice the allowed misses) is "not yet". The question
    shares the 5% equally, so Sidak's 1 - 0.95^(1/10) (right for independent intervals only) is "close", and
    Exercise 2, built on this level, has one answer."""
    k = _count(intervals)
    return Exercise(
        "Exercise 1.", "At what level must each of the ten intervals be made, so that all ten hold together at 95%?",
        truth=lambda: _level(k), tolerance=0.00005, close=0.001,   # Sidak's 99.488% (not an equal share) is close
        hint="the ten intervals may miss 5% in total; share that equally among them")


def _one_misses(k: int) -> Fraction:
    """Independent intervals, each at Exercise 1's level, all cover with the product of their chances; at least one
    misses otherwise."""
    all_cover = Fraction(1)
    for _ in range(k):
        all_cover *= _level(k)
    return 1 - all_cover


def exercise_2(intervals: int) -> Exercise:
    """``intervals``: how many intervals section 3 made."""
    k = _count(intervals)
    return Exercise(
        "Exercise 2.", "Ten independent intervals, each at Exercise 1's level: what is the chance that at least one "
                       "of them misses?",
        truth=lambda: _one_misses(k), tolerance=0.0005,
        hint="first find the chance that all ten cover (they are independent, each at Exercise 1's level), then "
             "take the complement")


def _games_for_smaller_error(games: int) -> int:
    """The games at which an error of :data:`SMALLER` sits as many standard errors out as :data:`NOTICED` does with
    ``games``: the standard error shrinks like 1/sqrt(n), so n grows by (NOTICED / SMALLER) squared."""
    factor = (NOTICED / SMALLER) ** 2
    return int(games * factor)


def exercise_3(games: int) -> Exercise:
    """``games``: how many games section 1's check used (``len(real)``). Right within a tenth of ``games``
    (2.5% of the answer): a student who aims at the printed power 0.94 rather than its exact value lands about 1.5%
    higher."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidInputError(f"games={shown(games)}: give the number of games section 1 used (len(real)), a "
                                "whole number from 1")
    return Exercise(
        "Exercise 3.", "How many games like the ones section 1's check used would it need to notice an average "
                       "error of 2 points as often as it notices one of 4 points now?",
        truth=lambda: _games_for_smaller_error(games), count=True, tolerance=games / 10, close=0.1,
        value_name="four times section 1's games",
        hint="give a number of games. 2 points must sit as many standard errors from 0 as 4 points do now; how "
             "does the standard error shrink as the number of games grows?")
