"""The class server's store: one SQLite file (standard library ``sqlite3``) in WAL mode.

Tables: ``sessions`` (join code, teacher token, the question on the screen), ``questions`` (text, the position's
picture, the answer, open or revealed), ``students`` (a hash of each student's token, never the token) and
``guesses`` (one row per question and student; a changed guess replaces the row and counts the change).

Durability: every write is one transaction, committed (``synchronous=FULL``: the write-ahead log is on disk)
before the method returns, and the server answers a request only after that. Guesses arriving together are
committed together (:meth:`Store.guess_batch`, a group commit): one write to disk for many guesses, each still
acknowledged only once it is on disk. A server killed at any moment
(``kill -9``) and started again on the same file finds every acknowledged guess, and the question that was open is
still open. A refused write changes nothing: the check and the write are in the same transaction.

Tokens and join codes come from :mod:`secrets` (the operating system's unpredictable randomness): they are
passwords, not the seeded randomness of the games.
"""

from __future__ import annotations

import csv
import hashlib
import io
import secrets
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from cardlab.classroom.guess import Scored
from cardlab.errors import QuestionStateError

JOIN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Join-code letters: no 0/O, 1/I/L, easy to read off a projector and type on a phone."""
JOIN_CODE_LENGTH = 6

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    join_code TEXT NOT NULL UNIQUE,
    teacher_token TEXT NOT NULL,
    created REAL NOT NULL,
    current_question INTEGER REFERENCES questions(id)
);
CREATE TABLE IF NOT EXISTS questions (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    number INTEGER NOT NULL,
    key TEXT NOT NULL,
    text TEXT NOT NULL,
    position TEXT NOT NULL,
    answer REAL NOT NULL,
    low REAL NOT NULL,
    high REAL NOT NULL,
    exact INTEGER NOT NULL,
    answer_text TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('open', 'revealed')),
    asked REAL NOT NULL,
    revealed REAL,
    UNIQUE (session_id, number)
);
CREATE TABLE IF NOT EXISTS students (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    number INTEGER NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    joined REAL NOT NULL,
    UNIQUE (session_id, number)
);
CREATE TABLE IF NOT EXISTS guesses (
    question_id INTEGER NOT NULL REFERENCES questions(id),
    student_id INTEGER NOT NULL REFERENCES students(id),
    value REAL NOT NULL CHECK (value >= 0 AND value <= 1),
    text TEXT NOT NULL,
    first REAL NOT NULL,
    updated REAL NOT NULL,
    changes INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (question_id, student_id)
);
"""


def token_hash(token: str) -> str:
    """The stored form of a student's token (SHA-256): the file alone does not let anyone act as a student."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Session:
    id: int
    join_code: str
    teacher_token: str
    created: float
    current_question: int | None


@dataclass(frozen=True)
class Question:
    """A question as stored. ``position`` is the HTML picture of the table (drawn from ``observe()``)."""

    id: int
    session_id: int
    number: int
    key: str
    text: str
    position: str
    answer: float
    low: float
    high: float
    exact: bool
    answer_text: str
    state: str
    asked: float
    revealed: float | None

    @property
    def is_open(self) -> bool:
        return self.state == "open"


@dataclass(frozen=True)
class NewQuestion:
    """What the teacher asks: the question, the position's picture and the answer (exact, or an estimate with
    its 95% interval ``low`` to ``high``)."""

    key: str
    text: str
    position: str
    answer: float
    low: float
    high: float
    exact: bool
    answer_text: str


@dataclass(frozen=True)
class GuessItem:
    """A guess to store: the session, the student (its id), the question's number, the value and the text typed."""

    session_id: int
    student_id: int
    number: int
    value: float
    text: str


@dataclass(frozen=True)
class Guess:
    question_id: int
    student_number: int
    value: float
    text: str
    changes: int


