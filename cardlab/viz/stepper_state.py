"""The stepper's state and numbers as a notebook reads them: the controller's state under the stepper's public
names (``game``, ``deal_seed``, ``last_error``, the play-out counts) and the numbers behind the plots as text
(notebook checks cannot see a plot). A mixin of :class:`~cardlab.viz.stepper.Stepper`, which owns everything
named below; nothing here makes a widget."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cardlab.cards import Card
from cardlab.engine.game import Game
from cardlab.engine.registry import game_names, new_game
from cardlab.errors import InvalidInputError, shown
from cardlab.sim.prob import Quantity
from cardlab.viz.controller import StepperController, check_flag
from cardlab.viz.controls import SEED_BOX_MAX
from cardlab.viz.estimates import Estimates, WinPoint, history_text
from cardlab.viz.moves import MoveValuesPanel
from cardlab.viz.panels import quantity_text
from cardlab.viz.predict import Calibration, PredictController


class StepperState:
    """Public names for the controller's state, and the numbers behind the plots (see the module docstring)."""

    controller: StepperController
    estimates: Estimates
    intervals: bool
    win_history: list[WinPoint]
    quantities: list[Quantity]
    predictor: PredictController | None
    _moves_panel: MoveValuesPanel

    # ------------------------------------------------------------------ the controller's state, by its old names
    @property
    def game(self) -> Game[Any]:
        """The game on the table (moves being stepped are not in it until their last event is shown)."""
        return self.controller.game

    @property
    def hot_seat(self) -> bool:
        """False: one screen that everybody watches; no cover screens between human turns."""
        return self.controller.hot_seat

    @hot_seat.setter
    def hot_seat(self, value: bool) -> None:
        self.controller.hot_seat = bool(value)

    @property
    def deal_seed(self) -> int:
        """The seed of the current deal (shown in the seed box; New deal with it deals the same game)."""
        return self.controller.seed

    @property
    def last_error(self) -> str | None:
        """What the message area says about the last failed action (None after one that succeeded)."""
        return self.controller.last_error

    @last_error.setter
    def last_error(self, text: str | None) -> None:
        self.controller.last_error = text

    @property
    def shown_game(self) -> Game[Any]:
        """The position on the table: the committed game, or the event being stepped through."""
        return self.controller.shown_game

    @property
    def rollouts(self) -> int:
        """Play-outs behind the current point of the win chart."""
        return self.estimates.rollouts(self.game)

    @property
    def panel_rollouts(self) -> int:
        """Play-outs behind each estimate of the per-game panel (``rollouts`` when that was given)."""
        return self.estimates.panel_rollouts(self.game)

    @property
    def history_rollouts(self) -> int:
        return self.estimates.history_rollouts(self.game)

    @property
    def move_rollouts(self) -> int:
        """Play-outs per move behind the move-values panel in the current position."""
        return self.estimates.move_rollouts(self.game)

    @property
    def move_values_on(self) -> bool:
        """Whether the move-values panel is on (the **show move values** box)."""
        return self.controller.move_values

    def show_move_values(self, on: bool = True) -> None:
        """Turn the move-values panel on (or off, with ``False``), as the **show move values** box does."""
        check_flag(on, "on")
        self.controller.show_move_values(bool(on))

    def estimate_rng(self, move_index: int, code: int, purpose: int) -> np.random.Generator:
        """The generator of one plotted estimate (public so tests and notebooks can check a number)."""
        return self.estimates.rng(self.deal_seed, move_index, code, purpose)


    # ------------------------------------------------------------------ numbers for notebooks
    def calibration(self) -> Calibration:
        """The student's Brier score and calibration table over the guesses (needs ``predict=True``)."""
        if self.predictor is None:
            raise InvalidInputError("calibration() needs a stepper made with predict=True")
        return self.predictor.calibration()

    def history_numbers(self) -> str:
        """The plotted P(win) history as text (notebook checks cannot see a plot); with ``intervals=False``, the
        estimates without their intervals, as the chart shows them."""
        return history_text(self.win_history, self.game.players, self.intervals)

    def panel_numbers(self) -> str:
        """The per-game panel's numbers as text, exact ones marked "exact" (estimates without their intervals
        for a stepper made with ``intervals=False``)."""
        return ("\n".join(quantity_text(q, self.intervals) for q in self.quantities)
                or "(nothing to show: the game is over)")

    def move_numbers(self) -> str:
        """The move-values panel as text: a heading, then each move's win chance with its 95% interval and its
        gap from the best (marked ``*``); or the sentence shown instead ("" when the panel is off)."""
        return self._moves_panel.text()

    def log_lines(self) -> list[str]:
        """Every event of the position shown, in plain words, as the selected viewpoint may read them."""
        seat, reveal, _ = self.controller.view()
        return [e.describe(seat, reveal) for e in self.shown_game.events]


def stepper_deal(game: str | Game[Any] | None, players: int | None, seed: int | None,
                 deck: Sequence[str | Card] | None, options: dict[str, Any]) -> tuple[Game[Any], int]:
    """The stepper's first game and the seed its seed box shows, from ``Stepper``'s arguments: a game given (its
    own seed when the box can hold it), or one dealt from its name (None: the first registered game, Garbage), its
    player count, seed (None: a fresh one from the operating system) and deck."""
    if seed is None:  # a fresh seed from the operating system, shown in the seed box so the deal can be replayed
        seed = int(np.random.default_rng().integers(1_000_000))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= SEED_BOX_MAX:
        raise InvalidInputError(f"seed={shown(seed)} is not allowed; give a whole number from 0 to "
                                f"{SEED_BOX_MAX:,} (or None for a fresh seed, shown in the seed box)")
    if isinstance(game, Game):
        if deck is not None or options:
            given = ", ".join(["deck", *options] if deck is not None else list(options))
            raise InvalidInputError(f"{given} cannot be given with an existing {game.name} game, which is "
                                    "already dealt; pass the game's name instead to deal a new one")
        dealt: Game[Any] = game
        # a game dealt from a seed the seed box cannot hold is treated as one loaded from a record
        seed = int(game.seed) if game.seed is not None and game.seed <= SEED_BOX_MAX else int(seed)
    else:
        # None: the first registered game in alphabetical order (Garbage)
        dealt = new_game(game if game is not None else game_names()[0], players=players, seed=seed,
                         deck=deck, **options)
    return dealt, int(seed)
