"""Answer key of lesson 15, "Planning a tournament": the games for 90% power, the power of a paired plan, and a
policy's share from one seat only.

Power is the normal approximation of the lesson's section 1: a policy that really wins a share p of its games
against greedy is declared better when the 95% interval lies wholly above 1/2, which happens with chance
Phi((p - 1/2) / (sigma / sqrt(n)) - 1.96), sigma = sqrt(p (1 - p)) for n independent games. In the paired design
a deal's score (the share of its two games won) has standard deviation about sigma * sqrt((1 + rho) / 2) (exactly
when both seats' results have the same variance), rho the correlation of a deal's two games, and n counts deals.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

import cardlab
from cardlab.chance.stats import Z95
from cardlab.errors import InvalidInputError, shown
from cardlab.policies import Policy
from cardlab.viz.exercise import Exercise

SHITHEAD_MAX_TURNS = 500
"""As in the lesson: a Shithead game that goes on for ever (a silly policy) ends as a draw."""
EFFECT_SHARE = 0.53
"""The share of games the policy of exercises 1 and 2 really wins against greedy (the questions name it)."""


def _policy(policy: object) -> Policy:
    if not callable(policy):
        raise InvalidInputError(f"policy={shown(policy)} is not a function: give the lesson's policy, a function "
                                "(view, legal_moves) -> move")
    return policy


def _games_for_power(p: float, target_power: float) -> int:
    """Independent games: the smallest n whose normal-approximation power to tell p from 1/2 reaches the target."""
    normal, spread, n = NormalDist(), (p * (1 - p)) ** 0.5, 1
    while normal.cdf((p - 0.5) / (spread / n ** 0.5) - Z95) < target_power:
        n += 1
    return n


FORMULA_COUNT = "the count by section 1's normal formula"
"""What exercise 1's truth is: the normal approximation's count, not an exact one (the Wilson interval's exact
binomial power is a saw-tooth in n that first reaches 0.90 at 2898 games and is 0.8985 at the formula's 2909)."""


def exercise_1() -> Exercise:
    return Exercise(
        "Exercise 1.", "By section 1's formula, how many independent games give 90% power to tell a 53% policy from "
                       "50%?",
        truth=lambda: _games_for_power(EFFECT_SHARE, 0.90), count=True, value_name=FORMULA_COUNT,
        tolerance=12,   # games: z = 1.96 and 1.28 rounded to two decimals give a few games less, and the smallest n
                        # with exact binomial power 0.90 (2898) is 11 less: all right;
        close=0.05,     # 80% power's games (25% fewer) are "not yet"
        hint="section 1's formula with z for 90% power in place of z for 80%")


def _shithead_correlation(policy: Policy, deals: int = 200, seed: int = 1) -> float:
    """The correlation of a deal's two results (the policy's win in seat 0, its win in seat 1) against greedy over
    ``deals`` Shithead deals: the lesson's measurement of section 1."""
    seats: list[str | Policy] = [policy, "greedy"]
    first = cardlab.simulate("shithead", players=2, games=deals, seed=seed, policy=seats, progress=False,
                             max_turns=SHITHEAD_MAX_TURNS)
    second = cardlab.simulate("shithead", players=2, games=deals, seed=seed, policy=seats[::-1], progress=False,
                              max_turns=SHITHEAD_MAX_TURNS)
    a, b = (first.winners == 0).astype(float), (second.winners == 1).astype(float)
    return float(np.corrcoef(a, b)[0, 1])


def _paired_power(deals: int, correlation: float, p: float = EFFECT_SHARE) -> float:
    spread = (p * (1 - p)) ** 0.5 * ((1 + correlation) / 2) ** 0.5
    return NormalDist().cdf((p - 0.5) / (spread / deals ** 0.5) - Z95)


def exercise_2(policy: Policy) -> Exercise:
    """``policy``: the lesson's ``eager_tens``, whose correlation (200 Shithead deals, seed 1) the plan assumes."""
    chosen = _policy(policy)
    return Exercise(
        "Exercise 2.", "A paired tournament of 400 deals for a policy that wins 53%, with eager_tens's correlation: "
                       "its power?",
        truth=lambda: _paired_power(400, _shithead_correlation(chosen)),
        tolerance=0.005,   # the correlation to two decimals and sigma = 0.5 change the power by less than 0.003;
        close=0.05,        # 800 games taken as independent (a third less power) are "not yet"
        hint="section 1's power formula with sigma_d = sigma * sqrt((1 + rho) / 2) and n = 400 deals")


def _seat_1_share(policy: Policy, games: int = 1000, seed: int = 4) -> float:
    seats: list[str | Policy] = ["greedy", policy]
    out = cardlab.simulate("garbage", players=2, games=games, seed=seed, policy=seats, progress=False)
    return float(np.mean(out.winners == 1))


def exercise_3(policy: Policy) -> Exercise:
    """``policy``: the lesson's ``jack_high``, on fresh deals (seed 4): section 3's seed-3 numbers give seed 3's
    seat-1 share without playing (twice the both-seats share minus the seat-0 share), so the exercise uses others."""
    chosen = _policy(policy)
    return Exercise(
        "Exercise 3.", "jack_high in seat 1 only, against greedy, over 1000 fresh Garbage deals (seed 4): the share "
                       "of games it wins, to three decimals?",
        truth=lambda: _seat_1_share(chosen),
        tolerance=0.0005,   # a seeded run of 1000 games: its share to three decimals
        close=0.02,         # two decimals are "close"; 0.5, seat 0's share, the both-seats share and seed 3's
                            # seat-1 share are "not yet" (1 - greedy's seat-0 share, an estimate of it, may be close)
        hint="play section 3's seat-0 run on seed 4 with the seats swapped, and read seat 1's share")
