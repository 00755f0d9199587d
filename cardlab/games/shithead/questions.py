"""Shithead's questions for the panels and notebooks: face-down and draw-pile cards, picking up.

Exact answers read the game's chance law (:meth:`Shithead.chance_law
<cardlab.games.shithead.rules.Shithead.chance_law>`), which reads every hidden hand through its play:
a player who can play must play, so under the law's model (a uniformly random card among those that
fit; the ``uninformed`` player) a hand that played often is likely to keep cards that did not fit, and
a hand that had to pick up held none that fitted (:mod:`.beliefs`). So a face-down card and the draw
pile's top are not simply "any unseen card": what the hands are likely to hold shifts the other places.
The law's answers are exact while at most two hands hold cards the viewer has not seen; with more, the
panel estimates them from draws of the same law (:func:`law_chance`). Other estimates play on with the
greedy bot in the game's kernel (:mod:`.kernel`), the hidden cards drawn from the same law for each
play-out (see :mod:`cardlab.sim.prob` for the viewpoint and the intervals).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from cardlab.cards import Card
from cardlab.chance.estimates import Quantity, anytime_counts, certain, expect_game, require_rng
from cardlab.chance.hands_law import HandsLaw
from cardlab.chance.stats import Estimate, wilson
from cardlab.engine.registry import registered_spec
from cardlab.engine.spec import FALLBACK_BUDGETS
from cardlab.errors import InvalidInputError
from cardlab.games.shithead.rules import Shithead

NAME = "shithead"
LAW_DRAWS = 4000
"""How many draws of the chance law estimate an answer that is not computed exactly (three or more
hidden hands), unless the caller gives ``rollouts``."""


QUESTIONS = ("shithead_blind_reason", "shithead_blind_fits", "shithead_draw_reason", "shithead_draw_top_fits",
             "shithead_mover_picks_up", "shithead_blind_fits_estimate", "shithead_draw_top_fits_estimate",
             "shithead_mover_picks_up_estimate", "shithead_must_pick_up")
"""The questions :mod:`cardlab.sim.prob` re-exports (``prob.<name>``), by name."""


def shithead_blind_reason(game: Shithead) -> str | None:
    """Why "a face-down card fits" has no meaning here (None when it has one)."""
    expect_game(game, NAME)
    if game.is_over:
        return "the game is over"
    if not any(c is not None for d in game.state.face_down for c in d):
        return "no face-down card is left"
    return None


def _free_place(law: HandsLaw, zone: str) -> int:
    """The hidden place a question about ``zone`` reads: the first face-down card (``"down"``), or the draw
    pile's top (``"draw"``, its last place)."""
    places = [q for q, name in enumerate(law.names) if name.startswith(zone)]
    return places[0] if zone == "down" else places[-1]


def _hand_of(law: HandsLaw, seat: int) -> tuple[int | None, list[int]]:
    """Seat's hand in the law: its index among the hands play has told something about (None if it is not
    one of them: nothing is known of it yet, so its places are free), and its hidden places."""
    places = [q for q, name in enumerate(law.names) if name == f"hand {seat}"]
    known = next((h for h, hand in enumerate(law.hands) if hand[0] in places), None)
    return known, places


def _law(game: Shithead, viewpoint: int | None, what: str) -> HandsLaw:
    law = game.chance_law(viewpoint)
    if not law.exact:
        raise InvalidInputError(f"{what} is computed exactly only while at most two hands hold cards the viewer "
                                f"has not seen; here {len(law.hands)} do: use {what}_estimate")
    return law


