"""Players whose choices carry as little information about their hidden cards as the rules allow.

The chance laws assume that the players' choices say nothing about their hidden cards. Calibrating the
exact predictions against games of such players tests the law itself: a miss there is a modelling
error (a public fact the law ignores, such as a forced pick-up), not the assumption failing. Games of
the greedy bots, whose choices do depend on their cards, measure how well the assumption holds.

* **Spite and Malice.** Moves of public cards only (payoff top, side-pile tops) are taken at random
  when there are any, half of the time; otherwise the player picks a hand card by a uniformly random
  slot and plays it to a random centre pile that takes it, or, if none does, discards it onto a
  random side pile. The only choice involving a hidden card is the slot, and it is uniform: exactly
  the reading of the chance law (the card a hidden hand puts down is a uniformly random card of it).
* **Shithead.** Set-up: three hand cards picked by uniformly random slots go face up. Play from the
  hand: a uniformly random card among those that fit, one card at a time. Face-up and face-down
  plays, and pick-ups, are decided by the rules or public cards alone (face-down: lowest position).
  Which card fits still depends on the hand, so these choices are not free of information; they are
  as close to it as the rule "a player who can play must play" permits.
* **Garbage** has no choice that depends on a hidden card, so its greedy bot serves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cardlab.engine.game import Move
from cardlab.games.shithead.rules import setup_card, shithead_move
from cardlab.games.spite_malice.rules import hand_card, spite_move
from cardlab.policies import Policy, make_policy


class UninformedSpite:
    """Spite and Malice: public moves at random, else a uniformly random hand slot, played or discarded."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def __call__(self, view: Any, legal: Sequence[Move]) -> Move:
        public = [m for m in legal if m.kind in ("payoff", "side")]
        if public and self.rng.random() < 0.5:
            return public[int(self.rng.integers(len(public)))]
        if not view.hand:  # nothing in hand (the turn goes on with public cards only)
            return legal[int(self.rng.integers(len(legal)))]
        card = view.hand[int(self.rng.integers(len(view.hand)))]
        hand_moves = [spite_move(m) for m in legal if m.kind in ("hand", "discard")]
        same = [m for m in hand_moves if hand_card(m).face == card.face]
        to_centre = [m for m in same if m.kind == "hand"]
        pool = to_centre or same
        return pool[int(self.rng.integers(len(pool)))]


class UninformedShithead:
    """Shithead: random set-up slots; from the hand, a uniformly random fitting card, one at a time."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def __call__(self, view: Any, legal: Sequence[Move]) -> Move:
        first = legal[0]
        if first.kind == "setup":
            card = view.hand[int(self.rng.integers(len(view.hand)))]
            return next(m for m in legal if setup_card(m).face == card.face)
        if first.kind in ("blind", "pickup"):
            return first
        singles = {shithead_move(m).rank: m for m in legal if shithead_move(m).count == 1}
        if shithead_move(first).source == "up":
            ranks = list(singles)
            return singles[ranks[int(self.rng.integers(len(ranks)))]]
        fitting = [int(c.rank) for c in view.hand if int(c.rank) in singles]
        return singles[fitting[int(self.rng.integers(len(fitting)))]]


def calibration_policy(name: str, kind: str, rng: np.random.Generator) -> Policy:
    """``kind``: "uninformed" (the players above), or a built-in policy name ("greedy", "random")."""
    if kind != "uninformed":
        return make_policy(kind, name, rng)
    if name == "spite-and-malice":
        return UninformedSpite(rng)
    if name == "shithead":
        return UninformedShithead(rng)
    return make_policy("greedy", name, rng)
