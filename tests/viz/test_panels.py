"""The Plotly panels on their own: given numbers, do the figure traces hold exactly those numbers?"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from html.parser import HTMLParser
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest

import cardlab
from cardlab.chance.stats import Estimate, wilson
from cardlab.errors import InvalidInputError
from cardlab.sim.prob import Quantity, panel_quantities
from cardlab.viz import controls
from cardlab.viz.panels import (
    FIG_WIDTH,
    LABEL_PX_PER_CHAR,
    MAX_SEATS,
    PANEL_MARGIN_L,
    PANEL_MARGIN_R,
    QuantityPanel,
    WinChart,
    WinPoint,
    bar_text,
    quantity_text,
    seat_label,
    split_quantities,
    wrap_label,
)
from cardlab.viz.plot import PlotView, clean, library


def curve(seat: int, values: list[tuple[int, int]], n: int = 40) -> list[Quantity]:
    """Quantities ``complete_k`` for one seat from (k, successes) pairs."""
    return [Quantity.from_estimate(f"complete_{k}", f"seat {seat} completes within {k} turns", wilson(s, n), seat)
            for k, s in values]


def test_win_chart_draws_each_seat_line_and_its_band() -> None:
    chart = WinChart(2)
    points = [WinPoint(0, (wilson(5, 10), wilson(5, 10))), WinPoint(1, (wilson(8, 10), wilson(2, 10))),
              WinPoint(2, (Estimate(1.0, 1.0, 1.0, 0), Estimate(0.0, 0.0, 0.0, 0)))]
    chart.update(points, "P(win) from the table")
    assert isinstance(chart.fig, go.Figure)
    assert_view_holds_figure(chart)
    assert len(chart.fig.data) == 2 * MAX_SEATS  # made once, for the largest table
    assert chart.fig.layout.title.text == "P(win) from the table"
    for seat in range(2):
        ests = [p.estimates[seat] for p in points]
        assert list(chart.line(seat).x) == [0, 1, 2]
        assert list(chart.line(seat).y) == [e.value for e in ests]
        # the band runs along the upper limits and back along the lower ones
        assert list(chart.band(seat).x) == [0, 1, 2, 2, 1, 0]
        assert list(chart.band(seat).y) == [e.high for e in ests] + [e.low for e in ests][::-1]
        assert chart.band(seat).fill == "toself"
    assert "10 play-outs" in chart.line(0).text[0]
    assert chart.line(0).text[2] == "settled"
    for seat in range(2, MAX_SEATS):  # seats not in play stay empty and out of the legend
        assert list(chart.line(seat).x) == [] and list(chart.band(seat).y) == []
        assert chart.line(seat).showlegend is False
    assert list(chart.fig.layout.xaxis.range) == [-0.5, 2.5], "room beside the first and last points"
    chart.update(points[:1], "P(win) at the deal")
    assert list(chart.fig.layout.xaxis.range) == [-0.5, 1.5], "the deal's point is not on the frame"


def assert_view_holds_figure(chart: WinChart | QuantityPanel) -> None:
    """The page is sent exactly the figure's data and layout (the template travels once, apart)."""
    sent = chart.view.figure
    assert sent["data"] == clean(chart.fig.to_plotly_json()["data"])
    layout = dict(chart.fig.to_plotly_json()["layout"])
    layout.pop("template", None)
    assert sent["layout"] == clean(layout)
    assert chart.view.look["layout"] and chart.view.template == {}, "the page gets plotly's default look once ..."
    assert chart.view.template_key == library().template_key and library().template == chart.view.look, \
        "... per kernel, with the library"
    json.dumps(sent, allow_nan=False)  # the page's JSON parser refuses NaN


def legend(fig: go.Figure) -> list[str]:
    return [t.name for t in fig.data if t.showlegend is not False]


