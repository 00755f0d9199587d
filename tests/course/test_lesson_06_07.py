"""The answer keys of lessons 06 (Shithead: playing the game) and 07 (Shithead: chances by counting).

Each truth is checked against a count made here by hand from the rules, or against the game played by the routes
a student would take; the plausible wrong answers are "not yet". A count that rests on an assumption (07's
Exercise 2) is called a count in its verdict, never "the exact value".
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import cardlab
from cardlab.cards import Rank
from cardlab.course import lesson
from cardlab.errors import InvalidInputError
from cardlab.policies import choose, make_policy
from cardlab.viz.exercise import Exercise

POWER_ORDER = [Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK,
               Rank.QUEEN, Rank.KING, Rank.ACE]       # the lesson's order, 3 < ... < K < A (a 2 goes on anything)


def equal_or_higher(top: Rank) -> set[Rank]:
    return set(POWER_ORDER[POWER_ORDER.index(top):])


def greedy_setup(seed: int, **house_rules: bool) -> cardlab.engine.game.Game:  # type: ignore[type-arg]
    """As lesson 07 makes it: a shuffled deal after greedy bots' set-up."""
    deal = cardlab.new_game("shithead", players=2, seed=seed, **house_rules)
    bot = make_policy("greedy", "shithead", np.random.default_rng(seed))
    while deal.state.phase == "setup":
        deal.play(choose(bot, deal))
    return deal


@pytest.mark.parametrize("typed", ["36", " 36 ", "36.0"])
def test_06_exercise_1_counts_the_cards_that_go_on_a_7(typed: str) -> None:
    """On a 7: 7 or higher, and the 2s and 10s that go on anything: 9 ranks, 36 cards."""
    ranks = equal_or_higher(Rank.SEVEN) | {Rank.TWO, Rank.TEN}
    assert 4 * len(ranks) == 36
    exercise = lesson("06").exercise(1)
    assert exercise.check(typed).is_right
    for wrong in ("32", "28", "52"):        # the 2s forgotten; seven_lower's count; every card
        assert exercise.check(wrong).status == "not yet", wrong
    share = exercise.check("36/52")           # the right count written as a share: the hint asks for a number
    assert not share.is_right and "share, not a count" in share.message


def test_06_exercise_2_asks_for_a_number_of_cards_not_a_share() -> None:
    share = lesson("06").exercise(2).check("20/52")
    assert not share.is_right and "share, not a count" in share.message


def test_06_exercise_2_counts_the_invisible_three() -> None:
    """On a King with the invisible 3: K, A, and the 2, 10 and 3 that go on anything: 20 cards; 16 forgets the 3s."""
    ranks = equal_or_higher(Rank.KING) | {Rank.TWO, Rank.TEN, Rank.THREE}
    exercise = lesson("06").exercise(2)
    assert exercise.check(str(4 * len(ranks))).is_right
    assert exercise.check(str(4 * len(ranks) - 4)).status == "not yet"


def test_06_exercise_3_every_route_to_the_seed_5_game_gets_right() -> None:
    """The question names seed 5 and greedy bots: the engine with greedy bots (whatever their generator) and
    the lesson's Stepper (its default bots) play the same game; its pick-ups, counted from the events, are
    "Right!", and counting only the players who could not play (forgetting the failed blind plays) is not."""
    answers, cannot_play = set(), set()
    for bot_seed in (0, 5, 7):
        game = cardlab.new_game("shithead", players=2, seed=5)
        bot = make_policy("greedy", "shithead", np.random.default_rng(bot_seed))
        while not game.is_over:
            game.play(choose(bot, game))
        events = [str(e) for e in game.events]
        answers.add(sum("picks up" in e for e in events))
        cannot_play.add(sum("cannot play" in e for e in events))
    stepper = cardlab.Stepper("shithead", players=2, seed=5)
    try:
        while stepper.game.state.blind_plays == 0:      # as section 3 stops, then on to the end
            stepper.next_move()
        while not stepper.game.is_over:
            stepper.next_move()
        answers.add(sum("picks up" in str(e) for e in stepper.game.events))
    finally:
        stepper.close()
    assert len(answers) == 1 and len(cannot_play) == 1
    answer, wrong = answers.pop(), cannot_play.pop()
    assert wrong < answer
    exercise = lesson("06").exercise(3)
    assert exercise.check(str(answer)).is_right
    assert exercise.check(str(wrong)).status == "not yet"


