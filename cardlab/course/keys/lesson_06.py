"""Answer key of lesson 06, "Playing Shithead": the share of a fresh pack that fits on a Queen, and the table's
count (every unseen card taken as equally likely) that the draw pile's top fits on the 7 under
``seven_lower``."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import cardlab
from cardlab.cards import Rank
from cardlab.course.keys import a_game
from cardlab.games.shithead.rules import House, fit_table
from cardlab.sim import prob
from cardlab.viz.exercise import Exercise


def _fits_on(top: Rank, **house_rules: Any) -> Fraction:
    """The share of a fresh pack's cards that the rules let go on a card of rank ``top`` (the table's view before
    the set-up: every card unseen)."""
    pack = cardlab.new_game("shithead", players=2, seed=0, **house_rules).unseen_cards(None)
    ranks = fit_table(House.of(house_rules))[top]
    return Fraction(sum(card.rank in ranks for card in pack), len(pack))


def exercise_1() -> Exercise:
    return Exercise(
        "Exercise 1.", "A fresh game: the table's exact chance that the top of the draw pile fits on a Queen?",
        truth=lambda: _fits_on(Rank.QUEEN),
        hint="a card fits if it is equal or higher, or if it goes on anything; count the cards of those ranks in 52")


def exercise_2(game: object) -> Exercise:
    """``game``: section 4's deal and set-up, made again with ``seven_lower=True`` (the lesson's ``lower``)."""
    position = a_game(game).copy()
    return Exercise(
        "Exercise 2.", "seven_lower: the table's count (fitting unseen cards / unseen cards) for the top of "
        "the draw pile on the 7?",
        truth=lambda: prob.shithead_draw_top_fits(position, None),
        hint="on a 7 this rule allows a 7 or lower, a 2 or a 10; count those among the cards the table cannot see")
