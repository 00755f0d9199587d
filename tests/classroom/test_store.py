"""The SQLite store: WAL mode, the question's life (ask, guess, change, reveal, next), refusals that change
nothing, one guess per student and question, resuming a session from the file, the CSV."""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

import pytest

from cardlab.classroom.store import JOIN_ALPHABET, JOIN_CODE_LENGTH, NewQuestion, Store, token_hash
from cardlab.errors import QuestionStateError


def question(text: str = "What is the chance that seat 0 wins?", answer: float = 0.25) -> NewQuestion:
    return NewQuestion("win", text, "<div>table</div>", answer, answer, answer, True, f"{answer} (exact)")


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "s.sqlite3")


def test_wal_mode_and_a_new_session(store: Store) -> None:
    assert store.journal_mode == "wal"
    s = store.open_session()
    assert len(s.join_code) == JOIN_CODE_LENGTH and set(s.join_code) <= set(JOIN_ALPHABET)
    assert len(s.teacher_token) >= 30 and s.current_question is None
    assert store.open_session().id == s.id            # the latest session is resumed
    assert store.open_session(new=True).id != s.id    # unless a new one is asked for


def test_students_get_distinct_tokens_and_only_hashes_are_stored(store: Store) -> None:
    s = store.open_session()
    (n1, t1), (n2, t2) = store.join(s.id), store.join(s.id)
    assert (n1, n2) == (1, 2) and t1 != t2
    assert store.student(s.id, t1) is not None and store.student(s.id, t1) != store.student(s.id, t2)
    assert store.student(s.id, "not a token") is None
    other = store.open_session(new=True)
    assert store.student(other.id, t1) is None        # a token belongs to one session
    db = sqlite3.connect(store.path)
    rows = db.execute("SELECT token_hash FROM students").fetchall()
    db.close()
    assert {r[0] for r in rows} == {token_hash(t1), token_hash(t2)}


def test_question_life(store: Store) -> None:
    s = store.open_session()
    sid, _ = store.student(s.id, store.join(s.id)[1]) or (0, 0)
    q = store.ask(s.id, question())
    assert q.number == 1 and q.is_open and store.current(s.id) == q
    g = store.guess(s.id, sid, 1, 0.3, "30%")
    assert (g.value, g.text, g.changes) == (0.3, "30%", 0)
    g = store.guess(s.id, sid, 1, 0.4, "0.4")        # changed before Reveal: one row, counted as a change
    assert (g.value, g.changes) == (0.4, 1) and store.count(q.id) == 1
    with pytest.raises(QuestionStateError, match="still open"):
        store.ask(s.id, question("another"))
    with pytest.raises(QuestionStateError, match="still open"):
        store.next(s.id)
    store.reveal(s.id, 1)
    with pytest.raises(QuestionStateError, match="closed"):
        store.guess(s.id, sid, 1, 0.9, "0.9")
    with pytest.raises(QuestionStateError, match="already revealed"):
        store.reveal(s.id, 1)
    assert store.values(q.id) == [0.4]
    assert [(x.guess, x.answer) for x in store.revealed_guesses(s.id, sid)] == [(0.4, 0.25)]
    store.next(s.id)
    assert store.current(s.id) is None
    assert store.ask(s.id, question("second")).number == 2


def test_refused_writes_change_nothing(store: Store) -> None:
    s = store.open_session()
    sid, _ = store.student(s.id, store.join(s.id)[1]) or (0, 0)
    store.ask(s.id, question())
    store.guess(s.id, sid, 1, 0.3, "0.3")
    before = store.digest()
    refusals = [lambda: store.guess(s.id, sid, 2, 0.5, "0.5"), lambda: store.reveal(s.id, 7),
                lambda: store.ask(s.id, question("x")), lambda: store.next(s.id)]
    for refused in refusals:
        with pytest.raises(QuestionStateError):
            refused()
        assert store.digest() == before
    store.reveal(s.id, 1)
    after_reveal = store.digest()
    with pytest.raises(QuestionStateError):
        store.guess(s.id, sid, 1, 0.9, "0.9")
    assert store.digest() == after_reveal


def test_the_file_resumes_the_session(tmp_path: Path) -> None:
    path = tmp_path / "resume.sqlite3"
    first = Store(path)
    s = first.open_session()
    _, token = first.join(s.id)
    sid, _ = first.student(s.id, token) or (0, 0)
    first.ask(s.id, question())
    first.guess(s.id, sid, 1, 0.3, "0.3")
    first.close()
    again = Store(path)
    resumed = again.open_session()
    assert (resumed.id, resumed.join_code, resumed.teacher_token) == (s.id, s.join_code, s.teacher_token)
    q = again.current(s.id)
    assert q is not None and q.is_open and again.values(q.id) == [0.3]
    assert again.student(s.id, token) == (sid, 1)


def test_csv_has_every_guess_and_defuses_formulas(store: Store) -> None:
    s = store.open_session()
    ids = [store.student(s.id, store.join(s.id)[1]) for _ in range(3)]
    store.ask(s.id, question("=HYPERLINK(\"x\")"))
    for i, found in enumerate(ids[:2]):
        assert found is not None
        store.guess(s.id, found[0], 1, 0.1 * (i + 1), f"{0.1 * (i + 1):.1f}")
    store.reveal(s.id, 1)
    store.next(s.id)
    store.ask(s.id, question("nobody answers"))
    rows = list(csv.DictReader(io.StringIO(store.export_csv(s.id))))
    assert [(r["question"], r["student"], r["guess"]) for r in rows] == [("1", "1", "0.1"), ("1", "2", "0.2"),
                                                                         ("2", "", "")]
    assert rows[0]["text"].startswith("'=")
    assert rows[0]["state"] == "revealed" and rows[2]["state"] == "open"
