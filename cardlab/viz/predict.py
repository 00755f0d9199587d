"""Predict, then reveal: the student guesses a probability before the stepper shows it.

::

    stepper = cardlab.Stepper("garbage", players=2, seed=3, predict=True)
    stepper.predictor.submit(0.6)     # or the slider / text box and "Reveal"
    stepper.calibration()             # Brier score, calibration table and chart over the game

How it behaves
--------------
At every position the stepper computes its panels as usual, but with ``predict=True`` the figures
stay hidden until the student has entered a guess for the *current question*. The question is, by
default, "what is the chance that seat s wins this game?" (s is the seat of the viewpoint, or seat 0
when the viewpoint is the table, unless ``predict_seat=s`` fixes it); ``predict="<panel key>"`` asks one
of the game's own panel questions instead (``"next_card"`` for Garbage, say). A setting that would ask
nothing (a key the game does not ask, a seat it does not have, ``predict_seat`` without the win question)
is refused with what the game accepts (:func:`predict_settings`). Entering a guess (slider, or a text box that
accepts ``0.3``, ``30%`` or ``1/3``) reveals the figures and the answer, exact or estimated, and
keeps a record. Every record holds the guess, the answer shown and, once it is known, the
*outcome*: for the win question, whether seat s did win (known when the game ends on the same line
of play). Panel questions have no outcome recorded here; they are scored against the answer only.

Scores
------
* **Brier score** over the resolved records: the mean of (guess - outcome)², 0 for perfect
  certainty that came true, 0.25 for always guessing 1/2. It is shown beside the Brier score the
  revealed answers themselves would have had on the same outcomes: a guess can only be called
  good *relative* to that.
* **Distance from the answer**: the mean of (guess - answer)² over every record. This is not a Brier
  score (the answer is a probability, not an outcome); it says how close the student's sense of
  chance came to the computed one.
* **Calibration table**: the guesses grouped in bins of width 0.2; per bin the number of guesses,
  their mean, the mean answer, the number of independent outcomes (games) behind them, and the share
  of those games in which the event happened, with its 95% Wilson interval *over games*. Every win
  question of one game has the *same* outcome, so nine guesses in one game are one observation, not
  nine, and the interval says so. A calibrated forecaster's guesses of about 0.3 come true about 30% of
  the time; the table of a single game is a starting point for discussion, not a verdict.

Design
------
:class:`PredictController` holds the state as traitlets (``question``, ``guess``, ``revealed``,
``feedback``) and knows nothing of widgets; :class:`PredictBox` is the layout, linked to the
controller's traits, and hides the stepper's figures while ``revealed`` is false. The stepper calls
:meth:`PredictController.position` after each refresh of its panels, with its
:class:`~cardlab.viz.controller.StepperController` and the numbers it has just drawn; nothing else in the
stepper knows about predictions, and nothing here knows the stepper widget.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import numpy as np
import traitlets

from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError, shown
from cardlab.sim.prob import Quantity, panel_quantities
from cardlab.viz.controller import StepperController
from cardlab.viz.estimates import WinPoint
from cardlab.viz.scores import WIN, Calibration, CalibrationRow, Prediction, calibrate

__all__ = ["Calibration", "CalibrationRow", "Prediction", "calibrate"]

MAX_GUESS_TEXT = 100
"""The longest guess text read: a probability typed by a student is a few characters."""
def parse_guess(text: str) -> float:
    """A probability typed by a student: ``0.3``, ``.3``, ``30%`` or ``1/3``."""
    if not isinstance(text, str):
        raise InvalidInputError(f"guess {shown(text)} is not text: type a number from 0 to 1 (0.3), a percentage "
                                "(30%) or a fraction (1/3)")
    if len(text) > MAX_GUESS_TEXT:
        raise InvalidInputError(f"guess {shown(text, 20)} is {len(text):,} characters long: type a number from 0 to "
                                "1 (0.3), a percentage (30%) or a fraction (1/3)")
    s = text.strip().replace(",", ".")
    try:
        if s.endswith("%"):
            value = float(s[:-1]) / 100
        elif re.fullmatch(r"\s*\d+\s*/\s*\d+\s*", s):
            value = float(Fraction(s.replace(" ", "")))
        else:
            value = float(s)
    except (ValueError, ZeroDivisionError):
        raise InvalidInputError(f"guess {shown(text)} is not a probability: type a number from 0 to 1 "
                                "(0.3), a percentage (30%) or a fraction (1/3)") from None
    if not (0.0 <= value <= 1.0) or math.isnan(value):
        raise InvalidInputError(f"guess {shown(text)} is outside 0 to 1: a probability is between 0 and 1 (0% to 100%)")
    return value


def guess_value(guess: object) -> float:
    """A guess given to :meth:`PredictController.submit`: a real number from 0 to 1, or text for
    :func:`parse_guess`. Anything else (bytes, a list, a complex number, True) is refused."""
    if isinstance(guess, str):
        return parse_guess(guess)
    if isinstance(guess, (bool, np.bool_)) or not isinstance(guess, (numbers.Real, np.integer, np.floating)):
        raise InvalidInputError(f"guess {shown(guess)} is not a probability: give a number from 0 to 1 (0.3) or "
                                "text such as '30%' or '1/3'")
    try:
        value = float(guess)
    except (TypeError, ValueError, OverflowError):
        value = math.nan
    if not 0.0 <= value <= 1.0:  # NaN too
        raise InvalidInputError(f"guess {shown(guess)} is outside 0 to 1: a probability is between 0 and 1")
    return value


class PredictController(traitlets.HasTraits):
    """The state of predict-then-reveal for one stepper (no widgets here)."""

    question = traitlets.Unicode("")
    guess = traitlets.Float(0.5)
    revealed = traitlets.Bool(True)
    feedback = traitlets.Unicode("")
    error = traitlets.Unicode("")

    def __init__(self, key: str = WIN, seat: int | None = None, intervals: bool = True) -> None:
        super().__init__()
        if not isinstance(key, str) or not key:
            raise InvalidInputError(f"predict={shown(key)}: give True (the win question) or a panel question's key")
        self.key = key
        self.fixed_seat = seat
        self.intervals = intervals   # False: feedback and scores name no interval (a stepper made with intervals=False)
        self.records: list[Prediction] = []
        self._current: Prediction | None = None   # the question of the position shown, guess not yet set
        self._line: tuple[str, ...] = ()

    @traitlets.validate("guess")
    def _valid_guess(self, proposal: Any) -> float:
        value = float(proposal["value"])
        if not 0.0 <= value <= 1.0:
            raise traitlets.TraitError(f"guess {value} is outside 0 to 1")
        return value

    @traitlets.observe("guess")
    def _guess_changed(self, change: Any) -> None:
        """A new guess clears the message about a bad one."""
        self.error = ""

    # -------------------------------------------------------------- called by the stepper
    def position(self, controller: StepperController, win_history: Sequence[WinPoint],
                 quantities: Sequence[Quantity]) -> None:
        """Set the question of the stepper's current position, given the numbers its panels have just drawn."""
        game = controller.game
        deal = f"deal: {game.name}, {game.players} players, seed {controller.seed}"
        self._line = (deal, *(m.text for m in game.moves))
        self._resolve(game)
        self._current = None if game.is_over else self._question(game, controller.viewpoint, win_history, quantities)
        if self._current is None:
            self.question = "The game is over: see stepper.calibration()." if game.is_over else (
                self._unasked(game, quantities) or "No question at this position (it has no meaning here); the "
                "numbers are shown.")
            self.feedback = ""
            self.revealed = True
            return
        done = self._record_for(self._current)
        self.question = self._current.question
        self.feedback = "" if done is None else self._feedback(done)
        self.revealed = done is not None

    def _seat(self, viewpoint: str) -> int:
        if self.fixed_seat is not None:
            return self.fixed_seat
        return int(viewpoint.split()[1]) if viewpoint.startswith("seat ") else 0

    def _unasked(self, game: Game[Any], quantities: Sequence[Quantity]) -> str | None:
        """Why the stepper's game (another game or player count chosen since) never asks this question, or None."""
        if self.key == WIN:
            if self.fixed_seat is not None and self.fixed_seat >= game.players:
                return (f"No question: predict_seat={self.fixed_seat} is not a seat of this {game.players}-player "
                        "game; the numbers are shown.")
            return None
        if not any(q.key == self.key for q in quantities):
            return f"No question: {game.name} asks no question {self.key!r}; the numbers are shown."
        return None

    def _question(self, game: Game[Any], viewpoint: str, win_history: Sequence[WinPoint],
                  quantities: Sequence[Quantity]) -> Prediction | None:
        move = game.move_count
        if self.key == WIN:
            seat = self._seat(viewpoint)
            if not win_history or win_history[-1].move != move or seat >= game.players:
                return None
            est = win_history[-1].estimates[seat]
            return Prediction(move, WIN, f"What is the chance that seat {seat} wins this game?", 0.5,
                              est.value, est.low, est.high, est.low == est.high, self._line, seat)
        for q in quantities:
            if q.key == self.key and q.is_applicable:
                text = f"What is the chance that {q.label}?"
                return Prediction(move, q.key, text, 0.5, q.value, q.low, q.high, q.is_exact, self._line, q.seat)
        return None

    def _record_for(self, question: Prediction) -> Prediction | None:
        for r in self.records:
            if r.line == question.line and r.key == question.key and r.question == question.question:
                return r
        return None

    def _resolve(self, game: Game[Any]) -> None:
        """Fill in the outcome of win questions once the game has ended on the same line of play."""
        if not game.is_over:
            return
        for i, r in enumerate(self.records):
            if r.key == WIN and r.outcome is None and self._line[:len(r.line)] == r.line:
                self.records[i] = replace(r, outcome=game.winner == r.seat)

    # -------------------------------------------------------------- the student's side
    def submit(self, guess: float | str | None = None) -> Prediction:
        """Enter a guess for the current question (a number, or text such as ``30%``); reveal the answer."""
        value = self.guess if guess is None else guess_value(guess)
        if self._current is None:
            raise InvalidInputError("there is no question at this position: press Next move for the next one")
        if self._record_for(self._current) is not None:
            raise InvalidInputError("you already guessed at this position: press Next move for the next question")
        record = replace(self._current, guess=value)
        self.records.append(record)
        self.guess = value
        self.feedback = self._feedback(record)
        self.error = ""
        self.revealed = True
        return record

    def _feedback(self, r: Prediction) -> str:
        off = r.guess - r.answer
        if r.exact:
            verdict = "spot on" if abs(off) < 0.005 else f"{abs(off):.3f} {'too high' if off > 0 else 'too low'}"
        elif not self.intervals:
            verdict = f"{abs(off):.3f} {'above' if off > 0 else 'below'} the estimate"
        elif r.low <= r.guess <= r.high:
            verdict = "inside the estimate's 95% interval"
        else:
            verdict = f"outside the estimate's 95% interval ({'too high' if off > 0 else 'too low'})"
        return f"your guess {r.guess:.3f}; the answer {r.answer_text(self.intervals)}: {verdict}"

    def calibration(self) -> Calibration:
        return calibrate(self.records, self.intervals)


