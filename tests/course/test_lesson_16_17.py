"""Lessons 16 ("the value of a move") and 17 ("a game review"): their answer keys against counts by hand, and lesson
17's "learn from your mistakes" exercise against the review and fresh play-outs made here.

Lesson 17's exercise 2 plays the student's Shithead policy against greedy, stops at the policy's worst decision and
asks for a move as good as the best. Checked here: the position shown is the one before that decision (the game and
its review made again here); the question states what the check accepts (the moves whose value is not significantly
below the best move's on its stated number of fresh play-outs, paired 95% interval, never the move played) and the
check accepts exactly those; a student who values the moves as lesson 16 taught, with the stated number of
play-outs, and answers the best of them gets "Right!" for every seed tried, and for two policies; a second, larger
valuation made here confirms that the accepted moves are close to the best and the move played is worse; nothing
about the answer exists before the first check (the key's play-outs for it have not even run); and after checks
that computed it, nothing reached from the exercise holds the function that computes the answer or the answer.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.course import lesson
from cardlab.course.keys import greedy_moves
from cardlab.course.keys import lesson_17 as key_17
from cardlab.errors import InvalidInputError, PolicyError
from cardlab.policies import choose, make_policy
from cardlab.sim.move_values import distinct_moves, move_values
from cardlab.sim.review import Review, position_before, review_game
from cardlab.viz.move_exercise import MoveAnswers, MoveExercise

WORLDS = np.array([[1, 0], [0, 0], [0, 1], [1, 1], [1, 0]])   # draw stock, take discard; 1 = the mover won


def first_move(view: Any, legal_moves: Any) -> Any:
    """Lesson 17's ``my_policy`` as the lesson gives it."""
    return legal_moves[0]


def last_move(view: Any, legal_moves: Any) -> Any:
    """A policy that plays the last legal move: another game, with another worst decision."""
    return legal_moves[-1]


def test_16_exercise_1_counts_the_worlds_that_mislead() -> None:
    """Drawing wins and taking loses in worlds 0 and 4: 2 of 5. Every world where drawing wins (3 of 5) is wrong."""
    exercise = lesson("16").exercise(1, worlds=WORLDS)
    assert exercise.check("2/5").is_right and exercise.check("40%").is_right
    assert exercise.check("3/5").status == "not yet"


def test_16_exercise_2_is_the_ratio_of_the_variances_of_a_difference() -> None:
    """Paired differences 0, 0, 0, 1 (variance 1/4); independent ones 1, -1, 1, -1 (variance 4/3): 16/3 times."""
    paired = np.array([[1, 1], [0, 0], [1, 1], [0, 1]])
    independent = np.array([[0, 1], [1, 0], [0, 1], [1, 0]])
    exercise = lesson("16").exercise(2, paired=paired, independent=independent)
    assert exercise.check(f"{16 / 3:.2f}").is_right
    assert exercise.check(f"{3 / 16:.2f}").status == "not yet"


def test_16_exercise_3_is_right_for_the_route_the_lesson_teaches() -> None:
    """The lesson's position (greedy moves from seed 17) is the key's; 4,000 play-outs per move with each of ten
    seeds give a discard loss, to two decimals, that the check calls right (seed 2 gives 0.19); the discard's own
    win chance is not, nor are 0.15 and 0.20."""
    game = cardlab.new_game("garbage", players=2, seed=17)
    bot = make_policy("greedy", "garbage", np.random.default_rng(0))
    while game.move_count < 5:
        game.play(choose(bot, game))
    assert game.state.to_data() == greedy_moves(cardlab.new_game("garbage", players=2, seed=17), 5).state.to_data()
    exercise = lesson("16").exercise(3)
    for seed in range(10):
        values = move_values(game, rollouts=4000, rng=np.random.default_rng(seed)).value_of("discard")
        assert exercise.check(f"{values.gap:.2f}").is_right, seed
        assert exercise.check(f"{values.win.value:.2f}").status == "not yet"
    assert not exercise.check("0.15").is_right and not exercise.check("0.20").is_right


def test_17_exercise_1_is_the_share_of_worlds_with_a_winning_move() -> None:
    """At least one move wins in worlds 0, 2, 3, 4: 4 of 5; the better single move (drawing) wins 3 of 5."""
    exercise = lesson("17").exercise(1, worlds=WORLDS)
    assert exercise.check("4/5").is_right and exercise.check("3/5").status == "not yet"


