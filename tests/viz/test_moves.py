"""The move-value and review figures, drawn from plain data."""

from __future__ import annotations

import numpy as np
import pytest

import cardlab
from cardlab.errors import InvalidInputError
from cardlab.sim.move_values import move_values
from cardlab.viz.moves import BEST_COLOUR, MARKS, move_values_figure, move_values_figure_from, review_figure


def test_move_values_figure_marks_the_best_move_and_draws_each_interval() -> None:
    fig = move_values_figure(["draw stock", "take discard"], [0.4, 0.7], [0.35, 0.66], [0.46, 0.73], best=1)
    bar = fig.data[0]
    assert list(bar.x) == [0.4, 0.7]
    assert list(bar.y) == ["draw stock", "take discard  (best)"]
    assert list(bar.marker.color)[1] == BEST_COLOUR and list(bar.marker.color)[0] != BEST_COLOUR
    assert list(bar.error_x.array) == pytest.approx([0.06, 0.03])
    assert list(bar.error_x.arrayminus) == pytest.approx([0.05, 0.04])


def test_move_values_figure_from_real_values() -> None:
    g = cardlab.new_game("garbage", seed=2)
    while len({m.text for m in g.legal_moves()}) < 2:
        g.play(g.legal_moves()[0])
    mv = move_values(g, rollouts=50, rng=np.random.default_rng(0))
    fig = move_values_figure_from(mv.records())
    labels = list(fig.data[0].y)
    assert labels[mv.best].endswith("(best)") and sum(label.endswith("(best)") for label in labels) == 1


def test_review_figure_marks_only_costly_decisions() -> None:
    records = [
        {"move_number": 0, "seat": 0, "played": "a", "best": "a", "loss": 0.0, "loss_low": 0.0, "loss_high": 0.0,
         "label": "best"},
        {"move_number": 1, "seat": 1, "played": "b", "best": "c", "loss": 0.2, "loss_low": 0.1, "loss_high": 0.3,
         "label": "blunder"},
        {"move_number": 2, "seat": 0, "played": "d", "best": "d", "loss": 0.0, "loss_low": 0.0, "loss_high": 0.0,
         "label": "forced"},
        {"move_number": 3, "seat": 0, "played": "e", "best": "f", "loss": 0.06, "loss_low": 0.01, "loss_high": 0.11,
         "label": "inaccuracy"},
    ]
    fig = review_figure(records, players=2)
    bars = [t for t in fig.data if t.type == "bar"]
    marks = {t.name: list(t.x) for t in fig.data if t.type == "scatter"}
    assert [list(b.x) for b in bars] == [[0, 3], [1]]   # the forced move is left out
    assert marks == {"blunder": [1], "inaccuracy": [3]}
    assert set(marks) <= set(MARKS)


def test_columns_of_different_lengths_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="lengths"):
        move_values_figure(["a", "b"], [0.1], [0.0], [0.2], best=0)
    with pytest.raises(InvalidInputError, match="best"):
        move_values_figure(["a"], [0.1], [0.0], [0.2], best=3)
