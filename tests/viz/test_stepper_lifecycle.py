"""The stepper's widgets are released, its plots report failures, and a static page gets a still picture.

Widgets are counted in ipywidgets' registry of live widgets (``ipywidgets.Widget.widgets``): a widget
stays there, with its comm and its model in the page, until it is closed. The page's side of a plot
(``drawn``, ``error``) is set here as the page sets it; the real page is tested in tests/browser.
"""

from __future__ import annotations

from typing import Any

import pytest
from ipywidgets.widgets import widget as widget_module

import cardlab
from cardlab.sim.prob import Quantity
from cardlab.viz import lifecycle
from cardlab.viz import stepper as stepper_module
from cardlab.viz.cards_svg import share_backs
from cardlab.viz.lifecycle import CellOwners, widget_tree
from cardlab.viz.plot import PlotView, library
from cardlab.viz.snapshot import BEGIN, END, panel_html
from cardlab.viz.stepper import Stepper, card_style
from cardlab.viz.table import table_html
from tests.viz import page_table

FAST = {"rollouts": 3, "panel_rollouts": 4}


def live() -> int:
    """Widgets alive in the kernel (the registry behind ``ipywidgets.Widget.widgets``)."""
    return len(widget_module._instances)


@pytest.fixture(autouse=True)
def plotly_library() -> None:
    library()   # the one library model per kernel exists before any count
    card_style()   # and so does the one card style


@pytest.mark.parametrize("game", cardlab.game_names())
def test_new_deal_releases_every_widget_it_replaces(game: str) -> None:
    # The move chooser keeps a pool of tiles and buttons for reuse, as large as the most moves a deal has offered:
    # bounded, not a leak, so every other widget is counted.
    s = Stepper(game, players=2, seed=3, policies=["human", "greedy"], **FAST)
    s.new_deal()
    settled = live() - len(s.chooser_pool)
    for _ in range(4):
        s.new_deal()
    assert live() - len(s.chooser_pool) == settled
    s.players_select.value = max(s.players_select.options)   # Spite and Malice: 2 only
    s.new_deal()
    s.players_select.value = 2
    s.new_deal()
    assert live() - len(s.chooser_pool) == settled, "changing the player count and back leaves nothing behind"
    s.close()


def test_close_releases_every_widget_the_stepper_made() -> None:
    before = live()
    s = Stepper("spite-and-malice", seed=1, policies=["human", "human"], **FAST)
    s.play(s.game.legal_moves()[0])
    s.new_deal()
    made = live() - before
    assert made > 50
    tree = widget_tree(s.box)
    assert s.win_plot in tree and s.panel_plot in tree and s.box.layout in tree
    s.close()
    assert live() == before, f"{live() - before} of {made} widgets are still alive after close()"
    shared = widget_tree(card_style())
    assert s._card_style is card_style() and card_style() in tree
    assert all(w.comm is None for w in tree if w not in shared)
    assert library().comm is not None, "the kernel's plotly library stays for the other steppers"
    assert all(w.comm is not None for w in shared), "so does the card style, with its layout"


def test_running_a_cell_again_closes_the_steppers_its_earlier_run_made(monkeypatch: pytest.MonkeyPatch) -> None:
    owners = CellOwners()
    monkeypatch.setattr(stepper_module, "_CELL_OWNERS", owners)
    where = [("cell-a", "run-1")]
    monkeypatch.setattr(lifecycle, "current_cell", lambda: where[0])
    before = live()
    first = Stepper("garbage", seed=3, **FAST)
    twin = Stepper("garbage", seed=4, **FAST)   # the same run of the cell: both stay
    once = live()
    assert first.box.comm is not None and twin.box.comm is not None
    where[0] = ("cell-a", "run-2")
    again = Stepper("garbage", seed=3, **FAST)
    assert first.box.comm is None and twin.box.comm is None
    assert live() - before == (once - before) // 2, "one stepper's widgets, not three"
    where[0] = ("cell-b", "run-3")
    other = Stepper("garbage", seed=5, **FAST)   # another cell leaves this one alone
    assert again.box.comm is not None
    again.close()
    other.close()
    assert live() == before


def test_cell_owners_need_a_notebook_cell() -> None:
    owners = CellOwners()
    assert lifecycle.current_cell() is None   # no kernel here: nothing is adopted or closed
    assert owners.adopt(object()) == []


class Closable:
    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_cell_owners_close_only_an_earlier_run_of_the_same_cell() -> None:
    owners = CellOwners()
    a, b, c = Closable(), Closable(), Closable()
    owners.adopt(a, ("x", "1"))
    owners.adopt(b, ("x", "1"))
    assert not a.closed and not b.closed
    assert owners.adopt(c, ("x", "2")) == [a, b] and a.closed and b.closed and not c.closed


