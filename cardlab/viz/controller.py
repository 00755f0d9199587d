"""The stepper's controller: the game, its moves, who plays each seat, hot-seat play and the guarded actions.

Nothing here builds or imports a widget, so the controller can be driven and tested on its own::

    from cardlab.viz.controller import StepperController
    c = StepperController(cardlab.new_game("garbage", players=2, seed=3), seed=3)
    c.next_move(); c.back(); c.last_error    # None: both succeeded

A view (the :class:`~cardlab.viz.stepper.Stepper` widget) registers itself with :meth:`StepperController.watch`
and is told when to draw (:class:`StepperView`); it sends the user's clicks back as the actions below.

Guarded actions
---------------
Every action runs like a transaction (:meth:`StepperController.guarded`): on any error the game, its moves,
the move being stepped, the seed and the seats' players are put back exactly as they were before the action,
``last_error`` holds a short sentence (``None`` after an action that succeeded) and the view says it; an
error never escapes into the notebook.

Stepping
--------
:meth:`~StepperController.step` plays one *event*: the first call chooses the bot's move and shows the
position after its first event; each further call shows one more event, and when the last is shown the move is
committed to the game. Bots are seeded: the random bot of seat s at move i draws from
``default_rng([seed, i, 7919 + s])``, so Back then Next move plays the same move again.

Hot-seat play
-------------
With two or more human seats (and ``hot_seat=True``), a human seat to move that does not hold the device gets a
cover screen until it takes the device (:meth:`~StepperController.take_device`): the viewpoint turns to the
table's once, when the handover starts, and to the seat's own when it takes the device. The viewpoint is
locked while such a game runs (a player could otherwise open another's view) and free again when it is over.

Move values
-----------
With ``move_values`` on, the view shows every legal move's value for the seat to move, computed from that
seat's information only (:meth:`~StepperController.move_values_seat` says whose, or why none): only on a
screen that shows the mover's hand (its own viewpoint, or everything revealed), never while the device is
passed, and not once the game is over. The moves themselves may name the mover's hidden cards, so a viewpoint
that knows less than the mover gets a sentence instead; one that knows the same (Garbage's table and seats,
:mod:`cardlab.viz.information`) shows them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from cardlab.engine.game import Game, Move
from cardlab.engine.registry import game_class, new_game
from cardlab.errors import IllegalMoveError, InvalidInputError, shown
from cardlab.policies import Policy, choose, make_policy
from cardlab.viz import controls
from cardlab.viz.controls import SEED_BOX_MAX
from cardlab.viz.information import same_information
from cardlab.viz.seats import check_flag, policy_options, policy_specs

POLICY_SALT = 7919
__all__ = ["POLICY_SALT", "StepperController", "StepperView", "check_flag", "policy_options", "policy_specs"]
MAX_PLAYED = 5000   # moves one click on Play to the end plays at most (a game of any registered kind is shorter)

Action = Callable[[], str | None]


@dataclass
class Pending:
    """A move being shown event by event: the positions after each event, and how many are shown."""

    move: Move
    frames: list[Game[Any]]
    shown: int


class StepperView(Protocol):
    """What a view of the controller is told (every call comes from inside a guarded action, except
    :meth:`finished`, which ends one)."""

    def redraw(self, panels: bool) -> None:
        """Draw the position; ``panels``: the estimates may have changed too."""

    def dealt(self) -> None:
        """Another game is on the table (its players, seed and seats' players): selectors and figures follow."""

    def autoplay_stopped(self) -> None:
        """Autoplay must stop (the game is over, or another was dealt)."""

    def finished(self, note: str | None, error: Exception | None) -> None:
        """An action ended: with a note to show, or with the error that made it put everything back."""


class _NoView:
    """The view of a controller driven from code alone: nothing to draw."""

    def redraw(self, panels: bool) -> None:
        pass

    def dealt(self) -> None:
        pass

    def autoplay_stopped(self) -> None:
        pass

    def finished(self, note: str | None, error: Exception | None) -> None:
        pass


class StepperController:
    """The state of a stepper and every action on it (see the module docstring); no widgets."""

    def __init__(self, game: Game[Any], seed: int, policies: Sequence[str | Policy] | None = None,
                 hot_seat: bool = True, move_values: bool = False) -> None:
        self.game: Game[Any] = game
        self.seed = seed
        self.hot_seat = hot_seat
        self.move_values = check_flag(move_values, "move_values")   # the move-values panel is on
        self.options_for = (game.name, dict(game.options))   # the options a New deal of this game keeps
        self.names, self.custom = policy_specs(game, policies)
        humans = [s for s, n in enumerate(self.names) if n == controls.HUMAN]
        self.viewpoint = f"seat {humans[0]}" if humans else controls.TABLE
        self.pending: Pending | None = None
        self.holder: int | None = None      # hot-seat play: the human seat holding the device
        self.cover_for: int | None = None   # hot-seat play: the seat the device is being passed to
        self.last_error: str | None = None
        self._view: StepperView = _NoView()

    def watch(self, view: StepperView) -> None:
        """Tell ``view`` from now on what to draw (one view per controller)."""
        self._view = view

    # ------------------------------------------------------------------ what is shown
    @property
    def shown_game(self) -> Game[Any]:
        """The position on the table: the committed game, or the event being stepped through."""
        if self.pending is not None:
            return self.pending.frames[self.pending.shown]
        return self.game

    def view(self) -> tuple[int | None, bool, int]:
        """``(seat or None, everything revealed, probability viewpoint code)`` of the viewpoint."""
        seat, reveal = controls.parse_viewpoint(self.viewpoint, self.game.players)
        return seat, reveal, controls.viewpoint_code(self.viewpoint, self.game.players)

    def step_shown(self) -> tuple[int, int] | None:
        """``(event shown, events)`` of the move being stepped, or None."""
        return None if self.pending is None else (self.pending.shown + 1, len(self.pending.frames))

    @property
    def viewpoint_locked(self) -> bool:
        """Hot-seat play is running: nobody may open another seat's view."""
        return self.hot_seat and controls.is_hot_seat(self.names) and not self.game.is_over

    def seat_policy(self, seat: int) -> str:
        return self.names[seat]

    def human_to_move(self) -> int | None:
        """The human seat whose moves may be chosen now (nothing being stepped, game not over), or None."""
        g = self.game
        if self.pending is None and not g.is_over and self.seat_policy(g.current_player) == controls.HUMAN:
            return g.current_player
        return None

    def follow_seat_to_move(self) -> int | None:
        """Hot-seat play: the seat the device is being passed to (the screen is covered), else None."""
        mover = self.game.current_player
        if not self.viewpoint_locked or self.pending is not None or self.names[mover] != controls.HUMAN \
                or mover == self.holder:
            self.cover_for = None
            return None
        if self.cover_for != mover:
            self.cover_for = mover
            self.viewpoint = controls.TABLE
        return mover

    def move_values_seat(self, cover: int | None) -> tuple[int | None, str]:
        """``(seat, "")`` when the move values of ``seat`` (the seat to move) may be shown now, else ``(None,
        why not)`` (``""`` when the panel is off). ``cover`` is the seat the device is being passed to, if any."""
        if not self.move_values:
            return None, ""
        g = self.game
        if g.is_over:
            return None, "Move values: the game is over, there is no move to value."
        if cover is not None:
            return None, f"Move values are hidden while the device is passed to seat {cover}."
        mover = g.current_player
        seat, reveal, _ = self.view()
        if not reveal and not same_information(g, seat, mover):
            return None, (f"Move values of seat {mover} show only in a view that knows what seat {mover} knows (its "
                          "own, or everything revealed): its moves may name its own cards.")
        return mover, ""

    # ------------------------------------------------------------------ the guard
    def guarded(self, action: Action) -> bool:
        """Run one user action; on any error, put everything back and report it. True if it succeeded."""
        saved_game, saved_moves, saved_seed = self.game, self.game.moves, self.seed
        saved_pending, saved_names, saved_custom = self.pending, list(self.names), dict(self.custom)
        try:
            note = action()
        except Exception as exc:  # an action must never raise into the notebook
            if self.game is not saved_game:
                self._install(saved_game, saved_seed, saved_names, saved_custom)
            self._restore_moves(saved_moves)
            self.pending = saved_pending
            self.last_error = controls.error_text(exc)
            self._view.finished(None, exc)
            return False
        self.last_error = None
        self._view.finished(note, None)
        return True

    def _restore_moves(self, moves: list[Move]) -> None:
        """Bring the game back to the line ``moves`` (undo what was added, replay what was taken back)."""
        g = self.game
        while g.move_count > len(moves):
            g.undo()
        while g.move_count and g.moves[-1] != moves[g.move_count - 1]:
            g.undo()
        for move in moves[g.move_count:]:
            g.play(move)

    # ------------------------------------------------------------------ guarded actions
    def next_move(self) -> bool:
        """Play one whole move (or finish the move being stepped)."""
        return self.guarded(self._next_move)

    def step(self) -> bool:
        """Show one more event of the next move; the move is committed when its last event is shown."""
        return self.guarded(self._step)

    def back(self) -> bool:
        """Take back the last move, or abandon the move being stepped."""
        return self.guarded(self._back)

    def reset(self) -> bool:
        """Go back to the deal (every move taken back)."""
        return self.guarded(self._reset)

    def new_deal(self, name: str, players: int, seed: int) -> bool:
        """Deal game ``name`` for ``players`` from ``seed`` (seed + 1 if that is the deal on the table)."""
        return self.guarded(lambda: self._new_deal(name, players, seed))

    def play(self, move: Move | str) -> bool:
        """Play ``move`` for the seat to move, as a click on a human move does."""
        return self.guarded(lambda: self._play_human(move))

    def take_device(self) -> bool:
        """The human seat to move takes the device: the viewpoint turns to that seat's."""
        return self.guarded(self._take_device)

    def tick(self) -> str | None:
        """One tick of Autoplay: one move by a bot, or nothing while a human is to move. Returns None to go on,
        or why Autoplay must stop (the game is over, or the move failed: the message area says why)."""
        if self.game.is_over and self.pending is None:
            return f"Autoplay stopped: {controls.result_text(self.game)}"
        if not self.guarded(self._tick):
            return f"Autoplay stopped: {self.last_error}"
        if self.game.is_over and self.pending is None:
            return f"Autoplay stopped: {controls.result_text(self.game)}"
        return None

    def play_to_end(self) -> bool:
        """Play bot moves until the game is over (or a human seat is to move), then draw once."""
        return self.guarded(self._play_to_end)

    def choose_viewpoint(self, label: str) -> bool:
        """Look from ``label`` (a label of :func:`~cardlab.viz.controls.viewpoint_options`)."""
        def action() -> str | None:
            self.viewpoint = label
            self._view.redraw(True)
            return None

        return self.guarded(action)

    def show_move_values(self, on: bool) -> bool:
        """Turn the move-values panel on or off."""
        def action() -> str | None:
            self.move_values = check_flag(on, "move_values")
            self._view.redraw(False)
            return None

        return self.guarded(action)

    def choose_policy(self, seat: int, name: str) -> bool:
        """Seat ``seat`` is played by ``name``; a seat turned human turns the viewpoint to it (unless everything
        is revealed)."""
        def action() -> str | None:
            self.names[seat] = name
            turn = name == controls.HUMAN and self.viewpoint != controls.REVEAL and self.viewpoint != f"seat {seat}"
            if turn:
                self.viewpoint = f"seat {seat}"
            self._view.redraw(turn)
            return None

        return self.guarded(action)

    # ------------------------------------------------------------------ the actions themselves (may raise)
    def _next_move(self) -> str | None:
        if self.pending is not None:
            self._commit()
            return None
        self._check_not_over()
        self.game.play(self.bot_move())
        self._view.redraw(True)
        return None

    def _step(self) -> str | None:
        if self.pending is None:
            self._check_not_over()
            move = self.bot_move()
            frames: list[Game[Any]] = []
            seen = -1
            for g in self.game.stepwise(move):
                n = len(g.events)
                if n != seen:
                    frames.append(g.copy())
                    seen = n
            self.pending = Pending(move, frames, 0)
        else:
            self.pending.shown += 1
        if self.pending.shown >= len(self.pending.frames) - 1:
            self._commit()
        else:
            self._view.redraw(False)
        return None

    def _commit(self) -> None:
        pending = self.pending
        if pending is None:
            raise IllegalMoveError("no move is being stepped")
        self.game.play(pending.move)
        self.pending = None
        self._view.redraw(True)

    def _back(self) -> str | None:
        if self.pending is not None:
            self.pending = None
            self._view.redraw(False)
            return "the move being stepped was abandoned"
        if self.game.move_count == 0:
            return "nothing to take back: this is the deal"
        move = self.game.undo()
        self._view.redraw(True)
        if self.cover_for is not None:  # the device is being passed: the card taken back is hidden again
            return f"took back seat {self.game.current_player}'s last move"
        return f"took back {move.text!r}"

    def _reset(self) -> str | None:
        self.pending = None
        while self.game.move_count:
            self.game.undo()
        self._view.redraw(True)
        return None

    def _new_deal(self, name: str, players: int, seed: int) -> str | None:
        name = game_class(name).name
        count, number = int(players), int(seed)
        if not 0 <= number <= SEED_BOX_MAX:
            raise InvalidInputError(f"seed={shown(number)} is not allowed; give a whole number from 0 to "
                                    f"{SEED_BOX_MAX:,}")
        if (name, count, number) == (self.game.name, self.game.players, self.seed):
            number = (number + 1) % (SEED_BOX_MAX + 1)
        options = self.options_for[1] if name == self.options_for[0] else {}
        game = new_game(name, players=count, seed=number, **options)
        self._view.autoplay_stopped()
        custom = self.custom if name == self.options_for[0] else {}
        self._install(game, number, list(self.names), custom)
        self._view.redraw(True)
        return f"new deal: {game.title}, {count} players, seed {number}"

    def _install(self, game: Game[Any], seed: int, names: Sequence[str], custom: dict[int, Policy]) -> None:
        """Make ``game`` the one shown: the seats' players and the viewpoint follow it."""
        players = game.players
        self.game = game
        self.seed = seed
        self.pending = None
        self.holder = self.cover_for = None
        self.custom = {s: p for s, p in custom.items() if s < players}
        choices = policy_options(game.name)
        self.names = [names[s] if s < len(names) and (names[s] in choices or s in self.custom) else choices[0]
                      for s in range(players)]
        if self.viewpoint not in controls.viewpoint_options(players):
            self.viewpoint = controls.TABLE
        self._view.dealt()

    def _play_human(self, move: Move | str) -> str | None:
        if self.pending is not None:
            raise IllegalMoveError("a bot move is being stepped: press Step or Next move to finish it first")
        self._check_not_over()
        self.game.play(move)
        self._view.redraw(True)
        return None

    def _take_device(self) -> str | None:
        seat = self.human_to_move()
        if seat is None:
            raise IllegalMoveError("no human seat is waiting to take the device")
        self.holder, self.cover_for = seat, None
        self.viewpoint = f"seat {seat}"
        self._view.redraw(True)
        return None

    def _tick(self) -> str | None:
        if self.pending is None and self.seat_policy(self.game.current_player) == controls.HUMAN:
            return f"Autoplay waits for seat {self.game.current_player} (human) to move"
        self._next_move()
        return None

    def _play_to_end(self) -> str | None:
        if self.pending is not None:
            self.game.play(self.pending.move)
            self.pending = None
        self._check_not_over()
        played = 0
        while not self.game.is_over and self.seat_policy(self.game.current_player) != controls.HUMAN:
            if played >= MAX_PLAYED:
                break
            self.game.play(self.bot_move())
            played += 1
        self._view.redraw(True)
        if self.game.is_over:
            return f"played {played} moves to the end: {controls.result_text(self.game)}"
        if played >= MAX_PLAYED:
            return f"played {played} moves, the most one click plays: press Play to the end again"
        return (f"played {played} moves; seat {self.game.current_player} (human) is to move: choose its move "
                "below the table")

    def _check_not_over(self) -> None:
        if self.game.is_over:
            raise IllegalMoveError("the game is over: press Back, Reset or New deal")

    def bot_move(self) -> Move:
        """The move the bot of the seat to move chooses (seeded by the deal, the move index and the seat)."""
        seat = self.game.current_player
        name = self.seat_policy(seat)
        if name == controls.HUMAN:
            view_seat, reveal, _ = self.view()
            shows = (reveal or view_seat == seat) and self.cover_for is None   # as the view's move tiles
            raise IllegalMoveError(controls.human_to_move_text(seat, shows, self.cover_for is not None))
        if name == controls.CUSTOM:
            policy = self.custom[seat]
        else:
            rng = np.random.default_rng([self.seed, self.game.move_count, POLICY_SALT + seat])
            policy = make_policy(name, self.game.name, rng)
        return choose(policy, self.game)
