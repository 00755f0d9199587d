"""The live panels in a real browser: bytes sent to the page, time to a usable stepper, and reliability.

Drives the system Chromium (Playwright) against a JupyterLab and a Voilà server started here, on free
localhost ports, serving a temporary copy of the notebooks. Prints:

1. **Bytes** the page receives over the kernel websocket while running all of ``00_start_here``, in
   total and per stepper (target: at most 1 MB per stepper on average).
2. **Run All to the first usable stepper** in ``00_start_here``: from the Run All command to the first
   stepper whose two plots are drawn and show its counter's move, idle and with ``--burners`` CPU
   burners (targets: 15 s idle, 45 s with 3 burners).
3. **anywidget starts and long tasks** (``--starts``): Run All of ``00_start_here`` with the burners; how
   many anywidget models the page starts (each has 2 s from its creation to load and initialize, or it
   drops every later update), how many missed that limit, and the page's long tasks: the longest, and
   the one that evaluated plotly.js. ``--stream`` runs instead a notebook that makes a stepper every 0.5 s,
   and ``--cpu-slowdown K`` throttles the page's CPU K times (Chromium's own throttling: a slow machine).
4. **Page loads**: ``--loads`` fresh page loads of JupyterLab ``00_start_here`` (Run All) and of the
   Voilà app, with the burners running: on each load every plot of every stepper must draw and follow
   one Next move (target: 10 of 10 each).

Run: ``.venv/bin/python benchmarks/bench_browser.py [--loads 10] [--burners 3] [--skip-loads] [--starts N]``

``--pythonpath DIR`` puts another checkout's ``cardlab`` first on the kernels' path, to measure an
older design side by side with the same servers and browser. The machine's load (``uptime``) is
printed with each figure, since these figures depend on it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.browser.conftest import (  # noqa: E402  (the test suite's helpers, after the path is set)
    BIN,
    CHROMIUM_ARGS,
    COUNT_ANYWIDGET_STARTS,
    STEPPERS_JS,
    copy_notebooks,
    cpu_burners,
    find_chromium,
    free_port,
    lab_settings,
    read_steppers,
    server_env,
    stop,
    wait_for_http,
    wait_until_follows,
)
from tests.browser.test_jupyterlab import NOTEBOOK_READY_JS  # noqa: E402

START = "notebooks/00_start_here.ipynb"
MB = 1_000_000


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


@contextlib.contextmanager
def server(kind: str, pythonpath: str | None, extra: dict[str, str] | None = None) -> Iterator[str]:
    """A JupyterLab (``kind="lab"``) or Voilà (``"voila"``) server on a free port; yields its URL. ``extra``:
    more files for the server's folder (path → text)."""
    tmp = Path(tempfile.mkdtemp(prefix=f"cardlab-bench-{kind}-"))
    home, root = tmp / "home", tmp / "root"
    root.mkdir(parents=True)
    copy_notebooks(root)
    for name, text in (extra or {}).items():
        (root / name).write_text(text)
    port = free_port()
    env = server_env(home)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + os.pathsep + env.get("PYTHONPATH", "")
    if kind == "lab":
        lab_settings(home / "settings")
        cmd = [str(BIN / "jupyter"), "lab", "--no-browser", f"--port={port}", "--port-retries=0",
               "--ServerApp.ip=127.0.0.1", "--ServerApp.token=", "--ServerApp.password=", "--allow-root",
               "--LabApp.expose_app_in_browser=True", f"--ServerApp.root_dir={root}",
               f"--LabApp.user_settings_dir={home / 'settings'}", f"--LabApp.workspaces_dir={home / 'workspaces'}"]
        probe = "/api/status"
    else:
        cmd = [str(BIN / "voila"), "--no-browser", f"--Voila.port={port}", "--Voila.ip=127.0.0.1",
               "--VoilaExecutor.timeout=240", str(root / "notebooks")]
        probe = "/voila/static/"
    log = tmp / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_for_http(url + probe, proc, log, any_status=kind == "voila")
        yield url
    finally:
        stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)


