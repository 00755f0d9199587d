"""Answer key of lesson 17, "A game review": the all-seeing player's share of 20 worlds, and a move as good as the
best at the worst decision of the student's own Shithead policy.

Exercise 2 is lichess's "learn from your mistakes". The student's policy plays seat 0 against the greedy bot on the
deal of seed :data:`SEED_2`; the review (:func:`~cardlab.sim.review.review_game`) finds the policy's worst decision
(:meth:`~cardlab.sim.review.Review.worst`), and the exercise shows the position before it
(:func:`~cardlab.sim.review.position_before`) from seat 0 and asks for a move as good as the best. The check values
that position's moves again on :data:`FRESH_PLAYOUTS` fresh play-outs per move, because the worst decision is the
largest of many noisy losses and its own numbers are optimistic (the winner's curse). A move is right when its
value is not significantly below the best move's (the paired 95% interval of best minus it contains 0) and it is
not the move played; the question says exactly this, with the number of play-outs, so a student who values the
moves as lesson 16 taught, with that many play-outs, and answers the best of them gets "Right!" whatever the seed
(tests/course/test_lesson_16_17.py). Only a right answer's verdict reveals the moves accepted.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

import cardlab
from cardlab.course.keys import play_out_table
from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError, shown
from cardlab.policies import Policy, choose, make_policy
from cardlab.sim.move_values import distinct_moves, move_key, move_values
from cardlab.sim.review import position_before, review_game
from cardlab.viz.exercise import Exercise
from cardlab.viz.move_exercise import MoveAnswers, MoveExercise
from cardlab.viz.table import table_html

SEED_2 = 3
"""The deal the student's policy plays in exercise 2."""
SHITHEAD_MAX_TURNS = 500
"""As in lesson 14: a Shithead game that goes on for ever (a silly policy) ends as a draw."""
REVIEW_PLAYOUTS = 200
"""Play-outs per move at each decision of the review."""
FRESH_PLAYOUTS = 4000
"""Play-outs per move of the second look at the worst decision (the check's values; the question states it)."""
FRESH_SEED = 2017


def _all_seeing_share(worlds: np.ndarray[Any, Any]) -> Fraction:
    """The share of the worlds in which at least one move wins: the all-seeing player picks it."""
    return Fraction(int(worlds.max(axis=1).sum()), len(worlds))


def exercise_1(worlds: object) -> Exercise:
    """``worlds``: the 20 worlds the lesson prints (``first_20``)."""
    table = play_out_table(worlds, "worlds").copy()
    return Exercise(
        "Exercise 1.", f"In the {len(table)} worlds printed, what share would a player who sees every card win?",
        truth=lambda: _all_seeing_share(table),
        hint="the all-seeing player wins a world if either move wins there")


def _policy(policy: object) -> Policy:
    if not callable(policy):
        raise InvalidInputError(f"policy={shown(policy)} is not a function: give the lesson's policy, a function "
                                "(view, legal_moves) -> move")
    return policy


def _played_game(policy: Policy) -> Game[Any]:
    """The Shithead game of seed :data:`SEED_2`: ``policy`` in seat 0, the greedy bot in seat 1, to the end."""
    game = cardlab.new_game("shithead", players=2, seed=SEED_2, max_turns=SHITHEAD_MAX_TURNS)
    seats = [policy, make_policy("greedy", "shithead", np.random.default_rng(0))]
    while not game.is_over:
        game.play(choose(seats[game.current_player], game))
    return game


def _answers(position: Game[Any], played: str) -> MoveAnswers:
    """The moves not significantly below the best on fresh play-outs (as good as the best), the move played left
    out."""
    values = move_values(position, rollouts=FRESH_PLAYOUTS, rng=np.random.default_rng(FRESH_SEED))
    mine = values.value_of(played)
    right = frozenset(v.move.text for v in values.values if v.gap_low <= 0 and v.move.text != played)
    best = values.values[values.best]
    others = [f"{v.move.text!r} ({v.win.value:.3f})" for v in values.values
              if v.move.text in right and v is not best]
    tied = f"; as good as the best (interval contains 0): {', '.join(others)}" if others else ""
    reveal = (f"On {values.playouts:,} fresh play-outs per move, the best move is {best.move.text!r} (wins "
              f"{best.win.value:.3f})" + tied
              + f". The move played, {played!r}, wins {mine.win.value:.3f}: {mine.gap:.3f} less, paired 95% "
              f"interval [{mine.gap_low:.3f}, {mine.gap_high:.3f}].")
    worse = (f"on the check's own {values.playouts:,} fresh play-outs per move it wins clearly less than the best "
             "move (the paired 95% interval of the difference is above 0); a move near that edge can fall on either "
             "side in another run, so the move your play-outs value highest is the safest answer")
    reasons = {v.move.text: worse for v in values.values if v.move.text not in right}
    reasons[played] = "that is the move played in the game"
    if not mine.separated:
        reasons[played] += (" (on a second look with fresh play-outs it is not clearly worse than the best move: this "
                            "decision may not have been a mistake)")
    return MoveAnswers(right=right, reveal=reveal, reasons=reasons, right_says="is as good as the best")


def exercise_2(policy: object) -> MoveExercise:
    """``policy``: the student's Shithead policy (``my_policy``)."""
    game = _played_game(_policy(policy))
    review = review_game(game, rollouts=REVIEW_PLAYOUTS, rng=np.random.default_rng(SEED_2))
    worst = review.worst(0)
    if worst is None:
        raise InvalidInputError(f"policy={shown(policy)}: the review of its game (seed {SEED_2}) found no decision "
                                "of seat 0 clearly worse than the best move, so there is no mistake to learn from; "
                                "change the policy and run the check again")
    position = position_before(game, worst.move_number)
    moves = distinct_moves(position.legal_moves())
    played = next(m.text for m in moves if move_key(m) == move_key(position.parse_move(worst.played)))
    question = (f"Seed {SEED_2}, your policy in seat 0 against greedy: the review's worst decision of yours is move "
                f"{worst.move_number} (counting from 0), where you played {played!r}. Which other move is as good as "
                f"the best? The check values the moves again, {FRESH_PLAYOUTS:,} play-outs per move, and accepts a "
                "move, other than the one you played, whose paired 95% interval against the best move contains 0.")
    return MoveExercise("Exercise 2.", question, [m.text for m in moves], lambda: _answers(position, played),
                        picture_html=table_html(position, 0), played=played, position=position)