def test_a_plot_that_fails_to_draw_is_reported_with_a_redraw_button() -> None:
    s = Stepper("garbage", seed=3, **FAST)
    assert s.redraw_button.layout.display == "none"
    for plot in s.plots:
        plot.drawn = plot.revision   # the page drew both ...
    s.win_plot.error = "the plot could not be drawn: TypeError: x is undefined"   # as the page reports it
    assert s.last_error is not None and "the P(win) chart could not be drawn" in s.last_error
    assert "Redraw plots" in s.last_error and "could not be drawn" in s.message.value
    assert s.redraw_button.layout.display is None
    s.redraw_button.click()
    assert s.win_plot.redraw == 1 and s.panel_plot.redraw == 1
    assert s.win_plot.error == ""
    assert s.last_error is None and s.redraw_button.layout.display == "none"
    s.panel_plot.error = "plotly.js could not be loaded in this page: timeout"
    assert s.last_error is not None and "the game's panel could not be drawn" in s.last_error
    s.next_move()   # a move still works; the plots keep receiving the numbers
    assert s.panel_plot.revision >= 2
    s.close()


def test_a_plot_that_recovers_by_itself_leaves_no_message_and_a_redraw_asked_for_is_confirmed() -> None:
    """On a busy page a plot can lag and catch up unaided: the warning then goes without a word (a student who never
    saw it would be puzzled by "drawn again"); after the student's own Redraw the message confirms it."""
    s = Stepper("garbage", seed=3, **FAST)
    for plot in s.plots:
        plot.drawn = plot.revision
    s.win_plot.error = "the plot could not be drawn: timeout"
    assert "could not be drawn" in s.message.value
    s.win_plot.error = ""                       # the page drew it after all
    assert s.last_error is None and s.message.value == "" and s.redraw_button.layout.display == "none"
    s.win_plot.error = "the plot could not be drawn: timeout"
    s.redraw_button.click()
    assert "the plots are drawn again" in s.message.value
    s.close()


def test_the_plots_hold_the_stepper_numbers_and_titles_fit_two_lines() -> None:
    s = Stepper("garbage", seed=3, **FAST)
    s.next_move()
    title = s.panel_plot.figure["layout"]["title"]["text"]
    assert title.startswith("Chances at move 1<br>") and "the table's public view" in title
    assert s.win_plot.figure["layout"]["title"]["text"].startswith("P(win) by move<br>")
    assert s.panel_plot.figure["data"][0]["y"] == list(s.panel_fig.data[0].y)
    assert isinstance(s.win_plot, PlotView) and s.win_plot.version == library().version
    s.close()


def test_still_picture_shows_table_numbers_and_a_stable_text(monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[tuple[str, dict[str, Any]]] = []
    import IPython.display as ipd
    monkeypatch.setattr(ipd, "display", lambda data, raw, display_id: shown.append(("display", data)))
    monkeypatch.setattr(ipd, "update_display", lambda data, raw, display_id: shown.append(("update", data)))
    s = Stepper("garbage", seed=3, **FAST)
    s._ipython_display_()
    kind, data = shown[-1]
    assert kind == "display"
    assert data["text/plain"] == "cardlab.Stepper('garbage', players=2, seed=3)"
    assert "application/vnd.jupyter.widget-view+json" in data
    page = data["text/html"]
    assert page.startswith(BEGIN) and page.endswith(END)
    # the still picture draws every card in full (a static page has no stylesheet for the shared backs)
    assert table_html(s.game) in page and "Move 0" in page and "<svg" in page
    assert share_backs(table_html(s.game)) != table_html(s.game), "the deal shows face-down cards"
    for q in s.quantities:
        assert q.label.replace("'", "&#x27;") in page
    s.next_move()
    s.live.update()   # what runs after each cell
    kind, data = shown[-1]
    assert kind == "update" and "Move 1" in data["text/html"] and table_html(s.game) in data["text/html"]
    assert data["text/plain"] == "cardlab.Stepper('garbage', players=2, seed=3)"
    count = len(shown)
    s.live.update()
    assert len(shown) == count, "nothing changed: no update"
    s.win_plot.drawn = s.win_plot.revision   # a live page draws it: the page is the picture from now on
    s.next_move()
    s.live.update()
    assert len(shown) == count
    s.close()


def test_still_panel_shows_a_reason_not_a_bar() -> None:
    na = Quantity.not_applicable("next_draw", "next draw fits", "the draw pile is empty")
    text = panel_html([na], "Chances at move 3")
    assert "not applicable: the draw pile is empty" in text and "background:#" not in text


def test_a_plot_the_page_stops_answering_is_named_and_replaced_by_redraw() -> None:
    s = Stepper("garbage", seed=3, **FAST)
    s.panel_plot.drawn = s.panel_plot.revision   # the page draws the panel ...
    s.win_plot.drawn = s.win_plot.revision       # ... and the chart, at first
    for _ in range(4):
        s.next_move()
        s.panel_plot.drawn = s.panel_plot.revision   # only the panel keeps answering
    assert s.win_plot.revision - s.win_plot.drawn == 4
    assert s.last_error is not None and "the P(win) chart stopped following the game" in s.last_error
    assert s.redraw_button.layout.display is None
    before, old = live(), s.win_plot
    s.redraw_button.click()
    assert s.win_plot is not old and old.comm is None and s.win_plot in widget_tree(s.box)
    assert live() == before, "the silent plot's model is closed, not left behind"
    assert s.win_plot.figure == old.figure and s.panel_plot.redraw == 1
    s.win_plot.drawn = s.win_plot.revision   # the new model draws
    assert s.last_error is None and s.redraw_button.layout.display == "none"
    s.close()


def test_a_stepper_no_page_shows_reports_nothing() -> None:
    s = Stepper("garbage", seed=3, **FAST)
    for _ in range(5):
        s.next_move()
    assert s.last_error is None and s.redraw_button.layout.display == "none"
    s.close()


def test_redraw_replaces_a_lagging_plot_even_before_the_other_plot_has_answered() -> None:
    s = Stepper("garbage", seed=3, **FAST)
    for plot in s.plots:
        plot.drawn = plot.revision
    for _ in range(4):
        s.next_move()
        s.panel_plot.drawn = s.panel_plot.revision
    s.next_move()   # the panel's answer to this move is still on its way when Redraw is clicked
    assert s.panel_plot.drawn == s.panel_plot.revision - 1
    old_win, old_panel = s.win_plot, s.panel_plot
    s.redraw_button.click()
    assert s.win_plot is not old_win and old_win.comm is None, "the silent chart gets a new model"
    assert s.panel_plot is not old_panel, "a plot one picture behind is replaced too (it costs one picture)"
    assert s.win_plot.figure == old_win.figure and s.panel_plot.figure == old_panel.figure
    s.close()


def _record_updates(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, dict[str, Any]]]:
    """Every state update the kernel sends to the page, as (widget, state)."""
    sent: list[tuple[Any, dict[str, Any]]] = []
    original = widget_module.Widget._send

    def send(self: Any, msg: dict[str, Any], buffers: Any = None) -> None:
        if msg.get("method") == "update":
            sent.append((self, dict(msg["state"])))
        original(self, msg, buffers)

    monkeypatch.setattr(widget_module.Widget, "_send", send)
    return sent


