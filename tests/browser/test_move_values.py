"""The stepper's move-values panel in a real JupyterLab page: the "show move values" box draws the bars.

A notebook with a Spite and Malice stepper (seat 0 human, to move, with a choice) is run in the page; the
box is ticked as a user would, and the test waits until the panel's plot shows one bar per distinct legal
move of seat 0 (counted in this process from the same deal), one of them labelled best; unticking removes
the bars again.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import nbformat
import pytest

import cardlab
from tests.browser.conftest import STEPPER_TIMEOUT_MS, Server, Tab
from tests.browser.test_hotseat import NOTEBOOK_READY_JS

NOTEBOOK = "move_values.ipynb"
SEED = 4
STEPPER = (f'cardlab.Stepper("spite-and-malice", seed={SEED}, first="seat0", policies=["human", "greedy"], rollouts=8, '
           "panel_rollouts=4)")
CLICK_TIMEOUT_MS = 120_000

# The bars drawn in the move-values panel, and the labels of the bar axis.
BARS_JS = """() => {
  const panel = document.querySelector('.cardlab-move-values');
  if (!panel) return {bars: 0, labels: []};
  return {bars: panel.querySelectorAll('.barlayer .point').length,
          labels: [...panel.querySelectorAll('.ytick text')].map(t => t.textContent)};
}"""


def write_notebook(root: Path) -> None:
    nb = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    nb.cells = [nbformat.v4.new_code_cell(f"import cardlab\nstepper = {STEPPER}\nstepper")]  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    (root / NOTEBOOK).write_text(json.dumps(nb))


def bars(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(BARS_JS)
    return result


@pytest.mark.timeout(900)
def test_ticking_show_move_values_draws_one_bar_per_move_with_the_best_marked(lab_server: Server, tab: Tab,
                                                                             artifacts: Path) -> None:
    write_notebook(lab_server.root)
    game = cardlab.new_game("spite-and-malice", players=2, seed=SEED, first="seat0")
    moves = len(dict.fromkeys(m.text for m in game.legal_moves()))
    assert game.current_player == 0 and moves >= 2
    page = tab.page
    with tab.screenshot_on_failure(artifacts / "move-values-failure.png"):
        page.goto(f"{lab_server.url}/lab/workspaces/move-values/tree/{NOTEBOOK}", timeout=120_000)
        page.wait_for_function(NOTEBOOK_READY_JS, timeout=STEPPER_TIMEOUT_MS)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        box = page.get_by_role("checkbox", name="show move values")
        box.wait_for(state="visible", timeout=STEPPER_TIMEOUT_MS)
        assert bars(page)["bars"] == 0
        box.check()
        page.wait_for_function(f"() => ({BARS_JS})().bars === {moves}", timeout=CLICK_TIMEOUT_MS)
        labels = bars(page)["labels"]
        assert sum(label.endswith("(best)") for label in labels) == 1, labels
        heading = page.get_by_text("Move values of seat 0 (to move), from its own information")
        heading.wait_for(state="visible", timeout=CLICK_TIMEOUT_MS)
        page.screenshot(path=str(artifacts / "move-values-page.png"))
        box.uncheck()
        page.wait_for_function(f"() => ({BARS_JS})().bars === 0", timeout=CLICK_TIMEOUT_MS)
    assert tab.errors == [], f"script errors on the page: {tab.errors}"
    # clean-up, not a check: end the notebook's kernel so it does not compete with the next tests for the CPU
    with contextlib.suppress(Exception):
        page.evaluate("async () => { await window.jupyterapp.serviceManager.sessions.shutdownAll(); }")
