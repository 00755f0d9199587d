"""Answer key of lesson 14, "A strategy tournament": a policy's paired share of wins against greedy, the games
for 90% power, and the student's own ``lowest_up`` policy.

A paired tournament plays every deal twice, the policy in seat 0 and then in seat 1, against the greedy bot; the
share is the mean of the per-deal scores (a + b) / 2 (the lesson's ``Tournament.paired``).
"""

from __future__ import annotations

from statistics import NormalDist
from typing import Any

import numpy as np

import cardlab
from cardlab.errors import InvalidInputError, shown
from cardlab.games.shithead import power
from cardlab.policies import Policy
from cardlab.sim.stats import Z95
from cardlab.viz.exercise import Exercise

SHITHEAD_MAX_TURNS = 500
"""As in the lesson: a Shithead game that goes on for ever (a silly policy) ends as a draw."""


def _policy(policy: object) -> Policy:
    if not callable(policy):
        raise InvalidInputError(f"policy={shown(policy)} is not a function: give the lesson's policy, a function "
                                "(view, legal_moves) -> move")
    return policy


def _paired_share(policy: Policy, name: str, games: int, seed: int) -> float:
    """The policy's paired share of wins against greedy over ``games`` deals."""
    options: dict[str, Any] = {"max_turns": SHITHEAD_MAX_TURNS} if name == "shithead" else {}
    seats: list[str | Policy] = [policy, "greedy"]
    first = cardlab.simulate(name, players=2, games=games, seed=seed, policy=seats, progress=False,
                             **options)
    second = cardlab.simulate(name, players=2, games=games, seed=seed, policy=seats[::-1], progress=False,
                              **options)
    scores = ((first.winners == 0).astype(float) + (second.winners == 1).astype(float)) / 2
    return float(np.mean(scores))


def exercise_1(policy: Policy) -> Exercise:
    """``policy``: the lesson's ``never_discard``."""
    chosen = _policy(policy)
    return Exercise(
        "Exercise 1.", "never_discard against greedy on 1000 fresh deals (seed 6): the share of games it wins?",
        truth=lambda: _paired_share(chosen, "garbage", 1000, 6),
        tolerance=0.002,   # a seeded run: the right answer is this number to three decimals
        close=0.015,       # section 3's estimate (seed 2, the deals already looked at) is not accepted
        hint="play section 3's tournament again, on seed 6, and read its paired estimate")


def _games_for_power(p: float, target_power: float) -> int:
    """Independent games: the smallest n whose normal-approximation power to tell p from 1/2 reaches the target."""
    normal, spread, n = NormalDist(), (p * (1 - p)) ** 0.5, 1
    while normal.cdf((p - 0.5) / (spread / n ** 0.5) - Z95) < target_power:
        n += 1
    return n


def exercise_2() -> Exercise:
    return Exercise(
        "Exercise 2.", "How many independent games give 90% power to tell a 53% policy from 50%?",
        truth=lambda: _games_for_power(0.53, 0.90), probability=False,
        tolerance=10,   # games: z = 1.96 and 1.28 rounded to two decimals give a few games less, still right;
        close=0.05,     # 80% power's games (25% fewer) are "not yet"
        hint="section 4's formula with z for 90% power in place of z for 80%")


def _higher_turned_up(policy: Policy, deals: int = 100, seed: int = 9) -> str | None:
    """The first set-up choice of ``policy`` over ``deals`` deals that turns up a card while a card of lower power
    stays in the hand (as text), or None when there is none."""
    for i in range(deals):
        game = cardlab.new_game("shithead", players=2, seed=seed * 1000 + i)
        while not game.is_over and game.legal_moves()[0].kind == "setup":
            view = game.observe(game.current_player)
            move = game.parse_move(policy(view, game.legal_moves()))
            lower = [card for card in view.hand if power(card) < power(move.card)]  # type: ignore[attr-defined]
            if lower:
                return f"deal {i}: turned up {move.card} while holding {' '.join(map(str, lower))}"  # type: ignore[attr-defined]
            game.play(move)
    return None


def exercise_3(policy: Policy) -> Exercise:
    """``policy``: the student's ``lowest_up``. A policy whose set-up keeps a lower card in hand gets "not yet"
    for every share (its truth is -1, which no probability matches); the question says which choice broke the
    rule."""
    chosen = _policy(policy)
    broken = _higher_turned_up(chosen)
    setup = f"Your set-up breaks the rule ({broken})." if broken else "Your set-up keeps the rule."
    return Exercise(
        "Exercise 3.", f"Your lowest_up against greedy over 200 deals (seed 9): the share of games it wins? "
                       f"{setup}",
        truth=lambda: -1.0 if broken else _paired_share(chosen, "shithead", 200, 9),
        tolerance=0.002, close=0.1,   # your own policy's share to three decimals; greedy's 0.5 is "not yet"
        hint="put face up the set-up move whose card has the lowest power(); a set-up that keeps a lower card in hand "
             "makes every share 'not yet' (the question says where); after a change run the policy's cell and "
             "this exercise's cells again")