def _heavy(s: Stepper, sent: list[tuple[Any, dict[str, Any]]]) -> list[tuple[str, list[str]]]:
    names = {id(s.table): "table", id(s.move_log): "log", id(s.win_plot): "win", id(s.panel_plot): "panel",
             id(s.counter): "counter"}
    return [(names[id(w)], ["value"]) for w, state in sent if id(w) in names and "value" in state]


def test_a_stepper_no_page_shows_keeps_its_table_log_and_plots_in_the_kernel_until_displayed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sent = _record_updates(monkeypatch)
    import IPython.display as ipd
    order: list[str] = []
    monkeypatch.setattr(ipd, "display", lambda data, raw, display_id: order.append(f"display after {len(sent)}"))
    s = Stepper("garbage", seed=3, **FAST)
    for _ in range(3):
        s.next_move()
    assert _heavy(s, sent) == [], "nothing large reaches a page that shows no view of the stepper"
    assert s.table.value == page_table(s.game) and "Move 3" in s.counter.value, "the kernel's values are current"
    assert s.win_plot.revision == 4 and s.panel_plot.figure["layout"]["title"]["text"].startswith("Chances at move 3")
    s._ipython_display_()
    caught_up = _heavy(s, sent)
    assert sorted(caught_up) == [("counter", ["value"]), ("log", ["value"]), ("panel", ["value"]),
                                 ("table", ["value"]), ("win", ["value"])], \
        "the current state, once, one message each"
    assert order == [f"display after {len(sent)}"], "sent before the page builds its view"
    assert next(st for w, st in sent if w is s.table)["value"] == s.table.value
    assert next(st for w, st in sent if w is s.win_plot and "value" in st)["value"] == s.win_plot.value
    assert 'data-revision="4"' in s.win_plot.value, "the page gets the newest picture"
    sent.clear()
    s.next_move()
    assert sorted(name for name, _ in _heavy(s, sent)) == ["counter", "log", "panel", "table", "win"], \
        "then every move is sent"
    s.close()


def test_a_page_drawing_a_plot_of_a_stepper_shown_inside_another_widget_catches_it_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sent = _record_updates(monkeypatch)
    s = Stepper("spite-and-malice", seed=3, **FAST)
    s.next_move()
    assert _heavy(s, sent) == []
    library().receive({"plot": s.panel_plot.plot_key, "drawn": 0, "error": ""})   # the page drew the panel's first
    # picture (so a view exists)
    assert sorted(name for name, _ in _heavy(s, sent)) == ["counter", "log", "panel", "table", "win"]
    assert s.last_error is None, "catching up is not a silent plot"
    s.close()
