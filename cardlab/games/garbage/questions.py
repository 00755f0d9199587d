"""Garbage's questions for the panels and notebooks: the next stock card, completion within k turns.

Exact answers read the game's chance law; estimates resample the hidden cards and play on with the
greedy bot (see :mod:`cardlab.sim.prob` for the viewpoint and the intervals).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from cardlab.chance.estimates import Quantity, anytime_counts, certain, expect_game, fraction_of, require_rng
from cardlab.chance.stats import Estimate, wilson
from cardlab.errors import InvalidInputError, shown
from cardlab.games.garbage.rules import Garbage

NAME = "garbage"

QUESTIONS = ("garbage_next_drawer", "garbage_next_card_reason", "garbage_next_card_placeable", "completion_curves",
             "completion_curve", "completion_probability")
"""The questions :mod:`cardlab.sim.prob` re-exports (``prob.<name>``), by name."""


def garbage_next_drawer(game: Garbage) -> int | None:
    """The seat whose turn starts next, which draws the next stock card unless it takes the discard instead:
    the player to move while its turn has not started (phase "draw"), else the player after it (in the
    middle of a chain the current turn ends with a discard first). ``None`` when the game is over or this
    turn is the last of the hand."""
    expect_game(game, NAME)
    s = game.state
    if game.is_over:
        return None
    if s.phase == "draw":
        return int(s.to_move)
    if s.last_turns:
        rest = s.last_turns[1:]
        return int(rest[0]) if rest else None
    return (int(s.to_move) + 1) % game.players


def garbage_next_card_reason(game: Garbage) -> str | None:
    """Why "the next stock card can be used" has no meaning here, or None when it has one."""
    expect_game(game, NAME)
    if game.is_over:
        return "the game is over"
    if garbage_next_drawer(game) is None:
        return "this is the hand's last turn: nobody draws again"
    s = game.state
    if not s.stock and not s.discard:
        return "the stock and the discard pile are empty: the hand is drawn when this turn ends"
    return None


def garbage_next_card_placeable(game: Garbage, viewpoint: int | None = None) -> Fraction:
    """Exact chance that the next stock card can be used by the seat whose turn starts next
    (:func:`garbage_next_drawer`), if the hand goes on until then.

    At the start of a turn that is the player to move; in the middle of a chain (a wild to place, a
    wild to displace) it is the next player, whose layout cannot change before then. That seat draws the
    card unless it takes the discard instead (then the next seat does): the chance is for the seat, not for
    whoever happens to draw the card. The card is read
    from the game's chance law: before any reshuffle it is equally likely to be any card nobody has seen
    (face-down layout cards and the stock); after a reshuffle the stock is a known multiset of seen cards
    in random order. With an empty stock in the middle of a chain, the next card comes from the discard
    pile reshuffled when the turn passes: every card of the discard pile as it is now (the card that ends
    this turn stays on top), each equally likely. "Used" means placed on its face-down spot, displacing
    a face-up wild on its spot, or a wild with a face-down spot left. Raises
    :class:`~cardlab.errors.InvalidInputError` when the question has no meaning
    (:func:`garbage_next_card_reason`).
    """
    expect_game(game, NAME)
    game.check_seat(viewpoint, "garbage_next_card_placeable")
    reason = garbage_next_card_reason(game)
    seat = garbage_next_drawer(game)
    if reason is not None or seat is None:  # a seat draws next whenever the question has a meaning
        raise InvalidInputError(f"garbage_next_card_placeable is not applicable: {reason}")
    usable = game.can_use
    state = game.state
    if not state.stock:
        return fraction_of(state.discard, lambda c: bool(usable(seat, c)))
    law = game.chance_law(viewpoint)
    return law.chance(len(law.names) - 1, lambda c: bool(usable(seat, c)))


def completion_curves(game: Garbage, ks: Sequence[int] = (1, 2, 3, 4, 5), viewpoint: int | None = None, *,
                      rollouts: int | None = None, budget_s: float | None = None,
                      rng: np.random.Generator | None = None) -> list[list[Estimate]]:
    """For every seat and each k in ``ks``: the chance that the seat completes its Garbage layout within
    its next k turns, in play-outs that stop when the hand ends. One set of play-outs serves all seats
    (``result[seat][i]`` is for ``ks[i]``).

    The hand ends at its first completion (unless ``last_round``), so a seat that completes has won the
    hand: this is the chance of **winning** within k turns, and it levels off at the seat's win chance,
    not at 1. (How long a layout takes on its own, with nobody stopping it, is another question.)

    The play-outs are greedy, on the game's kernel (:func:`cardlab.games.garbage.kernel.completion_turns`):
    each draws the hidden cards from the game's chance law as ``viewpoint`` knows it."""
    expect_game(game, NAME)
    gen = require_rng(rng)
    if not isinstance(ks, (list, tuple, range, np.ndarray)) or not len(ks) or any(
            isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1 for k in ks):
        raise InvalidInputError(f"ks={shown(ks)} is not allowed; give a list of whole numbers of turns >= 1")
    ks = [int(k) for k in ks]
    game.check_seat(viewpoint, "completion_curves")
    if game.is_over:
        return [[certain(seat in game.state.completed) for _ in ks] for seat in range(game.players)]
    from cardlab.games.garbage.kernel import completion_turns  # loads numba: imported on first use

    def batch(size: int) -> np.ndarray:
        done = completion_turns(game, viewpoint, size, gen)[1]  # (size, players) own turns to complete, 0 = never
        return np.stack([(done > 0) & (done <= k) for k in ks], axis=2)  # (size, players, len(ks))

    flat, n = anytime_counts(batch, game.players * len(ks), rollouts, budget_s, batch=500)
    counts = flat.reshape(game.players, len(ks))
    return [[wilson(float(c), n) for c in row] for row in counts]


