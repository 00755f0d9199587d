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
from cardlab.engine.registry import registered_spec
from cardlab.errors import InvalidInputError, shown
from cardlab.viz.cards_svg import back_svg, face_svg, slot_svg

CARD_W = 48
SMALL_W = 38
FELT = "#2e7d4f"
PANEL = "#276b43"
ACTIVE = "#ffd54f"
PILE_SHADOW = "filter:drop-shadow(2px 2px 0 #c9d1d9) drop-shadow(2px 2px 0 #7d8a96)"

Drawer = Callable[[Game[Any], int | None, bool, bool], str]


# ---------------------------------------------------------------------------- small building blocks
def esc(text: object) -> str:
    return html.escape(str(text))


def box(svg: str, caption: str = "", *, shadow: bool = False) -> str:
    """A card with a caption under it; ``shadow`` hints at more cards underneath (a pile)."""
    cap = f'<div style="font-size:11px;line-height:14px;min-height:14px">{esc(caption)}</div>' if caption else ""
    inner = f'<span style="display:inline-block;{PILE_SHADOW}">{svg}</span>' if shadow else svg
    return (f'<div style="display:inline-block;vertical-align:top;text-align:center;margin:2px 4px 2px 2px;'
            f'line-height:0">{inner}{cap}</div>')


def card_cell(card: Card | None, *, four_colour: bool, hidden: bool = False, face_down: bool = False,
          highlight: bool = False, width: float = CARD_W, attrs: dict[str, object] | None = None) -> str:
    """A face (``hidden``: revealed face-down card), a back (``face_down`` or unknown), or an empty slot."""
    if face_down or (card is None and hidden):
        return back_svg(width=width, highlight=highlight, attrs=attrs)
    if card is None:
        return slot_svg(width=width, highlight=highlight, attrs=attrs)
    return face_svg(card, width=width, four_colour=four_colour, hidden=hidden, highlight=highlight, attrs=attrs)


def pile(zone: str, label: str, size: int, top: Card | None, *, four_colour: bool, face_up: bool,
          hidden: bool = False, highlight: bool = False, width: float = CARD_W,
          extra: dict[str, object] | None = None) -> str:
    """A pile seen from above: its top card (or a back), a drop shadow when it holds more, and "label: N cards"
    (a bare "discard 5" reads as "discard the 5")."""
    attrs: dict[str, object] = {"data-zone": zone, "data-count": size, **(extra or {})}
    if size == 0:
        svg = slot_svg("empty", width=width, attrs=attrs)
    elif face_up and top is not None:
        svg = face_svg(top, width=width, four_colour=four_colour, hidden=hidden, highlight=highlight, attrs=attrs)
    else:
        svg = back_svg(width=width, highlight=highlight, attrs=attrs)
    return box(svg, count_words(label, size), shadow=size > 1)


def count_words(label: str, size: int) -> str:
    """A pile's caption: "discard: 5 cards" (a bare "discard 5" reads as "discard the 5")."""
    return f"{label}: {size} {'card' if size == 1 else 'cards'}"


def fan(cards: Sequence[Card | None], zone: str, *, four_colour: bool, hidden: bool = False,
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
        return box(slot_svg(empty, width=width, attrs={"data-zone": zone, **(extra or {})})) if empty else ""
    height = width * 1.4
    shift = -width * overlap if not down else -height * 0.72
    items = []
    for i, card in enumerate(cards):
        attrs: dict[str, object] = {"data-zone": zone, **(extra or {}), **(per_card[i] if per_card else {})}
        svg = card_cell(card, four_colour=four_colour, hidden=hidden, face_down=card is None, width=width, attrs=attrs)
        badge = badges[i] if badges else ""
        note = (f'<span style="position:absolute;right:1px;top:1px;background:{ACTIVE};color:#000;'
                f'font:bold 10px/12px sans-serif;border-radius:6px;padding:0 3px">{esc(badge)}</span>'
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


def labelled(label: str, body: str) -> str:
    return (f'<div style="display:inline-block;vertical-align:top;margin:0 6px 4px 0">'
            f'<div style="font-size:11px;opacity:.85">{esc(label)}</div>{body}</div>')


def panel(title: str, body: str, *, seat: int | None = None, active: bool = False) -> str:
    border = f"2px solid {ACTIVE}" if active else "2px solid transparent"
    data = f' data-seat="{seat}"' if seat is not None else ""
    mark = ' <span style="color:#ffd54f">&#9664; to move</span>' if active else ""
    return (f'<div class="cl-panel"{data} style="background:{PANEL};border:{border};border-radius:8px;'
            f'padding:4px 6px;margin:4px;display:inline-block;vertical-align:top">'
            f'<div style="font-weight:bold;margin-bottom:2px">{esc(title)}{mark}</div>{body}</div>')


def seat_name(seat: int, viewpoint: int | None) -> str:
    return f"Seat {seat} (you)" if seat == viewpoint else f"Seat {seat}"


def view_word(viewpoint: int | None, reveal_all: bool) -> str:
    if reveal_all:
        return "everything revealed"
    return "public view" if viewpoint is None else f"view of seat {viewpoint}"


def frame(game: Game[Any], viewpoint: int | None, reveal_all: bool, status: str, body: str) -> str:
    """The green table with a title line, the view it shows, and the reveal banner when needed."""
    view_attr = "revealed" if reveal_all else ("public" if viewpoint is None else f"seat{viewpoint}")
    banner = ""
    if reveal_all:
        banner = ('<div class="cl-revealed" style="background:#fff3cd;color:#5c4400;border-radius:6px;'
                  'padding:3px 8px;margin:4px 0;font-weight:bold">everything revealed: hidden cards are drawn '
                  'tinted blue with a dashed rim; the players cannot see them</div>')
    return (f'<div class="cl-table" data-game="{esc(game.name)}" data-view="{view_attr}" '
            f'style="font:13px/1.3 sans-serif;background:{FELT};color:#fff;padding:8px;border-radius:10px;'
            f'display:inline-block;max-width:100%;box-sizing:border-box">'
            f'<div style="font-size:15px;font-weight:bold">{esc(game.title)} '
            f'<span style="font-weight:normal;font-size:12px;opacity:.9">&#183; {esc(status)} &#183; '
            f'{esc(view_word(viewpoint, reveal_all))}</span></div>{banner}{body}</div>')


# ---------------------------------------------------------------------------- dispatch
def generic(game: Game[Any], viewpoint: int | None, reveal_all: bool, four_colour: bool) -> str:
    """A game with no drawing of its own yet: its one-line summary (never its hidden cards)."""
    game.observe(viewpoint)
    return frame(game, viewpoint, False, str(game), "")


def table_html(game: Game[Any], viewpoint: int | None = None, reveal_all: bool = False,
               four_colour: bool = False) -> str:
    """The table of ``game`` as ``viewpoint`` sees it (a seat, or ``None`` for the public view).

    ``reveal_all=True`` draws the full state instead (for teaching and debugging) and says so.
    ``four_colour=True`` paints ♠ black, ♥ red, ♦ blue, ♣ green.
    """
    if not isinstance(game, Game):
        raise InvalidInputError(f"table_html needs a cardlab game, got {shown(game)}; make one with cardlab.new_game")
    for flag, value in (("reveal_all", reveal_all), ("four_colour", four_colour)):
        if not isinstance(value, bool):
            raise InvalidInputError(f"table_html: {flag}={shown(value)} is not allowed; accepted: True or False")
    spec = registered_spec(game)
    drawer = spec.draw() if spec is not None else generic
    return drawer(game, viewpoint, reveal_all, four_colour)
