"""A figure whose browser view stops applying updates is noticed and replaced (``cardlab/viz/watch.py``).

No browser runs here: a view's confirmation is the message a Plotly view sends after applying an
update, delivered as the browser would deliver it (the ``_js2py_traceDeltas`` trait). The real page
is tested in ``tests/browser/test_voila.py``.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import pytest

from cardlab.viz.stepper import Stepper
from cardlab.viz.watch import LAG, MAX_RENEWALS, FigureWatch

FAST = {"rollouts": 3, "panel_rollouts": 4}


def confirm(fig: go.FigureWidget) -> None:
    """What a view sends once it has applied the figure's latest update."""
    fig._js2py_traceDeltas = {"trace_deltas": [], "trace_edit_id": fig._last_trace_edit_id}


def page_tick(st: Stepper, tick: int | None = None) -> None:
    """What the page's link reports once it has processed a refresh (the latest one by default)."""
    st._watch.seen_tick.value = st._watch.tick if tick is None else tick


def shown(st: Stepper) -> list[go.FigureWidget]:
    return list(st._right.children)


def without_uid(trace: Any) -> dict[str, Any]:
    return {k: v for k, v in trace.to_plotly_json().items() if k != "uid"}


def panel_title(fig: go.FigureWidget) -> str:
    return str(fig.layout.title.text)


@pytest.fixture()
def stepper() -> Stepper:
    st = Stepper("garbage", players=2, seed=3, **FAST)
    confirm(st.win_fig)       # the page draws both figures
    confirm(st.panel_fig)
    page_tick(st)
    return st


def test_a_deaf_panel_is_replaced_by_a_new_figure_that_follows_the_game(stepper: Stepper) -> None:
    st = stepper
    old = st.panel_fig
    for move in range(1, LAG + 1):
        st.next_move()
        picture = [without_uid(t) for t in old.data]
        confirm(st.win_fig)   # the P(win) chart follows; the panel's view never answers again
        assert (st.panel_fig is old) == (move < LAG), f"after move {move}"
    new = st.panel_fig
    assert new is not old
    assert shown(st) == [st.win_fig, new], "the page shows the new figure in the old one's place"
    assert old.comm is None, "the deaf figure's browser model is closed"
    assert panel_title(new).startswith(f"Chances at move {LAG}")
    assert [without_uid(t) for t in new.data] == picture
    st.next_move()
    assert panel_title(st.panel_fig).startswith(f"Chances at move {LAG + 1}"), "updates reach the new figure"
    assert st.panel_fig is new


def test_a_deaf_win_chart_is_replaced_too(stepper: Stepper) -> None:
    st = stepper
    old = st.win_fig
    for _ in range(LAG):
        st.next_move()
        confirm(st.panel_fig)
    assert st.win_fig is not old and shown(st)[0] is st.win_fig
    assert [p.move for p in st.win_history] == list(range(LAG + 1))
    assert list(st.win_fig.data[1].x) == list(range(LAG + 1)), "the new chart draws the whole history"


def test_figures_that_answer_are_kept(stepper: Stepper) -> None:
    st = stepper
    figs = shown(st)
    for _ in range(6):
        st.next_move()
        confirm(st.win_fig)
        confirm(st.panel_fig)
        page_tick(st)
    assert shown(st) == figs
    assert st._watch.box in st.children and st._watch.box.layout.display == "none"


def test_when_both_figures_are_deaf_the_page_tick_gets_them_replaced_one_at_a_time(stepper: Stepper) -> None:
    st = stepper
    old_win, old_panel = st.win_fig, st.panel_fig
    for move in range(1, LAG + 1):
        st.next_move()
        page_tick(st)         # the page processes every refresh; neither figure applies any
        assert (st.win_fig is old_win) == (move < LAG), f"after move {move}"
    assert st.panel_fig is old_panel, "one figure at a time: the second waits for the first's drawing"
    confirm(st.win_fig)       # the new P(win) chart is drawn: now the panel's turn
    assert st.panel_fig is not old_panel and shown(st) == [st.win_fig, st.panel_fig]
    confirm(st.panel_fig)
    for _ in range(LAG + 1):  # both new figures follow the game: nothing more is replaced
        st.next_move()
        confirm(st.win_fig)
        confirm(st.panel_fig)
        page_tick(st)
    assert st._watch.renewals == [1, 1]
    assert panel_title(st.panel_fig).startswith(f"Chances at move {2 * LAG + 1}")


def test_a_view_a_refresh_behind_is_slow_not_deaf(stepper: Stepper) -> None:
    st = stepper
    figs = shown(st)
    for _ in range(8):
        st.next_move()
        confirm(st.win_fig)
        if len(st._watch.records) >= 2:   # the panel answers each update one refresh late
            st.panel_fig._js2py_traceDeltas = {"trace_deltas": [], "trace_edit_id": st._watch.records[-2][1][1]}
    assert shown(st) == figs


def test_no_browser_replaces_nothing() -> None:
    st = Stepper("garbage", players=2, seed=3, **FAST)
    figs = shown(st)
    for _ in range(8):        # nobody draws the figures: no confirmation at all
        st.next_move()
    assert shown(st) == figs


def test_a_busy_kernel_replaces_nothing(stepper: Stepper) -> None:
    st = stepper
    figs = shown(st)
    first = len(st._watch.records)
    for _ in range(8):        # confirmations wait while a cell runs, then arrive in the page's order
        st.next_move()
    for tick, (win_id, panel_id) in st._watch.records[first:]:
        st.win_fig._js2py_traceDeltas = {"trace_deltas": [], "trace_edit_id": win_id}
        st.panel_fig._js2py_traceDeltas = {"trace_deltas": [], "trace_edit_id": panel_id}
        page_tick(st, tick)
    assert shown(st) == figs


def test_a_figure_is_replaced_at_most_a_few_times(stepper: Stepper) -> None:
    st = stepper
    seen = {id(st.panel_fig)}
    for _ in range(LAG * (MAX_RENEWALS + 3)):
        st.next_move()
        confirm(st.win_fig)
        seen.add(id(st.panel_fig))
    assert len(seen) == MAX_RENEWALS + 1


def test_a_failed_replacement_is_reported_in_the_widget(stepper: Stepper, monkeypatch: pytest.MonkeyPatch) -> None:
    st = stepper

    def broken() -> Any:
        raise RuntimeError("no new figure today")
    monkeypatch.setattr(st._panel, "renew", broken)
    moves = st.game.moves
    for _ in range(LAG):
        st.next_move()
        confirm(st.win_fig)
    assert "no new figure today" in st.message.value and "no new figure today" in str(st.last_error)
    assert len(st.game.moves) == len(moves) + LAG, "the game went on"


def test_watch_ignores_messages_without_an_update_number() -> None:
    figs = [go.FigureWidget(), go.FigureWidget()]
    lagging: list[int] = []
    watch = FigureWatch(figs, lagging.append)
    watch.record()
    for bad in (None, {}, {"trace_deltas": []}, "3"):
        watch.confirm(0, bad)
    assert watch.confirmed == [-1, -1]
    assert lagging == []
