"""Figures of move values and of a game review, drawn from plain data (lists of numbers and texts).

Nothing here reads a game: the caller passes what :mod:`cardlab.sim.move_values` and
:mod:`cardlab.sim.review` computed (``MoveValues.records()``, ``Review.records()``), so a panel shows only
what the mover's own information gave (the values are computed from it) and the figures can be tested
without a game. Both return a plain ``plotly.graph_objects.Figure``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

from cardlab.errors import InvalidInputError

BEST_COLOUR = "#2a9d3f"
OTHER_COLOUR = "#8c9bb0"
MARKS = {"inaccuracy": ("#e0b000", "circle"), "mistake": ("#e07000", "diamond"), "blunder": ("#c0172f", "x")}
"""Colour and marker of each costly class in the review chart."""


def _same_length(**columns: Sequence[Any]) -> int:
    sizes = {name: len(col) for name, col in columns.items()}
    if len(set(sizes.values())) > 1:
        raise InvalidInputError(f"the columns have different lengths: {sizes}; give one entry per move")
    return next(iter(sizes.values()), 0)


def move_values_figure(moves: Sequence[str], values: Sequence[float], lows: Sequence[float],
                       highs: Sequence[float], best: int, title: str = "Win chance of each move") -> go.Figure:
    """Horizontal bars: each move's win chance with its 95% interval, the best move (index ``best``) in its
    own colour and marked "best". Moves are listed top to bottom in the given order."""
    n = _same_length(moves=moves, values=values, lows=lows, highs=highs)
    if n and not 0 <= best < n:
        raise InvalidInputError(f"best={best!r} is not the index of a move (0 to {n - 1})")
    colours = [BEST_COLOUR if k == best else OTHER_COLOUR for k in range(n)]
    labels = [f"{m}  (best)" if k == best else m for k, m in enumerate(moves)]
    fig = go.Figure(go.Bar(
        x=list(values), y=labels, orientation="h", marker={"color": colours},
        error_x={"type": "data", "symmetric": False, "array": [h - v for h, v in zip(highs, values, strict=True)],
                 "arrayminus": [v - lo for v, lo in zip(values, lows, strict=True)]},
        hovertemplate="%{y}: %{x:.3f}<extra></extra>"))
    fig.update_layout(title=title, xaxis={"title": "chance of winning", "range": [0, 1]},
                      yaxis={"autorange": "reversed"}, height=max(220, 40 + 26 * n), margin={"l": 10, "r": 10},
                      showlegend=False)
    return fig


def move_values_figure_from(records: Sequence[Mapping[str, Any]], title: str = "Win chance of each move") -> go.Figure:
    """:func:`move_values_figure` from ``MoveValues.records()``."""
    best = next((k for k, r in enumerate(records) if r["best"]), 0)
    return move_values_figure([r["move"] for r in records], [r["win"] for r in records],
                              [r["win_low"] for r in records], [r["win_high"] for r in records], best, title)


def review_figure(records: Sequence[Mapping[str, Any]], players: int, title: str = "Win chance given up") -> go.Figure:
    """The game move by move: for each seat, the win chance each of its decisions gave up (bars, with the
    paired 95% interval), the inaccuracies, mistakes and blunders marked above their bars. ``records`` are
    ``Review.records()`` (forced moves are left out)."""
    fig = go.Figure()
    chosen = [r for r in records if r["label"] != "forced"]
    for seat in range(players):
        mine = [r for r in chosen if r["seat"] == seat]
        fig.add_trace(go.Bar(
            x=[r["move_number"] for r in mine], y=[r["loss"] for r in mine], name=f"seat {seat}",
            error_y={"type": "data", "symmetric": False,
                     "array": [r["loss_high"] - r["loss"] for r in mine],
                     "arrayminus": [r["loss"] - r["loss_low"] for r in mine]},
            customdata=[[r["played"], r["best"], r["label"]] for r in mine],
            hovertemplate="move %{x}: %{customdata[0]} (best %{customdata[1]}), gave up %{y:.3f}, "
                          "%{customdata[2]}<extra></extra>"))
    for label, (colour, symbol) in MARKS.items():
        marked = [r for r in chosen if r["label"] == label]
        if marked:
            fig.add_trace(go.Scatter(
                x=[r["move_number"] for r in marked], y=[r["loss_high"] for r in marked], mode="markers",
                name=label, marker={"color": colour, "symbol": symbol, "size": 11},
                customdata=[[r["seat"], r["played"]] for r in marked],
                hovertemplate=f"{label}: seat %{{customdata[0]}}, %{{customdata[1]}}<extra></extra>"))
    fig.update_layout(title=title, barmode="group", xaxis={"title": "move"},
                      yaxis={"title": "win chance given up (best − played)"}, margin={"l": 10, "r": 10})
    return fig
