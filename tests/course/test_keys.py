"""The course's answer keys (``cardlab.course``): one module per lesson, each exercise made from the game its
question names, right answers accepted in every form, and the route a student takes with the defaults "Right!".

Truths are checked against counts made here by hand from the rules, or against a simulation's interval; never
against a number copied from a run.
"""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import cardlab
from cardlab.course import lesson, lessons
from cardlab.errors import InvalidInputError, UnknownExerciseError
from cardlab.policies import choose, make_policy
from cardlab.viz.exercise import Exercise
from tests import notebook_scripts

BUILD = notebook_scripts.load("build")
PACKAGE = Path(cardlab.__file__).resolve().parent
DECK = ["AS", "QS", "2D", "3C", "7H", "6D", "JH", "8S", "9C", "10H", "KD", "9D", "QH", "4S", "5S", "6H", "KS", "8D",
        "2H", "10S", "4H", "JC", "5D"]     # lesson 02's stacked deck (its first cell), copied: the key takes it


def test_every_lesson_has_a_key_with_one_exercise_per_check_cell() -> None:
    names = [name for name in BUILD.all_names() if name != "app"]
    assert lessons() == [name[:2] for name in names]
    for name in names:
        checks = sum(kind == "check" for kind, _ in BUILD.parse_source(BUILD.source_path(name).read_text()))
        assert lesson(name[:2]).exercises == list(range(1, checks + 1)), name


def test_nothing_outside_the_course_imports_it() -> None:
    """The keys sit above the core and the view: no module of the engine, the games, sim, policies or viz imports
    ``cardlab.course``."""
    importers = []
    for path in PACKAGE.rglob("*.py"):
        if "course" in path.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            importers += [str(path) for n in names if n.startswith("cardlab.course")]
    assert importers == []


