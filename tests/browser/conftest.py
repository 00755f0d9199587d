"""A real client: JupyterLab and Voilà servers on free localhost ports, driven by the system Chromium.

Chromium comes from the system (``apt-get install -y chromium chromium-driver``); Playwright's own
browser download is not used. Without Chromium the browser tests skip with that advice, except when
``CI`` is set: then a missing browser is a failure, so CI can never pass without having looked.

The servers come from the same environment as the test run (``sys.executable``'s directory). They
serve a copy of the notebooks in a temporary directory, so running every cell in the browser can never
write outputs or widget state into the committed notebooks.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
BIN = Path(sys.executable).parent
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")
INSTALL_HINT = ("install Chromium with `apt-get install -y chromium chromium-driver` "
                "(Playwright's own browser download is not used)")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SERVER_START_TIMEOUT_S = 90.0


def find_chromium() -> str | None:
    """The system Chromium, or None. ``CARDLAB_CHROMIUM``, when set, names the only executable to try."""
    wanted = os.environ.get("CARDLAB_CHROMIUM")
    for name in [wanted] if wanted else CHROMIUM_CANDIDATES:
        path = shutil.which(name)
        if path is not None:
            return path
    return None


def skip_or_fail(reason: str) -> None:
    """Skip locally; fail in CI, where the browser tests must really run."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI is set, so the browser tests must run: {INSTALL_HINT}", pytrace=False)
    pytest.skip(f"{reason}: {INSTALL_HINT}")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_http(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = SERVER_START_TIMEOUT_S,
                  any_status: bool = False) -> None:
    """Poll ``url`` until it answers 200 (or, with ``any_status``, answers at all).

    Fails with the server log if the process dies or time runs out.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"server exited with code {proc.returncode} before answering {url}:\n{tail(log)}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except urllib.error.HTTPError:
            if any_status:
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.5)
    pytest.fail(f"server did not answer {url} within {timeout:.0f} s:\n{tail(log)}")


def tail(log: Path, lines: int = 40) -> str:
    if not log.exists():
        return "(no log)"
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server this fixture started (its own process group only)."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=15)


@dataclass(frozen=True)
class Server:
    url: str
    root: Path
    log: Path


def server_env(home: Path) -> dict[str, str]:
    """The test environment, with Jupyter's config, data and runtime folders kept out of the user's home."""
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["JUPYTER_CONFIG_DIR"] = str(home / "config")
    env["JUPYTER_RUNTIME_DIR"] = str(home / "runtime")
    env["IPYTHONDIR"] = str(home / "ipython")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def copy_notebooks(root: Path) -> None:
    """The notebooks folder copied under ``root`` (same layout as the repository, as on Binder)."""
    shutil.copytree(REPO / "notebooks", root / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))


def lab_settings(settings: Path) -> None:
    """User settings for the test's JupyterLab: no autosave, no windowing, no news or update checks."""
    docmanager = settings / "@jupyterlab" / "docmanager-extension"
    docmanager.mkdir(parents=True)
    (docmanager / "plugin.jupyterlab-settings").write_text(json.dumps({"autosave": False}))
    notebook = settings / "@jupyterlab" / "notebook-extension"
    notebook.mkdir(parents=True)
    # Every cell stays in the page, so the stepper and its plots are drawn wherever they sit.
    (notebook / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    news = settings / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)
    (news / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        skip_or_fail("Chromium was not found")
    assert path is not None
    return path


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("the Python package playwright is not installed (pip install -e '.[test]')")
        raise
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory, artifacts: Path, chromium_path: str) -> Iterator[Server]:
    """``jupyter lab`` with an empty token, serving a copy of the notebooks, app exposed as window.jupyterapp."""
    home = tmp_path_factory.mktemp("lab-home")
    root = tmp_path_factory.mktemp("lab-root")
    copy_notebooks(root)
    lab_settings(home / "settings")
    port = free_port()
    log = artifacts / "jupyterlab-server.log"
    cmd = [str(BIN / "jupyter"), "lab", "--no-browser", f"--port={port}", "--port-retries=0",
           "--ServerApp.ip=127.0.0.1", "--ServerApp.token=", "--ServerApp.password=", "--allow-root",
           "--LabApp.expose_app_in_browser=True", f"--ServerApp.root_dir={root}",
           f"--LabApp.user_settings_dir={home / 'settings'}", f"--LabApp.workspaces_dir={home / 'workspaces'}"]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=root, env=server_env(home), stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_for_http(f"{url}/api/status", proc, log)
        yield Server(url, root, log)
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory: pytest.TempPathFactory, artifacts: Path, chromium_path: str) -> Iterator[Server]:
    """Voilà serving the classroom app, as ``make app`` does, on a free port."""
    home = tmp_path_factory.mktemp("voila-home")
    root = tmp_path_factory.mktemp("voila-root")
    copy_notebooks(root)
    port = free_port()
    log = artifacts / "voila-server.log"
    cmd = [str(BIN / "voila"), "--no-browser", f"--Voila.port={port}", "--Voila.ip=127.0.0.1",
           "--VoilaExecutor.timeout=240", str(root / "notebooks" / "app.ipynb")]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=root, env=server_env(home), stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}"
        # Voilà has no status API and runs the notebook on every page load: any answer means it is up.
        wait_for_http(f"{url}/voila/static/", proc, log, any_status=True)
        yield Server(url, root, log)
    finally:
        stop(proc)


