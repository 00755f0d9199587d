"""Exercises that check themselves (``cardlab.viz.exercise``): right, close, not yet, and malformed answers.

The truths here come from games: the chance that the next stock card can be placed in a fresh two-player
Garbage game is counted by hand from the rules (A-10 and the Jacks fit a face-down layout: 44 of 52 cards),
apart from cardlab's own function, which the exercise calls.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import cardlab
from cardlab.errors import InvalidInputError
from cardlab.sim import prob
from cardlab.viz.exercise import STATIC_NOTE, Exercise, parse_answer


def fresh_garbage() -> Exercise:
    game = cardlab.new_game("garbage", players=2, seed=0)
    return Exercise("Exercise 2.", "What is the chance that seat 0's first card can be placed?",
                    truth=lambda: prob.garbage_next_card_placeable(game), hint="count the cards A-10 and the Jacks")


def test_the_truth_is_the_counted_chance_and_is_computed_once_on_demand() -> None:
    calls: list[int] = []
    game = cardlab.new_game("garbage", players=2, seed=0)

    def truth() -> Fraction:
        calls.append(1)
        return prob.garbage_next_card_placeable(game)

    exercise = Exercise("", "chance?", truth)
    assert calls == []                                   # nothing computed until an answer is checked
    by_hand = Fraction(sum(card.rank <= cardlab.Rank.JACK for card in game.hidden_cards()), len(game.hidden_cards()))
    assert by_hand == Fraction(44, 52)
    assert exercise.check("44/52").is_right
    assert exercise.check("11/13").is_right
    assert "The exact value is 11/13" in exercise.check("0.846").message
    assert calls == [1]                                  # computed once, kept in the check


@pytest.mark.parametrize("answer", ["11/13", "44/52", " 44 / 52 ", "0.846", "0,846", ".8462", "84.6%", "84.62 %",
                                    "0.84615384615"])
def test_right_answers_in_every_form(answer: str) -> None:
    verdict = fresh_garbage().check(answer)
    assert verdict.status == "right", verdict
    assert "11/13" in verdict.message


def test_a_number_given_in_code_is_checked_too() -> None:
    exercise = fresh_garbage()
    assert exercise.check(Fraction(11, 13)).is_right
    assert exercise.check(np.float64(11 / 13)).is_right
    assert exercise.check(0.5).status == "not yet"


@pytest.mark.parametrize("answer", ["0.82", "0.87", "83%", "0.85"])
def test_close_answers_say_close_but_neither_the_direction_nor_the_distance(answer: str) -> None:
    verdict = fresh_garbage().check(answer)
    assert verdict.status == "close", verdict
    hint = "Hint: count the cards A-10 and the Jacks"
    assert verdict.message == f"Close, but not yet: {answer} is not the answer. {hint}"


def test_close_answers_above_and_below_get_the_same_words_so_bisection_learns_nothing() -> None:
    """Two close answers on either side of 11/13, at different distances, get the same message (their own text
    aside): the verdict gives no direction and no percentage to halve an interval with."""
    exercise = fresh_garbage()
    messages = {exercise.check(a).message.replace(a, "X") for a in ("0.81", "0.83", "0.85", "0.88")}
    assert len(messages) == 1
    message = messages.pop()
    assert message.startswith("Close, but not yet")
    assert not any(word in message for word in ("high", "low", "%", "within", "above", "below"))


@pytest.mark.parametrize("answer", ["1/2", "0.7", "40/52", "4/52", "0", "1", "100%"])
def test_wrong_answers_get_not_yet_and_the_hint(answer: str) -> None:
    """40/52 is the plausible mistake (the Jacks forgotten): 9% off, so "not yet", not "close"."""
    verdict = fresh_garbage().check(answer)
    assert verdict.status == "not yet", verdict
    assert "Hint: count the cards A-10 and the Jacks" in verdict.message
    assert "11/13" not in verdict.message            # the answer is not given away


@pytest.mark.parametrize("answer", ["abc", "1/0", "1//2", "0.2.3", "%", "20%%", "1/3/4", "nan", "inf", "-inf",
                                    "1e99999", "1e999", "0x10", "½", "seven", "3/4 0.2", "1" * 500, "1,2,3", "--1"])
def test_malformed_text_gets_a_friendly_message_and_never_raises(answer: str) -> None:
    verdict = fresh_garbage().check(answer)
    assert verdict.status == "unreadable", verdict
    assert "Traceback" not in verdict.message and len(verdict.message) < 300
    assert "fraction" in verdict.message or "divides by zero" in verdict.message


@pytest.mark.parametrize("answer", [None, b"0.2", ["0.2"], True, float("nan"), {"a": 1}])
def test_an_answer_that_is_not_text_or_a_number_gets_a_message(answer: object) -> None:
    verdict = fresh_garbage().check(answer)
    assert verdict.status == "unreadable", verdict


@pytest.mark.parametrize("answer", ["", "   ", "\n"])
def test_a_blank_answer_says_what_to_type(answer: str) -> None:
    verdict = fresh_garbage().check(answer)
    assert verdict.status == "blank" and "fraction (7/35)" in verdict.message


@pytest.mark.parametrize("answer", ["-0.1", "150%", "13/11", "2", "1e99", "-1e99", "99999999999999999999"])
def test_a_probability_outside_0_to_1_is_refused_with_the_reason(answer: str) -> None:
    verdict = fresh_garbage().check(answer)
    assert verdict.status == "unreadable" and "between 0 and 1" in verdict.message


def test_an_answer_that_is_not_a_probability_can_be_checked_when_allowed() -> None:
    draws = Exercise("", "mean draws?", truth=lambda: Fraction(89, 4), probability=False, tolerance=0.05, close=0.1)
    assert draws.check("22.25").is_right and draws.check("22.3").is_right
    assert "The exact value is 89/4" in draws.check("22.25").message
    simulated = Exercise("", "ratio?", truth=lambda: 0.494, tolerance=0.02, close=0.2)
    assert simulated.check("1/2").message == "Right! (The value computed here is 0.4940.)"
    assert draws.check("21").status == "close" and draws.check("15").status == "not yet"
    zero = Exercise("", "chance?", truth=lambda: 0, close=0.05)
    assert zero.check("0").is_right and zero.check("0.01").status == "close" and zero.check("0.2").status == "not yet"


def test_a_large_answer_has_an_absolute_tolerance_and_a_relative_close_band() -> None:
    """``tolerance`` is in the answer's units and ``close`` a share of the truth, so a count in the thousands works."""
    deals = Exercise("", "how many deals?", truth=lambda: Fraction(22473), probability=False, tolerance=50, close=0.05)
    assert deals.check("22500").is_right and deals.check("22430").is_right
    assert deals.check("21800").status == "close" and deals.check("5000").status == "not yet"


