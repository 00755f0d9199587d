"""Shithead's questions for the panels and notebooks: face-down and draw-pile cards, picking up.

Exact answers read the game's chance law; estimates resample the hidden cards and play on with the
greedy bot (see :mod:`cardlab.sim.prob` for the viewpoint and the intervals).
"""

from __future__ import annotations

import importlib
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np

from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError
from cardlab.sim.prob import Quantity, anytime, certain, expect_game, fast_share, play_on, require_rng
from cardlab.sim.stats import Estimate, wilson

NAME = "shithead"


def fast_module(game: Game[Any]) -> Any | None:
    """The integer play-out module when it handles this game's options (else the engine plays on)."""
    expect_game(game, None)
    try:
        module = importlib.import_module("cardlab.sim.fast_shithead")
    except ImportError:
        return None
    return module if module.supports(game) else None


def shithead_blind_reason(game: Game[Any]) -> str | None:
    """Why "a face-down card fits" has no meaning here (None when it has one)."""
    expect_game(game, NAME)
    if game.is_over:
        return "the game is over"
    if not any(c is not None for d in game.state.face_down for c in d):
        return "no face-down card is left"
    return None


def shithead_blind_fits(game: Game[Any], viewpoint: int | None = None) -> Fraction:
    """Exact chance that a face-down card fits the pile now.

    Nobody has seen a face-down card, the owner included, so by the game's chance law it is equally
    likely to be any card the viewer cannot locate: the answer counts the unseen cards that fit. Raises
    :class:`~cardlab.errors.InvalidInputError` when no face-down card is left.
    """
    expect_game(game, NAME)
    game.check_seat(viewpoint, "shithead_blind_fits")
    reason = shithead_blind_reason(game)
    if reason is not None:
        raise InvalidInputError(f"shithead_blind_fits is not applicable: {reason}")
    law = game.chance_law(viewpoint)  # type: ignore[attr-defined]
    return law.chance(0, lambda c: bool(game.fits(c)))  # type: ignore[attr-defined, no-any-return]


def shithead_draw_reason(game: Game[Any]) -> str | None:
    """Why "the top of the draw pile fits" has no meaning here (None when it has one)."""
    expect_game(game, NAME)
    if game.is_over:
        return "the game is over"
    if not game.state.draw:
        return "the draw pile is empty"
    return None


def shithead_draw_top_fits(game: Game[Any], viewpoint: int | None = None) -> Fraction:
    """Exact chance that the top of the draw pile fits the pile now.

    The draw pile's top is, like a face-down card, any unseen card with equal chance under the game's
    chance law — so while both exist the two answers agree: a lesson in exchangeability. Raises
    :class:`~cardlab.errors.InvalidInputError` when the draw pile is empty.
    """
    expect_game(game, NAME)
    game.check_seat(viewpoint, "shithead_draw_top_fits")
    reason = shithead_draw_reason(game)
    if reason is not None:
        raise InvalidInputError(f"shithead_draw_top_fits is not applicable: {reason}")
    law = game.chance_law(viewpoint)  # type: ignore[attr-defined]
    top = max(i for i, name in enumerate(law.names) if name == "draw")
    return law.chance(top, lambda c: bool(game.fits(c)))  # type: ignore[attr-defined, no-any-return]


