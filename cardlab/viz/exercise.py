"""Exercises that check themselves: the student types a number, the check answers at once.

An :class:`Exercise` holds a question and a *function* that computes the true answer from the game and the rules
the notebook gave (never a stored number): the truth is computed when the first answer is checked, and kept.
The student's answer is text, read exactly (:func:`parse_answer`):

* a fraction, ``7/35``; a decimal, ``0.2``, ``.2`` or ``0,2``; a percentage, ``20%``. Any number of digits is
  read, up to the :data:`MAX_ANSWER_TEXT` characters of the whole answer (so an exact fraction such as
  ``26265935155173508/2803448856786435`` is read; a longer text gets a message that says the limit).

What the box asks for is one of three kinds, and every message names the kind:

* a **probability** (the default): from 0 to 1, as a fraction, a decimal or a percentage;
* a **number** (``probability=False``: a mean, a difference, a factor): any number, as a decimal, a whole number
  or a fraction; a percentage is refused with a message (a number of draws is not a share);
* a **count** (``count=True``: how many cards, games, pick-ups): a whole number from 0 up; typed text that is not
  one (``36/52``, ``2.5``, ``-3``, ``36%``) is refused with a message that says a count is asked. A number given
  in code (``exercise.check(36.0)``) is judged by its value.

:meth:`Exercise.check` compares it with the truth and returns a :class:`Verdict`:

* **right**: within ``tolerance`` of the truth (by default 0.0005, so an answer rounded to three decimals is
  right; the verdict then shows the exact value, or the computed one when the truth function returned a float,
  as a simulation does; an exercise whose truth rests on an assumption names it, ``value_name="the table's
  count"``, and the verdict says "The table's count is …", not "the exact value");
* **close**: within ``close`` of the truth, measured as a share of the truth (by default 5%); the verdict says
  only "Close, but not yet." and gives the hint: neither the direction nor how far, so the answer cannot be found
  by halving an interval from the messages;
* **close, rounded** (an exercise made with ``rounded=True``): a typed decimal or percentage that is the truth
  rounded, or cut off, to the two or more decimals typed (``0.58``, ``58%`` or ``0.583`` for 7/12 = 0.5833) gets
  "Close: 0.58 looks rounded. Type the exact fraction, or more decimals.", without the hint (the count was right)
  and without a direction;
* **not yet**: anything further, with the hint;
* **blank** or **unreadable**: a friendly message saying what can be typed. ``check`` never raises for any text,
  however malformed, so a student never sees a traceback.

Displayed in a notebook that runs (JupyterLab, Voilà), an exercise is a small widget: the question, a text box
and a **Check** button, and the verdict under them. A page that runs nothing (GitHub, nbviewer, an HTML export)
shows the output's ``text/html`` instead, which repeats the question and says to run the notebook to check an
answer. In code, ``exercise.check("7/35")`` gives the same verdict as the box, so an answer cell such as
``exercise_1.check(answer_1)`` works top to bottom with a blank answer too (it says that no answer was typed).

The answer stays out of reach of the exercise object. The truth function, and the truth once computed, are kept
in this module's private registry (:data:`_SEALS`), keyed weakly by the exercise itself; the exercise holds no
reference to them: no attribute, no slot, no closure of a method or of the widget's callbacks, so nothing reached
from the exercise (``dir``, ``repr``, ``__closure__``, ``gc.get_referents``) leads to the answer. Its ``check``
looks its own seal up in the registry. No attribute, ``repr``, message or error of an exercise shows the answer
before it is typed (a right answer's verdict shows the exact value). What this cannot close: the registry and the
answer keys are part of the installed package, so a student who reads cardlab's source can reach them (see
docs/teaching.md, "Answers out of the student's reach").
"""

from __future__ import annotations

import html
import math
import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from numbers import Real
from typing import Any, Literal

import ipywidgets as widgets

from cardlab.errors import InvalidInputError, shown

Status = Literal["right", "close", "not yet", "blank", "unreadable"]
Kind = Literal["probability", "number", "count"]
FORMS = "a fraction (7/35), a decimal (0.2) or a percentage (20%)"
NUMBER_FORMS = "a number: a decimal (2.5), a whole number (12) or a fraction (5/2)"
COUNT_FORMS = "a whole number (12)"
KIND_FORMS: dict[Kind, str] = {"probability": FORMS, "number": NUMBER_FORMS, "count": COUNT_FORMS}
"""What each kind of box asks for, as its messages say it ("type ...")."""
PLACEHOLDERS: dict[Kind, str] = {"probability": "7/35, 0.2 or 20%", "number": "a number, e.g. 12 or 2.5",
                                 "count": "a whole number, e.g. 12"}
