"""Charts the lessons share: how an estimate settles as the games add up.

:func:`convergence_figure` draws the **running frequency** of a sequence of results, ``p̂_n = (x_1 + … + x_n) / n``,
against ``n`` on a log axis, with its 95% interval at each ``n`` and, when the exact answer is known, that answer as
a dashed line. For 0/1 results the interval is Wilson's (:func:`cardlab.chance.stats.wilson`); for results that are
fractions between 0 and 1 (a share of games, an expected score scaled to [0, 1]) it is the normal interval
``mean ± 1.96 · s / √n`` from the sample standard deviation ``s``. With ``intervals=False`` the band is left out
(a lesson that comes before intervals are taught).

The band is drawn from one growing run, so its points are not independent: one unlucky early stretch can keep
the band away from the truth for a while. The law of large numbers says the running frequency converges; it does
not say the early errors are paid back. :func:`convergence_rows` gives the numbers the chart shows at chosen
``n``, so a notebook can print (and test) what its chart draws.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import plotly.graph_objects as go

from cardlab.chance.stats import mean_interval, wilson
from cardlab.errors import InvalidInputError, shown

MAX_POINTS = 300
"""Points drawn along the curve (log-spaced), whatever the number of results."""


@dataclass(frozen=True)
class ConvergenceRow:
    """The running frequency after the first ``n`` results, with its 95% interval."""

    n: int
    value: float
    low: float
    high: float

    def contains(self, x: float) -> bool:
        return self.low <= x <= self.high

    def __str__(self) -> str:
        return f"n = {self.n}: {self.value:.4f} [{self.low:.4f}, {self.high:.4f}]"


def _results(outcomes: Sequence[float] | np.ndarray) -> np.ndarray:
    try:
        arr = np.asarray(outcomes, dtype=float)
    except (TypeError, ValueError):
        raise InvalidInputError(f"outcomes={shown(outcomes)} are not numbers: give a list of 0/1 results "
                                "(or fractions between 0 and 1), one per game, in the order they happened") from None
    if arr.ndim != 1 or arr.size == 0:
        raise InvalidInputError(f"outcomes={shown(outcomes)} must be a non-empty flat list of results, one per game")
    if not np.all(np.isfinite(arr)) or arr.min() < 0 or arr.max() > 1:
        raise InvalidInputError(f"outcomes={shown(outcomes)} hold a value outside 0 to 1: give 0/1 results "
                                "(or fractions between 0 and 1)")
    return arr


def _truth(truth: float | Fraction | None) -> float | None:
    if truth is None:
        return None
    try:
        value = float(truth)
    except (TypeError, ValueError):
        raise InvalidInputError(f"truth={shown(truth)} is not a number: give the exact answer or None") from None
    if not math.isfinite(value):
        raise InvalidInputError(f"truth={shown(truth)} is not a finite number")
    return value


def convergence_rows(outcomes: Sequence[float] | np.ndarray, ns: Sequence[int] | None = None) -> list[ConvergenceRow]:
    """The running frequency and its 95% interval after the first ``n`` results, for each ``n`` in ``ns``
    (default: log-spaced, at most :data:`MAX_POINTS` of them, always ending with all the results)."""
    arr = _results(outcomes)
    total = arr.size
    if ns is None:
        ns = sorted({int(n) for n in np.geomspace(1, total, min(MAX_POINTS, total))} | {total})
    bad = [n for n in ns if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= total]
    if bad:
        raise InvalidInputError(f"ns={shown(list(ns))} holds {shown(bad[0])}: each n is a whole number from 1 to "
                                f"{total} (the number of results)")
    sums, squares = np.cumsum(arr), np.cumsum(arr * arr)
    binary = bool(np.all((arr == 0) | (arr == 1)))
    rows = []
    for n in ns:
        s = float(sums[n - 1])
        if binary:
            est = wilson(s, int(n))
            rows.append(ConvergenceRow(int(n), est.value, est.low, est.high))
        else:
            mean, half = mean_interval(s, float(squares[n - 1]), int(n))
            rows.append(ConvergenceRow(int(n), mean, max(0.0, mean - half), min(1.0, mean + half)))
    return rows


def convergence_figure(outcomes: Sequence[float] | np.ndarray, *, truth: float | Fraction | None = None,
                       title: str = "The running frequency settles", label: str = "running frequency",
                       x_title: str = "games", intervals: bool = True) -> go.Figure:
    """The running frequency of ``outcomes`` against their number (log axis), its 95% band, and ``truth`` dashed.

    ``outcomes``: one result per game in the order played, 0/1 (a win, a completed layout) or a fraction in
    [0, 1]. ``truth``: the exact value when it is known (a ``Fraction`` is fine), else None. ``intervals=False``
    leaves the band out (for a lesson that comes before intervals are taught)."""
    if not isinstance(intervals, (bool, np.bool_)):
        raise InvalidInputError(f"intervals={shown(intervals)} is not True or False")
    rows = convergence_rows(outcomes)
    exact = _truth(truth)
    n = [r.n for r in rows]
    fig = go.Figure(layout=go.Layout(
        title=title, width=700, height=360, margin={"l": 60, "r": 20, "t": 50, "b": 50},
        xaxis={"title": f"{x_title} (log scale)", "type": "log"},
        yaxis={"title": label, "range": [0, 1]}))   # the whole scale: the early jumps are part of the story
    if intervals:
        fig.add_scatter(x=n + n[::-1], y=[r.high for r in rows] + [r.low for r in rows][::-1], fill="toself",
                        mode="lines", line={"width": 0}, fillcolor="rgba(31,119,180,0.2)", name="95% interval",
                        hoverinfo="skip")
    fig.add_scatter(x=n, y=[r.value for r in rows], mode="lines", name=label, line={"color": "#1f77b4"})
    if exact is not None:
        fig.add_scatter(x=[1, n[-1]], y=[exact, exact], mode="lines", name=f"exact {exact:.4f}",
                        line={"dash": "dash", "color": "black"})
    return fig


__all__ = ["ConvergenceRow", "convergence_figure", "convergence_rows"]
