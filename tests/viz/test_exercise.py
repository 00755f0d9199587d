"""Exercises that check themselves (``cardlab.viz.exercise``): right, close, not yet, and malformed answers.

The truths here come from games: the chance that the next stock card can be placed in a fresh two-player
Garbage game is counted by hand from the rules (A-10 and the Jacks fit a face-down layout: 44 of 52 cards),
apart from cardlab's own function, which the exercise calls.
"""

from __future__ import annotations

import copy
import gc
import sys
import types
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

import cardlab
from cardlab.errors import InvalidInputError
from cardlab.sim import prob
from cardlab.viz.exercise import COUNT_FORMS, MAX_ANSWER_TEXT, NUMBER_FORMS, STATIC_NOTE, Exercise, parse_answer


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


@pytest.mark.parametrize("text", ["26265935155173508/2803448856786435", "40690108891660/45112970109207",
                                  "1" * 19 + "/" + "3" * 20, "0." + "9" * 37])
def test_long_exact_fractions_and_decimals_are_read_up_to_the_text_limit(text: str) -> None:
    """Lesson 12's exact expectation as ``str(Fraction)`` prints it (17 and 16 digits) is read, not called
    unreadable; the only limit is the answer's length, and its message says so."""
    assert len(text) <= MAX_ANSWER_TEXT
    numerator, _, denominator = text.partition("/")
    expected = Fraction(int(numerator), int(denominator)) if denominator else Fraction(text)
    assert parse_answer(text) == expected
    draws = Exercise("", "mean draws?", truth=lambda: Fraction(53, 9), probability=False)
    too_long = draws.check("1" * 30 + "/" + "7" * 10)
    assert too_long.status == "unreadable" and f"at most {MAX_ANSWER_TEXT} are read" in too_long.message


def test_an_exact_fraction_typed_for_a_mean_is_right() -> None:
    mean = Fraction(26265935155173508, 2803448856786435)
    draws = Exercise("", "mean draws?", truth=lambda: mean, probability=False, tolerance=0.005)
    assert draws.check(str(mean)).is_right and draws.check("9.37").is_right


@pytest.mark.parametrize("answer", ["937%", "9.37%", "937 %", "100%"])
def test_a_percentage_is_refused_when_the_exercise_asks_for_a_number(answer: str) -> None:
    """A number of draws is not a share: "937%" (9.37 read as a percentage) is refused with a message, not judged."""
    draws = Exercise("", "mean draws?", truth=lambda: Fraction(937, 100), probability=False, tolerance=0.005)
    verdict = draws.check(answer)
    assert verdict.status == "unreadable", verdict
    assert "is a percentage" in verdict.message and "without %" in verdict.message
    assert "9.37" not in verdict.message.replace(answer, "") and "Right" not in verdict.message
    assert draws.check("9.37").is_right


def test_the_messages_of_a_number_box_ask_for_a_number() -> None:
    draws = Exercise("", "mean draws?", truth=lambda: Fraction(89, 4), probability=False)
    assert draws.kind == "number" and not draws.probability
    for answer in ("", "abc"):
        message = draws.check(answer).message
        assert NUMBER_FORMS in message and "percentage" not in message, message
    assert draws.widget.children[1].children[0].placeholder == "a number, e.g. 12 or 2.5"


def count_exercise() -> Exercise:
    """Lesson 06's first question, counted by hand here: the plain rules let 36 cards go on a 7 (7-A and the
    2s and 10s go on anything: ranks 7, 8, 9, J, Q, K, A, 2, 10, four cards each)."""
    return Exercise("Exercise 1.", "How many of a pack's 52 cards may be played on a 7?", truth=lambda: 9 * 4,
                    count=True, hint="count the ranks that fit, four cards each")


@pytest.mark.parametrize(("answer", "says"), [("36/52", "is a share, not a count"), ("0.69", "not a whole number"),
                                              ("2.5", "not a whole number"), ("-3", "below 0"),
                                              ("36%", "is a percentage"), ("69%", "is a percentage")])
def test_a_count_box_refuses_what_is_not_a_count_and_says_a_count_is_asked(answer: str, says: str) -> None:
    """The right count written as the share the old message invited, 36/52, says a count is asked; it gets no
    hint about the question, since it was not judged."""
    verdict = count_exercise().check(answer)
    assert verdict.status == "unreadable", verdict
    assert says in verdict.message and "Hint" not in verdict.message and "36 " not in verdict.message
    if "%" not in answer:
        assert COUNT_FORMS in verdict.message and "asks how many" in verdict.message


