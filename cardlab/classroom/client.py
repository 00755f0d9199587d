"""The teacher's side in Python: :class:`ClassSession` talks to a running class server by its address and token.

::

    session = ClassSession("http://127.0.0.1:8765/teacher#token=...")   # the address `cardlab class` printed
    session.ask_game(game, "What is the chance that seat 0 wins?", answer=0.31, low=0.28, high=0.34, exact=False)
    session.status().count        # answers so far
    session.reveal()
    session.export_csv()          # every question and guess

The session lives in the server (and its SQLite file), not in the kernel: a restarted kernel connects again with
the same address and finds the question, the guesses and the counts where they were. Only the standard library
is used (``urllib``); every refusal of the server is raised as the same :class:`~cardlab.errors.ClassroomError`
class the server answered with, with its sentence, and a server that does not answer is a
:class:`~cardlab.errors.ClassServerError`.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardlab.classroom.position import position_html
from cardlab.engine.game import Game
from cardlab.errors import (
    BadJoinCodeError,
    BadRequestError,
    ClassroomError,
    ClassServerError,
    InvalidInputError,
    NotAllowedError,
    QuestionStateError,
    RateLimitedError,
    TooLargeError,
    shown,
)

_BY_STATUS: dict[int, type[ClassroomError]] = {403: NotAllowedError, 404: BadJoinCodeError, 409: QuestionStateError,
                                               413: TooLargeError, 429: RateLimitedError}


@dataclass(frozen=True)
class ClassQuestion:
    """A question as the server holds it (``state``: ``open`` or ``revealed``)."""

    number: int
    key: str
    text: str
    state: str
    answer: float
    low: float
    high: float
    exact: bool
    answer_text: str

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ClassQuestion:
        return cls(int(d["number"]), str(d["key"]), str(d["text"]), str(d["state"]), float(d["answer"]),
                   float(d["low"]), float(d["high"]), bool(d["exact"]), str(d["answer_text"]))


@dataclass(frozen=True)
class QuestionSummary:
    """One question of the session for the calibration chart: the answer and the class's mean guess."""

    number: int
    text: str
    state: str
    answer: float
    low: float
    high: float
    exact: bool
    count: int
    mean: float | None


@dataclass(frozen=True)
class ClassStatus:
    """What the teacher sees: students, the question on the screen, its count and every guess (no names)."""

    join_code: str
    join_url: str
    students: int
    question: ClassQuestion | None
    count: int
    values: tuple[float, ...]
    histogram: tuple[int, ...]
    questions: tuple[QuestionSummary, ...]

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ClassStatus:
        q = d.get("question")
        return cls(str(d["join_code"]), str(d["join_url"]), int(d["students"]),
                   None if q is None else ClassQuestion.from_json(q), int(d["count"]),
                   tuple(float(v) for v in d["values"]), tuple(int(c) for c in d["histogram"]),
                   tuple(QuestionSummary(int(s["number"]), str(s["text"]), str(s["state"]), float(s["answer"]),
                                         float(s["low"]), float(s["high"]), bool(s["exact"]), int(s["count"]),
                                         None if s["mean"] is None else float(s["mean"]))
                         for s in d["questions"]))


def split_address(url: str, token: str | None) -> tuple[str, str]:
    """``(server base address, teacher token)`` from the teacher's address (``.../teacher#token=...``) or a base
    address and a token."""
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise InvalidInputError(f"class server address {shown(url)} is not an http:// or https:// address; give "
                                "the teacher's address that `cardlab class` printed")
    parts = urllib.parse.urlsplit(url)
    given = urllib.parse.parse_qs(parts.fragment).get("token", [None])[0]
    token = token if token is not None else given
    if not isinstance(token, str) or not token:
        raise InvalidInputError("the teacher's token is missing: give the whole teacher's address (it ends with "
                                "#token=...) or token=...")
    path = parts.path.removesuffix("/teacher").rstrip("/")
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", "")), token