@pytest.mark.parametrize("worlds", [[[1, 0, 1], [0, 0, 1]], [[2, 0], [0, 1]], [[1, 0]], "worlds", 7])
@pytest.mark.parametrize("number", ["16", "17"])
def test_a_table_that_is_not_the_lesson_s_is_refused_naming_it(worlds: object, number: str) -> None:
    with pytest.raises(InvalidInputError, match="worlds=.*table of play-out results"):
        lesson(number).exercise(1, worlds=worlds)


@pytest.fixture(scope="module")
def reviewed() -> dict[str, Any]:
    """The lesson's game and review made here, apart from the key: the default policy in seat 0 against greedy."""
    game = cardlab.new_game("shithead", players=2, seed=key_17.SEED_2, max_turns=key_17.SHITHEAD_MAX_TURNS)
    seats = [first_move, make_policy("greedy", "shithead", np.random.default_rng(0))]
    while not game.is_over:
        game.play(choose(seats[game.current_player], game))
    review = review_game(game, rollouts=key_17.REVIEW_PLAYOUTS, rng=np.random.default_rng(key_17.SEED_2))
    worst = review.worst(0)
    assert worst is not None
    before = position_before(game, worst.move_number)
    exercise = lesson("17").exercise(2, policy=first_move)
    assert isinstance(exercise, MoveExercise)
    return {"worst": worst, "before": before, "exercise": exercise}


def test_17_exercise_2_shows_the_position_before_the_policy_s_worst_decision(reviewed: dict[str, Any]) -> None:
    exercise, worst, before = reviewed["exercise"], reviewed["worst"], reviewed["before"]
    position = exercise.position
    assert position is not None and position.state.to_data() == before.state.to_data()
    assert position.current_player == 0 and exercise.played == worst.played
    assert exercise.moves == tuple(m.text for m in distinct_moves(before.legal_moves()))   # the engine's order
    assert f"move {worst.move_number} (counting from 0)" in exercise.question and "Seed 3" in exercise.question
    # the question asks what the check accepts, with the check's play-outs
    assert "as good as the best?" in exercise.question
    assert f"{key_17.FRESH_PLAYOUTS:,} play-outs per move" in exercise.question
    assert "paired 95% interval against the best move contains 0" in exercise.question
    assert "other than the one you played" in exercise.question
    assert "run the cells" in exercise._repr_mimebundle_()["text/html"]


def test_17_exercise_2_accepts_the_moves_not_significantly_below_the_best_never_the_move_played(
        reviewed: dict[str, Any]) -> None:
    exercise, before = reviewed["exercise"], reviewed["before"]
    fresh = move_values(before, rollouts=key_17.FRESH_PLAYOUTS, rng=np.random.default_rng(key_17.FRESH_SEED))
    right = {v.move.text for v in fresh.values if exercise.check(v.move.text).is_right}
    assert right == {v.move.text for v in fresh.values if v.gap_low <= 0} - {exercise.played}
    assert right and len(right) < len(exercise.moves) - 1        # some other move is refused too
    played = exercise.check(exercise.played)
    assert played.status == "not yet" and "the move played" in played.message
    assert all("is as good as the best" in exercise.check(text).message for text in right)
    # a second, larger valuation made here: the accepted moves are within 3 points of the best, the move played
    # is worse beyond the noise
    big = move_values(before, rollouts=20_000, rng=np.random.default_rng(99))
    assert all(big.value_of(text).gap < 0.03 for text in right)
    assert big.value_of(exercise.played).separated


def test_17_exercise_2_computes_its_answer_at_the_first_check_and_reveals_it_only_to_a_right_answer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return move_values(*args, **kwargs)

    monkeypatch.setattr(key_17, "move_values", counted)
    exercise = lesson("17").exercise(2, policy=first_move)
    assert isinstance(exercise, MoveExercise) and calls == []    # the answer does not exist yet
    before = [repr(exercise), *map(str, exercise._repr_mimebundle_().values())]
    before += [repr(getattr(exercise, name)) for name in dir(exercise) if not name.startswith("__")]
    assert not any(re.search(r"Right|best move is|as good as the best \(|clearly|wins \d", text) for text in before)
    verdicts = {move: exercise.check(move) for move in exercise.moves}
    assert calls == [1]
    right = [move for move, verdict in verdicts.items() if verdict.is_right]
    for verdict in verdicts.values():
        if verdict.is_right:
            assert "the best move is" in verdict.message and all(repr(r) in verdict.message for r in right)
        else:
            assert not any(repr(r) in verdict.message for r in right), verdict.message


