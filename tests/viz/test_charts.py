"""The shared convergence chart: the numbers it draws, its intervals' coverage, and its input checks."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from cardlab.chance.stats import Z95, wilson
from cardlab.errors import InvalidInputError
from cardlab.viz.charts import convergence_figure, convergence_rows


def test_rows_are_the_running_frequency_with_wilson_intervals_for_0_1_results() -> None:
    results = [1, 0, 0, 1, 1, 0, 0, 0, 1, 0]
    rows = convergence_rows(results, ns=[1, 4, 10])
    for row in rows:
        k = sum(results[:row.n])
        est = wilson(k, row.n)
        assert row.value == pytest.approx(k / row.n)
        assert (row.low, row.high) == (est.low, est.high)
    assert [r.n for r in convergence_rows(results)][-1] == 10   # the default ends with every result


def test_rows_for_fractions_use_the_mean_and_its_normal_interval() -> None:
    results = np.array([0.25, 0.75, 0.5, 1.0, 0.0, 0.5])
    (row,) = convergence_rows(results, ns=[6])
    half = Z95 * results.std(ddof=1) / np.sqrt(6)
    assert row.value == pytest.approx(results.mean())
    assert (row.low, row.high) == pytest.approx((results.mean() - half, results.mean() + half))


def test_the_last_interval_covers_the_truth_about_95_times_in_100() -> None:
    """Coverage over independent runs: with a wrong z (say 1.0, 68%) or a wrong centre this count falls far below."""
    rng = np.random.default_rng(7)
    p, runs, n = 0.3, 1000, 400
    covered = sum(convergence_rows(rng.random(n) < p, ns=[n])[0].contains(p) for _ in range(runs))
    # 95% of 1000: mean 950, sd about 6.9; a 68% interval would give about 680
    assert 920 <= covered <= 975, covered


def test_the_figure_draws_band_curve_and_truth() -> None:
    results = (np.random.default_rng(3).random(500) < 2 / 13).astype(int)
    fig = convergence_figure(results, truth=Fraction(2, 13), title="t", label="share")
    band, curve, truth = fig.data
    rows = convergence_rows(results)
    assert list(curve.y) == [r.value for r in rows] and list(curve.x) == [r.n for r in rows]
    assert list(band.y) == [r.high for r in rows] + [r.low for r in rows][::-1]
    assert list(truth.y) == [float(Fraction(2, 13))] * 2 and fig.layout.xaxis.type == "log"
    assert len(convergence_figure(results).data) == 2   # no truth, no dashed line


def test_the_figure_without_intervals_draws_no_band() -> None:
    results = (np.random.default_rng(3).random(500) < 2 / 13).astype(int)
    curve, truth = convergence_figure(results, truth=Fraction(2, 13), intervals=False).data
    assert list(curve.y) == [r.value for r in convergence_rows(results)]
    assert curve.name == "running frequency" and truth.line.dash == "dash"
    with pytest.raises(InvalidInputError, match="intervals="):
        convergence_figure(results, intervals="no")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [[], [[0, 1], [1, 0]], [0, 2], [0.5, float("nan")], ["a", "b"], [-0.1]])
def test_bad_outcomes_get_a_clear_error(bad: object) -> None:
    with pytest.raises(InvalidInputError, match="outcomes="):
        convergence_figure(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("ns", [[0], [11], [2.5], [True]])
def test_bad_ns_get_a_clear_error(ns: list[object]) -> None:
    with pytest.raises(InvalidInputError, match=r"ns=.*whole number from 1 to 10"):
        convergence_rows([0, 1] * 5, ns=ns)  # type: ignore[arg-type]


def test_bad_truth_gets_a_clear_error() -> None:
    with pytest.raises(InvalidInputError, match="truth="):
        convergence_figure([0, 1], truth="half")  # type: ignore[arg-type]
