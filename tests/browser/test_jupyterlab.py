"""JupyterLab in a real Chromium: the start notebook runs top to bottom and its stepper responds to clicks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import (
    STEPPER_TIMEOUT_MS,
    Server,
    Tab,
    assert_stepper_moved,
    click_next_move,
    wait_for_stepper,
)

START_NOTEBOOK = "notebooks/00_start_here.ipynb"
CLICKS = 3

NOTEBOOK_READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!w || !w.sessionContext || !w.content || !w.content.widgets) return false;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  return !!kernel && kernel.status === 'idle' && w.context.isReady;
}"""

# After "clear outputs" every code cell has no execution count; "run all" gives each one back in turn.
ALL_CELLS_RAN_JS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  const code = w.content.widgets.filter(c => c.model.type === 'code');
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


@pytest.mark.timeout(900)
def test_start_notebook_runs_and_stepper_responds(lab_server: Server, tab: Tab, artifacts: Path) -> None:
    page = tab.page
    with tab.screenshot_on_failure(artifacts / "jupyterlab-failure.png"):
        page.goto(f"{lab_server.url}/lab/tree/{START_NOTEBOOK}", timeout=120_000)
        page.wait_for_function(NOTEBOOK_READY_JS, timeout=STEPPER_TIMEOUT_MS)
        opened = page.evaluate("() => window.jupyterapp.shell.currentWidget.context.path")
        assert opened == START_NOTEBOOK

        page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function(ALL_CELLS_RAN_JS, timeout=STEPPER_TIMEOUT_MS, polling=500)
        assert page.evaluate(CELL_ERRORS_JS) == []

        before = wait_for_stepper(page)
        after = click_next_move(page, CLICKS)
        assert_stepper_moved(before, after, CLICKS)

    page.get_by_role("button", name="Next move").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "jupyterlab-page.png"))
    # The notebook scrolls inside its own panel, so make the window tall enough to show the whole stepper.
    page.set_viewport_size({"width": 1440, "height": 2200})
    output = page.locator(".jp-OutputArea-child").filter(has=page.get_by_role("button", name="Next move"))
    output.scroll_into_view_if_needed()
    output.screenshot(path=str(artifacts / "jupyterlab-stepper.png"))
    assert tab.errors == [], f"script errors on the page: {tab.errors}"
