"""The class server under a class: N simulated students (plain HTTP clients, 127.0.0.1 only) on one machine.

What it does, bounded in count (``--students``, at most 500) and in time (``--deadline`` seconds for the whole
run, default 120):

1. starts ``cardlab class`` on a free loopback port with a fresh SQLite store (in a temporary folder);
2. the teacher asks a question about a real position (Shithead, 4 players: the largest table picture) and
   listens to its event stream, as the stepper's class row does;
3. every student loads the join page, joins, loads the question page and its state, and keeps the students'
   event stream open (one connection each, as a phone does);
4. the students send their guesses spread over ``--spread`` seconds (seeded: ``--seed``), each one timed;
5. measured: guesses acknowledged and stored (the teacher's count and the CSV), the time from a guess sent to
   the teacher's event stream showing a count that includes it (the r-th guess stored is in every count >= r:
   the server is one thread and stores them in the order it acknowledges them), the same for the students'
   streams (their events are coalesced, one every 0.25 s at most), and a student's first load in bytes.

The load generator runs on the same machine as the server (both share its cores), so the figures are those of a
teacher's laptop that also runs the class.

Run: ``.venv/bin/python benchmarks/bench_classroom.py [--students 200] [--spread 5] [--seed 1]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
HOST = "127.0.0.1"   # loopback only
MAX_STUDENTS = 500
PAGE_LIMIT = 200_000


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def start(store: Path, port: int, log: Path) -> tuple[subprocess.Popen[bytes], str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONUNBUFFERED="1")
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "cardlab", "class", "--host", HOST, "--port", str(port),
                                 "--store", str(store), "--no-qr"], stdout=out, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        token, code = re.findall(r"#token=(\S+)", text), re.findall(r"\?code=([A-Z0-9]+)", text)
        if token and code:
            try:
                if httpx.get(f"http://{HOST}:{port}/api/health", timeout=2).status_code == 200:
                    return proc, token[0], code[0]
            except httpx.HTTPError:
                pass
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGTERM)
    raise SystemExit(f"the class server did not start:\n{log.read_text(errors='replace')}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q)) if values else float("nan")


COUNT = re.compile(rb'"count": (\d+)')


async def student_stream(port: int, seen: list[tuple[float, int]], ready: asyncio.Event) -> None:
    """One phone's event stream, read with a bare socket (the simulated students must cost the machine far less
    than the server, or they would be what is measured): the time each chunk arrives and the last count in it."""
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(f"GET /api/events HTTP/1.1\r\nHost: {HOST}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    try:
        while chunk := await reader.read(65536):
            now = time.monotonic()
            ready.set()
            counts = COUNT.findall(chunk)
            if counts:
                seen.append((now, int(counts[-1])))
    finally:
        writer.close()


def teacher_listener(base: str, token: str) -> int:
    """``--listen``: the teacher's event stream in a process of its own (the teacher's kernel), one line per event:
    the monotonic clock (the same clock in every process on Linux) and the count."""
    with httpx.stream("GET", f"{base}/api/teacher/events", headers={"Authorization": f"Bearer {token}"},
                      timeout=httpx.Timeout(10, read=None)) as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                print(f"{time.monotonic():.6f} {json.loads(line[6:])['count']}", flush=True)
    return 0


def read_log(path: Path) -> list[tuple[float, int]]:
    out = []
    for line in path.read_text().splitlines():
        t, count = line.split()
        out.append((float(t), int(count)))
    return out


def first_at_least(events: list[tuple[float, int]], rank: int, after: float) -> float | None:
    for t, count in events:
        if count >= rank and t >= after:
            return t
    return None


async def run(base: str, port: int, token: str, code: str, students: int, spread: float, seed: int,
              teacher_log: Path) -> dict[str, Any]:
    import cardlab
    from cardlab.classroom.position import position_html

    rng = np.random.default_rng(seed)
    teacher = {"Authorization": f"Bearer {token}"}
    limits = httpx.Limits(max_connections=2 * students + 20, max_keepalive_connections=2 * students + 20)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:
        game = cardlab.new_game("shithead", players=4, seed=2)
        r = await client.post("/api/teacher/ask", headers=teacher, json={
            "key": "win", "text": "What is the chance that seat 0 wins this game?",
            "position": position_html(game, None), "answer": 0.25, "low": 0.22, "high": 0.28, "exact": False,
            "answer_text": "0.250, 95% interval [0.220, 0.280] (estimate)"})
        r.raise_for_status()
        number = r.json()["number"]
        listener = subprocess.Popen([sys.executable, __file__, "--listen", base], env=dict(os.environ,
                                    CARDLAB_TEACHER_TOKEN=token), stdout=teacher_log.open("wb"))
        end = time.monotonic() + 20
        while time.monotonic() < end and not teacher_log.read_text().strip():
            await asyncio.sleep(0.05)   # until the teacher's stream is open (bounded)
        tasks: list[asyncio.Task[None]] = []

        tokens: list[str] = []
        page_bytes = page_wire = 0
        t0 = time.monotonic()
        for i in range(students):
            if i == 0:
                first = await client.get(f"/?code={code}")
                page_bytes, page_wire = len(first.content), first.num_bytes_downloaded
            r = await client.post("/api/join", json={"code": code})
            r.raise_for_status()
            tokens.append(r.json()["token"])
        join_s = time.monotonic() - t0
        play = await client.get("/play")
        state = await client.get("/api/state", headers={"X-Student-Token": tokens[0]})
        page_bytes += len(play.content) + len(state.content)
        page_wire += play.num_bytes_downloaded + state.num_bytes_downloaded   # gzip, as a phone's browser asks
        plotly_on_page = "plotly" in (play.text + state.text).lower()

        student_events: list[list[tuple[float, int]]] = [[] for _ in tokens]
        for events in student_events:
            ready = asyncio.Event()
            tasks.append(asyncio.create_task(student_stream(port, events, ready)))
            await ready.wait()

        sends = rng.uniform(0, spread, size=students)
        values = rng.integers(0, 101, size=students)
        acks: list[tuple[float, float]] = []   # (sent, acknowledged)
        refused = 0

        async def guess(i: int) -> None:
            nonlocal refused
            reader, writer = await asyncio.open_connection(HOST, port)   # the phone's connection, opened first
            body = json.dumps({"question": number, "guess": f"{int(values[i])}%"}).encode()
            request = (f"POST /api/guess HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: application/json\r\n"
                       f"X-Student-Token: {tokens[i]}\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
            await asyncio.sleep(float(sends[i]))
            sent = time.monotonic()
            writer.write(request)
            await writer.drain()
            status = int((await reader.readline()).split()[1])
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await reader.readexactly(length)
            if status == 200:
                acks.append((sent, time.monotonic()))
            else:
                refused += 1
            writer.close()

        t0 = time.monotonic()
        await asyncio.gather(*(guess(i) for i in range(students)))
        guess_s = time.monotonic() - t0
        end = time.monotonic() + 10
        while time.monotonic() < end and (read_log(teacher_log)[-1:] or [(0.0, -1)])[-1][1] < len(acks):
            await asyncio.sleep(0.05)   # the last events on their way (bounded)
        await asyncio.sleep(0.5)        # the students' streams send at most every 0.25 s
        listener.terminate()
        listener.wait(timeout=10)
        teacher_events = read_log(teacher_log)
        status = (await client.get("/api/teacher/status", headers=teacher)).json()
        csv_rows = (await client.get("/api/teacher/export.csv", headers=teacher)).text.strip().count("\n")
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    acks.sort(key=lambda a: a[1])
    teacher_lat, student_lat = [], []
    for rank, (sent, _) in enumerate(acks, start=1):
        t = first_at_least(teacher_events, rank, sent)
        if t is not None:
            teacher_lat.append(t - sent)
        for events in student_events[:: max(1, students // 50)]:   # 50 students' streams sampled
            t = first_at_least(events, rank, sent)
            if t is not None:
                student_lat.append(t - sent)
    ack_lat = [a - s for s, a in acks]
    return {"students": students, "acknowledged": len(acks), "refused": refused, "stored": status["count"],
            "csv_rows": csv_rows, "join_s": join_s, "guess_s": guess_s,
            "ack_p50": percentile(ack_lat, 50), "ack_p95": percentile(ack_lat, 95),
            "teacher_p50": percentile(teacher_lat, 50), "teacher_p95": percentile(teacher_lat, 95),
            "teacher_seen": len(teacher_lat), "student_p95": percentile(student_lat, 95),
            "page_bytes": page_bytes, "page_wire": page_wire, "plotly_on_page": plotly_on_page}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--spread", type=float, default=5.0, help="seconds over which the guesses are sent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deadline", type=float, default=120.0, help="seconds for the whole run, at most")
    parser.add_argument("--listen", help=argparse.SUPPRESS)   # the teacher's listener process (see run)
    args = parser.parse_args()
    if args.listen:
        return teacher_listener(args.listen, os.environ["CARDLAB_TEACHER_TOKEN"])
    if not 1 <= args.students <= MAX_STUDENTS:
        raise SystemExit(f"--students must be 1 to {MAX_STUDENTS}")
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc, token, code = start(Path(tmp) / "bench.sqlite3", port, Path(tmp) / "server.log")
        try:
            cpu0, own0 = cpu_seconds(proc.pid), resource.getrusage(resource.RUSAGE_SELF)
            out = asyncio.run(asyncio.wait_for(
                run(f"http://{HOST}:{port}", port, token, code, args.students, args.spread, args.seed,
                    Path(tmp) / "teacher.log"), args.deadline))
            own1 = resource.getrusage(resource.RUSAGE_SELF)
            out["server_cpu"] = cpu_seconds(proc.pid) - cpu0
            out["client_cpu"] = own1.ru_utime + own1.ru_stime - own0.ru_utime - own0.ru_stime
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)
    print(f"class server, {out['students']} students on {os.cpu_count()} cores (load generator on the same "
          f"machine), guesses spread over {args.spread:g} s, seed {args.seed}")
    print(f"  joined in {out['join_s']:.2f} s; guesses acknowledged {out['acknowledged']}, refused {out['refused']}, "
          f"stored {out['stored']} (CSV rows {out['csv_rows']})")
    print(f"  guess -> acknowledged: p50 {out['ack_p50'] * 1000:.0f} ms, p95 {out['ack_p95'] * 1000:.0f} ms")
    print(f"  guess -> the teacher's count shows it: p50 {out['teacher_p50'] * 1000:.0f} ms, "
          f"p95 {out['teacher_p95'] * 1000:.0f} ms ({out['teacher_seen']} guesses seen)")
    print(f"  guess -> the students' count shows it (50 streams sampled): p95 {out['student_p95'] * 1000:.0f} ms")
    print(f"  CPU: the server {out['server_cpu']:.1f} s, the simulated students {out['client_cpu']:.1f} s")
    print(f"  a student's first load (join page, question page, state with the table): {out['page_bytes']:,} bytes "
          f"({out['page_wire']:,} on the wire, gzip; limit {PAGE_LIMIT:,}); "
          f"plotly on the page: {out['plotly_on_page']}")
    ok = (out["stored"] == out["acknowledged"] == out["students"] and out["teacher_p95"] <= 0.5
          and out["page_bytes"] <= PAGE_LIMIT and not out["plotly_on_page"])
    print("  targets (all stored, p95 <= 500 ms, <= 200 kB, no plotly):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
