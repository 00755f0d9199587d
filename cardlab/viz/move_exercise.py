"""An exercise whose answer is a move: a position is shown, the student picks a move, the check answers.

Like lichess's "learn from your mistakes", a :class:`MoveExercise` shows a position and asks for a better move
than the one played, and reveals the better moves only once the student has found one. The student answers with
a move as it is listed (its text, any case and spacing) or its number in the list; in a notebook that runs, a
menu of the moves and a **Check** button do the same. :meth:`MoveExercise.check` returns the
:class:`~cardlab.viz.exercise.Verdict` of the numeric exercises:

* **right**: a move the truth accepts; the verdict says so in the truth's words (by default "is a better move")
  and then shows what the truth reveals (the better moves);
* **not yet**: any other listed move, with the truth's reason for that move when it has one (the move played:
  "that is the move played"), else a general one that names no other move;
* **blank** or **unreadable**: a message saying what can be typed. ``check`` never raises for any text.

The truth is a function (:data:`MoveTruth`), called at the first check. As in :class:`~cardlab.viz.exercise.Exercise`,
the function that judges (with the truth in its closure) is kept only in this module's private registry
(:data:`_SEALS`, keyed weakly by the exercise), so nothing reached from the exercise holds it: no attribute, repr,
page or widget of the exercise shows which moves it accepts, and the moves are listed in the order given (the
caller gives an order that does not depend on their values, e.g. the engine's).
"""

from __future__ import annotations

import html
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets

from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError, shown
from cardlab.viz.exercise import Verdict

MOVE_FORMS = "a move as listed (its text, e.g. 'play 7') or its number in the list"
MOVE_STATIC_NOTE = ("This exercise checks your answer when the notebook runs: open it in JupyterLab or on Binder (the "
                    "link at the top), run the cells from the top, and choose your move in the menu.")


@dataclass(frozen=True)
class MoveAnswers:
    """What a move exercise's truth decides: ``right`` the texts of the moves it accepts, ``reasons`` what a
    check says to a move it does not accept (by the move's text; others get a general "not yet"), ``reveal``
    what a right answer's verdict shows (the better moves, with their values), and ``right_says`` what that
    verdict says of the move (it should name what the question asked for: "is a better move", "is as good as
    the best")."""

    right: frozenset[str]
    reveal: str
    reasons: Mapping[str, str] = field(default_factory=dict)
    right_says: str = "is a better move"


MoveTruth = Callable[[], MoveAnswers]


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


def _sealed(truth: MoveTruth, moves: tuple[str, ...]) -> Callable[[str], Verdict]:
    """A function that judges a listed move, with the truth function and its answers in its closure only."""
    kept: list[MoveAnswers] = []

    def judge(move: str) -> Verdict:
        if not kept:
            answers = truth()
            if not isinstance(answers, MoveAnswers):
                raise InvalidInputError(f"the move exercise's truth function returned a {type(answers).__name__}: "
                                        "a MoveAnswers is needed")
            unknown = sorted(answers.right - set(moves))
            if unknown:
                raise InvalidInputError(f"the move exercise's truth accepts {len(unknown)} moves that are not listed")
            kept.append(answers)
        answers = kept[0]
        if move in answers.right:
            return Verdict("right", f"Right! {move!r} {answers.right_says}. {answers.reveal}")
        reason = answers.reasons.get(move, "the play-outs say it is clearly worse than the best move")
        return Verdict("not yet", f"Not yet: {move!r}: {reason}. Try another move.")

    return judge


_SEALS: weakref.WeakKeyDictionary[MoveExercise, Callable[[str], Verdict]] = weakref.WeakKeyDictionary()
"""Each move exercise's judge (the truth function in its closure), kept apart from the exercise (module notes)."""


