"""Answer key of lesson 14, "A strategy tournament": the half-width of a policy's paired interval against greedy,
and the student's own ``lowest_up`` policy.

A paired tournament plays every deal twice, the policy in seat 0 and then in seat 1, against the greedy bot; a
deal's score is (a + b) / 2, the share of its two games the policy won. The paired estimate is the mean of the deal
scores and its 95% interval is mean ± 1.96 s / sqrt(n) over the n deals (the lesson's ``Tournament.paired``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import cardlab
from cardlab.chance.stats import Z95
from cardlab.errors import InvalidInputError, shown
from cardlab.games.shithead import power
from cardlab.policies import Policy
from cardlab.viz.exercise import Exercise

SHITHEAD_MAX_TURNS = 500
"""As in the lesson: a Shithead game that goes on for ever (a silly policy) ends as a draw."""


def _policy(policy: object) -> Policy:
    if not callable(policy):
        raise InvalidInputError(f"policy={shown(policy)} is not a function: give the lesson's policy, a function "
                                "(view, legal_moves) -> move")
    return policy


def _deal_scores(policy: Policy, name: str, games: int, seed: int) -> np.ndarray:
    """The policy's score on each of ``games`` deals against greedy: the share of the deal's two games it won."""
    options: dict[str, Any] = {"max_turns": SHITHEAD_MAX_TURNS} if name == "shithead" else {}
    seats: list[str | Policy] = [policy, "greedy"]
    first = cardlab.simulate(name, players=2, games=games, seed=seed, policy=seats, progress=False,
                             **options)
    second = cardlab.simulate(name, players=2, games=games, seed=seed, policy=seats[::-1], progress=False,
                              **options)
    scores: np.ndarray = ((first.winners == 0).astype(float) + (second.winners == 1).astype(float)) / 2
    return scores


def _paired_half_width(policy: Policy, name: str, games: int, seed: int) -> float:
    """The half-width of the paired 95% interval: 1.96 times the deal scores' standard deviation over sqrt(n)."""
    scores = _deal_scores(policy, name, games, seed)
    return float(Z95 * scores.std(ddof=1) / np.sqrt(scores.size))


def exercise_1(policy: Policy) -> Exercise:
    """``policy``: the lesson's ``never_discard``."""
    chosen = _policy(policy)
    return Exercise(
        "Exercise 1.", "never_discard against greedy on 1000 fresh deals (seed 6): the half-width of its paired "
                       "95% interval, to three decimals?",
        truth=lambda: _paired_half_width(chosen, "garbage", 1000, 6),
        tolerance=0.001,    # the half-width to three decimals, rounded or cut, is right; 0.02 and the unpaired
                            # 0.0206 are not
        close=0.05,         # the unpaired half-width (the games treated as independent) is "not yet"
        hint="play section 4's tournament again, on seed 6, and read the ± of its paired interval (one score "
             "per deal)")


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


def exercise_2(policy: Policy) -> Exercise:
    """``policy``: the student's ``lowest_up``. A policy whose set-up keeps a lower card in hand gets "not yet"
    for every share (its truth is -1, which no probability matches); the question says which choice broke the
    rule."""
    chosen = _policy(policy)
    broken = _higher_turned_up(chosen)
    setup = f"Your set-up breaks the rule ({broken})." if broken else "Your set-up keeps the rule."
    return Exercise(
        "Exercise 2.", f"Your lowest_up against greedy over 200 deals (seed 9): the share of games it wins, to "
                       f"three decimals? {setup}",
        truth=lambda: -1.0 if broken else float(np.mean(_deal_scores(chosen, "shithead", 200, 9))),
        tolerance=0.002, close=0.1,   # your own policy's share to three decimals; greedy's 0.5 is "not yet"
        hint="put face up the set-up move whose card has the lowest power(); a set-up that keeps a lower card in hand "
             "makes every share 'not yet' (the question says where); after a change run the policy's cell and "
             "this exercise's cells again")
