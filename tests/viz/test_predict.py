"""Headless tests of predict-then-reveal (``cardlab.Stepper(..., predict=True)``).

The answers revealed are checked against the stepper's own published numbers, which tests/viz/
test_stepper.py checks against independent computations; the scores are checked against sums done
here by hand, and the outcomes against the game's real winner.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import cardlab
from cardlab.chance.stats import wilson
from cardlab.errors import InvalidInputError
from cardlab.viz.predict import Prediction, calibrate, parse_guess

FAST = {"rollouts": 8, "panel_rollouts": 4}


def make(**kw: object) -> cardlab.Stepper:
    return cardlab.Stepper("garbage", players=2, seed=3, **{"predict": True, **FAST, **kw})  # type: ignore[arg-type]


def hidden(stepper: cardlab.Stepper) -> bool:
    return bool(stepper.plots_box.layout.visibility == "hidden")


def test_numbers_hidden_until_a_guess_then_revealed_with_the_stepper_answer() -> None:
    s = make()
    p = s.predictor
    assert p is not None
    assert hidden(s) and not p.revealed
    assert "seat 0 wins" in p.question
    record = p.submit(0.7)
    assert not hidden(s) and p.revealed
    est = s.win_history[-1].estimates[0]
    assert (record.answer, record.low, record.high) == (est.value, est.low, est.high)
    assert record.guess == 0.7 and record.move == 0 and record.outcome is None
    assert f"{est.value:.3f}" in p.feedback
    s.next_move()
    assert hidden(s) and not p.revealed            # a new position, a new question
    s.back()
    assert not hidden(s)                            # already answered here: shown again, not asked twice
    with pytest.raises(InvalidInputError, match="already guessed"):
        p.submit(0.1)


def test_stepper_without_predict_is_unchanged() -> None:
    s = cardlab.Stepper("garbage", players=2, seed=3, **FAST)  # type: ignore[arg-type]
    assert s.predictor is None and s.plots_box.layout.visibility in (None, "visible")
    with pytest.raises(InvalidInputError, match="predict=True"):
        s.calibration()


def test_reveal_button_text_box_and_bad_input_never_raise() -> None:
    s = make()
    p = s.predictor
    assert p is not None
    box = s.box.children[-2]
    box.text.value = "130%"
    box.reveal()                                    # a bad guess: a message, no record, still hidden
    assert "outside 0 to 1" in p.error and not p.records and hidden(s)
    box.slider.value = 0.25                         # moving the slider clears the message
    assert p.error == ""
    box.text.value = "1/4"
    box.reveal()
    assert p.records[-1].guess == 0.25 and not hidden(s) and box.reveal_button.disabled
    s.next_move()
    box.reveal_button.click()                       # empty text box: the slider's value is the guess
    assert p.records[-1].guess == 0.25 and p.records[-1].move == 1


@pytest.mark.parametrize(("text", "value"), [("0.3", 0.3), (".3", 0.3), ("30%", 0.3), ("1/4", 0.25), ("1", 1.0),
                                             ("0,5", 0.5)])
def test_parse_guess(text: str, value: float) -> None:
    assert parse_guess(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "abc", "-0.1", "1.5", "3/2", "1/0", "nan"])
def test_parse_guess_rejects(text: str) -> None:
    with pytest.raises(InvalidInputError):
        parse_guess(text)


def test_outcomes_resolved_from_the_real_winner_and_brier_by_hand() -> None:
    s = make()
    p = s.predictor
    assert p is not None
    guesses = [0.5, 0.6, 0.2, 0.9]
    for g in guesses:
        p.submit(g)
        s.next_move()
    while not s.game.is_over:
        s.next_move()
    winner = s.game.winner
    assert winner is not None
    cal = s.calibration()
    outcome = 1.0 if winner == 0 else 0.0
    assert all(r.outcome == (winner == 0) for r in cal.records)
    assert cal.brier == pytest.approx(sum((g - outcome) ** 2 for g in guesses) / 4)
    answers = [r.answer for r in cal.records]
    assert cal.answers_brier == pytest.approx(sum((a - outcome) ** 2 for a in answers) / 4)
    assert cal.distance == pytest.approx(sum((g - a) ** 2 for g, a in zip(guesses, answers, strict=True)) / 4)
    assert "game is over" in p.question and p.revealed
    assert sum(r.count for r in cal.rows) == 4
    assert "Brier score" in str(cal)
    fig = cal.figure()
    assert len(fig.data) == 3


def test_outcome_not_given_to_a_guess_from_an_abandoned_line() -> None:
    s = make()
    p = s.predictor
    assert p is not None
    s.next_move()
    p.submit(0.4)                                   # a guess at move 1 of one line
    s.back()
    s.policies[0].value = "random"                  # seat 0 now plays another way
    while not s.game.is_over:
        s.next_move()
    record = p.records[0]
    line = (record.line[0], *(m.text for m in s.game.moves))
    expected = None if line[:len(record.line)] != record.line else (s.game.winner == 0)
    assert record.outcome == expected


def test_calibration_table_bins_and_wilson_intervals() -> None:
    def rec(guess: float, outcome: bool | None) -> Prediction:
        return Prediction(0, "win", "q", guess, 0.5, 0.4, 0.6, False, (), 0, outcome)

    recs = [rec(0.1, False), rec(0.15, True), rec(0.9, True), rec(1.0, True), rec(0.5, None)]
    cal = calibrate(recs)
    rows = {(r.low, r.high): r for r in cal.rows}
    assert rows[(0.0, 0.2)].count == 2 and rows[(0.0, 0.2)].happened == 1
    assert rows[(0.8, 1.0)].count == 2 and rows[(0.8, 1.0)].frequency == 1.0   # 1.0 falls in the last bin
    assert rows[(0.4, 0.6)].resolved == 0 and math.isnan(rows[(0.4, 0.6)].frequency)
    assert cal.brier == pytest.approx((0.01 + 0.7225 + 0.01 + 0.0) / 4)
    low = wilson(1, 2)
    assert f"[{low.low:.3f}, {low.high:.3f}]" in cal.table()
    assert calibrate([]).brier is None and "no guesses" in str(calibrate([]))


def test_calibration_counts_one_outcome_per_game() -> None:
    """Nine guesses in one game share its single outcome: the interval is that of one observation, not nine."""
    one_game = [Prediction(m, "win", "q", 0.3, 0.5, 0.4, 0.6, False, ("deal A", *["x"] * m), 0, True)
                for m in range(9)]
    other = [Prediction(0, "win", "q", 0.3, 0.5, 0.4, 0.6, False, ("deal B",), 0, False)]
    row = next(r for r in calibrate(one_game).rows if r.count)
    assert (row.resolved, row.games, row.happened) == (9, 1, 1)
    single = wilson(1, 1)
    assert f"[{single.low:.3f}, {single.high:.3f}]" in calibrate(one_game).table()
    assert f"[{wilson(9, 9).low:.3f}," not in calibrate(one_game).table()
    row = next(r for r in calibrate(one_game + other).rows if r.count)
    assert (row.resolved, row.games, row.happened, row.frequency) == (10, 2, 1, 0.5)


def test_panel_question_exact_answer() -> None:
    s = cardlab.Stepper("garbage", players=2, seed=3, predict="next_card", **FAST)  # type: ignore[arg-type]
    p = s.predictor
    assert p is not None
    q = next(q for q in s.quantities if q.key == "next_card")
    assert q.label in p.question
    record = p.submit("0.5")
    assert record.exact and record.answer == q.value and "(exact)" in p.feedback
    assert record.outcome is None


def test_bad_predict_arguments() -> None:
    with pytest.raises(InvalidInputError, match="predict"):
        cardlab.Stepper("garbage", players=2, seed=3, predict=3, **FAST)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="predict_seat"):
        cardlab.Stepper("garbage", players=2, seed=3, predict=True, predict_seat=5, **FAST)  # type: ignore[arg-type]


def test_a_new_deal_does_not_resolve_the_old_deal_guesses() -> None:
    s = make()
    p = s.predictor
    assert p is not None
    p.submit(0.5)
    s.new_deal()                                    # same first moves ("draw stock"), another deal
    while not s.game.is_over:
        s.next_move()
    assert p.records[0].outcome is None


def _widgets() -> int:
    """Widgets alive in the kernel (the registry behind ``ipywidgets.Widget.widgets``)."""
    from ipywidgets.widgets import widget as widget_module

    return len(widget_module._instances)


@pytest.mark.parametrize("key", ["bogus", "WIN", "next_card ", "next_stock", "", "blind_fits"])
def test_a_key_this_game_never_asks_is_refused_and_the_keys_listed(key: str) -> None:
    """A setting that would never ask a question (a typo, another game's key) is refused before any widget
    exists, naming the value and listing what this game accepts."""
    before = _widgets()
    with pytest.raises(InvalidInputError, match=rf"predict={key!r} is not a question of garbage; accepted: False, "
                                                r"True or 'win' .*'next_card', 'complete_1'") as info:
        make(predict=key)
    assert len(str(info.value)) <= 500 and _widgets() == before


@pytest.mark.parametrize(("settings", "message"), [
    ({"predict": True, "predict_seat": True}, "predict_seat=True is not a seat of this 2-player game"),
    ({"predict": True, "predict_seat": 2}, "predict_seat=2 is not a seat"),
    ({"predict": True, "predict_seat": 1.0}, "predict_seat=1.0 is not a seat"),
    ({"predict": True, "predict_seat": 10**5000}, "predict_seat=<an integer of about 5,001 digits> is not a seat"),
    ({"predict": False, "predict_seat": 1}, "predict_seat=1 needs predictions: give predict=True"),
    ({"predict": "next_card", "predict_seat": 0}, "predict_seat=0 is the seat of the win question"),
])
def test_predict_seat_that_would_be_ignored_or_misread_is_refused(settings: dict[str, object], message: str) -> None:
    before = _widgets()
    with pytest.raises(InvalidInputError, match=message.replace("(", r"\(")):
        cardlab.Stepper("garbage", players=2, seed=3, **FAST, **settings)  # type: ignore[arg-type]
    assert _widgets() == before


def test_numpy_seat_and_the_win_key_are_accepted() -> None:
    s = make(predict_seat=np.int64(1))
    assert s.predictor is not None and "seat 1 wins" in s.predictor.question and s.predictor.fixed_seat == 1
    assert type(s.predictor.fixed_seat) is int
    s = cardlab.Stepper("garbage", players=2, seed=3, predict="win", **FAST)  # type: ignore[arg-type]
    assert s.predictor is not None and "seat 0 wins" in s.predictor.question


@pytest.mark.parametrize("guess", [[0.5], 1 + 0j, object(), b"0.5", True, float("nan"), 1.5, 10**5000, "0.5" * 200_000],
                         ids=["list", "complex", "object", "bytes", "bool", "nan", "1.5", "huge int", "600 kB text"])
def test_submit_refuses_what_is_not_a_probability(guess: object) -> None:
    s = make()
    p = s.predictor
    assert p is not None
    with pytest.raises(InvalidInputError, match="guess .* (is not|is outside|characters long)") as info:
        p.submit(guess)  # type: ignore[arg-type]
    assert len(str(info.value)) <= 200
    assert not p.records and not p.revealed and hidden(s)


@pytest.mark.parametrize(("guess", "value"), [(np.float64(0.3), 0.3), (Fraction(1, 3), 1 / 3), (np.int64(1), 1.0),
                                              (0, 0.0)])
def test_submit_takes_real_numbers(guess: object, value: float) -> None:
    p = make().predictor
    assert p is not None
    assert p.submit(guess).guess == pytest.approx(value)  # type: ignore[arg-type]


def test_reveal_with_a_huge_text_shows_a_short_message() -> None:
    s = make()
    p = s.predictor
    assert p is not None
    box = s.box.children[-2]
    box.text.value = "0.5" * 200_000
    box.reveal()
    assert "600,000 characters long" in p.error and len(p.error) <= 200 and not p.records and hidden(s)


def test_a_question_the_new_game_does_not_ask_says_so() -> None:
    """After another game or player count is dealt in the stepper, a question it cannot ask is explained."""
    s = cardlab.Stepper("garbage", players=2, seed=3, predict="next_card", **FAST)  # type: ignore[arg-type]
    s.game_select.value = "spite-and-malice"
    s.new_deal()
    assert s.game.name == "spite-and-malice" and s.last_error is None
    assert s.predictor is not None and "spite-and-malice asks no question 'next_card'" in s.predictor.question
    assert not hidden(s)
    s = cardlab.Stepper("garbage", players=3, seed=3, predict=True, predict_seat=2, **FAST)  # type: ignore[arg-type]
    s.players_select.value = 2
    s.new_deal()
    assert s.game.players == 2 and s.last_error is None
    assert s.predictor is not None and "predict_seat=2 is not a seat of this 2-player game" in s.predictor.question
