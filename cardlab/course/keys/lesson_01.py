"""Answer key of lesson 01, "The law of large numbers": games needed for a given interval width, the normal
interval's real coverage at n = 20, and the chance that one of twenty intervals misses."""

from __future__ import annotations

from fractions import Fraction
from math import ceil, comb, sqrt

import cardlab
from cardlab.chance.stats import Z95
from cardlab.sim import prob
from cardlab.viz.exercise import Exercise


def _first_draw_chance() -> Fraction:
    """p from the game itself: the exact chance that a fresh one-spot solitaire's first card can be placed."""
    return Fraction(prob.garbage_next_card_placeable(cardlab.new_game("garbage", players=1, seed=0,
                                                                      layout_sizes=[1])))


def _games_needed(half_width: Fraction) -> int:
    """The smallest n with 1.96 sqrt(p(1-p)/n) <= half_width (with 1.96, as the exercise says)."""
    p = _first_draw_chance()
    return ceil(Fraction(196, 100) ** 2 / half_width ** 2 * p * (1 - p))


def exercise_1() -> Exercise:
    return Exercise(
        "Exercise 1.", "At least how many games make the 95% interval for p = 2/13 at most ±0.005 wide? (A whole "
                       "number.)",
        truth=lambda: _games_needed(Fraction(5, 1000)), count=True,
        tolerance=1,    # games: z = 1.95996 for 1.96 gives one game fewer and stays right; fewer games give a
                        # half-width above 0.005; p rounded to 0.1538 (5 games fewer) is "close", without the 1.96
                        # (about a quarter as many games) "not yet"
        hint="use p = 2/13 exactly (a rounded p changes n), solve 1.96 sqrt(p(1-p)/n) = 0.005 for n, and round up")


def _normal_coverage(n: int) -> Fraction:
    """The exact chance that the normal interval from n games covers p: the binomial chances of the counts k
    whose interval contains p, added up."""
    p = _first_draw_chance()
    total = Fraction(0)
    for k in range(n + 1):
        centre = k / n
        if abs(centre - float(p)) <= Z95 * sqrt(centre * (1 - centre) / n):
            total += comb(n, k) * p ** k * (1 - p) ** (n - k)
    return total


def exercise_2() -> Exercise:
    return Exercise(
        "Exercise 2.", "n = 20 games: how often does the normal interval cover p = 2/13?",
        truth=lambda: _normal_coverage(20),
        tolerance=0.025,   # 2000 experiments estimate it to about ±0.017 (95%); the promised 95% is far off
        hint="in the cell under the question, set half to 1.96 sqrt(p̂(1 - p̂)/n) for each experiment (np.sqrt, "
             "with its phat and n), run it, and read the share of intervals that contain 2/13")


def _at_least_one_miss(intervals: int, coverage: Fraction) -> Fraction:
    """Independent intervals: all cover with the product of their chances; at least one misses otherwise."""
    all_cover = Fraction(1)
    for _ in range(intervals):
        all_cover *= coverage
    return 1 - all_cover


def exercise_3() -> Exercise:
    return Exercise(
        "Exercise 3.", "20 independent 95% intervals: the chance that at least one misses?",
        truth=lambda: _at_least_one_miss(20, Fraction(95, 100)),
        tolerance=0.005,
        hint="first the chance that all 20 cover (they are independent), then the rest")