MAX_ANSWER_TEXT = 40
"""The longest answer read (in characters, spaces included): a longer text gets a message, not an attempt. It also
bounds the digits read (at most this many on each side of a fraction), so reading stays cheap."""
DEFAULT_TOLERANCE = 0.0005
DEFAULT_CLOSE = 0.05
MAX_SHOWN_DENOMINATOR = 10_000
COLOURS = {"right": "#1a7f37", "close": "#9a6700", "not yet": "#b42318", "blank": "#57606a", "unreadable": "#57606a"}
STATIC_NOTE = ("This exercise checks your answer when the notebook runs: open it in JupyterLab or on Binder (the "
               "link at the top), run the cells from the top, and type your answer in the box.")

_DIGITS = rf"\d{{1,{MAX_ANSWER_TEXT}}}"
_THOUSANDS = re.compile(r"[+-]?[1-9]\d{0,2}(,\d{3})+")
_FRACTION = re.compile(rf"([+-]?{_DIGITS})/({_DIGITS})")
_DECIMAL = re.compile(rf"[+-]?({_DIGITS}(\.\d{{0,{MAX_ANSWER_TEXT}}})?|\.{_DIGITS})([eE][+-]?\d{{1,2}})?")


def parse_answer(text: object, forms: str = FORMS, *, thousands: bool = False) -> Fraction:
    """The number a student typed, exactly: ``7/35``, ``0.2``, ``.2``, ``0,2`` (a decimal comma), ``20%``.

    With ``thousands=True`` (the box of a count or a number, which the lessons print as ``1,000``) commas that group
    digits in threes after a leading digit 1-9 (``20,004``, ``1,000,000``) are thousands separators; elsewhere (and
    always in a chance's box, where ``0,25`` is a quarter) a single comma is a decimal comma.

    Spaces anywhere are ignored (``7 / 35``, ``20 %``). Anything else raises an :class:`InvalidInputError`
    whose message quotes the text and says what can be typed: ``forms`` (by default :data:`FORMS`, a
    probability's forms; an exercise passes the forms of its kind, :data:`KIND_FORMS`).
    """
    if not isinstance(text, str):
        raise InvalidInputError(f"answer {shown(text)} is not text: type {forms} between the quotes")
    if len(text) > MAX_ANSWER_TEXT:
        raise InvalidInputError(f"answer {shown(text, 20)} is {len(text):,} characters long, and at most "
                                f"{MAX_ANSWER_TEXT} are read: type {forms}")
    s = "".join(text.split())
    if not s:
        raise InvalidInputError(f"no answer was typed: type {forms}")
    if thousands and _THOUSANDS.fullmatch(s):
        s = s.replace(",", "")
    elif s.count(",") == 1 and "." not in s:
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
        raise InvalidInputError(f"answer {shown(text)} is not a number I can read: type {forms}")
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
          exact: bool = True, typed: str | None = None, value_name: str | None = None,
          rounded: bool = False) -> Verdict:
    """Compare an answer with the truth: right within ``tolerance``; close within ``close`` × |truth| (or
    ``close`` itself when the truth is 0), said without the direction or the distance; not yet otherwise. With
    ``rounded=True`` a typed decimal that is the truth rounded or cut off to its two or more decimals
    (:func:`looks_rounded`) is close, with "looks rounded" instead of the hint. Exact arithmetic, so 7/35 equals
    1/5 exactly.
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
    if rounded and typed is not None and looks_rounded(answer, truth, typed):
        more = "the exact fraction, or more decimals" if exact else "more decimals"
        return Verdict("close", f"Close: {yours} looks rounded. Type {more}.", answer)
    scale = abs(truth) if truth != 0 else Fraction(1)
    share = error / scale
    tip = f" Hint: {hint}" if hint else ""
    if share <= Fraction(close):
        return Verdict("close", f"Close, but not yet: {yours} is not the answer.{tip}", answer)
    return Verdict("not yet", f"Not yet: {yours} is not the answer.{tip}", answer)


ROUNDED_DECIMALS = 2
"""The fewest decimals of a typed answer that can get "looks rounded" (:func:`looks_rounded`)."""
_TYPED_DECIMAL = re.compile(r"[+-]?\d*(?:[.,](\d+))?")


def decimals_typed(typed: str) -> int:
    """How many decimals of the value a typed decimal gives: ``0.58`` and ``58%`` give 2, ``0.577`` gives 3, ``57.7%``
    gives 3; 0 for a whole number, a fraction or anything else (an exponent, thousands: nothing is taken as rounded)."""
    s = "".join(typed.split())
    percent = s.endswith("%")
    if percent:
        s = s[:-1]
    decimal = _TYPED_DECIMAL.fullmatch(s)
    if decimal is None or not any(c.isdigit() for c in s) or (not percent and _THOUSANDS.fullmatch(s)):
        return 0
    return len(decimal.group(1) or "") + (2 if percent else 0)


def looks_rounded(answer: Fraction, truth: Fraction, typed: str) -> bool:
    """Whether ``answer`` is the truth rounded (or cut off) to the decimals typed, at least :data:`ROUNDED_DECIMALS`:
    ``0.58``, ``58%`` or ``0.583`` for 7/12 = 0.5833. It says nothing of the direction: rounding up and cutting off
    count alike. One decimal is not enough (``0.6``): the message would give the answer's first digit away."""
    places = decimals_typed(typed)
    if places < ROUNDED_DECIMALS:
        return False
    unit = Fraction(10) ** places
    return answer in (Fraction(round(truth * unit)) / unit, Fraction(int(truth * unit)) / unit)