def test_win_chart_follows_the_player_count_without_adding_traces() -> None:
    chart = WinChart(2)
    chart.update([WinPoint(0, (wilson(1, 8), wilson(7, 8)))], "t")
    traces = list(chart.fig.data)
    chart.set_players(4)
    chart.update([WinPoint(0, tuple(wilson(k, 8) for k in range(4)))], "t")
    assert list(chart.fig.data) == traces
    assert legend(chart.fig) == ["seat 0", "seat 1", "seat 2", "seat 3"]
    assert list(chart.line(3).y) == [3 / 8]
    chart.set_players(3)
    chart.update([WinPoint(0, tuple(wilson(k, 8) for k in range(3)))], "t")
    assert legend(chart.fig) == ["seat 0", "seat 1", "seat 2"] and list(chart.line(3).y) == []
    with pytest.raises(InvalidInputError, match="not 7"):
        chart.set_players(7)


def test_split_quantities_finds_curves_and_leaves_unknown_keys_as_bars() -> None:
    exact = Quantity.from_exact("next_card", "next stock card can be placed", Fraction(3, 8))
    odd = Quantity.from_estimate("something_new", "a quantity no panel knows", wilson(3, 9))
    lone = Quantity.from_estimate("round_1", "one point is not a curve", wilson(1, 9), seat=0)
    qs = [exact, *curve(0, [(2, 5), (1, 1)]), *curve(1, [(1, 0), (2, 4)]), odd, lone]
    bars, curves = split_quantities(qs)
    assert bars == [exact, odd, lone]
    assert sorted(curves) == [("complete", 0), ("complete", 1)]
    assert [q.key for q in curves[("complete", 0)]] == ["complete_1", "complete_2"]


def test_quantity_panel_labels_exact_values_and_shows_intervals_of_estimates() -> None:
    panel = QuantityPanel(2)
    exact = Quantity.from_exact("blind_fits", "a face-down card fits the pile", Fraction(5, 12))
    est = Quantity.from_estimate("must_pick_up", "seat 1 picks up on its next turn", wilson(7, 20), seat=1)
    panel.update([exact, est], "Chances at move 3")
    fig = panel.fig
    assert list(panel.exact_bars.y) == ["a face-down card fits<br>the pile"], "wrapped at 24 characters a line"
    assert list(panel.exact_bars.x) == [5 / 12]
    assert panel.exact_bars.text == ("5/12 = 0.417 (exact)",)
    # the words beside each bar, right of its interval
    assert list(panel.words.y) == ["a face-down card fits<br>the pile", "seat 1 picks up on its<br>next turn"]
    assert list(panel.words.text) == ["5/12 = 0.417 (exact)", bar_text(est)]
    assert list(panel.words.x) == pytest.approx([5 / 12 + 0.02, est.high + 0.02])
    assert list(panel.estimate_bars.x) == [est.value]
    assert list(panel.estimate_bars.error_x.array) == pytest.approx([est.high - est.value])
    assert list(panel.estimate_bars.error_x.arrayminus) == pytest.approx([est.value - est.low])
    assert "20 play-outs" in panel.estimate_bars.text[0]
    # no curve: the curve traces are empty, the bars take the whole height and the curve axes
    # shrink to a corner (a hidden subplot would still paint over the bars)
    assert all(list(panel.curve(seat).x) == [] for seat in range(MAX_SEATS))
    assert legend(fig) == ["exact", "estimate (95% interval)"]
    assert tuple(fig.layout.yaxis.domain) == (0.0, 1.0)
    assert fig.layout.xaxis2.visible is False and fig.layout.yaxis2.domain[1] <= 0.01


