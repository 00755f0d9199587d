"""Spite and Malice's probabilities: exact counts against resampled and fresh-deal frequencies, and viewpoints
that honestly differ (the generic test of every game's panel: ``tests/sim/test_prob_cards.py``)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import cardlab
from cardlab.chance.stats import wilson
from cardlab.sim import prob
from tests.conformance import random_positions

Z999 = 3.2905


def agrees(exact: Fraction, hits: float, n: int) -> bool:
    return wilson(hits, n, z=Z999).contains(float(exact))


def test_spite_next_stock_from_fresh_deals() -> None:
    """Ground truth with no resampling: the table's chance that the first stock card fits an empty centre."""
    exact = prob.spite_next_stock_playable(cardlab.new_game("spite-and-malice", seed=0), None)
    n, hits = 3000, 0
    for seed in range(n):
        g = cardlab.new_game("spite-and-malice", seed=seed)
        hits += g.can_play_on_centre(g.state.stock[-1])  # type: ignore[attr-defined]
    # the table sees only the two payoff tops, which differ from deal to deal: compare with the average
    # of the exact values over the same deals instead of one deal's value
    mean_exact = sum(prob.spite_next_stock_playable(cardlab.new_game("spite-and-malice", seed=s), None)
                     for s in range(200)) / 200
    assert wilson(hits, n, z=Z999).contains(float(mean_exact))
    assert 0 < exact < 1


@pytest.mark.parametrize("viewpoint", [None, 0, 1])
def test_spite_next_stock_exact_matches_resampling(viewpoint: int | None) -> None:
    rng = np.random.default_rng(7)
    checked = 0
    for g in random_positions("spite-and-malice", 2, 10, seed=3):
        if not g.state.stock:
            continue
        exact = prob.spite_next_stock_playable(g, viewpoint)
        n = 1200
        hits = sum(g.can_play_on_centre(g.resample(viewpoint, rng).state.stock[-1])  # type: ignore[attr-defined]
                   for _ in range(n))
        assert agrees(exact, hits, n), (g, viewpoint, exact, hits / n)
        checked += 1
    assert checked >= 5


def test_spite_viewpoints_honestly_differ() -> None:
    """A player knows their own hand, so the same position gives them another (and right) answer."""
    g = cardlab.new_game("spite-and-malice", seed=3)
    table = prob.spite_next_stock_playable(g, None)
    mine = prob.spite_next_stock_playable(g, 0)
    assert table != mine
    hand = g.observe(0).hand
    hidden_from_table = g.observe(None).hand is None
    assert hidden_from_table and hand is not None
    # seat 0's count removes its own hand from the unseen cards
    unseen0 = prob.unseen_cards(g, 0)
    assert len(unseen0) == len(prob.unseen_cards(g, None)) - len(hand)
    assert mine == Fraction(sum(g.can_play_on_centre(c) for c in unseen0), len(unseen0))  # type: ignore


def test_spite_payoff_now_is_known_to_everyone() -> None:
    for g in random_positions("spite-and-malice", 2, 10, seed=5):
        seat = g.current_player
        top = g.observe(None).payoff_tops[seat]
        expected = Fraction(int(top is not None and g.can_play_on_centre(top)))  # type: ignore[attr-defined]
        assert prob.spite_payoff_playable_now(g, None) == expected == prob.spite_payoff_playable_now(g, 1)


def test_spite_payoff_this_turn_is_an_interval() -> None:
    g = random_positions("spite-and-malice", 2, 1, seed=11)[0]
    est = prob.spite_payoff_this_turn(g, g.current_player, rollouts=60, rng=np.random.default_rng(0))
    assert est.n == 60 and est.low <= est.value <= est.high

