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
ARTIFACTS = Path(os.environ.get("CARDLAB_ARTIFACTS") or REPO / "test-artifacts")   # git-ignored
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
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


BURNERS = int(os.environ.get("CARDLAB_BURNERS", "2"))
BURN_SECONDS = float(os.environ.get("CARDLAB_BURN_SECONDS", "600"))
BURN_CODE = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"


@contextlib.contextmanager
def cpu_burners(count: int, seconds: float) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` busy loops beside the browser, each stopping by itself after ``seconds`` (and stopped
    when the block ends), so the pages are tested on a busy machine, as a classroom laptop is."""
    procs = [subprocess.Popen([sys.executable, "-c", BURN_CODE.format(seconds=seconds)]) for _ in range(count)]
    try:
        yield procs
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)


@pytest.fixture(scope="session", autouse=True)
def burners() -> Iterator[int]:
    """CPU burners for the whole browser session, every test included (``CARDLAB_BURNERS``, default 2; each
    bounded in time)."""
    with cpu_burners(BURNERS, BURN_SECONDS):
        yield BURNERS


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
           "--VoilaExecutor.timeout=240", str(root / "notebooks")]
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
# The move counter ("Move N") of the first stepper on the page, or null (for pages with one stepper).
COUNTER_JS = """() => {
  for (const el of document.querySelectorAll('.widget-html-content')) {
    const m = /^\\s*Move (\\d+)/.exec(el.textContent || '');
    if (m) return Number(m[1]);
  }
  return null;
}"""
CLICK_TIMEOUT_MS = 60_000

# Every stepper's root carries the class cardlab-stepper; its plots are .cardlab-plot boxes, each made a
# Plotly plot (.js-plotly-plot) by plotly.js. This reads every stepper on the page: its move counter, the
# move its game's panel names, the last move of each seat's P(win) line, whether each plot is drawn, and
# the message area. Arrays may be typed arrays in the page.
STEPPERS_JS = r"""() => [...document.querySelectorAll('.cardlab-stepper')].map((root) => {
  const text = (el) => (el ? el.textContent || '' : '');
  let move = null;
  for (const el of root.querySelectorAll('.widget-html-content')) {
    const m = /^\s*Move (\d+)/.exec(text(el));
    if (m) { move = Number(m[1]); break; }
  }
  const plots = [...root.querySelectorAll('.cardlab-plot')];
  const title = (p) => (p.layout && p.layout.title ? String(p.layout.title.text || p.layout.title || '') : '');
  const win = plots.find((p) => title(p).startsWith('P(win)'));
  const panel = plots.find((p) => title(p).startsWith('Chances at move'));
  const lines = win && win.data ? win.data
    .filter((t) => String(t.mode || '').includes('markers') && t.showlegend !== false)
    .map((t) => ({ name: String(t.name), x: Array.from(t.x || []), y: Array.from(t.y || []) })) : [];
  const m = panel ? /^Chances at move (\d+)/.exec(title(panel)) : null;
  const drawn = plots.filter((p) => p.classList.contains('js-plotly-plot') && p.querySelector('.main-svg')).length;
  const message = text(root.querySelector('.cl-message'));
  let over = false;
  for (const el of root.querySelectorAll('.widget-html-content')) {
    if (/^\s*Move \d+/.test(text(el))) { over = text(el).includes('game over'); break; }
  }
  const buttons = [...root.querySelectorAll('button')].filter((b) => b.offsetParent !== null)
    .map((b) => b.textContent.trim());
  const status = root.querySelector('.cl-status');
  const seats = status ? String(status.dataset.seats || '').split(',') : [];
  const mover = status && status.dataset.mover !== '' ? Number(status.dataset.mover) : null;
  const game = status ? String(status.dataset.game || '') : '';
  const tiles = [...root.querySelectorAll('.cardlab-move-box > *')].filter((t) => t.offsetParent !== null);
  const pictures = tiles.filter((t) => t.querySelector('svg')).length;
  return { move, over, lines, panel_move: m ? Number(m[1]) : null, plots: plots.length, drawn, message, buttons,
           seats, mover, game, tiles: tiles.length, pictures };
})"""


def count_anywidget_starts(miss: int = 0) -> str:
    """A page script that counts the anywidget models the page starts (``window.__cardlabStarts``).

    anywidget arms one ``AbortSignal.timeout(2000)`` per model: the limit within which the model must load and
    initialize, or drop every later update. cardlab makes one per kernel (the plot hub, cardlab.viz.plot), which
    starts before plotly.js is evaluated and needs no update afterwards. ``miss`` > 0 makes that start (1 = the
    first) miss its limit on purpose, as on a very busy machine (counted in ``window.__cardlabMissedStarts``)."""
    return """(() => {
  const timeout = AbortSignal.timeout.bind(AbortSignal);
  window.__cardlabStarts = 0;
  window.__cardlabMissedStarts = 0;
  AbortSignal.timeout = (ms) => {
    if (ms !== 2000) return timeout(ms);
    if (++window.__cardlabStarts === MISS) { window.__cardlabMissedStarts += 1; return timeout(1); }
    return timeout(ms);
  };
})();""".replace("MISS", str(int(miss)))


COUNT_ANYWIDGET_STARTS = count_anywidget_starts()


@dataclass(frozen=True)
class StepperReading:
    move: int | None
    over: bool
    lines: list[dict[str, Any]]
    panel_move: int | None
    plots: int
    drawn: int
    message: str
    buttons: list[str]
    seats: list[str]
    """Who plays each seat, as the move counter says (one value with ``move`` and ``mover``)."""
    mover: int | None
    """The seat to move, as the move counter says (None once the game is over)."""
    game: str
    """The game the move counter is about (its registered name)."""
    tiles: int
    """Visible tiles in the move box (a human seat's moves, or the one button that shows its view)."""
    pictures: int
    """How many of those tiles show a card picture."""

    @property
    def follows(self) -> bool:
        """Both plots drawn, and both show the move the counter shows."""
        return (self.move is not None and self.plots == 2 and self.drawn == 2 and self.panel_move == self.move
                and bool(self.lines) and all(t["x"] and t["x"][-1] == self.move for t in self.lines))


def read_steppers(page: Any) -> list[StepperReading]:
    return [StepperReading(**r) for r in page.evaluate(STEPPERS_JS)]


def wait_until_follows(page: Any, index: int, move: int | None = None, timeout_ms: int = STEPPER_TIMEOUT_MS) -> None:
    """Wait until stepper ``index`` has both plots drawn and showing its counter's move (``move`` if given)."""
    want = "true" if move is None else f"s.move === {move}"
    page.wait_for_function(
        f"""() => {{ const s = ({STEPPERS_JS})()[{index}]; if (!s) return false;
        return {want} && s.plots === 2 && s.drawn === 2 && s.panel_move === s.move && s.lines.length > 0 &&
               s.lines.every((t) => t.x.length > 0 && t.x[t.x.length - 1] === s.move); }}""",
        timeout=timeout_ms, polling=250)


def wait_for_stepper(page: Any, index: int, condition: str, timeout_ms: int = CLICK_TIMEOUT_MS) -> StepperReading:
    """Wait until ``condition`` (a JavaScript expression of ``s``, stepper ``index`` as :data:`STEPPERS_JS`
    reads it) holds, then return that reading. A test acts on what it waited for, never on one look."""
    page.wait_for_function(f"() => {{ const s = ({STEPPERS_JS})()[{index}]; return !!s && ({condition}); }}",
                           timeout=timeout_ms, polling=200)
    return read_steppers(page)[index]


# The texts of the one button a human seat's moves hide behind (cardlab.viz.controls.handover_label).
HANDOVER_WORDS = ("I am seat", "Show seat")


def play_one_move(page: Any, index: int) -> None:
    """One move in stepper ``index``: **Next move** when a bot is to move, else the first human move button.

    The stepper shows a human seat's legal moves as buttons under the table (inside its move box,
    class cardlab-move-box); a bot's move is played by **Next move**. Who is to move, and whether a human
    plays that seat, is read from the move counter (one value), never from which buttons happen to be drawn.
    """
    root = page.locator(".cardlab-stepper").nth(index)
    now = read_steppers(page)[index]
    before = now.move
    assert now.mover is not None and now.mover < len(now.seats), f"stepper {index}: nobody to move: {now}"
    if now.seats[now.mover] == "human":
        # a human seat's moves show only on that seat's screen: take the device (hot seat) or show its view first
        tile = root.locator(".cardlab-move-box button").first
        tile.wait_for(state="visible", timeout=CLICK_TIMEOUT_MS)
        if tile.inner_text().startswith(HANDOVER_WORDS):
            tile.click()
            page.wait_for_function(
                f"""() => {{ const root = document.querySelectorAll('.cardlab-stepper')[{index}];
                const b = root && root.querySelector('.cardlab-move-box button');
                return !!b && b.offsetParent !== null &&
                       !{list(HANDOVER_WORDS)!r}.some((w) => b.textContent.trim().startsWith(w)); }}""",
                timeout=CLICK_TIMEOUT_MS, polling=200)
        tile.click()
    else:
        root.get_by_role("button", name="Next move").click()
    wait_for_stepper(page, index, f"s.move === {before} + 1")


def check_stepper_follows(page: Any, index: int, moves: int, label: str) -> StepperReading:
    """Stepper ``index`` draws both plots, then follows ``moves`` moves: after the last one both plots show it.

    A stepper whose game is over is first reset to the deal (and must follow that too); a game that ends
    sooner stops the moves there (at least one is played).
    """
    try:
        wait_until_follows(page, index)
    except Exception as exc:
        raise AssertionError(f"{label}: the plots never drew and showed the counter's move: "
                             f"{read_steppers(page)[index]}") from exc
    start = read_steppers(page)[index]
    assert start.message.find("could not be drawn") < 0, f"{label}: {start.message}"
    if start.over:
        page.locator(".cardlab-stepper").nth(index).get_by_role("button", name="Reset", exact=True).click()
        wait_until_follows(page, index, 0, CLICK_TIMEOUT_MS)
        start = read_steppers(page)[index]
    played = 0
    for _ in range(moves):
        if read_steppers(page)[index].over:
            break
        play_one_move(page, index)
        played += 1
    assert played >= 1, f"{label}: no move could be played"
    end_move = (start.move or 0) + played
    try:
        wait_until_follows(page, index, end_move, CLICK_TIMEOUT_MS)
    except Exception as exc:
        raise AssertionError(f"{label}: after {played} moves the plots do not show move {end_move}: "
                             f"{read_steppers(page)[index]}") from exc
    after = read_steppers(page)[index]
    for old, new in zip(start.lines, after.lines, strict=True):
        assert all(0.0 <= y <= 1.0 for y in new["y"]), f"{label} {new['name']}: P(win) outside [0, 1]"
        assert new["x"] != old["x"], f"{label} {new['name']}: no new point"
    return after


# Positions of the parts of every stepper on the page, for the layout checks.
LAYOUT_JS = r"""() => [...document.querySelectorAll('.cardlab-stepper')].map((root) => {
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
                        return { x: r.left, y: r.top, w: r.width, h: r.height }; };
  const table = root.querySelector('.cl-table');
  const plots = [...root.querySelectorAll('.cardlab-plot')];
  const titles = plots.map((p) => ({ plot: box(p), title: box(p.querySelector('.gtitle')),
                                     text: p.querySelector('.gtitle') ? p.querySelector('.gtitle').textContent : '' }));
  const tiles = [...root.querySelectorAll('.cardlab-move-box > *')].filter((t) => t.offsetParent !== null).map((t) => ({
    picture: box(t.querySelector('svg')), tile: box(t),
    button: box(t.querySelector('.widget-hbox') || t.querySelector('button')) }));   // a tile's row of buttons
  return { root: box(root), table: box(table), plots: plots.map(box), titles, tiles };
})"""


# The arrangement a window of a new width settles into: the first plot right of the table and starting above its
# bottom (beside), or under the table (below).
ARRANGED_JS = """([index, beside]) => {
  const layout = (LAYOUT_JS)()[index];
  if (!layout || !layout.table || layout.plots.length !== 2 || !layout.plots.every((p) => p)) return false;
  const t = layout.table, p = layout.plots[0];
  return beside ? p.x >= t.x + t.w - 1 && p.y < t.y + t.h : p.y >= t.y + t.h - 1;
}""".replace("LAYOUT_JS", LAYOUT_JS)


def resize_and_check_layout(page: Any, index: int, width: int, beside: bool, label: str) -> dict[str, Any]:
    """Resize the window to ``width`` (tall enough for the whole stepper), wait until the page has laid the
    stepper out again as expected (JupyterLab resizes its panels in a later frame), then :func:`check_layout`."""
    page.set_viewport_size({"width": width, "height": 2200})
    try:
        page.wait_for_function(ARRANGED_JS, arg=[index, beside], timeout=CLICK_TIMEOUT_MS, polling="raf")
    except Exception as exc:
        raise AssertionError(f"{label}: the plots never sat {'beside' if beside else 'below'} the table: "
                             f"{page.evaluate(LAYOUT_JS)[index]}") from exc
    return check_layout(page, index, beside, label)


def check_layout(page: Any, index: int, beside: bool, label: str) -> dict[str, Any]:
    """The plots sit beside the table (``beside``) or below it; no plot title is cut off; every card picture
    of a human move sits centred in its tile, above its buttons."""
    layout = page.evaluate(LAYOUT_JS)[index]
    table, plots = layout["table"], layout["plots"]
    assert table is not None and len(plots) == 2 and all(plots), f"{label}: table or plots missing: {layout}"
    first = plots[0]
    if beside:
        assert first["x"] >= table["x"] + table["w"] - 1, f"{label}: the plots are not right of the table: {layout}"
        assert first["y"] < table["y"] + table["h"], f"{label}: the plots start below the table: {layout}"
    else:
        assert first["y"] >= table["y"] + table["h"] - 1, f"{label}: the plots are not below the table: {layout}"
    for t in layout["titles"]:
        assert t["title"] is not None, f"{label}: a plot has no title"
        inside = (t["title"]["x"] >= t["plot"]["x"] - 1
                  and t["title"]["x"] + t["title"]["w"] <= t["plot"]["x"] + t["plot"]["w"] + 1)
        assert inside, f"{label}: title {t['text']!r} is cut off: {t}"
    for tile in layout["tiles"]:
        pic, button = tile["picture"], tile["button"]
        if pic is None:
            continue
        # centred in its tile (a tile holds one card's picture above a row of its moves' buttons)
        centre_gap = abs((pic["x"] + pic["w"] / 2) - (tile["tile"]["x"] + tile["tile"]["w"] / 2))
        assert centre_gap <= 3, f"{label}: a card picture is {centre_gap:.0f} px off its tile's centre: {tile}"
        assert pic["y"] + pic["h"] <= button["y"] + 2, f"{label}: a card picture overlaps its button: {tile}"
    return dict(layout)


PROJECTOR = (1024, 768)
"""A classroom projector's screen, in CSS pixels."""


def check_projector(page: Any, index: int, label: str) -> dict[str, Any]:
    """At a projector's 1024×768 (JupyterLab's file browser closed by the caller), once stepper ``index``'s table is
    scrolled to the top of the window, the table and both plots are inside the window together: the class sees the
    cards and the chances without scrolling after each move. Waits until the stepper keeps one width for two frames
    (JupyterLab resizes its panels in a later frame)."""
    width, height = PROJECTOR
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function("(w) => window.innerWidth === w", arg=width, timeout=STEPPER_TIMEOUT_MS)
    page.wait_for_function("""(i) => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => {
        const r = document.querySelectorAll('.cardlab-stepper')[i].getBoundingClientRect();
        const before = window.__clProjectorWidth; window.__clProjectorWidth = r.width; ok(before === r.width); })))""",
                           arg=index, timeout=STEPPER_TIMEOUT_MS, polling=100)
    page.evaluate("(i) => document.querySelectorAll('.cardlab-stepper')[i].querySelector('.cl-table')"
                  ".scrollIntoView({block: 'start'})", index)
    layout = page.evaluate(LAYOUT_JS)[index]
    table, plots = layout["table"], layout["plots"]
    assert table is not None and len(plots) == 2 and all(plots), f"{label}: table or plots missing: {layout}"
    inside = [p["x"] >= -1 and p["x"] + p["w"] <= width + 1 and p["y"] >= -1 and p["y"] + p["h"] <= height + 1
              for p in (table, *plots)]
    assert all(inside), f"{label}: at {width}x{height} the table and plots are not all in view: {layout}"
    return dict(layout)


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
                self.page.screenshot(path=str(path), full_page=True)
            raise


@pytest.fixture()
def tab(browser: Any) -> Iterator[Tab]:
    context = browser.new_context(viewport={"width": 1440, "height": 1100})
    pg = context.new_page()
    result = Tab(pg, [])
    pg.on("pageerror", lambda exc: result.errors.append(str(exc)))
    yield result
    context.close()