def test_parse_answer_is_exact() -> None:
    assert parse_answer("7/35") == Fraction(1, 5) == parse_answer("20%") == parse_answer("0.2")
    assert parse_answer("1e-3") == Fraction(1, 1000)
    assert parse_answer("-3/4") == Fraction(-3, 4)
    with pytest.raises(InvalidInputError, match="not a number I can read"):
        parse_answer("abc")


@pytest.mark.parametrize(("kw", "match"), [({"truth": 0.5}, "not a function"), ({"tolerance": -1}, "tolerance"),
                                           ({"close": "x"}, "close"), ({"question": ""}, "empty")])
def test_a_badly_made_exercise_is_refused(kw: dict[str, object], match: str) -> None:
    args: dict[str, object] = {"title": "", "question": "q?", "truth": lambda: Fraction(1, 2), **kw}
    with pytest.raises(InvalidInputError, match=match):
        Exercise(**args)  # type: ignore[arg-type]


def test_a_truth_function_that_returns_no_number_is_named_and_the_widget_shows_it_without_a_traceback() -> None:
    exercise = Exercise("", "q?", truth=lambda: "0.5")
    with pytest.raises(InvalidInputError, match="truth function returned a str: a number is needed") as error:
        exercise.check("0.5")
    assert "0.5" not in str(error.value)                  # the error names the type, never the truth's value
    box = exercise.widget.children[1].children[0]
    box.value = "0.5"
    feedback = exercise.widget.children[2].value
    assert "could not compute its answer" in feedback and "Traceback" not in feedback


