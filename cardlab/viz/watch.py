"""Notice a figure whose browser view has stopped applying updates, so the stepper can replace it.

Why a figure can go deaf
------------------------
A ``FigureWidget`` is an anywidget: its browser model loads Plotly's JavaScript (about 5 MB, once
per figure) and must be ready within anywidget's start-up limit of two seconds. A page that builds
several figures at once on a busy machine (a Voilà app renders every widget of the notebook
together) can miss that limit. The figure is then drawn once, from the state it had when the page
was built, but its model drops every later update message, silently: the move counter and the other
figure follow the game while this one stays at move 0. Nothing on the Python side fails.

How it is noticed
-----------------
After applying an update that changes traces, a Plotly view sends back the update's number (its
*trace edit id*); a view also sends the current number when it is first drawn. The stepper updates
all its figures together, once per refresh, and :meth:`FigureWatch.record` notes the numbers sent to
each. A figure is *lagging* when another figure has confirmed a refresh at least :data:`LAG` refreshes
newer than the newest one this figure confirmed: both were sent to the same page in the same
order, so the silent one is not merely slow. Comparing figures, never clocks, keeps the check
immune to a busy kernel (confirmations wait while a cell runs) and does nothing when no browser
shows the figures at all (headless tests, a stepper that was never displayed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

LAG = 3            # refreshes another figure must be ahead before a figure counts as deaf
MAX_RENEWALS = 3   # per figure: a figure that keeps failing is left alone after this many
KEEP = 100         # refreshes remembered; far more than any lag that matters


class FigureWatch:
    """Confirmations from the browser views of a fixed list of figures.

    ``on_lagging(index)`` is called (from the confirmation's callback) when figure ``index`` is
    lagging; the owner replaces the figure and calls :meth:`replace`.
    """

    def __init__(self, figures: Sequence[Any], on_lagging: Callable[[int], None]) -> None:
        self.figures = list(figures)
        self.on_lagging = on_lagging
        self.confirmed = [-1] * len(self.figures)
        self.records: list[tuple[int, ...]] = []
        self.renewals = [0] * len(self.figures)
        for index, fig in enumerate(self.figures):
            self._listen(index, fig)

    def _listen(self, index: int, fig: Any) -> None:
        def confirmed(change: dict[str, Any]) -> None:
            if self.figures[index] is fig:
                self.confirm(index, change.get("new"))
        fig.observe(confirmed, names="_js2py_traceDeltas")

    def sent(self) -> tuple[int, ...]:
        return tuple(int(fig._last_trace_edit_id) for fig in self.figures)

    def record(self) -> None:
        """Note the update numbers just sent to every figure (call after each refresh)."""
        ids = self.sent()
        if not self.records or self.records[-1] != ids:
            self.records.append(ids)
            del self.records[:-KEEP]

    def confirm(self, index: int, message: Any) -> None:
        """A view of figure ``index`` reported an update number."""
        if not isinstance(message, dict) or "trace_edit_id" not in message:
            return
        self.confirmed[index] = max(self.confirmed[index], int(message["trace_edit_id"]))
        for other in range(len(self.figures)):
            if self.is_lagging(other) and self.renewals[other] < MAX_RENEWALS:
                self.renewals[other] += 1
                self.on_lagging(other)

    def newest_confirmed(self, index: int) -> int:
        """The newest recorded refresh that figure ``index`` has confirmed (-1: none)."""
        for k in range(len(self.records) - 1, -1, -1):
            if self.confirmed[index] >= self.records[k][index]:
                return k
        return -1

    def is_lagging(self, index: int) -> bool:
        ahead = max((self.newest_confirmed(j) for j in range(len(self.figures)) if j != index), default=-1)
        return ahead >= self.newest_confirmed(index) + LAG

    def replace(self, index: int, fig: Any) -> None:
        """Watch ``fig`` in place of figure ``index``; the history starts again from what was sent now,
        and the new figure is given the benefit of the doubt for it."""
        self.figures[index] = fig
        self._listen(index, fig)
        self.records = [self.sent()]
        self.confirmed[index] = self.records[0][index]
