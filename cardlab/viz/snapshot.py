"""A still picture of a stepper for pages that run no widgets (nbconvert's HTML, GitHub, nbviewer).

A saved notebook keeps no widget state (it would hold megabytes), so a static renderer cannot draw
the stepper's widgets; it falls back to the output's ``text/html``. The stepper puts this picture
there: the table as drawn, then the two panels as plain SVG and HTML drawn from the same numbers the
live plots show (no plotly.js needed). The picture is framed by HTML comments, so notebook checks can
leave it out of their comparison (``notebooks/sanitize.cfg``) and compare the printed numbers instead.
"""

from __future__ import annotations

import html
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from cardlab.sim.prob import Quantity
from cardlab.viz.panels import WinPoint, bar_text, seat_colour
from cardlab.viz.still import BEGIN, END

W, H = 420, 220
PAD_L, PAD_R, PAD_T, PAD_B = 40, 10, 24, 28


def win_svg(points: Sequence[WinPoint], players: int, title: str, intervals: bool = True) -> str:
    """P(win) per seat against the move: one line per seat over its shaded 95% band (no band when ``intervals``
    is False)."""
    last = max((p.move for p in points), default=0)
    span = max(last, 1)

    def x(move: float) -> float:
        return PAD_L + (move + 0.5) / (span + 1) * (W - PAD_L - PAD_R)

    def y(p: float) -> float:
        return PAD_T + (1 - p) * (H - PAD_T - PAD_B)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" role="img" '
             f'aria-label="{html.escape(title)}" style="font:11px sans-serif;background:#fff">',
             f'<text x="{W / 2}" y="14" text-anchor="middle" font-size="12">{html.escape(title)}</text>',
             f'<line x1="{PAD_L}" y1="{y(0)}" x2="{W - PAD_R}" y2="{y(0)}" stroke="#999"/>',
             f'<line x1="{PAD_L}" y1="{y(0)}" x2="{PAD_L}" y2="{y(1)}" stroke="#999"/>']
    for tick in (0, 0.5, 1):
        parts.append(f'<text x="{PAD_L - 4}" y="{y(tick) + 4}" text-anchor="end">{tick}</text>')
    parts.append(f'<text x="{W / 2}" y="{H - 4}" text-anchor="middle">move (0 to {last})</text>')
    for seat in range(players):
        ests = [(p.move, p.estimates[seat]) for p in points if seat < len(p.estimates)]
        if not ests:
            continue
        if intervals:
            band = ([f"{x(m):.1f},{y(e.high):.1f}" for m, e in ests]
                    + [f"{x(m):.1f},{y(e.low):.1f}" for m, e in ests[::-1]])
            parts.append(f'<polygon points="{" ".join(band)}" fill="{seat_colour(seat, 0.18)}" stroke="none"/>')
        line = " ".join(f"{x(m):.1f},{y(e.value):.1f}" for m, e in ests)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{seat_colour(seat)}" stroke-width="2"/>')
        m, e = ests[-1]
        parts.append(f'<text x="{min(x(m) + 4, W - 60):.1f}" y="{y(e.value) - 4:.1f}" fill="{seat_colour(seat)}">'
                     f"seat {seat}: {e.value:.2f}</text>")
    parts.append("</svg>")
    return "".join(parts)


def panel_html(quantities: Sequence[Quantity], title: str, intervals: bool = True) -> str:
    """Each quantity as a row: its label, a bar as long as its value (none when it does not apply), its words
    (:func:`~cardlab.viz.panels.bar_text`, without intervals when ``intervals`` is False)."""
    rows = [f'<div style="font:12px sans-serif;font-weight:bold;margin:4px 0">{html.escape(title)}</div>']
    for q in quantities:
        bar = ""
        if q.is_applicable:
            colour = "#2e7d32" if q.is_exact else "#5c6bc0"
            bar = (f'<span style="display:inline-block;width:{max(0.0, min(1.0, q.value)) * 120:.0f}px;height:10px;'
                   f'background:{colour};margin-right:6px"></span>')
        rows.append(f'<div style="font:11px sans-serif;margin:2px 0"><span style="display:inline-block;width:230px">'
                    f"{html.escape(q.label)}</span>{bar}{html.escape(bar_text(q, intervals))}</div>")
    if not quantities:
        rows.append('<div style="font:11px sans-serif;color:#666">(nothing to show: the game is over)</div>')
    return '<div style="max-width:720px">' + "".join(rows) + "</div>"


def stepper_html(status: str, table: str, points: Sequence[WinPoint], players: int, win_title: str,
                 quantities: Sequence[Quantity], panel_title: str, moves: str = "", intervals: bool = True) -> str:
    """The whole still picture: status line, table (with ``moves``, the move-values panel's HTML, below it),
    and both panels (without intervals when ``intervals`` is False), framed for notebook checks."""
    return (f'{BEGIN}<div class="cardlab-snapshot" style="border:1px solid #ddd;padding:6px">'
            f'<div style="font:13px sans-serif;margin-bottom:4px"><b>{html.escape(status)}</b> '
            '<span style="color:#666">(a still picture: run the notebook to play)</span></div>'
            f'<div style="display:flex;flex-flow:row wrap;gap:12px"><div>{table}{moves}</div>'
            f"<div>{win_svg(points, players, win_title, intervals)}"
            f"{panel_html(quantities, panel_title, intervals)}</div></div></div>{END}")


# ---------------------------------------------------------------------------------------- kept current
_SHOWN: list[weakref.WeakMethod[Callable[[], None]]] = []
_HOOKED: list[bool] = []


def keep_current(update: Callable[[], None]) -> None:
    """Call ``update`` (a bound method: a displayed stepper's) after each cell, while its owner lives, so that
    its still picture follows what the cell did."""
    if not any(ref() == update for ref in _SHOWN):
        _SHOWN.append(weakref.WeakMethod(update))
    _watch_cells()


def _after_cell(*_args: Any) -> None:
    """After each cell: bring the still picture of every displayed stepper up to date."""
    for ref in list(_SHOWN):
        update = ref()
        if update is None:
            _SHOWN.remove(ref)
            continue
        try:
            update()
        except Exception:  # the still picture is a courtesy; never break a cell for it
            pass


def _watch_cells() -> None:
    """Register :func:`_after_cell` with IPython once per kernel."""
    if _HOOKED:
        return
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover
        return
    shell = get_ipython()
    if shell is None:
        return
    shell.events.register("post_run_cell", _after_cell)
    _HOOKED.append(True)
