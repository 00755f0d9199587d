"""Showing a live widget with a still picture beside it, for pages that run no widgets.

A notebook output holds the widget's view and a ``text/html`` picture (and a ``text/plain`` line): JupyterLab and
Voilà draw the live widget, while a page that runs no widgets (GitHub, nbviewer, an exported HTML file) shows the
picture. The picture is kept current after each cell that changed it (``update_display``) until a page reports
drawing the live plots: from then on the live page shows the truth, and updating the output would make the page
build the widget's view again.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from cardlab.viz.snapshot import keep_current


class LiveDisplay:
    """The outputs that show one widget ``box``; ``plain`` and ``still`` make its text and picture, ``drawn``
    says whether a page draws its plots, ``before_show`` runs before the first output is published."""

    def __init__(self, box: widgets.Widget, plain: Callable[[], str], still: Callable[[], str],
                 drawn: Callable[[], bool], before_show: Callable[[], None]) -> None:
        self.box = box
        self.plain = plain
        self.still = still
        self.drawn = drawn
        self.before_show = before_show
        self.display_ids: list[str] = []   # the outputs showing it (their still pictures are kept current)
        self.shown_html = ""               # the still picture they show

    def bundle(self, picture: str) -> dict[str, Any]:
        """The widget's view, with the plain text and the still picture ``picture`` (made once by the caller)."""
        data = dict(self.box._repr_mimebundle_() or {})
        data["text/plain"] = self.plain()
        data["text/html"] = picture
        return data

    def show(self) -> None:
        """Publish one more output of the widget (a closed widget shows nothing)."""
        from IPython import display as ipd
        if self.box.comm is None:
            return
        self.before_show()   # the page's views are built from the current state, sent first
        display_id = uuid.uuid4().hex
        self.display_ids.append(display_id)
        self.shown_html = self.still()
        publish: Callable[..., Any] = ipd.display
        publish(self.bundle(self.shown_html), raw=True, display_id=display_id)
        keep_current(self.update)

    def update(self) -> None:
        """Bring the outputs' still picture up to date (what runs after each cell), until a page draws."""
        if not self.display_ids or self.box.comm is None or self.drawn():
            return
        picture = self.still()
        if picture == self.shown_html:
            return
        from IPython import display as ipd
        self.shown_html = picture
        bundle = self.bundle(picture)
        update: Callable[..., Any] = ipd.update_display
        for display_id in self.display_ids:
            update(bundle, raw=True, display_id=display_id)
