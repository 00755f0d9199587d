"""The Spite and Malice ``greedy`` bot.

Exact definition (the preferences it reads, :func:`~cardlab.games.spite_malice.rules.distance`,
:func:`~cardlab.games.spite_malice.rules.payoff_preference` and
:func:`~cardlab.games.spite_malice.rules.discard_class`, are stated once in the rules module, where the
kernel tabulates them too). Let ``t`` be the value of the bot's payoff top (Ace 1 … Queen 12; a King is wild).
A centre pile at value ``v`` is at *distance* ``t - 1 - v`` from taking the payoff top when
``v <= t - 1``, and ``(12 - v) + (t - 1)`` otherwise (it must be completed and rebuilt first). For a
King payoff top the distance is 0 for a non-empty pile, and for an empty pile 0 if a King may start
it, else 1.

1. **Payoff.** If the payoff top can be played, play it: a numbered card on the lowest-numbered pile
   that takes it; a King on the non-empty pile with the highest value (ties: lowest number), or, if
   every pile is empty, on centre 1.
2. **Cards that lead toward it.** Otherwise play a non-King card that fits a centre pile, side-pile
   tops before hand cards. Every such play brings its pile one step closer to the payoff top, so the
   choice is: the pile with the smallest distance, then the lowest side number (or the lowest hand
   card), then the lowest pile number.
3. **Kings last.** If no such play exists, count the Kings the bot could reach (side-pile tops and
   hand). If some pile's distance is at most that count, play a King on the pile with the smallest
   distance (ties: lowest number), from the lowest-numbered side pile topped by a King, else from the
   hand. Otherwise Kings are kept.
4. **Discard.** Put a hand card on a side pile, keeping side piles descending. Kings are discarded
   only when the hand holds nothing else. Each (card c, side pile) pair gets a class: 0 if the pile's
   top is c + 1; 1 if the top is higher than c + 1 (a smaller gap is better); 2 if the pile is empty;
   3 if the top equals c; 4 if the top is lower than c (a smaller gap is better). The bot takes the
   lowest class, then the smallest gap, then the highest card, then the lowest pile number, then the
   lowest card (suits in the order ♠ ♥ ♦ ♣).

The ``uninformed`` player (:class:`UninformedSpiteMalice`) chooses without looking at what its hidden
cards are: half of the time, when there is one, it makes a move of a face-up card (payoff top or a side-pile
top) chosen uniformly; otherwise it picks a hand card by a uniformly random slot, plays it to a centre pile
that takes it (chosen uniformly) or, if none does, discards it onto a uniformly chosen side pile. The
only choice that involves a hidden card is the slot, and it is uniform: the card a hidden hand puts down is
a uniformly random card of it, exactly the reading of the chance law (:mod:`cardlab.games.spite_malice.rules`).
The greedy bot, which plays every card that fits before it discards, breaks that assumption.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cardlab.cards import Card, Rank
from cardlab.engine.game import Move
from cardlab.games.spite_malice.rules import (
    SpiteMaliceView,
    SpiteMove,
    discard_class,
    distance,
    hand_card,
    payoff_preference,
    spite_move,
)


def value_of(card: Card) -> int:
    return int(card.rank)


def payoff_distance(view: SpiteMaliceView, pile: int) -> int:
    """How many cards centre ``pile`` (from 1) needs before it takes the mover's payoff top."""
    top = view.payoff_tops[view.to_move]
    return distance(None if top is None else value_of(top), view.centre_values[pile - 1], view.king_starts_pile)


def _discard_key(card: Card, pile: tuple[Card, ...], j: int) -> tuple[int, int, int, int, Card]:
    c = value_of(card)
    cls, gap = discard_class(c, value_of(pile[-1]) if pile else None)
    return (cls, gap, -c, j, card)


PREFERENCE = ("payoff", "side", "hand", "king", "discard")
"""**The greedy preference**: the bot's steps (1-4 of the module notes, the Kings step 3) in the order it tries
them; the first step that offers a move decides. The engine's bot (:func:`greedy_spite_malice`) and the
kernel (which tabulates this order, :func:`cardlab.games.spite_malice.kernel.rule_tables`) both read it here.
Each step's own choice among its moves is :data:`STEPS`."""


def _side_card(view: SpiteMaliceView, m: SpiteMove) -> Card:
    card: Card = view.sides[view.to_move][m.side - 1][-1]
    return card


def _payoff_step(view: SpiteMaliceView, by_kind: dict[str, list[SpiteMove]]) -> SpiteMove | None:
    """1. The payoff top, on the pile with the smallest ``(payoff_preference, pile)``."""
    payoff = by_kind.get("payoff", [])
    if not payoff:
        return None
    top = view.payoff_tops[view.to_move]
    rank = value_of(top) if top is not None else int(Rank.KING)
    return min(payoff, key=lambda m: (payoff_preference(rank, view.centre_values[m.centre - 1]), m.centre))


