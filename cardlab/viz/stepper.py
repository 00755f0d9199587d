"""``cardlab.Stepper``: step through a game in a notebook, with live probability panels.

::

    import cardlab
    cardlab.Stepper("garbage", players=2, seed=3)

How it behaves
--------------
* **Step** plays one *event*: the first click chooses the bot's move and shows the position after its
  first event (a card drawn, say); each further click shows one more event, so a Garbage chain
  unrolls card by card. When the last event is shown the move is committed to the game.
* **Next move** plays a whole move (or finishes the one being stepped). **Back** takes back the last
  move (or abandons a move being stepped). **Reset** goes back to the deal. **New deal** deals the
  game, player count and seed shown in the selectors; if none of them was changed, the seed moves
  on by one, so a new deal is always new.
* **Autoplay** plays one bot move after another at the speed of the slider, timed by the kernel
  (:mod:`cardlab.viz.autoplay`), whoever plays the seats and however often they were changed. It waits while a
  human seat is to move, and when it stops (the game is over, a move failed, a new deal, or Stop) the message
  area says why. **Play to the end** plays every bot move at once and draws the end.
* Each seat is played by ``greedy``, ``random`` or ``human``. A human seat to move gets one button
  per legal move; bots never move for it. Choosing ``human`` for a seat switches the viewpoint to
  that seat (unless everything is revealed), so the buttons never show more than that player knows.
  A human seat's moves show only on a screen with that seat's view; on any other, one button switches to it.
* Hot-seat play: with two or more human seats, the screen follows the human seat to move. Between two
  human turns a "pass the device to seat k" screen hides every hand (and the move buttons) until seat
  k clicks "I am seat k"; the viewpoint menu is locked until the game is over. ``hot_seat=False`` turns
  this off for a screen that everybody watches, such as a teacher's demonstration driven from code.
* The two plots are :class:`~cardlab.viz.plot.PlotView` widgets (plotly.js reaches the page once per kernel);
  a plot that fails to draw is named in the message area, with a **Redraw plots** button.
* Widgets are released: New deal closes the widgets it replaces, :meth:`Stepper.close` closes every
  widget the stepper made (layouts and styles included), and running a notebook cell again closes
  the steppers its earlier run made (see :mod:`cardlab.viz.lifecycle`).
* ``intervals=False`` shows every estimate as its value alone, for a lesson that comes before intervals are
  taught: no 95% band on the P(win) chart, no error bars on the panels, and no interval in the still picture,
  the numbers as text (:meth:`~cardlab.viz.stepper_state.StepperState.panel_numbers`, ``history_numbers``,
  ``move_numbers``), the predict feedback and scores, or the class session's answer and charts.
* A page that runs no widgets (a notebook rendered by nbconvert or GitHub) shows a still picture of
  the stepper's last table and panels (the output's ``text/html``, see :mod:`cardlab.viz.snapshot`).
* What reaches the page: the table without the drawing of its face-down cards (one shared CSS rule paints
  the backs: :func:`~cardlab.viz.cards_svg.share_backs`); a stepper no page shows yet keeps its state in the
  kernel until it is displayed (:class:`~cardlab.viz.lifecycle.Deferral`).
* ``seed=None`` draws a fresh seed and shows it in the seed box, so the deal can still be replayed. Bots are
  seeded (:mod:`cardlab.viz.controller`), so Back then Next move plays the same move again.

Probabilities
-------------
The panels are computed after every move from the selected viewpoint (see :mod:`cardlab.viz.controls`),
seeded and cached by :mod:`cardlab.viz.estimates`, so the same clicks give the same numbers on every machine.

The move-values panel (``move_values=True``, or the **show move values** box; off by default, up to about 300 ms
a move) shows each distinct legal move's chance of winning for the seat to move from the mover's own information
(:func:`cardlab.sim.move_values.move_values`), only on a screen that knows what the mover knows
(:meth:`~cardlab.viz.controller.StepperController.move_values_seat`); numbers in :meth:`Stepper.move_numbers`.
With ``session=`` (a class session, :mod:`cardlab.classroom`) the stepper gets "Ask the class" and "Reveal".

Parts
-----
:class:`~cardlab.viz.controller.StepperController` holds the game, the moves, the seats' players, hot-seat play
and the guarded actions, with no widget; :class:`~cardlab.viz.estimates.Estimates` schedules and caches the
estimates; :class:`~cardlab.viz.parts.StepperWidgets` builds the widgets. :class:`Stepper` is the view: it
sends the clicks to the controller and draws what the controller tells it to.

The view draws only ``game.observe(viewpoint)`` (:func:`cardlab.viz.table.table_html`), or everything, labelled so.

Errors in a callback never escape: the message area shows a short sentence, the game is put back as it was
before the click, and ``last_error`` holds that sentence (``None`` after an action that succeeded).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardlab.cards import Card
from cardlab.classroom.client import ClassSession
from cardlab.engine.game import Game, Move
from cardlab.engine.registry import game_class, registered_spec
from cardlab.errors import IllegalMoveError
from cardlab.policies import Policy
from cardlab.sim.move_values import MoveValues
from cardlab.sim.prob import Quantity
from cardlab.viz import controls
from cardlab.viz.autoplay import Autoplayer
from cardlab.viz.cards_svg import share_backs
from cardlab.viz.classpoll import attach as attach_class_poll
from cardlab.viz.controller import POLICY_SALT, StepperController, check_flag, policy_options
from cardlab.viz.display import LiveDisplay
from cardlab.viz.estimates import (
    MAX_HISTORY_POINTS,
    MAX_ROLLOUTS,
    MOVES_PURPOSE,
    PANEL_PURPOSE,
    WIN_PURPOSE,
    Estimates,
    WinPoint,
)
from cardlab.viz.lifecycle import CellOwners, close_tree
from cardlab.viz.panels import title_html
from cardlab.viz.parts import StepperWidgets, card_style, player_range
from cardlab.viz.predict import PredictController, predict_settings
from cardlab.viz.predict import attach as attach_predictor
from cardlab.viz.snapshot import stepper_html
from cardlab.viz.stepper_state import StepperState, stepper_deal
from cardlab.viz.table import table_html

__all__ = ["MAX_HISTORY_POINTS", "MAX_ROLLOUTS", "MOVES_PURPOSE", "PANEL_PURPOSE", "POLICY_SALT", "WIN_PURPOSE",
           "Stepper", "card_style"]

_CELL_OWNERS = CellOwners()


class Stepper(StepperState, StepperWidgets):
    """A game table with step controls, a move log and Plotly probability panels."""

    def __init__(self, game: str | Game[Any] | None = None, players: int | None = 2, seed: int | None = 3,
                 rollouts: int | None = None, policies: Sequence[str | Policy] | None = None,
                 four_colour: bool = False, deck: Sequence[str | Card] | None = None,
                 history_rollouts: int | None = None, panel_rollouts: int | None = None,
                 predict: bool | str = False, predict_seat: int | None = None, hot_seat: bool = True,
                 move_values: bool = False, move_rollouts: int | None = None, session: ClassSession | str | None = None,
                 intervals: bool = True, **options: Any) -> None:
        # Bad input is refused before the widget exists: a refused Stepper leaves no widget open in the kernel.
        for flag, value in (("hot_seat", hot_seat), ("four_colour", four_colour), ("move_values", move_values),
                            ("intervals", intervals)):
            check_flag(value, flag)
        dealt, seed = stepper_deal(game, players, seed, deck, options)
        self.four_colour = bool(four_colour)
        self.intervals = bool(intervals)   # False: estimates drawn and written without their 95% intervals
        self.estimates = Estimates(rollouts, history_rollouts, panel_rollouts, move_rollouts)
        predict_with = predict_settings(dealt, predict, predict_seat)
        # False: one screen that everybody watches (a teacher's demonstration driven from code); no cover screens
        self.controller = StepperController(dealt, int(seed), policies, hot_seat=bool(hot_seat),
                                            move_values=bool(move_values))
        self.autoplayer = Autoplayer(self.controller.tick, self._autoplay_changed)
        self.win_history: list[WinPoint] = []
        self.quantities: list[Quantity] = []
        self.shown_move_values: MoveValues | None = None   # what the move-values panel shows (None: no values)
        self._moves_note: str | None = None                # and the sentence it shows instead
        self._table_full = ""   # the table with every card drawn in full (the still picture shows it)
        self._build_widgets(dealt.name, dealt.players, int(seed), self.intervals)
        # what a notebook output shows: the live box, with the still picture for pages that run no widgets
        self.live = LiveDisplay(self.box, self._plain_text, self._still_html,
                                lambda: any(p.drawn >= 0 for p in self.plots), self._shown_in_page)
        self._wire()
        self.predictor: PredictController | None = None   # predict, then reveal (cardlab.viz.predict)
        if predict_with is not None:
            self.predictor, box = attach_predictor(self.plots_box, *predict_with, intervals=self.intervals)
            self.insert_row(box)
        # a class session (cardlab.viz.classpoll): "Ask the class" and "Reveal", the live count and histogram
        self.class_poll = None if session is None else attach_class_poll(self, session)
        if self.class_poll is not None:
            self.insert_row(self.class_poll.box)
        self._show_seats()
        with self._quiet():
            self.viewpoint.value = self.controller.viewpoint
            self.move_values_check.value = self.controller.move_values
        self.controller.watch(self)
        self.controller.guarded(lambda: self.redraw(True))
        _CELL_OWNERS.adopt(self)

    def _wire(self) -> None:
        self.handover_button.on_click(lambda _b: self.take_device())
        self.redraw_button.on_click(lambda _b: self._redraw_clicked())
        for plot in self.plots:
            plot.observe(self._on_plot_report, names=["error", "drawn"])
        self.new_deal_button.on_click(lambda _b: self.new_deal())
        self.step_button.on_click(lambda _b: self.step())
        self.next_button.on_click(lambda _b: self.next_move())
        self.back_button.on_click(lambda _b: self.back())
        self.reset_button.on_click(lambda _b: self.reset())
        self.autoplay_button.observe(self._on_autoplay_button, names="value")
        self.play_end_button.on_click(lambda _b: self.play_to_end())
        self.viewpoint.observe(self._on_viewpoint, names="value")
        self.game_select.observe(self._on_game_select, names="value")
        self.move_values_check.observe(self._on_move_values_check, names="value")

    # ------------------------------------------------------------------ actions (guarded by the controller)
    def next_move(self) -> None:
        """Play one whole move (or finish the move being stepped), then refresh every panel."""
        self.controller.next_move()

    def step(self) -> None:
        """Show one more event of the next move; the move is committed when its last event is shown."""
        self.controller.step()

    def back(self) -> None:
        """Take back the last move, or abandon the move being stepped."""
        self.controller.back()

    def reset(self) -> None:
        """Go back to the deal (every move taken back)."""
        self.controller.reset()

    def new_deal(self) -> None:
        """Deal the game, players and seed of the selectors (seed + 1 if nothing was changed)."""
        self.controller.new_deal(self.game_select.value, self.players_select.value, self.seed_select.value)

    def play(self, move: Move | str) -> None:
        """Play ``move`` for the seat to move, as a click on a human move button does."""
        self.controller.play(move)

    def take_device(self) -> None:
        """The human seat to move takes the device: the screen turns to that seat's view and its moves."""
        self.controller.take_device()

    def autoplay_tick(self) -> str | None:
        """What one tick of Autoplay does: one move by a bot, or nothing while a human is to move; returns
        None, or why Autoplay would stop here."""
        return self.controller.tick()

    def play_to_end(self) -> None:
        """Play every bot move until the game is over (or a human seat is to move), as **Play to the end** does."""
        self.autoplayer.stop("Autoplay stopped: Play to the end was pressed")
        self.controller.play_to_end()

    def start_autoplay(self) -> None:
        """Press **Autoplay** (the kernel plays a move every 1/speed seconds; see :mod:`cardlab.viz.autoplay`)."""
        self.autoplayer.start()

    def stop_autoplay(self) -> None:
        """Press **Autoplay** again: stop."""
        self.autoplayer.stop("Autoplay stopped: you pressed it")

    def close(self) -> None:
        """Close every widget of the stepper (children, move tiles, policy selectors, layouts, styles)."""
        if "_tiles" not in self.__dict__:  # refused before its parts were built: no widget is open
            return
        self.autoplayer.stop("the stepper is closed")
        if (poll := getattr(self, "class_poll", None)) is not None:
            poll.close()
        extras = [tile.box for tile in self._tiles] + [b for t in self._tiles for b in t.buttons]
        extras += list(self.policies) + [self.handover_button]
        extras += [self._moves_panel.note, self._moves_panel.view]   # out of the tree while the panel is blank
        close_tree(self.box, *extras, keep=[self._card_style])   # the card style serves other steppers

    # ------------------------------------------------------------------ the still picture
    def _ipython_display_(self) -> None:
        """Show the live stepper, with its still picture for pages that run no widgets (:class:`LiveDisplay`)."""
        self.live.show()

    def _plain_text(self) -> str:
        """The call that makes this deal, then (with the move-values panel on) the panel's numbers, so that
        notebook checks compare them."""
        call = f"cardlab.Stepper({self.game.name!r}, players={self.game.players}, seed={self.deal_seed}"
        if not self.controller.move_values:
            return call + ")"
        return f"{call}, move_values=True)\n{self.move_numbers()}"

    def _still_html(self) -> str:
        """The still picture (see :mod:`cardlab.viz.snapshot`): status, table and both panels."""
        words = controls.viewpoint_words(self.controller.viewpoint)
        over = " (game over)" if self.game.is_over else ""
        return stepper_html(controls.status_text(self.game, self.controller.names), self._table_full,
                            self.win_history, self.game.players, f"P(win) by move, from {words}", self.quantities,
                            f"Chances at move {self.game.move_count}{over}, from {words}",
                            self._moves_panel.still_html(), self.intervals)

    # ------------------------------------------------------------------ what the controller tells the view
    def redraw(self, panels: bool) -> None:
        """Draw the position into the widgets (one message per widget, sent at the end)."""
        self._deferral.defer(*self._deferred_widgets())
        try:
            self._draw(panels)
        finally:
            if self._in_page:
                self._send_picture()

    def dealt(self) -> None:
        """Another game is on the table: selectors, seat players, viewpoints and figures follow it."""
        c, game = self.controller, self.controller.game
        self.estimates.clear()
        with self._quiet():
            self.game_select.value = game.name
            self.players_select.options = player_range(game.name)
            self.players_select.value = game.players
            self.seed_select.value = c.seed
            self.viewpoint.options = controls.viewpoint_options(game.players)
            self.viewpoint.value = c.viewpoint
        self._show_seats()
        self.shown_move_values, self._moves_note = None, None
        self._win_chart.set_players(game.players)
        self._panel.set_players(game.players)

    def autoplay_stopped(self) -> None:
        self.autoplayer.stop("Autoplay stopped: a new deal")

    def _autoplay_changed(self, playing: bool, reason: str) -> None:
        """Autoplay started or stopped: the button follows, and the message area says why it stopped."""
        with self._quiet():
            self.autoplay_button.value = playing
        self.autoplay_button.icon = "stop" if playing else "play"
        self.autoplay_button.description = "Stop autoplay" if playing else "Autoplay"
        if reason:
            self.message.value = controls.message_html(reason)

    def finished(self, note: str | None, error: Exception | None) -> None:
        if error is None:
            self.message.value = controls.message_html(note or "")
            return
        self.message.value = controls.message_html(self.last_error or "", "error")
        try:
            self.redraw(False)
        except Exception:  # the drawing itself failed: keep the message, leave the old drawing
            pass

    def _show_seats(self) -> None:
        c = self.controller
        with self._quiet():
            self._show_policies(c.names, policy_options(c.game.name), list(c.custom), self._on_policy)

    def _draw(self, panels: bool) -> None:
        c = self.controller
        cover = c.follow_seat_to_move()
        with self._quiet():
            for dd, name in zip(self.policies, c.names, strict=False):
                if dd.value != name and name in dd.options:
                    dd.value = name
            self.viewpoint.value = c.viewpoint
            self.move_values_check.value = c.move_values
        self.viewpoint.disabled = c.viewpoint_locked
        seat, reveal, code = c.view()
        shown = c.shown_game
        if cover is None:
            self._table_full = table_html(shown, viewpoint=seat, reveal_all=reveal, four_colour=self.four_colour)
            self.table.value = share_backs(self._table_full)
            self.move_log.value = controls.log_html(shown.events, seat, reveal)
            # the table goes to the page before the move tiles change, so a page never shows a human's moves
            # beside a table they do not belong to (the cover for the seat taking the device, say)
            self._send_now(self.table)
            self._show_moves(None)
        else:  # the device is being passed: the moves leave the page first, then the hand; the public log only
            self._show_moves(cover)
            self._table_full = self.table.value = controls.handover_html(cover)
            self.move_log.value = controls.log_html(shown.events, None, False)
        self.counter.value = controls.status_html(self.game, c.names, c.step_shown())
        self._draw_move_values(cover)
        if panels:
            self._refresh_panels(code)

    def _draw_move_values(self, cover: int | None) -> None:
        """The move-values panel: the mover's values when it may show them (computed once per position), else
        the sentence saying why not; nothing is redrawn when that did not change."""
        seat, note = self.controller.move_values_seat(cover)
        values = None if seat is None else self.estimates.move_values(self.game, self.deal_seed)
        if values is not None and values.forced:
            note = (f"Move values: seat {values.seat} has one move ({values.best_move.text}), there is nothing to "
                    "choose.")
            values = None
        if values is self.shown_move_values and note == self._moves_note:
            return
        self.shown_move_values, self._moves_note = values, note
        panel = self._moves_panel
        if values is None:
            panel.blank(note)
            return
        heading = (f"Move values of seat {values.seat} (to move), from its own information: {values.playouts} "
                   "play-outs per move, greedy play after the move")
        ranked = sorted(values.records(), key=lambda r: -r["win"])   # best first (stable: the best of a tie leads)
        panel.fill(ranked, heading, "Win chance of each move",
                   f"seat {values.seat}'s view; {values.playouts} play-outs per move")
        # the new figure reaches the page before the plot is shown, so it never shows an earlier mover's bars
        self._send_now(panel.note)
        self._send_now(panel.view)
        panel.reveal()

    def _show_moves(self, cover: int | None) -> None:
        """The tiles of a human seat to move: shown only on a screen that shows the mover's hand (its own
        viewpoint, or everything revealed); otherwise, and while the device is passed to ``cover``, one button
        takes the screen to the mover's view (:meth:`take_device`), and no tile keeps a hidden card's name."""
        c = self.controller
        mover = c.human_to_move()
        legal: list[Move] = []
        if mover is not None:
            seat, reveal, _ = c.view()
            if cover is not None or not (reveal or seat == mover):
                self._show_handover(mover, cover is not None)
                return
            legal = self.game.legal_moves()
        self._show_tiles(legal, self.game.current_player, self.four_colour, self._click_tile)

    def _click_tile(self, index: int) -> None:
        texts = self._move_texts
        if 0 <= index < len(texts):
            self.controller.play(texts[index])
            return

        def refuse() -> str | None:
            raise IllegalMoveError("that move is no longer offered: choose one of the moves shown")

        self.controller.guarded(refuse)

    def _refresh_panels(self, code: int) -> None:
        game, seed = self.game, self.deal_seed
        self.win_history = self.estimates.win_history(game, seed, code)
        self.quantities = self.estimates.panel(game, seed, code)
        words = f"{controls.turn_words(game)}, from {controls.viewpoint_words(self.controller.viewpoint)}"
        self._win_chart.update(self.win_history, title_html("P(win) by move", words))
        over = " (game over)" if game.is_over else ""
        result = controls.result_text(game).capitalize() if game.is_over else ""
        title = title_html(f"Chances at move {game.move_count}{over}", words)
        curves = spec.curve_title if (spec := registered_spec(game)) is not None else ""
        self._panel.update([] if result else self.quantities, title, curves, result)
        self._on_plot_report()
        if self.predictor is not None:
            self.predictor.position(self.controller, self.win_history, self.quantities)

    # ------------------------------------------------------------------ the user's changes to the selectors
    def _on_autoplay_button(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        if change["new"]:
            self.start_autoplay()
        else:
            self.stop_autoplay()

    def _on_move_values_check(self, change: dict[str, Any]) -> None:
        if not self._quiet:
            self.controller.show_move_values(bool(change["new"]))

    def _on_viewpoint(self, change: dict[str, Any]) -> None:
        if not self._quiet:
            self.controller.choose_viewpoint(str(change["new"]))

    def _on_policy(self, change: dict[str, Any]) -> None:
        owner = change.get("owner")
        if not self._quiet and owner in self.policies:
            self.controller.choose_policy(self.policies.index(owner), str(change["new"]))

    def _on_game_select(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return

        def action() -> str | None:
            options = player_range(str(change["new"]))
            current = self.players_select.value
            cls = game_class(str(change["new"]))
            self.players_select.options = options
            self.players_select.value = current if current in options else cls.default_players
            return f"press New deal to deal {cls.title}"

        self.controller.guarded(action)