class Store:
    """The class sessions in one SQLite file (see the module docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        with self._write():
            for statement in _statements(SCHEMA):
                self._db.execute(statement)

    def close(self) -> None:
        self._db.close()

    @property
    def journal_mode(self) -> str:
        return str(self._db.execute("PRAGMA journal_mode").fetchone()[0])

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed when the block ends, rolled back (nothing changed) if it raises."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # ------------------------------------------------------------------ sessions
    def open_session(self, new: bool = False) -> Session:
        """The latest session of the file (resumed after a restart), or a new one (``new=True`` or none yet)."""
        if not new:
            row = self._db.execute("SELECT * FROM sessions ORDER BY id DESC LIMIT 1").fetchone()
            if row is not None:
                return _session(row)
        with self._write() as db:
            while True:
                code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
                if db.execute("SELECT 1 FROM sessions WHERE join_code = ?", (code,)).fetchone() is None:
                    break
            cur = db.execute("INSERT INTO sessions (join_code, teacher_token, created) VALUES (?, ?, ?)",
                             (code, secrets.token_urlsafe(24), time.time()))
            session_id = cur.lastrowid
        return self.session(int(session_id or 0))

    def session(self, session_id: int) -> Session:
        row = self._db.execute("SELECT * FROM sessions WHERE id = ?", (session_id,)).fetchone()
        return _session(row)

    # ------------------------------------------------------------------ students
    def join(self, session_id: int) -> tuple[int, str]:
        """A new student of the session: ``(student number, token)``; only the token's hash is kept."""
        token = secrets.token_urlsafe(24)
        with self._write() as db:
            number = db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM students WHERE session_id = ?",
                                (session_id,)).fetchone()[0]
            db.execute("INSERT INTO students (session_id, number, token_hash, joined) VALUES (?, ?, ?, ?)",
                       (session_id, number, token_hash(token), time.time()))
        return int(number), token

    def student(self, session_id: int, token: str) -> tuple[int, int] | None:
        """``(student id, student number)`` of the session's student with ``token``, or None."""
        row = self._db.execute("SELECT id, number FROM students WHERE token_hash = ? AND session_id = ?",
                               (token_hash(token), session_id)).fetchone()
        return None if row is None else (int(row["id"]), int(row["number"]))

    def student_count(self, session_id: int) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM students WHERE session_id = ?",
                                    (session_id,)).fetchone()[0])

    # ------------------------------------------------------------------ questions
    def current(self, session_id: int) -> Question | None:
        """The question on the screen (open, or revealed until the teacher moves on), or None."""
        row = self._db.execute("SELECT q.* FROM questions q JOIN sessions s ON s.current_question = q.id "
                               "WHERE s.id = ?", (session_id,)).fetchone()
        return None if row is None else _question(row)

    def question(self, session_id: int, number: int) -> Question | None:
        row = self._db.execute("SELECT * FROM questions WHERE session_id = ? AND number = ?",
                               (session_id, number)).fetchone()
        return None if row is None else _question(row)

    def questions(self, session_id: int) -> list[Question]:
        return [_question(r) for r in self._db.execute(
            "SELECT * FROM questions WHERE session_id = ? ORDER BY number", (session_id,))]

    def ask(self, session_id: int, q: NewQuestion) -> Question:
        """Put a new question on the screen; refused while another is open (reveal it first)."""
        with self._write() as db:
            self._check_none_open(db, session_id)
            number = db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM questions WHERE session_id = ?",
                                (session_id,)).fetchone()[0]
            cur = db.execute(
                "INSERT INTO questions (session_id, number, key, text, position, answer, low, high, exact, "
                "answer_text, state, asked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)",
                (session_id, number, q.key, q.text, q.position, q.answer, q.low, q.high, int(q.exact),
                 q.answer_text, time.time()))
            db.execute("UPDATE sessions SET current_question = ? WHERE id = ?", (cur.lastrowid, session_id))
        question = self.current(session_id)
        assert question is not None  # written in the transaction above
        return question

    def _check_none_open(self, db: sqlite3.Connection, session_id: int) -> None:
        row = db.execute("SELECT number FROM questions WHERE session_id = ? AND state = 'open'",
                         (session_id,)).fetchone()
        if row is not None:
            raise QuestionStateError(f"question {row['number']} is still open: reveal it first")

    def reveal(self, session_id: int, number: int) -> Question:
        """Close question ``number`` and show its answer; refused unless it is the open question."""
        with self._write() as db:
            row = db.execute("SELECT state FROM questions WHERE session_id = ? AND number = ?",
                             (session_id, number)).fetchone()
            if row is None:
                raise QuestionStateError(f"there is no question {number} in this session")
            if row["state"] != "open":
                raise QuestionStateError(f"question {number} is already revealed")
            db.execute("UPDATE questions SET state = 'revealed', revealed = ? WHERE session_id = ? AND number = ?",
                       (time.time(), session_id, number))
        question = self.question(session_id, number)
        assert question is not None
        return question

    def next(self, session_id: int) -> None:
        """Move on: nothing on the screen until the next question; refused while a question is open."""
        with self._write() as db:
            self._check_none_open(db, session_id)
            db.execute("UPDATE sessions SET current_question = NULL WHERE id = ?", (session_id,))

    # ------------------------------------------------------------------ guesses
    def guess(self, session_id: int, student_id: int, number: int, value: float, text: str) -> Guess:
        """Store a student's guess (or change it) for question ``number``: refused unless it is open."""
        result = self.guess_batch([GuessItem(session_id, student_id, number, value, text)])[0]
        if isinstance(result, QuestionStateError):
            raise result
        return result

    def guess_batch(self, items: Sequence[GuessItem]) -> list[Guess | QuestionStateError]:
        """Store several guesses in one transaction (one write to disk for all: a group commit), each checked on
        its own: a guess for a question that is not open is refused (its result is the error) and writes
        nothing; the others are stored. Every stored guess is on disk when this returns."""
        now = time.time()
        results: list[Guess | QuestionStateError] = []
        with self._write() as db:
            for it in items:
                row = db.execute("SELECT id, state FROM questions WHERE session_id = ? AND number = ?",
                                 (it.session_id, it.number)).fetchone()
                if row is None:
                    results.append(QuestionStateError(f"there is no question {it.number}: wait for the teacher's "
                                                      "question"))
                    continue
                if row["state"] != "open":
                    results.append(QuestionStateError(f"question {it.number} is closed: the answer has been "
                                                      "revealed"))
                    continue
                db.execute("INSERT INTO guesses (question_id, student_id, value, text, first, updated) "
                           "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (question_id, student_id) DO UPDATE SET "
                           "value = excluded.value, text = excluded.text, updated = excluded.updated, "
                           "changes = changes + 1", (row["id"], it.student_id, it.value, it.text, now, now))
                got = db.execute("SELECT g.*, s.number AS student_number FROM guesses g JOIN students s "
                                 "ON s.id = g.student_id WHERE question_id = ? AND student_id = ?",
                                 (row["id"], it.student_id)).fetchone()
                results.append(_guess(got))
        return results

    def own_guess(self, question_id: int, student_id: int) -> Guess | None:
        row = self._db.execute("SELECT g.*, s.number AS student_number FROM guesses g JOIN students s "
                               "ON s.id = g.student_id WHERE question_id = ? AND student_id = ?",
                               (question_id, student_id)).fetchone()
        return None if row is None else _guess(row)

    def count(self, question_id: int) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM guesses WHERE question_id = ?",
                                    (question_id,)).fetchone()[0])

    def values(self, question_id: int) -> list[float]:
        """Every guess of the question (the teacher's histogram; students see only bins after Reveal)."""
        return [float(r[0]) for r in self._db.execute("SELECT value FROM guesses WHERE question_id = ?",
                                                      (question_id,))]

    def guesses(self, session_id: int) -> list[Guess]:
        return [_guess(r) for r in self._db.execute(
            "SELECT g.*, s.number AS student_number FROM guesses g JOIN students s ON s.id = g.student_id "
            "JOIN questions q ON q.id = g.question_id WHERE q.session_id = ? ORDER BY q.number, s.number",
            (session_id,))]

    def revealed_guesses(self, session_id: int, student_id: int) -> list[Scored]:
        """A student's guesses on revealed questions, with the answers (their running score)."""
        return [Scored(float(r[0]), float(r[1])) for r in self._db.execute(
            "SELECT g.value, q.answer FROM guesses g JOIN questions q ON q.id = g.question_id "
            "WHERE q.session_id = ? AND g.student_id = ? AND q.state = 'revealed' ORDER BY q.number",
            (session_id, student_id))]

    def export_csv(self, session_id: int) -> str:
        """Every question and guess of the session: one row per guess (a question nobody answered: one row
        with the guess columns empty)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["question", "key", "text", "answer", "low", "high", "exact", "state", "student", "guess",
                         "guess_text", "changes", "seconds_after_ask"])
        rows = self._db.execute(
            "SELECT q.*, s.number AS student, g.value, g.text AS guess_text, g.changes, g.updated FROM questions q "
            "LEFT JOIN guesses g ON g.question_id = q.id LEFT JOIN students s ON s.id = g.student_id "
            "WHERE q.session_id = ? ORDER BY q.number, s.number", (session_id,))
        for r in rows:
            after = "" if r["updated"] is None else f"{r['updated'] - r['asked']:.3f}"
            writer.writerow([r["number"], r["key"], _cell(r["text"]), repr(r["answer"]), repr(r["low"]),
                             repr(r["high"]), bool(r["exact"]), r["state"], _blank(r["student"]),
                             _blank(r["value"]), _cell(r["guess_text"] or ""), _blank(r["changes"]), after])
        return out.getvalue()

    def snapshot(self) -> dict[str, int]:
        """Row counts of every table (tests check that a refused request changed nothing)."""
        return {t: int(self._db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0])
                for t in ("sessions", "questions", "students", "guesses")}

    def digest(self) -> str:
        """A hash of every row of every table: equal before and after a request that changed nothing."""
        h = hashlib.sha256()
        for t in ("sessions", "questions", "students", "guesses"):
            for row in self._db.execute(f"SELECT * FROM {t} ORDER BY 1, 2"):
                h.update(repr(tuple(row)).encode())
        return h.hexdigest()


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _blank(value: object) -> object:
    return "" if value is None else value


def _cell(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula (text starting with = + - @ gets a leading quote)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def _session(row: sqlite3.Row) -> Session:
    return Session(int(row["id"]), str(row["join_code"]), str(row["teacher_token"]), float(row["created"]),
                   None if row["current_question"] is None else int(row["current_question"]))


def _question(row: sqlite3.Row) -> Question:
    return Question(int(row["id"]), int(row["session_id"]), int(row["number"]), str(row["key"]), str(row["text"]),
                    str(row["position"]), float(row["answer"]), float(row["low"]), float(row["high"]),
                    bool(row["exact"]), str(row["answer_text"]), str(row["state"]), float(row["asked"]),
                    None if row["revealed"] is None else float(row["revealed"]))


def _guess(row: sqlite3.Row) -> Guess:
    return Guess(int(row["question_id"]), int(row["student_number"]), float(row["value"]), str(row["text"]),
                 int(row["changes"]))
