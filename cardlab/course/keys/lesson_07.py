"""Answer key of lesson 07, "Shithead: chances by counting": the chance that the top of a fresh game's draw pile
fits on a Queen (exact for a fair shuffle), and the table's count (every unseen card taken as equally likely:
an assumption, so the verdict calls it a count) that the draw pile's top fits on the 7 under ``seven_lower``."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import cardlab
from cardlab.cards import Rank
from cardlab.course.keys import a_game
from cardlab.errors import InvalidInputError, shown
from cardlab.games.shithead.rules import House, Shithead, fit_table
from cardlab.viz.exercise import Exercise

COUNT_NAME = "the table's count, which takes every unseen card as equally likely,"
"""How a right verdict names a count after the set-up: a model's value, not an exact chance."""
CLOSE_2 = 0.02
"""Exercise 2's "close": within 2% of the table's count. A seat's count of the same position (a viewpoint
mistake, not a slip) differs from it by 3% or more, so it gets "not yet" and the hint that names whose count."""


def _fits_on(top: Rank, **house_rules: Any) -> Fraction:
    """The share of a fresh pack's cards that the rules let go on a card of rank ``top`` (the table's view before
    the set-up: every card unseen, and a fair shuffle makes each equally likely on top of the draw pile)."""
    pack = cardlab.new_game("shithead", players=2, seed=0, **house_rules).unseen_cards(None)
    ranks = fit_table(House.of(house_rules))[top]
    return Fraction(sum(card.rank in ranks for card in pack), len(pack))


def _table_count(game: Shithead) -> Fraction:
    """The table's count for a hidden card: the share of the cards the table has not seen that fit the pile."""
    unseen = game.unseen_cards(None)
    return Fraction(sum(game.fits(card) for card in unseen), len(unseen))


def exercise_1() -> Exercise:
    return Exercise(
        "Exercise 1.", "A fresh game, a fair shuffle: the table's exact chance that the top of the draw pile fits "
        "on a Queen?",
        truth=lambda: _fits_on(Rank.QUEEN), rounded=True,
        hint="a card fits if it is equal or higher, or if it goes on anything; count the cards of those ranks in 52")


def exercise_2(game: object) -> Exercise:
    """``game``: section 2's deal and set-up, made again with ``seven_lower=True`` (the lesson's ``lower``)."""
    position = a_game(game).copy()
    if not isinstance(position, Shithead):
        raise InvalidInputError(f"game={shown(game)} is not a Shithead game: give the lesson's `lower`")
    return Exercise(
        "Exercise 2.", "seven_lower: the table's count (fitting unseen cards / unseen cards) for the top of "
        "the draw pile on the 7?",
        truth=lambda: _table_count(position), value_name=COUNT_NAME, close=CLOSE_2, rounded=True,
        hint="on a 7 this rule allows a 7 or lower, a 2 or a 10; count those among the cards the table cannot see "
             "(the table's count, not a seat's: a seat also sees its own hand)")
