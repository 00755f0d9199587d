"""The Shithead ``greedy`` bot.

Exact definition (it looks only at the legal moves, which carry each play's rank and count, and at the
house rules in the view; both orders below are the rules' tables :meth:`House.setup_order
<cardlab.games.shithead.rules.House.setup_order>` and :meth:`House.play_order
<cardlab.games.shithead.rules.House.play_order>`, which the kernel reads too):

1. **Set-up** (choosing face-up cards, one per move). Put face up the card that is best to keep for
   the end of the game, when the face-up cards are played without a hand to help: a 10 first, then a
   2 (with ``invisible_three``, then a 3), then the highest card by power (A, K, Q, J, 9, 8, …). Among
   cards of equal preference the
   first legal move (lowest suit) is taken. Three such moves leave the three lowest ordinary cards in
   hand, which is the usual advice of the rules text: "the highest-value cards are placed face up".
2. **Play** from the hand or from the face-up cards. Among the ordinary ranks that fit (every rank but
   2 and 10), play the lowest, with **all** cards of that rank at once. 2s and 10s are kept until
   nothing else fits; then play a **single 10** if there is one (it burns the pile and the bot plays
   again), otherwise (with ``invisible_three``) a single 3, otherwise a single 2.
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

from cardlab.cards import Card
from cardlab.engine.game import Move
from cardlab.games.shithead.rules import House, setup_card, shithead_move

_SETUP_RANK = {h: {int(r): -i for i, r in enumerate(h.setup_order())} for h in House.all()}
"""Per house rules, each rank value's set-up preference (higher is put face up first)."""
_PLAY_RANK = {h: {int(r): (i, every) for i, (r, every) in enumerate(h.play_order())} for h in House.all()}
"""Per house rules, each rank value's place in the play preference and whether all its cards are played."""


DEFAULT_HOUSE = House()
"""No house rule."""


def face_up_preference(card: Card, house: House = DEFAULT_HOUSE) -> tuple[int, int]:
    """Higher is put face up first (:meth:`House.setup_order`: 10, then 2, then by power)."""
    return (_SETUP_RANK[house][int(card.rank)], 0)


def greedy_shithead(view: Any, legal_moves: Sequence[Move]) -> Move:
    house = getattr(view, "house", DEFAULT_HOUSE)
    first = legal_moves[0]
    if first.kind == "setup":
        best = first
        for m in legal_moves[1:]:
            if face_up_preference(setup_card(m), house) > face_up_preference(setup_card(best), house):
                best = m
        return best
    if first.kind in ("blind", "pickup"):
        return first
    order = _PLAY_RANK[house]
    best_key: tuple[int, int] | None = None
    chosen = first
    for move in legal_moves:
        m = shithead_move(move)
        place, every = order[m.rank]
        if not every and m.count != 1:
            continue
        key = (place, -m.count)
        if best_key is None or key < best_key:
            best_key, chosen = key, m
    return chosen




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
