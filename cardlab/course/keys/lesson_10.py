"""Answer key of lesson 10, "Hidden information": a viewer's plain share after seeing one more hand, and the law
of total probability (a better-informed player's answers, averaged over the worlds the table cannot tell apart,
give the table's answer)."""

from __future__ import annotations

from fractions import Fraction

from cardlab.course.keys import a_game
from cardlab.engine.game import Game
from cardlab.sim import prob
from cardlab.viz.exercise import Exercise


def _share_after_seeing_seat_1(game: Game) -> Fraction:  # type: ignore[type-arg]
    """Seat 0's plain share (fitting cards / cards it cannot see) once seat 1's hand is shown to it."""
    unseen = list(game.unseen_cards(0))
    for card in game.state.hands[1]:
        unseen.remove(card)
    return Fraction(sum(bool(game.fits(c)) for c in unseen), len(unseen))  # type: ignore[attr-defined]


def exercise_1(game: object) -> Exercise:
    """``game``: the lesson's ``position`` (Shithead, an Ace on the pile)."""
    position = a_game(game).copy()
    return Exercise(
        "Exercise 1.", "Seat 1 shows its hand to seat 0: seat 0's plain share of fitting cards among the cards it "
                       "still cannot see?",
        truth=lambda: _share_after_seeing_seat_1(position),
        hint="take seat 1's hand out of the cards seat 0 cannot see, both out of the fitting ones and out of the "
             "total, then divide")


def exercise_2(game: object) -> Exercise:
    """``game``: the lesson's ``later`` (two moves after ``position``)."""
    position = a_game(game).copy()
    return Exercise(
        "Exercise 2.", "Seat 1's answers, averaged over 2000 worlds redealt from the table's view: your average?",
        truth=lambda: float(prob.shithead_blind_fits(position, None)),   # a float: the model's answer, not "exact"
        tolerance=0.003,   # 2000 worlds: a standard error near 0.0006; seat 1's own answer is 0.04 away
        hint="compute seat 1's answer in each redealt world, not in the real game; the law of total probability "
             "says whose answer the average comes close to")
