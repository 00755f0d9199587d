"""The class server over real HTTP on 127.0.0.1: joining, asking, guessing, revealing, the event stream, the
pages, and the teacher's Python side (ClassSession, and the stepper's class row)."""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

import cardlab
from cardlab.classroom.client import ClassSession, ClassStatus
from cardlab.classroom.position import position_html
from cardlab.classroom.server import Bucket, Limits
from cardlab.errors import ClassServerError, InvalidInputError, NotAllowedError, QuestionStateError
from cardlab.viz.controls import TABLE
from tests.classroom.conftest import Running, ask, free_port, join, start_server, stop_server

PAGE_LIMIT = 200_000


def student(running: Running, token: str) -> httpx.Client:
    return httpx.Client(base_url=running.base, headers={"X-Student-Token": token}, timeout=10)


def visible_cards(view: object) -> Counter[str]:
    """The face codes written in a view (``Card.parse('KC')``): what the viewpoint may see."""
    return Counter(re.findall(r"Card\.parse\('([^']+)'\)", repr(view)))


def test_join_with_a_bad_code_is_refused_with_a_sentence(server: Running) -> None:
    with httpx.Client(base_url=server.base) as c:
        r = c.post("/api/join", json={"code": "NOPE42"})
        assert r.status_code == 404 and "not this class's" in r.json()["error"]
        r = c.post("/api/join", json={"code": f" {server.code.lower()} "})   # typed on a phone: spaces, lower case
        assert r.status_code == 200 and r.json()["student"] == 1
        assert "cardlab_student" in r.headers.get("set-cookie", "") and "HttpOnly" in r.headers["set-cookie"]


def test_a_question_from_a_real_game_reaches_the_students_as_the_table_sees_it(server: Running) -> None:
    game = cardlab.new_game("spite-and-malice", players=2, seed=5)
    for _ in range(4):
        game.play(game.legal_moves()[0])
    session = ClassSession(server.teacher_url)
    asked = session.ask_game(game, "What is the chance that seat 0 wins?", answer=0.4, low=0.35, high=0.45,
                             exact=False)
    assert asked.number == 1 and asked.state == "open"
    with httpx.Client(base_url=server.base) as c:
        token = join(c, server.code)
    with student(server, token) as s:
        state = s.get("/api/state").json()
    position = state["question"]["position"]
    assert position == position_html(game, None)
    shown = Counter(re.findall(r'data-card="([^"]+)"', position))
    assert shown and not shown - visible_cards(game.observe(None))   # every face drawn is one the table sees
    assert 'data-view="public"' in position and "everything revealed" not in position
    hidden = Counter(re.findall(r'data-card="([^"]+)"', position_html(game, 0))) - visible_cards(game.observe(None))
    assert hidden   # seat 0 sees faces the table does not (its hand): none of them is on the class's picture
    for secret in ("answer", "low", "high", "answer_text"):   # ...and neither is the answer before Reveal
        assert secret not in state["question"]
    assert state["reveal"] is None


def test_guess_change_reveal_and_what_each_student_sees(server: Running) -> None:
    with httpx.Client(base_url=server.base, timeout=10) as c:
        number = ask(c, server, answer=0.25)
        tokens = [join(c, server.code) for _ in range(3)]
    a, b, idle = (student(server, t) for t in tokens)
    with a, b, idle:
        assert a.post("/api/guess", json={"question": number, "guess": "30%"}).json()["value"] == 0.3
        r = a.post("/api/guess", json={"question": number, "guess": "1/3"})   # changed before Reveal
        assert r.status_code == 200 and r.json()["changes"] == 1
        assert b.post("/api/guess", json={"question": number, "guess": "0.8765"}).status_code == 200
        r = b.post("/api/guess", json={"question": number, "guess": "lots"})
        assert r.status_code == 400 and "30%" in r.json()["error"]
        before = a.get("/api/state")
        assert before.json()["count"] == 2 and before.json()["guess"]["text"] == "1/3"
        assert "0.8765" not in before.text and "8765" not in before.text   # never another student's guess
        with httpx.Client(base_url=server.base, timeout=10) as c:
            r = c.post("/api/teacher/reveal", headers=server.teacher_headers(), json={"question": number})
            assert r.status_code == 200
        late = b.post("/api/guess", json={"question": number, "guess": "0.1"})
        assert late.status_code == 409 and "revealed" in late.json()["error"]
        after = a.get("/api/state").json()
        assert "8765" not in json.dumps(after)   # after Reveal: the spread only
        reveal = after["reveal"]
        assert reveal["answer"] == 0.25 and reveal["count"] == 2 and sum(reveal["spread"]) == 2
        assert reveal["distance"] == pytest.approx(1 / 3 - 0.25)
        assert after["score"]["answered"] == 1
        assert after["score"]["brier"] == pytest.approx((1 / 3 - 0.25) ** 2 + 0.25 * 0.75)
        assert idle.get("/api/state").json()["reveal"]["distance"] is None
    csv_text = httpx.get(f"{server.base}/api/teacher/export.csv", headers=server.teacher_headers()).text
    assert csv_text.count("\n") == 3 and ",0.8765," in csv_text   # the header and the two stored guesses


