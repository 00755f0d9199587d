"""Answer key of lesson 06, "Shithead: playing the game": how many of a pack's cards the rules let go on a 7, how
many the invisible 3 lets go on a King, and how many times the pile is picked up in the whole greedy game of
seed 5 (section 3's game)."""

from __future__ import annotations

from typing import Any

import numpy as np

import cardlab
from cardlab.cards import Rank
from cardlab.games.shithead.rules import House, fit_table
from cardlab.policies import choose, make_policy
from cardlab.viz.exercise import Exercise

BOT_GAME_SEED = 5
"""Section 3's shuffled game: greedy bots, two players."""


def _cards_on(top: Rank, **house_rules: Any) -> int:
    """How many cards of a fresh 52-card pack the rules let go on a pile whose top card has rank ``top``."""
    pack = cardlab.new_game("shithead", players=2, seed=0, **house_rules).unseen_cards(None)
    ranks = fit_table(House.of(house_rules))[top]
    return sum(card.rank in ranks for card in pack)


def _pickups_in_bot_game() -> int:
    """How many times the pile is picked up in section 3's game played to its end by greedy bots (a player who
    cannot play picks it up, and so does one whose blind card does not fit)."""
    game = cardlab.new_game("shithead", players=2, seed=BOT_GAME_SEED)
    bot = make_policy("greedy", "shithead", np.random.default_rng(BOT_GAME_SEED))
    while not game.is_over:
        game.play(choose(bot, game))
    return int(game.state.pickups)


def exercise_1() -> Exercise:
    return Exercise(
        "Exercise 1.", "The plain rules: how many of a pack's 52 cards may be played on a 7?",
        truth=lambda: _cards_on(Rank.SEVEN), count=True,
        hint="a card fits if it is equal or higher (3 < ... < K < A), or if it goes on anything; "
             "each rank has 4 cards; give the number of cards, not a share of 52")


def exercise_2() -> Exercise:
    return Exercise(
        "Exercise 2.", "invisible_three=True: how many of a pack's 52 cards may be played on a King?",
        truth=lambda: _cards_on(Rank.KING, invisible_three=True), count=True,
        hint="which ranks are equal or higher than a King, and which go on anything under this house rule? "
             "Give the number of cards, not a share of 52")


def exercise_3() -> Exercise:
    return Exercise(
        "Exercise 3.", f"The game of section 3 (seed {BOT_GAME_SEED}, greedy bots) played to its end: how many "
        "times is the pile picked up?",
        truth=_pickups_in_bot_game, count=True,
        hint="a player picks up the pile when no card fits, and also when a face-down card turned blind does not "
             "fit; count the events of the whole game that say so")
