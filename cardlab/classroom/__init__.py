"""The whole class predicts: a class server for live predictions (``cardlab class``).

The teacher starts the server (:mod:`cardlab.classroom.app`), students join from their phones with a short code
(:mod:`cardlab.classroom.pages`), and the teacher's stepper asks the class about its current position
(:class:`~cardlab.classroom.client.ClassSession`, and :mod:`cardlab.viz.classpoll` for the buttons). Every guess is
stored in SQLite before it is acknowledged (:mod:`cardlab.classroom.store`); the endpoints and their limits are in
:mod:`cardlab.classroom.server`. The server needs the ``class`` extra: ``pip install "cardlab[class]"``.
"""

from __future__ import annotations

from cardlab.classroom.guess import parse_guess

__all__ = ["parse_guess"]