class PredictBox(widgets.VBox):  # type: ignore[misc]
    """The layout: question, slider, text box, Reveal button, feedback; hides ``hidden`` until a guess."""

    def __init__(self, controller: PredictController, hidden: list[widgets.Widget]) -> None:
        super().__init__()
        self.controller = controller
        self.hidden = hidden
        self.question = widgets.HTML()
        self.slider = widgets.FloatSlider(value=0.5, min=0.0, max=1.0, step=0.01, description="your guess",
                                          readout_format=".2f", layout=widgets.Layout(width="340px"))
        self.text = widgets.Text(placeholder="or type 0.3, 30% or 1/3", layout=widgets.Layout(width="200px"))
        self.reveal_button = widgets.Button(description="Reveal", button_style="warning",
                                            tooltip="enter your guess, then see the answer")
        self.feedback = widgets.HTML()
        self.cover = widgets.HTML()
        traitlets.link((self.slider, "value"), (controller, "guess"))
        self.reveal_button.on_click(lambda _b: self.reveal())
        controller.observe(self._on_change, names=["question", "feedback", "revealed", "error"])
        self.children = [self.question, widgets.HBox([self.slider, self.text, self.reveal_button]),
                         self.feedback, self.cover]
        self._on_change({})

    def reveal(self) -> None:
        """What the Reveal button does: take the text box if filled, else the slider; never raise."""
        try:
            text = self.text.value.strip()
            self.controller.submit(text if text else None)
            self.text.value = ""
        except Exception as exc:  # a click must never raise into the notebook
            self.controller.error = str(exc)

    def _on_change(self, change: Any) -> None:
        c = self.controller
        self.question.value = f"<b>Predict:</b> {c.question}" if c.question else ""
        self.feedback.value = (f"<span style='color:#b00020'>⚠ {c.error}</span>" if c.error
                               else (f"<span>{c.feedback}</span>" if c.feedback else ""))
        waiting = not c.revealed
        self.reveal_button.disabled = not waiting
        self.cover.value = ("<i>The chances are hidden until you enter your guess and press Reveal.</i>"
                            if waiting else "")
        for w in self.hidden:
            w.layout.visibility = "hidden" if waiting else "visible"