def completion_curve(game: Garbage, seat: int, ks: Sequence[int] = (1, 2, 3, 4, 5),
                     viewpoint: int | None = None, *, rollouts: int | None = None, budget_s: float | None = None,
                     rng: np.random.Generator | None = None) -> list[Estimate]:
    """For each k in ``ks``: the chance that ``seat`` completes its Garbage layout within its next k turns."""
    expect_game(game, NAME)
    if seat is None:
        raise InvalidInputError("completion_curve needs a seat, not None")
    game.check_seat(seat, "completion_curve")
    return completion_curves(game, ks, viewpoint, rollouts=rollouts, budget_s=budget_s, rng=rng)[seat]


def completion_probability(game: Garbage, seat: int, within: int, viewpoint: int | None = None, *,
                           rollouts: int | None = None, budget_s: float | None = None,
                           rng: np.random.Generator | None = None) -> Estimate:
    """The chance that ``seat`` completes its Garbage layout within its next ``within`` turns."""
    return completion_curve(game, seat, (within,), viewpoint, rollouts=rollouts, budget_s=budget_s, rng=rng)[0]


def panel(game: Garbage, viewpoint: int | None, *, rng: np.random.Generator, rollouts: int | None = None,
          budget_s: float | None = None) -> list[Quantity]:
    """The Garbage panel: the next stock card (exact) and each seat's chance to win within k turns."""
    gen = rng
    out: list[Quantity] = []
    if not game.is_over:
        seat = garbage_next_drawer(game)
        # which seat the chance is for (garbage_next_drawer): the player to move before its turn starts, else the
        # next player; either may take the discard instead of drawing, so the label names the seat, not the drawer
        label = "next stock card can be used by the next player"
        if seat is not None:
            label = (f"next stock card can be used by seat {seat} (to move)" if game.state.phase == "draw" else
                     f"next stock card can be used by seat {seat} (the next player)")
        reason = garbage_next_card_reason(game)
        out.append(Quantity.not_applicable("next_card", label, reason, seat) if reason is not None else
                   Quantity.from_exact("next_card", label, garbage_next_card_placeable(game, viewpoint), seat))
    # The play-outs stop when the hand ends, at its first completion (its winner): a seat that
    # "completes within k turns" there has won within k turns, so that is what the curve is called.
    curves = completion_curves(game, (1, 2, 3, 4, 5), viewpoint, rollouts=rollouts, budget_s=budget_s, rng=gen)
    for seat, curve in enumerate(curves):
        for k, est in enumerate(curve, start=1):
            turns = "1 turn" if k == 1 else f"{k} turns"
            out.append(Quantity.from_estimate(f"complete_{k}", f"seat {seat} wins within {turns}", est, seat))
    return out
