"""``cardlab.Stepper(..., intervals=False)``: every estimate is shown as its value alone.

A lesson that comes before intervals are taught (lesson 00) makes its steppers with ``intervals=False``: no 95%
band on the P(win) chart, no error bar on the panel, no interval in the still picture, the numbers as text, the
predict feedback and scores, the move values, or the class session's charts. The estimates themselves are the
same numbers as with intervals (only the drawing changes); the default still draws every interval.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from cardlab.errors import InvalidInputError
from cardlab.viz.classpoll import ClassPoll
from cardlab.viz.moves import interval_words, move_values_figure, move_values_text
from cardlab.viz.panels import CURVE_OFFSET, MAX_SEATS
from cardlab.viz.predict import Prediction
from cardlab.viz.scores import calibrate
from cardlab.viz.stepper import Stepper

FAST: dict[str, Any] = {"rollouts": 6, "panel_rollouts": 5}


def stepper(intervals: bool, **kw: Any) -> Stepper:
    s = Stepper("garbage", players=2, seed=3, intervals=intervals, **FAST, **kw)
    for _ in range(3):
        s.next_move()
    return s


def bands(s: Stepper) -> list[list[float]]:
    return [list(s.win_fig.data[2 * seat].x) for seat in range(MAX_SEATS)]


def test_without_intervals_no_band_error_bar_or_interval_words() -> None:
    plain, full = stepper(False), stepper(True)
    # the same estimates: only the drawing changes
    assert [p.estimates for p in plain.win_history] == [p.estimates for p in full.win_history]
    assert [(q.key, q.value, q.low, q.high) for q in plain.quantities] == \
        [(q.key, q.value, q.low, q.high) for q in full.quantities]
    assert any(q.n for q in plain.quantities), "the panel holds estimates"

    assert all(x == [] for x in bands(plain))
    assert bands(full)[0] and bands(full)[1], "the default draws a band for each seat"
    for seat in range(2):
        assert all("95%" not in t for t in plain.win_fig.data[2 * seat + 1].text)
        assert all("95%" in t for t in full.win_fig.data[2 * seat + 1].text)

    panel, default_panel = plain.panel_fig, full.panel_fig
    assert panel.data[1].error_x.visible is False and default_panel.data[1].error_x.visible is True
    assert panel.data[1].name == "estimate"
    for seat in range(MAX_SEATS):
        assert panel.data[CURVE_OFFSET + seat].error_y.visible is False
    words = [*panel.data[1].text, *panel.data[2].text, *panel.data[CURVE_OFFSET].text]
    assert words and all("[" not in w for w in words)
    assert any("[" in w for w in default_panel.data[CURVE_OFFSET].text)

    assert "[" not in plain.panel_numbers() and "play-outs" in plain.panel_numbers()
    assert "[" in full.panel_numbers()
    assert "95%" not in plain.history_numbers() and "[" not in plain.history_numbers()
    assert "95%" in full.history_numbers()
    values = [f"{e.value:.3f}" for e in plain.win_history[-1].estimates]
    assert all(v in plain.history_numbers().splitlines()[-1] for v in values)

    still, default_still = plain._still_html(), full._still_html()
    assert "<polygon" not in still and "<polygon" in default_still
    assert "[" not in still.split("<svg", 1)[1] and "[" in default_still.split("<svg", 1)[1]
    plain.close()
    full.close()


def test_without_intervals_predict_feedback_and_scores_name_no_interval() -> None:
    s = Stepper("garbage", players=2, seed=3, predict=True, intervals=False, **FAST)
    assert s.predictor is not None
    record = s.predictor.submit(0.9)
    assert "interval" not in s.predictor.feedback
    assert f"{0.9 - record.answer:.3f} above the estimate" in s.predictor.feedback
    s.play_to_end()
    cal = s.calibration()
    assert cal.intervals is False and "interval" not in cal.table()
    fig = cal.figure()
    assert fig.data[2].error_y.visible is False and "interval" not in fig.data[2].name
    assert "interval" in calibrate(list(cal.records)).table(), "the default table gives the intervals"
    s.close()


def test_move_values_and_answers_without_intervals() -> None:
    record = {"move": "jack to 5", "win": 0.4, "win_low": 0.3, "win_high": 0.5, "best": False, "gap": -0.1,
              "gap_low": -0.2, "gap_high": 0.0}
    assert interval_words(record, intervals=False) == "0.400  gap -0.100"
    assert "[" in interval_words(record)
    assert "[" not in move_values_text([record], "heading", intervals=False)
    fig = move_values_figure(["a", "b"], [0.4, 0.7], [0.3, 0.6], [0.5, 0.8], best=1, intervals=False)
    assert fig.data[0].error_x.visible is False and list(fig.data[1].x) == pytest.approx([0.42, 0.72])
    guess = Prediction(0, "win", "q", 0.5, 0.25, 0.2, 0.3, False, ("deal",))
    assert guess.answer_text(intervals=False) == "0.250 (estimate)" and "95%" in guess.answer_text()


def test_intervals_must_be_true_or_false() -> None:
    with pytest.raises(InvalidInputError, match="intervals='no'"):
        Stepper("garbage", players=2, seed=3, intervals="no", **FAST)  # type: ignore[arg-type]


def test_class_poll_figures_without_intervals() -> None:
    revealed: Any = SimpleNamespace(number=1, state="revealed", exact=False, answer=0.4, low=0.3, high=0.5,
                                    answer_text="0.400 (estimate from play-outs)", mean=0.45, count=3)
    shapes = ClassPoll._histogram_figure(revealed, (0.1, 0.5), intervals=False)["layout"]["shapes"]
    assert [s["type"] for s in shapes] == ["line"]
    assert [s["type"] for s in ClassPoll._histogram_figure(revealed, (0.1, 0.5))["layout"]["shapes"]] == \
        ["rect", "line"]
    assert ClassPoll._calibration_figure((revealed,), intervals=False)["data"][1]["error_x"]["visible"] is False
    assert ClassPoll._calibration_figure((revealed,))["data"][1]["error_x"]["visible"] is True
