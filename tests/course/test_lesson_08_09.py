"""The answer keys of lessons 08 (Shithead: what play tells, and how to test a model) and 09 (Shithead: must you
pick up, and does starting help?).

Each truth is checked against a count made here by hand from the rules, or against the property the question
states; never against a number copied from a run. The route a student takes with the defaults the question leaves
open gets "Right!", and the plausible wrong answers do not.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import sqrt
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.course import lesson
from cardlab.errors import InvalidInputError
from cardlab.games.shithead import power
from cardlab.policies import choose, make_policy
from cardlab.sim import prob


def ace_position() -> Any:
    """The two lessons' position: seed 129, the set-up and ten moves of greedy bots, an Ace on the pile."""
    game = cardlab.new_game("shithead", players=2, seed=129)
    bots = make_policy("greedy", "shithead", np.random.default_rng(129))
    for _ in range(16):
        game.play(choose(bots, game))
    assert game.top.rank == cardlab.Rank.ACE and game.current_player == 0
    return game


@pytest.fixture(scope="module")
def position() -> Any:
    return ace_position()


# ---------------------------------------------------------------------------------------------- lesson 08
def test_08_exercise_1_is_the_deals_whose_interval_reaches_a_hundredth(position: Any) -> None:
    exercise = lesson("08").exercise(1, game=position)
    p = float(prob.shithead_blind_fits(position, None))
    n = 1.96 ** 2 * p * (1 - p) / 0.01 ** 2
    assert abs(1.96 * sqrt(p * (1 - p) / n) - 0.01) < 1e-12                 # the property the question states
    for typed in (f"{n:.0f}", f"{n:,.0f}", f"{1.959964 ** 2 * p * (1 - p) / 0.01 ** 2:.0f}",   # z to six digits
                  f"{round(n, -2):,.0f}"):                                # "about": the nearest hundred
        assert exercise.check(typed).is_right, typed
    for near in (round(p, 4), round(p, 2), p + 0.003):                    # p rounded, or a simulated share near it
        assert exercise.check(f"{1.96 ** 2 * near * (1 - near) / 0.01 ** 2:.0f}").is_right, near
    plain = sum(position.fits(c) for c in position.unseen_cards(None)) / len(position.unseen_cards(None))
    assert not exercise.check(f"{1.96 ** 2 * plain * (1 - plain) / 0.01 ** 2:.0f}").is_right   # the plain share
    assert exercise.check(f"{1.96 ** 2 / 4 / 0.01 ** 2:.0f}").status == "not yet"              # p = 1/2
    own = float(prob.shithead_blind_fits(position, 0))                                        # seat 0's view
    assert exercise.check(f"{1.96 ** 2 * own * (1 - own) / 0.01 ** 2:.0f}").status == "not yet"
    assert exercise.check(f"{p * (1 - p) / 0.01 ** 2:.0f}").status == "not yet"                 # no 1.96
    assert "exact" not in exercise.check(f"{n:.0f}").message          # the model's value rests on an assumption


def test_08_exercise_2_makes_the_difference_four_standard_errors() -> None:
    predicted, plain = np.full(1000, 0.7), np.full(1000, 0.69)
    exercise = lesson("08").exercise(2, predicted=predicted, plain=plain)
    n = 16 * 0.7 * 0.3 / 0.01 ** 2                                   # by hand: 33,600 positions
    se_n = sqrt(n * 0.7 * 0.3) / n                                    # the test's standard error with n positions
    assert abs(0.01 / se_n - 4) < 1e-9
    assert exercise.check(f"{n:.0f}").is_right
    assert exercise.check(f"{n / 4:.0f}").status == "not yet"        # two standard errors
    se_1000 = sqrt(1000 * 0.7 * 0.3) / 1000
    assert exercise.check(f"{1000 * 4 * se_1000 / 0.01:.0f}").status == "not yet"   # forgetting the square
    assert exercise.check(f"{16 * 1000:,}").status == "not yet"     # the standard error taken as the difference


