"""The answer keys of lessons 14 ("A strategy tournament") and 15 ("Planning a tournament"): the route a student
takes gets "Right!", the plausible wrong answer named in the lesson does not.

Truths are recomputed here by another route (``paired_tournament``'s scores, a closed formula, a plain ``simulate``),
never copied from a run.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pytest

import cardlab
from cardlab.chance.stats import Z95, wilson
from cardlab.course import lesson
from cardlab.errors import InvalidInputError
from cardlab.policies import make_policy
from cardlab.sim.tournament import paired_tournament

SHITHEAD_GREEDY = make_policy("greedy", "shithead", np.random.default_rng(0))
GARBAGE_GREEDY = make_policy("greedy", "garbage", np.random.default_rng(0))


def never_discard(view, legal_moves):  # type: ignore[no-untyped-def]
    for move in legal_moves:
        if move.kind == "draw" and move.source == "stock":
            return move
    return GARBAGE_GREEDY(view, legal_moves)


def eager_tens(view, legal_moves):  # type: ignore[no-untyped-def]
    for move in legal_moves:
        if move.kind == "play" and move.rank == 10:
            return move
    return SHITHEAD_GREEDY(view, legal_moves)


def jack_high(view, legal_moves):  # type: ignore[no-untyped-def]
    wild = [m for m in legal_moves if m.kind == "wild"]
    if wild:
        return max(wild, key=lambda m: m.spot)
    return GARBAGE_GREEDY(view, legal_moves)


def test_14_exercise_1_the_paired_half_width_is_right_and_the_unpaired_one_is_not() -> None:
    """Exercise 1 asks for the half-width of never_discard's paired interval over 1000 Garbage deals (seed 6).
    ``paired_tournament`` scores a deal pair as wins minus losses, 4 d - 2 for a deal score d (Garbage has no
    draws), so its half-width is four times the lesson's."""
    pairs = paired_tournament("garbage", never_discard, "greedy", 1000, seed=6)
    half = (pairs.high - pairs.advantage) / 4
    exercise = lesson("14").exercise(1, policy=never_discard)
    assert exercise.check(f"{half:.4f}").is_right and exercise.check(f"{half:.3f}").is_right
    wins = (pairs.scores + 2) / 2                           # the policy's wins in each deal's two games
    unpaired = wilson(float(wins.sum()), 2 * 1000).half_width
    assert unpaired > half * 1.1                            # the games of a deal correlate negatively here
    assert exercise.check(f"{unpaired:.4f}").status == "not yet"


def test_14_exercise_2_says_whether_the_policy_keeps_the_set_up_rule() -> None:
    def lowest_up(view, legal_moves):  # type: ignore[no-untyped-def]
        if legal_moves[0].kind == "setup":
            return min(legal_moves, key=lambda m: cardlab.games.shithead.power(m.card))
        return SHITHEAD_GREEDY(view, legal_moves)

    broken = lesson("14").exercise(2, policy=SHITHEAD_GREEDY)
    assert "breaks the rule" in broken.question
    assert all(broken.check(x).status == "not yet" for x in ("0", "0.5", "1"))   # no share is right
    kept = lesson("14").exercise(2, policy=lowest_up)
    assert "keeps the rule" in kept.question and "three decimals" in kept.question


def test_15_exercise_1_is_the_closed_formula_and_80_percent_power_is_not_yet() -> None:
    normal = NormalDist()
    sigma = (0.53 * 0.47) ** 0.5
    formula = ((Z95 + normal.inv_cdf(0.90)) * sigma / 0.03) ** 2
    for_80 = ((Z95 + normal.inv_cdf(0.80)) * sigma / 0.03) ** 2
    exercise = lesson("15").exercise(1)
    verdict = exercise.check(str(int(np.ceil(formula))))
    assert verdict.is_right and "exact" not in str(verdict)          # a normal approximation, not an exact count
    assert exercise.check("2898").is_right     # the smallest n whose exact binomial power (Wilson) reaches 0.90
    assert exercise.check(str(int(np.ceil(for_80)))).status == "not yet"


def test_15_exercise_2_is_the_power_of_400_deals_with_the_measured_correlation() -> None:
    runs = [cardlab.simulate("shithead", players=2, games=200, seed=1, policy=seats, progress=False, max_turns=500)
            for seats in ([eager_tens, "greedy"], ["greedy", eager_tens])]
    a, b = (runs[0].winners == 0).astype(float), (runs[1].winners == 1).astype(float)
    rho = float(np.corrcoef(a, b)[0, 1])
    sigma = (0.53 * 0.47) ** 0.5
    normal = NormalDist()
    paired = normal.cdf(0.03 / (sigma * ((1 + rho) / 2) ** 0.5 / 400 ** 0.5) - Z95)
    independent = normal.cdf(0.03 / (sigma / 800 ** 0.5) - Z95)     # 800 games wrongly taken as independent
    exercise = lesson("15").exercise(2, policy=eager_tens)
    assert -0.5 < rho < 0 and exercise.check(f"{paired:.3f}").is_right
    assert exercise.check(f"{independent:.3f}").status == "not yet"


def _one_seat_shares(seed: int) -> tuple[float, float]:
    seat_0 = cardlab.simulate("garbage", players=2, games=1000, seed=seed, policy=[jack_high, "greedy"],
                              progress=False).win_rate(0).value
    seat_1 = cardlab.simulate("garbage", players=2, games=1000, seed=seed, policy=["greedy", jack_high],
                              progress=False).win_rate(1).value
    return seat_0, seat_1


def test_15_exercise_3_is_seat_1_alone_on_fresh_deals_and_not_seat_0_or_both_seats() -> None:
    """Seed 4, not section 3's seed 3, whose printed shares give its seat-1 share without playing."""
    seat_0, seat_1 = _one_seat_shares(4)
    exercise = lesson("15").exercise(3, policy=jack_high)
    assert exercise.check(f"{seat_1:.3f}").is_right
    assert exercise.check(f"{seat_1:.2f}").status == "close"
    assert exercise.check(f"{seat_0:.3f}").status == "not yet"
    assert exercise.check(f"{(seat_0 + seat_1) / 2:.3f}").status == "not yet"     # the both-seats estimate
    assert exercise.check("0.5").status == "not yet"
    assert exercise.check(f"{_one_seat_shares(3)[1]:.3f}").status == "not yet"   # section 3's deals (seed 3)


@pytest.mark.parametrize(("number", "exercise"), [("14", 1), ("14", 2), ("15", 2), ("15", 3)])
def test_a_policy_that_is_not_a_function_is_named(number: str, exercise: int) -> None:
    with pytest.raises(InvalidInputError, match="policy='greedy' is not a function"):
        lesson(number).exercise(exercise, policy="greedy")
