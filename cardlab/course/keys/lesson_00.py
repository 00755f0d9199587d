"""Answer key of lesson 00, "Start here": the next stock card's chance, at the deal and after five moves, and the
width of an interval with four times the play-outs."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

import cardlab
from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError, shown
from cardlab.sim import prob
from cardlab.viz.exercise import Exercise
from cardlab.viz.stepper import Stepper


def _after_moves(seed: int, moves: int) -> Game[Any]:
    """The Garbage game a new two-player stepper with this seed shows after ``moves`` presses of Next move (the
    route the lesson teaches; the stepper's default options, as a student leaves them)."""
    quick = Stepper("garbage", players=2, seed=seed, rollouts=8, panel_rollouts=4)
    try:
        for _ in range(moves):
            quick.next_move()
        game: Game[Any] = quick.game
        return game
    finally:
        quick.close()


def exercise_1() -> Exercise:
    return Exercise(
        "Exercise 1.", "Seed 11, after five moves: what is the exact chance that the next stock card can be used?",
        truth=lambda: prob.garbage_next_card_placeable(_after_moves(11, 5)),
        hint="count the unseen cards that the player who draws the next stock card can place, and divide by the "
             "number of unseen cards")


def exercise_2() -> Exercise:
    return Exercise(
        "Exercise 2.", "At the deal: what is the exact chance that seat 0's first card can be placed?",
        truth=lambda: prob.garbage_next_card_placeable(cardlab.new_game("garbage", players=2, seed=0)),
        hint="at the deal every card is unseen; a card can be placed if its spot (A to 10) is face down, and "
             "remember the wild card")


def _width_ratio(rollouts: int) -> float:
    """Seat 0's interval width with four times ``rollouts`` play-outs over its width with ``rollouts`` (seed 3,
    four moves, as the lesson's stepper; fresh play-outs, so the stepper's own numbers may differ by a little
    noise)."""
    game = _after_moves(3, 4)
    old = prob.win_probability(game, None, rollouts=rollouts, rng=np.random.default_rng(2023))[0]
    new = prob.win_probability(game, None, rollouts=4 * rollouts, rng=np.random.default_rng(2024))[0]
    return float(Fraction(new.half_width) / Fraction(old.half_width))


def exercise_3(rollouts: int) -> Exercise:
    """``rollouts``: the play-outs of the lesson's stepper (``stepper.rollouts``)."""
    if isinstance(rollouts, bool) or not isinstance(rollouts, (int, np.integer)) or rollouts < 10:
        raise InvalidInputError(f"rollouts={shown(rollouts)}: give the stepper's play-outs, a whole number from 10")
    return Exercise(
        "Exercise 3.", "With four times the play-outs, the new interval's width is what fraction of the old one?",
        truth=lambda: _width_ratio(int(rollouts)), tolerance=0.02, close=0.2,
        hint="the width of an interval shrinks like 1 over the square root of the number of play-outs")
