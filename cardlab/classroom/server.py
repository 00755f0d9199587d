"""The class server: a tornado web application over a :class:`~cardlab.classroom.store.Store`.

Endpoints (JSON in and out; every refusal is a 4xx with ``{"error": "<sentence>"}`` and changes nothing):

=====================================  =========  ===================================================================
``GET /``                              public     the students' join page (``?code=`` fills the code in)
``GET /play``                          public     the students' question page (plain HTML, no Jupyter, no plotly.js)
``GET /teacher``                       public     the teacher's page; its token is in the address's ``#`` part
``GET /qr.svg``                        public     the join address as a QR code
``GET /api/health``                    public     ``{"ok": true}``
``GET /api/events``                    public     server-sent events: question number, state, count (nobody's guess)
``POST /api/join``                     code       ``{"code"}`` -> ``{"token", "student"}`` (and a cookie)
``GET /api/state``                     student    the question, the student's own guess; after Reveal the answer, the
                                                  class spread (bins only), the student's running score
``POST /api/guess``                    student    ``{"question": n, "guess": "30%"}``; changeable until Reveal
``GET /api/teacher/status``            teacher    count, every guess's value (no names), the session's questions
``GET /api/teacher/events``            teacher    server-sent events of the status (``?token=``)
``POST /api/teacher/ask``              teacher    ``{"key", "text", "position", "answer", "low", "high", "exact",
                                                  "answer_text"}``
``POST /api/teacher/reveal``           teacher    ``{"question": n}``
``POST /api/teacher/next``             teacher    ``{}``: move on (nothing on the screen until the next question)
``GET /api/teacher/export.csv``        teacher    every question and guess
=====================================  =========  ===================================================================

The teacher's token goes in an ``Authorization: Bearer`` header (or ``?token=`` where a browser cannot set a
header: the event stream, the CSV link); a student's token in an ``X-Student-Token`` header or the cookie set at
joining. Limits: request bodies (2 kB for a student, 512 kB for the teacher), text fields, students per session,
and a rate limit per student and for joins and failed tokens (token buckets, :class:`Bucket`).

The answers are written to the store before the reply, so an acknowledged guess survives ``kill -9``
(:mod:`cardlab.classroom.store`). The event streams say ``retry: 1000``: a browser's ``EventSource``
reconnects by itself a second after the server comes back.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import tornado.httpserver
import tornado.iostream
import tornado.locks
import tornado.web
from tornado.ioloop import IOLoop

from cardlab.classroom import pages
from cardlab.classroom.guess import histogram, parse_guess, score
from cardlab.classroom.store import Guess, GuessItem, NewQuestion, Question, Session, Store
from cardlab.errors import (
    BadJoinCodeError,
    BadRequestError,
    ClassroomError,
    InvalidInputError,
    NotAllowedError,
    RateLimitedError,
    TooLargeError,
    shown,
)

log = logging.getLogger("cardlab.classroom")

T = TypeVar("T")
STUDENT_COOKIE = "cardlab_student"
TRANSPORT_BODY_LIMIT = 4_000_000
"""The longest request body tornado reads at all (the endpoints' own limits are far lower)."""


@dataclass(frozen=True)
class Limits:
    """What the server accepts (every limit refuses with a 4xx and changes nothing)."""

    student_body: int = 2_048
    teacher_body: int = 512_000
    text: int = 500
    key: int = 40
    answer_text: int = 200
    students: int = 2_000
    streams: int = 3_000
    student_rate: float = 10.0     # requests per second per student, on average
    student_burst: float = 20.0    # and at most this many at once
    join_rate: float = 100.0       # joins and requests with a wrong token per second, whole server
    join_burst: float = 400.0
    student_event_gap: float = 0.25   # seconds between two events on a student's stream (counts coalesce)
    teacher_event_gap: float = 0.02


@dataclass
class Bucket:
    """A token bucket: ``burst`` requests at once, refilled at ``rate`` per second."""

    rate: float
    burst: float
    level: float = -1.0   # below 0: not used yet (full at its first request)
    last: float = 0.0

    def take(self) -> bool:
        now = time.monotonic()
        if self.level < 0:
            self.level, self.last = self.burst, now
        self.level = min(self.burst, self.level + (now - self.last) * self.rate)
        self.last = now
        if self.level < 1.0:
            return False
        self.level -= 1.0
        return True


class Hub:
    """Tells the event streams that something changed: a sequence number and a condition to wait on."""

    def __init__(self) -> None:
        self.seq = 0
        self._changed = tornado.locks.Condition()
        self.streams = 0

    def changed(self) -> None:
        self.seq += 1
        self._changed.notify_all()

    async def wait(self, seen: int, timeout: float) -> None:
        if self.seq == seen:
            await self._changed.wait(timeout=IOLoop.current().time() + timeout)


class Classroom:
    """The state the handlers share: the store, the session being served, the limits, the rate buckets.

    Reads use ``store`` on the event loop's thread. Writes go to one writer thread with its own connection
    (``writer``), so the event loop keeps answering while a commit waits for the disk; guesses that arrive while
    a commit is under way are stored together in the next one (:meth:`guess`, a group commit). A request is
    answered after its write is on disk.
    """

    def __init__(self, store: Store, session: Session, join_url: str, limits: Limits | None = None) -> None:
        self.store = store
        self.writer = Store(store.path)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardlab-class-writer")
        self._pending: list[tuple[GuessItem, asyncio.Future[Guess]]] = []
        self._draining: asyncio.Task[None] | None = None   # the task storing the waiting guesses (kept referenced)
        self.session_id = session.id
        self.join_code = session.join_code
        self.teacher_token = session.teacher_token
        self.join_url = join_url
        self.limits = limits or Limits()
        self.hub = Hub()
        self.buckets: dict[int, Bucket] = {}
        self.join_bucket = Bucket(self.limits.join_rate, self.limits.join_burst)
        self._public: tuple[int, str] = (-1, "")

    async def write(self, action: Callable[..., T], *args: Any) -> T:
        """Run one write of the writer's store in the writer thread; its refusal is raised here."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, action, *args)

    async def guess(self, item: GuessItem) -> Guess:
        """Store a guess with the others waiting (one commit for all); returns once it is on disk."""
        future: asyncio.Future[Guess] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        if self._draining is None:
            self._draining = asyncio.get_running_loop().create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    results = await self.write(self.writer.guess_batch, [item for item, _ in batch])
                except Exception as exc:  # the disk failed: every guess of the batch is refused, none acknowledged
                    for _, future in batch:
                        future.set_exception(exc)
                    continue
                for (_, future), result in zip(batch, results, strict=True):
                    if isinstance(result, Exception):
                        future.set_exception(result)
                    else:
                        future.set_result(result)
                self.hub.changed()
        finally:
            self._draining = None

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        self.writer.close()

    def student_bucket(self, student_id: int) -> Bucket:
        bucket = self.buckets.get(student_id)
        if bucket is None:
            bucket = self.buckets[student_id] = Bucket(self.limits.student_rate, self.limits.student_burst)
        return bucket

    def current(self) -> Question | None:
        return self.store.current(self.session_id)

    def public_event(self) -> str:
        """The students' event (the same for everyone, so built once per change): no guess of anybody."""
        if self._public[0] != self.hub.seq:
            q = self.current()
            data = {"question": None if q is None else q.number, "state": None if q is None else q.state,
                    "count": 0 if q is None else self.store.count(q.id),
                    "students": self.store.student_count(self.session_id)}
            self._public = (self.hub.seq, json.dumps(data))
        return self._public[1]

    def teacher_status(self, position: bool = True) -> dict[str, Any]:
        q = self.current()
        values = [] if q is None else self.store.values(q.id)
        summary = []
        for each in self.store.questions(self.session_id):
            vals = self.store.values(each.id)
            summary.append({"number": each.number, "key": each.key, "text": each.text, "state": each.state,
                            "answer": each.answer, "low": each.low, "high": each.high, "exact": each.exact,
                            "count": len(vals), "mean": sum(vals) / len(vals) if vals else None})
        return {"join_code": self.join_code, "join_url": self.join_url,
                "students": self.store.student_count(self.session_id),
                "question": None if q is None else question_json(q, position=position, answer=True),
                "count": len(values), "values": sorted(values), "histogram": histogram(values),
                "questions": summary}


def question_json(q: Question, *, position: bool, answer: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"number": q.number, "key": q.key, "text": q.text, "state": q.state}
    if position:
        out["position"] = q.position
    if answer:
        out.update(answer=q.answer, low=q.low, high=q.high, exact=q.exact, answer_text=q.answer_text)
    return out


# ---------------------------------------------------------------------------- reading requests
def read_json(handler: tornado.web.RequestHandler, limit: int, fields: frozenset[str]) -> dict[str, Any]:
    """The request's JSON object, with no field but ``fields``, or a refusal naming what is wrong (never an
    exception of another kind). An unknown field is refused, not ignored: ``{"question": 1, "guess": "0.3",
    "student": 7}`` does not change anybody's guess."""
    body = handler.request.body
    if len(body) > limit:
        raise TooLargeError(f"the request body is {len(body):,} bytes; at most {limit:,} are accepted")
    ctype = handler.request.headers.get("Content-Type", "")
    if ctype.split(";")[0].strip().lower() != "application/json":
        raise BadRequestError(f"Content-Type {shown(ctype, 40)} is not accepted: send application/json")
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequestError("the request body is not a JSON object (UTF-8)") from None
    if not isinstance(data, dict):
        raise BadRequestError(f"the request body is {type(data).__name__}, not a JSON object")
    unknown = sorted(set(data) - fields)
    if unknown:
        raise BadRequestError(f"field {shown(unknown[0], 40)} is not accepted here; accepted: "
                              f"{', '.join(sorted(fields)) or 'none'}")
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def text_field(data: dict[str, Any], name: str, limit: int, *, empty: bool = False) -> str:
    value = data.get(name)
    if not isinstance(value, str):
        raise BadRequestError(f"field {name!r} must be text, got {shown(value, 40)}")
    if len(value) > limit:
        raise TooLargeError(f"field {name!r} is {len(value):,} characters long; at most {limit:,} are accepted")
    if not empty and not value.strip():
        raise BadRequestError(f"field {name!r} is empty")
    if "\x00" in value:
        raise BadRequestError(f"field {name!r} holds a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise BadRequestError(f"field {name!r} is not valid Unicode text") from None
    return value


def number_field(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1_000_000_000:
        raise BadRequestError(f"field {name!r} must be a question number (a whole number from 1), "
                              f"got {shown(value, 40)}")
    return value


def chance_field(data: dict[str, Any], name: str) -> float:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadRequestError(f"field {name!r} must be a probability (a number from 0 to 1), got {shown(value, 40)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not 0.0 <= number <= 1.0:
        raise BadRequestError(f"field {name!r} must be a probability from 0 to 1, got {shown(value, 40)}")
    return number


QUESTION_FIELDS = frozenset({"key", "text", "position", "answer", "low", "high", "exact", "answer_text"})


def new_question(data: dict[str, Any], limits: Limits) -> NewQuestion:
    """The teacher's question, checked: text fields within their limits, 0 <= low <= answer <= high <= 1, and an
    exact answer has no interval."""
    exact = data.get("exact")
    if not isinstance(exact, bool):
        raise BadRequestError(f"field 'exact' must be true or false, got {shown(exact, 40)}")
    answer, low, high = chance_field(data, "answer"), chance_field(data, "low"), chance_field(data, "high")
    if not low <= answer <= high:
        raise BadRequestError(f"the interval [{low}, {high}] does not hold the answer {answer}")
    if exact and not low == answer == high:
        raise BadRequestError("an exact answer has no interval: give low = answer = high")
    return NewQuestion(text_field(data, "key", limits.key), text_field(data, "text", limits.text),
                       text_field(data, "position", limits.teacher_body), answer, low, high, exact,
                       text_field(data, "answer_text", limits.answer_text))


# ---------------------------------------------------------------------------- handlers
class Base(tornado.web.RequestHandler):
    """Common headers; every refusal answered as JSON ``{"error": ...}``."""

    room: Classroom

    def initialize(self, room: Classroom) -> None:
        self.room = room

    def set_default_headers(self) -> None:
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Frame-Options", "DENY")

    def refuse(self, exc: ClassroomError) -> None:
        self.set_status(exc.status)
        self.finish({"error": str(exc)})

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        reason = self._reason if status_code < 500 else "the server failed on this request"
        self.finish({"error": reason})

    def teacher(self, query: bool = False) -> None:
        given = self.request.headers.get("Authorization", "")
        token = given[7:] if given.startswith("Bearer ") else ""
        if not token and query:
            token = self.get_query_argument("token", "")
        if not _same(token, self.room.teacher_token):
            if not self.room.join_bucket.take():
                raise RateLimitedError("too many requests with a wrong token: wait a moment")
            raise NotAllowedError("this needs the teacher's token (the address `cardlab class` printed)")

    def student(self) -> tuple[int, int]:
        """``(id, number)`` of the student whose token the request carries, after the rate limit."""
        token = self.request.headers.get("X-Student-Token") or self.get_cookie(STUDENT_COOKIE) or ""
        found = self.room.store.student(self.room.session_id, token) if 0 < len(token) <= 100 else None
        if found is None:
            if not self.room.join_bucket.take():
                raise RateLimitedError("too many requests with a wrong token: wait a moment")
            raise NotAllowedError("this needs a student's token: join the class first (the join page)")
        if not self.room.student_bucket(found[0]).take():
            raise RateLimitedError("too many requests: wait a second, then try again")
        return found


def _same(given: str, expected: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8"))


def guarded(method: Callable[..., Awaitable[None] | None]) -> Callable[..., Awaitable[None]]:
    """Answer a :class:`ClassroomError` (a refused request) with its status and sentence."""

    async def run(self: Base, *args: Any) -> None:
        try:
            result = method(self, *args)
            if result is not None:
                await result
        except ClassroomError as exc:
            self.refuse(exc)

    run.__name__ = method.__name__
    run.__doc__ = method.__doc__
    return run


class Page(Base):
    def initialize(self, room: Classroom, name: str = "join") -> None:
        self.room = room
        self.name = name

    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Security-Policy", pages.CSP)
        self.finish(pages.page(self.name))


class QrCode(Base):
    def get(self) -> None:
        self.set_header("Content-Type", "image/svg+xml")
        self.finish(pages.qr_svg(self.room.join_url))


class Health(Base):
    def get(self) -> None:
        self.finish({"ok": True})


class Join(Base):
    @guarded
    async def post(self) -> None:
        data = read_json(self, self.room.limits.student_body, frozenset({"code"}))
        code = text_field(data, "code", 40, empty=True)
        if not self.room.join_bucket.take():
            raise RateLimitedError("too many students are joining at once: try again in a moment")
        if not _same(code.strip().upper().replace(" ", ""), self.room.join_code):
            raise BadJoinCodeError(f"join code {shown(code, 20)} is not this class's: type the code on the "
                                   f"projector ({len(self.room.join_code)} letters and digits)")
        if self.room.store.student_count(self.room.session_id) >= self.room.limits.students:
            raise RateLimitedError(f"the class is full ({self.room.limits.students} students)")
        number, token = await self.room.write(self.room.writer.join, self.room.session_id)
        self.room.hub.changed()
        self.set_cookie(STUDENT_COOKIE, token, httponly=True, samesite="Strict", expires_days=1)
        self.finish({"token": token, "student": number})


class State(Base):
    @guarded
    def get(self) -> None:
        student_id, number = self.student()
        room, store = self.room, self.room.store
        q = room.current()
        out: dict[str, Any] = {"student": number, "question": None, "guess": None, "reveal": None}
        if q is not None:
            out["question"] = question_json(q, position=True, answer=False)
            out["count"] = store.count(q.id)
            own = store.own_guess(q.id, student_id)
            out["guess"] = None if own is None else {"value": own.value, "text": own.text}
            if not q.is_open:
                values = store.values(q.id)
                out["reveal"] = {**question_json(q, position=False, answer=True),
                                 "distance": None if own is None else abs(own.value - q.answer),
                                 "spread": histogram(values), "count": len(values)}
        out["score"] = score(store.revealed_guesses(room.session_id, student_id)).as_json()
        self.finish(out)


class GuessHandler(Base):
    @guarded
    async def post(self) -> None:
        data = read_json(self, self.room.limits.student_body, frozenset({"question", "guess"}))
        student_id, _ = self.student()
        number = number_field(data, "question")
        text = data.get("guess")
        value = parse_guess(text)
        assert isinstance(text, str)  # parse_guess accepts text only
        stored = await self.room.guess(GuessItem(self.room.session_id, student_id, number, value, text.strip()))
        self.finish({"question": number, "value": stored.value, "text": stored.text, "changes": stored.changes})


class TeacherStatus(Base):
    @guarded
    def get(self) -> None:
        self.teacher()
        self.finish(self.room.teacher_status())


class Ask(Base):
    @guarded
    async def post(self) -> None:
        self.teacher()
        data = read_json(self, self.room.limits.teacher_body, QUESTION_FIELDS)
        q = await self.room.write(self.room.writer.ask, self.room.session_id, new_question(data, self.room.limits))
        self.room.hub.changed()
        self.finish(question_json(q, position=False, answer=True))


class Reveal(Base):
    @guarded
    async def post(self) -> None:
        self.teacher()
        data = read_json(self, self.room.limits.student_body, frozenset({"question"}))
        q = await self.room.write(self.room.writer.reveal, self.room.session_id, number_field(data, "question"))
        self.room.hub.changed()
        self.finish(question_json(q, position=False, answer=True))


class Next(Base):
    @guarded
    async def post(self) -> None:
        self.teacher()
        read_json(self, self.room.limits.student_body, frozenset())
        await self.room.write(self.room.writer.next, self.room.session_id)
        self.room.hub.changed()
        self.finish({"question": None})


class Export(Base):
    @guarded
    def get(self) -> None:
        self.teacher(query=True)
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", 'attachment; filename="class-session.csv"')
        self.finish(self.room.store.export_csv(self.room.session_id))


class Events(Base):
    """Server-sent events: one ``data:`` line of JSON per change (changes close together are sent as one)."""

    teacher_stream = False
    closed = False

    def on_connection_close(self) -> None:
        self.closed = True

    def data(self) -> str:
        return self.room.public_event()

    @guarded
    async def get(self) -> None:
        if self.teacher_stream:
            self.teacher(query=True)
        hub, limits = self.room.hub, self.room.limits
        if hub.streams >= limits.streams:
            raise RateLimitedError("too many live connections: the page will try again")
        gap = limits.teacher_event_gap if self.teacher_stream else limits.student_event_gap
        self.set_header("Content-Type", "text/event-stream")
        self.set_header("X-Accel-Buffering", "no")
        hub.streams += 1
        try:
            self.write("retry: 1000\n\n")
            seen = -1
            while not self.closed:
                if hub.seq != seen:
                    seen = hub.seq
                    self.write(f"id: {seen}\ndata: {self.data()}\n\n")
                else:
                    self.write(": still here\n\n")
                await self.flush()
                await asyncio.sleep(gap)
                await hub.wait(seen, 15.0)
        except tornado.iostream.StreamClosedError:
            pass
        finally:
            hub.streams -= 1


class TeacherEvents(Events):
    teacher_stream = True

    def data(self) -> str:
        return json.dumps(self.room.teacher_status(position=False))


class NotFound(Base):
    def prepare(self) -> None:
        self.set_status(404)
        self.finish({"error": f"there is no page {shown(self.request.path, 60)} here"})


def check_prefix(prefix: str) -> str:
    """A path prefix for every address (``/services/cardlab-class`` behind a JupyterHub proxy, say), or ""."""
    prefix = prefix.rstrip("/")
    if prefix and (not prefix.startswith("/") or not re.fullmatch(r"[A-Za-z0-9/_.~-]+", prefix)):
        raise InvalidInputError(f"prefix {shown(prefix)} is not a path: give one such as /services/cardlab-class")
    return prefix


def make_app(room: Classroom, prefix: str = "") -> tornado.web.Application:
    """The application; with ``prefix``, every address starts with it (the pages use relative addresses)."""
    p = re.escape(check_prefix(prefix))
    args = {"room": room}
    routes: list[Any] = [
        (p + r"/", Page, {"room": room, "name": "join"}),
        (p + r"/play", Page, {"room": room, "name": "play"}),
        (p + r"/teacher", Page, {"room": room, "name": "teacher"}),
        (p + r"/qr\.svg", QrCode, args),
        (p + r"/api/health", Health, args),
        (p + r"/api/events", Events, args),
        (p + r"/api/join", Join, args),
        (p + r"/api/state", State, args),
        (p + r"/api/guess", GuessHandler, args),
        (p + r"/api/teacher/status", TeacherStatus, args),
        (p + r"/api/teacher/events", TeacherEvents, args),
        (p + r"/api/teacher/ask", Ask, args),
        (p + r"/api/teacher/reveal", Reveal, args),
        (p + r"/api/teacher/next", Next, args),
        (p + r"/api/teacher/export\.csv", Export, args),
    ]
    if p:
        routes.append((p, tornado.web.RedirectHandler, {"url": check_prefix(prefix) + "/"}))
    return tornado.web.Application(routes, default_handler_class=NotFound, default_handler_args=args,
                                   compress_response=True)


def serve(store: Store, session: Session, host: str, port: int, join_url: str, limits: Limits | None = None,
          prefix: str = "") -> tuple[Classroom, tornado.httpserver.HTTPServer]:
    """Listen on ``host:port`` (call inside a running event loop).

    Tornado reads bodies up to :data:`TRANSPORT_BODY_LIMIT` so that each endpoint can refuse a body over its own
    limit with a 413 and a sentence; a longer one is cut off by tornado itself (it closes the connection)."""
    room = Classroom(store, session, join_url, limits)
    server = tornado.httpserver.HTTPServer(make_app(room, prefix), max_body_size=TRANSPORT_BODY_LIMIT, xheaders=False)
    server.listen(port, address=host)
    return room, server
