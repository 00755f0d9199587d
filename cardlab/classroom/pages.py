"""The class server's three pages: plain HTML with inline CSS and a little script, no framework, no plotly.js.

* ``join``: a box for the join code (filled in from the QR code's address); joining keeps the student's token in
  the phone's local storage (and a cookie), so a reload or a lost connection comes back to the same student.
* ``play``: the table as the stepper draws it, the question, the box for the guess, the count of answers; after
  Reveal the answer, the distance from the guess, the class spread (bins only) and the student's running score.
  It listens to ``/api/events`` and fetches its state again whenever the question or its state changes.
* ``teacher``: the projector's page: join code and QR code, the live count, the histogram of guesses, Reveal and
  Next, the CSV. Its token is read from the address's ``#`` part, which a browser never sends to a server.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import segno

CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
STATIC = Path(__file__).with_name("static")
NAMES = ("join", "play", "teacher")


@cache
def page(name: str) -> str:
    """The page ``name`` (``join``, ``play`` or ``teacher``) from ``static/``, with the shared style and script
    written in (one request per page: a phone on a slow network waits for one answer, not three)."""
    if name not in NAMES:
        raise KeyError(name)
    text = (STATIC / f"{name}.html").read_text("utf-8")
    return (text.replace("/*STYLE*/", (STATIC / "style.css").read_text("utf-8"))
            .replace("/*COMMON*/", (STATIC / "common.js").read_text("utf-8")))


def qr_svg(url: str) -> str:
    """The join address as a QR code: a standalone SVG document (with its namespace, so that a browser draws it
    as an image), white around the code (a phone's camera needs the quiet zone)."""
    import io

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=4, light="#fff")
    return out.getvalue().decode("utf-8")


def qr_text(url: str) -> str:
    """The join address as a QR code drawn with block characters, for the terminal."""
    import io

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()
