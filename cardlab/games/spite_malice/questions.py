"""Spite and Malice's questions for the panels and notebooks: the next stock card, the payoff card.

Exact answers read the game's chance law; estimates draw the hidden cards from it and play on with the
greedy bot in the game's kernel (:mod:`cardlab.games.spite_malice.kernel`; see :mod:`cardlab.sim.prob` for
the viewpoint and the intervals).
"""

from __future__ import annotations

from fractions import Fraction
from typing import cast

import numpy as np

from cardlab.cards import Card
from cardlab.chance.estimates import Quantity, certain, expect_game, fast_share, require_rng
from cardlab.chance.stats import Estimate
from cardlab.errors import InvalidInputError
from cardlab.games.spite_malice.rules import SpiteMalice, SpiteMaliceView

NAME = "spite-and-malice"


QUESTIONS = ("spite_next_stock_playable", "spite_payoff_playable_now", "spite_payoff_this_turn")
"""The questions :mod:`cardlab.sim.prob` re-exports (``prob.<name>``), by name."""


def spite_next_stock_playable(game: SpiteMalice, viewpoint: int | None = None) -> Fraction:
    """Exact chance that the next stock card can go on some centre pile right now.

    The game's chance law gives the exact law of the top stock card as the viewer knows it
    (``next_draw_chances``): uniform over the never-seen cards (tied payoff tops excluded: they are
    known to be in the payoff piles) while the deal's rest is on top, or over the unlocated cards of a
    completed pile put under the stock once play has reached it. The answer adds up the chances of the
    faces that fit a centre pile. Not applicable (an error) when the stock is empty.
    """
    expect_game(game, NAME)
    game.check_seat(viewpoint, "spite_next_stock_playable")
    if not game.state.stock:
        raise InvalidInputError("spite_next_stock_playable is not applicable: the stock is empty")
    chances: dict[Card, Fraction] = game.next_draw_chances(viewpoint)
    fits = game.can_play_on_centre
    return sum((p for c, p in chances.items() if fits(c)), Fraction(0))


def spite_payoff_playable_now(game: SpiteMalice, viewpoint: int | None = None) -> Fraction:
    """Exact chance that the mover's payoff top can go straight onto a centre pile.

    Payoff tops and centre piles are face up, so every viewer knows the answer: it is 0 or 1.
    """
    expect_game(game, NAME)
    game.check_seat(viewpoint, "spite_payoff_playable_now")
    top = cast(SpiteMaliceView, game.observe(viewpoint)).payoff_tops[game.current_player]
    return Fraction(1 if top is not None and game.can_play_on_centre(top) else 0)


def spite_payoff_this_turn(game: SpiteMalice, viewpoint: int | None = None, *, rollouts: int | None = None,
                           budget_s: float | None = None, rng: np.random.Generator | None = None) -> Estimate:
    """Chance that the player to move plays at least one payoff card before the turn ends (greedy play in
    both seats, the hidden cards drawn from the chance law for each play-out; the kernel's
    :func:`~cardlab.games.spite_malice.kernel.payoff_this_turn`)."""
    expect_game(game, NAME)
    gen = require_rng(rng)
    game.check_seat(viewpoint, "spite_payoff_this_turn")
    if game.is_over:
        return certain(False)
    from cardlab.games.spite_malice import kernel  # loads numba: imported on first use

    return fast_share(lambda size: kernel.payoff_this_turn(game, viewpoint, size, gen), rollouts, budget_s)


def panel(game: SpiteMalice, viewpoint: int | None, *, rng: np.random.Generator, rollouts: int | None = None,
          budget_s: float | None = None) -> list[Quantity]:
    """The Spite and Malice panel: the next stock card and the mover's payoff top (exact), a payoff card this
    turn (estimate)."""
    gen = rng
    out: list[Quantity] = []
    if not game.is_over:
        if game.state.stock:
            out.append(Quantity.from_exact("next_stock", "next stock card fits a centre pile",
                                           spite_next_stock_playable(game, viewpoint)))
        else:
            out.append(Quantity.not_applicable("next_stock", "next stock card fits a centre pile",
                                               "the stock is empty"))
        out.append(Quantity.from_exact("payoff_now", "payoff top playable now",
                                       spite_payoff_playable_now(game, viewpoint), game.current_player))
        out.append(Quantity.from_estimate(
            "payoff_this_turn", "payoff card played this turn with greedy play",
            spite_payoff_this_turn(game, viewpoint, rollouts=rollouts, budget_s=budget_s, rng=gen),
            game.current_player))
    return out
