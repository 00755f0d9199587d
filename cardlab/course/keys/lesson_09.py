"""Answer key of lesson 09, "Shithead: must you pick up, and does starting help?": the random-subset chance of a
pick-up from seat 1's view, the share of ``lowest3`` deals that seat 0 starts, and the half-width of a 400-game
interval."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np

import cardlab
from cardlab.course.keys import a_game
from cardlab.engine.game import Game
from cardlab.policies import choose, make_policy
from cardlab.viz.exercise import Exercise

SUBSET_NAME = "seat 1's random-subset count, which takes seat 0's hand as a random draw,"
"""How a right verdict names the count: it rests on an assumption about the hand, so it is not "the exact value"."""
DEALS_2 = 2000
GAMES_3, SEED_3 = 400, 21


def _random_subset_chance(game: Game, viewpoint: int) -> Fraction:  # type: ignore[type-arg]
    """C(U - F, h) / C(U, h): the mover's h hand cards a random subset of ``viewpoint``'s U unseen cards, F of
    which fit."""
    unseen = game.unseen_cards(viewpoint)
    fit = sum(game.fits(card) for card in unseen)  # type: ignore[attr-defined]
    h = len(game.state.hands[game.current_player])
    return Fraction(comb(len(unseen) - fit, h), comb(len(unseen), h))


def exercise_1(game: object) -> Exercise:
    """``game``: the lesson's position at the Ace."""
    position = a_game(game).copy()
    return Exercise(
        "Exercise 1.", "At the Ace, from seat 1's view: the random-subset chance that seat 0 must pick up (a "
                       "fraction, or two or more decimals)?",
        truth=lambda: _random_subset_chance(position, 1), tolerance=0.005,   # two decimals are right; the table's
        close=0.01,   # count (0.4216), with replacement (0.3975) and the model (0.5679) are "not yet"
        value_name=SUBSET_NAME,
        hint="count U and F among the cards seat 1 cannot see (its own hand is not among them); h is still 3")


def _seat0_share(deals: int = DEALS_2) -> Fraction:
    """The share of seeded ``lowest3`` deals (greedy set-up) in which the game lets seat 0 start."""
    greedy = make_policy("greedy", "shithead", np.random.default_rng(0))
    starts = 0
    for seed in range(deals):
        deal = cardlab.new_game("shithead", players=2, seed=seed, first="lowest3")
        while deal.state.phase == "setup":
            deal.play(choose(greedy, deal))
        starts += deal.current_player == 0
    return Fraction(starts, deals)


def exercise_2() -> Exercise:
    return Exercise(
        "Exercise 2.", "first='lowest3', seeds 0-1999: the share of deals in which seat 0 starts?",
        truth=_seat0_share, tolerance=0.005,     # "equally likely", 1/2, is over 15% off: "not yet"
        hint="after the set-up, find each hand's lowest card that is not a 2 or a 10, and remember who wins ties")


def exercise_3() -> Exercise:
    return Exercise(
        "Exercise 3.", "400 games: the half-width of the 95% interval for seat 0's win rate?",
        truth=lambda: cardlab.simulate("shithead", players=2, games=GAMES_3, seed=SEED_3,
                                       progress=False).win_rate(0).half_width,
        tolerance=0.002, close=0.1,    # the whole width, twice as large, is "not yet"
        hint="about 1.96 standard errors, and the standard error of a share is the square root of p(1 - p)/n")
