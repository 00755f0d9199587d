"""Notice a figure whose browser view has stopped applying updates, so the stepper can replace it.

Why a figure can go deaf
------------------------
A ``FigureWidget`` is an anywidget: its browser model loads Plotly's JavaScript (about 5 MB, parsed
once per figure) and must be ready within anywidget's start-up limit of two seconds. The page parses
one bundle at a time, so on a busy machine a figure whose bundle waits behind another's can miss
that limit (a Voilà app builds every widget of the notebook at once). Such a figure is drawn once,
from the state it had when the page was built, but its model then drops every later update message,
silently: the move counter follows the game while the figure stays at move 0. Nothing on the Python
side fails.

How it is noticed
-----------------
Two kinds of confirmation come back from the page:

* after applying an update that changes traces, a Plotly view sends back the update's number (its
  *trace edit id*); a view also sends the current number when it is first drawn (a deaf one too);
* the page's own tick: at each refresh the stepper sets a hidden integer widget to the refresh's
  number, and a link that runs in the page (``ipywidgets.jsdlink``, a core widget with no start-up
  limit) copies it into a second hidden widget, which reports it back.

:meth:`FigureWatch.record` notes, after each refresh, the numbers sent to each figure. A figure is
*lagging* when the page, or another figure, has confirmed a refresh at least :data:`LAG` refreshes
newer than the newest one this figure confirmed: everything was sent to the same page in order, so
the silent one is not merely slow. Comparing confirmations, never clocks, keeps the check immune to
a busy kernel (confirmations wait while a cell runs, then arrive in the page's order) and does nothing
when no browser shows the stepper (headless tests, a stepper never displayed).

A lagging figure is replaced by a new one, one figure per confirmation: the new figure's first
drawing is itself a confirmation, which then lets the next lagging figure be replaced, so two
bundles are never parsed at once again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

LAG = 3            # refreshes the page or another figure must be ahead before a figure counts as deaf
MAX_RENEWALS = 3   # per figure: a figure that keeps failing is left alone after this many
KEEP = 100         # refreshes remembered; far more than any lag that matters


class FigureWatch:
    """Confirmations from the page and from the browser views of a fixed list of figures.

    ``on_lagging(index)`` is called (from a confirmation's callback) when figure ``index`` is lagging;
    the owner replaces the figure and calls :meth:`replace`. ``box`` holds the hidden tick widgets and
    must be displayed with the figures.
    """

    def __init__(self, figures: Sequence[Any], on_lagging: Callable[[int], None]) -> None:
        self.figures = list(figures)
        self.on_lagging = on_lagging
        self.confirmed = [-1] * len(self.figures)       # newest trace edit id each figure's views reported
        self.records: list[tuple[int, tuple[int, ...]]] = []   # (tick, trace edit ids sent) per refresh
        self.renewals = [0] * len(self.figures)
        self.tick = 0
        self.page = -1                                   # newest tick the page reported
        self.sent_tick = widgets.IntText(value=0)
        self.seen_tick = widgets.IntText(value=-1)
        self.link = widgets.jsdlink((self.sent_tick, "value"), (self.seen_tick, "value"))
        self.box = widgets.Box([self.sent_tick, self.seen_tick], layout=widgets.Layout(display="none"))
        self.seen_tick.observe(self._page_confirmed, names="value")
        for index, fig in enumerate(self.figures):
            self._listen(index, fig)

    def _listen(self, index: int, fig: Any) -> None:
        def confirmed(change: dict[str, Any]) -> None:
            if self.figures[index] is fig:
                self.confirm(index, change.get("new"))
        fig.observe(confirmed, names="_js2py_traceDeltas")

    def _page_confirmed(self, change: dict[str, Any]) -> None:
        value = change.get("new")
        if isinstance(value, int) and value > self.page:
            self.page = value
            self.check()

    def sent(self) -> tuple[int, ...]:
        return tuple(int(fig._last_trace_edit_id) for fig in self.figures)

    def record(self) -> None:
        """Note the update numbers just sent to every figure (call after each refresh)."""
        ids = self.sent()
        if self.records and self.records[-1][1] == ids:
            return
        self.tick += 1
        self.records.append((self.tick, ids))
        del self.records[:-KEEP]
        self.sent_tick.value = self.tick

    def confirm(self, index: int, message: Any) -> None:
        """A view of figure ``index`` reported an update number."""
        if not isinstance(message, dict) or "trace_edit_id" not in message:
            return
        self.confirmed[index] = max(self.confirmed[index], int(message["trace_edit_id"]))
        self.check()

    def check(self) -> None:
        """Hand the first lagging figure (if any, and not replaced too often) to ``on_lagging``."""
        for index in range(len(self.figures)):
            if self.is_lagging(index) and self.renewals[index] < MAX_RENEWALS:
                self.renewals[index] += 1
                self.on_lagging(index)
                return

    def newest_confirmed(self, index: int) -> int:
        """The tick of the newest recorded refresh that figure ``index`` has confirmed (-1: none)."""
        for tick, ids in reversed(self.records):
            if self.confirmed[index] >= ids[index]:
                return tick
        return -1

    def is_lagging(self, index: int) -> bool:
        others = [self.newest_confirmed(j) for j in range(len(self.figures)) if j != index]
        ahead = max([self.page, *others])
        return ahead >= self.newest_confirmed(index) + LAG

    def replace(self, index: int, fig: Any) -> None:
        """Watch ``fig`` in place of figure ``index``. The new figure starts with the benefit of the doubt:
        it counts as having confirmed every refresh so far (its picture is the current one)."""
        self.figures[index] = fig
        self._listen(index, fig)
        now = int(fig._last_trace_edit_id)
        self.records = [(tick, ids[:index] + (now,) + ids[index + 1:]) for tick, ids in self.records]
        self.confirmed[index] = now
