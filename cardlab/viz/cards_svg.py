"""One playing card as a small, self-contained SVG string.

Every card is drawn in a 100 × 140 box (the 5:7 shape of a real card) and scaled by ``width``.
Faces show the corner indices (rank over suit, repeated upside down in the opposite corner) and
the traditional pip layouts for A–10; Jacks, Queens and Kings get a framed, double-ended figure
drawn from simple shapes. Backs are dark blue with a diamond lattice, so face-down cards stand out
from white faces at a glance. An empty place is a dashed outline.

Nothing refers to outside files, ids or fonts beyond the generic families, so a card can be pasted
into any HTML page, notebook output or widget, and the same arguments always give the same string.

Shared backs, for a page that redraws a table often: :func:`share_backs` leaves out the drawing of
every default-coloured back (about 800 bytes each; a Garbage deal shows twenty), keeping the
``<svg>`` element with its size, title, data attributes and highlight, and :func:`back_css` gives
the one CSS rule that paints the same picture (the same drawing, as an image) behind each such
element. The stepper sends that rule once per kernel and each refresh of its table without the
backs' drawings. Faces stay drawn inline: fifty-two face images would save about 15 KB more per
refresh, but a browser decodes each image as a small document of its own, which made the first
drawing of a table about four times slower (measured in Chromium: about 300 ms against 80 ms).

The four-colour deck (``four_colour=True``) paints ♠ black, ♥ red, ♦ blue and ♣ green, so that a
student who cannot tell red from black, or who reads quickly, can still tell the suits apart. The
suit shapes themselves always differ too, so colour is never the only clue.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from functools import cache
from urllib.parse import quote

from cardlab.cards import Card, Rank, Suit, face_of

VIEW_W = 100
VIEW_H = 140
DEFAULT_WIDTH = 56

TWO_COLOURS = {Suit.SPADES: "#1a1a1a", Suit.HEARTS: "#c8102e", Suit.DIAMONDS: "#c8102e", Suit.CLUBS: "#1a1a1a"}
FOUR_COLOURS = {Suit.SPADES: "#1a1a1a", Suit.HEARTS: "#c8102e", Suit.DIAMONDS: "#0b5ed7", Suit.CLUBS: "#13803b"}
COLOUR_WORDS = {Suit.SPADES: "black", Suit.HEARTS: "red", Suit.DIAMONDS: "blue", Suit.CLUBS: "green"}
BACK_COLOUR = "#1d4f91"
BACK_LINE = "#6f9ad6"
HIGHLIGHT = "#ff9800"
HIDDEN_TINT = "#1d4f91"

# Suit outlines in a 20 × 20 box centred on the origin; each pip is one of these, moved and scaled.
SUIT_PATHS = {
    Suit.SPADES: ("M0-10C-3-5-10-2-10 3C-10 6-7.5 8-5 8C-3 8-1.7 7-1 5.6C-1.2 7.8-2.2 9.1-4 10H4"
                  "C2.2 9.1 1.2 7.8 1 5.6C1.7 7 3 8 5 8C7.5 8 10 6 10 3C10-2 3-5 0-10Z"),
    Suit.HEARTS: "M0 9.5C-3-5.5-10-1-10-4.5C-10-8-7.5-10-5-10C-2.8-10-1-8.7 0-6.6C1-8.7 2.8-10 5-10"
                 "C7.5-10 10-8 10-4.5C10 1 3 5.5 0 9.5Z",
    Suit.DIAMONDS: "M0-10L7.6 0L0 10L-7.6 0Z",
    Suit.CLUBS: ("M-4.6-4.6a4.6 4.6 0 1 1 9.2 0a4.6 4.6 0 1 1-9.2 0ZM-10 2.6a4.6 4.6 0 1 1 9.2 0"
                 "a4.6 4.6 0 1 1-9.2 0ZM.8 2.6a4.6 4.6 0 1 1 9.2 0a4.6 4.6 0 1 1-9.2 0Z"
                 "M-1.3 1.5H1.3L2 7.8 4 10H-4L-2 7.8Z"),
}

_L, _C, _R = 32, 50, 68
_ROWS4 = (32, 58, 82, 108)
# Pip centres for A–10 (x, y); pips below the middle line are drawn upside down, as on real cards.
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((_C, 32), (_C, 108)),
    3: ((_C, 32), (_C, 70), (_C, 108)),
    4: ((_L, 32), (_R, 32), (_L, 108), (_R, 108)),
    5: ((_L, 32), (_R, 32), (_C, 70), (_L, 108), (_R, 108)),
    6: ((_L, 32), (_R, 32), (_L, 70), (_R, 70), (_L, 108), (_R, 108)),
    7: ((_L, 32), (_R, 32), (_C, 51), (_L, 70), (_R, 70), (_L, 108), (_R, 108)),
    8: ((_L, 32), (_R, 32), (_C, 51), (_L, 70), (_R, 70), (_C, 89), (_L, 108), (_R, 108)),
    9: tuple((x, y) for y in _ROWS4 for x in (_L, _R))[:2] + ((_C, 45),)
    + tuple((x, y) for y in _ROWS4 for x in (_L, _R))[2:],
    10: tuple((x, y) for y in _ROWS4[:2] for x in (_L, _R)) + ((_C, 45), (_C, 95))
    + tuple((x, y) for y in _ROWS4[2:] for x in (_L, _R)),
}
PIP_SCALE = 0.82
ACE_SCALE = 2.3


def suit_colour(suit: Suit, four_colour: bool = False) -> str:
    """The ink of a suit: red/black, or black/red/blue/green for the four-colour deck."""
    return (FOUR_COLOURS if four_colour else TWO_COLOURS)[suit]


def _num(x: float) -> str:
    """Short, fixed formatting of coordinates so output is compact and deterministic."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _pip(suit: Suit, x: float, y: float, scale: float, colour: str | None) -> str:
    """One suit sign centred on (x, y); below the middle line it is turned upside down. ``colour=None``
    leaves the fill to an enclosing group."""
    s = -scale if y > VIEW_H / 2 else scale
    fill = f' fill="{colour}"' if colour else ""
    return f'<path transform="matrix({_num(s)} 0 0 {_num(s)} {_num(x)} {_num(y)})"{fill} d="{SUIT_PATHS[suit]}"/>'


