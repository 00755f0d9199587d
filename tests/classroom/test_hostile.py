"""A hostile-input sweep: malformed, oversized, replayed, cross-student and wrong-token requests at every endpoint
of a running class server (127.0.0.1 only).

Counted over the whole sweep: server errors (5xx), state changes (every row of the store compared before and
after), and leaks (a response holding another student's guess before Reveal, a token that is not the requester's,
or a card the table cannot see). Each must be 0; the sweep must hold at least 300 requests, and most of them must
reach the endpoints' checks (not only the rate limit).
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

import cardlab
from cardlab.classroom.client import ClassSession
from tests.classroom.conftest import Running, db_digest, join

SECRET_A, SECRET_B = "0.4321", "0.8765"   # the two students' guesses: nobody else may see them before Reveal


@dataclass
class Req:
    method: str
    path: str
    headers: dict[str, str | bytes] = field(default_factory=dict)
    body: bytes | None = None
    what: str = ""


def as_json(value: Any) -> bytes:
    return json.dumps(value).encode()


JSON: dict[str, str | bytes] = {"Content-Type": "application/json"}
BAD_BODIES: list[tuple[str, bytes, dict[str, str | bytes]]] = [
    ("empty body", b"", JSON),
    ("not JSON", b"guess=0.3", JSON),
    ("form content type", b'{"question": 1, "guess": "0.3"}', {"Content-Type": "application/x-www-form-urlencoded"}),
    ("no content type", b'{"question": 1, "guess": "0.3"}', {}),
    ("text content type", b'{"question": 1, "guess": "0.3"}', {"Content-Type": "text/plain"}),
    ("JSON array", b"[1, 2, 3]", JSON),
    ("JSON string", b'"0.3"', JSON),
    ("JSON null", b"null", JSON),
    ("JSON number", b"0.3", JSON),
    ("invalid UTF-8", b'{"guess": "\xff\xfe"}', JSON),
    ("NaN constant", b'{"question": NaN, "guess": "0.3"}', JSON),
    ("Infinity constant", b'{"question": 1, "answer": Infinity}', JSON),
    ("deep nesting", b"[" * 100_000 + b"]" * 100_000, JSON),
    ("deep object nesting", b'{"a":' * 2_000 + b"1" + b"}" * 2_000, JSON),
    ("truncated JSON", b'{"question": 1, "gue', JSON),
    ("duplicate keys", b'{"question": 1, "question": 99, "guess": 7}', JSON),
    ("lone surrogate", b'{"guess": "\\ud800", "question": 1}', JSON),
    ("NUL in text", b'{"guess": "0.3\\u0000", "question": 1}', JSON),
    ("huge integer", b'{"question": 1' + b"0" * 5000 + b', "guess": "0.3"}', JSON),
]
BAD_GUESS_FIELDS: list[Any] = [
    {"question": 1}, {"guess": "0.3"}, {}, {"question": "1", "guess": "0.3"}, {"question": 1.0, "guess": "0.3"},
    {"question": True, "guess": "0.3"}, {"question": -1, "guess": "0.3"}, {"question": 0, "guess": "0.3"},
    {"question": 10**30, "guess": "0.3"}, {"question": None, "guess": "0.3"}, {"question": [1], "guess": "0.3"},
    {"question": 1, "guess": 0.3}, {"question": 1, "guess": None}, {"question": 1, "guess": ["0.3"]},
    {"question": 1, "guess": {"v": 1}}, {"question": 1, "guess": ""}, {"question": 1, "guess": "abc"},
    {"question": 1, "guess": "150%"}, {"question": 1, "guess": "1/0"}, {"question": 1, "guess": "-0.2"},
    {"question": 1, "guess": "nan"}, {"question": 1, "guess": "inf"}, {"question": 1, "guess": "1e-1"},
    {"question": 1, "guess": "0.3" * 30}, {"question": 1, "guess": "<script>alert(1)</script>"},
    {"question": 1, "guess": "0.3", "student": 2}, {"question": 1, "guess": "0.3", "token": "x"},
    {"question": 2, "guess": "0.3"}, {"question": 99, "guess": "0.3"}, {"question": 1, "guess": "'; DROP TABLE"},
]
BAD_ASK_FIELDS: list[Any] = [{}, {"key": "win"}, {"key": "win", "text": "t"}]
GOOD_ASK = {"key": "win", "text": "t", "position": "p", "answer": 0.5, "low": 0.5, "high": 0.5, "exact": True,
            "answer_text": "a"}   # refused while question 1 is open


def bad_questions() -> Iterator[dict[str, Any]]:
    base = {"key": "win", "text": "t", "position": "<div>p</div>", "answer": 0.5, "low": 0.4, "high": 0.6,
            "exact": False, "answer_text": "a"}
    for name, value in [("answer", 1.5), ("answer", -0.1), ("answer", "0.5"), ("answer", None), ("answer", True),
                        ("low", 0.7), ("high", 0.3), ("exact", "yes"), ("exact", 1), ("text", ""),
                        ("text", "x" * 600), ("key", "k" * 50), ("position", 5), ("answer_text", ["a"]),
                        ("answer", 10**400), ("extra", 1)]:
        yield {**base, name: value}
    yield {**base, "exact": True}   # an exact answer with an interval


def sweep(running: Running, tokens: list[str], number: int, phase: str) -> Iterator[Req]:
    """Every hostile request of one phase (``open``: question ``number`` open; ``revealed``: after Reveal)."""
    teacher: dict[str, str | bytes] = {"Authorization": f"Bearer {running.token}"}
    tok = itertools.cycle(tokens)

    def stud() -> dict[str, str | bytes]:
        return {"X-Student-Token": next(tok)}

    posts = ["/api/join", "/api/guess", "/api/teacher/ask", "/api/teacher/reveal", "/api/teacher/next"]
    for path in posts:
        auth = teacher if "teacher" in path else stud() if path == "/api/guess" else {}
        for what, body, ctype in BAD_BODIES:
            yield Req("POST", path, {**auth, **ctype}, body, f"{what} to {path}")
        yield Req("POST", path, {**auth, **JSON}, b"{" + b'"a":"' + b"x" * 600_000 + b'"}', f"oversized {path}")
        yield Req("GET" if path != "/api/join" else "PUT", path, auth, None, f"wrong method on {path}")
        yield Req("DELETE", path, auth, None, f"DELETE {path}")
    for fields in BAD_GUESS_FIELDS:
        yield Req("POST", "/api/guess", {**stud(), **JSON}, as_json(fields), f"bad guess {fields!r:.60}")
    yield Req("POST", "/api/guess", {**JSON, "Content-Length": "3000"}, b"x" * 3000, "student body over 2 kB")
    for fields in [*BAD_ASK_FIELDS, *bad_questions()]:
        yield Req("POST", "/api/teacher/ask", {**teacher, **JSON}, as_json(fields), f"bad ask {fields!r:.60}")
    for fields in [{}, {"question": 0}, {"question": 2}, {"question": "1"}, {"question": 1, "x": 1}, {"question": -5}]:
        yield Req("POST", "/api/teacher/reveal", {**teacher, **JSON}, as_json(fields), f"bad reveal {fields}")
    yield Req("POST", "/api/teacher/next", {**teacher, **JSON}, as_json({"x": 1}), "next with a field")
    if phase == "open":
        yield Req("POST", "/api/teacher/next", {**teacher, **JSON}, b"{}", "next while the question is open")
        for _ in range(3):
            yield Req("POST", "/api/teacher/ask", {**teacher, **JSON}, as_json(GOOD_ASK), "ask while one is open")
    # wrong tokens, everywhere
    wrong: list[dict[str, str | bytes]] = [
             {}, {"Authorization": "Bearer"}, {"Authorization": "Bearer  x"},
             {"Authorization": f"Bearer {running.token[:-1]}"},
             {"Authorization": f"bearer {running.token}"}, {"Authorization": running.token},
             {"Authorization": f"Bearer {running.token}x"}, {"Authorization": "Bearer " + "A" * 5000},
             {"Authorization": "Bearer \u00e9\u00e8".encode("latin-1")}, {"X-Student-Token": tokens[0]},
             {"Authorization": f"Bearer {tokens[0]}"}]
    teacher_paths = [("GET", "/api/teacher/status"), ("GET", "/api/teacher/events"),
                     ("GET", "/api/teacher/export.csv"), ("POST", "/api/teacher/ask"),
                     ("POST", "/api/teacher/reveal"), ("POST", "/api/teacher/next")]
    for (method, path), headers in itertools.product(teacher_paths, wrong):
        body = as_json({"question": number}) if method == "POST" else None
        yield Req(method, path, {**headers, **JSON}, body, f"wrong teacher token on {path}")
    for method, path in [("GET", "/api/teacher/export.csv?token=nope"), ("GET", "/api/teacher/events?token="),
                         ("GET", "/api/teacher/events?token=%ff%fe"), ("GET", "/api/teacher/export.csv?token=%00"),
                         ("GET", "/api/teacher/events?token=a&token=b")]:
        yield Req(method, path, {}, None, "wrong token in the query")
    student_wrong: list[dict[str, str | bytes]] = [
                     {}, {"X-Student-Token": ""}, {"X-Student-Token": "nope"}, {"X-Student-Token": "A" * 5000},
                     {"X-Student-Token": running.token}, {"Cookie": "cardlab_student=nope"},
                     {"X-Student-Token": tokens[0][:-1]}, {"X-Student-Token": ("\u00e9" * 10).encode("latin-1")},
                     {"Authorization": f"Bearer {running.token}"}]
    for headers in student_wrong:
        yield Req("GET", "/api/state", headers, None, "wrong student token on state")
        yield Req("POST", "/api/guess", {**headers, **JSON}, as_json({"question": number, "guess": "0.5"}),
                  "wrong student token on guess")
    for code in ["", "A", "AAAAAA", running.code[:-1], running.code + "X", "x" * 41, "../../", "\u0000", 123,
                 None, ["A"], running.code.lower()[::-1]]:
        if code == running.code:
            continue
        yield Req("POST", "/api/join", JSON, as_json({"code": code}), f"bad join code {code!r:.20}")
    yield Req("POST", "/api/join", JSON, as_json({"code": running.code, "student": 1}), "join with a field")
    # unknown paths, path tricks, odd queries
    for path in ["/api", "/api/", "/api/teacher", "/api/state/../teacher/status", "/%2e%2e/etc/passwd",
                 "/api/guess?question=1&guess=0.3", "/teacher/../api/teacher/status", "/qr.svg.bak",
                 "/api/events/x", "/" + "a" * 3000, "/api/teacher/export.csv/", "/static/common.js",
                 "/cardlab-class.sqlite3", "/api/health/../../api/teacher/status"]:
        yield Req("GET", path, {}, None, f"unknown path {path:.30}")
    if phase == "revealed":   # replays of earlier, acknowledged guesses: refused after Reveal
        for t, text in [(tokens[0], SECRET_A), (tokens[1], SECRET_B), (tokens[0], "0.1"), (tokens[2], "0.5")]:
            for _ in range(3):
                yield Req("POST", "/api/guess", {"X-Student-Token": t, **JSON},
                          as_json({"question": number, "guess": text}), "replayed guess after Reveal")
        yield Req("POST", "/api/teacher/reveal", {**teacher, **JSON}, as_json({"question": number}), "reveal again")


def send(client: httpx.Client, req: Req) -> httpx.Response:
    return client.request(req.method, req.path, headers=req.headers, content=req.body)


def test_hostile_sweep(server: Running) -> None:
    game = cardlab.new_game("garbage", players=3, seed=11)
    for _ in range(5):
        game.play(game.legal_moves()[0])
    session = ClassSession(server.teacher_url)
    number = session.ask_game(game, "What is the chance that seat 0 wins?", answer=0.3, low=0.25, high=0.35,
                              exact=False).number
    hidden = set(re.findall(r'data-card="([^"]+)"', _everything(game))) - set(
        re.findall(r'data-card="([^"]+)"', _public(game)))
    with httpx.Client(base_url=server.base, timeout=30) as c:
        tokens = [join(c, server.code) for _ in range(12)]
        for t, text in [(tokens[0], SECRET_A), (tokens[1], SECRET_B)]:
            r = c.post("/api/guess", headers={"X-Student-Token": t}, json={"question": number, "guess": text})
            assert r.status_code == 200
    statuses: Counter[int] = Counter()
    problems: list[str] = []
    total = 0
    for phase in ("open", "revealed"):
        if phase == "revealed":
            session.reveal(number)
        before = db_digest(server.store)
        with httpx.Client(base_url=server.base, timeout=30) as c:
            for req in sweep(server, tokens[2:], number, phase):
                try:
                    r = send(c, req)
                except httpx.HTTPError as exc:
                    raise AssertionError(f"no answer to {req.what}: {exc!r}") from exc
                total += 1
                statuses[r.status_code] += 1
                body = r.text
                if r.status_code >= 500:
                    problems.append(f"{r.status_code} for {req.what}: {body[:200]}")
                if 200 <= r.status_code < 300:
                    problems.append(f"accepted: {req.what} ({r.status_code})")
                for secret in (SECRET_A, SECRET_B, server.token, *tokens):
                    if secret in body and secret not in (req.body or b"").decode("utf-8", "replace"):
                        problems.append(f"leak of {secret[:6]}... in the answer to {req.what}")
                for card in hidden:
                    if f'data-card="{card}"' in body:
                        problems.append(f"hidden card {card} in the answer to {req.what}")
        after = db_digest(server.store)
        changed = [t for t in before if before[t] != after[t]]
        assert not changed, f"the {phase} phase changed the tables {changed}"
    # the students' own views: each sees its own guess and the count, nobody else's guess
    with httpx.Client(base_url=server.base, timeout=30) as c:
        a = c.get("/api/state", headers={"X-Student-Token": tokens[0]}).text
        b = c.get("/api/state", headers={"X-Student-Token": tokens[1]}).text
    assert SECRET_A in a and SECRET_B not in a and SECRET_B in b and SECRET_A not in b
    assert not problems, "\n".join(problems[:30])
    assert total >= 300, total
    assert statuses[429] <= total // 5, statuses   # most requests reached the checks, not only the rate limit
    assert all(400 <= s < 500 for s in statuses), statuses
    print(f"hostile sweep: {total} requests, statuses {dict(sorted(statuses.items()))}")


def _public(game: cardlab.Game[Any]) -> str:
    from cardlab.classroom.position import position_html

    return position_html(game, None)


def _everything(game: cardlab.Game[Any]) -> str:
    from cardlab.viz.table import table_html

    return table_html(game, None, reveal_all=True)
