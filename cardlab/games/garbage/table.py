"""The Garbage table as HTML, drawn only from ``game.observe(viewpoint)`` (see :mod:`cardlab.viz.table`).

This module is the view: the game's spec names it by its import path, so the core never imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardlab.cards import Card
from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError
from cardlab.games.garbage.rules import MAX_SPOTS, GarbageState, GarbageView, spot_label
from cardlab.viz import table as t
from cardlab.viz.cards_svg import face_svg, slot_svg


def _garbage_status(game: Game[Any], view: GarbageView) -> str:
    parts = []
    if game.options.get("match"):
        wins = ", ".join(f"seat {s}: {w}" for s, w in enumerate(view.wins))
        parts.append(f"hand {view.hand}, wins {wins}")
    if view.over:
        parts.append("game over: " + (f"seat {view.winner} wins" if view.winner is not None else "a draw"))
    else:
        doing = {"draw": "to draw", "wild": f"may place the wild {view.wild.word}",
                 "displace": f"may displace a {view.wild.word}"}[view.phase]
        parts.append(f"seat {view.to_move} {doing}")
    parts.append(f"{view.wild.word}s wild")
    return " · ".join(parts)


def _garbage_layout(seat: int, size: int, spots: Sequence[tuple[Card | None, bool]], four_colour: bool) -> str:
    """Two rows of five spots, A–5 over 6–10; spots past the layout size are greyed out as unplayable."""
    rows = []
    for row in range(2):
        cells = []
        for spot in range(row * 5 + 1, row * 5 + 6):
            attrs: dict[str, object] = {"data-spot": f"seat{seat}-{spot}", "data-seat": seat}
            if spot > size:
                svg = slot_svg("unplayable", width=t.CARD_W, disabled=True, attrs=attrs)
            else:
                card, hidden = spots[spot - 1]
                svg = t.card_cell(card, four_colour=four_colour, hidden=hidden, face_down=card is None, attrs=attrs)
            cells.append(t.box(svg, spot_label(spot)))
        rows.append(f'<div style="white-space:nowrap">{"".join(cells)}</div>')
    return "".join(rows)


def draw(game: Game[Any], viewpoint: int | None, reveal_all: bool, four_colour: bool) -> str:
    view = game.observe(viewpoint)
    if not isinstance(view, GarbageView):
        raise InvalidInputError(f"game {game.name!r} did not give a GarbageView to draw")
    layouts: list[list[tuple[Card | None, bool]]] = [[(c, False) for c in lay] for lay in view.layouts]
    stock_cards: list[Card] = []
    if reveal_all:
        state = game.state
        if not isinstance(state, GarbageState):
            raise InvalidInputError(f"game {game.name!r} does not hold a Garbage state")
        layouts = [[(c, not u) for c, u in zip(state.spots[p], state.up[p], strict=True)]
                   for p in range(view.players)]
        stock_cards = state.stock[::-1]
    centre = [t.pile("stock", "stock", view.stock_size, None, four_colour=four_colour, face_up=False),
              t.pile("discard", "discard", len(view.discard), view.discard_top, four_colour=four_colour, face_up=True)]
    held = view.held
    held_svg = (face_svg(held, width=t.CARD_W, four_colour=four_colour, highlight=True, attrs={"data-zone": "held"})
                if held is not None else slot_svg("held", width=t.CARD_W, attrs={"data-zone": "held"}))
    centre.append(t.box(held_svg, "in play" if held is not None else "no card in play"))
    extras = ""
    if reveal_all and stock_cards:
        extras = t.panel("Stock order, top card first", t.fan(stock_cards, "stock-revealed", four_colour=four_colour,
                                                             hidden=not view.stock_known))
    note = ('<div style="font-size:11px;opacity:.85">the stock was reshuffled from seen discards</div>'
            if view.stock_known else "")
    panels = []
    for seat in range(view.players):
        size = view.sizes[seat]
        title = t.seat_name(seat, viewpoint) + (f" · {size} spots" if size < MAX_SPOTS else "")
        if game.options.get("match"):
            title += f" · wins {view.wins[seat]}"
        active = not view.over and view.to_move == seat
        panels.append(t.panel(title, _garbage_layout(seat, size, layouts[seat], four_colour), seat=seat,
                             active=active))
    middle = t.panel("Table", "".join(centre) + note)
    body = f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start">{middle}{"".join(panels)}{extras}</div>'
    return t.frame(game, viewpoint, reveal_all, _garbage_status(game, view), body)
