"""The Plotly panels beside the table: plain figures, drawn in the page by a small plot widget.

Win-probability chart
---------------------
One line per seat: P(win) against the move number, each point an anytime Monte Carlo estimate
(greedy play by every seat from the resampled position). The shaded band is the Wilson 95%
interval of that estimate; a settled game has a band of width zero.

Without intervals
-----------------
``intervals=False`` (``cardlab.Stepper(..., intervals=False)``, for a lesson that comes before intervals are
taught) draws every estimate as its value alone: no band on the win chart, no error bar on the panel, and words
that give the value and its number of play-outs (:func:`bar_text`, :func:`quantity_text`).

Per-game panel
--------------
Any list of :class:`~cardlab.sim.prob.Quantity` is drawn as horizontal bars: an exact value (a
fraction counted from the unseen cards) is a solid bar labelled "exact"; an estimate gets its 95%
interval as an error bar and its rollout count. Quantities whose keys end in ``_<k>`` and belong to
a seat (Garbage's ``complete_1`` … ``complete_5``) are drawn instead as one curve per seat against
k, on a second axis; when there are none that axis is hidden and the bars take the whole width.
A quantity that does not apply in this position (``Quantity.not_applicable``) gets no bar and no
point: its row shows its reason ("not applicable: …"), never a bar of length 0.

A question's label is wrapped at :data:`LABEL_CHARS` characters a line (:func:`wrap_label`), and the bars
make room for the longest line inside the figure's plotting width, instead of widening the figure's left
margin: the margin is shared by both charts, so a long label ("next stock card can be used by seat 1 (the
next player)") would otherwise squeeze the curves into the right third of the figure.

How a figure reaches the page
-----------------------------
Each panel keeps its picture in a plain ``go.Figure`` (validated by plotly, never displayed) and sends
it as JSON to a :class:`~cardlab.viz.plot.PlotView`, which draws it in the page with plotly.js loaded
once per page (see :mod:`cardlab.viz.plot`). Titles are two short lines (what, then from whose view),
so no title is cut off at the figure's width.

The figures know nothing of the game: they are given numbers and draw them.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from cardlab.chance.stats import Estimate
from cardlab.errors import InvalidInputError
from cardlab.sim.prob import Quantity
from cardlab.viz.estimates import WinPoint
from cardlab.viz.plot import PlotView, default_template

__all__ = ["WinPoint"]

SEAT_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf")
EXACT_COLOUR = "#2e7d32"
ESTIMATE_COLOUR = "#5c6bc0"
CURVE_KEY = re.compile(r"^(?P<stem>.+)_(?P<k>\d+)$")
FIG_WIDTH = 400   # with the table (at least 400 px) beside it, both fit a projector's 1024 px (issue 34)
WIN_HEIGHT, PANEL_HEIGHT = 260, 380   # the two charts stacked fit under a projector's 768 px with the page's bars
BAR_RANGE = 1.75  # room right of the bars for their words; the ticks stop at 1
CURVE_OFFSET = 3  # index of seat 0's curve in the panel's traces
MAX_SEATS = 6     # the most seats any game has; every figure holds traces for this many
LABEL_CHARS = 24  # the longest line of a question's label on the panel
LABEL_PX_PER_CHAR = 6.6   # the width of a character of plotly's 12 px tick labels, on average (a little more)
PANEL_MARGIN_L, PANEL_MARGIN_R = 50, 10   # room for the curves' axis title and ticks; the words need none


def seat_colour(seat: int, alpha: float | None = None) -> str:
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    if alpha is None:
        return colour
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


class _Writer:
    """Sets figure properties only when their value changes.

    Every property write on a figure is validated, which costs far
    more than the comparison; most of the layout stays the same from one move to the next.
    """

    def __init__(self, fig: go.Figure) -> None:
        self.fig = fig
        self.last: dict[tuple[int, str], Any] = {}

    def forget(self) -> None:
        self.last.clear()

    def trace(self, index: int, **props: Any) -> None:
        for name, value in props.items():
            key = (index, name)
            if self.last.get(key, _UNSET) != value:
                self.fig.data[index][name] = value
                self.last[key] = value

    def layout(self, **props: Any) -> None:
        for name, value in props.items():
            key = (-1, name)
            if self.last.get(key, _UNSET) != value:
                self.fig.layout[name] = value
                self.last[key] = value


_UNSET = object()


def title_html(title: str, subtitle: str = "") -> str:
    """A figure title: ``title`` on the first line, ``subtitle`` (whose view, say) smaller below it."""
    return title if not subtitle else f"{title}<br><span style='font-size:11px'>{subtitle}</span>"


def figure_json(fig: go.Figure) -> dict[str, Any]:
    """A figure as the page receives it: data and layout (the template travels once, apart)."""
    out = fig.to_plotly_json()
    layout = dict(out["layout"])
    layout.pop("template", None)
    return {"data": out["data"], "layout": layout}


def figure_view(fig: go.Figure) -> PlotView:
    """A plot widget that draws ``fig`` with the page's one copy of plotly.js.

    Use it instead of ``go.FigureWidget``, which sends the whole plotly.js bundle (about 5 MB) with every
    figure: ``display(figure_view(fig))``. Call ``view.show(figure_json(fig))`` to redraw after a change.
    """
    return PlotView(figure_json(fig), default_template())


class _Panel:
    """A figure kept up to date through a :class:`_Writer` and drawn in the page by a :class:`PlotView`."""

    fig: go.Figure
    _write: _Writer
    view: PlotView

    def _start(self) -> None:
        self._write = _Writer(self.fig)
        self.view = PlotView(self.figure_json(), default_template())

    def figure_json(self) -> dict[str, Any]:
        """The figure as the page receives it (data and layout; the template travels once, apart)."""
        return figure_json(self.fig)

    def send(self) -> None:
        self.view.show(self.figure_json())



class WinChart(_Panel):
    """P(win) per seat against the move number, with shaded 95% bands (none with ``intervals=False``).

    Traces for ``MAX_SEATS`` seats are made once (band 2k, line 2k+1) and never added or removed:
    a browser view applies each change as a delta, and adding or deleting traces while other
    changes are in flight can leave a view out of step. Seats not in play are empty and unlisted.
    """

    def __init__(self, players: int, intervals: bool = True) -> None:
        self.intervals = intervals
        self.fig = go.Figure(layout=go.Layout(
            template=go.layout.Template(),
            title={"text": "P(win) by move", "font": {"size": 14}},
            width=FIG_WIDTH, height=WIN_HEIGHT, margin={"l": 50, "r": 10, "t": 56, "b": 40},
            xaxis={"title": {"text": "move"}},
            yaxis={"title": {"text": "P(win)"}, "range": [0, 1.02]},
            legend={"orientation": "h", "y": -0.25}, hovermode="closest", modebar={"orientation": "v"}))
        for seat in range(MAX_SEATS):
            self.fig.add_scatter(x=[], y=[], mode="lines", fill="toself", line={"width": 0},
                                 fillcolor=seat_colour(seat, 0.18), hoverinfo="skip", showlegend=False,
                                 name=f"seat {seat} 95% band", legendgroup=f"seat {seat}")
            self.fig.add_scatter(x=[], y=[], mode="lines+markers", line={"color": seat_colour(seat)},
                                 marker={"size": 5}, name=f"seat {seat}", legendgroup=f"seat {seat}",
                                 hovertemplate="move %{x}<br>P(win) %{y:.3f}<br>%{text}<extra>%{fullData.name}"
                                               "</extra>")
        self.players = players
        self._start()

    def set_players(self, players: int) -> None:
        if not 1 <= players <= MAX_SEATS:
            raise InvalidInputError(f"the win chart draws 1 to {MAX_SEATS} seats, not {players}")
        self.players = players

    def band(self, seat: int) -> go.Scatter:
        return self.fig.data[2 * seat]

    def line(self, seat: int) -> go.Scatter:
        return self.fig.data[2 * seat + 1]

    def update(self, points: Sequence[WinPoint], title: str) -> None:
        moves = [p.move for p in points]
        last = max(moves, default=0)
        with self.fig.batch_update():
            # half a move of room on each side, so the first and last points are not cut by the frame
            # whole moves only: while few moves are played, plotly would put ticks at half moves
            self._write.layout(**{"title.text": title, "xaxis.range": [-0.5, max(last, 1) + 0.5],
                                  "xaxis.dtick": 1 if last <= 10 else None})
            for seat in range(MAX_SEATS):
                if seat >= self.players:
                    self._write.trace(2 * seat, x=[], y=[])
                    self._write.trace(2 * seat + 1, x=[], y=[], text=[], showlegend=False)
                    continue
                ests = [p.estimates[seat] for p in points]
                lows = [e.low for e in ests]
                highs = [e.high for e in ests]
                if self.intervals:
                    self._write.trace(2 * seat, x=moves + moves[::-1], y=highs + lows[::-1])
                else:   # the band stays empty
                    self._write.trace(2 * seat, x=[], y=[])
                self._write.trace(2 * seat + 1, x=moves, y=[e.value for e in ests],
                                  text=[_interval_words(e, self.intervals) for e in ests], showlegend=True)
        self.send()


def _interval_words(est: Estimate, intervals: bool = True) -> str:
    if est.n == 0:
        return "settled"
    if not intervals:
        return f"{est.n} play-outs"
    return f"95% [{est.low:.3f}, {est.high:.3f}], {est.n} play-outs"


def wrap_label(label: str, width: int = LABEL_CHARS) -> str:
    """A question's label in lines of at most ``width`` characters (joined by ``<br>``; a longer word stays
    whole, and a short aside in brackets, such as "(the next player)", stays on one line)."""
    kept = re.sub(r"\(([^()]{1,"+ str(width) + r"})\)", lambda m: m.group(0).replace(" ", "\u00a0"), label)
    lines = textwrap.wrap(kept, width, break_long_words=False, break_on_hyphens=False)
    return "<br>".join(line.replace("\u00a0", " ") for line in lines) or label


def seat_label(q: Quantity) -> str:
    """A question's label naming its seat: a question about one seat whose label does not say which (Spite and
    Malice's "payoff card played this turn with greedy play") gets "seat k: " in front, as the status line names
    seats."""
    if q.seat is None or re.search(r"\bseats?\b", q.label):
        return q.label
    return f"seat {q.seat}: {q.label}"


def label_room(labels: Sequence[str]) -> float:
    """Where the bars start, as a fraction of the plotting width: room for the longest line of the wrapped
    ``labels`` left of them (beyond the margin, which the curves' axis also uses)."""
    longest = max((len(line) for label in labels for line in label.split("<br>")), default=0)
    need = longest * LABEL_PX_PER_CHAR + 12 - PANEL_MARGIN_L   # 12: the gap between a label and its bar
    return round(min(0.5, max(0.0, need / (FIG_WIDTH - PANEL_MARGIN_L - PANEL_MARGIN_R))), 3)


def split_quantities(quantities: Sequence[Quantity]) -> tuple[list[Quantity], dict[tuple[str, int], list[Quantity]]]:
    """Bars and curves: a seat's quantities ``stem_1, stem_2, …`` (two or more) form one curve."""
    groups: dict[tuple[str, int], list[Quantity]] = {}
    for q in quantities:
        m = CURVE_KEY.match(q.key)
        if m is not None and q.seat is not None:
            groups.setdefault((m.group("stem"), q.seat), []).append(q)
    curves = {key: sorted(qs, key=_curve_k) for key, qs in groups.items() if len(qs) >= 2}
    in_curve = {id(q) for qs in curves.values() for q in qs}
    bars = [q for q in quantities if id(q) not in in_curve]
    return bars, curves


def _curve_k(q: Quantity) -> int:
    m = CURVE_KEY.match(q.key)
    assert m is not None
    return int(m.group("k"))


def bar_text(q: Quantity, intervals: bool = True) -> str:
    """The words printed on a bar: the exact value (as a fraction when it is a short one), or the estimate, its
    interval (unless ``intervals`` is False) and the rollout count (or why the question does not apply here)."""
    if not q.is_applicable:
        return f"not applicable: {q.reason}"
    if q.exact is not None:
        return f"{q.exact_text(3)} (exact)"
    if not q.n:
        return f"{q.value:.3f} (settled: the game is over)"
    if not intervals:
        return f"{q.value:.2f} (estimate), {q.n} play-outs"
    return f"{q.value:.2f} [{q.low:.2f}, {q.high:.2f}], {q.n} play-outs"


def quantity_text(q: Quantity, intervals: bool = True) -> str:
    """A quantity as one line of text: ``str(q)`` (an estimate with its interval), or with ``intervals=False``
    an estimate's value and its play-outs alone; a settled result (known without a play-out, as at the game's
    end) has no interval and no play-out count in either case."""
    if q.is_applicable and q.exact is None and not q.n:     # no play-out was needed: nothing to bracket
        return f"{q.label}: {q.value:.3f} (settled, no play-outs needed)"
    if intervals or not q.is_applicable or q.exact is not None:
        return str(q)
    return f"{q.label}: {q.value:.3f} (estimate, {q.n} play-outs)"


def curve_note(curve_title: str) -> dict[str, Any]:
    """The lower chart's own title, above its curves (the legend below it names the seats' curves)."""
    what = f"Each seat's chance: {curve_title}" if curve_title else "Each seat's chance within k turns"
    return {"text": f"<b>{what}</b>", "xref": "paper", "yref": "paper", "x": 0.0, "xanchor": "left", "y": 0.47,
            "yanchor": "bottom", "showarrow": False, "font": {"size": 12, "color": "#222"}}


def result_note(result: str) -> dict[str, Any]:
    """The panel's words once the game is over: the result, wrapped to the figure, in the middle."""
    text = "<br>".join(textwrap.wrap(result, 52, break_long_words=False)) or result
    return {"text": text, "xref": "paper", "yref": "paper", "x": 0.5, "y": 0.6, "showarrow": False,
            "font": {"size": 15, "color": "#222"}, "align": "center"}


class QuantityPanel(_Panel):
    """The per-game panel.

    Trace 0 holds the exact bars, trace 1 the estimated bars (with their intervals, unless ``intervals`` is False:
    then the error bars are hidden), trace 2 the words
    beside every bar, then one curve per seat (``MAX_SEATS`` of them, made once, as in
    :class:`WinChart`). Bars sit on top and curves below; without curves the curve axes shrink to a
    sliver in a corner (a hidden subplot would still paint its background over the bars) and the bars
    take the whole height.
    """

    def __init__(self, players: int, intervals: bool = True) -> None:
        self.intervals = intervals
        self.fig = make_subplots(rows=2, cols=1, vertical_spacing=0.22)
        self.fig.update_layout(
            template=go.layout.Template(),
            title={"text": "Chances now", "font": {"size": 14}}, width=FIG_WIDTH, height=PANEL_HEIGHT,
            margin={"l": PANEL_MARGIN_L, "r": PANEL_MARGIN_R, "t": 56, "b": 40}, barmode="overlay",
            hovermode="closest",
            legend={"orientation": "h", "y": -0.15}, modebar={"orientation": "v"})
        self.fig.update_xaxes(range=[0, BAR_RANGE], tickvals=[0, 0.25, 0.5, 0.75, 1], row=1, col=1)
        # the labels' room is inside the plotting width (label_room), not in the margin both charts share
        self.fig.update_yaxes(automargin=False, categoryorder="array", row=1, col=1)
        self.fig.update_xaxes(title_text="within k turns", dtick=1, row=2, col=1)
        self.fig.update_yaxes(range=[0, 1.02], title_text="probability", row=2, col=1)
        self.fig.add_bar(x=[], y=[], name="exact", marker={"color": EXACT_COLOUR}, orientation="h",
                         textposition="none", hovertemplate="%{y}: %{text}<extra></extra>", row=1, col=1)
        self.fig.add_bar(x=[], y=[], name="estimate (95% interval)" if intervals else "estimate",
                         marker={"color": ESTIMATE_COLOUR}, orientation="h", textposition="none",
                         hovertemplate="%{y}: %{text}<extra></extra>",
                         error_x={"type": "data", "symmetric": False, "array": [], "arrayminus": [],
                                  "visible": intervals}, row=1, col=1)
        self.fig.add_scatter(x=[], y=[], mode="text", textposition="middle right", textfont={"size": 11},
                             cliponaxis=False, showlegend=False, hoverinfo="skip", name="words", row=1, col=1)
        for seat in range(MAX_SEATS):
            self.fig.add_scatter(x=[], y=[], mode="lines+markers", name=f"seat {seat}",
                                 line={"color": seat_colour(seat)}, showlegend=False,
                                 error_y={"type": "data", "symmetric": False, "array": [], "arrayminus": [],
                                          "visible": intervals},
                                 hovertemplate="k=%{x}: %{y:.3f}<br>%{text}<extra>%{fullData.name}</extra>",
                                 row=2, col=1)
        self.players = players
        self._start()

    @property
    def exact_bars(self) -> go.Bar:
        return self.fig.data[0]

    @property
    def estimate_bars(self) -> go.Bar:
        return self.fig.data[1]

    @property
    def words(self) -> go.Scatter:
        return self.fig.data[2]

    def curve(self, seat: int) -> go.Scatter:
        return self.fig.data[CURVE_OFFSET + seat]

    def set_players(self, players: int) -> None:
        if not 1 <= players <= MAX_SEATS:
            raise InvalidInputError(f"the panel draws curves for 1 to {MAX_SEATS} seats, not {players}")
        self.players = players

    def update(self, quantities: Sequence[Quantity], title: str, curve_title: str = "", result: str = "") -> None:
        """Draw ``quantities``; with nothing to draw and a ``result`` (the game is over: the stepper passes no
        quantities then), the result in words takes the place of the axes."""
        bars, curves = split_quantities(quantities)
        curves = {key: [q for q in qs if q.is_applicable] for key, qs in curves.items()}
        exact = [q for q in bars if q.is_exact and q.is_applicable]
        est = [q for q in bars if not q.is_exact and q.is_applicable]
        has_curves = bool(curves)
        w = self._write
        label = {id(q): wrap_label(seat_label(q)) for q in bars}
        with self.fig.batch_update():
            w.layout(**{"title.text": title, "yaxis.categoryarray": [label[id(q)] for q in bars][::-1],
                        "xaxis.domain": [label_room(list(label.values())), 1.0],
                        "yaxis.domain": [0.62, 1.0] if has_curves else [0.0, 1.0],
                        "xaxis2.domain": [0.0, 1.0] if has_curves else [0.99, 1.0],
                        "yaxis2.domain": [0.0, 0.4] if has_curves else [0.0, 0.01],
                        "xaxis2.visible": has_curves, "yaxis2.visible": has_curves,
                        "xaxis2.title.text": curve_title or "within k turns",
                        "xaxis.visible": bool(bars) or not result, "yaxis.visible": bool(bars) or not result,
                        "plot_bgcolor": "#ffffff" if result and not bars else None,   # no empty grey box
                        "annotations": ([curve_note(curve_title)] if has_curves else [])
                                       + ([] if bars or not result else [result_note(result)])})
            # the legend sits under the lower chart: with curves there it names only the curves' seats (each bar's
            # words say "exact" or give its interval), without curves it explains the bars
            w.trace(0, showlegend=not has_curves)
            w.trace(1, showlegend=not has_curves)
            w.trace(0, y=[label[id(q)] for q in exact], x=[q.value for q in exact],
                    text=[bar_text(q, self.intervals) for q in exact])
            w.trace(1, y=[label[id(q)] for q in est], x=[q.value for q in est],
                    text=[bar_text(q, self.intervals) for q in est],
                    **{"error_x.array": [max(0.0, q.high - q.value) for q in est],
                       "error_x.arrayminus": [max(0.0, q.value - q.low) for q in est]})
            w.trace(2, y=[label[id(q)] for q in bars],
                    x=[(max(q.value, q.high) if self.intervals else q.value) + 0.02 if q.is_applicable else 0.02
                       for q in bars],
                    text=[bar_text(q, self.intervals) for q in bars])
            for seat in range(MAX_SEATS):
                stems = sorted({stem for (stem, s) in curves if s == seat})
                qs = [q for stem in stems for q in curves[(stem, seat)]]
                w.trace(CURVE_OFFSET + seat, x=[_curve_k(q) for q in qs], y=[q.value for q in qs],
                        text=[bar_text(q, self.intervals) for q in qs], showlegend=bool(qs),
                        name=f"seat {seat}" + (f": {', '.join(stems)}" if len(stems) > 1 else ""),
                        **{"error_y.array": [max(0.0, q.high - q.value) for q in qs],
                           "error_y.arrayminus": [max(0.0, q.value - q.low) for q in qs]})
        self.send()