@pytest.mark.parametrize(("call", "error", "words"), [
    (lambda: lesson("99"), UnknownExerciseError, "lesson '99' has no answer key"),
    (lambda: lesson(True), UnknownExerciseError, "lesson True"),
    (lambda: lesson("02").exercise(7), UnknownExerciseError,
     "exercise 7 is not in lesson 02's key: its exercises are 1, 2, 3"),
    (lambda: lesson("02").exercise(1), InvalidInputError, "needs deck="),
    (lambda: lesson("02").exercise(2, seed=3), InvalidInputError, "does not take seed="),
    (lambda: lesson("02").exercise(3, game="g3"), InvalidInputError, "game='g3' is not a cardlab game"),
    (lambda: lesson("03").exercise(1, intervals=0), InvalidInputError, "intervals=0"),
])
def test_bad_input_gets_a_cardlab_error_naming_it(call: object, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        call()  # type: ignore[operator]


def test_lesson_numbers_in_every_form() -> None:
    assert lesson(2).number == lesson("2").number == lesson("02").number == "02"
    assert "exercises 1, 2, 3" in repr(lesson(2))


def face_up_after_six(game: cardlab.engine.game.Game) -> int:  # type: ignore[type-arg]
    return sum(card is not None for card in game.observe(None).layouts[0])


def test_02_exercise_1_names_its_seed_and_every_route_to_that_game_gets_right() -> None:
    """Issue 30: the answer depended on a seed the question left open. The question now names seed 1; the
    engine with greedy bots (whatever their generator) and a Stepper with that seed and its default bots reach
    the same position, and its count is "Right!"."""
    exercise = lesson("02").exercise(1, deck=DECK)
    assert "Seed 1" in exercise.question
    answers = set()
    for bot_seed in (0, 7):
        game = cardlab.new_game("garbage", players=2, seed=1, deck=DECK, wild="K")
        bot = make_policy("greedy", "garbage", np.random.default_rng(bot_seed))
        for _ in range(6):
            game.play(choose(bot, game))
        answers.add(face_up_after_six(game))
    stepper = cardlab.Stepper("garbage", players=2, seed=1, deck=DECK, wild="K")
    try:
        for _ in range(6):
            stepper.next_move()
        answers.add(face_up_after_six(stepper.game))
    finally:
        stepper.close()
    assert len(answers) == 1
    answer = answers.pop()
    assert exercise.check(str(answer)).is_right
    assert exercise.check(str(answer + 1)).status == "not yet" and exercise.check(str(answer - 1)).status == "not yet"


@pytest.mark.parametrize("typed", ["24/52", "6/13", "0.4615", "46.15%", " 12 / 26 "])
def test_02_exercise_2_is_counted_from_the_rules_and_right_in_every_form(typed: str) -> None:
    """Five spots: A-5 have a spot (4 cards each) and the 4 Jacks are wild: 24 of 52 cards."""
    game = cardlab.new_game("garbage", players=2, seed=0, layout_sizes=[5, 5])
    by_hand = sum(card.rank <= 5 or card.rank == cardlab.Rank.JACK for card in game.hidden_cards())
    assert by_hand == 24
    assert lesson("02").exercise(2).check(typed).is_right
    assert lesson("02").exercise(2).check("20/52").status == "not yet"      # the Jacks forgotten


def test_a_key_computes_its_truth_from_the_game_it_is_given() -> None:
    """Lesson 02's exercise 3 counts in the position passed: two positions with different counts get different
    right answers, each counted here by hand (the next player to draw, two players: the one not moving)."""
    for seed, moves in ((2, 4), (5, 3)):
        game = cardlab.new_game("garbage", players=2, seed=seed)
        bot = make_policy("greedy", "garbage", np.random.default_rng(0))
        while game.move_count < moves:
            game.play(choose(bot, game))
        hidden = game.hidden_cards()
        drawer = cardlab.sim.prob.garbage_next_drawer(game)
        count = Fraction(sum(game.can_use(drawer, card) for card in hidden), len(hidden))
        assert lesson("02").exercise(3, game=game).check(str(count)).is_right, (seed, moves, count)


def test_00_and_01_exact_answers_by_hand() -> None:
    """00 Ex 2: A-10 and the Jacks fit a fresh layout, 44 of 52. 01 Ex 3: 1 - 0.95^20. 01 Ex 1: the smallest n
    with 1.96 sqrt(p(1-p)/n) <= 0.005, p = 8/52 (A and J for one spot)."""
    assert lesson("00").exercise(2).check("44/52").is_right
    assert lesson("01").exercise(3).check(str(1 - 0.95 ** 20)).is_right
    p = Fraction(8, 52)
    n = 1
    while Fraction(196, 100) ** 2 * p * (1 - p) > Fraction(5, 1000) ** 2 * n:
        n += 1
    assert lesson("01").exercise(1).check(str(n)).is_right
    assert lesson("01").exercise(1).check(str(n // 4)).status == "not yet"        # without the 1.96


def test_01_exercise_1_accepts_the_fewest_games_and_nothing_that_misses_0_005() -> None:
    """Audit round 1: the window was +-20 games, so 19,984-20,002 (half-widths above 0.005) were "Right!". Now
    the fewest games with 1.96 (20,004) and with z = 1.95996... (20,003) are right, and so is one game more;
    fewer games, or p rounded to 0.1538 (19,999), are not. The question says to type a whole number without
    commas and to use p = 2/13 exactly."""
    exercise = lesson("01").exercise(1)
    p = 2 / 13
    with_196 = int(np.ceil((1.96 / 0.005) ** 2 * p * (1 - p)))
    with_z95 = int(np.ceil((cardlab.chance.stats.Z95 / 0.005) ** 2 * p * (1 - p)))
    assert with_z95 == with_196 - 1
    right = [typed for typed in range(19_950, 20_050) if exercise.check(str(typed)).is_right]
    assert right == [with_z95, with_196, with_196 + 1]
    assert all(1.96 * np.sqrt(p * (1 - p) / m) > 0.005 for m in range(19_950, with_z95))  # each too few
    rounded_p = int(np.ceil((1.96 / 0.005) ** 2 * 0.1538 * (1 - 0.1538)))
    assert not exercise.check(str(rounded_p)).is_right
    assert "whole number" in exercise.question and exercise.check("20,004").is_right
    assert "2/13 exactly" in exercise.hint


def test_00_exercise_1_position_is_one_where_the_player_to_move_must_draw() -> None:
    """Audit round 1: "the next player to draw" is true only where the player to move cannot take the discard.
    At seed 11 after five presses of Next move only "draw stock" is legal, so that player draws the card; the
    key's answer is the count for that player."""
    stepper = cardlab.Stepper("garbage", players=2, seed=11, rollouts=8, panel_rollouts=4)
    try:
        for _ in range(5):
            stepper.next_move()
        game = stepper.game
    finally:
        stepper.close()
    assert [move.text for move in game.legal_moves()] == ["draw stock"]
    hidden = game.hidden_cards()
    count = Fraction(sum(game.can_use(game.current_player, card) for card in hidden), len(hidden))
    assert lesson("00").exercise(1).check(str(count)).is_right


def test_02_count_and_seat_questions_say_what_to_type_and_whose_chance() -> None:
    """Audit round 1: a count is typed as a whole number; exercise 3's chance is the next player's (who may take
    the discard instead of drawing), not "the next player to draw"."""
    assert "whole number" in lesson("02").exercise(1, deck=DECK).question
    game = cardlab.new_game("garbage", players=2, seed=21)
    assert "the next player?" in lesson("02").exercise(3, game=game).question




def test_every_exercise_made_by_a_key_is_an_exercise_with_no_truth_attribute() -> None:
    made = [lesson("01").exercise(n) for n in (1, 2, 3)] + [lesson("05").exercise(n) for n in (1, 2, 3)]
    assert all(isinstance(e, Exercise) and not hasattr(e, "truth") for e in made)
