"""Move exercises (``cardlab.viz.move_exercise``): a move named by its text or number, right and not-yet verdicts,
the truth computed once at the first check and shown nowhere before a right answer, and no traceback for any text.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import cardlab
from cardlab.errors import InvalidInputError
from cardlab.viz.move_exercise import MOVE_STATIC_NOTE, MoveAnswers, MoveExercise

MOVES = ["draw stock", "take discard", "jack to 7"]


def exercise(calls: list[int] | None = None, right: str = "take discard") -> MoveExercise:
    def truth() -> MoveAnswers:
        if calls is not None:
            calls.append(1)
        return MoveAnswers(right=frozenset({right}), reveal=f"The best move is {right!r}.",
                           reasons={"draw stock": "that is the move played in the game"})

    return MoveExercise("Exercise 9.", "Which move is better?", MOVES, truth, played="draw stock")


def shown_before_a_check(e: MoveExercise) -> list[str]:
    """Everything a student can read off the exercise without checking an answer (widget ids and memory addresses,
    which differ from object to object, masked)."""
    texts = [repr(e), str(e), *map(str, e._repr_mimebundle_().values())]
    texts += [str(getattr(child, "value", "")) for child in e.widget.children]
    texts += [repr(getattr(e, name)) for name in dir(e) if not name.startswith("__") and name != "widget"]
    return [re.sub(r"0x[0-9a-f]+|[0-9a-f]{32}", "#", text) for text in texts]


@pytest.mark.parametrize("typed", ["take discard", " Take   Discard ", "2", 2])
def test_a_move_is_named_by_its_text_in_any_case_or_by_its_number(typed: Any) -> None:
    verdict = exercise().check(typed)
    assert verdict.is_right and "Right! 'take discard'" in verdict.message and "The best move is" in verdict.message


def test_the_move_played_and_other_moves_are_not_yet_and_reveal_nothing() -> None:
    e = exercise()
    played, other = e.check("draw stock"), e.check("3")
    assert played.status == other.status == "not yet"
    assert "the move played" in played.message and "clearly worse" in other.message
    assert all("take discard" not in v.message and "best move is" not in v.message for v in (played, other))


@pytest.mark.parametrize(("typed", "status", "words"), [
    ("", "blank", "No answer yet"), ("   ", "blank", "No answer yet"), (None, "blank", "No answer yet"),
    ("4", "unreadable", "no move number 4"), ("0", "unreadable", "no move number 0"),
    ("discard everything", "unreadable", "not one of the moves listed"), (True, "unreadable", "is not a move"),
    (1.5, "unreadable", "is not a move"), ("x" * 500, "unreadable", "not one of the moves"),
])
def test_a_blank_or_malformed_answer_gets_a_message_never_a_traceback(typed: Any, status: str, words: str) -> None:
    verdict = exercise().check(typed)
    assert verdict.status == status and words in verdict.message


def test_the_truth_is_computed_once_at_the_first_check_and_is_nowhere_before() -> None:
    calls: list[int] = []
    one, other = exercise(calls, right="take discard"), exercise(right="jack to 7")
    assert calls == []
    assert shown_before_a_check(one) == shown_before_a_check(other)    # nothing shown depends on the answer
    assert one.check("").status == "blank" and calls == []
    assert one.check("jack to 7").status == "not yet" and one.check("take discard").is_right
    assert calls == [1]
    assert MOVE_STATIC_NOTE in repr(one) and "run the cells" in one._repr_mimebundle_()["text/html"]


def test_the_position_is_given_as_a_copy() -> None:
    game = cardlab.new_game("garbage", players=2, seed=1)
    e = MoveExercise("", "Which?", ["draw stock", "take discard"], lambda: MoveAnswers(frozenset(), ""),
                     position=game)
    copy = e.position
    assert copy is not None and copy is not game and copy.state.to_data() == game.state.to_data()
    copy.play("draw stock")
    again = e.position
    assert again is not None and again.move_count == 0


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"moves": ["only one"]}, "two or more different moves"),
    ({"moves": ["a", "A"]}, "two or more different moves"),
    ({"moves": "ab"}, "two or more different moves"),
    ({"question": " "}, "empty"),
    ({"truth": "take discard"}, "not a function"),
    ({"played": "pick up"}, "not one of the moves listed"),
    ({"position": "a game"}, "not a cardlab game"),
])
def test_a_bad_exercise_is_refused_naming_the_input(kwargs: dict[str, Any], words: str) -> None:
    args: dict[str, Any] = {"title": "E.", "question": "Which?", "moves": MOVES,
                            "truth": lambda: MoveAnswers(frozenset(), "")}
    args.update(kwargs)
    with pytest.raises(InvalidInputError, match=words):
        MoveExercise(**args)


def test_a_truth_that_accepts_an_unlisted_move_is_the_exercise_s_fault_shown_without_a_traceback() -> None:
    e = MoveExercise("", "Which?", MOVES, lambda: MoveAnswers(frozenset({"pick up"}), ""))
    assert "could not compute its answer" in e._safe_check("1").message


def test_nothing_reached_from_a_move_exercise_holds_its_truth_function_or_its_answers() -> None:
    """As for the numeric exercises (tests/viz/test_exercise.py): after a check computed the answers and the widget
    checked a move, no object reached from the exercise is the truth function or the answers it returned."""
    from tests.viz.test_exercise import reached_from

    answers = MoveAnswers(right=frozenset({"take discard"}), reveal="take discard wins 0.61")

    def truth() -> MoveAnswers:
        return answers

    made = MoveExercise("Exercise 9.", "Which move is better?", MOVES, truth, played="draw stock")
    assert made.check("draw stock").status == "not yet"
    reached = reached_from(made)
    assert len(reached) > 20                                                # the walk went somewhere
    assert not any(item is truth or item is answers or item is answers.right for item in reached)
    assert made.check("take discard").is_right                              # still there, for the check alone


def test_a_copied_move_exercise_has_no_answer_key() -> None:
    import copy

    with pytest.raises(InvalidInputError, match="a copy and has no answer key"):
        copy.copy(exercise()).check("take discard")
