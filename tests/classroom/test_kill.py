"""Nothing is lost: ``kill -9`` of the class server in the middle of a question, while students are sending
guesses, then a restart on the same SQLite file and port. Every guess the server acknowledged is there, the
question is still open, the students' tokens still work, and an event-stream client that reconnects as a
browser's EventSource does (after the stream's ``retry`` delay) hears the restarted server."""

from __future__ import annotations

import csv
import io
import json
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from tests.classroom.conftest import ask, free_port, start_server, stop_server

STUDENTS = 60
KILL_AFTER = 25   # acknowledged guesses before the kill


class EventSourceLike:
    """Reads ``/api/events``; when the connection drops it waits the stream's ``retry`` milliseconds and
    connects again, as a browser's EventSource does. Records each event with its connection's number."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.events: list[tuple[int, dict[str, Any]]] = []
        self.connections = 0
        self.retry_s = 3.0
        self.stop = threading.Event()
        self.heard = threading.Condition()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                with httpx.stream("GET", self.url, timeout=httpx.Timeout(5, read=30)) as r:
                    self.connections += 1
                    for line in r.iter_lines():
                        if line.startswith("retry: "):
                            self.retry_s = int(line[7:]) / 1000
                        elif line.startswith("data: "):
                            with self.heard:
                                self.events.append((self.connections, json.loads(line[6:])))
                                self.heard.notify_all()
                        if self.stop.is_set():
                            return
            except httpx.HTTPError:
                pass
            self.stop.wait(self.retry_s)

    def wait_for(self, test: Any, timeout: float) -> bool:
        with self.heard:
            return self.heard.wait_for(lambda: any(test(c, e) for c, e in self.events), timeout)


def test_kill_9_mid_question_loses_no_acknowledged_guess(tmp_path: Path) -> None:
    store, port, log = tmp_path / "class.sqlite3", free_port(), tmp_path / "server.log"
    first = start_server(store, port, log)
    listener = EventSourceLike(f"{first.base}/api/events")
    try:
        with httpx.Client(base_url=first.base, timeout=10) as c:
            number = ask(c, first)
            joined = []
            for _ in range(STUDENTS):
                r = c.post("/api/join", json={"code": first.code})
                joined.append((r.json()["token"], r.json()["student"]))
        assert listener.wait_for(lambda conn, e: e["students"] == STUDENTS, 10)
        acked: dict[int, float] = {}
        lock = threading.Lock()
        enough = threading.Event()

        def guess(i: int) -> None:
            token, who = joined[i]
            value = round((i + 1) / (STUDENTS + 1), 6)
            try:
                r = httpx.post(f"{first.base}/api/guess", headers={"X-Student-Token": token},
                               json={"question": number, "guess": str(value)}, timeout=5)
            except httpx.HTTPError:
                return   # not acknowledged: the kill came first
            if r.status_code == 200:
                with lock:
                    acked[who] = r.json()["value"]
                    if len(acked) >= KILL_AFTER:
                        enough.set()

        with ThreadPoolExecutor(max_workers=6) as pool:
            futures = [pool.submit(guess, i) for i in range(STUDENTS)]
            assert enough.wait(30)
            stop_server(first.proc, signal.SIGKILL)   # kill -9, with guesses still on their way
            for f in futures:
                f.result()
        assert first.proc.returncode == -signal.SIGKILL
        assert KILL_AFTER <= len(acked) < STUDENTS, len(acked)   # killed mid-question, some guesses not sent

        again = start_server(store, port, log)   # same file, same port
        try:
            assert (again.token, again.code) == (first.token, first.code)
            with httpx.Client(base_url=again.base, timeout=10) as c:
                status = c.get("/api/teacher/status", headers=again.teacher_headers()).json()
                assert status["question"]["number"] == number and status["question"]["state"] == "open"
                rows = list(csv.DictReader(io.StringIO(
                    c.get("/api/teacher/export.csv", headers=again.teacher_headers()).text)))
                stored = {int(r["student"]): float(r["guess"]) for r in rows if r["student"]}
                lost = {who: v for who, v in acked.items() if stored.get(who) != v}
                assert not lost, f"{len(lost)} acknowledged guesses lost: {lost}"
                assert status["count"] == len(stored) >= len(acked)
                # a student whose guess never arrived can send it now, with the same token
                token, who = next((t, w) for t, w in joined if w not in stored)
                r = c.post("/api/guess", headers={"X-Student-Token": token}, json={"question": number, "guess": "1/2"})
                assert r.status_code == 200
            total = len(stored) + 1
            assert listener.wait_for(lambda conn, e: conn >= 2 and e["count"] == total, 15), listener.events[-3:]
            print(f"kill -9 mid-question: {len(acked)} guesses acknowledged before the kill, "
                  f"{len(stored)} stored after the restart, 0 lost; the event stream reconnected "
                  f"({listener.connections} connections)")
        finally:
            stop_server(again.proc)
    finally:
        listener.stop.set()
        if first.proc.poll() is None:
            stop_server(first.proc)