@pytest.mark.parametrize("typed", ["20/52", "5/13", "0.3846", "38.46%"])
def test_07_exercise_1_is_the_exact_count_at_the_deal(typed: str) -> None:
    """On a Queen: Q, K, A, and the 2s and 10s: 20 of 52; a right answer's verdict calls it exact (a fair
    shuffle, before any card is seen)."""
    ranks = equal_or_higher(Rank.QUEEN) | {Rank.TWO, Rank.TEN}
    assert Fraction(4 * len(ranks), 52) == Fraction(5, 13)
    exercise = lesson("07").exercise(1)
    verdict = exercise.check(typed)
    assert verdict.is_right and "exact value" in verdict.message
    assert exercise.check("12/52").status == "not yet"          # the 2s and 10s forgotten


def test_07_exercise_2_is_the_table_count_and_says_so() -> None:
    """seven_lower on the 7 of seed 14's set-up: 2-7 and the 10s among the table's unseen cards. The verdict calls
    it the table's count (it assumes every unseen card equally likely), not an exact value; the plain rules'
    count is "not yet"."""
    lower = greedy_setup(14, seven_lower=True)
    plain = greedy_setup(14)
    assert lower.top.rank == Rank.SEVEN
    unseen = lower.unseen_cards(None)
    low = {Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.TEN}
    by_hand = Fraction(sum(c.rank in low for c in unseen), len(unseen))
    plain_count = Fraction(sum(c.rank in equal_or_higher(Rank.SEVEN) | {Rank.TWO} for c in plain.unseen_cards(None)),
                           len(plain.unseen_cards(None)))
    assert by_hand != plain_count
    exercise = lesson("07").exercise(2, game=lower)
    verdict = exercise.check(str(by_hand))
    assert verdict.is_right
    assert "count" in verdict.message and "exact" not in verdict.message
    assert exercise.check(str(plain_count)).status == "not yet"


def test_07_exercise_2_a_seats_count_is_not_yet_and_the_hint_says_whose_count() -> None:
    """Section 2 teaches one count per viewer: a seat's count of the same position is the viewpoint mistake, so it
    is "not yet" (not "close"), and the hint names the table's count; a rounding of the right value is "close"."""
    lower = greedy_setup(14, seven_lower=True)
    exercise = lesson("07").exercise(2, game=lower)
    table = Fraction(sum(lower.fits(c) for c in lower.unseen_cards(None)), len(lower.unseen_cards(None)))
    for seat in (0, 1):
        unseen = lower.unseen_cards(seat)
        count = Fraction(sum(lower.fits(c) for c in unseen), len(unseen))
        assert count != table
        verdict = exercise.check(f"{count.numerator * len(unseen) // count.denominator}/{len(unseen)}")
        assert verdict.status == "not yet", (seat, verdict)
        assert "the table's count, not a seat's" in verdict.message
    assert exercise.check(f"{float(table):.2f}").status == "close"


def test_07_exercise_2_counts_the_game_it_is_given_and_refuses_another_game() -> None:
    """Another position gets its own count, made here by hand; a game that is not Shithead is an error naming it."""
    other = greedy_setup(3, seven_lower=True)
    unseen = other.unseen_cards(None)
    count = Fraction(sum(other.fits(c) for c in unseen), len(unseen))
    assert lesson("07").exercise(2, game=other).check(str(count)).is_right
    with pytest.raises(InvalidInputError, match="is not a Shithead game"):
        lesson("07").exercise(2, game=cardlab.new_game("garbage", players=2, seed=0))


def test_an_exercise_names_its_value_only_when_asked() -> None:
    """``value_name`` replaces "the exact value" in a right verdict; without it the verdict is as before; an empty
    name or one that is not text is refused."""
    plain = Exercise("E.", "a count?", truth=lambda: Fraction(1, 3))
    named = Exercise("E.", "a count?", truth=lambda: Fraction(1, 3), value_name="the model's value")
    assert plain.check("1/3").message == "Right! (The exact value is 1/3 ≈ 0.3333.)"
    assert named.check("1/3").message == "Right! (The model's value is 1/3 ≈ 0.3333.)"
    assert named.check("1/2").status == "not yet"
    for bad in ("", " ", 3):
        with pytest.raises(InvalidInputError, match="value_name"):
            Exercise("E.", "a count?", truth=lambda: Fraction(1, 3), value_name=bad)  # type: ignore[arg-type]