def shithead_mover_picks_up(game: Game[Any], viewpoint: int | None = None) -> Fraction:
    """Exact chance, under the chance law, that the player to move picks up the pile in this turn.

    Modelling caveat, measured: seen by the table, this undershoots real greedy play by about a third
    (the unseen part of a hand holds the cards its owner chose to keep; see the module notes).

    A pick-up can only be the turn's first action: after a 10 or a clear the pile is empty and anything
    fits. Playing from the hand, the mover picks up when no hand card fits: 0 if a card the viewer
    knows fits; otherwise, with ``u`` hand cards the viewer has not seen, drawn by the chance law from
    the ``N`` unseen cards of which ``F`` fit, the hypergeometric ``C(N - F, u) / C(N, u)``. From the
    face-up cards (all public) it is 0 or 1; blind from a face-down card it is the share of unseen
    cards that do not fit. Raises :class:`~cardlab.errors.InvalidInputError` in the set-up or once the
    game is over.
    """
    expect_game(game, NAME)
    game.check_seat(viewpoint, "shithead_mover_picks_up")
    s = game.state
    if game.is_over or s.phase == "setup":
        raise InvalidInputError("shithead_mover_picks_up is not applicable: "
                                + ("the game is over" if game.is_over else "the set-up is not finished"))
    seat = game.current_player
    fits = game.fits  # type: ignore[attr-defined]
    source = game.source(seat)  # type: ignore[attr-defined]
    if source == "up":
        return Fraction(0 if any(fits(c) for c in s.face_up[seat]) else 1)
    law = game.chance_law(viewpoint)  # type: ignore[attr-defined]
    unseen = law.faces()
    fitting = sum(1 for c in unseen if fits(c))
    if source == "down":
        return Fraction(len(unseen) - fitting, len(unseen))
    if viewpoint == seat:
        return Fraction(0 if any(fits(c) for c in s.hands[seat]) else 1)
    if any(fits(c) for c in s.known[seat]):
        return Fraction(0)
    hidden = sum(1 for name in law.names if name == f"hand {seat}")
    return Fraction(comb(len(unseen) - fitting, hidden), comb(len(unseen), hidden))


def shithead_must_pick_up(game: Game[Any], seat: int, viewpoint: int | None = None, *,
                          rollouts: int | None = None, budget_s: float | None = None,
                          rng: np.random.Generator | None = None) -> Estimate:
    """Chance that ``seat`` picks up the pile on its next turn (greedy play until then and in it)."""
    expect_game(game, NAME)
    gen = require_rng(rng)
    game.check_seat(seat, "shithead_must_pick_up")
    if game.is_over:
        return certain(False)
    module = fast_module(game)
    if module is not None:
        return fast_share(lambda size: module.must_pick_up(game, seat, viewpoint, size, gen), rollouts, budget_s)

    def trial() -> list[float]:
        g = game.resample(viewpoint, gen)
        play_on(g, gen, stop=lambda x: x.current_player == seat and _turn_start(x))
        if g.is_over:
            return [0.0]
        turn = g.turns
        mark = len(g.events)
        play_on(g, gen, stop=lambda x: x.turns != turn)
        return [1.0 if any(_is_pickup(e, seat) for e in g.events[mark:]) else 0.0]

    totals, n = anytime(trial, 1, rollouts, budget_s)
    return wilson(float(totals[0]), n)


def _is_pickup(event: Any, seat: int) -> bool:
    """A pick-up by ``seat``: nothing fitted, or its blind face-down card did not fit."""
    if event.seat != seat:
        return False
    return bool(event.kind == "pickup" or (event.kind == "blind" and not event.data.get("fits", True)))


def _turn_start(game: Game[Any]) -> bool:
    return bool(getattr(game.state, "phase", "play") != "setup")


def panel(game: Game[Any], viewpoint: int | None, *, rng: np.random.Generator, rollouts: int | None = None,
          budget_s: float | None = None) -> list[Quantity]:
    """The Shithead panel: face-down and draw-pile cards (exact), each seat picking up (exact for the mover,
    else estimated)."""
    gen = rng
    out: list[Quantity] = []
    if not game.is_over:
        label = "a face-down card fits the pile"
        reason = shithead_blind_reason(game)
        out.append(Quantity.not_applicable("blind_fits", label, reason) if reason is not None else
                   Quantity.from_exact("blind_fits", label, shithead_blind_fits(game, viewpoint)))
        label = "top of the draw pile fits"
        reason = shithead_draw_reason(game)
        out.append(Quantity.not_applicable("draw_top_fits", label, reason) if reason is not None else
                   Quantity.from_exact("draw_top_fits", label, shithead_draw_top_fits(game, viewpoint)))
        for seat in range(game.players):
            if seat in getattr(game.state, "ranking", []):
                continue
            label = f"seat {seat} picks up on its next turn"
            if seat == game.current_player and game.state.phase != "setup":
                # exact under the uniform chance law; greedy play picks up more often (see the notes)
                label = f"seat {seat} picks up in this turn (uniform model)"
                out.append(Quantity.from_exact("must_pick_up", label,
                                               shithead_mover_picks_up(game, viewpoint), seat))
                continue
            out.append(Quantity.from_estimate(
                "must_pick_up", label,
                shithead_must_pick_up(game, seat, viewpoint, rollouts=rollouts, budget_s=budget_s, rng=gen),
                seat))
    return out