class Bytes:
    """Counts what the page receives over kernel websockets."""

    def __init__(self, page: Any) -> None:
        self.total = 0
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        if "/api/kernels/" in ws.url:
            ws.on("framereceived", self._frame)

    def _frame(self, payload: Any) -> None:
        self.total += len(payload.encode() if isinstance(payload, str) else payload)


def open_and_run_all(page: Any, url: str, path: str = START) -> float:
    """Open ``path`` (00_start_here) in JupyterLab, clear it, Run All; returns the moment Run All was issued."""
    page.goto(f"{url}/lab/tree/{path}", timeout=180_000)
    page.wait_for_function(NOTEBOOK_READY_JS, timeout=240_000)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    started = time.monotonic()
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    return started


ALL_RAN_JS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  const code = w.content.widgets.filter(c => c.model.type === 'code');
  return !!kernel && kernel.status === 'idle' &&
         code.every(c => typeof c.model.executionCount === 'number' && c.model.executionCount > 0);
}"""


def first_usable(page: Any, started: float) -> float:
    """Seconds from Run All until the first stepper's plots are drawn and its Next move button shows."""
    page.wait_for_function(f"() => ({STEPPERS_JS})().length > 0", timeout=300_000, polling=100)
    wait_until_follows(page, 0, None, 300_000)
    page.locator(".cardlab-stepper").first.get_by_role("button", name="Next move").wait_for(state="visible")
    return time.monotonic() - started


def every_stepper_follows(page: Any) -> tuple[bool, str]:
    """Every stepper on the page draws both plots and follows one Next move (or a human move)."""
    from tests.browser.conftest import play_one_move
    steppers = read_steppers(page)
    if not steppers:
        return False, "no stepper"
    for index in range(len(steppers)):
        try:
            page.locator(".cardlab-stepper").nth(index).scroll_into_view_if_needed()
            wait_until_follows(page, index, None, 240_000)
            before = read_steppers(page)[index]
            if before.over:
                continue   # a finished game: drawn is all it can show here
            play_one_move(page, index)
            wait_until_follows(page, index, (before.move or 0) + 1, 60_000)
        except Exception as exc:
            return False, f"stepper {index}: {type(exc).__name__}: {str(exc)[:200]} {read_steppers(page)[index]}"
    return True, f"{len(steppers)} steppers"


def steppers_made(path: str) -> int:
    """How many steppers a notebook makes (every one's widgets reach the page, displayed or not)."""
    cells = json.loads((REPO / path).read_text())["cells"]
    return sum("".join(c["source"]).count("Stepper(") for c in cells if c["cell_type"] == "code")


FIRST_PLOT_JS = """() => !!document.querySelector('.js-plotly-plot .main-svg') &&
  [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Next move')"""


def measure_bytes_and_start(browser: Any, url: str, other_design: bool = False) -> dict[str, Any]:
    """Bytes over the kernel websocket for Run All of 00_start_here, and the time to the first usable stepper.

    ``other_design``: the kernels run another checkout's cardlab, whose page has none of this design's
    marks; the time is then to the first drawn Plotly plot with a Next move button, and nothing is clicked.
    """
    context = browser.new_context(viewport={"width": 1440, "height": 1100})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    counter = Bytes(page)
    started = open_and_run_all(page, url)
    if other_design:
        page.wait_for_function(FIRST_PLOT_JS, timeout=600_000, polling=100)
        usable = time.monotonic() - started
        page.wait_for_function(ALL_RAN_JS, timeout=600_000, polling=500)
        ok, detail, shown = False, "not checked (another design)", 0
    else:
        usable = first_usable(page, started)
        page.wait_for_function(ALL_RAN_JS, timeout=600_000, polling=500)
        ok, detail = every_stepper_follows(page)
        shown = len(read_steppers(page))
    steppers = steppers_made(START)
    total = counter.total
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
    context.close()
    return {"bytes": total, "steppers": steppers, "shown": shown, "per_stepper": total / max(steppers, 1),
            "first_usable_s": usable,
            "all_follow": ok, "detail": detail, "page_errors": errors}