def _attrs(attrs: Mapping[str, object] | None) -> str:
    if not attrs:
        return ""
    return "".join(f' {html.escape(str(k))}="{html.escape(str(v))}"' for k, v in attrs.items())


def _open_svg(width: float, label: str, extra: Mapping[str, object]) -> str:
    height = width * VIEW_H / VIEW_W
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="cl-card" width="{_num(width)}" '
            f'height="{_num(height)}" viewBox="0 0 {VIEW_W} {VIEW_H}" role="img"'
            f'{_attrs(extra)}><title>{html.escape(label)}</title>')


def _outline(highlight: bool) -> str:
    if not highlight:
        return ""
    return (f'<rect x="2.5" y="2.5" width="95" height="135" rx="8" fill="none" stroke="{HIGHLIGHT}" '
            'stroke-width="5"/>')


def _index(card: Card, colour: str) -> str:
    """Rank above a small suit sign in the top-left corner; the caller repeats it rotated."""
    label = card.rank.label
    squeeze = ' textLength="17" lengthAdjust="spacingAndGlyphs"' if len(label) > 1 else ""
    return (f'<text x="11" y="21" font-family="sans-serif" font-weight="bold" font-size="19" '
            f'text-anchor="middle" fill="{colour}"{squeeze}>{label}</text>'
            f'<path transform="matrix(.48 0 0 .48 11 32)" fill="{colour}" d="{SUIT_PATHS[card.suit]}"/>')