def test_a_long_label_wraps_and_leaves_the_curves_their_whole_width() -> None:
    """The margin is shared by the bars and the curves: a long label must not widen it (issue: the curves were
    squeezed into the right third of the figure); the bars make room for it inside their own width."""
    figures = {}
    for text in ("seat 0 wins", "next stock card can be used by seat 1 (the next player)"):
        panel = QuantityPanel(2)
        label = Quantity.from_exact("next_card", text, Fraction(1, 2))
        panel.update([label, *curve(0, [(1, 2), (2, 6)])], "Garbage", "wins within k turns")
        figures[text] = panel.fig.layout
    short, long = figures.values()
    assert long.yaxis.automargin is False and short.margin.l == long.margin.l == PANEL_MARGIN_L
    assert tuple(long.xaxis2.domain) == (0.0, 1.0) and long.xaxis2.visible is True
    assert short.xaxis.domain[0] < long.xaxis.domain[0], "a short label leaves the bars more width"
    lines = list(long.yaxis.categoryarray)[0].split("<br>")
    assert lines == ["next stock card can be", "used by seat 1", "(the next player)"]   # the aside kept whole
    start = long.xaxis.domain[0]
    assert 0.0 < start <= 0.5
    assert PANEL_MARGIN_L + start * (FIG_WIDTH - PANEL_MARGIN_L - PANEL_MARGIN_R) >= 22 * LABEL_PX_PER_CHAR
    assert wrap_label("a" * 30) == "a" * 30, "a word longer than a line stays whole"


def test_quantity_panel_draws_completion_curves_per_seat() -> None:
    panel = QuantityPanel(2)
    exact = Quantity.from_exact("next_card", "next stock card can be placed", Fraction(10, 11))
    qs = [exact, *curve(0, [(1, 0), (2, 3), (3, 9)]), *curve(1, [(1, 2), (2, 6), (3, 12)])]
    panel.update(qs, "Garbage", "completes within k turns")
    assert panel.fig.layout.xaxis2.visible is True
    # the legend under the curves names only the curves; the lower chart has a title of its own
    assert legend(panel.fig) == ["seat 0", "seat 1"]
    assert [a.text for a in panel.fig.layout.annotations] == ["<b>Each seat's chance: completes within k turns</b>"]
    assert panel.fig.layout.yaxis.domain[0] > 0.5
    for seat, counts in ((0, [0, 3, 9]), (1, [2, 6, 12])):
        trace = panel.curve(seat)
        assert list(trace.x) == [1, 2, 3]
        assert list(trace.y) == [c / 40 for c in counts]
        highs = [wilson(c, 40).high - c / 40 for c in counts]
        assert list(trace.error_y.array) == pytest.approx(highs)
    assert list(panel.exact_bars.y) == ["next stock card can be<br>placed"]
    assert list(panel.estimate_bars.y) == []
    # a later update without curves hides the axis again, in place (same figure object)
    fig = panel.fig
    panel.update([exact], "Garbage")
    assert panel.fig is fig and fig.layout.xaxis2.visible is False
    assert list(panel.curve(0).y) == [] and legend(fig) == ["exact", "estimate (95% interval)"]


def test_bar_text_says_settled_when_no_rollout_was_needed() -> None:
    q = Quantity.from_estimate("complete_1", "done", Estimate(1.0, 1.0, 1.0, 0), seat=0)
    assert "settled" in bar_text(q)


@pytest.mark.parametrize("intervals", [True, False])
def test_a_settled_result_prints_no_interval_and_no_play_outs(intervals: bool) -> None:
    """At the game's end a "wins within k turns" line is settled: no brackets, no "(0 play-outs)" (lesson 00's
    steppers, made with ``intervals=False``, print no interval anywhere)."""
    q = Quantity.from_estimate("complete_1", "seat 0 wins within 1 turn", Estimate(0.0, 0.0, 0.0, 0), seat=0)
    assert quantity_text(q, intervals) == "seat 0 wins within 1 turn: 0.000 (settled, no play-outs needed)"


def test_viewpoint_labels_round_trip_and_refuse_unknown_labels() -> None:
    labels = controls.viewpoint_options(3)
    assert labels == ["table", "seat 0", "seat 1", "seat 2", "everything revealed"]
    assert [controls.parse_viewpoint(v, 3) for v in labels] == [(None, False), (0, False), (1, False),
                                                                (2, False), (None, True)]
    assert [controls.viewpoint_code(v, 3) for v in labels] == [0, 1, 2, 3, 0]
    with pytest.raises(InvalidInputError, match="'seat 3' is not one of"):
        controls.parse_viewpoint("seat 3", 3)


