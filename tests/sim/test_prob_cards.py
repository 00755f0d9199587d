"""Every registered game's panel: each question is labelled exact (a point) or estimated (an interval over the
play-outs asked for).

Each game's own probabilities, exact counts against resampled and fresh-deal frequencies, are tested with the
game (``tests/games/<game>/test_prob.py``, ``test_chance.py``) and by the generic chance checks
(``tests/chance/test_chance_law.py``)."""

from __future__ import annotations

import numpy as np
import pytest

import cardlab
from cardlab.sim import prob
from tests.conformance import random_positions


@pytest.mark.parametrize("name", cardlab.game_names())
def test_panel_quantities_label_exact_and_estimates(name: str) -> None:
    g = random_positions(name, 2, 10, seed=13, most=20)[0]   # the first unfinished one (a short game may end)
    qs = prob.panel_quantities(g, None, rng=np.random.default_rng(0), rollouts=20)
    assert qs
    for q in qs:
        if q.is_exact:
            assert q.low == q.value == q.high and "exact" in str(q)
        else:
            assert q.n == 20 and "play-outs" in str(q)


def test_a_quantity_that_does_not_apply_equals_its_copy() -> None:
    """NaN is unequal to itself, yet two "not applicable, for this reason" answers are the same answer (the toy
    game's panel, whose question waits for the round's first card, showed it: two panels computed alike
    compared unequal)."""
    a = prob.Quantity.not_applicable("draw_top_fits", "top of the draw pile fits", "the draw pile is empty")
    b = prob.Quantity.not_applicable("draw_top_fits", "top of the draw pile fits", "the draw pile is empty")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != prob.Quantity.not_applicable("draw_top_fits", "top of the draw pile fits", "the game is over")
    assert a != prob.Quantity(a.key, a.label, 0.0, 0.0, 0.0, None, None, None, a.reason)


def test_prob_re_exports_every_registered_games_questions_by_name() -> None:
    """``prob.<question>`` is the game's own function, listed in ``prob.__all__``: every name a registered game's
    questions module lists in its ``QUESTIONS`` (no lookup on attribute access); a name nobody lists is not
    there."""
    import sys

    listed = 0
    for spec in cardlab.engine.game_specs():
        module = sys.modules[spec.questions.__module__]
        for name in getattr(module, "QUESTIONS", ()):
            assert getattr(prob, name) is getattr(module, name) and name in prob.__all__
            listed += 1
    assert listed >= 3   # the built-in games list their questions (the toy game lists none)
    assert not hasattr(prob, "no_such_question") and not hasattr(prob, "panel")
