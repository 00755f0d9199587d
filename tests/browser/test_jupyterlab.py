"""Every stepper of every notebook, in JupyterLab in a real Chromium, CPU burners running beside it.

One JupyterLab server serves a copy of the notebooks for the whole session. For each notebook, on its
first page load (no retries): the cells are run in order up to the last one that makes a stepper
(the rest of a notebook, simulations and exercises, adds nothing to the widgets); no cell may fail;
then every stepper on the page must draw both plots and follow three moves (Next move, or a human
seat's first move button). For one notebook per game the layout is measured too, in a wide and a
narrow window, with screenshots saved to the artifacts folder (``$CARDLAB_ARTIFACTS``, default
``test-artifacts/``, git-ignored).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.conftest import (
    COUNT_ANYWIDGET_STARTS,
    REPO,
    STEPPER_TIMEOUT_MS,
    Server,
    Tab,
    check_projector,
    check_stepper_follows,
    resize_and_check_layout,
)

CLICKS = 3
LESSONS = sorted(p.stem for p in (REPO / "notebooks").glob("[0-9]*.ipynb"))
LAYOUT_NOTEBOOKS = ("02_garbage_play", "04_spite_and_malice_play", "06_shithead_play")
"""The lessons whose stepper is measured in a wide and a narrow window (a lesson that plays a game)."""
WIDE, NARROW = 1440, 900

NOTEBOOK_READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!w || !w.sessionContext || !w.content || !w.content.widgets) return false;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  return !!kernel && kernel.status === 'idle' && w.context.isReady;
}"""

# After "clear outputs" every code cell has no execution count; running a cell gives it one.
CELLS_RAN_JS = """(upto) => {
  const w = window.jupyterapp.shell.currentWidget;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  const code = w.content.widgets.slice(0, upto + 1).filter(c => c.model.type === 'code');
  return !!kernel && kernel.status === 'idle' && code.length > 0 &&
         code.every(c => typeof c.model.executionCount === 'number' && c.model.executionCount > 0);
}"""

CELL_ERRORS_JS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const errors = [];
  w.content.widgets.forEach((c, i) => {
    if (c.model.type !== 'code') return;
    for (const out of c.model.outputs.toJSON()) {
      if (out.output_type === 'error') errors.push(`cell ${i}: ${out.ename}: ${out.evalue}`);
    }
  });
  return errors;
}"""

RUN_UP_TO_JS = """async (upto) => {
  const app = window.jupyterapp;
  const w = app.shell.currentWidget;
  await app.commands.execute('notebook:clear-all-cell-outputs');
  if (upto + 1 >= w.content.widgets.length) {
    await app.commands.execute('notebook:run-all-cells');
  } else {
    w.content.activeCellIndex = upto + 1;
    await app.commands.execute('notebook:run-all-above');
  }
}"""


def steppers_shown(name: str, upto: int) -> int:
    """How many steppers cells 0..upto show, read from the committed outputs (a stepper's plain-text form is
    ``cardlab.Stepper(...)``), so the test waits for every one of them, not for whichever drew first."""
    cells = json.loads((REPO / "notebooks" / f"{name}.ipynb").read_text())["cells"][:upto + 1]
    return sum("".join(out.get("data", {}).get("text/plain", "")).startswith("cardlab.Stepper(")
               for c in cells if c["cell_type"] == "code" for out in c.get("outputs", []))


def stepper_cells(name: str) -> list[int]:
    """Indices (among all cells) of the code cells that make a stepper."""
    cells = json.loads((REPO / "notebooks" / f"{name}.ipynb").read_text())["cells"]
    return [i for i, c in enumerate(cells) if c["cell_type"] == "code" and "Stepper(" in "".join(c["source"])]


def last_stepper_cell(name: str) -> int:
    """Index (among all cells) of the last code cell that makes a stepper."""
    found = stepper_cells(name)
    assert found, f"{name} makes no stepper"
    return found[-1]


def shows_a_stepper(name: str) -> bool:
    """Whether the lesson displays a stepper (one it only makes, to read numbers from, leaves the page alone)."""
    cells = stepper_cells(name)
    return bool(cells) and steppers_shown(name, cells[-1]) >= 1


# the lessons that show a stepper (the others show no stepper, but exercises and plots)
NOTEBOOKS = [name for name in LESSONS if shows_a_stepper(name)]


def test_the_start_and_every_game_lesson_show_a_stepper() -> None:
    assert {"00_start_here", *LAYOUT_NOTEBOOKS} <= set(NOTEBOOKS), NOTEBOOKS


@pytest.mark.timeout(900)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_stepper_draws_and_follows(name: str, lab_server: Server, burners: int, tab: Tab,
                                         artifacts: Path) -> None:
    page = tab.page
    path = f"notebooks/{name}.ipynb"
    upto = last_stepper_cell(name)
    page.add_init_script(COUNT_ANYWIDGET_STARTS)
    with tab.screenshot_on_failure(artifacts / f"jupyterlab-{name}-failure.png"):
        page.goto(f"{lab_server.url}/lab/tree/{path}", timeout=120_000)
        page.wait_for_function(NOTEBOOK_READY_JS, timeout=STEPPER_TIMEOUT_MS)
        assert page.evaluate("() => window.jupyterapp.shell.currentWidget.context.path") == path
        if not page.evaluate("() => window.jupyterapp.shell.leftCollapsed"):
            page.evaluate("() => window.jupyterapp.commands.execute('application:toggle-left-area')")
        page.evaluate(RUN_UP_TO_JS, upto)
        page.wait_for_function(CELLS_RAN_JS, arg=upto, timeout=STEPPER_TIMEOUT_MS, polling=500)
        assert page.evaluate(CELL_ERRORS_JS) == []
        count = steppers_shown(name, upto)
        assert count >= 1, f"{name}: no stepper among the committed outputs of cells 0..{upto}"
        page.wait_for_function(f"() => document.querySelectorAll('.cardlab-stepper').length === {count}",
                               timeout=STEPPER_TIMEOUT_MS, polling=500)
        for index in range(count):
            page.locator(".cardlab-stepper").nth(index).scroll_into_view_if_needed()
            check_stepper_follows(page, index, CLICKS, f"{name} stepper {index}")
        if name in LAYOUT_NOTEBOOKS:
            root = page.locator(".cardlab-stepper").first
            for width, beside in ((WIDE, True), (NARROW, False)):
                resize_and_check_layout(page, 0, width, beside, f"JupyterLab {name} at {width} px")
                root.scroll_into_view_if_needed()
                root.screenshot(path=str(artifacts / f"jupyterlab-{name}-{width}px.png"))
        # a projector: the lesson's first stepper shows its table and both plots without scrolling
        check_projector(page, 0, f"JupyterLab {name}, first stepper")
        page.screenshot(path=str(artifacts / f"jupyterlab-{name}-1024x768.png"))
        assert page.evaluate("() => window.__cardlabStarts") == 1, \
            f"{name}: one anywidget model per kernel (the plot hub), whatever the number of plots"
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
    assert tab.errors == [], f"script errors on the page: {tab.errors}"
