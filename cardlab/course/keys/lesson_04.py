"""Answer key of lesson 04, "Playing Spite and Malice": how many cards the top stock card could be at seed 28,
whose opening tie puts the tied cards back into the payoff piles (the table's view), and seat 0's chance at seed 1
that the top stock card is a King (seat 0's view).

Neither answer is what ``prob.spite_next_stock_playable`` returns: the first is the denominator that its reduced
fraction (7/50) hides, the second asks for Kings, not for the cards that fit."""

from __future__ import annotations

import re
from fractions import Fraction

import cardlab
from cardlab.cards import Card, Rank
from cardlab.viz.exercise import Exercise

_TIE = re.compile(r"payoff tops (\S+) and (\S+) tie")


def _never_seen_at_28() -> int:
    """The cards the top stock card can be at seed 28 before any move: those the table cannot see, less each tied
    payoff top (known to lie in its own payoff pile after the reshuffle)."""
    deal = cardlab.new_game("spite-and-malice", seed=28)
    unseen = list(deal.unseen_cards(None))
    for pair in _TIE.findall(deal.state.opening):
        for text in pair:
            unseen.remove(Card.parse(text))
    return len(unseen)


def exercise_1() -> Exercise:
    return Exercise(
        "Exercise 1.", "Seed 28, before any move: how many cards could the top stock card be, as the table knows "
                       "the deal?",
        truth=_never_seen_at_28, count=True, close=0.01,
        hint="the opening had a tie. Each tied card went back into its own payoff pile: can it be the top stock "
             "card?")


def _kings_for_seat_0() -> Fraction:
    """Seat 0's count at seed 1: the Kings among the cards seat 0 cannot see, over those cards."""
    unseen = cardlab.new_game("spite-and-malice", seed=1).unseen_cards(0)
    return Fraction(sum(card.rank == Rank.KING for card in unseen), len(unseen))


def exercise_2() -> Exercise:
    return Exercise(
        "Exercise 2.", "Seed 1, before any move: seat 0's chance that the top stock card is a King?",
        truth=_kings_for_seat_0,
        hint="there are 8 Kings in the two packs. Seat 0 cannot see the stock, the other hand or the cards under "
             "the payoff tops; its own hand it can see")
