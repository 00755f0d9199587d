"""Reading a student's guess, and the running score (expected Brier score, calibration table)."""

from __future__ import annotations

import math

import pytest

from cardlab.classroom.guess import (
    BIN_EDGES,
    HISTOGRAM_BINS,
    MAX_GUESS_TEXT,
    Scored,
    histogram,
    parse_guess,
    score,
)
from cardlab.errors import BadGuessError, ClassroomError


@pytest.mark.parametrize(("text", "value"), [
    ("0.3", 0.3), (".3", 0.3), ("0,3", 0.3), (" 0.30 ", 0.3), ("30%", 0.3), ("30 %", 0.3), ("12.5%", 0.125),
    ("1/3", 1 / 3), ("1 / 3", 1 / 3), ("0", 0.0), ("1", 1.0), ("100%", 1.0), ("0%", 0.0), ("3/3", 1.0),
    ("0/7", 0.0),
])
def test_accepted_guesses(text: str, value: float) -> None:
    assert parse_guess(text) == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize("text", [
    "", " ", "abc", "0.3.1", "1/0", "4/3", "150%", "1.01", "-0.1", "-1/3", "nan", "inf", "1e-1", "0x1", "½",
    "٠.٣", "30%%", "%", "/", "1/", "/3", "0.3 0.4", "1e400", "²", "1_0", "+0.3", "30 percent",
])
def test_refused_guesses(text: str) -> None:
    with pytest.raises(BadGuessError) as info:
        parse_guess(text)
    message = str(info.value)
    assert "0.3" in message and "30%" in message or "between 0 and 1" in message or "divides by zero" in message


@pytest.mark.parametrize("value", [None, 0.3, b"0.3", ["0.3"], {"g": 1}, True])
def test_refused_non_text(value: object) -> None:
    with pytest.raises(BadGuessError, match="not text"):
        parse_guess(value)


def test_long_text_is_refused_with_a_short_message() -> None:
    with pytest.raises(BadGuessError) as info:
        parse_guess("0." + "3" * 10_000)
    assert len(str(info.value)) < 200 and "characters long" in str(info.value)
    parse_guess("0." + "3" * (MAX_GUESS_TEXT - 2))   # the longest accepted


def test_guess_errors_are_4xx_classroom_errors() -> None:
    assert issubclass(BadGuessError, ClassroomError) and issubclass(BadGuessError, ValueError)
    assert BadGuessError.status == 400


def test_histogram_bins() -> None:
    counts = histogram([0.0, 0.049, 0.05, 0.5, 0.999, 1.0])
    assert len(counts) == HISTOGRAM_BINS and sum(counts) == 6
    assert counts[0] == 2 and counts[1] == 1 and counts[10] == 1 and counts[-1] == 2


def test_expected_brier_is_the_brier_score_averaged_over_the_outcome() -> None:
    for g in (0.0, 0.2, 0.5, 0.9, 1.0):
        for p in (0.0, 0.1, 0.25, 0.5, 1.0):
            direct = p * (g - 1) ** 2 + (1 - p) * g ** 2   # outcome 1 with chance p, else 0
            assert Scored(g, p).expected_brier == pytest.approx(direct)
            assert Scored(p, p).expected_brier <= Scored(g, p).expected_brier + 1e-15   # the answer is best


def test_score_over_revealed_guesses() -> None:
    items = [Scored(0.3, 0.25), Scored(0.9, 0.5), Scored(0.35, 1 / 3)]
    s = score(items)
    assert s.answered == 3
    assert s.brier == pytest.approx(sum((g - p) ** 2 + p * (1 - p) for g, p in [(0.3, 0.25), (0.9, 0.5),
                                                                                  (0.35, 1 / 3)]) / 3)
    assert s.best == pytest.approx((0.25 * 0.75 + 0.25 + (1 / 3) * (2 / 3)) / 3)
    assert len(s.rows) == len(BIN_EDGES) - 1
    assert [r.count for r in s.rows] == [0, 2, 0, 0, 1]
    assert s.rows[1].mean_guess == pytest.approx(0.325) and s.rows[1].mean_answer == pytest.approx((0.25 + 1 / 3) / 2)
    assert s.rows[0].mean_guess is None


def test_score_of_nothing() -> None:
    s = score([])
    assert s.answered == 0 and s.brier is None and s.best is None
    assert all(r.count == 0 for r in s.rows)
    assert math.isclose(s.rows[-1].high, 1.0)