def shithead_blind_fits(game: Shithead, viewpoint: int | None = None) -> Fraction:
    """Exact chance that a face-down card fits the pile now.

    Nobody has seen a face-down card, the owner included; by the game's chance law it is one of the
    cards the viewer cannot locate that the hidden hands do not hold: a card of class ``c`` is on a
    given free place with chance ``(1 - E[cards of class c in hands] / n_c) / (free places)``. Raises
    :class:`~cardlab.errors.InvalidInputError` when no face-down card is left, or when three or more
    hands hold unseen cards (then use :func:`shithead_blind_fits_estimate`).
    """
    expect_game(game, NAME)
    game.check_seat(viewpoint, "shithead_blind_fits")
    reason = shithead_blind_reason(game)
    if reason is not None:
        raise InvalidInputError(f"shithead_blind_fits is not applicable: {reason}")
    law = _law(game, viewpoint, "shithead_blind_fits")
    return law.chance(_free_place(law, "down"), lambda c: bool(game.fits(c)))


def shithead_draw_reason(game: Shithead) -> str | None:
    """Why "the top of the draw pile fits" has no meaning here (None when it has one)."""
    expect_game(game, NAME)
    if game.is_over:
        return "the game is over"
    if not game.state.draw:
        return "the draw pile is empty"
    return None


def shithead_draw_top_fits(game: Shithead, viewpoint: int | None = None) -> Fraction:
    """Exact chance that the top of the draw pile fits the pile now.

    Nobody has seen the draw pile's top or a face-down card, and the law treats every free place alike:
    while both exist the two answers agree (a lesson in exchangeability). Raises
    :class:`~cardlab.errors.InvalidInputError` when the draw pile is empty, or when three or more hands
    hold unseen cards (then use :func:`shithead_draw_top_fits_estimate`).
    """
    expect_game(game, NAME)
    game.check_seat(viewpoint, "shithead_draw_top_fits")
    reason = shithead_draw_reason(game)
    if reason is not None:
        raise InvalidInputError(f"shithead_draw_top_fits is not applicable: {reason}")
    law = _law(game, viewpoint, "shithead_draw_top_fits")
    return law.chance(_free_place(law, "draw"), lambda c: bool(game.fits(c)))


def _mover_case(game: Shithead, viewpoint: int | None, what: str) -> tuple[Fraction | None, int, frozenset[int]]:
    """The mover's pick-up when it is certain (else None), the mover, and the classes that fit (the rules'
    table, :func:`~cardlab.games.shithead.rules.fit_classes`)."""
    expect_game(game, NAME)
    game.check_seat(viewpoint, what)
    s = game.state
    if game.is_over or s.phase == "setup":
        raise InvalidInputError(f"{what} is not applicable: "
                                + ("the game is over" if game.is_over else "the set-up is not finished"))
    seat = game.current_player
    fits = game.fits
    t = game.fit_classes()
    source = game.source(seat)
    if source == "up":
        return Fraction(0 if any(fits(c) for c in s.face_up[seat]) else 1), seat, t
    if source == "hand":
        if viewpoint == seat:
            return Fraction(0 if any(fits(c) for c in s.hands[seat]) else 1), seat, t
        if any(fits(c) for c in s.known[seat]):
            return Fraction(0), seat, t
        if len(s.hands[seat]) == len(s.known[seat]):
            return Fraction(1), seat, t
    return None, seat, t


