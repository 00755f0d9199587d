"""A real class server for the tests: ``python -m cardlab class`` in its own process, on a free loopback port,
with its SQLite store in a temporary folder. Only 127.0.0.1 is ever used."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 30.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Running:
    """A class server process and what it printed: the teacher's token, the join code."""

    proc: subprocess.Popen[bytes]
    base: str
    store: Path
    port: int
    token: str
    code: str
    log: Path

    @property
    def teacher_url(self) -> str:
        return f"{self.base}/teacher#token={self.token}"

    def teacher_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def start_server(store: Path, port: int, log: Path, extra: tuple[str, ...] = ()) -> Running:
    """Start ``cardlab class`` and wait until it has printed its addresses and answers /api/health."""
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONUNBUFFERED="1")
    out = log.open("ab")
    proc = subprocess.Popen([sys.executable, "-m", "cardlab", "class", "--host", "127.0.0.1", "--port", str(port),
                             "--store", str(store), "--no-qr", *extra], stdout=out, stderr=subprocess.STDOUT,
                            env=env, start_new_session=True)
    out.close()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the class server exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        text = log.read_text(errors="replace")
        token = re.findall(r"/teacher#token=(\S+)", text)
        code = re.findall(r"\?code=([A-Z0-9]+)", text)
        root = re.findall(r"(http://\S+)/\?code=", text)   # the address of the join page: base and prefix
        if token and code and root:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{root[-1]}/api/health", timeout=2).status_code == 200:
                    return Running(proc, base, store, port, token[-1], code[-1], log)
        time.sleep(0.1)
    stop_server(proc)
    pytest.fail(f"the class server did not start within {START_TIMEOUT_S:.0f} s:\n{log.read_text(errors='replace')}")


def stop_server(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Stop a server this test started (its own process group only)."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=15)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    running = start_server(tmp_path / "class.sqlite3", free_port(), tmp_path / "server.log")
    try:
        yield running
    finally:
        stop_server(running.proc)


def db_digest(store: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, read from the server's file beside it (a WAL reader never blocks the writer)."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return {t: [tuple(r) for r in db.execute(f"SELECT * FROM {t} ORDER BY 1, 2")]
                for t in ("sessions", "questions", "students", "guesses")}
    finally:
        db.close()


def join(client: httpx.Client, code: str) -> str:
    r = client.post("/api/join", json={"code": code})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def ask(client: httpx.Client, running: Running, text: str = "What is the chance that seat 0 wins?",
        answer: float = 0.25, exact: bool = True, position: str = "<div class='cl-table'>table</div>") -> int:
    low, high = (answer, answer) if exact else (max(answer - 0.05, 0), min(answer + 0.05, 1))
    r = client.post("/api/teacher/ask", headers=running.teacher_headers(),
                    json={"key": "win", "text": text, "position": position, "answer": answer, "low": low,
                          "high": high, "exact": exact, "answer_text": f"{answer} ({'exact' if exact else 'est'})"})
    assert r.status_code == 200, r.text
    return int(r.json()["number"])
