"""Helpers for the drawing tests: read the card elements back out of rendered HTML."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from cardlab.viz.cards_svg import share_backs
from cardlab.viz.table import table_html


class _CardCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.cards: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "svg" and "cl-card" in values.get("class", "").split():
            self.cards.append(values)


def card_elements(html: str, **wanted: str) -> list[dict[str, str]]:
    """The attributes of every drawn card (``<svg class="cl-card">``) whose attributes match ``wanted``.

    Keyword names use ``_`` for ``-``: ``card_elements(page, data_zone="stock")``.
    """
    parser = _CardCollector()
    parser.feed(html)
    want = {k.replace("_", "-"): v for k, v in wanted.items()}
    return [c for c in parser.cards if all(c.get(k) == v for k, v in want.items())]


def one_card(html: str, **wanted: str) -> dict[str, str]:
    found = card_elements(html, **wanted)
    assert len(found) == 1, f"expected one card element with {wanted}, found {len(found)}"
    return found[0]


def page_table(*args: Any, **kwargs: Any) -> str:
    """What a stepper sends to the page for ``table_html(*args, **kwargs)``: the same table, its face-down
    face-down cards left to the kernel's one back picture (``share_backs``)."""
    return share_backs(table_html(*args, **kwargs))


class ManualClock:
    """A stand-in for the kernel's event loop in Autoplay (``Autoplayer.later``): callbacks wait here until a test
    runs them, one at a time, in order."""

    class Handle:
        def __init__(self) -> None:
            self.cancelled = False

        def cancel(self) -> None:
            self.cancelled = True

    def __init__(self) -> None:
        self.waiting: list[tuple[float, Any, ManualClock.Handle]] = []

    def __call__(self, seconds: float, callback: Any) -> ManualClock.Handle:
        handle = ManualClock.Handle()
        self.waiting.append((seconds, callback, handle))
        return handle

    def pending(self) -> int:
        return sum(1 for _, _, h in self.waiting if not h.cancelled)

    def run_one(self) -> bool:
        """Run the oldest callback not cancelled; False if none waits."""
        while self.waiting:
            _, callback, handle = self.waiting.pop(0)
            if not handle.cancelled:
                callback()
                return True
        return False