def shithead_mover_picks_up(game: Shithead, viewpoint: int | None = None) -> Fraction:
    """Exact chance, under the chance law, that the player to move picks up the pile in this turn.

    A pick-up can only be the turn's first action: after a 10 or a clear the pile is empty and anything
    fits. Playing from the hand, the mover picks up when no hand card fits: 0 if a card the viewer
    knows fits; otherwise the chance, under the law, that none of the hand's unseen cards lies in a
    class that fits (the mover's state law, :meth:`HandsLaw.hand_chance
    <cardlab.chance.hands_law.HandsLaw.hand_chance>`; for a hand its play has told nothing about yet, the
    hypergeometric chance that its places hold no fitting card, :meth:`HandsLaw.free_chance
    <cardlab.chance.hands_law.HandsLaw.free_chance>`, averaged over the other hidden hand's states). From
    the face-up cards (all public) it is 0 or 1; blind from a face-down card it is the law's chance that
    the mover's face-down card does not fit.

    Modelling caveat, measured: the law reads plays as the ``uninformed`` player makes them; the greedy
    bot saves its 2s and 10s and plays its lowest fitting rank, so it picks up less often than this says
    (see :mod:`cardlab.sim.prob`). Raises :class:`~cardlab.errors.InvalidInputError` in the set-up, once the
    game is over, or when three or more hands hold unseen cards (then use
    :func:`shithead_mover_picks_up_estimate`).
    """
    known, seat, t = _mover_case(game, viewpoint, "shithead_mover_picks_up")
    if known is not None:
        return known
    law = _law(game, viewpoint, "shithead_mover_picks_up")
    if game.source(seat) == "down":
        place = law.names.index(f"down {seat}")
        return 1 - law.chance(place, lambda c: bool(game.fits(c)))
    hand, mine = _hand_of(law, seat)
    if hand is not None:
        return law.hand_chance(hand, lambda state: not any(state[c] for c in t))
    # nothing is known yet about the mover's hand: its cards are like free places
    return law.free_chance(mine, lambda c: not game.fits(c))


def mover_exact(game: Shithead, viewpoint: int | None) -> bool:
    """Whether :func:`shithead_mover_picks_up` is computed exactly here (else use the estimate): the law is
    exact, and a mover's hand that play has told nothing about leaves at most one hidden hand."""
    law = game.chance_law(viewpoint)
    seat = game.current_player
    known = _hand_of(law, seat)[0] is not None
    from_hand = game.source(seat) == "hand"
    return law.exact and (known or len(law.hands) <= 1 or not from_hand or viewpoint == seat)


def law_chance(law: HandsLaw, event: Callable[[list[Card]], bool], draws: int,
               rng: np.random.Generator) -> Estimate:
    """The share of ``draws`` draws of the law (the card on each hidden place) where ``event`` holds, with
    its Wilson 95% interval: the estimate of an answer the law does not compute exactly."""
    hits = sum(1 for _ in range(draws) if event(law.sample(rng)))
    return wilson(float(hits), draws)


def _free_place_estimate(game: Shithead, viewpoint: int | None, what: str, reason: str | None, zone: str,
                         rollouts: int | None, rng: np.random.Generator | None) -> Estimate:
    """The chance that the last hidden place of ``zone`` (a face-down card: the first; the draw pile's top:
    the last) fits, estimated from draws of the law."""
    gen = require_rng(rng)
    if reason is not None:
        raise InvalidInputError(f"{what} is not applicable: {reason}")
    law = game.chance_law(viewpoint)
    place = _free_place(law, zone)
    return law_chance(law, lambda cards: bool(game.fits(cards[place])),
                      rollouts or LAW_DRAWS, gen)


def shithead_blind_fits_estimate(game: Shithead, viewpoint: int | None = None, *, rollouts: int | None = None,
                                 rng: np.random.Generator | None = None) -> Estimate:
    """:func:`shithead_blind_fits` estimated from ``rollouts`` draws of the law (:data:`LAW_DRAWS`)."""
    return _free_place_estimate(game, viewpoint, "shithead_blind_fits_estimate", shithead_blind_reason(game),
                                "down", rollouts, rng)


def shithead_draw_top_fits_estimate(game: Shithead, viewpoint: int | None = None, *, rollouts: int | None = None,
                                    rng: np.random.Generator | None = None) -> Estimate:
    """:func:`shithead_draw_top_fits` estimated from ``rollouts`` draws of the law (:data:`LAW_DRAWS`)."""
    return _free_place_estimate(game, viewpoint, "shithead_draw_top_fits_estimate", shithead_draw_reason(game),
                                "draw", rollouts, rng)