# Records the page's long tasks, and the moment plotly.js finished evaluating (its bundle ends with
# `window.Plotly = Plotly`); the anywidget starts are counted by the tests' COUNT_ANYWIDGET_STARTS.
LONG_TASKS_JS = """(() => {
  window.__benchTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__benchTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  let plotly;
  Object.defineProperty(window, "Plotly", { configurable: true, get: () => plotly,
    set: (lib) => { plotly = lib; window.__benchPlotlyAt = performance.now(); } });
})();"""


STREAM = "notebooks/bench_stream.ipynb"


def stream_notebook(steppers: int = 12, pause: float = 0.5) -> str:
    """A notebook that makes a stepper every ``pause`` seconds: some are made while the page evaluates
    plotly.js, as when a class runs a notebook whose cells take a moment each."""
    def cell(source: str) -> dict[str, Any]:
        return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}
    cells = [cell("import time\nimport cardlab")]
    cells += [cell(f"time.sleep({pause})\ncardlab.Stepper('garbage', players=2, seed={i})") for i in range(steppers)]
    return json.dumps({"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                   "language": "python"}},
                       "nbformat": 4, "nbformat_minor": 5})


def starts_and_long_tasks(browser: Any, url: str, slowdown: float = 1.0, path: str = START) -> dict[str, Any]:
    """anywidget starts, missed starts and long tasks in one Run All of ``path`` (module docstring, 3);
    ``slowdown`` > 1 slows the page's CPU that many times (Chromium's own throttling), as on a slow machine."""
    context = browser.new_context(viewport={"width": 1440, "height": 1100})
    page = context.new_page()
    if slowdown > 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    page.add_init_script(COUNT_ANYWIDGET_STARTS)
    page.add_init_script(LONG_TASKS_JS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_and_run_all(page, url, path)
    page.wait_for_function(ALL_RAN_JS, timeout=600_000, polling=500)
    page.wait_for_function("() => window.__benchPlotlyAt !== undefined", timeout=300_000)
    page.wait_for_timeout(2500)   # a start made just now has had its two seconds
    starts = page.evaluate("() => window.__cardlabStarts")
    tasks = page.evaluate("() => window.__benchTasks")
    plotly_at = page.evaluate("() => window.__benchPlotlyAt")
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
    context.close()
    evaluation = [d for t, d in tasks if t <= plotly_at <= t + d + 50]
    return {"starts": starts, "missed": sum("Failed to initialize model" in e for e in errors),
            "longest_ms": max((d for _, d in tasks), default=0.0), "plotly_task_ms": max(evaluation, default=None),
            "over_1s": sum(d >= 1000 for _, d in tasks), "other_errors": [e for e in errors
                                                                            if "Failed to initialize model" not in e]}


def page_loads(browser: Any, url: str, kind: str, loads: int) -> list[tuple[bool, str, float]]:
    results = []
    for _ in range(loads):
        context = browser.new_context(viewport={"width": 1440, "height": 1100})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errs=errors: errs.append(str(e)))
        t0 = time.monotonic()
        try:
            if kind == "lab":
                open_and_run_all(page, url)
                page.wait_for_function(ALL_RAN_JS, timeout=600_000, polling=500)
            else:
                page.goto(f"{url}/voila/render/app.ipynb", timeout=300_000)
                page.locator(".cardlab-stepper").first.wait_for(state="attached", timeout=300_000)
            ok, detail = every_stepper_follows(page)
        except Exception as exc:
            ok, detail = False, f"{type(exc).__name__}: {str(exc)[:200]}"
        if errors:
            ok, detail = False, f"{detail}; page errors: {errors[:3]}"
        if kind == "lab":
            with contextlib.suppress(Exception):
                page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        context.close()
        results.append((ok, detail, time.monotonic() - t0))
        print(f"  {kind} load {len(results)}: {'ok' if ok else 'FAILED'} ({detail}) in {results[-1][2]:.0f} s; "
              f"{load()}", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--burners", type=int, default=3)
    parser.add_argument("--burn-seconds", type=float, default=1800.0)
    parser.add_argument("--skip-loads", action="store_true", help="only the bytes and start-up figures")
    parser.add_argument("--pythonpath", default=None, help="a checkout whose cardlab the kernels import first")
    parser.add_argument("--cpu-slowdown", type=float, default=1.0, metavar="K",
                        help="with --starts: the page's CPU throttled K times (a slow machine)")
    parser.add_argument("--stream", action="store_true",
                        help="with --starts: run a notebook that makes a stepper every 0.5 s instead of 00_start_here")
    parser.add_argument("--starts", type=int, default=0, metavar="N",
                        help="only N Run Alls, counting anywidget starts, missed starts and long tasks (burners on)")
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("Chromium was not found: apt-get install -y chromium chromium-driver")
    from playwright.sync_api import sync_playwright

    print(f"bench_browser {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {load()}")
    if args.pythonpath:
        print(f"kernels import cardlab from {args.pythonpath}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        if args.starts:
            with server("lab", args.pythonpath, {STREAM: stream_notebook()}) as lab, \
                    cpu_burners(args.burners, args.burn_seconds):
                for run in range(args.starts):
                    r = starts_and_long_tasks(browser, lab, args.cpu_slowdown, STREAM if args.stream else START)
                    plotly_ms = "not found" if r["plotly_task_ms"] is None else f"{r['plotly_task_ms']:.0f} ms"
                    slow = f", page CPU {args.cpu_slowdown:g}x slower" if args.cpu_slowdown > 1 else ""
                    name = "a stepper every 0.5 s (12)" if args.stream else "00_start_here"
                    print(f"{name}: Run All {run + 1}, {args.burners} CPU burners{slow}: {r['starts']} anywidget "
                          f"starts, {r['missed']} missed the 2 s limit; longest task {r['longest_ms']:.0f} ms, "
                          f"plotly.js evaluation {plotly_ms}, tasks of 1 s or more {r['over_1s']}; other page "
                          f"errors {r['other_errors']}; {load()}", flush=True)
            browser.close()
            return
        with server("lab", args.pythonpath) as lab:
            other = bool(args.pythonpath)
            idle = measure_bytes_and_start(browser, lab, other)
            print(f"00_start_here, idle: {idle['bytes'] / MB:.2f} MB received over the kernel websocket for "
                  f"{idle['steppers']} steppers made ({idle['shown']} displayed) = {idle['per_stepper'] / MB:.2f} MB "
                  "per stepper (target <= 1 MB); "
                  f"Run All to first usable stepper {idle['first_usable_s']:.1f} s (target <= 15 s); "
                  f"every stepper follows: {idle['all_follow']} ({idle['detail']}); page errors {idle['page_errors']}")
            print(f"  {load()}")
            with cpu_burners(args.burners, args.burn_seconds):
                busy = measure_bytes_and_start(browser, lab, other)
                print(f"00_start_here, {args.burners} CPU burners: Run All to first usable stepper "
                      f"{busy['first_usable_s']:.1f} s (target <= 45 s); {busy['bytes'] / MB:.2f} MB; every "
                      f"stepper follows: {busy['all_follow']} ({busy['detail']}); page errors {busy['page_errors']}")
                print(f"  {load()}")
                if not args.skip_loads and not other:
                    lab_loads = page_loads(browser, lab, "lab", args.loads)
        if not args.skip_loads and not other:
            with server("voila", args.pythonpath) as voila, cpu_burners(args.burners, args.burn_seconds):
                voila_loads = page_loads(browser, voila, "voila", args.loads)
            for kind, res in (("JupyterLab 00_start_here", lab_loads), ("Voilà app.ipynb", voila_loads)):
                good = sum(ok for ok, _, _ in res)
                times = sorted(t for _, _, t in res)
                print(f"{kind}, {args.burners} CPU burners: every plot of every stepper drew and followed on "
                      f"{good} of {len(res)} page loads (target 10 of 10); load to done median "
                      f"{times[len(times) // 2]:.0f} s, worst {times[-1]:.0f} s")
        browser.close()
    print(json.dumps({"idle": {k: v for k, v in idle.items() if k != "page_errors"}}, default=str))


if __name__ == "__main__":
    main()
