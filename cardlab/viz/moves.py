"""Figures of move values and of a game review, drawn from plain data (lists of numbers and texts).

Nothing here reads a game: the caller passes what :mod:`cardlab.sim.move_values` and
:mod:`cardlab.sim.review` computed (``MoveValues.records()``, ``Review.records()``), so a panel shows only
what the mover's own information gave (the values are computed from it) and the figures can be tested
without a game. Both return a plain ``plotly.graph_objects.Figure``.

The stepper's move-values panel (:class:`MoveValuesPanel`) draws the first figure in the page, and
:func:`move_values_text` and :func:`move_values_html` give the same numbers as text (a notebook's
``text/plain``, which notebook checks compare) and as a still picture.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from cardlab.errors import InvalidInputError
from cardlab.viz.panels import FIG_WIDTH, figure_json, title_html
from cardlab.viz.plot import PlotView, default_template

BEST_COLOUR = "#2a9d3f"
OTHER_COLOUR = "#8c9bb0"
NUMBER_ROOM = 1.22   # the win-chance axis runs to here, so each bar's number fits right of a bar at 1
MARKS = {"inaccuracy": ("#e0b000", "circle"), "mistake": ("#e07000", "diamond"), "blunder": ("#c0172f", "x")}
"""Colour and marker of each costly class in the review chart."""


def _same_length(**columns: Sequence[Any]) -> int:
    sizes = {name: len(col) for name, col in columns.items()}
    if len(set(sizes.values())) > 1:
        raise InvalidInputError(f"the columns have different lengths: {sizes}; give one entry per move")
    return next(iter(sizes.values()), 0)


def move_values_figure(moves: Sequence[str], values: Sequence[float], lows: Sequence[float],
                       highs: Sequence[float], best: int, title: str = "Win chance of each move",
                       intervals: bool = True) -> go.Figure:
    """Horizontal bars: each move's win chance with its 95% interval (none when ``intervals`` is False), the best
    move (index ``best``) in its own colour and marked "best". Moves are listed top to bottom in the given order."""
    n = _same_length(moves=moves, values=values, lows=lows, highs=highs)
    if n and not 0 <= best < n:
        raise InvalidInputError(f"best={best!r} is not the index of a move (0 to {n - 1})")
    colours = [BEST_COLOUR if k == best else OTHER_COLOUR for k in range(n)]
    labels = [f"{m}  (best)" if k == best else m for k, m in enumerate(moves)]
    fig = go.Figure(go.Bar(
        x=list(values), y=labels, orientation="h", marker={"color": colours},
        error_x={"type": "data", "symmetric": False, "array": [h - v for h, v in zip(highs, values, strict=True)],
                 "arrayminus": [v - lo for v, lo in zip(values, lows, strict=True)], "visible": intervals},
        hovertemplate="%{y}: %{x:.3f}<extra></extra>"))
    # each bar's number, printed right of its interval (inside the figure: the axis runs on past 1 for them)
    ends = highs if intervals else values
    fig.add_trace(go.Scatter(x=[min(1.0, h) + 0.02 for h in ends], y=labels, mode="text",
                             text=[f"{v:.3f}" for v in values], textposition="middle right",
                             textfont={"size": 11, "color": "#222"}, cliponaxis=False, hoverinfo="skip",
                             showlegend=False, name="values"))
    fig.update_layout(title=title, xaxis={"title": "chance of winning", "range": [0, NUMBER_ROOM],
                                          "tickvals": [0, 0.25, 0.5, 0.75, 1]},
                      yaxis={"autorange": "reversed"}, height=max(220, 40 + 26 * n), margin={"l": 10, "r": 10},
                      showlegend=False)
    return fig


def move_values_figure_from(records: Sequence[Mapping[str, Any]], title: str = "Win chance of each move",
                            intervals: bool = True) -> go.Figure:
    """:func:`move_values_figure` from ``MoveValues.records()``."""
    best = next((k for k, r in enumerate(records) if r["best"]), 0)
    return move_values_figure([r["move"] for r in records], [r["win"] for r in records],
                              [r["win_low"] for r in records], [r["win_high"] for r in records], best, title,
                              intervals)


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


# ---------------------------------------------------------------------------------------- the stepper's panel
def interval_words(record: Mapping[str, Any], intervals: bool = True) -> str:
    """One move's numbers in words: its win chance with the 95% interval, and "best" or its gap from the best
    with the gap's paired 95% interval (the values alone when ``intervals`` is False)."""
    if not intervals:
        return f"{record['win']:.3f}  " + ("best" if record["best"] else f"gap {record['gap']:+.3f}")
    win = f"{record['win']:.3f} [{record['win_low']:.3f}, {record['win_high']:.3f}]"
    if record["best"]:
        return f"{win}  best"
    return f"{win}  gap {record['gap']:+.3f} [{record['gap_low']:+.3f}, {record['gap_high']:+.3f}]"


