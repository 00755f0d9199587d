"""Predict, then reveal, in JupyterLab in a real Chromium: the plots stay hidden until a guess is entered.

A small notebook with one ``Stepper(..., predict=True)`` is written into the server's temporary copy of
the notebooks folder (never into the repository) and run. The test then types guesses into the text
box and presses Reveal, as a student would, and checks what the page shows: the plots hidden before a
guess and shown after it, the feedback line with the guess, a bad guess reported in the widget, and a
new question (plots hidden again) after Next move.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.browser.conftest import CLICK_TIMEOUT_MS, COUNTER_JS, STEPPER_TIMEOUT_MS, Server, Tab

NOTEBOOK = "notebooks/predict_check.ipynb"
SOURCE = ("import cardlab\n"
          "stepper = cardlab.Stepper('garbage', players=2, seed=3, predict=True, rollouts=16, panel_rollouts=8)\n"
          "stepper")

READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!w || !w.sessionContext || !w.content || !w.context) return false;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  return !!kernel && kernel.status === 'idle' && w.context.isReady;
}"""

# Every Plotly plot of the stepper, and whether it is hidden (the predict box sets visibility on their box).
PLOTS_HIDDEN_JS = """() => {
  const plots = [...document.querySelectorAll('.js-plotly-plot')];
  if (plots.length === 0) return null;
  return plots.map(p => getComputedStyle(p).visibility === 'hidden');
}"""


def plots_hidden(page: Any) -> list[bool]:
    hidden = page.evaluate(PLOTS_HIDDEN_JS)
    assert hidden, "no Plotly plot on the page"
    return list(hidden)


def enter_guess(page: Any, text: str) -> None:
    box = page.get_by_placeholder("or type 0.3, 30% or 1/3")
    box.fill(text)
    box.press("Tab")                      # the widget's value syncs on blur
    page.get_by_role("button", name="Reveal").click()


@pytest.mark.timeout(900)
def test_plots_hidden_until_a_guess_then_revealed(lab_server: Server, tab: Tab, artifacts: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SOURCE)]
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nbformat.write(nb, lab_server.root / NOTEBOOK)

    from playwright.sync_api import expect  # the browser fixtures have checked that playwright is installed

    page = tab.page
    with tab.screenshot_on_failure(artifacts / "predict-failure.png"):
        page.goto(f"{lab_server.url}/lab/workspaces/predict/tree/{NOTEBOOK}", timeout=120_000)
        page.wait_for_function(READY_JS, timeout=STEPPER_TIMEOUT_MS)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.get_by_role("button", name="Reveal").wait_for(state="visible", timeout=STEPPER_TIMEOUT_MS)
        page.wait_for_function(f"() => ({PLOTS_HIDDEN_JS})() !== null && ({PLOTS_HIDDEN_JS})().length === 2",
                               timeout=STEPPER_TIMEOUT_MS)
        expect(page.get_by_text("What is the chance that seat 0 wins this game?")).to_have_count(
            1, timeout=CLICK_TIMEOUT_MS)
        assert plots_hidden(page) == [True, True], "the plots show their numbers before any guess"

        enter_guess(page, "abc")          # a bad guess: a message in the widget, still hidden
        page.get_by_text("is not a probability").wait_for(state="visible", timeout=CLICK_TIMEOUT_MS)
        assert plots_hidden(page) == [True, True]

        enter_guess(page, "0.4")
        page.get_by_text("your guess 0.400").wait_for(state="visible", timeout=CLICK_TIMEOUT_MS)
        page.wait_for_function(f"() => ({PLOTS_HIDDEN_JS})().every(h => !h)", timeout=CLICK_TIMEOUT_MS)
        expect(page.get_by_role("button", name="Reveal")).to_be_disabled(timeout=CLICK_TIMEOUT_MS)

        page.get_by_role("button", name="Next move").click()
        page.wait_for_function(f"() => ({COUNTER_JS})() === 1", timeout=CLICK_TIMEOUT_MS)
        page.wait_for_function(f"() => ({PLOTS_HIDDEN_JS})().every(h => h)", timeout=CLICK_TIMEOUT_MS)

        enter_guess(page, "30%")
        page.get_by_text("your guess 0.300").wait_for(state="visible", timeout=CLICK_TIMEOUT_MS)
        page.wait_for_function(f"() => ({PLOTS_HIDDEN_JS})().every(h => !h)", timeout=CLICK_TIMEOUT_MS)
        assert tab.errors == [], f"script errors on the page: {tab.errors}"
    page.screenshot(path=str(artifacts / "predict.png"), full_page=True)
