"""The stepper's widgets: the layout, the move log, the human move tiles, and the shared card-back style.

:class:`StepperWidgets` builds and lays out every widget of a :class:`~cardlab.viz.stepper.Stepper` and holds
what concerns the widgets alone: which of them wait in the kernel while no page shows the stepper
(:class:`~cardlab.viz.lifecycle.Deferral`), the seat selectors, and the tiles of a human's moves. It knows
nothing of the game's rules; the stepper wires the buttons to its controller.

Layout: the plots sit beside the table when the output area is wide enough (about 820 px: a projector's 1024 px with
the file browser closed) and wrap below it
when narrower; the move-values panel, when on, sits above them (beside the table and the moves to choose
from), and is hidden with them while a prediction is awaited (it would give the answer away).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from cardlab.engine.game import Move
from cardlab.engine.registry import game_class, game_names
from cardlab.viz import controls
from cardlab.viz.autoplay import Autoplayer
from cardlab.viz.cards_svg import back_css
from cardlab.viz.chooser import MoveTile, group_moves, group_picture
from cardlab.viz.lifecycle import Deferral, Quiet, close_tree, widget_tree
from cardlab.viz.moves import MoveValuesPanel
from cardlab.viz.panels import QuantityPanel, WinChart
from cardlab.viz.plot import PlotView, default_template

PLOT_NAMES = ("the P(win) chart", "the game's panel")
AUTOPLAY_SPEEDS = (0.5, 1.0, 2.0, 4.0, 5.0, 10.0)   # Autoplay's moves a second (the speed menu)
SILENT_AFTER = 3   # pictures a plot may be behind the page's answers before it counts as silent


class MoveLog(widgets.HTML):  # type: ignore[misc]
    """The move log widget.

    The widget framework logs its own warnings through an attribute named ``log``; the Stepper gives
    that name to this widget, so it also passes such logging calls on to the ``cardlab.viz`` logger.
    """

    def _logger(self) -> logging.Logger:
        return logging.getLogger("cardlab.viz")

    def debug(self, *args: Any, **kwargs: Any) -> None:
        self._logger().debug(*args, **kwargs)

    def info(self, *args: Any, **kwargs: Any) -> None:
        self._logger().info(*args, **kwargs)

    def warning(self, *args: Any, **kwargs: Any) -> None:
        self._logger().warning(*args, **kwargs)

    def error(self, *args: Any, **kwargs: Any) -> None:
        self._logger().error(*args, **kwargs)

    def exception(self, *args: Any, **kwargs: Any) -> None:
        self._logger().exception(*args, **kwargs)

    def critical(self, *args: Any, **kwargs: Any) -> None:
        self._logger().critical(*args, **kwargs)


LAYOUT_CSS = """
.cardlab-stepper { max-width: 100%; overflow-x: auto; }
.cardlab-stepper .widget-box { overflow: visible; }
.cardlab-stepper .widget-hbox { flex-wrap: wrap; row-gap: 2px; }
.cardlab-stepper .jupyter-button { flex: 0 0 auto; width: auto; min-width: max-content; padding: 0 10px; }
.cardlab-stepper .widget-dropdown, .cardlab-stepper .widget-text, .cardlab-stepper .widget-checkbox,
.cardlab-stepper .widget-hslider { flex: 0 0 auto; }
.cardlab-stepper .widget-label { min-width: max-content; }
"""
"""The stepper's layout rules (sent once per kernel with the card back): rows of controls wrap instead of
squeezing a button's words ("Next…"), buttons are as wide as their words, and a screen narrower than the stepper
(a phone) scrolls it sideways instead of cutting it off: only the stepper's outer box scrolls, so no inner box
clips what sticks out of it."""

_CARD_STYLE: list[widgets.HTML] = []


def card_style() -> widgets.HTML:
    """The kernel's one widget holding the card back's CSS (:func:`~cardlab.viz.cards_svg.back_css`): every stepper
    shows a view of it (hidden; a ``<style>`` needs no room), so its model reaches the page once."""
    if not _CARD_STYLE or _CARD_STYLE[0].comm is None:
        _CARD_STYLE[:] = [widgets.HTML(f"<style>{back_css('.cardlab-stepper')}{LAYOUT_CSS}</style>",
                                       layout=widgets.Layout(display="none"))]
    return _CARD_STYLE[0]


def player_range(name: str) -> list[int]:
    cls = game_class(name)
    return list(range(cls.min_players, cls.max_players + 1))


class StepperWidgets:
    """Every widget of a stepper, laid out in one box (:attr:`box`, the widget a page shows); see the module
    docstring."""

    autoplayer: Autoplayer   # made by the stepper before its widgets (the speed slider sets its interval)

    def _build_widgets(self, game_name: str, players: int, seed: int, intervals: bool = True) -> None:
        self._quiet = Quiet()            # the stepper's own changes to its selectors (observers ignore them)
        self._deferral = Deferral()      # the picture's widgets wait in the kernel while no page shows it
        self._in_page = False            # displayed, or a page drew one of its plots: updates are sent as they happen
        self._redraw_asked = False          # the student pressed Redraw plots since the last report
        self.game_select = widgets.Dropdown(options=game_names(), value=game_name, description="game",
                                            layout=widgets.Layout(width="220px"))
        self.players_select = widgets.Dropdown(options=player_range(game_name), value=players,
                                               description="players", layout=widgets.Layout(width="150px"))
        self.seed_select = widgets.IntText(value=seed, description="seed", layout=widgets.Layout(width="160px"))
        self.new_deal_button = widgets.Button(description="New deal", icon="refresh")
        self.step_button = widgets.Button(description="Step", tooltip="play one event of the next move")
        self.next_button = widgets.Button(description="Next move", button_style="primary")
        self.back_button = widgets.Button(description="Back", tooltip="take back the last move")
        self.reset_button = widgets.Button(description="Reset", tooltip="back to the deal")
        # one play control: Autoplay is timed by the kernel (cardlab.viz.autoplay), nothing in the page keeps time
        self.autoplay_button = widgets.ToggleButton(description="Autoplay", value=False, icon="play",
                                                    tooltip="play one bot move after another until the game ends")
        self.play_end_button = widgets.Button(description="Play to the end", icon="forward",
                                              tooltip="play every bot move until the game is over")
        # a menu, not a slider: its label names it for a screen reader (the slider's handle has no name)
        self.speed = widgets.Dropdown(options=AUTOPLAY_SPEEDS, value=2.0, description="moves/s",
                                      layout=widgets.Layout(width="170px"))
        self.counter = widgets.HTML()
        self.viewpoint = widgets.Dropdown(options=controls.viewpoint_options(players), value=controls.TABLE,
                                          description="viewpoint", layout=widgets.Layout(width="260px"))
        self.move_values_check = widgets.Checkbox(value=False, description="show move values", indent=False,
                                                  layout=widgets.Layout(width="160px"),
                                                  tooltip="each move's chance of winning, from the mover's own view")
        self.policy_box = widgets.HBox()
        self.policies: list[widgets.Dropdown] = []
        self.message = widgets.HTML()
        self.table = widgets.HTML()
        self._card_style = card_style()   # the back of every table's face-down cards (see share_backs), one per kernel
        self.move_box = widgets.Box(layout=widgets.Layout(flex_flow="row wrap"))
        self.move_buttons: list[widgets.Button] = []
        self._tiles: list[MoveTile] = []
        self._move_texts: tuple[str, ...] = ()
        self.handover_button = widgets.Button(button_style="warning", layout=widgets.Layout(width="auto"))
        self.move_log = MoveLog()
        self._win_chart = WinChart(players, intervals)
        self._panel = QuantityPanel(players, intervals)
        self._moves_panel = MoveValuesPanel(intervals)
        self.redraw_button = widgets.Button(description="Redraw plots", tooltip="draw both plots again",
                                            layout=widgets.Layout(display="none"))
        self.speed.observe(self._on_speed, names="value")
        self._on_speed({"new": self.speed.value})

        deal_row = widgets.HBox([self.game_select, self.players_select, self.seed_select, self.new_deal_button])
        play_row = widgets.HBox([self.step_button, self.next_button, self.back_button, self.reset_button,
                                 self.autoplay_button, self.play_end_button, self.speed])
        view_row = widgets.HBox([self.viewpoint, self.policy_box, self.move_values_check])
        # The table takes what is left of the width (at least 420 px); the plots keep their size and wrap
        # below the table when the two do not fit side by side.
        left = widgets.VBox([self._card_style, self.table, self.move_box, self.move_log],
                            layout=widgets.Layout(flex="1 1 400px", min_width="400px", max_width="820px"))
        # the move values on top, beside the table and the moves; a prediction hides them with the plots
        self.plots_box = widgets.VBox([self._moves_panel.box, self.win_plot, self.panel_plot],
                                      layout=widgets.Layout(flex="0 0 auto"))
        self.plots_box.add_class("cardlab-plots")
        self.move_box.add_class("cardlab-move-box")
        left.add_class("cardlab-table-side")
        self.box = widgets.VBox()
        self.box.add_class("cardlab-stepper")
        self.box.children = [deal_row, play_row, widgets.HBox([self.counter]), view_row,
                             widgets.HBox([self.message, self.redraw_button],
                                          layout=widgets.Layout(align_items="center")),
                             widgets.HBox([left, self.plots_box],
                                          layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))]
        self._deferral.defer(*self._deferred_widgets())

    def _on_speed(self, change: dict[str, Any]) -> None:
        """The pause between two Autoplay moves: 1 / speed seconds (the kernel waits for each move first)."""
        self.autoplayer.interval = 1 / float(change["new"])

    def insert_row(self, row: widgets.Widget) -> None:
        """Put ``row`` just above the table and plots (the predict-then-reveal box goes there)."""
        rows: list[widgets.Widget] = list(self.box.children)
        self.box.children = [*rows[:-1], row, rows[-1]]

    # ------------------------------------------------------------------ figures (public names kept)
    @property
    def log(self) -> MoveLog:
        """The move log widget (its ``value`` is the HTML of the latest events)."""
        return self.move_log

    @property
    def win_fig(self) -> Any:
        """The P(win) chart's figure (a ``plotly.graph_objects.Figure``; the page draws it through ``win_plot``)."""
        return self._win_chart.fig

    @property
    def panel_fig(self) -> Any:
        """The game's panel figure (drawn in the page through ``panel_plot``)."""
        return self._panel.fig

    @property
    def win_plot(self) -> PlotView:
        """The widget that draws the P(win) chart in the page."""
        return self._win_chart.view

    @property
    def panel_plot(self) -> PlotView:
        """The widget that draws the game's panel in the page."""
        return self._panel.view

    @property
    def plots(self) -> tuple[PlotView, PlotView]:
        return (self.win_plot, self.panel_plot)

    @property
    def moves_fig(self) -> dict[str, Any]:
        """The move-values panel's figure as the page receives it (data and layout; empty while it shows none)."""
        return dict(self._moves_panel.view.figure)

    @property
    def moves_plot(self) -> PlotView:
        """The widget that draws the move-values panel in the page."""
        return self._moves_panel.view

    # ------------------------------------------------------------------ what reaches the page
    def _deferred_widgets(self) -> list[widgets.Widget]:
        """The widgets of one picture (status, table, log, plots): their updates wait in the kernel until a page
        shows the stepper, and are sent together."""
        return [self.counter, self.table, self.move_log, *self.plots, self._moves_panel.note, self._moves_panel.view]

    def _shown_in_page(self) -> None:
        """A page shows (or is about to show) this stepper: send what waited, and every picture from now on."""
        if self._in_page:
            return
        self._in_page = True
        self._send_picture()

    def _send_now(self, widget: widgets.Widget) -> None:
        """Send this part of the picture at once (when a page shows the stepper), then keep deferring it."""
        if self._in_page and self._deferral.deferred(widget):
            self._deferral.release(widget)
            self._deferral.defer(widget)

    def _send_picture(self) -> None:
        """Send every part of the picture that changed (one message per widget)."""
        self._deferral.release(*self._deferred_widgets())

    # ------------------------------------------------------------------ selectors and move tiles
    def _show_policies(self, names: Sequence[str], options: Sequence[str], custom: Sequence[int],
                       on_change: Callable[[dict[str, Any]], None]) -> None:
        """One seat selector per seat (``custom``: the seats played by a callable), replacing the old ones."""
        old = list(self.policies)
        for dd in old:
            dd.unobserve(on_change, names="value")
        self.policies = []
        for seat, value in enumerate(names):
            choices = [controls.CUSTOM, *options] if seat in custom else list(options)
            dd = widgets.Dropdown(options=choices, value=value if value in choices else choices[0],
                                  description=f"seat {seat}", layout=widgets.Layout(width="170px"))
            dd.observe(on_change, names="value")
            self.policies.append(dd)
        self.policy_box.children = self.policies
        close_tree(*old)   # the replaced selectors, with their layouts and styles

    def _show_tiles(self, legal: list[Move], mover: int, four_colour: bool,
                    on_click: Callable[[int], None]) -> None:
        """The legal moves of the human seat ``mover``, one tile per card they name (:mod:`cardlab.viz.chooser`).

        Tiles and their buttons are kept and reused: making a widget costs far more than changing its text,
        and a Spite and Malice hand can offer dozens of moves."""
        texts = tuple(m.text for m in legal)
        if texts == self._move_texts and self.handover_button not in self.move_box.children:
            return
        groups = group_moves(legal)
        while len(self._tiles) < len(groups):
            self._tiles.append(MoveTile(on_click))
        by_index: dict[int, widgets.Button] = {}
        for tile, group in zip(self._tiles, groups, strict=False):
            kind = legal[group.moves[0][0]].kind
            tile.show(group_picture(group, kind, four_colour), group.moves, f"seat {mover}: ")
            by_index.update(zip(tile.indices, tile.buttons, strict=False))
        for tile in self._tiles[len(groups):]:
            if tile.indices:
                tile.clear()
        self._move_texts = texts
        self.move_buttons = [by_index[i] for i in range(len(legal))]
        self.move_box.children = [tile.box for tile in self._tiles[:len(groups)]]

    @property
    def chooser_pool(self) -> list[widgets.Widget]:
        """Every widget of the move chooser's pool: tiles and buttons kept for reuse, as many as the most moves a
        position of this stepper has offered (a bounded pool, not a leak)."""
        return widget_tree(*(t.box for t in self._tiles), *(b for t in self._tiles for b in t.buttons))

    @property
    def shown_moves(self) -> list[str]:
        """The whole move of each button in :attr:`move_buttons` (in the game's order of the legal moves)."""
        return list(self._move_texts)

    def _show_handover(self, seat: int, hot_seat: bool) -> None:
        """In place of the moves: one button that takes the screen to seat ``seat``'s view."""
        self.handover_button.description = controls.handover_label(seat, hot_seat)
        self._show_tiles([], seat, False, lambda _i: None)
        self.move_box.children = [self.handover_button]

    # ------------------------------------------------------------------ the page's reports on the plots
    last_error: str | None   # the stepper's (its controller's): what the message area says went wrong

    def _report(self, exc: Exception) -> None:
        """Say in the widget what went wrong (``last_error`` and the message area)."""
        self.last_error = controls.error_text(exc)
        self.message.value = controls.message_html(self.last_error, "error")

    def _silent_plots(self) -> list[int]:
        """Plots a page should be drawing but is not: this plot has :data:`SILENT_AFTER` or more pictures the page
        never confirmed, while the other plot's every picture was confirmed (so a page does show this stepper,
        and it is not merely busy: it answers in order)."""
        silent = []
        for i, plot in enumerate(self.plots):
            other = self.plots[1 - i]
            if other.drawn >= 0 and other.is_drawn and plot.revision - plot.drawn >= SILENT_AFTER:
                silent.append(i)
        return silent

    def _on_plot_report(self, change: dict[str, Any] | None = None) -> None:
        """The page drew a plot, or could not, or stays silent: say so in the message area and offer a redraw.

        Runs on messages from the page, so it never raises: a failure of its own is reported instead."""
        try:
            self._report_plots()
        except Exception as exc:
            self._report(exc)

    def _report_plots(self) -> None:
        if any(p.drawn >= 0 or p.error for p in self.plots):
            self._shown_in_page()   # a page shows this stepper (inside another widget, say): catch it up
        problems = [f"{name} could not be drawn in this page ({p.error})"
                    for name, p in zip(PLOT_NAMES, self.plots, strict=True) if p.error]
        problems += [f"{PLOT_NAMES[i]} stopped following the game in this page" for i in self._silent_plots()]
        if problems:
            text = "; ".join(problems) + ": press Redraw plots"
            if text != self.last_error:
                self.last_error = text
                self.message.value = controls.message_html(text, "error")
            self.redraw_button.layout.display = None
        elif self.redraw_button.layout.display != "none":
            self.redraw_button.layout.display = "none"
            if self.last_error and "press Redraw plots" in self.last_error:
                # the plots caught up (by a Redraw, or by themselves on a busy page): the warning goes, and
                # only a Redraw the student asked for gets a word (a message about an error gone unseen puzzles)
                self.last_error = None
                self.message.value = controls.message_html("the plots are drawn again") if self._redraw_asked else ""
            self._redraw_asked = False

    def _redraw_clicked(self) -> None:
        self._redraw_asked = True
        try:
            self.redraw_plots()
        except Exception as exc:  # a click must never raise into the notebook
            self._report(exc)

    def redraw_plots(self) -> None:
        """What **Redraw plots** does: a plot whose current picture the page has not confirmed (it stopped
        answering, or is slow: either way a new model costs one picture) is replaced by a new widget (a new model
        in the page); the others are drawn again from scratch."""
        for chart in (self._win_chart, self._panel):
            if not chart.view.is_drawn:
                old = chart.view
                chart.view = PlotView(chart.figure_json(), default_template())
                chart.view.observe(self._on_plot_report, names=["error", "drawn"])
                self.plots_box.children = [self._moves_panel.box, *self.plots]
                self._deferral.forget(old)
                close_tree(old)
            else:
                chart.view.draw_again()
        self._moves_panel.view.draw_again()
        self._on_plot_report()
