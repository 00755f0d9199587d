"""Answer key of lesson 08, "Shithead: what play tells, and how to test a model": the simulated deals that check
the model's chance to ±0.01, and the real positions that would make the model's difference from the plain share
four standard errors of the real-deal test."""

from __future__ import annotations

import numpy as np

from cardlab.course.keys import a_game
from cardlab.errors import InvalidInputError, shown
from cardlab.sim import prob
from cardlab.viz.exercise import Exercise

Z = 1.96
"""The exercises' 95% multiplier, as the questions say it."""
HALF_WIDTH_1 = 0.01
TOLERANCE_1 = 75
"""Deals, about 1% of the answer (the question says "about"): p rounded to 2 digits, section 2's simulated share
for p, or a round 7,400 stays right; the plain share's p is about 5% fewer ("close"); seat 0's own value (13% fewer),
p = 1/2 (30% more) and one standard error for 1.96 are "not yet"."""
STANDARD_ERRORS_2 = 4


def _deals_for_half_width(model_value: float) -> float:
    """n with 1.96 sqrt(p(1 - p)/n) = 0.01, p the model's chance (not rounded up: the question says "about")."""
    return Z ** 2 * model_value * (1 - model_value) / HALF_WIDTH_1 ** 2


def exercise_1(game: object) -> Exercise:
    """``game``: the lesson's position at the Ace; its simulation checked the table's chance that seat 0's
    face-down card fits."""
    position = a_game(game).copy()
    return Exercise(
        "Exercise 1.", "About how many simulated deals make the 95% interval reach 0.01 on each side of the table's "
                       "value?",
        truth=lambda: _deals_for_half_width(float(prob.shithead_blind_fits(position, None))),
        probability=False,
        tolerance=TOLERANCE_1,
        hint="solve 1.96 sqrt(p(1 - p)/n) = 0.01 for n, with p the table's value for the face-down card")


def _chances(name: str, value: object) -> np.ndarray:
    """``value`` as a 1-d array of chances, else an error naming it."""
    array = np.asarray(value, dtype=float) if isinstance(value, (np.ndarray, list, tuple)) else None
    if array is None or array.ndim != 1 or array.size < 2 or not np.all((array >= 0) & (array <= 1)):
        raise InvalidInputError(f"{name}={shown(value)}: give section 3's array of chances, one per real "
                                f"position ({name}=...)")
    return array


def _positions_for_strong_evidence(predicted: np.ndarray, plain: np.ndarray) -> float:
    """n with (mean difference) = 4 standard errors of the test, the standard error sqrt(sum p(1 - p))/n of
    n positions shrinking like 1/sqrt(n) from the model's chances ``predicted``: n = 16 mean(p(1 - p)) / gap^2."""
    gap = float(np.mean(predicted - plain))
    return STANDARD_ERRORS_2 ** 2 * float(np.mean(predicted * (1 - predicted))) / gap ** 2


def exercise_2(predicted: object, plain: object) -> Exercise:
    """``predicted``, ``plain``: section 3's model chances and plain shares, one per real position."""
    model, share = _chances("predicted", predicted), _chances("plain", plain)
    if model.size != share.size:
        raise InvalidInputError(f"predicted has {model.size} chances and plain {share.size}: give section 3's "
                                "two arrays, one chance per real position each")
    if float(np.mean(model - share)) == 0:
        raise InvalidInputError("predicted=... and plain=... agree on average: no number of positions tells them "
                                "apart; give section 3's two arrays")
    return Exercise(
        "Exercise 2.", "About how many real positions would make the average difference between the model and the "
                       "plain share four standard errors of the test?",
        truth=lambda: _positions_for_strong_evidence(model, share), probability=False,
        tolerance=300,  # positions: the printed numbers, rounded to 4 digits, move the answer by up to about 2%;
                        # 2 standard errors (a quarter), no square (about a quarter) and the standard error taken
                        # as the whole difference (16 x 1,000) are "not yet"
        hint=_hint_2(model, share))


def _hint_2(predicted: np.ndarray, plain: np.ndarray) -> str:
    """The hint, naming section 3's printed numbers: the test's standard error and the average difference."""
    test_se = float(np.sqrt(np.sum(predicted * (1 - predicted)))) / predicted.size
    gap = abs(float(np.mean(predicted - plain)))
    return (f"the standard error must shrink from {test_se:.4f} to a quarter of the difference, {gap:.4f}/4; "
            "how many times as many positions does that take?")