@pytest.mark.parametrize("policy", [first_move, last_move])
def test_17_exercise_2_is_right_for_the_route_the_lesson_teaches(policy: Any) -> None:
    """The route of the lesson: value the position's moves with the play-outs the question states (lesson 16's
    ``move_values``), answer the best of them. Whatever the student's seed, the check says "Right!"; the move
    played is refused."""
    exercise = lesson("17").exercise(2, policy=policy)
    assert isinstance(exercise, MoveExercise) and exercise.position is not None and exercise.played is not None
    for seed in range(6):
        values = move_values(exercise.position, rollouts=key_17.FRESH_PLAYOUTS, rng=np.random.default_rng(seed))
        assert values.best_move.text != exercise.played, seed
        assert exercise.check(values.best_move.text).is_right, seed
    assert exercise.check(exercise.played).status == "not yet"


def test_nothing_reached_from_lesson_17_exercise_2_holds_its_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """As tests/viz/test_move_exercise.py for any move exercise, here for the lesson's own: after a check through
    the widget's menu (the move played) and checks that computed the answers and found a right one, no object
    reached from the exercise is the key's function that computes them, the answers it returned, the set of
    accepted moves or a right answer's verdict."""
    from tests.viz.test_exercise import reached_from

    made: list[MoveAnswers] = []

    def recorded(*args: Any, **kwargs: Any) -> MoveAnswers:
        answers = answers_of(*args, **kwargs)
        made.append(answers)
        return answers

    answers_of = key_17._answers
    monkeypatch.setattr(key_17, "_answers", recorded)
    exercise = lesson("17").exercise(2, policy=first_move)
    assert isinstance(exercise, MoveExercise)
    menu, button = exercise.widget.children[1].children
    menu.value = exercise.played                                     # the menu, then Check
    button.click()
    assert "Not yet" in exercise.widget.children[2].value
    right = sorted(made[0].right)
    assert exercise.check(right[0]).is_right
    reached = reached_from(exercise)
    assert len(reached) > 20                                          # the walk went somewhere
    assert len(made) == 1
    answers = made[0]
    assert not any(item is answers or item is answers.right or item is answers.reasons for item in reached)
    assert not any(getattr(item, "__module__", None) == key_17.__name__ and callable(item) for item in reached)
    verdict = f"{right[0]!r} {answers.right_says}"
    assert not any(isinstance(item, str) and (answers.reveal in item or verdict in item) for item in reached)
    assert exercise.check(right[0]).is_right                         # still there, for the check alone


def test_17_exercise_2_follows_the_student_s_policy() -> None:
    """A policy that plays the last legal move makes another game, with another worst decision."""
    exercise = lesson("17").exercise(2, policy=last_move)
    default = lesson("17").exercise(2, policy=first_move)
    assert isinstance(exercise, MoveExercise) and isinstance(default, MoveExercise)
    assert (exercise.question, exercise.moves) != (default.question, default.moves)
    assert exercise.check(exercise.played or "").status == "not yet"


def test_17_exercise_2_refuses_a_policy_that_is_not_one_or_that_fails() -> None:
    with pytest.raises(InvalidInputError, match="policy='greedy' is not a function"):
        lesson("17").exercise(2, policy="greedy")

    def broken(view: Any, legal_moves: Any) -> Any:
        raise KeyError("oops")

    with pytest.raises(PolicyError):
        lesson("17").exercise(2, policy=broken)


def test_17_exercise_2_says_so_when_the_review_finds_no_clear_mistake(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(key_17, "review_game", lambda game, **_: Review(game.name, game.players, ()))
    with pytest.raises(InvalidInputError, match="no decision of seat 0 clearly worse"):
        lesson("17").exercise(2, policy=first_move)
