"""Answer key of lesson 11, "Bayes' rule and card counting": what a forced pick-up tells about the hand, and the
chance at a completed Spite and Malice pile for a player who remembers it."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from cardlab.cards import Rank
from cardlab.course.keys import a_game
from cardlab.engine.game import Game
from cardlab.sim import prob
from cardlab.viz.exercise import Exercise


def _five_after_pickup(game: Game) -> Fraction:  # type: ignore[type-arg]
    """P(seat 0's hand held a 5 | it held nothing that fits), every hand of its size equally likely beforehand:
    the share of the hands that could not play that hold a 5, counted by listing them all."""
    cards = game.unseen_cards(None)
    size = len(game.state.hands[0])
    blocked = [hand for hand in combinations(cards, size) if not any(game.fits(c) for c in hand)]  # type: ignore[attr-defined]
    return Fraction(sum(any(c.rank == Rank.FIVE for c in hand) for hand in blocked), len(blocked))


def exercise_1(game: object) -> Exercise:
    """``game``: the lesson's ``position``, at the pick-up."""
    position = a_game(game).copy()
    return Exercise(
        "Exercise 1.", "After the pick-up: the table's chance that seat 0's hand included a 5?",
        truth=lambda: float(_five_after_pickup(position)),   # a float: it rests on the equal-chance assumption
        hint="only cards that do not fit the Ace could have been in the hand: count 5s among those (section 1's "
             "formula with 5s instead of Kings)")


def exercise_2(game: object) -> Exercise:
    """``game``: the moment the stock was down to the completed pile (the lesson's ``at_the_pile``)."""
    position = a_game(game).copy()
    return Exercise(
        "Exercise 2.", "Stock down to the completed pile: chance that its top card fits, for a player who "
                       "remembers?",
        truth=lambda: prob.spite_next_stock_playable(position, None),
        hint="the next card is one of the pile's 12 cards, each equally likely; count those a centre pile can take, "
             "Kings included")
