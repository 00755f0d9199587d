"""Answer key of lesson 00, "Start here": the next stock card's chance, at the deal and after five moves, and seat
0's share of wins in 1,000 simulated games (seed 7)."""

from __future__ import annotations

from typing import Any

import numpy as np

import cardlab
from cardlab.engine.game import Game
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


def _seat_0_share(seed: int = 7, games: int = 1000) -> float:
    """Seat 0's share of wins in ``games`` two-player games of greedy bots, seed ``seed``: the route the question
    names, ``cardlab.simulate`` with its default bots (kernel and engine deal alike, so any route agrees)."""
    out = cardlab.simulate("garbage", players=2, games=games, seed=seed, progress=False)
    return float(np.mean(out.winners == 0))


def exercise_3() -> Exercise:
    return Exercise(
        "Exercise 3.", "Seed 7, 1,000 games: in what share of them did seat 0 win?",
        truth=_seat_0_share,
        hint="count the games whose winner is seat 0 (simulate(...).winners), and divide by the number of games")