def _side_step(view: SpiteMaliceView, by_kind: dict[str, list[SpiteMove]]) -> SpiteMove | None:
    """2. A side-pile top that fits, never a King: the smallest ``(distance, side, pile)``."""
    plays = [m for m in by_kind.get("side", []) if _side_card(view, m).rank != Rank.KING]
    return min(plays, key=lambda m: (payoff_distance(view, m.centre), m.side, m.centre)) if plays else None


def _hand_step(view: SpiteMaliceView, by_kind: dict[str, list[SpiteMove]]) -> SpiteMove | None:
    """2. A hand card that fits, never a King: the smallest ``(distance, card, pile)``."""
    plays = [m for m in by_kind.get("hand", []) if hand_card(m).rank != Rank.KING]
    return min(plays, key=lambda m: (payoff_distance(view, m.centre), hand_card(m), m.centre)) if plays else None


def _king_step(view: SpiteMaliceView, by_kind: dict[str, list[SpiteMove]]) -> SpiteMove | None:
    """3. A King on the pile with the smallest ``(distance, pile)`` if that distance is at most the Kings in
    reach (side-pile tops and hand), from the lowest side pile topped by a King, else the lowest King in hand."""
    king_sides = [m for m in by_kind.get("side", []) if _side_card(view, m).rank == Rank.KING]
    king_hand = [m for m in by_kind.get("hand", []) if hand_card(m).rank == Rank.KING]
    if not king_sides and not king_hand:
        return None
    kings = sum(1 for p in view.sides[view.to_move] if p and p[-1].rank == Rank.KING)
    kings += sum(1 for c in view.hand or () if c.rank == Rank.KING)
    if king_sides:
        best = min(king_sides, key=lambda m: (payoff_distance(view, m.centre), m.centre, m.side))
    else:
        best = min(king_hand, key=lambda m: (payoff_distance(view, m.centre), m.centre, hand_card(m)))
    return best if payoff_distance(view, best.centre) <= kings else None


def _discard_step(view: SpiteMaliceView, by_kind: dict[str, list[SpiteMove]]) -> SpiteMove | None:
    """4. A discard: the smallest ``(class, gap, -rank, side, card)``; Kings only when the hand holds nothing
    else."""
    discards = by_kind.get("discard", [])
    plain = [m for m in discards if hand_card(m).rank != Rank.KING]
    pool = plain or discards
    sides = view.sides[view.to_move]
    return min(pool, key=lambda m: _discard_key(hand_card(m), sides[m.side - 1], m.side)) if pool else None


STEPS = {"payoff": _payoff_step, "side": _side_step, "hand": _hand_step, "king": _king_step,
         "discard": _discard_step}
"""Each step of :data:`PREFERENCE`: its best move, or None when it offers none."""


def greedy_spite_malice(view: SpiteMaliceView, legal_moves: Sequence[Move]) -> Move:
    """The greedy bot: the move of the first step of :data:`PREFERENCE` that offers one (else the first legal
    move)."""
    by_kind: dict[str, list[SpiteMove]] = {}
    for m in legal_moves:
        by_kind.setdefault(m.kind, []).append(spite_move(m))
    for step in PREFERENCE:
        move = STEPS[step](view, by_kind)
        if move is not None:
            return move
    return legal_moves[0]


class UninformedSpiteMalice:
    """The ``uninformed`` player (see the module notes): face-up moves at random half of the time, else a
    uniformly random hand slot, played to a centre pile if it fits there, discarded otherwise."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def __call__(self, view: SpiteMaliceView, legal_moves: Sequence[Move]) -> Move:
        face_up = [m for m in legal_moves if m.kind in ("payoff", "side")]
        if face_up and self.rng.random() < 0.5:
            return face_up[int(self.rng.integers(len(face_up)))]
        if not view.hand:  # an empty hand (refill_on_empty=False ends the turn before this): face-up cards only
            return legal_moves[int(self.rng.integers(len(legal_moves)))]
        card = view.hand[int(self.rng.integers(len(view.hand)))]
        mine = [m for m in legal_moves if m.kind in ("hand", "discard") and hand_card(m).face == card.face]
        to_centre = [m for m in mine if m.kind == "hand"]
        choices = to_centre or mine
        return choices[int(self.rng.integers(len(choices)))]

    def __repr__(self) -> str:
        return "UninformedSpiteMalice()"


def uninformed_spite_malice(rng: np.random.Generator) -> Any:
    """A new :class:`UninformedSpiteMalice` drawing from ``rng``."""
    return UninformedSpiteMalice(rng)