class ClassSession:
    """A connection to a running class server, as its teacher (see the module docstring)."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 10.0) -> None:
        self.base, self._token = split_address(url, token)
        self.timeout = float(timeout)
        self._watchers: list[_Watcher] = []
        self.status()   # fails now, with a clear sentence, if the server does not answer or refuses the token

    @classmethod
    def local(cls, store: str | Path = "cardlab-class.sqlite3", timeout: float = 10.0) -> ClassSession:
        """Connect to the class server started in this folder (``cardlab class --store STORE``) by the address it
        wrote beside its store: the teacher's token never shows on the projected notebook."""
        path = Path(store)
        path = path.with_name(path.name + ".teacher")
        try:
            address = path.read_text(encoding="utf-8").strip()
        except OSError:
            raise ClassServerError(f"no class server has written its address to {str(path)!r}: start it with "
                                   f"`cardlab class --store {store}` in the same folder, or give its address") from None
        return cls(address, timeout=timeout)

    def __repr__(self) -> str:
        return f"ClassSession({self.base!r})"

    # ------------------------------------------------------------------ requests
    def _request(self, method: str, path: str, body: dict[str, Any] | None = None) -> bytes:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Authorization": f"Bearer {self._token}",
                                              "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as response:
                return bytes(response.read())
        except urllib.error.HTTPError as exc:
            try:
                message = str(json.loads(exc.read())["error"])
            except (ValueError, KeyError, TypeError):
                raise ClassServerError(f"{self.base} answered {exc.code}, not as the class server does") from None
            raise _BY_STATUS.get(exc.code, BadRequestError)(message) from None
        except (urllib.error.URLError, OSError) as exc:
            raise ClassServerError(f"the class server at {self.base} does not answer ({exc}): is `cardlab class` "
                                   "running?") from None

    def _json(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        raw = self._request(method, path, body)   # its refusals are ClassroomErrors (ValueErrors): not caught here
        try:
            out = json.loads(raw)
        except ValueError:
            raise ClassServerError(f"{self.base} did not answer with JSON: is it the class server?") from None
        if not isinstance(out, dict):
            raise ClassServerError(f"{self.base} did not answer as the class server does")
        return out

    # ------------------------------------------------------------------ the teacher's actions
    def status(self) -> ClassStatus:
        return ClassStatus.from_json(self._json("GET", "/api/teacher/status"))

    def ask(self, key: str, text: str, position: str, answer: float, low: float, high: float, exact: bool,
            answer_text: str) -> ClassQuestion:
        """Put a question on every student's screen (refused while another question is open)."""
        return ClassQuestion.from_json(self._json("POST", "/api/teacher/ask", {
            "key": key, "text": text, "position": position, "answer": answer, "low": low, "high": high,
            "exact": exact, "answer_text": answer_text}))

    def ask_game(self, game: Game[Any], text: str, answer: float, low: float | None = None,
                 high: float | None = None, exact: bool = True, key: str = "question",
                 viewpoint: int | None = None, answer_text: str | None = None) -> ClassQuestion:
        """Ask about ``game`` as ``viewpoint`` sees it (the table's public view by default): the picture is
        :func:`~cardlab.classroom.position.position_html`, built from ``game.observe(viewpoint)``."""
        low = answer if low is None else low
        high = answer if high is None else high
        if answer_text is None:
            answer_text = (f"{answer:.4f} (exact)" if exact else
                           f"{answer:.3f}, 95% interval [{low:.3f}, {high:.3f}] (estimate)")
        return self.ask(key, text, position_html(game, viewpoint), answer, low, high, exact, answer_text)

    def reveal(self, number: int | None = None) -> ClassQuestion:
        """Close the question (the open one by default) and show its answer to every student."""
        if number is None:
            current = self.status().question
            if current is None or current.state != "open":
                raise QuestionStateError("there is no open question to reveal: ask the class first")
            number = current.number
        return ClassQuestion.from_json(self._json("POST", "/api/teacher/reveal", {"question": number}))

    def next(self) -> None:
        """Move on: the students' screens wait for the next question."""
        self._json("POST", "/api/teacher/next", {})

    def export_csv(self) -> str:
        """Every question and guess of the session, as CSV text."""
        return self._request("GET", "/api/teacher/export.csv").decode("utf-8")

    # ------------------------------------------------------------------ live updates
    def watch(self, callback: Callable[[ClassStatus], None]) -> Callable[[], None]:
        """Call ``callback`` with the status on every change (from a background thread reading the server's
        event stream, reconnecting by itself); returns the function that stops it."""
        watcher = _Watcher(self, callback)
        self._watchers.append(watcher)
        watcher.start()
        return watcher.stop

    def close(self) -> None:
        """Stop every watcher of this session (the server and its session carry on)."""
        for w in self._watchers:
            w.stop()
        self._watchers.clear()


class _Watcher:
    """Reads ``/api/teacher/events`` in a daemon thread; after a lost connection it waits a second and
    reconnects (as a browser's EventSource does)."""

    def __init__(self, session: ClassSession, callback: Callable[[ClassStatus], None]) -> None:
        self.session = session
        self.callback = callback
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cardlab-class-events", daemon=True)
        self.error: str | None = None

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        s = self.session
        url = f"{s.base}/api/teacher/events?token={urllib.parse.quote(s._token)}"
        while not self._stop.is_set():
            try:
                with urllib.request.urlopen(url, timeout=30) as stream:
                    self.error = None
                    for raw in stream:
                        if self._stop.is_set():
                            return
                        line = raw.decode("utf-8").rstrip("\n")
                        if line.startswith("data: "):
                            self.callback(ClassStatus.from_json(json.loads(line[6:])))
            except Exception as exc:  # a lost connection, a stopped server: try again in a second
                self.error = str(exc)
            self._stop.wait(1.0)