def test_a_count_box_says_a_whole_number_is_asked_and_judges_whole_numbers() -> None:
    exercise = count_exercise()
    assert exercise.kind == "count" and not exercise.probability
    for answer in ("", "sixteen", "36 cards"):
        message = exercise.check(answer).message
        assert COUNT_FORMS in message and "fraction" not in message and "percentage" not in message, message
    assert exercise.widget.children[1].children[0].placeholder == "a whole number, e.g. 12"
    assert exercise.check("36").is_right and exercise.check("72/2").is_right and exercise.check("36.0").is_right
    assert exercise.check("40").status == "not yet" and "Hint" in exercise.check("40").message
    assert exercise.check(36.0).is_right                     # a number given in code is judged by its value
    assert exercise.check(Fraction(36, 52)).status == "not yet"


def test_a_count_whose_truth_is_not_whole_is_the_exercise_fault_and_its_value_is_not_named() -> None:
    broken = Exercise("", "how many?", truth=lambda: Fraction(73, 2), count=True)
    with pytest.raises(InvalidInputError, match="not a whole number") as error:
        broken.check("36")
    assert "73" not in str(error.value) and "36.5" not in str(error.value)


def test_a_count_or_number_box_reads_thousands_as_the_lessons_print_them() -> None:
    big = Exercise("", "how many games?", truth=lambda: 20004, count=True, tolerance=0.5)
    assert big.check("20,004").is_right and big.check("20 004").is_right and big.check("20004").is_right
    assert big.check("20,040").status != "right"
    about = Exercise("", "about how many deals?", truth=lambda: 7418.3, probability=False, tolerance=10)
    assert about.check("7,418").is_right and about.check("7418.3").is_right
    chance = Exercise("", "what chance?", truth=lambda: Fraction(1, 4))
    assert chance.check("0,25").is_right and chance.check("0,250").is_right
    assert parse_answer("1,000,000", thousands=True) == 1_000_000
    assert parse_answer("0,250", thousands=True) == Fraction(1, 4)            # a leading 0: a decimal comma
    assert parse_answer("20,004") == Fraction(20004, 1000)                    # a chance's box: a decimal comma
    assert parse_answer("1,5", thousands=True) == Fraction(3, 2)              # not grouped in threes


def test_parse_answer_is_exact() -> None:
    assert parse_answer("7/35") == Fraction(1, 5) == parse_answer("20%") == parse_answer("0.2")
    assert parse_answer("1e-3") == Fraction(1, 1000)
    assert parse_answer("-3/4") == Fraction(-3, 4)
    with pytest.raises(InvalidInputError, match="not a number I can read"):
        parse_answer("abc")


@pytest.mark.parametrize(("kw", "match"), [({"truth": 0.5}, "not a function"), ({"tolerance": -1}, "tolerance"),
                                           ({"close": "x"}, "close"), ({"question": ""}, "empty"),
                                           ({"count": "yes"}, "count")])
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


def reached_from(root: object) -> list[object]:
    """Every object reached from ``root`` by following references (its slots, the values of ``dir(root)``
    including bound methods and the widget, closures' cells, containers, callbacks), as ``gc.get_referents``
    sees them. Modules, modules' namespaces and classes are left out: what they lead to is what reading the
    package's source reaches, the known limit (docs/teaching.md, "Answers out of the student's reach")."""
    namespaces = {id(vars(module)) for module in list(sys.modules.values()) if module is not None}
    seen: dict[int, object] = {}
    todo = [root, *(getattr(root, name) for name in dir(root))]
    while todo:
        item = todo.pop()
        if id(item) in seen or id(item) in namespaces or isinstance(item, (type, types.ModuleType)):
            continue
        seen[id(item)] = item
        assert len(seen) < 100_000, "the walk left the exercise's own objects"
        todo.extend(gc.get_referents(item))
    return list(seen.values())