def move_values_text(records: Sequence[Mapping[str, Any]], heading: str, intervals: bool = True) -> str:
    """The panel as text: ``heading``, then one line per move (the best marked ``*``)."""
    width = max((len(str(r["move"])) for r in records), default=0)
    lines = [heading]
    lines += [f"{'*' if r['best'] else ' '} {str(r['move']).ljust(width)}  {interval_words(r, intervals)}"
              for r in records]
    return "\n".join(lines)


def move_values_html(records: Sequence[Mapping[str, Any]], heading: str, intervals: bool = True) -> str:
    """The panel as plain HTML for a still picture: ``heading``, then per move a bar as long as its win chance
    with its interval drawn as a line (unless ``intervals`` is False), the best bar in its own colour."""
    rows = [f'<div style="font:12px sans-serif;font-weight:bold;margin:4px 0">{html.escape(heading)}</div>']
    scale = 120
    for r in records:
        colour = BEST_COLOUR if r["best"] else OTHER_COLOUR
        low, high = max(0.0, r["win_low"]), min(1.0, r["win_high"])
        bar = (f'<span style="position:relative;display:inline-block;width:{scale}px;height:10px;margin-right:6px">'
               f'<span style="position:absolute;left:0;top:0;width:{max(0.0, min(1.0, r["win"])) * scale:.0f}px;'
               f'height:10px;background:{colour}"></span>'
               + (f'<span style="position:absolute;left:{low * scale:.0f}px;top:4px;'
                  f'width:{(high - low) * scale:.0f}px;height:2px;background:#333"></span>' if intervals else "")
               + "</span>")
        rows.append('<div style="font:11px sans-serif;margin:2px 0"><span style="display:inline-block;width:230px">'
                    f"{html.escape(str(r['move']))}</span>{bar}{html.escape(interval_words(r, intervals))}</div>")
    return '<div class="cardlab-move-values" style="max-width:720px">' + "".join(rows) + "</div>"


def note_html(text: str, colour: str) -> str:
    """The panel's line of words, wrapped at the figures' width."""
    return f'<div style="font:12px sans-serif;color:{colour};max-width:{FIG_WIDTH}px">{html.escape(text)}</div>'


class MoveValuesPanel:
    """The stepper's move-values panel: a line of words and, when there are values to show, the bars of
    :func:`move_values_figure` drawn in the page by a :class:`~cardlab.viz.plot.PlotView`.

    :meth:`blank` empties the figure too (a page keeps the state of every widget it was sent, shown or
    not, so a figure left behind would still hold the last mover's moves)."""

    def __init__(self, intervals: bool = True) -> None:
        self.intervals = intervals   # False: the values alone, no interval drawn or written
        self.note = widgets.HTML()
        self.view = PlotView(self._empty(), default_template())
        self.box = widgets.VBox([], layout=widgets.Layout(margin="4px 0"))
        self.box.add_class("cardlab-move-values")
        self.records: list[dict[str, Any]] = []
        self.heading = ""

    @staticmethod
    def _empty() -> dict[str, Any]:
        return {"data": [], "layout": {"width": FIG_WIDTH, "height": 60}}

    def figure(self, records: Sequence[Mapping[str, Any]], title: str) -> go.Figure:
        """The bars of ``records`` at the panel's width."""
        fig = move_values_figure_from(records, title, self.intervals)
        fig.update_layout(width=FIG_WIDTH, title_font_size=13, margin={"l": 10, "r": 10, "t": 56, "b": 40})
        return fig

    def fill(self, records: Sequence[Mapping[str, Any]], heading: str, title: str, subtitle: str) -> None:
        """Put ``records`` in the words and the figure (the caller then shows the plot: :meth:`reveal`)."""
        self.records = [dict(r) for r in records]
        self.heading = heading
        self.note.value = note_html(heading, "#333")
        self.view.show(figure_json(self.figure(records, title_html(title, subtitle))))

    def reveal(self) -> None:
        if list(self.box.children) != [self.note, self.view]:
            self.box.children = [self.note, self.view]

    def blank(self, note: str) -> None:
        """No values: only ``note`` (nothing at all when it is empty), and an empty figure."""
        self.records = []
        self.heading = note
        if self.view.figure.get("data"):
            self.view.show(self._empty())
        self.note.value = note_html(note, "#666") if note else ""
        wanted = [self.note] if note else []
        if list(self.box.children) != wanted:
            self.box.children = wanted

    def text(self) -> str:
        """What the panel shows, as text."""
        return move_values_text(self.records, self.heading, self.intervals) if self.records else self.heading

    def still_html(self) -> str:
        """What the panel shows, for a still picture ("" when it shows nothing)."""
        if self.records:
            return move_values_html(self.records, self.heading, self.intervals)
        if not self.heading:
            return ""
        return f'<div style="font:11px sans-serif;color:#666;margin:4px 0">{html.escape(self.heading)}</div>'
