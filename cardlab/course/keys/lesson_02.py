"""Answer key of lesson 02, "Playing Garbage": a stacked deck played by greedy bots, and the exact chance that a
card can be used, at the deal with five spots and in the middle of a chain.

Exercise 1 names its seed (seed 1, the seed of the lesson's stepper ``chain``): only the top three stock cards of
``DECK`` are stacked, so the fourth move draws from the shuffled rest and the answer depends on the seed. Any
route the question allows gives the same game: ``cardlab.new_game`` with ``seed=1`` and greedy bots (whatever
generator they are given), or a ``Stepper`` with ``seed=1`` and its default bots pressed six times
(tests/course/test_keys.py plays both).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import cardlab
from cardlab.cards import Card
from cardlab.course.keys import a_game, greedy_moves
from cardlab.errors import InvalidInputError, shown
from cardlab.games.garbage.rules import GarbageView
from cardlab.sim import prob
from cardlab.viz.exercise import Exercise

SEED_1 = 1
"""The seed exercise 1 names."""
MOVES_1 = 6


def _face_up_after(deck: Sequence[str | Card], wild: str, moves: int = MOVES_1, seed: int = SEED_1) -> int:
    """Face-up cards in seat 0's layout after ``moves`` greedy moves on the stacked deck with this wild rank."""
    game = greedy_moves(cardlab.new_game("garbage", players=2, seed=seed, deck=deck, wild=wild), moves)
    view = cast(GarbageView, game.observe(None))
    return sum(card is not None for card in view.layouts[0])


def exercise_1(deck: Sequence[str | Card]) -> Exercise:
    """``deck``: the lesson's stacked deck ``DECK``."""
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence) or not deck:
        raise InvalidInputError(f"deck={shown(deck)}: give the lesson's stacked deck, DECK (a list of cards)")
    stacked = list(deck)
    cardlab.new_game("garbage", players=2, seed=SEED_1, deck=stacked, wild="K")   # a bad deck is refused now
    return Exercise(
        "Exercise 1.", "Seed 1, Kings wild, six greedy moves on DECK: how many cards are face up in seat 0's "
                       "layout? (A whole number.)",
        truth=lambda: _face_up_after(stacked, "K"), count=True,
        hint="make the game with seed=1 and wild=\"K\"; a wild placed on a spot counts as face up")


def exercise_2() -> Exercise:
    return Exercise(
        "Exercise 2.", "Five spots each, at the deal: what is the exact chance that seat 0's first card can be "
                       "used?",
        truth=lambda: prob.garbage_next_card_placeable(cardlab.new_game("garbage", players=2, seed=0,
                                                                        layout_sizes=[5, 5])),
        hint="with five spots only A to 5 have a spot; and remember the wild card")


def exercise_3(game: object) -> Exercise:
    """``game``: the position the lesson shows, in the middle of seat 0's chain."""
    position = a_game(game).copy()
    return Exercise(
        "Exercise 3.", "In the middle of seat 0's chain: what is the exact chance that the top card of the stock "
                       "can be used by the next player?",
        truth=lambda: prob.garbage_next_card_placeable(position),
        hint="seat 0's turn ends without another draw, so count the cards the *next* player can use")