def shithead_mover_picks_up_estimate(game: Shithead, viewpoint: int | None = None, *,
                                     rollouts: int | None = None, rng: np.random.Generator | None = None
                                     ) -> Estimate:
    """:func:`shithead_mover_picks_up` estimated from ``rollouts`` draws of the law (:data:`LAW_DRAWS`)
    (certain cases are returned as certain)."""
    gen = require_rng(rng)
    known, seat, t = _mover_case(game, viewpoint, "shithead_mover_picks_up_estimate")
    if known is not None:
        return certain(bool(known))
    law = game.chance_law(viewpoint)
    fits = game.fits
    if game.source(seat) == "down":
        place = law.names.index(f"down {seat}")
        return law_chance(law, lambda cards: not fits(cards[place]), rollouts or LAW_DRAWS, gen)
    mine = _hand_of(law, seat)[1]
    return law_chance(law, lambda cards: not any(fits(cards[q]) for q in mine), rollouts or LAW_DRAWS, gen)


def shithead_must_pick_up(game: Shithead, seat: int, viewpoint: int | None = None, *,
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
    import cardlab.games.shithead.kernel as kernel  # the kernel loads numba: imported on first use

    spec = registered_spec(game)
    batch = spec.budgets.batch if spec is not None else FALLBACK_BUDGETS.batch
    counts, n = anytime_counts(lambda size: kernel.must_pick_up(game, seat, viewpoint, size, gen), 1, rollouts,
                               budget_s, batch=batch)
    return wilson(float(counts[0]), n)


def panel(game: Shithead, viewpoint: int | None, *, rng: np.random.Generator, rollouts: int | None = None,
          budget_s: float | None = None) -> list[Quantity]:
    """The Shithead panel: face-down and draw-pile cards and the mover's pick-up (exact while at most two
    hands hold unseen cards, else estimated from draws of the law), each other seat picking up
    (estimated from play-outs)."""
    gen = rng
    out: list[Quantity] = []
    if game.is_over:
        return out
    law = game.chance_law(viewpoint)
    draws = rollouts or LAW_DRAWS

    def exact_or_estimate(key: str, label: str, exact: Callable[[], Fraction], estimate: Callable[[], Estimate],
                          seat: int | None = None, computed: bool | None = None) -> Quantity:
        if law.exact if computed is None else computed:
            return Quantity.from_exact(key, label, exact(), seat)
        return Quantity.from_estimate(key, label, estimate(), seat)

    label = "a face-down card fits the pile"
    reason = shithead_blind_reason(game)
    out.append(Quantity.not_applicable("blind_fits", label, reason) if reason is not None else exact_or_estimate(
        "blind_fits", label, lambda: shithead_blind_fits(game, viewpoint),
        lambda: shithead_blind_fits_estimate(game, viewpoint, rollouts=draws, rng=gen)))
    label = "top of the draw pile fits"
    reason = shithead_draw_reason(game)
    out.append(Quantity.not_applicable("draw_top_fits", label, reason) if reason is not None else exact_or_estimate(
        "draw_top_fits", label, lambda: shithead_draw_top_fits(game, viewpoint),
        lambda: shithead_draw_top_fits_estimate(game, viewpoint, rollouts=draws, rng=gen)))
    for seat in range(game.players):
        if seat in getattr(game.state, "ranking", []):
            continue
        if seat == game.current_player and game.state.phase != "setup":
            out.append(exact_or_estimate(
                "must_pick_up", f"seat {seat} picks up in this turn",
                lambda: shithead_mover_picks_up(game, viewpoint),
                lambda: shithead_mover_picks_up_estimate(game, viewpoint, rollouts=draws, rng=gen), seat,
                mover_exact(game, viewpoint)))
            continue
        out.append(Quantity.from_estimate(
            "must_pick_up", f"seat {seat} picks up on its next turn",
            shithead_must_pick_up(game, seat, viewpoint, rollouts=rollouts, budget_s=budget_s, rng=gen), seat))
    return out
