"""From a fresh clone to the first game: how long a new user waits.

    .venv/bin/python benchmarks/bench_first_game.py [--repo PATH] [--branch NAME]

Clones the repository (this one by default) into a temporary folder, runs ``make lab`` there as a new user
would (it creates the venv, installs the teaching stack, compiles the kernel, prepares ``workspace/`` and
starts JupyterLab), opens the address it prints last in Chromium (the system one, as the browser tests use),
runs every cell of the start notebook, and clicks **Next move** once the stepper is drawn. Prints the time of
each step from the start of the clone. Needs Chromium and the Python ``playwright`` package (the ``test``
extra). pip's own download cache is used as on any machine; say whether it was warm when you quote a figure.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.browser.conftest import CHROMIUM_ARGS, COUNTER_JS, WIN_TRACES_JS, find_chromium  # noqa: E402

TIMEOUT_MS = 600_000


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", default=str(REPO))
    parser.add_argument("--branch", default=None)
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        print("skipped: Chromium not found (apt-get install -y chromium chromium-driver)")
        return 0
    from playwright.sync_api import sync_playwright

    marks: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="cardlab-first-game-") as tmp:
        clone = Path(tmp) / "cardlab"
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "VIRTUAL_ENV")}
        env["JUPYTER_CONFIG_DIR"] = str(Path(tmp) / "jupyter-config")   # a new user's empty Jupyter settings
        env["JUPYTER_RUNTIME_DIR"] = str(Path(tmp) / "jupyter-runtime")
        start = time.monotonic()
        branch = ["-b", args.branch] if args.branch else []
        subprocess.run(["git", "clone", "-q", *branch, args.repo, str(clone)], check=True)
        marks.append(("git clone", time.monotonic() - start))
        port = free_port()
        proc = subprocess.Popen(["make", "lab", f"PORT={port}"], cwd=clone, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
        try:
            assert proc.stdout is not None
            address = ""
            for line in proc.stdout:
                if "token=" in line:
                    address = line.strip()
                    break
            if not address:
                print("make lab ended without printing an address")
                return 1
            marks.append(("make lab printed the address", time.monotonic() - start))
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
                page = browser.new_page(viewport={"width": 1440, "height": 1100})
                page.goto(address.replace("localhost", "127.0.0.1"), timeout=TIMEOUT_MS)
                # what a user sees: the notebook, its kernel idle in the status bar; then Run > Run All Cells
                page.locator(".jp-Notebook").first.wait_for(state="visible", timeout=TIMEOUT_MS)
                page.get_by_text("| Idle").first.wait_for(state="visible", timeout=TIMEOUT_MS)
                marks.append(("start notebook open, kernel idle", time.monotonic() - start))
                page.get_by_role("menuitem", name="Run", exact=True).click()
                page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
                page.get_by_role("button", name="Next move").first.wait_for(state="visible", timeout=TIMEOUT_MS)
                page.wait_for_function(f"() => {{ const t = ({WIN_TRACES_JS})(); return !!t && t.length > 0; }}",
                                       timeout=TIMEOUT_MS)
                marks.append(("stepper drawn (Run All)", time.monotonic() - start))
                before = page.evaluate(COUNTER_JS)
                page.get_by_role("button", name="Next move").first.click()
                page.wait_for_function(f"() => ({COUNTER_JS})() === {int(before) + 1}", timeout=TIMEOUT_MS)
                marks.append(("first Next move answered", time.monotonic() - start))
                browser.close()
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=60)
    load = os.getloadavg()
    print(f"fresh clone to first game ({time.strftime('%Y-%m-%d %H:%M')}, load {load[0]:.1f} {load[1]:.1f} "
          f"{load[2]:.1f}):")
    for what, seconds in marks:
        print(f"  {seconds:7.1f} s  {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
