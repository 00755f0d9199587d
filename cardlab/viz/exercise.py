"""Exercises that check themselves: the student types a number, the check answers at once.

An :class:`Exercise` holds a question and a *function* that computes the true answer from the game and the rules
the notebook gave (never a stored number): the truth is computed when the first answer is checked, and kept.
The student's answer is text, read exactly (:func:`parse_answer`):

* a fraction, ``7/35``; a decimal, ``0.2``, ``.2`` or ``0,2``; a percentage, ``20%``.

:meth:`Exercise.check` compares it with the truth and returns a :class:`Verdict`:

* **right**: within ``tolerance`` of the truth (by default 0.0005, so an answer rounded to three decimals is
  right; the verdict then shows the exact value, or the computed one when the truth function returned a float,
  as a simulation does; an exercise whose truth rests on an assumption names it, ``value_name="the table's
  count"``, and the verdict says "The table's count is …", not "the exact value");
* **close**: within ``close`` of the truth, measured as a share of the truth (by default 5%); the verdict says
  only "Close, but not yet." and gives the hint: neither the direction nor how far, so the answer cannot be found
  by halving an interval from the messages;
* **not yet**: anything further, with the hint;
* **blank** or **unreadable**: a friendly message saying what can be typed. ``check`` never raises for any text,
  however malformed, so a student never sees a traceback.

Displayed in a notebook that runs (JupyterLab, Voilà), an exercise is a small widget: the question, a text box
and a **Check** button, and the verdict under them. A page that runs nothing (GitHub, nbviewer, an HTML export)
shows the output's ``text/html`` instead, which repeats the question and says to run the notebook to check an
answer. In code, ``exercise.check("7/35")`` gives the same verdict as the box, so an answer cell such as
``exercise_1.check(answer_1)`` works top to bottom with a blank answer too (it says that no answer was typed).

The answer stays out of reach: the truth function and the truth it computes live in a closure that only the check
calls (:func:`_sealed`), never in an attribute; no attribute, ``repr``, message or error of an exercise shows the
answer before it is typed (a right answer's verdict shows the exact value).
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from numbers import Real
from typing import Any, Literal

import ipywidgets as widgets

from cardlab.errors import InvalidInputError, shown

Status = Literal["right", "close", "not yet", "blank", "unreadable"]
FORMS = "a fraction (7/35), a decimal (0.2) or a percentage (20%)"
MAX_ANSWER_TEXT = 40
"""The longest answer read (in characters, spaces included): a longer text gets a message, not an attempt."""
DEFAULT_TOLERANCE = 0.0005
DEFAULT_CLOSE = 0.05
MAX_SHOWN_DENOMINATOR = 10_000
COLOURS = {"right": "#1a7f37", "close": "#9a6700", "not yet": "#b42318", "blank": "#57606a", "unreadable": "#57606a"}
STATIC_NOTE = ("This exercise checks your answer when the notebook runs: open it in JupyterLab or on Binder (the "
               "link at the top), run the cells from the top, and type your answer in the box.")

_FRACTION = re.compile(r"([+-]?\d{1,12})/(\d{1,12})")
_DECIMAL = re.compile(r"[+-]?(\d{1,20}(\.\d{0,20})?|\.\d{1,20})([eE][+-]?\d{1,2})?")


def parse_answer(text: object) -> Fraction:
    """The number a student typed, exactly: ``7/35``, ``0.2``, ``.2``, ``0,2`` (a decimal comma), ``20%``.

    Spaces anywhere are ignored (``7 / 35``, ``20 %``). Anything else raises an :class:`InvalidInputError`
    whose message quotes the text and says what can be typed.
    """
    if not isinstance(text, str):
        raise InvalidInputError(f"answer {shown(text)} is not text: type {FORMS} between the quotes")
    if len(text) > MAX_ANSWER_TEXT:
        raise InvalidInputError(f"answer {shown(text, 20)} is {len(text):,} characters long: type {FORMS}")
    s = "".join(text.split())
    if not s:
        raise InvalidInputError(f"no answer was typed: type {FORMS}")
    if s.count(",") == 1 and "." not in s:
        s = s.replace(",", ".")
    percent = s.endswith("%")
    if percent:
        s = s[:-1]
    fraction = _FRACTION.fullmatch(s)
    if fraction is not None:
        if int(fraction.group(2)) == 0:
            raise InvalidInputError(f"answer {shown(text)} divides by zero: the number under the line must not be 0")
        value = Fraction(int(fraction.group(1)), int(fraction.group(2)))
    elif _DECIMAL.fullmatch(s):
        value = Fraction(Decimal(s))
    else:
        raise InvalidInputError(f"answer {shown(text)} is not a number I can read: type {FORMS}")
    return value / 100 if percent else value


def exact_value(value: object, what: str = "the exercise's truth function returned") -> Fraction:
    """A number as an exact fraction: a ``Fraction``, an integer or a finite real number (numpy's too)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InvalidInputError(f"{what} {_kind(value)}: a number is needed (a Fraction, an int or a float)")
    if isinstance(value, int):
        return Fraction(value)
    number = float(value)
    if not math.isfinite(number):
        raise InvalidInputError(f"{what} {shown(value)}: the number must be finite")  # nan or inf: no answer
    return Fraction(number)


def _kind(value: object) -> str:
    """What a value is, without its value (an error about a truth must not quote the truth)."""
    return f"a {type(value).__name__}"


def shown_value(value: Fraction) -> str:
    """``11/13 ≈ 0.8462`` for a fraction with a small denominator, else the decimal alone."""
    decimal = f"{float(value):.4f}"
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator <= MAX_SHOWN_DENOMINATOR:
        return f"{value} ≈ {decimal}"
    return decimal


@dataclass(frozen=True)
class Verdict:
    """What the check said: ``status`` (right, close, not yet, blank, unreadable) and the message shown."""

    status: Status
    message: str
    answer: Fraction | None = None

    @property
    def is_right(self) -> bool:
        return self.status == "right"

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return self.message

    def html(self) -> str:
        """The message as HTML, coloured by its status."""
        colour = COLOURS[self.status]
        return f'<div style="color:{colour};font-weight:600">{html.escape(self.message)}</div>'

    def _repr_html_(self) -> str:
        return self.html()


def judge(answer: Fraction, truth: Fraction, *, tolerance: float, close: float, hint: str,
          exact: bool = True, typed: str | None = None, value_name: str | None = None) -> Verdict:
    """Compare an answer with the truth: right within ``tolerance``; close within ``close`` × |truth| (or
    ``close`` itself when the truth is 0), said without the direction or the distance; not yet otherwise. Exact
    arithmetic, so 7/35 equals 1/5 exactly.
    ``exact`` says whether the truth is an exact value or a computed estimate (a simulation's), as the verdict
    then says. ``typed`` is the answer as the student wrote it, quoted back (else the number is shown).
    ``value_name`` names the truth in a right verdict instead ("the table's count" for a value that rests on an
    assumption, which "the exact value" would overstate)."""
    error = abs(answer - truth)
    yours = typed if typed is not None else shown_value(answer)
    if error <= Fraction(tolerance):
        value = shown_value(truth) if exact else f"{float(truth):.4f}"
        what = (f"{value_name} is {value}" if value_name is not None
                else f"the exact value is {value}" if exact else f"the value computed here is {value}")
        return Verdict("right", f"Right! ({what[:1].upper()}{what[1:]}.)", answer)
    scale = abs(truth) if truth != 0 else Fraction(1)
    share = error / scale
    tip = f" Hint: {hint}" if hint else ""
    if share <= Fraction(close):
        return Verdict("close", f"Close, but not yet: {yours} is not the answer.{tip}", answer)
    return Verdict("not yet", f"Not yet: {yours} is not the answer.{tip}", answer)


def _checked_float(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 <= float(value) < math.inf:
        raise InvalidInputError(f"{name}={shown(value)}: give a number from 0 up (e.g. {name}=0.01)")
    return float(value)


Judge = Callable[[Fraction, "str | None"], Verdict]


def _sealed(truth: Callable[[], object], *, tolerance: float, close: float, hint: str,
            value_name: str | None = None) -> Judge:
    """A function that judges an answer against the truth, with the truth function and its value in its closure.

    The truth is computed at the first call and kept there: no attribute of the exercise holds it, so neither
    ``dir(exercise)``, nor a ``repr``, nor tab completion in a notebook shows it; only a check uses it.
    """
    kept: list[tuple[Fraction, bool]] = []

    def judge_answer(value: Fraction, typed: str | None) -> Verdict:
        if not kept:
            computed = truth()
            kept.append((exact_value(computed), isinstance(computed, (Fraction, int))))
        exact_truth, exact = kept[0]
        return judge(value, exact_truth, tolerance=tolerance, close=close, hint=hint, exact=exact, typed=typed,
                     value_name=value_name)

    return judge_answer


class Exercise:
    """A question whose answer the student types and the exercise checks (see the module's docstring).

    ``truth`` is called once, at the first check, and must return the exact answer (a ``Fraction`` or an
    integer) or a float; ``hint`` is shown with every answer that is not right. ``probability=True`` (the
    default) refuses answers outside 0 to 1 with a message that says why. ``value_name`` names the truth in a
    right verdict when "the exact value" would overstate it (a count that rests on an assumption: "the table's
    count, which takes every unseen card as equally likely,"). The truth is sealed in the check
    (:func:`_sealed`): the exercise has no attribute that holds it.
    """

    __slots__ = ("title", "question", "hint", "tolerance", "close", "probability", "_judge", "_widget", "_feedback")

    def __init__(self, title: str, question: str, truth: Callable[[], object], *, hint: str = "",
                 tolerance: float = DEFAULT_TOLERANCE, close: float = DEFAULT_CLOSE,
                 probability: bool = True, value_name: str | None = None) -> None:
        for name, text in (("title", title), ("question", question), ("hint", hint),
                           ("value_name", "" if value_name is None else value_name)):
            if not isinstance(text, str):
                raise InvalidInputError(f"{name}={shown(text)} is not text")
        if not question.strip():
            raise InvalidInputError("question='' is empty: an exercise asks something")
        if not callable(truth):
            raise InvalidInputError(f"truth={_kind(truth)} is not a function: give one that computes the answer "
                                    "from the game (e.g. truth=lambda: prob.garbage_next_card_placeable(game))")
        self.title = title
        self.question = question
        self.hint = hint
        self.tolerance = _checked_float("tolerance", tolerance)
        self.close = _checked_float("close", close)
        self.probability = bool(probability)
        if value_name is not None and not value_name.strip():
            raise InvalidInputError("value_name='' is empty: leave it out for \"the exact value\"")
        self._judge = _sealed(truth, tolerance=self.tolerance, close=self.close, hint=hint, value_name=value_name)
        self._widget: widgets.VBox | None = None
        self._feedback: widgets.HTML | None = None

    def check(self, answer: object) -> Verdict:
        """The verdict on ``answer`` (text such as ``"7/35"``, ``"0.2"`` or ``"20%"``). Never raises for bad text."""
        if isinstance(answer, str) and not answer.strip():
            return Verdict("blank", f"No answer yet: type {FORMS}, then check.")
        try:
            value = exact_value(answer, "answer") if isinstance(answer, Real) else parse_answer(answer)
        except InvalidInputError as error:
            return Verdict("unreadable", f"{str(error)[:1].upper()}{str(error)[1:]}.")
        if self.probability and not 0 <= value <= 1:
            return Verdict("unreadable", f"{shown_value(value)} is not a probability: a chance is between 0 and 1 "
                                         "(0% to 100%).", value)
        typed = " ".join(answer.split()) if isinstance(answer, str) else None
        return self._judge(value, typed)

    # ------------------------------------------------------------------ display
    @property
    def widget(self) -> widgets.VBox:
        """The live box: question, text field, **Check** button, verdict (built at the first use)."""
        if self._widget is None:
            box = widgets.Text(placeholder="7/35, 0.2 or 20%" if self.probability else "a number, e.g. 12 or 2.5",
                               description="answer",
                               layout=widgets.Layout(width="260px"), continuous_update=False)
            button = widgets.Button(description="Check", button_style="primary", layout=widgets.Layout(width="90px"))
            self._feedback = widgets.HTML("")

            def on_check(_: Any) -> None:
                self._show(self._safe_check(box.value))

            button.on_click(on_check)
            box.observe(on_check, names="value")
            heading = widgets.HTML(self._question_html())
            self._widget = widgets.VBox([heading, widgets.HBox([box, button]), self._feedback])
        return self._widget

    def _safe_check(self, answer: object) -> Verdict:
        try:
            return self.check(answer)
        except Exception as error:  # a truth function that fails is the exercise's fault; show it, never a traceback
            return Verdict("unreadable", f"This exercise could not compute its answer ({type(error).__name__}: "
                                         f"{str(error)[:200]}); tell your teacher.")

    def _show(self, verdict: Verdict) -> None:
        if self._feedback is not None:
            self._feedback.value = verdict.html()

    def _question_html(self) -> str:
        title = f"<b>{html.escape(self.title)}</b> " if self.title else ""
        return f"<div>{title}{html.escape(self.question)}</div>"

    def _static_text(self) -> str:
        title = f"{self.title} " if self.title else ""
        return f"{title}{self.question}\n({STATIC_NOTE})"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        data = dict(self.widget._repr_mimebundle_() or {})
        data["text/plain"] = self._static_text()
        data["text/html"] = (f'<div class="cardlab-exercise">{self._question_html()}'
                             f"<div><i>{html.escape(STATIC_NOTE)}</i></div></div>")
        return data

    def __repr__(self) -> str:
        return self._static_text()
