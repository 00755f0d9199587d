"""Spite and Malice and Shithead probabilities: exact counts against resampled and fresh-deal frequencies,
and viewpoints that honestly differ."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import cardlab
from cardlab.sim import prob
from cardlab.sim.stats import wilson
from tests.conformance import random_positions

Z999 = 3.2905


def agrees(exact: Fraction, hits: float, n: int) -> bool:
    return wilson(hits, n, z=Z999).contains(float(exact))


# ------------------------------------------------------------------------------------------ Spite and Malice
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


# ------------------------------------------------------------------------------------------ Shithead
@pytest.mark.parametrize("players", [2, 3])
def test_shithead_blind_card_exact_matches_resampling(players: int) -> None:
    rng = np.random.default_rng(players)
    checked = 0
    for g in random_positions("shithead", players, 10, seed=players, most=40):
        if g.state.phase != "play":
            continue
        seat = g.current_player
        slots = [i for i, c in enumerate(g.state.face_down[seat]) if c is not None]
        if not slots:
            continue
        for viewpoint in (None, seat):
            if not g.chance_law(viewpoint).exact:  # three hidden hands: estimated (test_shithead_law)
                continue
            exact = prob.shithead_blind_fits(g, viewpoint)
            n = 1000
            hits = sum(g.fits(g.resample(viewpoint, rng).state.face_down[seat][slots[0]])  # type: ignore
                       for _ in range(n))
            assert agrees(exact, hits, n), (g, viewpoint, exact, hits / n)
        checked += 1
    assert checked >= 3


def test_shithead_draw_top_exact_matches_resampling() -> None:
    rng = np.random.default_rng(1)
    checked = 0
    for g in random_positions("shithead", 2, 10, seed=9, most=30):
        if g.state.phase != "play" or not g.state.draw:
            continue
        exact = prob.shithead_draw_top_fits(g, 0)
        n = 1000
        hits = sum(g.fits(g.resample(0, rng).state.draw[-1]) for _ in range(n))  # type: ignore[attr-defined]
        assert agrees(exact, hits, n)
        checked += 1
    assert checked >= 3


def test_shithead_known_cards_change_the_count() -> None:
    """Cards a player picked up were seen by all: the table counts them out of the unseen pool."""
    for g in random_positions("shithead", 2, 30, seed=21, most=80):
        known = g.observe(None).known
        if any(known):
            unseen = prob.unseen_cards(g, None)
            for seat_known in known:
                for card in seat_known:
                    assert card not in unseen
            return
    pytest.fail("no position with publicly known hand cards was reached; widen the search")


def test_shithead_must_pick_up_is_an_interval_per_seat() -> None:
    g = random_positions("shithead", 3, 1, seed=2, most=30)[0]
    est = prob.shithead_must_pick_up(g, 1, None, rollouts=40, rng=np.random.default_rng(0))
    assert est.n == 40 and 0 <= est.low <= est.value <= est.high <= 1


def test_panel_quantities_label_exact_and_estimates() -> None:
    for name in ("garbage", "spite-and-malice", "shithead"):
        g = random_positions(name, 2, 1, seed=13, most=20)[0]
        qs = prob.panel_quantities(g, None, rng=np.random.default_rng(0), rollouts=20)
        assert qs
        for q in qs:
            if q.is_exact:
                assert q.low == q.value == q.high and "exact" in str(q)
            else:
                assert q.n == 20 and "play-outs" in str(q)