def _checked_float(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 <= float(value) < math.inf:
        raise InvalidInputError(f"{name}={shown(value)}: give a number from 0 up (e.g. {name}=0.01)")
    return float(value)


Judge = Callable[[Fraction, "str | None"], Verdict]
_SEALS: weakref.WeakKeyDictionary[Exercise, Judge] = weakref.WeakKeyDictionary()
"""Each exercise's judging function (which holds its truth function), keyed weakly by the exercise: the only
reference to it. Private: only :meth:`Exercise.check` reads it; an entry goes when its exercise goes."""


def _sealed(truth: Callable[[], object], *, tolerance: float, close: float, hint: str,
            value_name: str | None = None, count: bool = False, rounded: bool = False) -> Judge:
    """A function that judges an answer against the truth, with the truth function and its value in its closure.

    The truth is computed at the first call and kept there. The function itself is kept only in :data:`_SEALS`,
    never in the exercise, so nothing reached from the exercise object holds it (see the module's docstring).
    ``count=True``: the truth must be a whole number (an error names the type, never the value).
    """
    kept: list[tuple[Fraction, bool]] = []

    def judge_answer(value: Fraction, typed: str | None) -> Verdict:
        if not kept:
            computed = truth()
            exact_truth = exact_value(computed)
            if count and (exact_truth.denominator != 1 or exact_truth < 0):
                raise InvalidInputError(f"count=True, but the exercise's truth function returned {_kind(computed)} "
                                        "that is not a whole number from 0 up: a count is needed")
            kept.append((exact_truth, isinstance(computed, (Fraction, int))))
        exact_truth, exact = kept[0]
        return judge(value, exact_truth, tolerance=tolerance, close=close, hint=hint, exact=exact, typed=typed,
                     value_name=value_name, rounded=rounded)

    return judge_answer


class Exercise:
    """A question whose answer the student types and the exercise checks (see the module's docstring).

    ``truth`` is called once, at the first check, and must return the exact answer (a ``Fraction`` or an
    integer) or a float; ``hint`` is shown with every answer that is not right. The kind of answer asked for
    (:attr:`kind`): ``probability=True`` (the default) refuses answers outside 0 to 1 with a message that says
    why; ``probability=False`` asks for a number (a mean, a difference) and refuses a percentage; ``count=True``
    asks for a whole number from 0 up (it implies ``probability=False``) and refuses typed text that is not one.
    Every message says what the kind asks for. ``value_name`` names the truth in a right verdict when "the exact
    value" would overstate it (a count that rests on an assumption: "the table's count, which takes every unseen
    card as equally likely,"). ``rounded=True`` (for an exact truth a student counts): a typed decimal or
    percentage that is the truth rounded or cut off to its two or more decimals gets "Close: ... looks rounded.
    Type the exact fraction, or more decimals." instead of the hint, which would send a right count back to be
    recounted (examples in the module's docstring, none here: this text is reachable from an exercise).

    The truth is sealed out of the exercise's reach: the judging function that holds the truth function (and the
    truth once computed) is kept in the module's registry :data:`_SEALS`, keyed weakly by this exercise, and the
    exercise holds no reference to it (no attribute, no slot, no closure of its methods or its widget). A copy of
    an exercise has no seal, and its check says so.
    """

    __slots__ = ("title", "question", "hint", "tolerance", "close", "probability", "kind", "_widget", "_feedback",
                 "__weakref__")

    def __init__(self, title: str, question: str, truth: Callable[[], object], *, hint: str = "",
                 tolerance: float = DEFAULT_TOLERANCE, close: float = DEFAULT_CLOSE,
                 probability: bool = True, count: bool = False, value_name: str | None = None,
                 rounded: bool = False) -> None:
        for name, text in (("title", title), ("question", question), ("hint", hint),
                           ("value_name", "" if value_name is None else value_name)):
            if not isinstance(text, str):
                raise InvalidInputError(f"{name}={shown(text)} is not text")
        if not question.strip():
            raise InvalidInputError("question='' is empty: an exercise asks something")
        if not callable(truth):
            raise InvalidInputError(f"truth={_kind(truth)} is not a function: give one that computes the answer "
                                    "from the game (e.g. truth=lambda: prob.garbage_next_card_placeable(game))")
        if not isinstance(count, bool):
            raise InvalidInputError(f"count={shown(count)}: give True (the answer is a whole number) or False")
        if not isinstance(rounded, bool):
            raise InvalidInputError(f"rounded={shown(rounded)}: give True (say when a decimal looks rounded) or False")
        self.title = title
        self.question = question
        self.hint = hint
        self.tolerance = _checked_float("tolerance", tolerance)
        self.close = _checked_float("close", close)
        self.probability = bool(probability) and not count
        self.kind: Kind = "count" if count else "probability" if self.probability else "number"
        if value_name is not None and not value_name.strip():
            raise InvalidInputError("value_name='' is empty: leave it out for \"the exact value\"")
        _SEALS[self] = _sealed(truth, tolerance=self.tolerance, close=self.close, hint=hint, value_name=value_name,
                               count=count, rounded=rounded)
        self._widget: widgets.VBox | None = None
        self._feedback: widgets.HTML | None = None

    def check(self, answer: object) -> Verdict:
        """The verdict on ``answer`` (text such as ``"7/35"``, ``"0.2"`` or ``"20%"``). Never raises for bad text."""
        forms = KIND_FORMS[self.kind]
        if isinstance(answer, str) and not answer.strip():
            return Verdict("blank", f"No answer yet: type {forms}, then check.")
        try:
            value = (exact_value(answer, "answer") if isinstance(answer, Real)
                     else parse_answer(answer, forms, thousands=self.kind != "probability"))
        except InvalidInputError as error:
            return Verdict("unreadable", f"{str(error)[:1].upper()}{str(error)[1:]}.")
        if self.probability and not 0 <= value <= 1:
            return Verdict("unreadable", f"{shown_value(value)} is not a probability: a chance is between 0 and 1 "
                                         "(0% to 100%).", value)
        typed = " ".join(answer.split()) if isinstance(answer, str) else None
        if typed is not None:
            refused = self._refused(typed, value, forms)
            if refused is not None:
                return refused
        judge_answer = _SEALS.get(self)
        if judge_answer is None:
            raise InvalidInputError("this exercise is a copy and has no answer key: make it again with "
                                    "lesson(\"NN\").exercise(N)")
        return judge_answer(value, typed)

    def _refused(self, typed: str, value: Fraction, forms: str) -> Verdict | None:
        """A message for typed text of the wrong kind (a percentage for a number, a share for a count), or None.
        It depends only on what was typed and the kind asked for, never on the truth."""
        if self.kind != "probability" and typed.endswith("%"):
            asked = "how many" if self.kind == "count" else "for a number, not a chance"
            return Verdict("unreadable", f"{typed} is a percentage, but this exercise asks {asked}: type the "
                                         f"number itself, without %.", value)
        if self.kind == "count" and (value.denominator != 1 or value < 0):
            what = "a share, not a count" if "/" in typed else "below 0" if value < 0 else "not a whole number"
            return Verdict("unreadable", f"{typed} is {what}: this exercise asks how many, so type {forms}.", value)
        return None

    # ------------------------------------------------------------------ display
    @property
    def widget(self) -> widgets.VBox:
        """The live box: question, text field, **Check** button, verdict (built at the first use)."""
        if self._widget is None:
            box = widgets.Text(placeholder=PLACEHOLDERS[self.kind], description="answer",
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
