"""The stepper at three screens in a real JupyterLab page, with screenshots (issue 34):

* a projector, 1024×768, file browser closed: the table and both plots inside the viewport together;
* a laptop, 1280×800, file browser open: no button, menu or label cut;
* a phone width, 390×844: nothing cut off without a way to scroll to it (the stepper reflows, and scrolls sideways
  where it cannot);
* and axe-core (through ``axe-playwright-python``) finds no serious or critical violation in the stepper.

Screenshots go to the artifacts folder (``layout-1024x768.png`` ...). A notebook of one stepper cell is used, so the
three sizes are checked on the same stepper.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.browser.conftest import STEPPER_TIMEOUT_MS, Server, Tab, wait_until_follows

NOTEBOOK = "layouts.ipynb"
STEPPER = 'cardlab.Stepper("garbage", players=2, seed=3, rollouts=8, panel_rollouts=4)'

NOTEBOOK_READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!w || !w.sessionContext || !w.context || !w.context.isReady) return false;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  return !!kernel && kernel.status === 'idle';
}"""

# Every control and part of the first stepper: its box, and whether its words are cut (text wider than its box).
PARTS_JS = r"""() => {
  const root = document.querySelector('.cardlab-stepper');
  const box = (el) => { const r = el.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height,
                                                                       right: r.right, bottom: r.bottom }; };
  const shown = (el) => el.offsetParent !== null && el.getBoundingClientRect().width > 0;
  const controls = [...root.querySelectorAll('button, select, .widget-label, input')].filter(shown).map((el) => ({
    what: (el.textContent || el.value || el.getAttribute('title') || el.tagName).trim().slice(0, 40),
    cut: el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible'
         || el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow === 'ellipsis',
    ...box(el) }));
  const plots = [...root.querySelectorAll('.cardlab-plot')].map(box);
  const table = box(root.querySelector('.cl-table'));
  const scroller = (el) => { for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p).overflowX; if (s === 'auto' || s === 'scroll') return p; } return null; };
  // what lies right of the viewport, and whether a sideways scroll reaches it
  const parts = [...root.querySelectorAll('button, select, .cardlab-plot, .cl-table')].filter(shown);
  const unreachable = parts.filter((el) => {
    const r = el.getBoundingClientRect();
    if (r.right <= window.innerWidth + 1 && r.left >= -1) return false;
    const s = scroller(el);
    return !s || s.scrollWidth <= s.clientWidth;
  }).map((el) => (el.textContent || el.className).trim().slice(0, 40));
  return { root: box(root), table, plots, controls, unreachable, vh: window.innerHeight, vw: window.innerWidth };
}"""


def write_notebook(root: Path) -> None:
    nb = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    nb.cells = [nbformat.v4.new_code_cell(f"import cardlab\nstepper = {STEPPER}\nstepper")]  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    (root / NOTEBOOK).write_text(json.dumps(nb))


def left_area(page: Any, open_it: bool) -> None:
    """Open or close JupyterLab's left area (the file browser), and wait until it is so."""
    page.evaluate("(open) => { const s = window.jupyterapp.shell; if (open) { s.expandLeft(); } "
                  "else { s.collapseLeft(); } }", open_it)
    page.wait_for_function("(open) => window.jupyterapp.shell.leftCollapsed === !open", arg=open_it,
                           timeout=STEPPER_TIMEOUT_MS)


def settle(page: Any, width: int, height: int) -> dict[str, Any]:
    """Resize, wait until the stepper's box has its new width for two frames, then read its parts."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function("(w) => window.innerWidth === w", arg=width, timeout=STEPPER_TIMEOUT_MS)
    page.wait_for_function("""() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => {
        const r = document.querySelector('.cardlab-stepper').getBoundingClientRect();
        const before = window.__clLastWidth; window.__clLastWidth = r.width; ok(before === r.width); })))""",
                           timeout=STEPPER_TIMEOUT_MS, polling=100)
    return dict(page.evaluate(PARTS_JS))


def cut(parts: dict[str, Any]) -> list[str]:
    return [c["what"] for c in parts["controls"] if c["cut"]]


@pytest.mark.timeout(900)
def test_the_stepper_fits_a_projector_a_laptop_and_a_phone(lab_server: Server, tab: Tab, artifacts: Path) -> None:
    write_notebook(lab_server.root)
    page = tab.page
    with tab.screenshot_on_failure(artifacts / "layout-failure.png"):
        page.goto(f"{lab_server.url}/lab/workspaces/layouts/tree/{NOTEBOOK}", timeout=120_000)
        page.wait_for_function(NOTEBOOK_READY_JS, timeout=STEPPER_TIMEOUT_MS)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        wait_until_follows(page, 0)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:enter-command-mode')")

        # a projector: file browser closed, the table and both plots in view together once the table is at the top
        left_area(page, False)
        settle(page, 1024, 768)
        page.evaluate("() => document.querySelector('.cardlab-stepper .cl-table').scrollIntoView({block: 'start'})")
        projector = settle(page, 1024, 768)
        page.screenshot(path=str(artifacts / "layout-1024x768.png"))
        table, plots = projector["table"], projector["plots"]
        assert all(p["right"] <= projector["vw"] and p["bottom"] <= projector["vh"] for p in plots), projector
        assert table["right"] <= projector["vw"] and table["y"] >= 0 and min(table["bottom"], 768) > table["y"]
        assert cut(projector) == [], f"1024x768: cut labels {cut(projector)}"

        # a laptop with the file browser open: no label cut
        left_area(page, True)
        laptop = settle(page, 1280, 800)
        page.screenshot(path=str(artifacts / "layout-1280x800.png"))
        assert cut(laptop) == [], f"1280x800: cut labels {cut(laptop)}"

        # a phone width: nothing cut off without a way to scroll to it
        left_area(page, False)
        phone = settle(page, 390, 844)
        page.screenshot(path=str(artifacts / "layout-390x844.png"), full_page=True)
        assert phone["unreachable"] == [], f"390x844: out of reach {phone['unreachable']}"
        assert cut(phone) == [], f"390x844: cut labels {cut(phone)}"
    assert tab.errors == []


@pytest.mark.timeout(900)
def test_axe_core_finds_no_serious_violation_in_the_stepper(lab_server: Server, tab: Tab, artifacts: Path) -> None:
    from axe_playwright_python.sync_playwright import Axe  # pinned in the test extra: a missing one fails
    write_notebook(lab_server.root)
    page = tab.page
    with tab.screenshot_on_failure(artifacts / "axe-failure.png"):
        page.goto(f"{lab_server.url}/lab/workspaces/axe/tree/{NOTEBOOK}", timeout=120_000)
        page.wait_for_function(NOTEBOOK_READY_JS, timeout=STEPPER_TIMEOUT_MS)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        wait_until_follows(page, 0)
        results = Axe().run(page, context={"include": [[".cardlab-stepper"]]})
        serious = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
        (artifacts / "axe-stepper.json").write_text(json.dumps(results.response["violations"], indent=1))
        assert serious == [], "\n".join(f"{v['id']} ({v['impact']}): {v['help']} x{len(v['nodes'])}" for v in serious)
