"""The Spite and Malice table as HTML, drawn only from ``game.observe(viewpoint)`` (see :mod:`cardlab.viz.table`).

This module is the view: the game's spec names it by its import path, so the core never imports it.
"""

from __future__ import annotations

from typing import Any

from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError
from cardlab.games.spite_malice.rules import SpiteMaliceState, SpiteMaliceView, value_label
from cardlab.viz import table as t
from cardlab.viz.cards_svg import slot_svg


def _spite_status(game: Game[Any], view: SpiteMaliceView) -> str:
    parts = []
    if game.options.get("match"):
        parts.append(f"round {view.round}, scores {view.scores[0]}-{view.scores[1]} (target {view.target})")
    if view.over:
        parts.append("game over: " + (f"seat {view.winner} wins" if view.winner is not None else "a draw"))
    else:
        parts.append(f"seat {view.to_move} to play")
    return " · ".join(parts)


def _spite_centre(view: SpiteMaliceView, four_colour: bool) -> str:
    """The three build piles, fanned downwards; each King carries the value it stands for."""
    piles = []
    for k, pile in enumerate(view.centre):
        kings = set(view.centre_kings[k])
        badges = [f"={value_label(i + 1)}" if i + 1 in kings else "" for i in range(len(pile))]
        per_card: list[dict[str, object]] = [
            {"data-pile": k + 1, **({"data-stands-for": value_label(i + 1)} if i + 1 in kings else {})}
            for i in range(len(pile))]
        body = t.fan(list(pile), "centre", four_colour=four_colour, down=True, badges=badges, per_card=per_card,
                    empty="A", extra={"data-pile": k + 1})
        reached = view.centre_values[k]
        label = f"centre {k + 1}: " + (f"up to {value_label(reached)}" if reached else "empty")
        if kings:
            label += "; " + ", ".join(f"K as {value_label(v)}" for v in sorted(kings))
        piles.append(t.labelled(label, body))
    return "".join(piles)


def _spite_seat(view: SpiteMaliceView, seat: int, viewpoint: int | None, four_colour: bool,
                full: SpiteMaliceState | None) -> str:
    """Payoff pile (top face up), the four side piles fanned, and the hand."""
    tag: dict[str, object] = {"data-seat": seat}
    payoff = t.pile("payoff", "payoff", view.payoff_sizes[seat], view.payoff_tops[seat], four_colour=four_colour,
                   face_up=True, extra=tag)
    sides = "".join(
        t.labelled(f"side {j + 1}", t.fan(list(pile), "side", four_colour=four_colour, down=True, empty="",
                                        extra={"data-side": j + 1, **tag}) if pile else
                  t.box(slot_svg("", width=t.SMALL_W, attrs={"data-zone": "side", "data-side": j + 1, **tag})))
        for j, pile in enumerate(view.sides[seat]))
    size = view.hand_sizes[seat]
    hand_tag: dict[str, object] = {"data-hand": f"seat{seat}", **tag}
    if full is not None:
        hand = t.fan(list(full.hands[seat]), "hand", four_colour=four_colour, hidden=seat != viewpoint,
                    extra=hand_tag)
    elif seat == viewpoint and view.hand is not None:
        hand = t.fan(list(view.hand), "hand", four_colour=four_colour, extra=hand_tag)
    else:
        hand = t.fan([None] * size, "hand", four_colour=four_colour, extra=hand_tag)
    if size == 0:
        hand = t.box(slot_svg("none", width=t.SMALL_W, attrs={"data-zone": "hand", **hand_tag}))
    under = ""
    if full is not None and len(full.payoff[seat]) > 1:
        under = t.labelled("under the payoff top, next first", t.fan(
            full.payoff[seat][-2::-1], "payoff-revealed", four_colour=four_colour, hidden=True, extra=tag))
    return (t.labelled("payoff pile", payoff) + sides + t.labelled(f"hand {size}", hand)
            + (f"<div>{under}</div>" if under else ""))


def draw(game: Game[Any], viewpoint: int | None, reveal_all: bool, four_colour: bool) -> str:
    view = game.observe(viewpoint)
    if not isinstance(view, SpiteMaliceView):
        raise InvalidInputError(f"game {game.name!r} did not give a SpiteMaliceView to draw")
    full = game.state if reveal_all else None
    if full is not None and not isinstance(full, SpiteMaliceState):
        raise InvalidInputError(f"game {game.name!r} does not hold a Spite and Malice state")
    stock = t.pile("stock", "stock", view.stock_size, None, four_colour=four_colour, face_up=False)
    panels = [t.panel("Table", t.labelled("stock", stock) + _spite_centre(view, four_colour))]
    for seat in range(len(view.hand_sizes)):
        title = t.seat_name(seat, viewpoint)
        if game.options.get("match"):
            title += f" · score {view.scores[seat]}"
        active = not view.over and view.to_move == seat
        panels.append(t.panel(title, _spite_seat(view, seat, viewpoint, four_colour, full), seat=seat,
                             active=active))
    if full is not None and full.stock:
        panels.append(t.panel("Stock order, top card first", t.fan(
            full.stock[::-1], "stock-revealed", four_colour=four_colour, hidden=True, per_row=20)))
    body = f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start">{"".join(panels)}</div>'
    return t.frame(game, viewpoint, reveal_all, _spite_status(game, view), body)
