"""The Shithead table as HTML, drawn only from ``game.observe(viewpoint)`` (see :mod:`cardlab.viz.table`).

This module is the view: the game's spec names it by its import path, so the core never imports it.
"""

from __future__ import annotations

from typing import Any

from cardlab.cards import Card, Rank
from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError
from cardlab.games.shithead.rules import Shithead, ShitheadState, ShitheadView
from cardlab.viz import table as t
from cardlab.viz.cards_svg import back_svg, face_svg, slot_svg


def _shithead_status(view: ShitheadView) -> str:
    if view.over:
        if view.winner is None:
            return "game over: drawn by the safety rule"
        text = f"game over: seat {view.winner} is out first and wins"
        if len(view.ranking) == view.players and view.players > 2:
            text += f"; seat {view.ranking[-1]} is the shithead"
        return text
    if view.phase == "setup":
        return f"set-up: seat {view.to_move} puts cards face up"
    return f"seat {view.to_move} to play"


def _pile_note(view: ShitheadView) -> str:
    """What the house rules make of the pile (empty without them): the rank an invisible 3 stands for, and
    a 7 that the next card must not beat."""
    top, rank = view.top, view.pile_rank
    notes = []
    if top is not None and view.house.invisible(top.rank):
        notes.append("the 3 is invisible: " + ("anything goes" if rank is None else f"play on the {rank.label}"))
    if view.house.seven_lower and rank == Rank.SEVEN:  # the option's own words, then the cards they name
        wild = " or ".join("a " + r.label for r in Rank if view.house.goes_on_anything(r))
        notes.append(f"{Shithead.option_specs['seven_lower'].doc} ({wild})")
    return "".join(f" · {n}" for n in notes)


def _shithead_seat(view: ShitheadView, seat: int, viewpoint: int | None, four_colour: bool,
                   full: ShitheadState | None) -> str:
    """One player's cards: three face-down places, the face-up cards, and the hand.

    ``full`` is the state when everything is revealed; otherwise only the view is read.
    """
    tag: dict[str, object] = {"data-seat": seat}
    down = []
    for pos in range(1, 4):
        attrs: dict[str, object] = {"data-zone": "face-down", "data-pos": pos, **tag}
        secret = full.face_down[seat][pos - 1] if full is not None else None
        if pos not in view.face_down[seat]:
            svg = slot_svg("", width=t.SMALL_W, attrs=attrs)
        elif secret is not None:
            svg = face_svg(secret, width=t.SMALL_W, four_colour=four_colour, hidden=True, attrs=attrs)
        else:
            svg = back_svg(width=t.SMALL_W, attrs=attrs)
        down.append(t.box(svg, str(pos)))
    up = [t.box(face_svg(c, width=t.SMALL_W, four_colour=four_colour, attrs={"data-zone": "face-up", **tag}))
          for c in view.face_up[seat]]
    size = view.hand_sizes[seat]
    hand_tag: dict[str, object] = {"data-hand": f"seat{seat}", **tag}
    if full is not None:
        known = list(view.known[seat])
        cards = list(full.hands[seat])
        unseen = [c for c in cards if seat != viewpoint and c not in known]
        seen = [c for c in cards if c not in unseen]
        hand = (t.fan(seen, "hand", four_colour=four_colour, extra=hand_tag)
                + t.fan(unseen, "hand", four_colour=four_colour, hidden=True, extra=hand_tag))
    elif seat == viewpoint and view.hand is not None:
        hand = t.fan(list(view.hand), "hand", four_colour=four_colour, extra=hand_tag)
    else:
        known = list(view.known[seat])
        backs: list[Card | None] = [None] * (size - len(known))
        hand = t.fan(known, "hand", four_colour=four_colour, extra={"data-known": "1", **hand_tag})
        hand += t.fan(backs, "hand", four_colour=four_colour, extra=hand_tag)
    if size == 0:
        hand = t.box(slot_svg("none", width=t.SMALL_W, attrs={"data-zone": "hand", **hand_tag}))
    known_note = f", {len(view.known[seat])} seen by all" if view.known[seat] and seat != viewpoint else ""
    return (t.labelled("face down", "".join(down)) + t.labelled(f"face up {len(view.face_up[seat])}", "".join(up))
            + t.labelled(f"hand {size}{known_note}", hand))


def draw(game: Game[Any], viewpoint: int | None, reveal_all: bool, four_colour: bool) -> str:
    view = game.observe(viewpoint)
    if not isinstance(view, ShitheadView):
        raise InvalidInputError(f"game {game.name!r} did not give a ShitheadView to draw")
    full = game.state if reveal_all else None
    if full is not None and not isinstance(full, ShitheadState):
        raise InvalidInputError(f"game {game.name!r} does not hold a Shithead state")
    pile = list(view.pile)
    run = pile[-4:]
    pile_body = (t.fan(run, "pile", four_colour=four_colour, width=t.CARD_W, overlap=0.45) if run
                 else t.box(slot_svg("empty", width=t.CARD_W, attrs={"data-zone": "pile", "data-count": 0})))
    centre = [t.pile("draw", "draw pile", view.draw_size, None, four_colour=four_colour, face_up=False),
              t.labelled(t.count_words("pile", len(pile)) + (" (top on the right)" if len(pile) > 1 else "")
                         + _pile_note(view), pile_body),
              t.pile("out", "burned/out", len(view.out), None, four_colour=four_colour, face_up=False)]
    panels = [t.panel("Table", "".join(centre))]
    for seat in range(view.players):
        title = t.seat_name(seat, viewpoint)
        if seat in view.ranking:
            place = view.ranking.index(seat) + 1
            title += " · out, place " + str(place) if place > 1 or view.players == 2 else " · out first"
        active = not view.over and view.to_move == seat
        panels.append(t.panel(title, _shithead_seat(view, seat, viewpoint, four_colour, full), seat=seat,
                             active=active))
    if full is not None and full.draw:
        panels.append(t.panel("Draw pile order, top card first", t.fan(
            full.draw[::-1], "draw-revealed", four_colour=four_colour, hidden=True, per_row=20)))
    body = f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start">{"".join(panels)}</div>'
    return t.frame(game, viewpoint, reveal_all, _shithead_status(view), body)
