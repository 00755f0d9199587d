"""The Voilà classroom app (``make app``) in a real Chromium: no code shown, the stepper renders and responds."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import (
    Server,
    Tab,
    assert_stepper_moved,
    click_next_move,
    wait_for_stepper,
)

CLICKS = 3

# anywidget gives each widget model two seconds to load its JavaScript; a model that misses the limit
# draws its first state and then drops every update (see cardlab/viz/watch.py). This script makes the
# page's models numbered in MISSED (the stepper's figures are the page's only anywidgets) miss it on
# purpose, as a busy machine sometimes does, and counts how often it did.
MODEL_MISSES_ITS_START = """(() => {
  const timeout = AbortSignal.timeout.bind(AbortSignal);
  let starts = 0;
  window.__cardlabMissedStarts = 0;
  AbortSignal.timeout = (ms) => {
    if (ms === 2000 && MISSED.includes(++starts)) { window.__cardlabMissedStarts += 1; return timeout(1); }
    return timeout(ms);
  };
})();"""
MISSED_START_ERROR = "[anywidget] Failed to initialize model."


@pytest.mark.timeout(600)
def test_app_stepper_renders_and_responds(voila_server: Server, tab: Tab, artifacts: Path) -> None:
    page = tab.page
    with tab.screenshot_on_failure(artifacts / "voila-app-failure.png"):
        page.goto(f"{voila_server.url}/", timeout=300_000)
        before = wait_for_stepper(page)
        assert page.locator(".jp-InputArea-editor, .cm-editor").count() == 0, "Voilà shows code"
        assert page.locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
        after = click_next_move(page, CLICKS)
        assert_stepper_moved(before, after, CLICKS)
        # a figure that missed its start on a busy machine is reported by anywidget and replaced by the stepper
        missed = tab.errors.count(MISSED_START_ERROR)
        if missed:
            print(f"{missed} figure(s) missed anywidget's start-up limit on this page and were replaced")
        assert [e for e in tab.errors if e != MISSED_START_ERROR] == [], f"script errors on the page: {tab.errors}"
    page.screenshot(path=str(artifacts / "voila-app.png"), full_page=True)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("missed", [[1], [2], [1, 2]], ids=["first-figure", "second-figure", "both-figures"])
def test_a_figure_that_missed_its_start_is_replaced(voila_server: Server, tab: Tab, artifacts: Path,
                                                    missed: list[int]) -> None:
    page = tab.page
    page.add_init_script(MODEL_MISSES_ITS_START.replace("MISSED", str(missed)))
    name = "-".join(map(str, missed))
    with tab.screenshot_on_failure(artifacts / f"voila-missed-start-{name}-failure.png"):
        page.goto(f"{voila_server.url}/", timeout=300_000)
        before = wait_for_stepper(page)
        assert page.evaluate("window.__cardlabMissedStarts") == len(missed), f"models {missed} did not miss their start"
        after = click_next_move(page, CLICKS)
        assert_stepper_moved(before, after, CLICKS)
        assert page.locator(".js-plotly-plot").count() == 2, "the replaced figure is still on the page"
        assert set(tab.errors) == {MISSED_START_ERROR}, f"script errors on the page: {tab.errors}"
    page.screenshot(path=str(artifacts / f"voila-missed-start-{name}.png"), full_page=True)
