"""Answer key of lesson 10, "Hidden information": what a pick-up tells about the hand, the law of total
probability, and the chance at a completed pile for a player who remembers it."""

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
        "Exercise 1.", "After the pick-up: the table's chance that seat 0's earlier hand included a 5?",
        truth=lambda: _five_after_pickup(position),
        hint="only cards that do not fit the Ace could have been in the hand: count 5s among those (section 3's "
             "formula with 5s instead of Kings)")


def exercise_2(game: object) -> Exercise:
    """``game``: the Spite and Malice game as section 5 left it."""
    position = a_game(game).copy()
    return Exercise(
        "Exercise 2.", "Seat 1's answers, averaged over worlds the table cannot tell apart, come close to what?",
        truth=lambda: prob.spite_next_stock_playable(position, None),
        tolerance=0.01,   # the average of 2000 worlds is this close; seat 1's own answer is more than 0.05 away
        hint="the law of total probability: averaging a better-informed player's answer gives back the answer of "
             "the one who knows less")


def exercise_3(game: object) -> Exercise:
    """``game``: the moment the stock was down to the completed pile (the lesson's ``at_the_pile``)."""
    position = a_game(game).copy()
    return Exercise(
        "Exercise 3.", "Stock down to the completed pile: chance that its top card fits, for a player who "
                       "remembers?",
        truth=lambda: prob.spite_next_stock_playable(position, None),
        hint="the next card is one of the pile's 12 cards, each equally likely; count those a centre pile can take, "
             "Kings included")
