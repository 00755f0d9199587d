"""Answer key of lesson 04, "Playing Spite and Malice": the exact chance that the top stock card fits a centre
pile as the piles are at the deal, for the table (seed 28) and for seat 0 with only Aces starting a pile (seed 1)."""

from __future__ import annotations

import cardlab
from cardlab.sim import prob
from cardlab.viz.exercise import Exercise


def exercise_1() -> Exercise:
    return Exercise(
        "Exercise 1.", "Seed 28, before any move: the table's exact chance that the top stock card fits a centre "
                       "pile as they are now?",
        truth=lambda: prob.spite_next_stock_playable(cardlab.new_game("spite-and-malice", seed=28)),
        hint="the opening had ties. Each tied card went back into its own payoff pile: can it be the top stock "
             "card? Leave those cards out of both counts")


def exercise_2() -> Exercise:
    return Exercise(
        "Exercise 2.", "Seed 1, king_starts_pile=False: seat 0's exact chance that the top stock card fits now?",
        truth=lambda: prob.spite_next_stock_playable(
            cardlab.new_game("spite-and-malice", seed=1, king_starts_pile=False), 0),
        hint="with this option only an Ace can start a pile. Seat 0 cannot see the stock, the other hand or the "
             "cards under the payoff tops; its own hand it can see")
