"""The Shithead ``greedy`` bot.

Exact definition (it looks only at the legal moves, which carry each play's rank and count):

1. **Set-up** (choosing face-up cards, one per move). Put face up the card that is best to keep for
   the end of the game, when the face-up cards are played without a hand to help: a 10 first, then a
   2, then the highest card by power (A, K, Q, J, 9, 8, …, 3). Among cards of equal preference the
   first legal move (lowest suit) is taken. Three such moves leave the three lowest ordinary cards in
   hand, which is the usual advice of the rules text: "the highest-value cards are placed face up".
2. **Play** from the hand or from the face-up cards. Among the ordinary ranks that fit (every rank but
   2 and 10), play the lowest, with **all** cards of that rank at once. 2s and 10s are kept until
   nothing else fits; then play a **single 10** if there is one (it burns the pile and the bot plays
   again), otherwise a single 2.
3. **Blind**: turn the lowest-numbered face-down card still there (all are equally unknown).
4. **Pick up** only when it is the sole legal move.

The ``uninformed`` player (:class:`UninformedShithead`) chooses as little as the rules allow with its
hidden cards in mind: in the set-up it puts face up the cards of three uniformly random hand slots; from
the hand it plays a uniformly random card among those that fit, one card at a time; from the face-up
cards a uniformly random rank that fits, one card; blind, the lowest position. It is the model by which
the chance law reads every hand (:mod:`.beliefs`): which cards fit still depends on the hand ("a player
who can play must play"), and the law takes that into account. The greedy bot keeps its lowest cards in
hand at the set-up, plays its lowest fitting rank and saves its 2s and 10s: choices that tell an observer
more about its hand than the law reads (it picks up less often than the law predicts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cardlab.cards import Card, Rank
from cardlab.engine.game import Move
from cardlab.games.shithead.rules import ShitheadMove, power, rank_power, setup_card, shithead_move

_SPECIAL = (int(Rank.TWO), int(Rank.TEN))
_POWER_OF_VALUE = {int(r): rank_power(r) for r in Rank}


def face_up_preference(card: Card) -> tuple[int, int]:
    """Higher is put face up first: 10, then 2, then by power."""
    if card.rank == Rank.TEN:
        return (2, 0)
    if card.rank == Rank.TWO:
        return (1, 0)
    return (0, power(card))


def greedy_shithead(view: Any, legal_moves: Sequence[Move]) -> Move:
    first = legal_moves[0]
    if first.kind == "setup":
        best = first
        for m in legal_moves[1:]:
            if face_up_preference(setup_card(m)) > face_up_preference(setup_card(best)):
                best = m
        return best
    if first.kind in ("blind", "pickup"):
        return first
    plain: ShitheadMove | None = None
    special: dict[int, Move] = {}
    for move in legal_moves:
        m = shithead_move(move)
        rank, count = m.rank, m.count
        if rank in _SPECIAL:
            if count == 1:
                special[rank] = m
            continue
        if plain is None or _POWER_OF_VALUE[rank] < _POWER_OF_VALUE[plain.rank] or \
                (rank == plain.rank and count > plain.count):
            plain = m
    if plain is not None:
        return plain
    return special.get(int(Rank.TEN)) or special[int(Rank.TWO)]




class UninformedShithead:
    """The ``uninformed`` player (see the module notes)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def __call__(self, view: Any, legal_moves: Sequence[Move]) -> Move:
        first = legal_moves[0]
        if first.kind == "setup":
            card = view.hand[int(self.rng.integers(len(view.hand)))]
            return next(m for m in legal_moves if setup_card(m).face == card.face)
        if first.kind in ("blind", "pickup"):
            return first
        singles = {shithead_move(m).rank: m for m in legal_moves if shithead_move(m).count == 1}
        if shithead_move(first).source == "up":
            ranks = sorted(singles)
            return singles[ranks[int(self.rng.integers(len(ranks)))]]
        fitting = [int(c.rank) for c in view.hand if int(c.rank) in singles]
        return singles[fitting[int(self.rng.integers(len(fitting)))]]

    def __repr__(self) -> str:
        return "UninformedShithead()"


def uninformed_shithead(rng: np.random.Generator) -> Any:
    """A new :class:`UninformedShithead` drawing from ``rng``."""
    return UninformedShithead(rng)
