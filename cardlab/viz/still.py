"""A still picture of a plotly figure, for pages that run no widgets (GitHub, nbviewer, nbconvert's HTML).

A saved notebook keeps no widget state, so a static renderer cannot draw a plot widget; it falls back to the
output's ``text/html``. :func:`figure_svg` draws a figure's traces there as plain SVG, from the same figure
JSON the live plot gets, without plotly.js. It draws what the lessons' charts use: scatter traces (lines,
markers, filled bands, dashes), bar traces (either orientation, with error bars), linear or log axes, the
title and a legend. Anything else is left out of the picture, never drawn wrongly: an unknown trace type is
skipped. The picture is framed by :data:`BEGIN` and :data:`END`, as the stepper's is (``cardlab.viz.snapshot``),
so notebook checks compare the printed numbers instead of the drawing.
"""

from __future__ import annotations

import base64
import html
import itertools
import math
import textwrap
from collections.abc import Sequence
from typing import Any

import numpy as np

BEGIN = "<!-- cardlab-snapshot -->"
END = "<!-- /cardlab-snapshot -->"
"""Still pictures are framed by these comments; notebooks/sanitize.cfg leaves what they hold out of nbval's
comparison (the printed numbers are compared instead)."""

W, H = 640, 340
PAD_L, PAD_R, PAD_T, PAD_B = 56, 150, 34, 44
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
_CLIPS = itertools.count()
DASHES = {"dash": "6,4", "dot": "2,3", "dashdot": "6,3,2,3", "longdash": "10,4"}
MARGIN = 0.05
"""An axis sized from the data leaves this share of its span free at each end when markers are drawn, as plotly's
autorange does, so a marker at the largest value is not cut in half by the frame."""
LEGEND_CHARS = 20
"""A legend entry wraps at this many characters a line (two lines at most) to fit the room right of the plot."""


def values(raw: Any) -> list[Any]:
    """A trace's coordinates as a list: plain lists, or plotly's typed arrays (``{"dtype", "bdata"}``)."""
    if raw is None:
        return []
    if isinstance(raw, dict) and "bdata" in raw:
        out = np.frombuffer(base64.b64decode(raw["bdata"]), dtype=np.dtype(raw["dtype"]))
        return [float(v) for v in out.reshape(-1)]
    if isinstance(raw, (list, tuple)):
        return list(raw)
    if isinstance(raw, np.ndarray):
        return list(raw.reshape(-1).tolist())
    return [raw]


