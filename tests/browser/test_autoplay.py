"""Autoplay in a real JupyterLab page plays to the end after both seats are switched from human to bots, in every
built-in game, and says why it stopped (issue 34: it used to play one move and switch itself off).

The ticks come from the kernel's event loop (:mod:`cardlab.viz.autoplay`); the page only shows the button. The
test switches the seat menus as a student does, sets the fastest speed, presses Autoplay once, and waits for the
counter to say the game is over and the message area to say why Autoplay stopped, without another click.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from tests.browser.conftest import STEPPER_TIMEOUT_MS, Server, Tab, wait_for_stepper, wait_until_follows

NOTEBOOK = "autoplay.ipynb"
STEPPERS = [
    'cardlab.Stepper("garbage", players=2, seed=3, policies=["human", "human"], hot_seat=False, rollouts=8, '
    "panel_rollouts=4)",
    'cardlab.Stepper("shithead", players=2, seed=5, policies=["human", "human"], hot_seat=False, rollouts=8, '
    "panel_rollouts=4)",
    'cardlab.Stepper("spite-and-malice", seed=1, payoff_size=4, policies=["human", "human"], hot_seat=False, '
    "rollouts=8, panel_rollouts=4)",
]
GAME_MS = 600_000   # a whole game at the fastest speed, on a busy machine

NOTEBOOK_READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!w || !w.sessionContext || !w.context || !w.context.isReady) return false;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  return !!kernel && kernel.status === 'idle';
}"""


def write_notebook(root: Path) -> None:
    nb = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    nb.cells = [nbformat.v4.new_code_cell(f"import cardlab\n{code}") for code in STEPPERS]  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    (root / NOTEBOOK).write_text(json.dumps(nb))


@pytest.mark.timeout(2400)
def test_autoplay_plays_every_game_to_the_end_after_the_seats_turn_to_bots(lab_server: Server, tab: Tab,
                                                                           artifacts: Path) -> None:
    write_notebook(lab_server.root)
    page = tab.page
    with tab.screenshot_on_failure(artifacts / "autoplay-failure.png"):
        page.goto(f"{lab_server.url}/lab/workspaces/autoplay/tree/{NOTEBOOK}", timeout=120_000)
        page.wait_for_function(NOTEBOOK_READY_JS, timeout=STEPPER_TIMEOUT_MS)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        for index in range(len(STEPPERS)):
            wait_until_follows(page, index)
            root = page.locator(".cardlab-stepper").nth(index)
            root.scroll_into_view_if_needed()
            for seat in (0, 1):
                root.get_by_label(f"seat {seat}", exact=True).select_option("greedy")
                wait_for_stepper(page, index, f"s.seats[{seat}] === 'greedy'")
            root.get_by_label("moves/s").select_option("10.0")
            root.get_by_role("button", name="Autoplay").click()
            end = wait_for_stepper(page, index, "s.over && s.message.includes('Autoplay stopped')", GAME_MS)
            assert "Autoplay stopped: the game is over" in end.message, end
            assert end.move is not None and end.move > 1, end
            root.get_by_role("button", name="Autoplay").wait_for(state="visible")
    page.screenshot(path=str(artifacts / "autoplay-end.png"), full_page=True)
    assert tab.errors == []
