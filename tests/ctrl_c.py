"""A script running a 2-process ``simulate`` in its own session, to be stopped with Ctrl-C (SIGINT).

It plays on the engine (``fast=False``): the compiled kernel would finish its 200,000 games before the signal.

Shared by the unit test (tests/sim/test_simulate.py) and the robustness figures (tests/robustness.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

SCRIPT = ("import cardlab\n"
          "if __name__ == '__main__':\n"
          "    print('started', flush=True)\n"
          "    cardlab.simulate('shithead', games=200_000, seed=1, processes=2, progress=False, fast=False)\n")


def _default_sigint() -> None:
    """In the child: Ctrl-C as on a terminal, even when this process was started in the background (where the
    shell ignores SIGINT, and a child that inherits that would never hear it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start() -> subprocess.Popen[str]:
    """Start the script; it prints ``started`` once it is about to simulate."""
    return subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_default_sigint, start_new_session=True, text=True, cwd=os.getcwd())


def end_session(proc: subprocess.Popen[str]) -> None:
    """Kill the child's session: the script and any worker it left behind."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