def _number(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        return None
    f = float(v)
    return f if math.isfinite(f) else None


class _Axis:
    """One axis: numbers (linear or log) or categories, mapped to pixels between ``lo_px`` and ``hi_px``."""

    def __init__(self, spec: dict[str, Any], data: list[Any], lo_px: float, hi_px: float, *,
                 margin: float = 0.0) -> None:
        self.log = spec.get("type") == "log"
        self.lo_px, self.hi_px = lo_px, hi_px
        self.title = _text(spec.get("title"))
        self.categories: list[str] = []
        numbers = [n for n in (_number(v) for v in data) if n is not None and (n > 0 or not self.log)]
        if data and len(numbers) < len([v for v in data if v is not None]) and not self.log:
            for v in data:
                if v is not None and str(v) not in self.categories:
                    self.categories.append(str(v))
            self.lo, self.hi = -0.5, len(self.categories) - 0.5
            return
        rng = spec.get("range")
        if isinstance(rng, (list, tuple)) and len(rng) == 2 and all(_number(r) is not None for r in rng):
            lo, hi = float(rng[0]), float(rng[1])   # plotly gives a log axis's range in powers of 10 already
        elif numbers:
            lo, hi = min(numbers), max(numbers)
            lo, hi = (math.log10(lo), math.log10(hi)) if self.log else (lo, hi)
            lo, hi = lo - margin * (hi - lo), hi + margin * (hi - lo)
        else:
            lo, hi = 0.0, 1.0
        if hi <= lo:
            lo, hi = lo - 0.5, hi + 0.5
        self.lo, self.hi = lo, hi

    def px(self, v: Any) -> float | None:
        if self.categories:
            return self._scale(float(self.categories.index(str(v)))) if str(v) in self.categories else None
        n = _number(v)
        if n is None or (self.log and n <= 0):
            return None
        return self._scale(math.log10(n) if self.log else n)

    def length(self, d: float) -> float:
        """The pixels that ``d`` units of a linear axis span."""
        return abs(self._scale(d) - self._scale(0.0))

    def _scale(self, t: float) -> float:
        return self.lo_px + (t - self.lo) / (self.hi - self.lo) * (self.hi_px - self.lo_px)

    def ticks(self) -> list[tuple[float, str]]:
        if self.categories:
            return [(self._scale(float(i)), c) for i, c in enumerate(self.categories)]
        if self.log:
            return [(self._scale(float(k)), f"{10 ** k:g}") for k in range(math.ceil(self.lo), math.floor(self.hi) + 1)]
        step = 10 ** math.floor(math.log10((self.hi - self.lo) / 4))
        step *= next(m for m in (1, 2, 5, 10) if (self.hi - self.lo) / (step * m) <= 6)
        first = math.ceil(self.lo / step)
        return [(self._scale(k * step), f"{k * step:.6g}") for k in range(first, math.floor(self.hi / step) + 1)]


def _text(title: Any) -> str:
    if isinstance(title, dict):
        return str(title.get("text") or "")
    return "" if title is None else str(title)


def _errors(trace: dict[str, Any], key: str, n: int) -> tuple[list[Any], list[Any]]:
    spec = trace.get(key) or {}
    plus = values(spec.get("array"))
    minus = values(spec.get("arrayminus")) or plus
    return (plus + [None] * n)[:n], (minus + [None] * n)[:n]


def figure_svg(figure: dict[str, Any]) -> str:
    """The figure's traces as one SVG picture (module docstring: what is drawn, and what is left out)."""
    layout = figure.get("layout") or {}
    traces = [t for t in figure.get("data") or [] if t.get("type", "scatter") in ("scatter", "scattergl", "bar")]
    xs = [v for t in traces for v in values(t.get("x"))]
    ys = [v for t in traces for v in values(t.get("y"))]
    for t in traces:   # error bars widen their axis
        for key, coords, bucket in (("error_x", "x", xs), ("error_y", "y", ys)):
            centres = values(t.get(coords))
            plus, minus = _errors(t, key, len(centres))
            for v, p, m in zip(centres, plus, minus, strict=True):
                if _number(v) is not None and _number(p) is not None and _number(m) is not None:
                    bucket += [v + p, v - m]
    if any(t.get("type") == "bar" for t in traces):   # bars start at 0
        horizontal = any(t.get("orientation") == "h" for t in traces)
        (xs if horizontal else ys).append(0.0)
        (ys if horizontal else xs).extend(_bar_ends(traces, "y" if horizontal else "x"))
    left = PAD_L
    ycats = _Axis(layout.get("yaxis") or {}, ys, 0, 1).categories
    if ycats:   # room for the category names, up to 28 characters
        left = max(PAD_L, min(28, max(len(c) for c in ycats)) * 6 + 12)
    margin = MARGIN if any(t.get("type") != "bar" and "markers" in _mode(t) for t in traces) else 0.0
    xaxis = _Axis(layout.get("xaxis") or {}, xs, left, W - PAD_R, margin=margin)
    yaxis = _Axis(layout.get("yaxis") or {}, ys, H - PAD_B, PAD_T, margin=margin)
    title = _text(layout.get("title"))
    clip = f"cardlab-clip-{next(_CLIPS)}"   # unique in the page: several pictures share one document
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" role="img" '
           f'aria-label="{html.escape(title or "chart")}" style="font:11px sans-serif;background:#fff">',
           f'<text x="{W / 2}" y="16" text-anchor="middle" font-size="13">{html.escape(title)}</text>',
           f'<clipPath id="{clip}"><rect x="{left}" y="{PAD_T}" width="{W - left - PAD_R}" '
           f'height="{H - PAD_T - PAD_B}"/></clipPath>',
           f'<rect x="{left}" y="{PAD_T}" width="{W - left - PAD_R}" height="{H - PAD_T - PAD_B}" '
           'fill="none" stroke="#ccc"/>']
    for px, label in xaxis.ticks():
        out.append(f'<text x="{px:.1f}" y="{H - PAD_B + 14}" text-anchor="middle">{html.escape(label)}</text>')
    for px, label in yaxis.ticks():
        out.append(f'<text x="{left - 4}" y="{px + 4:.1f}" text-anchor="end">{html.escape(label[:28])}</text>')
    out.append(f'<text x="{(left + W - PAD_R) / 2}" y="{H - 8}" text-anchor="middle">'
               f"{html.escape(xaxis.title)}</text>")
    out.append(f'<text x="12" y="{(PAD_T + H - PAD_B) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 12 {(PAD_T + H - PAD_B) / 2})">{html.escape(yaxis.title)}</text>')
    legend: list[tuple[str, str]] = []
    bars = [t for t in traces if t.get("type") == "bar"]
    spacing = _bar_places(bars, "y" if any(t.get("orientation") == "h" for t in bars) else "x")[1]
    out.append(f'<g clip-path="url(#{clip})">')
    for i, t in enumerate(traces):
        colour = _colour(t, i)
        if t.get("type") == "bar":
            out += _bars(t, bars.index(t), len(bars), xaxis, yaxis, colour, spacing)
        else:
            out += _scatter(t, xaxis, yaxis, colour)
    out.append("</g>")
    for i, t in enumerate(traces):
        colour = _colour(t, i)
        if t.get("name") and t.get("showlegend", True) is not False:
            legend.append((str(t["name"]), colour))
    y = PAD_T + 10
    for name, colour in legend[:12]:
        lines = _legend_lines(name)
        out.append(f'<rect x="{W - PAD_R + 8}" y="{y - 8}" width="12" height="8" fill="{colour}"/>'
                   f'<text x="{W - PAD_R + 24}" y="{y}">'
                   + "".join(f'<tspan x="{W - PAD_R + 24}" dy="{0 if i == 0 else 13}">{html.escape(line)}</tspan>'
                             for i, line in enumerate(lines)) + "</text>")
        y += 16 + 13 * (len(lines) - 1)
    out.append("</svg>")
    return "".join(out)


