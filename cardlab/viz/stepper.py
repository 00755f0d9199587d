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
* **Autoplay** plays one move per tick of an ``ipywidgets.Play`` widget at the speed of the slider.
  It waits while a human seat is to move and stops when the game is over.
* Each seat is played by ``greedy``, ``random`` or ``human``. A human seat to move gets one button
  per legal move; bots never move for it. Choosing ``human`` for a seat switches the viewpoint to
  that seat (unless everything is revealed), so the buttons never show more than that player knows.
  A human seat's moves show only on a screen with that seat's view; on any other, one button switches to it.
* Hot-seat play: with two or more human seats, the screen follows the human seat to move. Between two
  human turns a "pass the device to seat k" screen hides every hand (and the move buttons) until seat
  k clicks "I am seat k"; the viewpoint menu is locked until the game is over. ``hot_seat=False`` turns
  this off for a screen that everybody watches, such as a teacher's demonstration driven from code.
* The two plots are :class:`~cardlab.viz.plot.PlotView` widgets: plotly.js reaches the page once per
  kernel, not once per figure (see :mod:`cardlab.viz.plot`). The page reports each plot's drawing
  back; a plot that fails to draw is named in the message area, with a **Redraw plots** button.
* Layout: the plots sit beside the table when the output area is wide enough (about 950 px) and
  wrap below it when narrower.
* Widgets are released: New deal closes the widgets it replaces, :meth:`Stepper.close` closes every
  widget the stepper made (layouts and styles included), and running a notebook cell again closes
  the steppers its earlier run made (see :mod:`cardlab.viz.lifecycle`).
* A page that runs no widgets (a notebook rendered by nbconvert or GitHub) shows a still picture of
  the stepper's last table and panels (the output's ``text/html``, see :mod:`cardlab.viz.snapshot`).
* What reaches the page: the table is sent without the drawing of its face-down cards (one CSS rule,
  sent once per kernel in one style widget that every stepper shows, paints the same back:
  :func:`~cardlab.viz.cards_svg.share_backs`); the still picture keeps every drawing. A stepper that
  no page shows yet (made and stepped from code, never displayed) keeps its status, table, log and
  plots in the kernel, and sends their current state once when it is displayed or when a page draws
  one of its plots (:class:`~cardlab.viz.lifecycle.Deferred`).
* ``seed=None`` draws a fresh seed from the operating system and shows it in the seed box, so the deal
  can still be replayed.
* Bots are seeded: the random bot of seat s at move i draws from ``default_rng([seed, i, 7919 + s])``,
  so Back then Next move plays the same move again.

Probabilities
-------------
The panels are computed after every move from the selected viewpoint (see
:mod:`cardlab.viz.controls`). Every estimate is seeded with
``default_rng([seed, move index, viewpoint code, purpose])``, so the same clicks give the same
numbers on every machine. Results are cached per (line of play, move index, viewpoint), so Back and
redraws cost nothing. Switching the viewpoint recomputes the whole history: the current point with
``rollouts`` play-outs, the earlier points with ``history_rollouts`` (a quarter as many by default),
because a history of a hundred moves must redraw in about a second; a history longer than
``MAX_HISTORY_POINTS`` moves is recomputed at evenly spaced moves only (points already computed for
that viewpoint are kept), and the chart joins the points it has.

The view draws only ``game.observe(viewpoint)`` (through :func:`cardlab.viz.table.table_html`);
"everything revealed" is the one exception and is labelled so on the table.

