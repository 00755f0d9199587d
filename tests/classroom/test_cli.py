"""``cardlab class`` on the command line: what it prints, and clear refusals (exit status 2, one line)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.classroom.conftest import REPO, Running


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "cardlab", "class", *args], capture_output=True, text=True,
                          timeout=60, env=env)


def test_the_banner_names_both_addresses(server: Running) -> None:
    text = server.log.read_text()
    assert f"{server.base}/teacher#token={server.token}" in text
    assert f"Students: open {server.base}/ and type the code {server.code}" in text
    assert "start again on the same store" in text


def test_a_taken_port_is_refused_in_one_line(server: Running, tmp_path: Path) -> None:
    done = run_cli("--host", "127.0.0.1", "--port", str(server.port), "--store", str(tmp_path / "other.sqlite3"))
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{server.port}" in done.stderr and "--port" in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_port_and_prefix_are_refused(tmp_path: Path) -> None:
    for args, words in ((["--port", "70000"], "port 70000 is not allowed"),
                        (["--prefix", "no-slash"], "is not a path")):
        done = run_cli("--host", "127.0.0.1", "--store", str(tmp_path / "x.sqlite3"), "--no-qr", *args)
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr


def test_the_terminal_qr_code_encodes_the_join_address() -> None:
    from cardlab.classroom.pages import qr_text

    drawn = qr_text("http://127.0.0.1:8765/?code=ABCDEF")
    rows = drawn.strip("\n").splitlines()
    assert len(rows) >= 12 and len({len(r) for r in rows}) == 1   # a square of block characters, compact