def _court_half(rank: Rank, suit: Suit, colour: str) -> str:
    """Upper half of a court figure: head, headgear and shoulders, in the suit's colour."""
    head = '<circle cx="50" cy="44" r="8" fill="#f6d7b8" stroke="#333" stroke-width="1"/>'
    shoulders = (f'<path d="M30 70Q30 55 50 55Q70 55 70 70Z" fill="{colour}" stroke="#333" stroke-width="1"/>'
                 f'<text x="50" y="68" font-family="serif" font-weight="bold" font-size="11" text-anchor="middle" '
                 f'fill="#fff">{rank.label}</text>')
    if rank == Rank.KING:
        hat = ('<path d="M40 38V25L45 31L50 23L55 31L60 25V38Z" fill="#e2b007" stroke="#333" stroke-width="1"/>'
               '<path d="M43 49Q50 58 57 49Q56 55 50 56Q44 55 43 49Z" fill="#8a5a2b"/>')
    elif rank == Rank.QUEEN:
        hat = ('<path d="M40 47Q36 34 50 33Q64 34 60 47Q58 37 50 37Q42 37 40 47Z" fill="#8a5a2b"/>'
               '<path d="M42 36L44 28L50 33L56 28L58 36Z" fill="#e2b007" stroke="#333" stroke-width="1"/>'
               '<circle cx="44" cy="27.5" r="1.8" fill="#e2b007"/><circle cx="56" cy="27.5" r="1.8" fill="#e2b007"/>')
    else:
        hat = (f'<path d="M40 38Q41 30 50 30Q59 30 60 38Z" fill="{colour}" stroke="#333" stroke-width="1"/>'
               '<path d="M57 32Q66 22 70 25Q64 27 59 35Z" fill="#e2b007" stroke="#333" stroke-width=".8"/>')
    return head + hat + shoulders + _pip(suit, 30, 27, 0.42, colour)


def _court(card: Card, colour: str) -> str:
    half = _court_half(card.rank, card.suit, colour)
    return ('<rect x="21" y="16" width="58" height="108" rx="3" fill="#fbf3e0" stroke="#333" stroke-width="1"/>'
            f'<rect x="24" y="19" width="52" height="102" rx="2" fill="none" stroke="{colour}" stroke-width="1.5"/>'
            f'{half}<g transform="rotate(180 50 70)">{half}</g>'
            '<path d="M24 70H76" stroke="#333" stroke-width=".8"/>')


def _pips(card: Card, colour: str) -> str:
    if card.rank == Rank.ACE:
        return _pip(card.suit, 50, 70, ACE_SCALE, colour)
    pips = "".join(_pip(card.suit, x, y, PIP_SCALE, None) for x, y in PIP_LAYOUTS[int(card.rank)])
    return f'<g fill="{colour}">{pips}</g>'


@cache
def _face_body(card_face: tuple[Rank, Suit], four_colour: bool) -> str:
    rank, suit = card_face
    card = Card(rank, suit)
    colour = suit_colour(suit, four_colour)
    index = _index(card, colour)
    middle = _court(card, colour) if rank >= Rank.JACK else _pips(card, colour)
    return ('<rect x=".75" y=".75" width="98.5" height="138.5" rx="8" fill="#fff" stroke="#555" stroke-width="1.5"/>'
            f'{middle}{index}<g transform="rotate(180 50 70)">{index}</g>')


def _lattice() -> str:
    """Diagonal lines x±y=c clipped by hand to the inner panel (no clipPath, hence no ids)."""
    x0, y0, x1, y1 = 8.0, 8.0, 92.0, 132.0
    parts: list[str] = []
    step = 12.0
    c = x0 + y0 + step / 2
    while c < x1 + y1:
        # line x + y = c
        ax, ay = max(x0, c - y1), c - max(x0, c - y1)
        bx, by = min(x1, c - y0), c - min(x1, c - y0)
        parts.append(f"M{_num(ax)} {_num(ay)}L{_num(bx)} {_num(by)}")
        c += step
    d = x0 - y1 + step / 2
    while d < x1 - y0:
        # line x - y = d
        ax = max(x0, y0 + d)
        bx = min(x1, y1 + d)
        parts.append(f"M{_num(ax)} {_num(ax - d)}L{_num(bx)} {_num(bx - d)}")
        d += step
    return "".join(parts)