def test_08_exercise_2_takes_the_route_of_the_printed_numbers() -> None:
    rng = np.random.default_rng(0)
    predicted = rng.uniform(0.3, 0.99, 1000)
    plain = predicted - rng.uniform(0.005, 0.02, 1000)
    exercise = lesson("08").exercise(2, predicted=predicted, plain=plain)
    test_se, gap = sqrt(float(np.sum(predicted * (1 - predicted)))) / 1000, float(np.mean(predicted - plain))
    assert exercise.check(f"{1000 * (4 * round(test_se, 4) / round(gap, 4)) ** 2:.0f}").is_right
    assert f"from {test_se:.4f} to a quarter of the difference, {gap:.4f}/4" in exercise.hint    # the printed numbers


@pytest.mark.parametrize(("inputs", "words"), [
    ({"predicted": "p", "plain": [0.5, 0.5]}, "predicted='p'"),
    ({"predicted": [0.5, 0.6], "plain": [0.5, 1.5]}, "plain="),
    ({"predicted": [0.5, 0.6, 0.7], "plain": [0.5, 0.5]}, "predicted has 3 chances and plain 2"),
])
def test_08_exercise_2_names_a_bad_input(inputs: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidInputError, match=words):
        lesson("08").exercise(2, **inputs)


def test_08_exercise_2_refuses_answers_that_agree_on_average() -> None:
    with pytest.raises(InvalidInputError, match="agree on average"):
        lesson("08").exercise(2, predicted=[0.5, 0.6], plain=[0.6, 0.5])


# ---------------------------------------------------------------------------------------------- lesson 09
def test_09_exercise_1_is_counted_by_listing_seat_1s_possible_hands(position: Any) -> None:
    exercise = lesson("09").exercise(1, game=position)
    hands = list(combinations(position.unseen_cards(1), 3))
    by_hand = Fraction(sum(not any(position.fits(c) for c in hand) for hand in hands), len(hands))
    verdict = exercise.check(str(by_hand))
    assert verdict.is_right and "exact" not in verdict.message        # a count under an assumption
    assert exercise.check(f"{float(by_hand):.3f}").is_right
    unseen = position.unseen_cards(None)
    table = Fraction(len(list(combinations([c for c in unseen if not position.fits(c)], 3))),
                     len(list(combinations(unseen, 3))))
    assert exercise.check(f"{float(table):.4f}").status == "not yet"                          # the table's count
    assert exercise.check(f"{float(prob.shithead_mover_picks_up(position, 1)):.4f}").status == "not yet"  # model


def test_09_exercise_2_is_the_share_of_deals_whose_lowest_card_is_seat_0s() -> None:
    special = (cardlab.Rank.TWO, cardlab.Rank.TEN)                   # they do not count as low
    bot = make_policy("greedy", "shithead", np.random.default_rng(0))
    seat0 = 0
    for seed in range(2000):
        deal = cardlab.new_game("shithead", players=2, seed=seed, first="lowest3")
        while deal.state.phase == "setup":
            deal.play(choose(bot, deal))
        lows = [min((power(c) for c in hand if c.rank not in special), default=99) for hand in deal.state.hands]
        seat0 += lows[0] <= lows[1]                                   # ties and no low card: seat 0
    exercise = lesson("09").exercise(2)
    assert exercise.check(f"{seat0}/2000").is_right
    assert exercise.check("1/2").status == "not yet"


def test_09_exercise_3_is_the_half_width_of_the_400_game_interval() -> None:
    out = cardlab.simulate("shithead", players=2, games=400, seed=21, progress=False)
    p = out.wins[0] / 400
    half = 1.96 * sqrt(p * (1 - p) / 400)                             # the normal interval a student computes
    exercise = lesson("09").exercise(3)
    assert exercise.check(f"{half:.3f}").is_right
    assert exercise.check(f"{2 * half:.3f}").status == "not yet"      # the whole width