def test_teacher_endpoints_need_the_teacher_token(server: Running) -> None:
    with httpx.Client(base_url=server.base, timeout=10) as c:
        token = join(c, server.code)
        for method, path in (("GET", "/api/teacher/status"), ("POST", "/api/teacher/ask"),
                             ("POST", "/api/teacher/reveal"), ("POST", "/api/teacher/next"),
                             ("GET", "/api/teacher/export.csv"), ("GET", "/api/teacher/events")):
            for headers in ({}, {"Authorization": f"Bearer {token}"}, {"X-Student-Token": token},
                            {"Authorization": f"Bearer {server.token}x"}):
                r = c.request(method, path, headers=headers, json={})
                assert r.status_code == 403 and "teacher's token" in r.json()["error"], (path, headers)


def test_the_event_stream_announces_questions_and_counts(server: Running) -> None:
    events: list[dict[str, Any]] = []
    done = threading.Event()

    def listen() -> None:
        with httpx.stream("GET", f"{server.base}/api/events", timeout=20) as r:
            assert r.headers["content-type"].startswith("text/event-stream")
            for line in r.iter_lines():
                if line.startswith("data: "):
                    events.append(json.loads(line[6:]))
                    if events[-1]["count"] == 1:
                        done.set()
                        return

    reader = threading.Thread(target=listen, daemon=True)
    reader.start()
    with httpx.Client(base_url=server.base, timeout=10) as c:
        number = ask(c, server)
        token = join(c, server.code)
        c.post("/api/guess", headers={"X-Student-Token": token}, json={"question": number, "guess": "0.5"})
    assert done.wait(30), events
    assert events[-1] == {"question": number, "state": "open", "count": 1, "students": 1}
    assert all(set(e) == {"question", "state", "count", "students"} for e in events)   # nobody's guess


def test_the_rate_limit_refuses_a_flood_without_a_server_error(server: Running) -> None:
    limits = Limits()
    with httpx.Client(base_url=server.base, timeout=30) as c:
        token = join(c, server.code)
        start = time.monotonic()
        answers = [c.get("/api/state", headers={"X-Student-Token": token}) for _ in range(80)]
        elapsed = time.monotonic() - start
    codes = Counter(r.status_code for r in answers)
    assert set(codes) <= {200, 429}
    # at most the burst, plus what the bucket refilled while the requests ran (however slow the machine is)
    assert limits.student_burst <= codes[200] <= limits.student_burst + limits.student_rate * elapsed + 1, codes
    assert codes[429] >= 1 or elapsed > (80 - limits.student_burst) / limits.student_rate
    assert all("try again" in r.json()["error"] for r in answers if r.status_code == 429)


def test_the_token_bucket(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    bucket = Bucket(rate=2.0, burst=3.0)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]   # the burst, then refused
    now[0] += 0.5                                                          # one request's worth refilled
    assert [bucket.take(), bucket.take()] == [True, False]
    now[0] += 100.0                                                        # never more than the burst
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]


def test_student_pages_are_light_and_carry_no_plotly(server: Running) -> None:
    game = cardlab.new_game("shithead", players=4, seed=2)
    ClassSession(server.teacher_url).ask_game(game, "What is the chance that seat 0 wins?", answer=0.25)
    with httpx.Client(base_url=server.base, timeout=10) as c:
        token = join(c, server.code)
        total = 0
        for path in ("/", "/play"):
            r = c.get(path)
            assert r.status_code == 200 and "plotly" not in r.text.lower()
            assert "script-src 'unsafe-inline'" in r.headers["content-security-policy"]
            total += len(r.content)
        state = c.get("/api/state", headers={"X-Student-Token": token})
        total += len(state.content)
    assert total <= PAGE_LIMIT


def test_class_session_client(server: Running) -> None:
    with pytest.raises(InvalidInputError, match="token is missing"):
        ClassSession(server.base)
    with pytest.raises(NotAllowedError, match="teacher's token"):
        ClassSession(server.base, token="wrong")
    with pytest.raises(ClassServerError, match="does not answer"):
        ClassSession("http://127.0.0.1:9/teacher#token=x", timeout=2)
    session = ClassSession(server.teacher_url)
    seen: list[ClassStatus] = []
    got = threading.Event()

    def on_status(status: ClassStatus) -> None:
        seen.append(status)
        if status.count == 2:
            got.set()

    stop = session.watch(on_status)
    try:
        with pytest.raises(QuestionStateError, match="no open question"):
            session.reveal()
        game = cardlab.new_game("garbage", players=2, seed=3)
        q = session.ask_game(game, "What is the chance that seat 1 wins?", answer=0.5)
        with httpx.Client(base_url=server.base, timeout=10) as c:
            for text in ("0.2", "0.6"):
                c.post("/api/guess", headers={"X-Student-Token": join(c, server.code)},
                       json={"question": q.number, "guess": text})
        assert got.wait(30)
        assert sorted(seen[-1].values) == [0.2, 0.6] and seen[-1].students == 2
        revealed = session.reveal()
        assert revealed.state == "revealed" and revealed.answer == 0.5
        status = session.status()
        assert status.questions[0].mean == pytest.approx(0.4) and status.questions[0].count == 2
        session.next()
        assert session.status().question is None
        assert "question,key,text" in session.export_csv()
    finally:
        stop()


