"""The Voilà classroom app (``make app``) in a real Chromium: no code shown, the stepper renders and responds."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import Server, Tab, assert_stepper_moved, click_next_move, wait_for_stepper

CLICKS = 3


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

    page.screenshot(path=str(artifacts / "voila-app.png"), full_page=True)
    assert tab.errors == [], f"script errors on the page: {tab.errors}"