def test_nothing_reached_from_an_exercise_holds_its_truth_function_or_its_truth() -> None:
    """The audit's route, ``[c.cell_contents for c in exercise._judge.__closure__]``, and every other route that
    starts at the exercise: after checks that computed the truth and a widget that checked an answer, no object
    reached from the exercise is the truth function, the game it reads, or the truth (as a number or in a text)."""
    game = cardlab.new_game("garbage", players=2, seed=0)
    truth_value = Fraction(11, 13)

    def truth() -> Fraction:
        return prob.garbage_next_card_placeable(game)

    exercise = Exercise("Exercise 2.", "What is the chance that seat 0's first card can be placed?", truth,
                        hint="count the cards A-10 and the Jacks")
    assert [exercise.check(a).status for a in ("0.5", "0.85", "abc")] == ["not yet", "close", "unreadable"]
    exercise.widget.children[1].children[0].value = "0.3"
    reached = reached_from(exercise)
    assert any(item is exercise.widget for item in reached) and len(reached) > 100     # the walk went somewhere
    assert not any(item is truth or item is game for item in reached)
    assert not any(holds(item, truth_value) for item in reached)
    assert not hasattr(exercise, "_judge")
    assert exercise.check("11/13").is_right                 # the truth is still there, for the check alone


def test_the_walk_would_find_a_truth_function_kept_in_a_closure() -> None:
    """The walk above is not vacuous: the design the audit broke (the exercise holding a function whose closure
    holds the truth function) is found."""
    def truth() -> Fraction:
        return Fraction(11, 13)

    def sealed(check_truth: Callable[[], Fraction]) -> Callable[[str], bool]:
        return lambda answer: Fraction(answer) == check_truth()

    class Leaky:
        __slots__ = ("_judge",)

        def __init__(self) -> None:
            self._judge = sealed(truth)

    assert any(item is truth for item in reached_from(Leaky()))


def test_a_copy_has_no_seal_and_an_exercise_gone_leaves_no_seal() -> None:
    from cardlab.viz import exercise as module

    made = fresh_garbage()
    with pytest.raises(InvalidInputError, match="a copy and has no answer key"):
        copy.copy(made).check("0.5")
    before = len(module._SEALS)
    del made
    gc.collect()
    assert len(module._SEALS) == before - 1


def test_a_failing_truth_function_names_its_error_but_not_a_value() -> None:
    exercise = Exercise("", "q?", truth=lambda: float("nan"))
    with pytest.raises(InvalidInputError, match="finite"):
        exercise.check("0.5")
    broken = Exercise("", "q?", truth=lambda: {"the answer": 0.25})
    with pytest.raises(InvalidInputError) as error:
        broken.check("0.5")
    assert "0.25" not in str(error.value) and "a dict" in str(error.value)


def counted(**kw: object) -> Exercise:
    """An exact count a student makes by hand, 26/45 = 0.5778 (lesson 07's Exercise 2)."""
    return Exercise("", "the table's count?", truth=lambda: Fraction(26, 45), hint="count the ranks again",
                    **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("answer", ["0.58", "58%", "0,58", " 58 % ", "0.577", "0.57", "57%"])
def test_a_right_count_rounded_to_the_decimals_typed_is_called_rounded_without_a_direction(answer: str) -> None:
    verdict = counted(rounded=True).check(answer)
    assert verdict.status == "close", verdict
    typed = " ".join(answer.split())
    assert verdict.message == f"Close: {typed} looks rounded. Type the exact fraction, or more decimals."
    assert not any(word in verdict.message for word in ("high", "low", "above", "below", "Hint", "26/45"))


@pytest.mark.parametrize("answer", ["0.59", "0.56", "0.576", "0.579", "0.6", "1/2", "3/5", "0.5"])
def test_an_answer_that_is_not_the_truth_rounded_keeps_the_hint(answer: str) -> None:
    """Neither rounding nor cutting off gives these; one decimal (0.6) is not taken as rounded, so the message
    cannot give the first digit away."""
    verdict = counted(rounded=True).check(answer)
    assert verdict.status in ("close", "not yet") and "Hint: count the ranks again" in verdict.message, verdict


def test_rounded_is_asked_for_and_the_right_answers_stay_right() -> None:
    assert counted().check("0.58").message.startswith("Close, but not yet")      # off by default
    exercise = counted(rounded=True)
    assert all(exercise.check(a).is_right for a in ("26/45", "0.578", "57.8%", "0.5778"))   # within 0.0005: right
    assert counted(rounded=True).check("0.58").message == counted(rounded=True).check("0,58").message.replace(
        "0,58", "0.58")
    simulated = Exercise("", "share?", truth=lambda: 0.5778, rounded=True)
    assert simulated.check("0.58").message == "Close: 0.58 looks rounded. Type more decimals."
    with pytest.raises(InvalidInputError, match="rounded="):
        counted(rounded="yes")
