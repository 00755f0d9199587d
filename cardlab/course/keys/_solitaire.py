"""Garbage solitaire's exact numbers, shared by the answer keys of lessons 12 ("Expected value") and 13 ("Markov
chains"): the expected number of draws to complete a layout, and the chance of completing it within k draws.

The numbers of the state table come from the game itself: the cards in the pack, the cards of each spot's rank and
the wild cards (those seat 0 can use although no spot has their rank). The state ``(d, w, U)``, taken just before
the next card is turned over, is the number of face-down spots, the wild cards already placed and the unseen
cards: a card of a face-down spot's rank (there are ``per_rank (d + w)``, a wild's spot still takes its own rank),
or a wild card, fills a spot and the turn goes on; any other card ends the turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import cardlab
from cardlab.cards import Rank

SIZES = range(1, 11)
"""The layout sizes the lessons compare: 1 to 10 spots."""


@dataclass(frozen=True)
class Pack:
    """The state table's numbers: the unseen cards at the deal, the cards of one rank, the wild cards."""

    cards: int
    per_rank: int
    wilds: int


@cache
def pack(spots: int, wild: str = "J") -> Pack:
    """The state table's numbers, read from a fresh solitaire with ``spots`` spots and this wild rank."""
    game: Any = cardlab.new_game("garbage", players=1, seed=0, layout_sizes=[spots], wild=wild)
    unseen = game.hidden_cards()
    per_rank = sum(card.rank == Rank.ACE for card in unseen)
    usable = sum(game.can_use(0, card) for card in unseen)
    return Pack(len(unseen), per_rank, usable - spots * per_rank)


@cache
def _future_turns(table: Pack, d: int, w: int, unseen: int) -> Fraction:
    """F(d, w, U) of lesson 12: the expected number of turns still to start, just before the next card."""
    if d == 0:
        return Fraction(0)
    pips, wild = table.per_rank * (d + w), table.wilds - w
    dead = unseen - pips - wild
    value = Fraction(pips, unseen) * _future_turns(table, d - 1, w, unseen - 1)
    value += Fraction(wild, unseen) * _future_turns(table, d - 1, w + 1, unseen - 1)
    if dead:
        value += Fraction(dead, unseen) * (1 + _future_turns(table, d, w, unseen - 1))
    return value


@cache
def _within(table: Pack, d: int, w: int, unseen: int, turns: int) -> Fraction:
    """The chance to complete with at most ``turns`` more turns started, just before the next card."""
    if d == 0:
        return Fraction(1)
    pips, wild = table.per_rank * (d + w), table.wilds - w
    dead = unseen - pips - wild
    chance = Fraction(pips, unseen) * _within(table, d - 1, w, unseen - 1, turns)
    chance += Fraction(wild, unseen) * _within(table, d - 1, w + 1, unseen - 1, turns)
    if dead and turns > 0:
        chance += Fraction(dead, unseen) * _within(table, d, w, unseen - 1, turns - 1)
    return chance


def expected_draws(spots: int, wild: str = "J") -> Fraction:
    """E[draws] = 1 + F(n, 0, U): the first draw starts the first turn."""
    table = pack(spots, wild)
    return 1 + _future_turns(table, spots, 0, table.cards)


def done_within(spots: int, draws: int) -> Fraction:
    """P(T <= draws): the first draw starts turn one, so at most ``draws - 1`` more turns may start."""
    table = pack(spots)
    return _within(table, spots, 0, table.cards, draws - 1) if draws >= 1 else Fraction(0)


__all__ = ["SIZES", "Pack", "done_within", "expected_draws", "pack"]
