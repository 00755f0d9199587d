"""Shithead's probabilities: exact counts against resampled frequencies, and cards known to all (the generic test
of every game's panel: ``tests/sim/test_prob_cards.py``)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from cardlab.chance.stats import wilson
from cardlab.sim import prob
from tests.conformance import random_positions

Z999 = 3.2905


def agrees(exact: Fraction, hits: float, n: int) -> bool:
    return wilson(hits, n, z=Z999).contains(float(exact))


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