def test_each_update_is_one_new_revision_for_the_page() -> None:
    chart = WinChart(2)
    first = chart.view.revision
    chart.update([WinPoint(0, (wilson(1, 8), wilson(7, 8)))], "t")
    assert chart.view.revision == first + 1
    assert_view_holds_figure(chart)
    panel = QuantityPanel(2)
    panel.update([Quantity.from_exact("x", "x", Fraction(1, 2))], "Chances at move 0")
    assert panel.view.revision == 1 and panel.view.figure["layout"]["title"]["text"] == "Chances at move 0"
    assert_view_holds_figure(panel)


def test_a_quantity_that_does_not_apply_shows_its_reason_and_no_bar() -> None:
    panel = QuantityPanel(2)
    na = Quantity.not_applicable("next_draw", "next draw is a 7", "the draw pile is empty")
    est = Quantity.from_estimate("must_pick_up", "seat 1 picks up", wilson(7, 20), seat=1)
    na_curve = Quantity.not_applicable("complete_3", "seat 0 completes within 3 turns", "no turn left", seat=0)
    panel.update([na, est, *curve(0, [(1, 2), (2, 5)]), na_curve], "Chances at move 9")
    assert list(panel.exact_bars.y) == [] and list(panel.estimate_bars.y) == ["seat 1 picks up"]
    assert "next draw is a 7" in list(panel.words.y)
    words = dict(zip(panel.words.y, panel.words.text, strict=True))
    assert words["next draw is a 7"] == "not applicable: the draw pile is empty"
    assert bar_text(na) == "not applicable: the draw pile is empty"
    assert list(panel.curve(0).x) == [1, 2], "a point that does not apply is left off the curve"
    assert all(not (isinstance(v, float) and math.isnan(v)) for v in panel.words.x)
    assert_view_holds_figure(panel)


def test_clean_replaces_every_nan_and_infinity_for_json() -> None:
    data = {"a": [1.0, float("nan"), (float("inf"), 2)], "b": {"c": float("-inf")}, "d": "nan"}
    assert clean(data) == {"a": [1.0, None, [None, 2]], "b": {"c": None}, "d": "nan"}


