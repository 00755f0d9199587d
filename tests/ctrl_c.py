"""Scripts running a long ``simulate`` in their own session, to be stopped with Ctrl-C (SIGINT).

:func:`start` runs ``simulate`` from Python: the script first plays one short run of the game (the kernel is
loaded, the compiled code read from numba's cache), prints ``started``, then starts a run far longer than any test
waits. :func:`start_cli` runs the same through the ``cardlab simulate`` command. :func:`interrupt` sends SIGINT to
the whole session, as a terminal's Ctrl-C reaches every process of the job (worker processes included), and
measures the seconds until the script has exited.

Shared by the unit test (tests/sim/test_simulate.py), the robustness figures (tests/robustness.py) and
benchmarks/bench_ctrl_c.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

LONG_RUN = 10_000_000
"""Games of the long run: minutes on any game, on any path (a run is stopped after a few seconds)."""

SCRIPT = ("import sys, cardlab\n"
          "if __name__ == '__main__':\n"
          "    name, processes, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[4])\n"
          "    fast = {'auto': None, 'engine': False}[sys.argv[3]]\n"
          "    cardlab.simulate(name, games=2, seed=0, progress=False, fast=fast)\n"
          "    print('started', flush=True)\n"
          "    cardlab.simulate(name, games=games, seed=1, processes=processes, progress=False, fast=fast)\n")


def _default_sigint() -> None:
    """In the child: Ctrl-C as on a terminal, even when this process was started in the background (where the
    shell ignores SIGINT, and a child that inherits that would never hear it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_argv(argv: list[str]) -> subprocess.Popen[str]:
    """Start ``argv`` in a session of its own (so that :func:`interrupt` reaches its workers too), Ctrl-C armed."""
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_default_sigint,
                            start_new_session=True, text=True, cwd=os.getcwd())


def start(name: str = "shithead", processes: int = 2, engine: bool = True,
          games: int = 200_000) -> subprocess.Popen[str]:
    """Start a script that runs ``simulate(name, games=games, processes=processes)`` (on the engine, or on the path
    ``simulate`` picks); it prints ``started`` once that run is about to begin."""
    return start_argv([sys.executable, "-c", SCRIPT, name, str(processes), "engine" if engine else "auto", str(games)])


def start_cli(name: str, processes: int, games: int = LONG_RUN) -> subprocess.Popen[str]:
    """Start ``cardlab simulate name --games games --processes processes`` (with its progress bar)."""
    return start_argv([sys.executable, "-m", "cardlab", "simulate", name, "--games", str(games),
                   "--processes", str(processes)])


def interrupt(proc: subprocess.Popen[str], timeout: float = 60) -> float:
    """Send SIGINT to the script's whole session (as Ctrl-C on a terminal does) and return the seconds until the
    script exited (``timeout`` if it had not by then)."""
    sent = time.perf_counter()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return timeout
    return time.perf_counter() - sent


def session_empty(proc: subprocess.Popen[str], within: float = 3.0) -> bool:
    """Whether every process of the script's session (its worker processes too) is gone within ``within`` s."""
    deadline = time.perf_counter() + within
    while time.perf_counter() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


@dataclass(frozen=True)
class Stopped:
    """How a script ended after Ctrl-C: seconds from SIGINT to its exit, whether its whole session was gone soon
    after (no worker process left behind), what it wrote on standard error, and its exit status."""

    seconds: float
    gone: bool
    stderr: str
    returncode: int | None


def run_then_interrupt(proc: subprocess.Popen[str], wait: float, marked: bool = True) -> Stopped:
    """Let the script run ``wait`` seconds (after its ``started`` line, when ``marked``), then Ctrl-C it (see
    :func:`interrupt`); whatever happens, its session is killed at the end."""
    try:
        if marked:
            assert proc.stdout is not None
            line = proc.stdout.readline().strip()
            if line != "started":
                raise AssertionError(f"the script did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}")
        time.sleep(wait)
        if proc.poll() is not None:
            raise AssertionError(f"the script ended before Ctrl-C: {proc.stderr.read() if proc.stderr else ''}")
        seconds = interrupt(proc, timeout=60)
        gone = session_empty(proc)
    finally:
        end_session(proc)
        proc.wait()
    return Stopped(seconds, gone, proc.stderr.read() if proc.stderr is not None else "", proc.returncode)


def end_session(proc: subprocess.Popen[str]) -> None:
    """Kill the child's session: the script and any worker it left behind."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