@cache
def _back_body(colour: str) -> str:
    return ('<rect x=".75" y=".75" width="98.5" height="138.5" rx="8" fill="#fff" stroke="#555" stroke-width="1.5"/>'
            f'<rect x="7" y="7" width="86" height="126" rx="5" fill="{colour}"/>'
            f'<path d="{_lattice()}" stroke="{BACK_LINE}" stroke-width="1.6" fill="none"/>'
            f'<path d="M50 44L72 70L50 96L28 70Z" fill="{colour}" stroke="#fff" stroke-width="2.5"/>'
            '<circle cx="50" cy="70" r="6" fill="#fff"/>')


BACK_TITLE = "<title>face-down card</title>"


def share_backs(markup: str) -> str:
    """``markup`` with the drawing of every default-coloured back left out (each back keeps its ``<svg>`` element,
    size, title, data attributes and highlight), to be painted by :func:`back_css`'s rule instead."""
    return markup.replace(BACK_TITLE + _back_body(BACK_COLOUR), BACK_TITLE)


@cache
def back_css(scope: str) -> str:
    """The CSS rule that paints a back under every card element inside ``scope`` (a CSS selector) that
    :func:`share_backs` emptied: the same drawing as :func:`back_svg`'s, as an SVG image scaled to the card.

    It also lies under backs drawn in full, hidden by their own identical drawing."""
    single = _back_body(BACK_COLOUR).replace('"', "'")   # single quotes need no escaping in the URL
    picture = f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {VIEW_W} {VIEW_H}'>{single}</svg>"
    uri = quote(picture, safe=" =:/.,-'()")
    return f'{scope} svg.cl-card[data-facedown]{{background:url("data:image/svg+xml,{uri}") 0 0/100% 100% no-repeat}}'


def face_svg(card: Card, *, width: float = DEFAULT_WIDTH, four_colour: bool = False, highlight: bool = False,
             hidden: bool = False, attrs: Mapping[str, object] | None = None) -> str:
    """A face-up card. ``hidden=True`` tints it blue: a face-down card shown only because all is revealed."""
    extra: dict[str, object] = {"data-card": face_of(card).code}  # the face: which pack stays hidden
    if hidden:
        extra["data-hidden"] = "1"
    if highlight:
        extra["data-highlight"] = "1"
    extra.update(attrs or {})
    label = f"{card.rank.word} of {card.suit.name.lower()}" + (" (face down, revealed)" if hidden else "")
    tint = ""
    if hidden:
        tint = (f'<rect x=".75" y=".75" width="98.5" height="138.5" rx="8" fill="{HIDDEN_TINT}" fill-opacity=".22" '
                f'stroke="{HIDDEN_TINT}" stroke-width="4" stroke-dasharray="8 5"/>')
    return (_open_svg(width, label, extra) + _face_body(card.face, four_colour) + tint + _outline(highlight)
            + "</svg>")


def back_svg(*, width: float = DEFAULT_WIDTH, highlight: bool = False, colour: str = BACK_COLOUR,
             attrs: Mapping[str, object] | None = None) -> str:
    """A face-down card. It carries no hint of which card it is."""
    extra: dict[str, object] = {"data-facedown": "1"}
    if highlight:
        extra["data-highlight"] = "1"
    extra.update(attrs or {})
    return _open_svg(width, "face-down card", extra) + _back_body(colour) + _outline(highlight) + "</svg>"


LABEL_INK = "#1f2328"   # an empty place's words: 15:1 on the white chip behind them


