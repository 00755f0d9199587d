"""Shithead's questions for the panels and notebooks: face-down and draw-pile cards, picking up.

Exact answers read the game's chance law (:meth:`Shithead.chance_law
<cardlab.games.shithead.rules.Shithead.chance_law>`), which conditions on what forced pick-ups showed
(a hand that had to pick up held only ordinary ranks below the top, a chain of limits, sometimes a
mixture) and still assumes that the players' choices carry no information about their unseen cards.
So a face-down card and the draw pile's top are no longer simply "any unseen card": the unseen cards
that a hand is known to hold low make the other places likelier to hold high ones. Estimates play on
with the greedy bot in the game's kernel (:mod:`.kernel`), the hidden cards drawn from the same law for
each play-out (see :mod:`cardlab.sim.prob` for the viewpoint and the intervals).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import numpy as np

from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError
from cardlab.games.shithead import kernel
from cardlab.sim.prob import Quantity, anytime_counts, certain, expect_game, require_rng
from cardlab.sim.stats import Estimate, wilson

NAME = "shithead"


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

    Nobody has seen a face-down card, the owner included; by the game's chance law it is one of the
    cards the viewer cannot locate, each weighted by the chance that it is not held by a hand that had
    to pick up (without such a hand: the share of unseen cards that fit). Raises
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

    Nobody has seen the draw pile's top or a face-down card, and no pick-up limits them: under the
    game's chance law they are exchangeable, so while both exist the two answers agree (a lesson in
    exchangeability). Raises :class:`~cardlab.errors.InvalidInputError` when the draw pile is empty.
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

    Modelling caveat, measured: the law treats choices as carrying no information, and a greedy
    player keeps its low cards in hand, so against greedy play this undershoots (see the module notes).

    A pick-up can only be the turn's first action: after a 10 or a clear the pile is empty and anything
    fits. Playing from the hand, the mover picks up when no hand card fits: 0 if a card the viewer
    knows fits; otherwise the chance that every hand card the viewer has not seen is among the unseen
    cards that do not fit (ordinary ranks below the top: a prefix of the law's chain), a ratio of two
    counts of assignments (:meth:`ChanceLaw.within <cardlab.sim.chance.ChanceLaw.within>`), summed over
    the law's components by weight. Without earlier pick-ups of that hand this is the hypergeometric
    ``C(N - F, u) / C(N, u)`` (``u`` unseen hand cards, ``N`` unseen cards of which ``F`` fit). From the
    face-up cards (all public) it is 0 or 1; blind from a face-down card it is the law's chance that the
    mover's face-down card does not fit. Raises :class:`~cardlab.errors.InvalidInputError` in the
    set-up or once the game is over.
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
    if source == "down":
        place = law.names.index(f"down {seat}")
        return 1 - law.chance(place, lambda c: bool(fits(c)))  # type: ignore[no-any-return]
    if viewpoint == seat:
        return Fraction(0 if any(fits(c) for c in s.hands[seat]) else 1)
    if any(fits(c) for c in s.known[seat]):
        return Fraction(0)
    hand = [q for q, name in enumerate(law.names) if name == f"hand {seat}"]
    total = Fraction(0)
    for weight, comp in law.components:
        short = sum(1 for c in comp.cards if not fits(c))
        if not any(g.limits for g in comp.groups):  # one group, nothing limited: the hypergeometric
            n = len(comp.cards)
            total += weight * Fraction(comb(short, len(hand)), comb(n, len(hand)))
            continue
        assert not any(not fits(c) for c in comp.cards[short:]), "the cards that do not fit are a prefix"
        total += weight * comp.within(hand, short)
    return total


def shithead_must_pick_up(game: Game[Any], seat: int, viewpoint: int | None = None, *,
                          rollouts: int | None = None, budget_s: float | None = None,
                          rng: np.random.Generator | None = None) -> Estimate:
    """Chance that ``seat`` picks up the pile on its next turn (greedy play until then and in it): the
    share of :func:`kernel.must_pick_up <cardlab.games.shithead.kernel.must_pick_up>` play-outs in which
    that turn ends by picking up the pile (no card fitted, or its blind face-down card did not)."""
    expect_game(game, NAME)
    gen = require_rng(rng)
    game.check_seat(seat, "shithead_must_pick_up")
    if game.is_over:
        return certain(False)
    counts, n = anytime_counts(lambda size: kernel.must_pick_up(game, seat, viewpoint, size, gen), 1, rollouts,
                               budget_s, batch=kernel.BATCH)
    return wilson(float(counts[0]), n)


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
                # exact under the chance law (uniform over the arrangements that respect forced pick-ups:
                # choices carry no information); greedy play picks up more often (see the notes)
                label = f"seat {seat} picks up in this turn (uniform model)"
                out.append(Quantity.from_exact("must_pick_up", label,
                                               shithead_mover_picks_up(game, viewpoint), seat))
                continue
            out.append(Quantity.from_estimate(
                "must_pick_up", label,
                shithead_must_pick_up(game, seat, viewpoint, rollouts=rollouts, budget_s=budget_s, rng=gen),
                seat))
    return out
