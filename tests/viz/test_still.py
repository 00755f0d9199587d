"""Still pictures of plotly figures for static pages: points land where the axes put them."""

from __future__ import annotations

import re

import numpy as np
import plotly.graph_objects as go

from cardlab.viz.panels import figure_json, figure_view
from cardlab.viz.still import BEGIN, END, PAD_B, PAD_L, PAD_R, PAD_T, H, W, figure_svg, values


def _polyline(svg: str) -> list[tuple[float, float]]:
    pts = re.search(r'<polyline points="([^"]+)"', svg)
    assert pts is not None
    return [(float(a), float(b)) for a, b in (p.split(",") for p in pts.group(1).split())]


def test_typed_arrays_are_decoded() -> None:
    fig = go.Figure(go.Scatter(x=np.array([1, 2, 3]), y=np.array([0.5, 0.25, 0.125])))
    data = figure_json(fig)["data"][0]
    assert values(data["x"]) == [1.0, 2.0, 3.0] and values(data["y"]) == [0.5, 0.25, 0.125]


def test_a_log_axis_puts_10_halfway_between_1_and_100() -> None:
    fig = go.Figure(go.Scatter(x=[1, 10, 100], y=[0, 0.5, 1], mode="lines"),
                    layout={"xaxis": {"type": "log"}, "yaxis": {"range": [0, 1]}})
    (x0, y0), (x1, y1), (x2, y2) = _polyline(figure_svg(figure_json(fig)))
    assert (x0, x2) == (PAD_L, W - PAD_R)
    assert abs(x1 - (x0 + x2) / 2) < 0.1          # a linear axis would put it at 9/99 of the way
    assert (y0, y2) == (H - PAD_B, PAD_T) and abs(y1 - (y0 + y2) / 2) < 0.1


def test_bars_have_lengths_in_proportion_and_error_bars() -> None:
    fig = go.Figure(go.Bar(y=["a", "b"], x=[0.2, 0.6], orientation="h", error_x={"array": [0.05, 0.1]}),
                    layout={"xaxis": {"range": [0, 1]}})
    svg = figure_svg(figure_json(fig))
    widths = [float(w) for w in re.findall(r'<rect x="[^"]+" y="[^"]+" width="([^"]+)" height', svg)]
    plot_width = W - PAD_L - PAD_R
    assert [round(w / plot_width, 3) for w in widths[-2:]] == [0.2, 0.6]
    assert svg.count("<line ") == 2


def test_unknown_traces_are_left_out_and_a_view_carries_the_still() -> None:
    fig = go.Figure([go.Pie(values=[1, 2]), go.Scatter(x=[0, 1], y=[0, 1], name="line")], layout={"title": "T"})
    svg = figure_svg(figure_json(fig))
    assert "<polyline" in svg and ">line<" in svg and ">T<" in svg
    bundle = figure_view(fig)._repr_mimebundle_()
    assert bundle["text/plain"] == "PlotView('T')"
    assert bundle["text/html"].startswith(BEGIN) and bundle["text/html"].endswith(END)
    assert "application/vnd.jupyter.widget-view+json" in bundle


def _circles(svg: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r'<circle cx="([^"]+)" cy="([^"]+)"', svg)]


def test_markers_at_the_extremes_stay_inside_the_frame() -> None:
    fig = go.Figure(go.Scatter(x=[1, 2, 3, 4], y=[0.77, 0.64, 0.5, 0.52], mode="lines+markers"))
    points = _circles(figure_svg(figure_json(fig)))
    assert len(points) == 4
    for cx, cy in points:   # a marker on the frame would be cut in half by the clip
        assert PAD_L + 3 <= cx <= W - PAD_R - 3 and PAD_T + 3 <= cy <= H - PAD_B - 3


def test_a_scatter_without_mode_draws_markers_only_when_plotly_would() -> None:
    few = go.Figure(go.Scatter(x=list(range(5)), y=[0.1] * 5))
    many = go.Figure(go.Scatter(x=list(range(300)), y=np.linspace(0, 1, 300)))
    assert len(_circles(figure_svg(figure_json(few)))) == 5
    svg = figure_svg(figure_json(many))
    assert _circles(svg) == [] and "<polyline" in svg
    (x0, _), *_, (x1, _) = _polyline(svg)
    assert (x0, x1) == (PAD_L, W - PAD_R)     # lines alone: the axis ends at the data, as in plotly


def test_a_long_legend_name_is_wrapped_not_cut() -> None:
    fig = go.Figure(go.Scatter(x=[1, 2], y=[0, 1], mode="lines", name="share of simulated deals"))
    svg = figure_svg(figure_json(fig))
    lines = re.findall(r"<tspan [^>]*>([^<]*)</tspan>", svg)
    assert " ".join(lines) == "share of simulated deals"
    assert all(len(line) <= 20 for line in lines)


def test_error_bars_of_grouped_bars_stand_on_their_own_bar() -> None:
    fig = go.Figure([go.Bar(x=[1, 2], y=[0.2, 0.4], error_y={"array": [0.05, 0.05]}, name="a"),
                     go.Bar(x=[1, 2], y=[0.3, 0.1], error_y={"array": [0.05, 0.05]}, name="b")],
                    layout={"barmode": "group", "yaxis": {"range": [0, 1]}})
    svg = figure_svg(figure_json(fig)).split("<g clip-path")[1].split("</g>")[0]   # the plot, not the legend
    bars = [(float(x) + float(w) / 2, float(y)) for x, y, w in
            re.findall(r'<rect x="([^"]+)" y="([^"]+)" width="([^"]+)" height="[^"]+" fill="#', svg)]
    lines = [(float(x1), float(y1), float(y2)) for x1, y1, y2 in
             re.findall(r'<line x1="([^"]+)" y1="([^"]+)" x2="[^"]+" y2="([^"]+)"', svg)]
    assert len(bars) == len(lines) == 4
    for (centre, top), (x, y_low, y_high) in zip(bars, lines, strict=True):
        assert abs(x - centre) < 0.2 and y_high < top < y_low   # on the bar's middle, around its top


def test_bars_at_numbers_are_whole_at_both_ends_of_the_axis() -> None:
    fig = go.Figure(go.Bar(x=[6, 8, 17], y=[0.2, 0.4, 0.1]), layout={"yaxis": {"range": [0, 1]}})
    svg = figure_svg(figure_json(fig)).split("<g clip-path")[1].split("</g>")[0]
    rects = [(float(x), float(w)) for x, w in re.findall(r'<rect x="([^"]+)" y="[^"]+" width="([^"]+)"', svg)]
    assert len(rects) == 3
    assert all(PAD_L <= x and x + w <= W - PAD_R for x, w in rects)   # no bar half outside the frame


def test_a_bar_trace_with_one_bar_is_as_wide_as_the_others() -> None:
    fig = go.Figure([go.Bar(x=[6, 8, 9], y=[0.2, 0.4, 0.1]), go.Bar(x=[17], y=[0.1])],
                    layout={"yaxis": {"range": [0, 1]}, "barmode": "group"})
    svg = figure_svg(figure_json(fig)).split("<g clip-path")[1].split("</g>")[0]
    widths = {round(float(w), 1) for w in re.findall(r'<rect x="[^"]+" y="[^"]+" width="([^"]+)"', svg)}
    assert len(widths) == 1