# ---------------------------------------------------------------------------------------------- the page
STEPPER_TIMEOUT_MS = 240_000
CLICK_TIMEOUT_MS = 60_000

# The P(win) chart is the Plotly plot whose title starts "P(win)"; its line traces carry markers
# (the shaded bands are drawn as separate, marker-less traces), and the lines of seats not in play are
# left out of the legend. Arrays may be typed arrays in the page.
WIN_TRACES_JS = """() => {
  const plots = [...document.querySelectorAll('.js-plotly-plot')];
  const win = plots.find(p => p.layout && p.layout.title &&
                             String(p.layout.title.text || p.layout.title || '').startsWith('P(win)'));
  if (!win || !win.data) return null;
  return win.data.filter(t => String(t.mode || '').includes('markers') && t.showlegend !== false)
                 .map(t => ({name: String(t.name), x: Array.from(t.x || []), y: Array.from(t.y || [])}));
}"""

# The per-game panel is the Plotly plot whose title starts "Chances at move N".
PANEL_MOVE_JS = """() => {
  for (const p of document.querySelectorAll('.js-plotly-plot')) {
    const title = p.layout && p.layout.title ? String(p.layout.title.text || p.layout.title || '') : '';
    const m = /^Chances at move (\\d+)/.exec(title);
    if (m) return Number(m[1]);
  }
  return null;
}"""

# The move counter is the HTML widget whose text starts "Move N".
COUNTER_JS = """() => {
  for (const el of document.querySelectorAll('.widget-html-content')) {
    const m = /^\\s*Move (\\d+)/.exec(el.textContent || '');
    if (m) return Number(m[1]);
  }
  return null;
}"""


@dataclass(frozen=True)
class StepperReading:
    move: int
    win_traces: list[dict[str, Any]]
    panel_move: int | None


def read_stepper(page: Any) -> StepperReading:
    move = page.evaluate(COUNTER_JS)
    traces = page.evaluate(WIN_TRACES_JS)
    assert move is not None, "no move counter ('Move N') is shown on the page"
    assert traces, "no P(win) Plotly chart with line traces is shown on the page"
    return StepperReading(int(move), list(traces), page.evaluate(PANEL_MOVE_JS))


