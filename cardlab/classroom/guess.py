"""Reading a student's guess, and scoring the guesses of one student over a class session.

A guess is a probability typed on a phone: ``0.3``, ``.3``, ``0,3``, ``30%``, ``30 %`` or ``1/3``. Anything else
(an empty box, ``abc``, ``1/0``, ``150%``, ``nan``, ``1e400``) is refused with a sentence saying what is
accepted (:class:`~cardlab.errors.BadGuessError`).

Scores
------
When the teacher reveals a question, the answer is the chance ``p`` of the event (exact, or an estimate with its
95% interval), not the outcome: the game goes on. A guess ``g`` is then scored by its **expected Brier score**,
the Brier score ``(g - O)²`` averaged over the outcome ``O``, which is 1 with chance ``p`` and 0 otherwise::

    E[(g - O)²] = p (g - 1)² + (1 - p) g² = (g - p)² + p (1 - p)

The second term, ``p (1 - p)``, is what a student who knew the exact chance would score (the best possible); the
first, ``(g - p)²``, is what the guess adds to it. So a student's running score is shown beside the best possible
one over the same questions, and the gap between them is the mean squared distance from the answers. For an
estimated answer the estimate stands in for ``p``.

The **calibration table** groups a student's guesses in bins of width 0.2 and shows, per bin, the number of
guesses, their mean and the mean of the answers: a calibrated student's guesses of about 0.3 are about questions
whose chance is about 0.3.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from cardlab.errors import BadGuessError, shown

MAX_GUESS_TEXT = 40
"""The longest guess text read: a probability typed by a student is a few characters."""
BIN_EDGES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
"""The bins of the calibration table (the last one includes 1)."""
HISTOGRAM_BINS = 20
"""The class histogram's bins: width 0.05 from 0 to 1 (the last one includes 1)."""

_ACCEPTED = "type a number from 0 to 1 (0.3), a percentage (30%) or a fraction (1/3)"
_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
_FRACTION = re.compile(r"([0-9]{1,9}) *\/ *([0-9]{1,9})")


def parse_guess(text: object) -> float:
    """The probability in ``text``: ``0.3``, ``.3``, ``0,3`` (decimal comma), ``30%`` or ``1/3``.

    Only plain decimal digits are read (no exponent, no sign, no ``inf``/``nan``), so nothing a phone's keyboard
    can send gives a value outside 0 to 1 or a non-number.
    """
    if not isinstance(text, str):
        raise BadGuessError(f"guess {shown(text)} is not text: {_ACCEPTED}")
    if len(text) > MAX_GUESS_TEXT:
        raise BadGuessError(f"guess {shown(text, 20)} is {len(text):,} characters long: {_ACCEPTED}")
    s = text.strip().replace(",", ".")
    value: float | None = None
    if s.endswith("%") and _NUMBER.fullmatch(s[:-1].strip()):
        value = float(s[:-1].strip()) / 100
    elif (m := _FRACTION.fullmatch(s)) is not None:
        if int(m.group(2)) == 0:
            raise BadGuessError(f"guess {shown(text)} divides by zero: {_ACCEPTED}")
        value = float(Fraction(int(m.group(1)), int(m.group(2))))
    elif _NUMBER.fullmatch(s):
        value = float(s)
    if value is None or not math.isfinite(value):
        raise BadGuessError(f"guess {shown(text)} is not a probability: {_ACCEPTED}")
    if not 0.0 <= value <= 1.0:
        raise BadGuessError(f"guess {shown(text)} is more than 1: a probability is between 0 and 1 (0% to 100%)")
    return value


def histogram(values: Iterable[float], bins: int = HISTOGRAM_BINS) -> list[int]:
    """How many ``values`` (each from 0 to 1) fall in each of ``bins`` equal bins; 1 counts in the last."""
    counts = [0] * bins
    for v in values:
        counts[min(int(v * bins), bins - 1)] += 1
    return counts


@dataclass(frozen=True)
class Scored:
    """One revealed guess of a student: the guess and the answer's chance (see the module docstring)."""

    guess: float
    answer: float

    @property
    def expected_brier(self) -> float:
        """E[(g - O)²] = (g - p)² + p (1 - p)."""
        return (self.guess - self.answer) ** 2 + self.answer * (1 - self.answer)

    @property
    def best_brier(self) -> float:
        """The expected Brier score of a guess equal to the answer: p (1 - p)."""
        return self.answer * (1 - self.answer)


@dataclass(frozen=True)
class CalibrationBin:
    low: float
    high: float
    count: int
    mean_guess: float | None
    mean_answer: float | None


@dataclass(frozen=True)
class StudentScore:
    """A student's running score over the revealed questions they answered."""

    answered: int
    brier: float | None       # mean expected Brier score of the student's guesses
    best: float | None        # the same for guesses equal to the answers (the best possible)
    rows: tuple[CalibrationBin, ...]

    def as_json(self) -> dict[str, object]:
        return {"answered": self.answered, "brier": self.brier, "best": self.best,
                "rows": [{"low": r.low, "high": r.high, "count": r.count, "mean_guess": r.mean_guess,
                          "mean_answer": r.mean_answer} for r in self.rows]}


def score(items: Iterable[Scored]) -> StudentScore:
    """The running score of one student's revealed guesses."""
    done = list(items)
    rows = []
    for i, (low, high) in enumerate(zip(BIN_EDGES, BIN_EDGES[1:], strict=False)):
        last = i == len(BIN_EDGES) - 2
        inside = [s for s in done if low <= s.guess < high or (last and s.guess == high)]
        rows.append(CalibrationBin(low, high, len(inside),
                                   sum(s.guess for s in inside) / len(inside) if inside else None,
                                   sum(s.answer for s in inside) / len(inside) if inside else None))
    if not done:
        return StudentScore(0, None, None, tuple(rows))
    return StudentScore(len(done), sum(s.expected_brier for s in done) / len(done),
                        sum(s.best_brier for s in done) / len(done), tuple(rows))
