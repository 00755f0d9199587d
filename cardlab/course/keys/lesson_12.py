"""Answer key of lesson 12, "Expected value and Markov chains": Garbage solitaire's expected number of draws with
Kings wild, the chance of completing 6 spots within 5 draws, and the slowest layout size.

The numbers of the state table come from the game itself: the cards in the pack, the cards of each spot's rank and
the wild cards (those seat 0 can use although no spot has their rank). The state ``(d, w, U)``, taken just before
the next card is turned over, is the number of face-down spots, the wild cards already placed and the unseen
cards: a card of a face-down spot's rank (there are ``per_rank (d + w)``, a wild's spot still takes its own rank),
or a wild card, fills a spot and the turn goes on; any other card ends the turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import cardlab
from cardlab.cards import Rank
from cardlab.viz.exercise import Exercise

SIZES = range(1, 11)


@dataclass(frozen=True)
class _Pack:
    cards: int
    per_rank: int
    wilds: int


def _pack(spots: int, wild: str = "J") -> _Pack:
    """The state table's numbers, read from a fresh solitaire with ``spots`` spots and this wild rank."""
    game: Any = cardlab.new_game("garbage", players=1, seed=0, layout_sizes=[spots], wild=wild)
    unseen = game.hidden_cards()
    per_rank = sum(card.rank == Rank.ACE for card in unseen)
    usable = sum(game.can_use(0, card) for card in unseen)
    return _Pack(len(unseen), per_rank, usable - spots * per_rank)


def _within(pack: _Pack) -> Callable[[int, int, int, int | None], Fraction]:
    """``f(d, w, U, turns)``: the chance to complete with at most ``turns`` more turns started (``None``: no limit,
    then the expected number of turns still to start instead, F of the lesson)."""

    @cache
    def expected(d: int, w: int, unseen: int) -> Fraction:
        if d == 0:
            return Fraction(0)
        pips, wild = pack.per_rank * (d + w), pack.wilds - w
        dead = unseen - pips - wild
        value = Fraction(pips, unseen) * expected(d - 1, w, unseen - 1)
        value += Fraction(wild, unseen) * expected(d - 1, w + 1, unseen - 1)
        if dead:
            value += Fraction(dead, unseen) * (1 + expected(d, w, unseen - 1))
        return value

    @cache
    def within(d: int, w: int, unseen: int, turns: int) -> Fraction:
        if d == 0:
            return Fraction(1)
        pips, wild = pack.per_rank * (d + w), pack.wilds - w
        dead = unseen - pips - wild
        chance = Fraction(pips, unseen) * within(d - 1, w, unseen - 1, turns)
        chance += Fraction(wild, unseen) * within(d - 1, w + 1, unseen - 1, turns)
        if dead and turns > 0:
            chance += Fraction(dead, unseen) * within(d, w, unseen - 1, turns - 1)
        return chance

    def answer(d: int, w: int, unseen: int, turns: int | None) -> Fraction:
        return expected(d, w, unseen) if turns is None else within(d, w, unseen, turns)

    return answer


def _expected_draws(spots: int, wild: str = "J") -> Fraction:
    """E[draws] = 1 + F(n, 0, U): the first draw starts the first turn."""
    pack = _pack(spots, wild)
    return 1 + _within(pack)(spots, 0, pack.cards, None)


def _done_within(spots: int, draws: int) -> Fraction:
    """P(T <= draws): the first draw starts turn one, so at most ``draws - 1`` more turns may start."""
    pack = _pack(spots)
    return _within(pack)(spots, 0, pack.cards, draws - 1)


def exercise_1() -> Exercise:
    return Exercise(
        "Exercise 1.", "10 spots, Kings wild: the exact expected number of draws?",
        truth=lambda: _expected_draws(10, "K"), probability=False,
        tolerance=0.005,  # the exact value to two decimals; a simulated mean is "close"; 6 spots' is "not yet"
        hint="the state table only counts how many wild cards there are, not which rank they have")


def exercise_2() -> Exercise:
    return Exercise(
        "Exercise 2.", "The exact chance of completing 6 spots within 5 draws?",
        truth=lambda: _done_within(6, 5),
        hint="the recursion gains an argument, the number of turns still allowed; a dead card uses one up")


def _slowest_minus_ten() -> Fraction:
    """The largest expected number of draws over 1-10 spots, minus 10 spots'."""
    means = {n: _expected_draws(n) for n in SIZES}
    return max(means.values()) - means[max(SIZES)]


def exercise_3() -> Exercise:
    return Exercise(
        "Exercise 3.", "How many more draws, on average, does the slowest layout size take than 10 spots?",
        truth=_slowest_minus_ten, probability=False, tolerance=0.005,   # two decimals: the question names no precision
        hint="section 4's exact expectations: find the largest, subtract the one for 10 spots")
