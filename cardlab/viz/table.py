"""One game position as self-contained HTML: inline SVG cards on a green table, inline CSS only.

The picture for a seat is drawn **only from** ``game.observe(viewpoint)``, the view the engine builds
with hidden cards left out, so the page cannot leak a card the seat has not seen: there is nothing
to leak. The one exception is ``reveal_all=True``, which reads the full state (every face-down card,
every hand, the order of the stock) and says "everything revealed" in a banner; cards the players
cannot see are then drawn tinted blue with a dashed rim.

Every card element carries data attributes for tests and for the browser: ``data-card="7H"`` (the
face's code, never a pack suffix: which of two identical cards is shown stays hidden) on a face,
``data-facedown="1"`` on a back, ``data-empty="1"`` on an empty
place, and ``data-zone`` / ``data-spot`` / ``data-seat`` saying where it lies. Pile sizes are written
out as text ("stock 31").
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

from cardlab.cards import Card
from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError
from cardlab.games.garbage import MAX_SPOTS, GarbageState, GarbageView, spot_label
from cardlab.games.shithead import ShitheadState, ShitheadView
from cardlab.games.spite_malice import SpiteMaliceState, SpiteMaliceView, value_label
from cardlab.viz.cards_svg import back_svg, face_svg, slot_svg

CARD_W = 48
SMALL_W = 38
FELT = "#2e7d4f"
PANEL = "#276b43"
ACTIVE = "#ffd54f"
PILE_SHADOW = "filter:drop-shadow(2px 2px 0 #c9d1d9) drop-shadow(2px 2px 0 #7d8a96)"

Drawer = Callable[[Game[Any], int | None, bool, bool], str]


# ---------------------------------------------------------------------------- small building blocks
def _esc(text: object) -> str:
    return html.escape(str(text))


def _box(svg: str, caption: str = "", *, shadow: bool = False) -> str:
    """A card with a caption under it; ``shadow`` hints at more cards underneath (a pile)."""
    cap = f'<div style="font-size:11px;line-height:14px;min-height:14px">{_esc(caption)}</div>' if caption else ""
    inner = f'<span style="display:inline-block;{PILE_SHADOW}">{svg}</span>' if shadow else svg
    return (f'<div style="display:inline-block;vertical-align:top;text-align:center;margin:2px 4px 2px 2px;'
            f'line-height:0">{inner}{cap}</div>')


def _card(card: Card | None, *, four_colour: bool, hidden: bool = False, face_down: bool = False,
          highlight: bool = False, width: float = CARD_W, attrs: dict[str, object] | None = None) -> str:
    """A face (``hidden``: revealed face-down card), a back (``face_down`` or unknown), or an empty slot."""
    if face_down or (card is None and hidden):
        return back_svg(width=width, highlight=highlight, attrs=attrs)
    if card is None:
        return slot_svg(width=width, highlight=highlight, attrs=attrs)
    return face_svg(card, width=width, four_colour=four_colour, hidden=hidden, highlight=highlight, attrs=attrs)


def _pile(zone: str, label: str, size: int, top: Card | None, *, four_colour: bool, face_up: bool,
          hidden: bool = False, highlight: bool = False, width: float = CARD_W,
          extra: dict[str, object] | None = None) -> str:
    """A pile seen from above: its top card (or a back), a drop shadow when it holds more, and "label N"."""
    attrs: dict[str, object] = {"data-zone": zone, "data-count": size, **(extra or {})}
    if size == 0:
        svg = slot_svg("empty", width=width, attrs=attrs)
    elif face_up and top is not None:
        svg = face_svg(top, width=width, four_colour=four_colour, hidden=hidden, highlight=highlight, attrs=attrs)
    else:
        svg = back_svg(width=width, highlight=highlight, attrs=attrs)
    return _box(svg, f"{label} {size}", shadow=size > 1)


def _fan(cards: Sequence[Card | None], zone: str, *, four_colour: bool, hidden: bool = False,
         width: float = SMALL_W, overlap: float = 0.55, per_row: int = 13, extra: dict[str, object] | None = None,
         empty: str = "", down: bool = False, badges: Sequence[str] | None = None,
         per_card: Sequence[dict[str, object]] | None = None) -> str:
    """Cards overlapped so each one's corner index shows; ``None`` entries are backs.

    Left to right by default (long fans wrap after ``per_row`` cards, so a revealed stock stays
    readable), or top to bottom with ``down=True``, as side and centre piles lie on a real table.
    ``badges`` puts a short note on each card's visible corner (empty string: none); ``per_card`` adds
    attributes card by card.
    """
    if not cards:
        return _box(slot_svg(empty, width=width, attrs={"data-zone": zone, **(extra or {})})) if empty else ""
    height = width * 1.4
    shift = -width * overlap if not down else -height * 0.72
    items = []
    for i, card in enumerate(cards):
        attrs: dict[str, object] = {"data-zone": zone, **(extra or {}), **(per_card[i] if per_card else {})}
        svg = _card(card, four_colour=four_colour, hidden=hidden, face_down=card is None, width=width, attrs=attrs)
        badge = badges[i] if badges else ""
        note = (f'<span style="position:absolute;right:1px;top:1px;background:{ACTIVE};color:#000;'
                f'font:bold 10px/12px sans-serif;border-radius:6px;padding:0 3px">{_esc(badge)}</span>'
                if badge else "")
        if down:
            margin = f"margin-top:{shift:.0f}px;" if i else ""
            items.append(f'<div style="position:relative;{margin}line-height:0">{svg}{note}</div>')
        else:
            margin = f"margin-left:{shift:.0f}px;" if i % per_row else ""
            items.append(f'<span style="display:inline-block;position:relative;{margin}line-height:0">'
                         f"{svg}{note}</span>")
    if down:
        return f'<div style="display:inline-block;vertical-align:top;margin:2px">{"".join(items)}</div>'
    rows = ["".join(items[k:k + per_row]) for k in range(0, len(items), per_row)]
    body = "".join(f'<div style="white-space:nowrap;line-height:0;margin:2px">{r}</div>' for r in rows)
    return f'<div style="display:inline-block;vertical-align:top">{body}</div>'


def _labelled(label: str, body: str) -> str:
    return (f'<div style="display:inline-block;vertical-align:top;margin:0 6px 4px 0">'
            f'<div style="font-size:11px;opacity:.85">{_esc(label)}</div>{body}</div>')


def _panel(title: str, body: str, *, seat: int | None = None, active: bool = False) -> str:
    border = f"2px solid {ACTIVE}" if active else "2px solid transparent"
    data = f' data-seat="{seat}"' if seat is not None else ""
    mark = ' <span style="color:#ffd54f">&#9664; to move</span>' if active else ""
    return (f'<div class="cl-panel"{data} style="background:{PANEL};border:{border};border-radius:8px;'
            f'padding:4px 6px;margin:4px;display:inline-block;vertical-align:top">'
            f'<div style="font-weight:bold;margin-bottom:2px">{_esc(title)}{mark}</div>{body}</div>')


def _seat_name(seat: int, viewpoint: int | None) -> str:
    return f"Seat {seat} (you)" if seat == viewpoint else f"Seat {seat}"


def _view_word(viewpoint: int | None, reveal_all: bool) -> str:
    if reveal_all:
        return "everything revealed"
    return "public view" if viewpoint is None else f"view of seat {viewpoint}"


def _frame(game: Game[Any], viewpoint: int | None, reveal_all: bool, status: str, body: str) -> str:
    """The green table with a title line, the view it shows, and the reveal banner when needed."""
    view_attr = "revealed" if reveal_all else ("public" if viewpoint is None else f"seat{viewpoint}")
    banner = ""
    if reveal_all:
        banner = ('<div class="cl-revealed" style="background:#fff3cd;color:#5c4400;border-radius:6px;'
                  'padding:3px 8px;margin:4px 0;font-weight:bold">everything revealed: hidden cards are drawn '
                  'tinted blue with a dashed rim; the players cannot see them</div>')
    return (f'<div class="cl-table" data-game="{_esc(game.name)}" data-view="{view_attr}" '
            f'style="font:13px/1.3 sans-serif;background:{FELT};color:#fff;padding:8px;border-radius:10px;'
            f'display:inline-block;max-width:100%;box-sizing:border-box">'
            f'<div style="font-size:15px;font-weight:bold">{_esc(game.title)} '
            f'<span style="font-weight:normal;font-size:12px;opacity:.9">&#183; {_esc(status)} &#183; '
            f'{_esc(_view_word(viewpoint, reveal_all))}</span></div>{banner}{body}</div>')


# ---------------------------------------------------------------------------- Garbage
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
                svg = slot_svg("unplayable", width=CARD_W, disabled=True, attrs=attrs)
            else:
                card, hidden = spots[spot - 1]
                svg = _card(card, four_colour=four_colour, hidden=hidden, face_down=card is None, attrs=attrs)
            cells.append(_box(svg, spot_label(spot)))
        rows.append(f'<div style="white-space:nowrap">{"".join(cells)}</div>')
    return "".join(rows)


def _garbage(game: Game[Any], viewpoint: int | None, reveal_all: bool, four_colour: bool) -> str:
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
    centre = [_pile("stock", "stock", view.stock_size, None, four_colour=four_colour, face_up=False),
              _pile("discard", "discard", len(view.discard), view.discard_top, four_colour=four_colour, face_up=True)]
    held = view.held
    held_svg = (face_svg(held, width=CARD_W, four_colour=four_colour, highlight=True, attrs={"data-zone": "held"})
                if held is not None else slot_svg("held", width=CARD_W, attrs={"data-zone": "held"}))
    centre.append(_box(held_svg, "in play" if held is not None else "no card in play"))
    extras = ""
    if reveal_all and stock_cards:
        extras = _panel("Stock order, top card first", _fan(stock_cards, "stock-revealed", four_colour=four_colour,
                                                             hidden=not view.stock_known))
    note = ('<div style="font-size:11px;opacity:.85">the stock was reshuffled from seen discards</div>'
            if view.stock_known else "")
    panels = []
    for seat in range(view.players):
        size = view.sizes[seat]
        title = _seat_name(seat, viewpoint) + (f" · {size} spots" if size < MAX_SPOTS else "")
        if game.options.get("match"):
            title += f" · wins {view.wins[seat]}"
        active = not view.over and view.to_move == seat
        panels.append(_panel(title, _garbage_layout(seat, size, layouts[seat], four_colour), seat=seat,
                             active=active))
    middle = _panel("Table", "".join(centre) + note)
    body = f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start">{middle}{"".join(panels)}{extras}</div>'
    return _frame(game, viewpoint, reveal_all, _garbage_status(game, view), body)


# ---------------------------------------------------------------------------- Shithead
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
            svg = slot_svg("", width=SMALL_W, attrs=attrs)
        elif secret is not None:
            svg = face_svg(secret, width=SMALL_W, four_colour=four_colour, hidden=True, attrs=attrs)
        else:
            svg = back_svg(width=SMALL_W, attrs=attrs)
        down.append(_box(svg, str(pos)))
    up = [_box(face_svg(c, width=SMALL_W, four_colour=four_colour, attrs={"data-zone": "face-up", **tag}))
          for c in view.face_up[seat]]
    size = view.hand_sizes[seat]
    hand_tag: dict[str, object] = {"data-hand": f"seat{seat}", **tag}
    if full is not None:
        known = list(view.known[seat])
        cards = list(full.hands[seat])
        unseen = [c for c in cards if seat != viewpoint and c not in known]
        seen = [c for c in cards if c not in unseen]
        hand = (_fan(seen, "hand", four_colour=four_colour, extra=hand_tag)
                + _fan(unseen, "hand", four_colour=four_colour, hidden=True, extra=hand_tag))
    elif seat == viewpoint and view.hand is not None:
        hand = _fan(list(view.hand), "hand", four_colour=four_colour, extra=hand_tag)
    else:
        known = list(view.known[seat])
        backs: list[Card | None] = [None] * (size - len(known))
        hand = _fan(known, "hand", four_colour=four_colour, extra={"data-known": "1", **hand_tag})
        hand += _fan(backs, "hand", four_colour=four_colour, extra=hand_tag)
    if size == 0:
        hand = _box(slot_svg("none", width=SMALL_W, attrs={"data-zone": "hand", **hand_tag}))
    known_note = f", {len(view.known[seat])} seen by all" if view.known[seat] and seat != viewpoint else ""
    return (_labelled("face down", "".join(down)) + _labelled(f"face up {len(view.face_up[seat])}", "".join(up))
            + _labelled(f"hand {size}{known_note}", hand))


def _shithead(game: Game[Any], viewpoint: int | None, reveal_all: bool, four_colour: bool) -> str:
    view = game.observe(viewpoint)
    if not isinstance(view, ShitheadView):
        raise InvalidInputError(f"game {game.name!r} did not give a ShitheadView to draw")
    full = game.state if reveal_all else None
    if full is not None and not isinstance(full, ShitheadState):
        raise InvalidInputError(f"game {game.name!r} does not hold a Shithead state")
    pile = list(view.pile)
    run = pile[-4:]
    pile_body = (_fan(run, "pile", four_colour=four_colour, width=CARD_W, overlap=0.45) if run
                 else _box(slot_svg("empty", width=CARD_W, attrs={"data-zone": "pile", "data-count": 0})))
    centre = [_pile("draw", "draw pile", view.draw_size, None, four_colour=four_colour, face_up=False),
              _labelled(f"pile {len(pile)}" + (" (top on the right)" if len(pile) > 1 else ""),
                        pile_body),
              _pile("out", "burned/out", len(view.out), None, four_colour=four_colour, face_up=False)]
    panels = [_panel("Table", "".join(centre))]
    for seat in range(view.players):
        title = _seat_name(seat, viewpoint)
        if seat in view.ranking:
            place = view.ranking.index(seat) + 1
            title += " · out, place " + str(place) if place > 1 or view.players == 2 else " · out first"
        active = not view.over and view.to_move == seat
        panels.append(_panel(title, _shithead_seat(view, seat, viewpoint, four_colour, full), seat=seat,
                             active=active))
    if full is not None and full.draw:
        panels.append(_panel("Draw pile order, top card first", _fan(
            full.draw[::-1], "draw-revealed", four_colour=four_colour, hidden=True, per_row=20)))
    body = f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start">{"".join(panels)}</div>'
    return _frame(game, viewpoint, reveal_all, _shithead_status(view), body)


# ---------------------------------------------------------------------------- Spite and Malice
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
        body = _fan(list(pile), "centre", four_colour=four_colour, down=True, badges=badges, per_card=per_card,
                    empty="A", extra={"data-pile": k + 1})
        reached = view.centre_values[k]
        label = f"centre {k + 1}: " + (f"up to {value_label(reached)}" if reached else "empty")
        if kings:
            label += "; " + ", ".join(f"K as {value_label(v)}" for v in sorted(kings))
        piles.append(_labelled(label, body))
    return "".join(piles)


def _spite_seat(view: SpiteMaliceView, seat: int, viewpoint: int | None, four_colour: bool,
                full: SpiteMaliceState | None) -> str:
    """Payoff pile (top face up), the four side piles fanned, and the hand."""
    tag: dict[str, object] = {"data-seat": seat}
    payoff = _pile("payoff", "payoff", view.payoff_sizes[seat], view.payoff_tops[seat], four_colour=four_colour,
                   face_up=True, extra=tag)
    sides = "".join(
        _labelled(f"side {j + 1}", _fan(list(pile), "side", four_colour=four_colour, down=True, empty="",
                                        extra={"data-side": j + 1, **tag}) if pile else
                  _box(slot_svg("", width=SMALL_W, attrs={"data-zone": "side", "data-side": j + 1, **tag})))
        for j, pile in enumerate(view.sides[seat]))
    size = view.hand_sizes[seat]
    hand_tag: dict[str, object] = {"data-hand": f"seat{seat}", **tag}
    if full is not None:
        hand = _fan(list(full.hands[seat]), "hand", four_colour=four_colour, hidden=seat != viewpoint,
                    extra=hand_tag)
    elif seat == viewpoint and view.hand is not None:
        hand = _fan(list(view.hand), "hand", four_colour=four_colour, extra=hand_tag)
    else:
        hand = _fan([None] * size, "hand", four_colour=four_colour, extra=hand_tag)
    if size == 0:
        hand = _box(slot_svg("none", width=SMALL_W, attrs={"data-zone": "hand", **hand_tag}))
    under = ""
    if full is not None and len(full.payoff[seat]) > 1:
        under = _labelled("under the payoff top, next first", _fan(
            full.payoff[seat][-2::-1], "payoff-revealed", four_colour=four_colour, hidden=True, extra=tag))
    return (_labelled("payoff pile", payoff) + sides + _labelled(f"hand {size}", hand)
            + (f"<div>{under}</div>" if under else ""))


def _spite(game: Game[Any], viewpoint: int | None, reveal_all: bool, four_colour: bool) -> str:
    view = game.observe(viewpoint)
    if not isinstance(view, SpiteMaliceView):
        raise InvalidInputError(f"game {game.name!r} did not give a SpiteMaliceView to draw")
    full = game.state if reveal_all else None
    if full is not None and not isinstance(full, SpiteMaliceState):
        raise InvalidInputError(f"game {game.name!r} does not hold a Spite and Malice state")
    stock = _pile("stock", "stock", view.stock_size, None, four_colour=four_colour, face_up=False)
    panels = [_panel("Table", _labelled("stock", stock) + _spite_centre(view, four_colour))]
    for seat in range(len(view.hand_sizes)):
        title = _seat_name(seat, viewpoint)
        if game.options.get("match"):
            title += f" · score {view.scores[seat]}"
        active = not view.over and view.to_move == seat
        panels.append(_panel(title, _spite_seat(view, seat, viewpoint, four_colour, full), seat=seat,
                             active=active))
    if full is not None and full.stock:
        panels.append(_panel("Stock order, top card first", _fan(
            full.stock[::-1], "stock-revealed", four_colour=four_colour, hidden=True, per_row=20)))
    body = f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start">{"".join(panels)}</div>'
    return _frame(game, viewpoint, reveal_all, _spite_status(game, view), body)


# ---------------------------------------------------------------------------- dispatch
def _generic(game: Game[Any], viewpoint: int | None, reveal_all: bool, four_colour: bool) -> str:
    """A game with no drawing of its own yet: its one-line summary (never its hidden cards)."""
    game.observe(viewpoint)
    return _frame(game, viewpoint, False, str(game), "")


_DRAWERS: dict[str, Drawer] = {"garbage": _garbage, "shithead": _shithead, "spite-and-malice": _spite}


def table_html(game: Game[Any], viewpoint: int | None = None, reveal_all: bool = False,
               four_colour: bool = False) -> str:
    """The table of ``game`` as ``viewpoint`` sees it (a seat, or ``None`` for the public view).

    ``reveal_all=True`` draws the full state instead (for teaching and debugging) and says so.
    ``four_colour=True`` paints ♠ black, ♥ red, ♦ blue, ♣ green.
    """
    if not isinstance(game, Game):
        raise InvalidInputError(f"table_html needs a cardlab game, got {game!r}; make one with cardlab.new_game")
    for flag, value in (("reveal_all", reveal_all), ("four_colour", four_colour)):
        if not isinstance(value, bool):
            raise InvalidInputError(f"table_html: {flag}={value!r} is not allowed; accepted: True or False")
    drawer = _DRAWERS.get(game.name, _generic)
    return drawer(game, viewpoint, reveal_all, four_colour)