def test_the_widget_checks_what_is_typed_and_the_button_checks_again() -> None:
    exercise = fresh_garbage()
    text, button = exercise.widget.children[1].children
    feedback = exercise.widget.children[2]
    text.value = "0.5"
    assert "Not yet" in feedback.value
    text.value = "abc"
    assert "not a number I can read" in feedback.value
    text.value = "11/13"
    assert "Right!" in feedback.value
    feedback.value = ""
    button.click()
    assert "Right!" in feedback.value


def test_a_static_page_gets_the_question_and_a_note_to_run_the_notebook() -> None:
    calls: list[int] = []
    game = cardlab.new_game("garbage", players=2, seed=0)

    def truth() -> Fraction:
        calls.append(1)
        return prob.garbage_next_card_placeable(game)

    exercise = Exercise("Exercise 2.", "What is the chance that seat 0's first card can be placed?", truth)
    bundle = exercise._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle            # JupyterLab and Voilà draw the widget
    assert STATIC_NOTE in bundle["text/plain"] and "seat 0's first card" in bundle["text/plain"]
    assert "run the cells" in bundle["text/html"] and "seat 0&#x27;s first card" in bundle["text/html"]
    assert calls == []                                                      # showing it computes nothing


# ---------------------------------------------------------------------------------------------- out of reach
def answer_texts(truth: Fraction) -> list[str]:
    """The ways an answer could be written in a message: the fraction, the decimal to 3 and 4 places, the percentage."""
    return [f"{truth.numerator}/{truth.denominator}", *(f"{float(truth):.{d}f}" for d in (3, 4)),
            f"{float(truth):.1%}"]


def holds(value: object, truth: Fraction) -> bool:
    """Whether ``value`` is the truth as a number, or its ``repr`` or ``str`` writes it."""
    if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        if abs(Fraction(value) - truth) <= Fraction(1, 2000):
            return True
    texts = []
    for show in (repr, str):
        try:
            texts.append(show(value))
        except Exception:  # noqa: BLE001 - an attribute whose repr fails shows nothing
            continue
    return any(answer in text for text in texts for answer in answer_texts(truth))


def test_no_attribute_repr_or_message_of_an_exercise_shows_the_answer_before_it_is_typed() -> None:
    """A sweep over ``dir(exercise)`` (private names too), after checks that computed the truth: no attribute is
    the answer or writes it; neither do the exercise's repr, str, static page or the verdicts of wrong answers."""
    truth = Fraction(11, 13)
    exercise = fresh_garbage()
    verdicts = [exercise.check(a) for a in ("0.5", "0.85", "abc", "", "2", 0.3)]   # the truth is now computed
    assert [v.status for v in verdicts] == ["not yet", "close", "unreadable", "blank", "unreadable", "not yet"]
    assert not any(holds(v, truth) or holds(v.html(), truth) for v in verdicts)
    shown = [name for name in dir(exercise) if holds(getattr(exercise, name), truth)]
    assert shown == []
    assert not hasattr(exercise, "truth") and not hasattr(exercise, "__dict__")   # slots: no hidden dict either
    bundle = exercise._repr_mimebundle_()
    assert not any(holds(value, truth) for value in (repr(exercise), str(exercise), bundle["text/plain"],
                                                      bundle["text/html"], exercise.widget.children[0].value))
    assert holds(exercise.check("11/13"), truth)           # the sweep can fail: a right answer's verdict shows it


def test_the_sweep_would_find_an_answer_left_in_an_attribute() -> None:
    """The check above is not vacuous: an attribute holding the truth, or a repr writing it, is found."""
    truth = Fraction(11, 13)
    assert holds(Fraction(11, 13), truth) and holds(0.8462, truth) and holds("p = 0.846", truth)
    assert holds({"answer": "11/13"}, truth) and not holds(0.5, truth) and not holds("Not yet", truth)


def test_a_failing_truth_function_names_its_error_but_not_a_value() -> None:
    exercise = Exercise("", "q?", truth=lambda: float("nan"))
    with pytest.raises(InvalidInputError, match="finite"):
        exercise.check("0.5")
    broken = Exercise("", "q?", truth=lambda: {"the answer": 0.25})
    with pytest.raises(InvalidInputError) as error:
        broken.check("0.5")
    assert "0.25" not in str(error.value) and "a dict" in str(error.value)