Errors in a callback never escape: the message area shows a short sentence and the game is put back
exactly as it was before the click. ``last_error`` holds that sentence (``None`` after an action that
succeeded), so a notebook loop can check it without reading HTML.
"""

from __future__ import annotations

import uuid
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
import numpy as np

from cardlab.cards import Card
from cardlab.engine.game import Game, Move
from cardlab.engine.registry import game_class, game_names, new_game, registered_spec
from cardlab.engine.spec import FALLBACK_BUDGETS, RolloutBudgets
from cardlab.errors import IllegalMoveError, InvalidInputError, shown
from cardlab.policies import Policy, choose, make_policy
from cardlab.sim.prob import Quantity, panel_quantities, win_probability
from cardlab.sim.simulate import MAX_SEED
from cardlab.sim.stats import Estimate
from cardlab.viz import controls
from cardlab.viz.cards_svg import back_css, card_html, share_backs
from cardlab.viz.lifecycle import CellOwners, Deferred, DeferredHTML, close_tree
from cardlab.viz.panels import QuantityPanel, WinChart, WinPoint, title_html
from cardlab.viz.plot import PlotView, default_template
from cardlab.viz.predict import Calibration, PredictController, predict_settings
from cardlab.viz.predict import attach as attach_predictor
from cardlab.viz.snapshot import stepper_html
from cardlab.viz.table import table_html

# Play-outs per estimate (win chart, per-game panel) for one Next move: each game's spec gives them
# (GameSpec.budgets), chosen so that a move with every panel refreshed stays well under 100 ms
# (benchmarks/bench_stepper.py measures it).
WIN_PURPOSE, PANEL_PURPOSE = 0, 1
MAX_HISTORY_POINTS = 60
POLICY_SALT = 7919
PLOT_NAMES = ("the P(win) chart", "the game's panel")
SILENT_AFTER = 3   # pictures a plot may be behind the page's answers before it counts as silent
MAX_ROLLOUTS = 1_000_000   # play-outs per estimate a stepper takes: more would freeze the widget for minutes
_CELL_OWNERS = CellOwners()


@dataclass
class _Pending:
    """A move being shown event by event: the positions after each event, and how many are shown."""

    move: Move
    frames: list[Game[Any]]
    shown: int


class Stepper(widgets.VBox):  # type: ignore[misc]
    """A game table with step controls, a move log and Plotly probability panels."""

    @property
    def log(self) -> controls.MoveLog:
        """The move log widget (its ``value`` is the HTML of the latest events)."""
        return self.move_log

    def __init__(self, game: str | Game[Any] | None = None, players: int | None = 2, seed: int | None = 3,
                 rollouts: int | None = None, policies: Sequence[str | Policy] | None = None,
                 four_colour: bool = False, deck: Sequence[str | Card] | None = None,
                 history_rollouts: int | None = None, panel_rollouts: int | None = None,
                 predict: bool | str = False, predict_seat: int | None = None, hot_seat: bool = True,
                 **options: Any) -> None:
        # Bad input is refused before the widget exists: a refused Stepper leaves no widget open in the kernel.
        for flag, value in (("hot_seat", hot_seat), ("four_colour", four_colour)):
            if not isinstance(value, (bool, np.bool_)):
                raise InvalidInputError(f"{flag}={shown(value)} is not True or False")
        hot_seat = bool(hot_seat)
        # False: one screen that everybody watches (a teacher's demonstration driven from code); no cover screens
        self.hot_seat = hot_seat
        if seed is None:  # a fresh seed from the operating system, shown in the seed box so the deal can be replayed
            seed = int(np.random.default_rng().integers(1_000_000))
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
            raise InvalidInputError(f"seed={shown(seed)} is not allowed; give a whole number from 0 to {MAX_SEED:,} "
                                    "(or None for a fresh seed, shown in the seed box)")
        self.four_colour = bool(four_colour)
        self._rollouts_given = _check_count(rollouts, "rollouts")
        self._history_given = _check_count(history_rollouts, "history_rollouts")
        self._panel_given = _check_count(panel_rollouts, "panel_rollouts")
        if isinstance(game, Game):
            if deck is not None or options:
                given = ", ".join(["deck", *options] if deck is not None else list(options))
                raise InvalidInputError(f"{given} cannot be given with an existing {game.name} game, which is "
                                        "already dealt; pass the game's name instead to deal a new one")
            self.game: Game[Any] = game
            # a game dealt from a seed the seed box cannot hold is treated as one loaded from a record
            self._seed = int(game.seed) if game.seed is not None and game.seed <= MAX_SEED else int(seed)
        else:
            # None: the first registered game in alphabetical order (Garbage)
            self.game = new_game(game if game is not None else game_names()[0], players=players, seed=seed,
                                 deck=deck, **options)
            self._seed = int(seed)
        predict_with = predict_settings(self.game, predict, predict_seat)
        policy_specs = self._policy_specs(policies)
        super().__init__()
        self._options_for = (self.game.name, dict(self.game.options))
        self._pending: _Pending | None = None
        self._win_cache: dict[tuple[int, int, int], tuple[Estimate, ...]] = {}
        self._panel_cache: dict[tuple[int, int, int], list[Quantity]] = {}
        self._custom: dict[int, Policy] = {}
        self._move_texts: tuple[str, ...] = ()
        self._muted = False
        self._holder: int | None = None      # hot-seat play: the human seat holding the device
        self._cover_for: int | None = None   # hot-seat play: the seat the device is being passed to
        self.win_history: list[WinPoint] = []
        self.quantities: list[Quantity] = []
        self.last_error: str | None = None   # what the message area says about the last failed action
        self._display_ids: list[str] = []
        self._shown_html = ""
        self._table_full = ""   # the table with every card drawn in full (the still picture shows it)
        self._in_page = False   # displayed, or a page drew one of its plots: updates are sent as they happen
        self._build_widgets()
        for w in self._deferred_widgets():
            w.defer()
        self.predictor: PredictController | None = None   # predict, then reveal (cardlab.viz.predict)
        if predict_with is not None:
            self.predictor, box = attach_predictor(self, *predict_with)
            rows: list[widgets.Widget] = list(self.children)  # type: ignore[has-type]
            self.children = [*rows[:-1], box, rows[-1]]
        self._apply_policy_specs(policy_specs)
        self._guarded(lambda: self._refresh(panels=True))
        _CELL_OWNERS.adopt(self)

    # ------------------------------------------------------------------ figures (public names kept)
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

    def _deferred_widgets(self) -> list[Deferred]:
        """The widgets of one picture (status, table, log, plots): their updates wait in the kernel until a page
        shows the stepper, and are sent together."""
        return [self.counter, self.table, self.move_log, *self.plots]

    def _shown_in_page(self) -> None:
        """A page shows (or is about to show) this stepper: send what waited, and every picture from now on."""
        if self._in_page:
            return
        self._in_page = True
        self._send_picture()

    def _send_now(self, widget: Deferred) -> None:
        """Send this part of the picture at once (when a page shows the stepper), then keep deferring it."""
        if self._in_page and widget.deferred:
            widget.release()
            widget.defer()

    def _send_picture(self) -> None:
        """Send every part of the picture that changed (one message per widget)."""
        for w in self._deferred_widgets():
            w.release()

    def close(self) -> None:
        """Close every widget of the stepper (children, move tiles, policy selectors, layouts, styles)."""
        if "_tiles" not in self.__dict__:  # refused before its parts were built (``Widget.__del__`` closes it too)
            super().close()
            return
        extras = [tile.box for tile in self._tiles] + list(self.policies) + [self._autoplay_link, self.handover_button]
        close_tree(self, *extras, skip=self, keep=[self._card_style])   # the card style serves other steppers
        super().close()

    # ------------------------------------------------------------------ display (live and still)
    def _still_html(self) -> str:
        words = controls.viewpoint_words(str(self.viewpoint.value))
        names = [str(dd.value) for dd in self.policies]
        over = " (game over)" if self.game.is_over else ""
        now = self.game.move_count
        return stepper_html(controls.status_text(self.game, names), self._table_full, self.win_history,
                            self.game.players, f"P(win) by move, from {words}", self.quantities,
                            f"Chances at move {now}{over}, from {words}")

    def _mime_bundle(self) -> dict[str, Any]:
        data = dict(super()._repr_mimebundle_() or {})
        data["text/plain"] = f"cardlab.Stepper({self.game.name!r}, players={self.game.players}, seed={self._seed})"
        data["text/html"] = self._still_html()
        return data

    def _ipython_display_(self) -> None:
        """Show the live widget, with a still picture (``text/html``) for pages that run no widgets.

        The picture is kept current after each cell that changed it (``update_display``) until a page
        reports drawing this stepper's plots: from then on the live page shows the truth, and updating
        the output would make the page build the widget's view again.
        """
        from IPython.display import display
        if self.comm is None:
            return
        self._shown_in_page()   # the page's views are built from the current state, sent first
        display_id = uuid.uuid4().hex
        self._display_ids.append(display_id)
        self._shown_html = self._still_html()
        display(self._mime_bundle(), raw=True, display_id=display_id)  # type: ignore[no-untyped-call]
        _SHOWN.add(self)
        _watch_cells()

    def _update_still(self) -> None:
        if not self._display_ids or self.comm is None or any(p.drawn >= 0 for p in self.plots):
            return
        picture = self._still_html()
        if picture == self._shown_html:
            return
        from IPython.display import update_display
        self._shown_html = picture
        bundle = self._mime_bundle()
        for display_id in self._display_ids:
            update_display(bundle, raw=True, display_id=display_id)  # type: ignore[no-untyped-call]

    # ------------------------------------------------------------------ widgets
    def _build_widgets(self) -> None:
        g = self.game
        self.game_select = widgets.Dropdown(options=game_names(), value=g.name, description="game",
                                            layout=widgets.Layout(width="220px"))
        self.players_select = widgets.Dropdown(options=_player_range(g.name), value=g.players,
                                               description="players", layout=widgets.Layout(width="150px"))
        self.seed_select = widgets.IntText(value=self._seed, description="seed", layout=widgets.Layout(width="160px"))
        self.new_deal_button = widgets.Button(description="New deal", icon="refresh")
        self.step_button = widgets.Button(description="Step", tooltip="play one event of the next move")
        self.next_button = widgets.Button(description="Next move", button_style="primary")
        self.back_button = widgets.Button(description="Back", tooltip="take back the last move")
        self.reset_button = widgets.Button(description="Reset", tooltip="back to the deal")
        self.autoplay = widgets.Play(value=0, min=0, max=10**9, step=1, interval=500, show_repeat=False,
                                     description="autoplay")
        self.autoplay_button = widgets.ToggleButton(description="Autoplay", value=False, icon="play")
        self._autoplay_link = widgets.link((self.autoplay_button, "value"), (self.autoplay, "playing"))
        self.speed = widgets.FloatSlider(value=2.0, min=0.5, max=10.0, step=0.5, description="moves/s",
                                         readout_format=".1f", layout=widgets.Layout(width="260px"))
        self.counter = DeferredHTML()
        self.viewpoint = widgets.Dropdown(options=controls.viewpoint_options(g.players), value=controls.TABLE,
                                          description="viewpoint", layout=widgets.Layout(width="260px"))
        self.policy_box = widgets.HBox()
        self.policies: list[widgets.Dropdown] = []
        self.message = widgets.HTML()
        self.table = DeferredHTML()
        self._card_style = card_style()   # the back of every table's face-down cards (see share_backs), one per kernel
        self.move_box = widgets.Box(layout=widgets.Layout(flex_flow="row wrap"))
        self.move_buttons: list[widgets.Button] = []
        self._tiles: list[controls.MoveTile] = []
        self.handover_button = widgets.Button(button_style="warning", layout=widgets.Layout(width="auto"))
        self.handover_button.on_click(lambda _b: self.take_device())
        self.move_log = controls.MoveLog()
        self._win_chart = WinChart(g.players)
        self._panel = QuantityPanel(g.players)
        self.redraw_button = widgets.Button(description="Redraw plots", tooltip="draw both plots again",
                                            layout=widgets.Layout(display="none"))
        self.redraw_button.on_click(lambda _b: self._redraw_clicked())
        for plot in self.plots:
            plot.observe(self._on_plot_report, names=["error", "drawn"])

        self.new_deal_button.on_click(lambda _b: self.new_deal())
        self.step_button.on_click(lambda _b: self.step())
        self.next_button.on_click(lambda _b: self.next_move())
        self.back_button.on_click(lambda _b: self.back())
        self.reset_button.on_click(lambda _b: self.reset())
        self.autoplay.observe(self._on_tick, names="value")
        self.speed.observe(self._on_speed, names="value")
        self.viewpoint.observe(self._on_viewpoint, names="value")
        self.game_select.observe(self._on_game_select, names="value")
        self._on_speed({"new": self.speed.value})

        deal_row = widgets.HBox([self.game_select, self.players_select, self.seed_select, self.new_deal_button])
        play_row = widgets.HBox([self.step_button, self.next_button, self.back_button, self.reset_button,
                                 self.autoplay_button, self.autoplay, self.speed])
        view_row = widgets.HBox([self.viewpoint, self.policy_box])
        # The table takes what is left of the width (at least 420 px); the plots keep their size and wrap
        # below the table when the two do not fit side by side.
        left = widgets.VBox([self._card_style, self.table, self.move_box, self.move_log],
                            layout=widgets.Layout(flex="1 1 420px", min_width="420px", max_width="820px"))
        self._right = widgets.VBox([self.win_plot, self.panel_plot], layout=widgets.Layout(flex="0 0 auto"))
        self._right.add_class("cardlab-plots")
        self.move_box.add_class("cardlab-move-box")
        self.add_class("cardlab-stepper")
        left.add_class("cardlab-table-side")
        self.children = [deal_row, play_row, widgets.HBox([self.counter]), view_row,
                         widgets.HBox([self.message, self.redraw_button], layout=widgets.Layout(align_items="center")),
                         widgets.HBox([left, self._right],
                                      layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))]

    def _build_policy_dropdowns(self, wanted: Sequence[str]) -> None:
        old = list(self.policies)
        for dd in old:
            dd.unobserve(self._on_policy, names="value")
        self.policies = []
        for seat, value in enumerate(wanted):
            options = list(self._policy_options())
            if seat in self._custom:
                options.insert(0, controls.CUSTOM)
            dd = widgets.Dropdown(options=options, value=value if value in options else options[0],
                                  description=f"seat {seat}", layout=widgets.Layout(width="170px"))
            dd.observe(self._on_policy, names="value")
            self.policies.append(dd)
        self.policy_box.children = self.policies
        close_tree(*old)   # the replaced selectors, with their layouts and styles

    def _policy_options(self) -> tuple[str, ...]:
        """``greedy`` only where the game has a greedy bot registered."""
        try:
            make_policy("greedy", self.game.name, np.random.default_rng(0))
        except InvalidInputError:
            return tuple(p for p in controls.POLICY_CHOICES if p != "greedy")
        return controls.POLICY_CHOICES

    def _policy_specs(self, policies: Sequence[str | Policy] | None) -> tuple[list[str], dict[int, Policy]] | None:
        """The selector names and the callables of ``Stepper(policies=...)``, checked (None: the default)."""
        if policies is None:
            return None
        players = self.game.players
        try:
            count = len(policies)
        except TypeError:
            count = -1
        if isinstance(policies, (str, bytes)) or count != players:
            raise InvalidInputError(f"policies={shown(policies)} must list one policy per seat ({players} seats): "
                                    f"'greedy', 'random', 'human' or a callable (view, legal_moves)")
        names: list[str] = []
        custom: dict[int, Policy] = {}
        for seat, spec in enumerate(policies):
            if callable(spec):
                custom[seat] = spec
                names.append(controls.CUSTOM)
            elif isinstance(spec, str) and spec in self._policy_options():
                names.append(spec)
            else:
                raise InvalidInputError(f"policy {shown(spec)} for seat {seat} is not one of "
                                        f"{', '.join(map(repr, self._policy_options()))} or a callable")
        return names, custom

    def _apply_policy_specs(self, specs: tuple[list[str], dict[int, Policy]] | None) -> None:
        if specs is None:
            names = [self._policy_options()[0]] * self.game.players
        else:
            names, self._custom = specs
        self._build_policy_dropdowns(names)
        humans = [s for s, n in enumerate(names) if n == "human"]
        if humans:
            self._muted = True
            self.viewpoint.value = f"seat {humans[0]}"
            self._muted = False

    # ------------------------------------------------------------------ guarded callbacks
    def _guarded(self, action: Callable[[], str | None]) -> None:
        """Run one user action; on any error, put the game back and say what happened in the widget."""
        saved_game, saved_moves, saved_seed = self.game, self.game.moves, self._seed
        saved_pending, saved_names = self._pending, [str(dd.value) for dd in self.policies]
        saved_custom = dict(self._custom)
        try:
            note = action()
        except Exception as exc:  # a callback must never raise into the notebook
            try:
                if self.game is not saved_game:
                    self._install(saved_game, saved_seed, saved_names, saved_custom)
                self._restore_moves(saved_moves)
                self._pending = saved_pending
            finally:
                self._muted = False
            self._report(exc)
            try:
                self._refresh(panels=False)
            except Exception:  # the drawing itself failed: keep the message, leave the old drawing
                pass
            return
        self.last_error = None
        self.message.value = controls.message_html(note or "")

    def _restore_moves(self, moves: list[Move]) -> None:
        """Bring the game back to the line ``moves`` (undo what was added, replay what was taken back)."""
        g = self.game
        while g.move_count > len(moves):
            g.undo()
        while g.move_count and g.moves[-1] != moves[g.move_count - 1]:
            g.undo()
        for move in moves[g.move_count:]:
            g.play(move)

    def next_move(self) -> None:
        """Play one whole move (or finish the move being stepped), then refresh every panel."""
        self._guarded(self._next_move)

    def step(self) -> None:
        """Show one more event of the next move; the move is committed when its last event is shown."""
        self._guarded(self._step)

    def back(self) -> None:
        """Take back the last move, or abandon the move being stepped."""
        self._guarded(self._back)

    def reset(self) -> None:
        """Go back to the deal (every move taken back)."""
        self._guarded(self._reset)

    def new_deal(self) -> None:
        """Deal the game, players and seed of the selectors (seed + 1 if nothing was changed)."""
        self._guarded(self._new_deal)

    def play(self, move: Move | str) -> None:
        """Play ``move`` for the seat to move, as a click on a human move button does."""
        self._guarded(lambda: self._play_human(move))

    def take_device(self) -> None:
        """The human seat to move takes the device: the screen turns to that seat's view and its moves."""
        self._guarded(self._take_device)

    def autoplay_tick(self) -> None:
        """What one tick of Autoplay does: one move by a bot, or nothing while a human is to move."""
        self._guarded(self._tick)

    # ------------------------------------------------------------------ actions (may raise; guarded above)
    def _next_move(self) -> str | None:
        if self._pending is not None:
            self._commit()
            return None
        self._check_not_over()
        move = self._bot_move()
        self.game.play(move)
        self._refresh(panels=True)
        return None

    def _step(self) -> str | None:
        if self._pending is None:
            self._check_not_over()
            move = self._bot_move()
            frames: list[Game[Any]] = []
            seen = -1
            for g in self.game.stepwise(move):
                n = len(g.events)
                if n != seen:
                    frames.append(g.copy())
                    seen = n
            self._pending = _Pending(move, frames, 0)
        else:
            self._pending.shown += 1
        if self._pending.shown >= len(self._pending.frames) - 1:
            self._commit()
        else:
            self._refresh(panels=False)
        return None

    def _commit(self) -> None:
        pending = self._pending
        assert pending is not None
        self.game.play(pending.move)
        self._pending = None
        self._refresh(panels=True)

    def _back(self) -> str | None:
        if self._pending is not None:
            self._pending = None
            self._refresh(panels=False)
            return "the move being stepped was abandoned"
        if self.game.move_count == 0:
            return "nothing to take back: this is the deal"
        move = self.game.undo()
        self._refresh(panels=True)
        if self._cover_for is not None:  # the device is being passed: the card taken back is hidden again
            return f"took back seat {self.game.current_player}'s last move"
        return f"took back {move.text!r}"

    def _reset(self) -> str | None:
        self._pending = None
        while self.game.move_count:
            self.game.undo()
        self._refresh(panels=True)
        return None

    def _new_deal(self) -> str | None:
        name = game_class(self.game_select.value).name
        players = int(self.players_select.value)
        seed = int(self.seed_select.value)
        if not 0 <= seed <= MAX_SEED:
            raise InvalidInputError(f"seed={shown(seed)} is not allowed; give a whole number from 0 to {MAX_SEED:,}")
        if (name, players, seed) == (self.game.name, self.game.players, self._seed):
            seed = (seed + 1) % (MAX_SEED + 1)
        options = self._options_for[1] if name == self._options_for[0] else {}
        game = new_game(name, players=players, seed=seed, **options)
        self.autoplay.playing = False
        names = [str(dd.value) for dd in self.policies]
        custom = self._custom if name == self._options_for[0] else {}
        self._install(game, seed, names, custom)
        self._refresh(panels=True)
        return f"new deal: {game.title}, {players} players, seed {seed}"

    def _install(self, game: Game[Any], seed: int, names: Sequence[str], custom: dict[int, Policy]) -> None:
        """Make ``game`` the one shown: selectors, seat policies, viewpoints and figures follow it."""
        players = game.players
        self.game = game
        self._seed = seed
        self._pending = None
        self._holder = self._cover_for = None
        self._win_cache.clear()
        self._panel_cache.clear()
        self._custom = {s: p for s, p in custom.items() if s < players}
        self._muted = True
        try:
            self.game_select.value = game.name
            self.players_select.options = _player_range(game.name)
            self.players_select.value = players
            self.seed_select.value = seed
            choices = self._policy_options()
            wanted = [names[s] if s < len(names) and (names[s] in choices or s in self._custom) else choices[0]
                      for s in range(players)]
            self._build_policy_dropdowns(wanted)
            labels = controls.viewpoint_options(players)
            keep = self.viewpoint.value if self.viewpoint.value in labels else controls.TABLE
            self.viewpoint.options = labels
            self.viewpoint.value = keep
        finally:
            self._muted = False
        self._win_chart.set_players(players)
        self._panel.set_players(players)

    def _play_human(self, move: Move | str) -> str | None:
        if self._pending is not None:
            raise IllegalMoveError("a bot move is being stepped: press Step or Next move to finish it first")
        self._check_not_over()
        self.game.play(move)
        self._refresh(panels=True)
        return None

    def _take_device(self) -> str | None:
        g = self.game
        if self._pending is not None or g.is_over or self._seat_policy(g.current_player) != controls.HUMAN:
            raise IllegalMoveError("no human seat is waiting to take the device")
        seat = g.current_player
        self._holder, self._cover_for = seat, None
        self._set_viewpoint(f"seat {seat}")
        self._refresh(panels=True)
        return None

    def _set_viewpoint(self, label: str) -> None:
        """Change the viewpoint menu without its observer redrawing (the caller redraws)."""
        was, self._muted = self._muted, True
        try:
            self.viewpoint.value = label
        finally:
            self._muted = was

    def _follow_seat_to_move(self) -> int | None:
        """Hot-seat play: the seat the device is being passed to (the screen is covered), else None.

        With two or more human seats, a human seat to move that does not hold the device gets a cover
        screen until it clicks: the viewpoint turns to the table's once, when the handover starts, and to
        the seat's own when it takes the device. The viewpoint menu is locked while such a game runs (a
        player could otherwise open another's view) and free again when it is over.
        """
        names = [str(dd.value) for dd in self.policies]
        g = self.game
        hot = self.hot_seat and controls.is_hot_seat(names) and not g.is_over
        self.viewpoint.disabled = hot
        mover = g.current_player
        if not hot or self._pending is not None or names[mover] != controls.HUMAN or mover == self._holder:
            self._cover_for = None
            return None
        if self._cover_for != mover:
            self._cover_for = mover
            self._set_viewpoint(controls.TABLE)
        return mover

    def _tick(self) -> str | None:
        if self.game.is_over and self._pending is None:
            self.autoplay.playing = False
            return "autoplay stopped: the game is over"
        if self._pending is None and self._seat_policy(self.game.current_player) == "human":
            return f"autoplay waits for seat {self.game.current_player} (human) to move"
        self._next_move()
        if self.game.is_over:
            self.autoplay.playing = False
        return None

    def _check_not_over(self) -> None:
        if self.game.is_over:
            raise IllegalMoveError("the game is over: press Back, Reset or New deal")

    def _seat_policy(self, seat: int) -> str:
        return str(self.policies[seat].value)

    def _bot_move(self) -> Move:
        seat = self.game.current_player
        name = self._seat_policy(seat)
        if name == "human":
            raise IllegalMoveError(f"seat {seat} is played by a human: click one of its moves below the table")
        if name == controls.CUSTOM:
            policy = self._custom[seat]
        else:
            rng = np.random.default_rng([self._seed, self.game.move_count, POLICY_SALT + seat])
            policy = make_policy(name, self.game.name, rng)
        return choose(policy, self.game)

    # ------------------------------------------------------------------ trait observers
    def _on_tick(self, change: dict[str, Any]) -> None:
        if self._muted:
            return
        self.autoplay_tick()

    def _on_speed(self, change: dict[str, Any]) -> None:
        self.autoplay.interval = max(50, int(round(1000 / float(change["new"]))))

    def _on_viewpoint(self, change: dict[str, Any]) -> None:
        if self._muted:
            return
        self._guarded(lambda: self._refresh(panels=True))

    def _on_policy(self, change: dict[str, Any]) -> None:
        if self._muted:
            return
        def action() -> str | None:
            owner = change.get("owner")
            seat = self.policies.index(owner) if owner in self.policies else None
            if change["new"] == "human" and seat is not None and self.viewpoint.value != controls.REVEAL:
                self.viewpoint.value = f"seat {seat}"  # redraws through its own observer
            self._refresh(panels=False)
            return None

        self._guarded(action)

    def _on_game_select(self, change: dict[str, Any]) -> None:
        if self._muted:
            return
        def action() -> str | None:
            options = _player_range(str(change["new"]))
            current = self.players_select.value
            cls = game_class(str(change["new"]))
            self.players_select.options = options
            self.players_select.value = current if current in options else cls.default_players
            return f"press New deal to deal {cls.title}"

        self._guarded(action)

    # ------------------------------------------------------------------ drawing
    @property
    def shown_game(self) -> Game[Any]:
        """The position on the table: the committed game, or the event being stepped through."""
        if self._pending is not None:
            return self._pending.frames[self._pending.shown]
        return self.game

    def _view(self) -> tuple[int | None, bool, int]:
        label = str(self.viewpoint.value)
        seat, reveal = controls.parse_viewpoint(label, self.game.players)
        return seat, reveal, controls.viewpoint_code(label, self.game.players)

    def _refresh(self, panels: bool) -> None:
        for w in self._deferred_widgets():
            w.defer()   # one message per widget for the whole refresh, sent at its end
        try:
            self._draw(panels)
        finally:
            if self._in_page:
                self._send_picture()

    def _draw(self, panels: bool) -> None:
        """Draw the position into the widgets."""
        cover = self._follow_seat_to_move()
        seat, reveal, code = self._view()
        shown = self.shown_game
        names = [str(dd.value) for dd in self.policies]
        step = None
        if self._pending is not None:
            step = (self._pending.shown + 1, len(self._pending.frames))
        if cover is None:
            self._table_full = table_html(shown, viewpoint=seat, reveal_all=reveal, four_colour=self.four_colour)
            self.table.value = share_backs(self._table_full)
            self.move_log.value = controls.log_html(shown.events, seat, reveal)
            # the table goes to the page before the move tiles change, so a page never shows a human's moves
            # beside a table they do not belong to (the cover for the seat taking the device, say)
            self._send_now(self.table)
            self._refresh_move_buttons(None)
        else:  # the device is being passed: the moves leave the page first, then the hand; the public log only
            self._refresh_move_buttons(cover)
            self._table_full = self.table.value = controls.handover_html(cover)
            self.move_log.value = controls.log_html(shown.events, None, False)
        self.counter.value = controls.status_html(self.game, names, step)
        if panels:
            self._refresh_panels(code)

    def _refresh_move_buttons(self, cover: int | None = None) -> None:
        """One tile (card picture and button) per legal move of a human seat to move.

        The moves name the mover's cards, so they are shown only on a screen that shows the mover's hand
        (its own viewpoint, or everything revealed); otherwise, and while the device is passed to
        ``cover``, one button takes the screen to the mover's view (:meth:`take_device`), and no tile
        keeps a hidden card's name, not even out of sight.

        Tiles are kept and reused: making a widget costs far more than changing its text, and a
        Spite and Malice hand can offer dozens of moves.
        """
        g = self.game
        legal: list[Move] = []
        if self._pending is None and not g.is_over and self._seat_policy(g.current_player) == controls.HUMAN:
            seat, reveal, _ = self._view()
            if cover is None and (reveal or seat == g.current_player):
                legal = g.legal_moves()
            else:
                self.handover_button.description = controls.handover_label(g.current_player, cover is not None)
                self._show_tiles([])
                self.move_box.children = [self.handover_button]
                return
        self._show_tiles(legal)

    def _show_tiles(self, legal: list[Move]) -> None:
        g = self.game
        texts = tuple(m.text for m in legal)
        if texts == self._move_texts and self.handover_button not in self.move_box.children:
            return
        while len(self._tiles) < len(legal):
            self._tiles.append(controls.MoveTile(len(self._tiles), self._click_tile))
        for tile, move in zip(self._tiles, legal, strict=False):
            card = next(iter(move.cards()), None)
            picture = "" if card is None else card_html(card, four_colour=self.four_colour, width=34)
            tile.show(move.text, f"seat {g.current_player}: {move.text}", picture)
        for tile in self._tiles[len(legal):]:
            if tile.button.description:
                tile.show("", "", "")
        self._move_texts = texts
        self.move_buttons = [tile.button for tile in self._tiles[:len(legal)]]
        self.move_box.children = [tile.box for tile in self._tiles[:len(legal)]]

    def _click_tile(self, index: int) -> None:
        def action() -> str | None:
            if index >= len(self._move_texts):
                raise IllegalMoveError("that move is no longer offered: choose one of the moves shown")
            return self._play_human(self._move_texts[index])

        self._guarded(action)

    def _line_keys(self) -> list[int]:
        """One key per position of the current line of play (a running hash of the move texts)."""
        keys = [hash(("deal", self.game.name, self._seed))]
        for m in self.game.moves:
            keys.append(hash((keys[-1], m.text)))
        return keys

    @property
    def deal_seed(self) -> int:
        """The seed of the current deal (shown in the seed box; New deal with it deals the same game)."""
        return self._seed

    @property
    def rollouts(self) -> int:
        """Play-outs behind the current point of the win chart."""
        if self._rollouts_given is not None:
            return self._rollouts_given
        return self._budgets().win

    @property
    def panel_rollouts(self) -> int:
        """Play-outs behind each estimate of the per-game panel (``rollouts`` when that was given)."""
        if self._panel_given is not None:
            return self._panel_given
        if self._rollouts_given is not None:
            return self._rollouts_given
        return self._budgets().panel

    def _budgets(self) -> RolloutBudgets:
        spec = registered_spec(self.game)
        return spec.budgets if spec is not None else FALLBACK_BUDGETS

    @property
    def history_rollouts(self) -> int:
        if self._history_given is not None:
            return self._history_given
        return max(1, self.rollouts // 4)

    def estimate_rng(self, move_index: int, code: int, purpose: int) -> np.random.Generator:
        """The generator of one plotted estimate (public so tests and notebooks can check a number)."""
        return np.random.default_rng([self._seed, move_index, code, purpose])

    def _refresh_panels(self, code: int) -> None:
        keys = self._line_keys()
        now = len(keys) - 1
        prob_view = None if code == 0 else code - 1
        step = -(-(now + 1) // MAX_HISTORY_POINTS)
        wanted = sorted({*range(0, now + 1, step), now})
        missing = [i for i in wanted if (keys[i], i, code) not in self._win_cache]
        if missing:
            g = self.game.copy()
            first = missing[0]
            todo = set(missing)
            for i in range(now, first - 1, -1):
                if i in todo:
                    n = self.rollouts if i == now else self.history_rollouts
                    rng = self.estimate_rng(i, code, WIN_PURPOSE)
                    self._win_cache[(keys[i], i, code)] = tuple(win_probability(g, prob_view, rollouts=n, rng=rng))
                if i > first:
                    g.undo()
        self.win_history = [WinPoint(i, self._win_cache[(keys[i], i, code)]) for i in range(now + 1)
                            if (keys[i], i, code) in self._win_cache]
        panel_key = (keys[now], now, code)
        if panel_key not in self._panel_cache:
            rng = self.estimate_rng(now, code, PANEL_PURPOSE)
            self._panel_cache[panel_key] = panel_quantities(self.game, prob_view, rng=rng,
                                                             rollouts=self.panel_rollouts)
        self.quantities = list(self._panel_cache[panel_key])
        words = f"from {controls.viewpoint_words(str(self.viewpoint.value))}"
        self._win_chart.update(self.win_history, title_html("P(win) by move", words))
        over = " (game over)" if self.game.is_over else ""
        self._panel.update(self.quantities, title_html(f"Chances at move {now}{over}", words),
                           spec.curve_title if (spec := registered_spec(self.game)) is not None else "")
        self._on_plot_report()
        if self.predictor is not None:
            self.predictor.position(self)

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
                self.last_error = None
                self.message.value = controls.message_html("the plots are drawn again")

    def _redraw_clicked(self) -> None:
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
                self._right.children = list(self.plots)
                close_tree(old)
            else:
                chart.view.draw_again()
        self._on_plot_report()

    # ------------------------------------------------------------------ numbers for notebooks
    def calibration(self) -> Calibration:
        """The student's Brier score and calibration table over the guesses (needs ``predict=True``)."""
        if self.predictor is None:
            raise InvalidInputError("calibration() needs a stepper made with predict=True")
        return self.predictor.calibration()

    def history_numbers(self) -> str:
        """The plotted P(win) history as text (notebook checks cannot see a plot)."""
        seats = range(self.game.players)
        head = "move  " + "  ".join(f"seat {s} P(win) [95% interval]".ljust(30) for s in seats)
        rows = [head]
        for p in self.win_history:
            cells = [f"{e.value:.3f} [{e.low:.3f}, {e.high:.3f}] n={e.n}".ljust(30) for e in p.estimates]
            rows.append(f"{p.move:>4}  " + "  ".join(cells))
        return "\n".join(rows)

    def panel_numbers(self) -> str:
        """The per-game panel's numbers as text, exact ones marked "exact"."""
        return "\n".join(str(q) for q in self.quantities) or "(nothing to show: the game is over)"

    def log_lines(self) -> list[str]:
        """Every event of the position shown, in plain words, as the selected viewpoint may read them."""
        seat, reveal, _ = self._view()
        return [e.describe(seat, reveal) for e in self.shown_game.events]


_CARD_STYLE: list[widgets.HTML] = []


def card_style() -> widgets.HTML:
    """The kernel's one widget holding the card back's CSS (:func:`~cardlab.viz.cards_svg.back_css`): every stepper
    shows a view of it (hidden; a ``<style>`` needs no room), so its model reaches the page once."""
    if not _CARD_STYLE or _CARD_STYLE[0].comm is None:
        _CARD_STYLE[:] = [widgets.HTML(f"<style>{back_css('.cardlab-stepper')}</style>",
                                       layout=widgets.Layout(display="none"))]
    return _CARD_STYLE[0]


_SHOWN: weakref.WeakSet[Stepper] = weakref.WeakSet()
_HOOKED: list[bool] = []


def _after_cell(*_args: Any) -> None:
    """After each cell: bring the still picture of every displayed stepper up to date."""
    for stepper in list(_SHOWN):
        try:
            stepper._update_still()
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


def _player_range(name: str) -> list[int]:
    cls = game_class(name)
    return list(range(cls.min_players, cls.max_players + 1))


def _check_count(value: int | None, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= MAX_ROLLOUTS:
        raise InvalidInputError(f"{what}={shown(value)} is not allowed; give a whole number of play-outs from 1 to "
                                f"{MAX_ROLLOUTS:,}")
    return int(value)
