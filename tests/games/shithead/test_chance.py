"""Shithead's questions that do not apply say why (the generic checks: ``tests/chance/test_chance_law.py``)."""

from __future__ import annotations

import numpy as np
import pytest

import cardlab
from cardlab.errors import InvalidInputError
from cardlab.sim import prob


def test_not_applicable_questions_say_why() -> None:
    g = cardlab.new_game("shithead", players=2, seed=1)
    policy = cardlab.policies.make_policy("greedy", "shithead", np.random.default_rng(1))
    while g.state.draw and not g.is_over:
        g.play(cardlab.policies.choose(policy, g))
    assert not g.is_over and not g.state.draw
    with pytest.raises(InvalidInputError, match="draw pile is empty"):
        prob.shithead_draw_top_fits(g)
    qs = {q.key: q for q in prob.panel_quantities(g, rng=np.random.default_rng(0), rollouts=4)}
    assert not qs["draw_top_fits"].is_applicable and "draw pile is empty" in str(qs["draw_top_fits"])
    mover = [q for q in prob.panel_quantities(g, rng=np.random.default_rng(0), rollouts=4)
             if q.key == "must_pick_up" and q.seat == g.current_player]
    assert len(mover) == 1 and mover[0].is_exact