def _bar_places(traces: list[dict[str, Any]], key: str) -> tuple[list[float], float]:
    """The numeric places of all bars on their category axis, and their smallest spacing (1 for a single place),
    which every bar trace shares, as in plotly. No places for named categories."""
    raw = [v for t in traces if t.get("type") == "bar" for v in values(t.get(key)) if v is not None]
    numbers = [_number(v) for v in raw]
    places = sorted({n for n in numbers if n is not None})
    if not places or None in numbers:
        return [], 1.0
    return places, min((b - a for a, b in zip(places, places[1:], strict=False)), default=1.0)


def _bar_ends(traces: list[dict[str, Any]], key: str) -> list[float]:
    """Where bars at numeric places reach on their category axis: half the spacing beyond the first and last
    place (plotly's autorange keeps whole bars in view). Nothing for named categories."""
    places, spacing = _bar_places(traces, key)
    return [places[0] - spacing / 2, places[-1] + spacing / 2] if places else []


def _legend_lines(name: str) -> list[str]:
    """A legend entry in lines of at most :data:`LEGEND_CHARS` characters, two at most (the rest cut with "…")."""
    lines = textwrap.wrap(name, LEGEND_CHARS, break_long_words=True) or [""]
    if len(lines) > 2:
        lines = [lines[0], lines[1][:LEGEND_CHARS - 1] + "…"]
    return lines


def _mode(trace: dict[str, Any]) -> str:
    """What a scatter trace draws; plotly's default is lines and markers under 20 points, else lines alone."""
    mode = trace.get("mode")
    if mode:
        return str(mode)
    return "lines+markers" if len(values(trace.get("y"))) < 20 else "lines"


def _colour(trace: dict[str, Any], i: int) -> str:
    for key in ("line", "marker"):
        c = (trace.get(key) or {}).get("color")
        if isinstance(c, str):
            return html.escape(c)
    c = trace.get("fillcolor")
    return html.escape(c) if isinstance(c, str) else COLOURS[i % len(COLOURS)]


def _points(trace: dict[str, Any], xaxis: _Axis, yaxis: _Axis) -> list[tuple[float, float] | None]:
    x, y = values(trace.get("x")), values(trace.get("y"))
    if not x:
        x = list(range(len(y)))
    pts: list[tuple[float, float] | None] = []
    for a, b in zip(x, y, strict=False):
        px, py = xaxis.px(a), yaxis.px(b)
        pts.append(None if px is None or py is None else (px, py))
    return pts


def _scatter(trace: dict[str, Any], xaxis: _Axis, yaxis: _Axis, colour: str) -> list[str]:
    pts = _points(trace, xaxis, yaxis)
    line = trace.get("line") or {}
    mode = _mode(trace)
    out: list[str] = []
    if trace.get("fill") == "toself":
        ring = " ".join(f"{p[0]:.1f},{p[1]:.1f}" for p in pts if p is not None)
        fill = html.escape(str(trace.get("fillcolor") or colour))
        out.append(f'<polygon points="{ring}" fill="{fill}" stroke="none" opacity="{trace.get("opacity", 1)}"/>')
        return out
    if "lines" in mode and (line.get("width") is None or line.get("width", 1) > 0):
        dash = DASHES.get(str(line.get("dash")), "")
        for run in _runs(pts):
            poly = " ".join(f"{a:.1f},{b:.1f}" for a, b in run)
            out.append(f'<polyline points="{poly}" fill="none" stroke="{colour}" stroke-width="{line.get("width", 2)}"'
                       + (f' stroke-dasharray="{dash}"' if dash else "") + f' opacity="{trace.get("opacity", 1)}"/>')
    if "markers" in mode:
        out += [f'<circle cx="{p[0]:.1f}" cy="{p[1]:.1f}" r="3" fill="{colour}"/>' for p in pts if p is not None]
    out += _error_bars(trace, xaxis, yaxis, colour)
    return out


