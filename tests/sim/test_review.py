"""The game review's "learn from your mistakes" API: a seat's worst decision and the position it was made in.

``Review.worst`` is checked on reviews built by hand (which decisions count, which one wins, ties, a seat with
none), then on a real review: the random bot's Garbage game of lesson 17, whose worst decision is the Jack it
threw away. ``position_before`` is checked against the game replayed by hand from its seed.
"""

from __future__ import annotations

import numpy as np
import pytest

import cardlab
from cardlab.errors import InvalidInputError
from cardlab.policies import choose, make_policy
from cardlab.sim.move_values import move_values
from cardlab.sim.review import Decision, Review, position_before, review_game


def decision(number: int, seat: int, label: str, loss: float, loss_low: float) -> Decision:
    return Decision(number, seat, f"move {number}", "best move", 0.5 - loss, 0.5, loss, loss_low, loss + 0.05,
                    label, 3, 100)


def test_the_worst_decision_is_the_largest_loss_whose_interval_is_above_0() -> None:
    review = Review("garbage", 2, (
        decision(0, 0, "good", 0.20, -0.01),          # a large loss within the noise: not counted
        decision(1, 0, "mistake", 0.12, 0.02),
        decision(2, 1, "blunder", 0.40, 0.30),         # the other seat's
        decision(3, 0, "good", 0.03, 0.01),            # small but beyond the noise: counted
        decision(4, 0, "blunder", 0.16, 0.05),
        decision(5, 0, "blunder", 0.16, 0.08),         # equal loss, later: the first one wins
        decision(6, 0, "best", 0.0, 0.0),
        decision(7, 0, "forced", 0.0, 0.0),
    ))
    worst = review.worst(0)
    assert worst is not None and worst.move_number == 4
    worst_1 = review.worst(1)
    assert worst_1 is not None and worst_1.move_number == 2
    assert Review("garbage", 2, (decision(0, 0, "good", 0.3, -0.1), decision(1, 0, "best", 0, 0))).worst(0) is None


def test_the_review_prints_every_loss_as_win_chance_given_up_a_positive_number() -> None:
    review = Review("garbage", 2, (decision(0, 0, "blunder", 0.53, 0.40), decision(1, 0, "mistake", 0.12, 0.02),
                                   decision(2, 1, "best", 0.0, 0.0)))
    text = str(review)
    assert "seat 0: 2 decisions, gave up 0.650 in all" in text
    assert "move 0 seat 0: 'move 0' (blunder, gave up 0.530; best 'best move')" in text
    assert "move 1 seat 0: 'move 1' (mistake, gave up 0.120; best 'best move')" in text
    assert "-0." not in text


@pytest.mark.parametrize("seat", [2, -1, True, "0", None])
def test_a_seat_that_does_not_exist_is_refused(seat: object) -> None:
    with pytest.raises(InvalidInputError, match="seat=.*does not exist"):
        Review("garbage", 2, ()).worst(seat)  # type: ignore[arg-type]


def random_against_greedy() -> cardlab.Game:  # type: ignore[type-arg]
    """Lesson 17's reviewed game: the random bot (seat 0) against greedy (seat 1), Garbage seed 1."""
    game = cardlab.new_game("garbage", players=2, seed=1)
    bots = [make_policy("random", "garbage", np.random.default_rng(1)),
            make_policy("greedy", "garbage", np.random.default_rng(1))]
    while not game.is_over:
        game.play(choose(bots[game.current_player], game))
    return game


def test_position_before_is_the_game_replayed_from_its_seed_and_leaves_the_game_alone() -> None:
    game = random_against_greedy()
    moves = [m.text for m in game.moves]
    final = game.state.to_data()
    for k in range(len(moves)):
        by_hand = cardlab.new_game("garbage", players=2, seed=1)
        for text in moves[:k]:
            by_hand.play(text)
        before = position_before(game, k)
        assert before.state.to_data() == by_hand.state.to_data(), k
        assert before.current_player == by_hand.current_player and before.move_count == k
        assert any(m.text == moves[k] for m in before.legal_moves())   # the move made there is legal there
    assert game.state.to_data() == final and len(game.moves) == len(moves)


@pytest.mark.parametrize("number", [-1, 10, True, 2.0, "3", None])
def test_a_move_number_outside_the_game_is_refused_naming_it(number: object) -> None:
    game = random_against_greedy()
    assert len(game.moves) == 10
    with pytest.raises(InvalidInputError, match=r"move_number=.* numbered 0 to 9"):
        position_before(game, number)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="no move was played"):
        position_before(cardlab.new_game("garbage", players=2, seed=1), 0)


def test_a_real_review_stops_at_the_jack_thrown_away_and_a_fresh_look_confirms_it() -> None:
    """The random bot discarded a Jack (wild) it could have placed: its worst decision. Valued again on fresh
    play-outs, the discard is still worse than placing the Jack beyond the noise, and the worst decision's loss is
    the largest of the seat's separated losses."""
    game = random_against_greedy()
    review = review_game(game, rollouts=300, rng=np.random.default_rng(1))
    worst = review.worst(0)
    assert worst is not None and worst.seat == 0 and worst.played == "discard"
    separated = [d.loss for d in review.decisions if d.seat == 0 and d.loss_low > 0 and d.label != "best"]
    assert worst.loss == max(separated)
    before = position_before(game, worst.move_number)
    assert before.current_player == 0 and before.observe(0).held.rank == before.observe(0).wild
    again = move_values(before, rollouts=2000, rng=np.random.default_rng(7))
    assert again.value_of("discard").separated and again.best_move.text.startswith("jack to")