def test_the_stepper_asks_the_class(server: Running) -> None:
    stepper = cardlab.Stepper("garbage", players=2, seed=3, session=server.teacher_url)
    try:
        poll = stepper.class_poll
        assert poll is not None
        assert stepper.controller.viewpoint == TABLE and poll.viewpoint is None   # both the table's view by default
        stepper.next_move()
        poll.ask_button.click()
        assert poll.last_error is None, poll.last_error
        question = poll.session.status().question
        assert question is not None and question.state == "open"
        expected = stepper.win_history[-1].estimates[0]   # the stepper's own number from the same viewpoint
        assert (question.answer, question.low, question.high) == (expected.value, expected.low, expected.high)
        with httpx.Client(base_url=server.base, timeout=10) as c:
            for text in ("0.1", "0.5", "90%"):
                c.post("/api/guess", headers={"X-Student-Token": join(c, server.code)},
                       json={"question": question.number, "guess": text})
        deadline = time.monotonic() + 30
        while (poll.status is None or poll.status.count < 3) and time.monotonic() < deadline:
            time.sleep(0.05)   # the watcher thread updates the row from the server's events
        assert poll.status is not None and poll.status.count == 3
        assert "3 answers of 3 students" in poll.numbers()
        assert sorted(poll.histogram.figure["data"][0]["x"]) == [0.1, 0.5, 0.9]
        restarted = cardlab.Stepper("garbage", players=2, seed=3, session=server.teacher_url)   # a new kernel, say
        try:
            again = restarted.class_poll
            assert again is not None and again.status is not None
            assert "3 answers of 3 students" in again.numbers() and not again.reveal_button.disabled
        finally:
            restarted.close()
        poll.reveal_button.click()
        assert poll.last_error is None
        assert poll.histogram.figure["layout"]["shapes"][-1]["x0"] == question.answer
        assert poll.calibration.figure["data"][1]["y"] == [pytest.approx(0.5)]
        assert "Download every question and guess (CSV, 3 rows)" in poll.csv_link.value
        poll.reveal_button.click()   # nothing open: the row says so, no exception
        assert poll.reveal_button.disabled
    finally:
        stepper.close()


def test_behind_a_proxy_every_address_starts_with_the_prefix(tmp_path: Path) -> None:
    running = start_server(tmp_path / "p.sqlite3", free_port(), tmp_path / "p.log",
                           ("--prefix", "/services/cardlab-class"))
    try:
        assert running.base.endswith(":" + str(running.port))
        printed = running.log.read_text()
        assert f"{running.base}/services/cardlab-class/teacher#token=" in printed
        assert f"{running.base}/services/cardlab-class/?code={running.code}" in printed
        session = ClassSession(f"{running.base}/services/cardlab-class/teacher#token={running.token}")
        session.ask_game(cardlab.new_game("garbage", players=2, seed=1), "What is the chance that seat 0 wins?", 0.5)
        with httpx.Client(base_url=f"{running.base}/services/cardlab-class", timeout=10) as c:
            token = join(c, running.code)
            assert c.get("/api/state", headers={"X-Student-Token": token}).json()["question"]["number"] == 1
            page = c.get("/play").text
            assert "fetch('api/state'" in page and "'/api/" not in page   # the pages' addresses are relative
        bare = httpx.get(f"{running.base}/services/cardlab-class", follow_redirects=False)
        assert bare.status_code in (301, 302) and bare.headers["location"] == "/services/cardlab-class/"
        assert httpx.get(f"{running.base}/api/health").status_code == 404   # nothing outside the prefix
    finally:
        stop_server(running.proc)


def test_a_local_session_needs_no_token_on_screen(server: Running, tmp_path: Path) -> None:
    written = server.store.with_name(server.store.name + ".teacher")
    assert written.read_text().strip() == server.teacher_url
    assert written.stat().st_mode & 0o077 == 0   # readable by the teacher only
    assert ClassSession.local(server.store).status().join_code == server.code
    with pytest.raises(ClassServerError, match="no class server has written its address"):
        ClassSession.local(tmp_path / "elsewhere.sqlite3")


def test_the_qr_code_is_an_svg_image_of_the_join_address(server: Running) -> None:
    import segno

    r = httpx.get(f"{server.base}/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in r.text   # a standalone image, not an inline fragment
    expected = segno.make(f"{server.base}/?code={server.code}", error="m")
    assert r.text.count("<path") >= 1 and f'width="{(expected.symbol_size(scale=6, border=4))[0]}"' in r.text