def wait_for_stepper(page: Any) -> StepperReading:
    """Wait until the stepper's buttons, its move counter and a drawn P(win) chart are on the page."""
    page.get_by_role("button", name="Next move").first.wait_for(state="visible", timeout=STEPPER_TIMEOUT_MS)
    page.wait_for_function(f"() => ({COUNTER_JS})() !== null", timeout=STEPPER_TIMEOUT_MS)
    page.wait_for_function(f"() => {{ const t = ({WIN_TRACES_JS})(); return !!t && t.length > 0 && "
                           "t.every(tr => tr.x.length > 0); }", timeout=STEPPER_TIMEOUT_MS)
    page.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=STEPPER_TIMEOUT_MS)
    return read_stepper(page)


def click_next_move(page: Any, times: int) -> StepperReading:
    """Click **Next move** ``times`` times, each time waiting for the move counter, then wait for the P(win)
    chart and the game's panel to show the last move.

    The figures are waited for at the end only: a figure that missed anywidget's start-up limit is
    replaced by the stepper a few moves later (cardlab/viz/watch.py) and then shows the current move.
    """
    button = page.get_by_role("button", name="Next move")
    assert button.count() == 1, f"expected one 'Next move' button on the page, found {button.count()}"
    start = read_stepper(page).move
    for k in range(1, times + 1):
        button.click()
        page.wait_for_function(f"() => ({COUNTER_JS})() === {start + k}", timeout=CLICK_TIMEOUT_MS)
    end = start + times
    with contextlib.suppress(Exception):  # assert_stepper_moved says what the figures show if they never follow
        ends_at_move = f"tr => tr.x.length > 0 && tr.x[tr.x.length - 1] === {end}"
        page.wait_for_function(f"() => {{ const t = ({WIN_TRACES_JS})(); return !!t && t.every({ends_at_move}); }}",
                               timeout=CLICK_TIMEOUT_MS)
        page.wait_for_function(f"() => ({PANEL_MOVE_JS})() === {end}", timeout=CLICK_TIMEOUT_MS)
    return read_stepper(page)


def assert_stepper_moved(before: StepperReading, after: StepperReading, clicks: int) -> None:
    """The counter went up by one per click, every seat's P(win) line now ends at the new move, and the
    per-game panel's title names the new move.

    (A long history may be thinned to fewer points, so the test asks for new points at the end, not for
    exactly one point per move.)
    """
    assert after.move == before.move + clicks, f"move counter went from {before.move} to {after.move}"
    assert [t["name"] for t in after.win_traces] == [t["name"] for t in before.win_traces]
    for old, new in zip(before.win_traces, after.win_traces, strict=True):
        assert old["x"][-1] == before.move, f"{old['name']}: line ended at move {old['x'][-1]}, not {before.move}"
        assert new["x"][-1] == after.move, f"{new['name']}: last point is move {new['x'][-1]}, not {after.move}"
        assert len(new["x"]) > len(old["x"]) or new["x"] != old["x"], f"{new['name']}: no new point"
        assert all(0.0 <= y <= 1.0 for y in new["y"]), f"{new['name']}: P(win) outside [0, 1]: {new['y']}"
    assert after.win_traces != before.win_traces
    assert before.panel_move == before.move, f"the game's panel shows move {before.panel_move}, not {before.move}"
    assert after.panel_move == after.move, (
        f"after the clicks the game's panel still shows move {after.panel_move}, not {after.move}: "
        "its figure did not redraw in the page")


@dataclass
class Tab:
    """A browser page and the uncaught script errors seen on it."""

    page: Any
    errors: list[str]

    @contextlib.contextmanager
    def screenshot_on_failure(self, path: Path) -> Iterator[None]:
        """Save what the page showed when a step failed, next to the other artifacts."""
        try:
            yield
        except BaseException:
            with contextlib.suppress(Exception):
                self.page.screenshot(path=str(path))
            raise


@pytest.fixture()
def tab(browser: Any) -> Iterator[Tab]:
    context = browser.new_context(viewport={"width": 1440, "height": 1100})
    pg = context.new_page()
    result = Tab(pg, [])
    pg.on("pageerror", lambda exc: result.errors.append(str(exc)))
    yield result
    context.close()