class _Sources(HTMLParser):
    """The plot sources in a piece of HTML, read as a browser's parser reads them (script text is raw)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[dict[str, str | None], str]] = []
        self._attrs: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self._attrs = dict(attrs)
            self.found.append((self._attrs, ""))

    def handle_data(self, data: str) -> None:
        if self._attrs is not None:
            attrs, text = self.found[-1]
            self.found[-1] = (attrs, text + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._attrs = None


def sources(html: str) -> list[tuple[dict[str, str | None], Any]]:
    parser = _Sources()
    parser.feed(html)
    parser.close()
    return [(attrs, json.loads(text)) for attrs, text in parser.found]


def test_plot_view_reports_and_redraws() -> None:
    view = PlotView({"data": [], "layout": {"width": 100}})
    view.show({"data": [{"type": "bar", "x": [float("nan")]}], "layout": {}})
    assert view.figure["data"][0]["x"] == [None] and view.revision == 1 and not view.is_drawn
    library().receive({"plot": view.plot_key, "drawn": 1, "error": ""})   # what the page sends after drawing 1
    assert view.is_drawn
    library().receive({"plot": view.plot_key, "drawn": None, "error": "the plot could not be drawn: boom"})
    assert view.error == "the plot could not be drawn: boom" and view.drawn == 1
    view.draw_again()
    assert view.error == "" and view.redraw == 1
    [(attrs, payload)] = sources(view.value)
    assert attrs["data-redraw"] == "1" and attrs["data-revision"] == "1"
    view.close()


def test_a_plot_source_holds_exactly_the_figure_and_names_its_hub() -> None:
    text = "</script><script>alert(1)</script> & <!-- 'quotes' \"too\""
    fig = {"data": [{"type": "bar", "x": [1.5, None], "name": text}], "layout": {"title": {"text": text}}}
    view = PlotView(fig)
    assert not hasattr(view, "_esm"), "a plot is a plain HTML widget: only the hub is an anywidget model"
    [(attrs, payload)] = sources(view.value)
    assert payload == {"data": fig["data"], "layout": fig["layout"]}, "no text of a figure ends its source early"
    assert attrs["type"] == "application/json" and attrs["class"] == "cardlab-plot-source"
    assert (attrs["data-hub"], attrs["data-plot"], attrs["data-revision"]) == (library().key, view.plot_key, "0")
    other = PlotView({"data": [], "layout": {}})
    assert other.plot_key != view.plot_key
    view.close()
    other.close()


@pytest.mark.parametrize("report", [None, [], "drawn", {"drawn": 1}, {"plot": 3, "drawn": 1},
                                    {"plot": "no such plot", "drawn": 1},
                                    {"plot": "KEY", "drawn": True}, {"plot": "KEY", "drawn": -1},
                                    {"plot": "KEY", "drawn": "1"}, {"plot": "KEY", "error": 7}])
def test_the_hub_ignores_a_malformed_report(report: Any) -> None:
    view = PlotView({"data": [], "layout": {}})
    if isinstance(report, dict) and report.get("plot") == "KEY":
        report = dict(report, plot=view.plot_key)
    library().receive(report)
    assert (view.drawn, view.error) == (-1, "")
    view.close()


def test_a_plot_with_another_template_carries_its_own() -> None:
    other = {"layout": {"paper_bgcolor": "#123456"}}
    view = PlotView({"data": [], "layout": {}}, other)
    assert view.template == other and view.template_key == "" and view.look == other
    plain = PlotView({"data": [], "layout": {}}, library().template)
    assert plain.template == {} and plain.template_key == library().template_key
    bare = PlotView({"data": [], "layout": {}})            # no template: the kernel's default look
    empty = PlotView({"data": [], "layout": {}}, {})        # an empty template: plotly's bare look
    assert bare.look == library().template and empty.look == {}
    # what the page draws with is what ``look`` says: the plot's own template, or the hub's when it names it
    assert sources(view.value)[0][1]["template"] == other
    assert "template" not in sources(plain.value)[0][1] and "template" not in sources(bare.value)[0][1]
    assert sources(empty.value)[0][1]["template"] == {}
    view.show({"data": [], "layout": {}})
    assert sources(view.value)[0][1]["template"] == other, "a new picture keeps the plot's own look"
    for v in (view, plain, bare, empty):
        v.close()


@pytest.mark.parametrize("name", cardlab.game_names())
def test_each_registered_game_s_questions_fill_the_panel(name: str) -> None:
    """Every registered game (the toy game of ``tests/toy_game.py`` too): the questions its spec registers,
    asked a few moves into a seeded game, fill a panel: each exact answer is an exact bar with its value, each
    estimate (curves aside) an estimate bar with its interval, each question that does not apply its reason."""
    g = cardlab.new_game(name, players=2, seed=5)
    rng = np.random.default_rng(5)
    qs_seen: list[Quantity] = []
    for _ in range(6):
        if g.is_over:
            break
        qs = panel_quantities(g, None, rng=np.random.default_rng(1), rollouts=6)
        assert qs, f"{name} registers no question"
        panel = QuantityPanel(g.players)
        panel.update(qs, f"{g.title} at move {g.move_count}")
        bars, curves = split_quantities(qs)
        exact = [q for q in bars if q.is_exact]
        estimates = [q for q in bars if q.is_applicable and not q.is_exact]
        assert list(panel.exact_bars.y) == [wrap_label(seat_label(q)) for q in exact]
        assert list(panel.exact_bars.x) == [float(q.exact) for q in exact if q.exact is not None]
        assert list(panel.estimate_bars.y) == [wrap_label(seat_label(q)) for q in estimates]
        assert list(panel.estimate_bars.error_x.array) == pytest.approx([q.high - q.value for q in estimates])
        assert list(panel.words.text) == [bar_text(q) for q in bars]
        for q in bars:
            if not q.is_applicable:
                assert q.reason and q.reason in bar_text(q)
        assert_view_holds_figure(panel)
        qs_seen += qs
        legal = g.legal_moves()
        g.play(legal[int(rng.integers(len(legal)))])
    assert any(q.is_exact for q in qs_seen) and any(q.is_applicable and not q.is_exact for q in qs_seen)