class MoveExercise:
    """A position, its listed moves and a question; the student's move is checked (module notes).

    ``moves``: the moves' texts in the order they are listed (not sorted by value); ``picture_html``: the
    position as the student may see it (HTML, e.g. :func:`cardlab.viz.table_html` from the student's seat);
    ``truth``: the function that decides, at the first check, which moves are right (:class:`MoveAnswers`).
    ``played``: the move played there, if the question is about a game (one of ``moves``); ``position``: the
    game at that position, for the student to study (:attr:`position` gives a copy).
    """

    __slots__ = ("title", "question", "moves", "picture_html", "played", "_position", "_widget", "_feedback",
                 "__weakref__")

    def __init__(self, title: str, question: str, moves: Sequence[str], truth: MoveTruth, *,
                 picture_html: str = "", played: str | None = None, position: Game[Any] | None = None) -> None:
        for name, text in (("title", title), ("question", question), ("picture_html", picture_html)):
            if not isinstance(text, str):
                raise InvalidInputError(f"{name}={shown(text)} is not text")
        if not question.strip():
            raise InvalidInputError("question='' is empty: an exercise asks something")
        listed: tuple[str, ...] = tuple(moves) if isinstance(moves, (list, tuple)) else ()
        if len(listed) < 2 or not all(isinstance(m, str) and m.strip() for m in listed) \
                or len({_key(m) for m in listed}) != len(listed):
            raise InvalidInputError(f"moves={shown(moves)}: give the texts of two or more different moves")
        if not callable(truth):
            raise InvalidInputError(f"truth={shown(truth)} is not a function: give one that decides which moves "
                                    "are right")
        if played is not None and played not in listed:
            raise InvalidInputError(f"played={shown(played)} is not one of the moves listed")
        if position is not None and not isinstance(position, Game):
            raise InvalidInputError(f"position={shown(position)} is not a cardlab game")
        self.title = title
        self.question = question
        self.moves = listed
        self.picture_html = picture_html
        self.played = played
        self._position = position.copy() if position is not None else None
        _SEALS[self] = _sealed(truth, listed)
        self._widget: widgets.VBox | None = None
        self._feedback: widgets.HTML | None = None

    @property
    def position(self) -> Game[Any] | None:
        """A copy of the position the question shows (None when none was given): value its moves, play them."""
        return self._position.copy() if self._position is not None else None

    def move_of(self, answer: object) -> str:
        """The listed move ``answer`` names (its text, any case and spacing, or its number from 1), else an
        :class:`~cardlab.errors.InvalidInputError` saying what can be typed."""
        if isinstance(answer, bool) or not isinstance(answer, (str, int)):
            raise InvalidInputError(f"answer {shown(answer)} is not a move: type {MOVE_FORMS}")
        text = str(answer).strip()
        if text.isdigit() and len(text) <= 3:
            number = int(text)
            if 1 <= number <= len(self.moves):
                return self.moves[number - 1]
            raise InvalidInputError(f"there is no move number {number}: the moves are numbered 1 to {len(self.moves)}")
        for move in self.moves:
            if _key(move) == _key(text):
                return move
        raise InvalidInputError(f"answer {shown(text, 40)} is not one of the moves listed: type {MOVE_FORMS}")

    def check(self, answer: object) -> Verdict:
        """The verdict on ``answer``, a move's text or number (module notes). Never raises for bad text."""
        if answer is None or (isinstance(answer, str) and not answer.strip()):
            return Verdict("blank", f"No answer yet: type {MOVE_FORMS}, then check.")
        try:
            move = self.move_of(answer)
        except InvalidInputError as error:
            return Verdict("unreadable", f"{str(error)[:1].upper()}{str(error)[1:]}.")
        judge = _SEALS.get(self)
        if judge is None:
            raise InvalidInputError("this exercise is a copy and has no answer key: make it again with "
                                    "lesson(\"NN\").exercise(N)")
        return judge(move)

    # ------------------------------------------------------------------ display
    def _listed(self) -> str:
        return "; ".join(f"{k}. {m}" for k, m in enumerate(self.moves, start=1))

    def _question_html(self) -> str:
        title = f"<b>{html.escape(self.title)}</b> " if self.title else ""
        return (f"<div>{title}{html.escape(self.question)}</div>{self.picture_html}"
                f"<div>Moves: {html.escape(self._listed())}</div>")

    def _static_text(self) -> str:
        title = f"{self.title} " if self.title else ""
        return f"{title}{self.question}\nMoves: {self._listed()}\n({MOVE_STATIC_NOTE})"

    @property
    def widget(self) -> widgets.VBox:
        """The live box: question, picture, a menu of the moves, **Check**, verdict (built at the first use)."""
        if self._widget is None:
            menu = widgets.Dropdown(options=[(f"{k}. {m}", m) for k, m in enumerate(self.moves, start=1)],
                                    value=None, description="move", layout=widgets.Layout(width="300px"))
            button = widgets.Button(description="Check", button_style="primary", layout=widgets.Layout(width="90px"))
            self._feedback = widgets.HTML("")

            def on_check(_: Any) -> None:
                verdict = self._safe_check(menu.value)
                if self._feedback is not None:
                    self._feedback.value = verdict.html()

            button.on_click(on_check)
            self._widget = widgets.VBox([widgets.HTML(self._question_html()), widgets.HBox([menu, button]),
                                         self._feedback])
        return self._widget

    def _safe_check(self, answer: object) -> Verdict:
        try:
            return self.check(answer)
        except Exception as error:  # a truth function that fails is the exercise's fault; show it, never a traceback
            return Verdict("unreadable", f"This exercise could not compute its answer ({type(error).__name__}: "
                                         f"{str(error)[:200]}); tell your teacher.")

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        data = dict(self.widget._repr_mimebundle_() or {})
        data["text/plain"] = self._static_text()
        data["text/html"] = (f'<div class="cardlab-exercise">{self._question_html()}'
                             f"<div><i>{html.escape(MOVE_STATIC_NOTE)}</i></div></div>")
        return data

    def __repr__(self) -> str:
        return self._static_text()