def question_keys(game: Game[Any]) -> tuple[str, ...]:
    """The keys of the panel questions of ``game``'s kind (same class, players and options), in panel order.

    They are read from the panel of a fresh deal (a few play-outs, seed 0): a game's panel asks the same
    questions at every position before the end (some may not apply at a position), and an ended game asks
    none, so ``game`` itself might not show them.
    """
    fresh = type(game)(game.players, seed=0, **game.options)
    keys = [q.key for q in panel_quantities(fresh, None, rng=np.random.default_rng(0), rollouts=2)]
    return tuple(dict.fromkeys(keys))


def predict_settings(game: Game[Any], predict: object, seat: object) -> tuple[str, int | None] | None:
    """The question key and the fixed seat that ``Stepper(predict=..., predict_seat=...)`` asks for on ``game``,
    or None without predictions (``predict=False``). Every refusal names the value and what is accepted.

    ``predict`` is False, True (the win question, also ``"win"``) or the key of one of the game's panel
    questions, exactly. ``predict_seat`` fixes the seat of the win question (a seat of the game; a numpy
    integer will do); without it the seat follows the viewpoint. It has no meaning without predictions or with
    a panel question, which names its own seat, so it is refused there rather than ignored.
    """
    if seat is not None:
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) \
                or not 0 <= seat < game.players:
            raise InvalidInputError(f"predict_seat={shown(seat)} is not a seat of this {game.players}-player "
                                    f"game; give 0 to {game.players - 1}, or None for the seat of the viewpoint")
        seat = int(seat)
    if predict is False:
        if seat is not None:
            raise InvalidInputError(f"predict_seat={seat} needs predictions: give predict=True as well (the win "
                                    "question of that seat)")
        return None
    if predict is True or (isinstance(predict, str) and predict == WIN):
        return WIN, seat
    keys = question_keys(game) if isinstance(predict, str) else ()
    accepted = ", ".join(["True or 'win' (the win question)", *map(repr, keys)])
    if not isinstance(predict, str) or predict not in keys:
        raise InvalidInputError(f"predict={shown(predict)} is not a question of {game.name}; accepted: False, "
                                f"{accepted}")
    if seat is not None:
        raise InvalidInputError(f"predict_seat={seat} is the seat of the win question; the panel question "
                                f"{shown(predict)} names its own seat: leave predict_seat out or give predict=True")
    return predict, seat


def attach(figures: widgets.Widget, key: str, seat: int | None = None,
           intervals: bool = True) -> tuple[PredictController, PredictBox]:
    """Make the controller and the box of a stepper whose figures are in ``figures`` (hidden until a guess);
    ``key`` and ``seat`` come from :func:`predict_settings`; ``intervals=False`` names no interval."""
    controller = PredictController(key, seat, intervals)
    return controller, PredictBox(controller, [figures])
