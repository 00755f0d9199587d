"""The answer keys of lessons 12 ("Expected value") and 13 ("Markov chains"): Garbage solitaire's expected draws
and completion chances.

Each truth is checked against something computed here another way: a count by hand from the rules, the chain's
matrix solved here, or a simulation's interval; never against a number copied from a run. Each question names
the precision it wants, and an answer rounded to that precision is "Right!".
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

import cardlab
from cardlab.chance.stats import wilson
from cardlab.course import lesson

State = tuple[int, int, int]
DONE = (0, 0, 0)
"""The layout is complete: no face-down spot (the chain's absorbing state)."""


def _one_turn(state: State) -> dict[State, Fraction]:
    """The law of the state at the start of the next turn of a greedy solitaire (lesson 13's section 1), written
    here from the rules: 4 cards a rank, 4 Jacks, 52 cards."""
    law: defaultdict[State, Fraction] = defaultdict(Fraction)

    def turn_over(d: int, w: int, unseen: int, p: Fraction) -> None:
        if d == 0:
            law[DONE] += p
            return
        pips, jacks = 4 * (d + w), 4 - w
        dead = unseen - pips - jacks
        if pips:
            turn_over(d - 1, w, unseen - 1, p * Fraction(pips, unseen))
        if jacks:
            turn_over(d - 1, w + 1, unseen - 1, p * Fraction(jacks, unseen))
        if dead:
            law[(d, w, unseen - 1)] += p * Fraction(dead, unseen)

    turn_over(*state, Fraction(1))
    return law


def _matrix_expectation(spots: int) -> float:
    """E[draws] from the chain's matrix, (I - Q) t = 1: a route independent of the keys' recursion."""
    states: list[State] = [(spots, 0, 52)]
    rows: dict[State, dict[State, Fraction]] = {}
    for state in states:                          # states grows as new ones are found
        rows[state] = _one_turn(state)
        states += [s for s in rows[state] if s != DONE and s not in states]
    index = {s: i for i, s in enumerate(states)}
    q = np.zeros((len(states), len(states)))
    for s, law in rows.items():
        for nxt, p in law.items():
            if nxt != DONE:
                q[index[s], index[nxt]] = float(p)
    return float(np.linalg.solve(np.eye(len(states)) - q, np.ones(len(states)))[0])


def _done_within(spots: int, draws: int) -> Fraction:
    """P(T <= draws), by moving the state's law one turn at a time (lesson 13's section 4), written here."""
    law: dict[State, Fraction] = {(spots, 0, 52): Fraction(1)}
    done = Fraction(0)
    for _ in range(draws):
        after: defaultdict[State, Fraction] = defaultdict(Fraction)
        for state, p in law.items():
            for nxt, chance in _one_turn(state).items():
                if nxt == DONE:
                    done += p * chance
                else:
                    after[nxt] += p * chance
        law = after
    return done


def test_12_expected_draws_agree_with_a_simulation() -> None:
    """The key's recursion, read from the game's pack, against 4,000 simulated solitaires with Kings wild: the
    simulated mean is within four standard errors of the value the check calls right."""
    out = cardlab.simulate("garbage", players=1, games=4000, seed=3, layout_sizes=[10], wild="K", progress=False)
    turns = out.turns.astype(float)
    mean, se = turns.mean(), turns.std(ddof=1) / np.sqrt(turns.size)
    exercise = lesson("12").exercise(1)
    right = [x for x in np.arange(mean - 4 * se, mean + 4 * se, 0.005) if exercise.check(f"{x:.4f}").is_right]
    assert right, f"no value within four standard errors of {mean:.3f} is right"
    assert exercise.check(f"{mean + 10 * se:.3f}").status != "right"


def test_12_answers_at_the_two_decimals_the_questions_name_are_right() -> None:
    """Exercise 1 (Kings wild, 10 spots) and exercise 2 (slowest size minus 10 spots), against the chain's matrix
    solved here: the answer rounded to two decimals, and more decimals, are right; the questions say "two
    decimals"; the slowest size itself, and an answer 0.01 off beyond rounding, are not."""
    means = {n: _matrix_expectation(n) for n in range(1, 11)}
    slowest = max(means, key=means.__getitem__)
    for number, truth in ((1, means[10]), (2, means[slowest] - means[10])):
        exercise = lesson("12").exercise(number)
        assert "two decimals" in exercise.question
        for digits in (2, 3, 4):
            assert exercise.check(f"{truth:.{digits}f}").is_right, (number, digits)
        assert exercise.check(f"{round(truth, 2) + 0.01:.2f}").status != "right"
    assert lesson("12").exercise(2).check(str(slowest)).status == "not yet"


def test_12_the_exact_fractions_are_read_and_a_percentage_is_refused() -> None:
    """The exact answers as ``str(Fraction)`` prints them (section 4 prints that the 10-spot one has a 16-digit
    denominator) are read and right, not "not a number I can read"; a number of draws typed as a percentage,
    "937%", is refused with a message, not judged right."""
    from cardlab.course.keys._solitaire import SIZES, expected_draws

    ten = expected_draws(10, "K")
    slowest = max(expected_draws(n) for n in SIZES) - expected_draws(10)
    assert float(ten) == pytest.approx(_matrix_expectation(10), abs=1e-9) and len(str(ten.denominator)) == 16
    for number, exact in ((1, ten), (2, slowest)):
        exercise = lesson("12").exercise(number)
        assert exercise.check(str(exact)).is_right, (number, str(exact))
        percent = exercise.check(f"{float(exact) * 100:.0f}%")
        assert percent.status == "unreadable" and "is a percentage" in percent.message


def test_13_exercise_1_agrees_with_a_simulation() -> None:
    """P(6 spots within 5 draws): some three-decimal value within four standard errors of 4,000 simulated games
    is right, and 10 spots' chance (from the chain here) is not."""
    out = cardlab.simulate("garbage", players=1, games=4000, seed=6, layout_sizes=[6], progress=False)
    share = wilson(float(np.sum(out.turns <= 5)), out.turns.size)
    se = math.sqrt(share.value * (1 - share.value) / share.n)
    exercise = lesson("13").exercise(1)
    assert "three decimals" in exercise.question
    right = [x for x in np.arange(share.value - 4 * se, share.value + 4 * se, 0.0005)
             if exercise.check(f"{x:.3f}").is_right]
    assert right, f"no value within four standard errors of {share.value:.3f} is right"
    assert exercise.check(f"{float(_done_within(10, 5)):.3f}").status == "not yet"


@pytest.mark.parametrize("form", ["{:.3f}", "{:.4f}", "{:.1%}"])
def test_13_exercise_2_is_the_chance_that_the_first_five_draws_are_dead(form: str) -> None:
    """One spot: E[T] = 53/9 (the first of 8 marked cards among 52: 1 + 44/9), so T > E[T] means the first five
    draws are none of the 8 Aces and Jacks: C(44, 5)/C(52, 5), counted by hand, and the chain here agrees. Forgetting
    that T = 6 is more than 5.89 (C(44, 6)/C(52, 6)) and the median's one half are not yet right; so are the two
    classic slips of drawing without replacement, (44/52)^5 (with replacement) and C(43, 5)/C(51, 5) ("8 useful
    among the 51 stock cards"), which a 5% band would call close. One step off at three decimals stays close."""
    by_hand = Fraction(math.comb(44, 5), math.comb(52, 5))
    assert 1 - _done_within(1, 5) == by_hand and _matrix_expectation(1) == pytest.approx(53 / 9, abs=1e-12)
    exercise = lesson("13").exercise(2)
    assert "53/9" in exercise.question and "three decimals" in exercise.question
    assert exercise.check(form.format(float(by_hand))).is_right
    assert exercise.check(f"{math.comb(44, 6) / math.comb(52, 6):.3f}").status == "not yet"
    assert exercise.check("0.5").status == "not yet"
    with_replacement = Fraction(44, 52) ** 5
    stock_only = Fraction(math.comb(43, 5), math.comb(51, 5))
    for slip in (with_replacement, stock_only):
        assert exercise.check(f"{float(slip):.3f}").status == "not yet", float(slip)
    for step in (-0.001, 0.001):
        assert exercise.check(f"{round(float(by_hand), 3) + step:.3f}").status == "close"


@cache
def _turns_and_placing_draws(d: int, w: int, unseen: int, first: bool) -> tuple[Fraction, Fraction]:
    """From just before the next card (``first``: it starts a draw): the expected draws still to start, and the
    expected draws still to come (this one too, if ``first``) whose first card is placed. Written here from the
    rules: 4 cards a rank, 4 Jacks."""
    if d == 0:
        return Fraction(0), Fraction(0)
    pips, jacks = 4 * (d + w), 4 - w
    dead = unseen - pips - jacks
    turns = Fraction(0)
    placing = Fraction(pips + jacks, unseen) if first else Fraction(0)
    for count, nxt in ((pips, (d - 1, w)), (jacks, (d - 1, w + 1))):
        if count:
            more_turns, more_placing = _turns_and_placing_draws(*nxt, unseen - 1, False)
            turns += Fraction(count, unseen) * more_turns
            placing += Fraction(count, unseen) * more_placing
    if dead:
        more_turns, more_placing = _turns_and_placing_draws(d, w, unseen - 1, True)
        turns += Fraction(dead, unseen) * (1 + more_turns)
        placing += Fraction(dead, unseen) * more_placing
    return turns, placing


def test_13_the_teachers_guide_numbers_about_half_the_draws_place_no_card_and_the_median() -> None:
    """docs/teaching.md, section 13: "1.96 cards per draw" is an average over draws that place nothing and draws
    that start a chain: the share of draws whose first card is dead is 0.473 with 10 spots and 0.531 with 8; the
    median 9 has P(T <= 9) = 0.558, so "at least half" (not "half") of the games take at most 9 draws."""
    share_placing = {}
    for spots in (8, 10):
        turns, placing = _turns_and_placing_draws(spots, 0, 52, True)
        assert float(1 + turns) == pytest.approx(_matrix_expectation(spots), abs=1e-9)
        share_placing[spots] = placing / (1 + turns)
    assert (f"{float(1 - share_placing[10]):.3f}", f"{float(1 - share_placing[8]):.3f}") == ("0.473", "0.531")
    assert f"{float(_done_within(10, 9)):.3f}" == "0.558" and _done_within(10, 8) < Fraction(1, 2)