def _runs(pts: Sequence[tuple[float, float] | None]) -> list[list[tuple[float, float]]]:
    """Consecutive drawable points (plotly breaks a line at a missing value)."""
    runs: list[list[tuple[float, float]]] = [[]]
    for p in pts:
        if p is None:
            runs.append([])
        else:
            runs[-1].append(p)
    return [r for r in runs if len(r) > 1]


def _bars(trace: dict[str, Any], k: int, groups: int, xaxis: _Axis, yaxis: _Axis, colour: str,
          spacing: float) -> list[str]:
    """One bar trace, the ``k``-th of ``groups`` side by side in each slot; ``spacing`` is the distance of
    numeric places shared by all bar traces (:func:`_bar_places`)."""
    horizontal = trace.get("orientation") == "h"
    cat_axis, val_axis = (yaxis, xaxis) if horizontal else (xaxis, yaxis)
    cats = values(trace.get("y" if horizontal else "x"))
    vals = values(trace.get("x" if horizontal else "y"))
    span = abs(cat_axis.hi_px - cat_axis.lo_px)
    slot = span / len(cat_axis.categories) if cat_axis.categories else cat_axis.length(spacing)
    width = 0.8 * slot / max(groups, 1)
    base = val_axis.px(0.0)
    out: list[str] = []
    own = values((trace.get("marker") or {}).get("color"))
    colours = [html.escape(str(c)) for c in own] if len(own) == len(cats) > 1 else [colour] * len(cats)
    for c, v, fill in zip(cats, vals, colours, strict=False):
        centre, end = cat_axis.px(c), val_axis.px(v)
        if centre is None or end is None or base is None:
            continue
        left = centre - 0.4 * slot + k * width
        if horizontal:
            out.append(f'<rect x="{min(base, end):.1f}" y="{left:.1f}" width="{abs(end - base):.1f}" '
                       f'height="{width:.1f}" fill="{fill}"/>')
        else:
            out.append(f'<rect x="{left:.1f}" y="{min(base, end):.1f}" width="{width:.1f}" '
                       f'height="{abs(end - base):.1f}" fill="{fill}"/>')
    shift = -0.4 * slot + (k + 0.5) * width   # from the category's centre to this trace's bar in the group
    return out + _error_bars(trace, xaxis, yaxis, "#333", shift=shift)


def _error_bars(trace: dict[str, Any], xaxis: _Axis, yaxis: _Axis, colour: str, *, shift: float = 0.0) -> list[str]:
    """The trace's error bars; ``shift`` moves them along the category axis, onto a grouped bar."""
    x, y = values(trace.get("x")), values(trace.get("y"))
    out: list[str] = []
    for key, axis in (("error_x", xaxis), ("error_y", yaxis)):
        plus, minus = _errors(trace, key, len(x if key == "error_x" else y))
        for i, (p, m) in enumerate(zip(plus, minus, strict=True)):
            if _number(p) is None or _number(m) is None or i >= min(len(x), len(y)):
                continue
            if key == "error_x":
                lo, hi, at = axis.px(x[i] - m), axis.px(x[i] + p), yaxis.px(y[i])
                if lo is not None and hi is not None and at is not None:
                    at += shift
                    out.append(f'<line x1="{lo:.1f}" y1="{at:.1f}" x2="{hi:.1f}" y2="{at:.1f}" stroke="{colour}"/>')
            else:
                lo, hi, at = axis.px(y[i] - m), axis.px(y[i] + p), xaxis.px(x[i])
                if lo is not None and hi is not None and at is not None:
                    at += shift
                    out.append(f'<line x1="{at:.1f}" y1="{lo:.1f}" x2="{at:.1f}" y2="{hi:.1f}" stroke="{colour}"/>')
    return out


def still_html(figure: dict[str, Any]) -> str:
    """The still picture as a notebook's ``text/html``, framed for notebook checks."""
    return (f'{BEGIN}<div class="cardlab-still">{figure_svg(figure)}'
            '<div style="font:11px sans-serif;color:#666">(a still picture: run the notebook for the live chart)'
            f"</div></div>{END}")
