"""The move chooser of a human seat: the legal moves grouped by the card they name, one tile per card.

A Spite and Malice hand of five cards with four empty side piles offers some 27 moves, the same card up to seven
times ("hand 2♥ to centre 1" … "hand 2♥ to side 4"). A student scans them as cards: :func:`group_moves` puts
every move naming the same card (the first card of :meth:`~cardlab.engine.game.Move.cards`, the move's own
typed card field, in any game) in one group, shown once as a tile: the card's picture, the words the moves
share ("hand 2♥"), and one small button per destination ("to centre 1", "to side 4"). A move naming no card
(Garbage's "draw stock", a Spite and Malice payoff play) or a card no other move names keeps a tile of its own
with its whole text; every tile has a picture (a move naming no card gets an empty place labelled with the
move's kind). Each button's tooltip is the whole move.

Groups come in the order of their first move; within a group the moves keep the game's order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import ipywidgets as widgets

from cardlab.cards import Card
from cardlab.engine.game import Move
from cardlab.viz.cards_svg import card_html, slot_svg

PICTURE_WIDTH = 34


@dataclass(frozen=True)
class MoveGroup:
    """One tile: the card its moves name (None for a move naming none), the words they share, and per move
    ``(index in the legal moves, the button's words, the whole move text)``."""

    card: Card | None
    caption: str
    moves: tuple[tuple[int, str, str], ...]


def group_moves(legal: Sequence[Move]) -> list[MoveGroup]:
    """The legal moves grouped by the card they name (see the module docstring)."""
    keyed: dict[tuple[str, object], list[int]] = {}
    for i, move in enumerate(legal):
        cards = move.cards()
        keyed.setdefault(("card", cards[0]) if cards else ("move", i), []).append(i)
    groups = []
    for key, indices in keyed.items():
        card = key[1] if isinstance(key[1], Card) else None
        if card is None or len(indices) == 1:
            text = legal[indices[0]].text
            groups.append(MoveGroup(card, "", ((indices[0], text, text),)))
            continue
        name = str(card)
        heads, rows = set(), []
        for i in indices:
            text = legal[i].text
            head, found, tail = text.partition(name)
            if found and tail.strip():
                heads.add((head + name).strip())
                rows.append((i, tail.strip(), text))
            else:
                rows.append((i, text, text))
        caption = heads.pop() if len(heads) == 1 else name
        groups.append(MoveGroup(card, caption, tuple(rows)))
    return groups


def group_picture(group: MoveGroup, kind: str, four_colour: bool) -> str:
    """The tile's picture: the card, or an empty place labelled with the move's kind; the shared words below."""
    if group.card is not None:
        return card_html(group.card, four_colour=four_colour, width=PICTURE_WIDTH, caption=group.caption or None)
    return ('<div class="cl-cardbox" style="display:inline-block;margin:2px;line-height:0">'
            f"{slot_svg(kind, width=PICTURE_WIDTH)}</div>")


class MoveTile:
    """A tile of the chooser: a picture above one button per move of its group (buttons are kept and reused)."""

    def __init__(self, on_click: Callable[[int], None]) -> None:
        self.picture = widgets.HTML()
        self.buttons: list[widgets.Button] = []
        self.indices: list[int] = []
        self._on_click = on_click
        self.row = widgets.HBox([], layout=widgets.Layout(flex_flow="row wrap", justify_content="center"))
        self.box = widgets.VBox([self.picture, self.row],
                                layout=widgets.Layout(align_items="center", margin="2px", padding="2px",
                                                      border="1px solid #c8ccd2", max_width="260px"))
        self.box.add_class("cardlab-move-tile")

    def _button(self, k: int) -> widgets.Button:
        while len(self.buttons) <= k:
            n = len(self.buttons)
            b = widgets.Button(layout=widgets.Layout(width="auto", margin="1px"))
            b.on_click(lambda _b, n=n: self._on_click(self.indices[n] if n < len(self.indices) else -1))
            self.buttons.append(b)
        return self.buttons[k]

    def show(self, picture: str, rows: Sequence[tuple[int, str, str]], tooltip_head: str) -> None:
        """Show ``picture`` and one button per ``(index, words, whole move)``."""
        self.picture.value = picture
        self.indices = [i for i, _, _ in rows]
        shown = []
        for k, (_, words, text) in enumerate(rows):
            b = self._button(k)
            b.description, b.tooltip = words, f"{tooltip_head}{text}"
            shown.append(b)
        for b in self.buttons[len(rows):]:
            b.description = b.tooltip = ""
        if list(self.row.children) != shown:
            self.row.children = shown

    def clear(self) -> None:
        self.show("", [], "")
