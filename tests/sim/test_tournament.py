"""Paired tournaments: the same deals with seats swapped."""

from __future__ import annotations

import numpy as np
import pytest

from cardlab.errors import InvalidInputError
from cardlab.sim.simulate import simulate
from cardlab.sim.tournament import paired_tournament


def test_a_policy_against_itself_scores_exactly_zero_on_every_pair() -> None:
    """Both games of a pair are one deal played by the same deterministic bots, so whoever wins one loses the
    other: a tournament that paired different deals, or counted a seat's wins with the wrong sign, fails."""
    r = paired_tournament("shithead", "greedy", "greedy", 200, seed=3)
    assert r.scores.shape == (200,) and not r.scores.any()
    assert r.advantage == 0 and r.low == 0 and r.high == 0


def test_the_scores_are_each_policys_wins_minus_losses_on_its_two_games() -> None:
    r = paired_tournament("shithead", "random", "greedy", 300, seed=5)
    first = simulate("shithead", 2, 300, 5, ["random", "greedy"], progress=False).winners
    second = simulate("shithead", 2, 300, 5, ["greedy", "random"], progress=False).winners
    expected = (first == 0).astype(int) - (first == 1) + (second == 1) - (second == 0)
    assert np.array_equal(r.scores, expected)
    assert set(np.unique(r.scores)) <= {-2, -1, 0, 1, 2}
    assert r.high < 0   # random play loses to the greedy bot, beyond the noise
    assert r.low <= r.advantage <= r.high


def test_bad_input_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="pairs"):
        paired_tournament("shithead", "greedy", "random", 1)