def slot_svg(label: str = "", *, width: float = DEFAULT_WIDTH, disabled: bool = False, highlight: bool = False,
             attrs: Mapping[str, object] | None = None) -> str:
    """An empty place for a card: a dashed outline; ``disabled`` greys it out and hatches it."""
    extra: dict[str, object] = {"data-empty": "1"}
    if disabled:
        extra["data-disabled"] = "1"
    if highlight:
        extra["data-highlight"] = "1"
    extra.update(attrs or {})
    title = f"{label} (unplayable)" if disabled and label else (label or "empty place")
    if disabled:
        body = ('<rect x="2" y="2" width="96" height="136" rx="8" fill="#d5d8dc" stroke="#9aa0a6" stroke-width="2"/>'
                '<path d="M12 40L60 8M12 88L88 37M12 132L88 82M60 132L88 113" stroke="#b4b9bf" stroke-width="4"/>')
    else:
        body = ('<rect x="2" y="2" width="96" height="136" rx="8" fill="#000" fill-opacity=".04" stroke="#8b96a3" '
                'stroke-width="2.5" stroke-dasharray="9 6"/>')
    text = ""
    if label:
        # dark words on a light chip: readable (WCAG AA, 4.5:1 and more) on any table colour, and as large as
        # the place allows (about 11 px at the table's card width for "held", "empty", "next")
        size = 34 if len(label) <= 2 else min(26.0, 150 / len(label))
        chip_w = min(96.0, len(label) * size * 0.62 + 10)
        text = (f'<rect x="{_num(50 - chip_w / 2)}" y="{_num(70 - size * 0.75)}" width="{_num(chip_w)}" '
                f'height="{_num(size * 1.35)}" rx="4" fill="#ffffff" fill-opacity=".92"/>'
                f'<text x="50" y="{_num(70 + size * 0.35)}" font-family="sans-serif" font-size="{_num(size)}" '
                f'text-anchor="middle" fill="{LABEL_INK}">{html.escape(label)}</text>')
    return _open_svg(width, title, extra) + body + text + _outline(highlight) + "</svg>"


def card_svg(card: Card | None, *, face_down: bool = False, width: float = DEFAULT_WIDTH, four_colour: bool = False,
             highlight: bool = False, attrs: Mapping[str, object] | None = None) -> str:
    """The one entry point: a face, a back (``face_down`` or an unknown card), or an empty slot (``None``).

    ``card=None, face_down=True`` is a card whose identity the viewer does not know. A known card with
    ``face_down=True`` is drawn as a back too, so that nothing about it reaches the page.
    """
    if face_down:
        return back_svg(width=width, highlight=highlight, attrs=attrs)
    if card is None:
        return slot_svg(width=width, highlight=highlight, attrs=attrs)
    return face_svg(card, width=width, four_colour=four_colour, highlight=highlight, attrs=attrs)


def card_html(card: Card | None, *, face_down: bool = False, width: float = 44, four_colour: bool = False,
              highlight: bool = False, caption: str | None = None,
              attrs: Mapping[str, object] | None = None) -> str:
    """A card in an inline-block box, with an optional caption below: the content of a clickable move button."""
    cap = ""
    if caption:
        cap = (f'<div style="font:11px sans-serif;color:#333;text-align:center;max-width:{_num(width + 16)}px">'
               f"{html.escape(caption)}</div>")
    svg = card_svg(card, face_down=face_down, width=width, four_colour=four_colour, highlight=highlight)
    return (f'<div class="cl-cardbox" style="display:inline-block;vertical-align:top;margin:2px;line-height:0;'
            f'text-align:center"{_attrs(attrs)}>{svg}{cap}</div>')   # the card centred over a wider caption


def suit_sign_svg(suit: Suit, *, size: float = 16, four_colour: bool = False) -> str:
    """A suit sign alone, for legends and captions."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(size)}" height="{_num(size)}" '
            f'viewBox="-10 -10 20 20" role="img" aria-label="{suit.name.lower()}">'
            f'<path fill="{suit_colour(suit, four_colour)}" d="{SUIT_PATHS[suit]}"/></svg>')


def legend_html(four_colour: bool = True) -> str:
    """Which colour stands for which suit, with the shapes, so the two decks can be compared."""
    items = []
    for suit in Suit:
        colour = COLOUR_WORDS[suit] if four_colour else ("red" if suit.is_red else "black")
        items.append(f'<span style="display:inline-flex;align-items:center;gap:3px;margin-right:12px">'
                     f"{suit_sign_svg(suit, four_colour=four_colour)}"
                     f"<b>{suit.symbol}</b> {suit.name.lower()}: {colour}</span>")
    note = ("Four-colour deck: every suit has its own colour, and the suit shapes differ as well."
            if four_colour else "Two-colour deck: hearts and diamonds are red, spades and clubs black.")
    return (f'<div class="cl-legend" style="font:13px sans-serif;color:#222;margin:4px 0">'
            f'{"".join(items)}<div style="color:#555;font-size:12px">{note}</div></div>')
