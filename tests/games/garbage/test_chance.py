"""Garbage's next stock card and the seat that draws it (the generic checks: ``tests/chance/test_chance_law.py``)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np

import cardlab
from cardlab.sim import prob
from tests.sim import chance_checks as cc


def test_garbage_next_card_is_for_the_seat_that_draws_it() -> None:
    """Issue item 3: in the middle of a chain the next stock card goes to the next player; with an empty
    stock it comes from the discard pile reshuffled when the turn passes (all of it as it is now)."""
    deck = ["AS", "QS", "2D", "3C", "7H", "6D", "JH", "8S", "9C", "10H",
            "KD", "9D", "QH", "4S", "5S", "6H", "KS", "8D", "2H", "10S", "4H", "JC", "5D"]
    g = cardlab.new_game("garbage", players=2, seed=1, deck=deck)
    g.play("draw stock")
    g.play("draw stock")            # seat 1 draws J♣: a wild to place, mid-turn
    assert g.state.phase == "wild" and g.current_player == 1
    assert prob.garbage_next_drawer(g) == 0
    unseen = cc.all_faces(1) - Counter(c for lay in g.observe(None).layouts for c in lay if c is not None) \
        - Counter([*g.observe(None).discard, g.observe(None).held])
    usable0 = sum(k for c, k in unseen.items() if g.can_use(0, c))
    assert prob.garbage_next_card_placeable(g) == Fraction(usable0, sum(unseen.values()))
    assert prob.garbage_next_card_placeable(g) != Fraction(sum(k for c, k in unseen.items() if g.can_use(1, c)),
                                                           sum(unseen.values()))
    # empty the stock onto the discard pile (under its top): the next card is one of those discards
    s = g.state
    s.discard = list(reversed(s.stock)) + s.discard
    s.stock = []
    g._check_conservation("test")
    pool = g.observe(None).discard
    assert prob.garbage_next_card_placeable(g) == Fraction(sum(g.can_use(0, c) for c in pool), len(pool))
    qs = {q.key: q for q in prob.panel_quantities(g, rng=np.random.default_rng(0), rollouts=4)}
    assert qs["next_card"].is_exact and qs["next_card"].seat == 0 and "seat 0" in qs["next_card"].label
