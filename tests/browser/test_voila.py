"""The Voilà classroom app (``make app``) in a real Chromium, CPU burners running beside it.

First page load only (no retries): the stepper's plots draw and follow three Next moves; then each game
the app offers (every game of the package: :func:`app_games`) is dealt through the app's own selectors and
its layout is measured in a wide and a narrow window (plots beside the table, or below it; no title cut
off), with screenshots saved to the artifacts folder (``$CARDLAB_ARTIFACTS``, default ``test-artifacts/``,
git-ignored).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import cardlab
from tests.browser.conftest import (
    CLICK_TIMEOUT_MS,
    STEPPER_TIMEOUT_MS,
    Server,
    Tab,
    check_stepper_follows,
    count_anywidget_starts,
    read_steppers,
    resize_and_check_layout,
    wait_for_stepper,
    wait_until_follows,
)

CLICKS = 3
WIDE, NARROW = 1440, 700   # at 700 px the plots go below the table (at 900 they now fit beside it, 400 px wide)


def app_games() -> list[str]:
    """The games the app's kernel registers: every registered game but those the tests registered in this process
    (the toy game of :mod:`tests.toy_game` lives in the tests, not in the kernel the Voila server starts)."""
    return [spec.name for spec in cardlab.engine.game_specs() if spec.rules.__module__.split(".")[0] == "cardlab"]


def open_app(page: Any, server: Server) -> Any:
    """Load the Voilà app (first load only) and wait for its stepper; returns the stepper's root."""
    page.goto(f"{server.url}/voila/render/app.ipynb", timeout=300_000)
    root = page.locator(".cardlab-stepper").first
    root.wait_for(state="visible", timeout=STEPPER_TIMEOUT_MS)
    return root


def human_to_move(page: Any, root: Any) -> None:
    """Make seat 0 human and let the bot play until seat 0 is to move, so the move buttons (with their card
    pictures) are on the page to be measured.

    Every step waits for the state it acts on: the counter (one value: move, mover, each seat's player) must
    first say that seat 0 is human, and each bot move must have reached the counter before the next look."""
    seat0 = root.locator(".widget-dropdown").filter(has=page.locator("label", has_text=re.compile(r"^seat 0$")))
    seat0.locator("select").select_option("human")   # the menu labelled "seat 0" (the viewpoint menu only lists it)
    now = wait_for_stepper(page, 0, "s.seats[0] === 'human'")
    # seat 0's own view (a human seat's viewpoint) comes with the change
    page.wait_for_function("() => !!document.querySelector('.cardlab-stepper .cl-table[data-view=\"seat0\"]')",
                           timeout=CLICK_TIMEOUT_MS)
    for _ in range(60):
        if now.mover == 0:   # seat 0 (human) to move: its buttons are on their way
            root.locator(".cardlab-move-box button").first.wait_for(state="visible", timeout=CLICK_TIMEOUT_MS)
            return
        assert not now.over, f"the game ended before seat 0 (human) was to move: {now}"
        root.get_by_role("button", name="Next move").click()
        now = wait_for_stepper(page, 0, f"s.move === {now.move} + 1")
    raise AssertionError(f"seat 0 (human) was never to move: {now}")


@pytest.mark.timeout(600)
def test_app_draws_follows_and_lays_out_every_game(voila_server: Server, burners: int, tab: Tab,
                                                   artifacts: Path) -> None:
    page = tab.page
    with tab.screenshot_on_failure(artifacts / "voila-app-failure.png"):
        open_app(page, voila_server)
        assert page.locator(".jp-InputArea-editor, .cm-editor").count() == 0, "Voilà shows code"
        assert page.locator("[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
        assert len(read_steppers(page)) == 1
        check_stepper_follows(page, 0, CLICKS, "Voilà app")
        root = page.locator(".cardlab-stepper").first
        games = app_games()
        offered = [text.strip() for text in root.locator("select").first.locator("option").all_text_contents()]
        assert offered == games, (offered, games)
        for game in games:
            title = cardlab.engine.game_class(game).title
            if read_steppers(page)[0].game != game:
                root.locator("select").first.select_option(game)
                # the kernel has taken the new game when it answers with its note (New deal would otherwise deal
                # the game the kernel still has)
                wait_for_stepper(page, 0, f"s.message.includes({json.dumps('press New deal to deal ' + title)})")
            root.get_by_role("button", name="New deal").click()
            # New deal's note is the last thing its click sends, after the counter, the table, the move tiles and
            # the plots: until it shows, the page may still show the last game's move 0
            wait_for_stepper(page, 0, f"s.message.includes({json.dumps('new deal: ' + title)}) && "
                                      f"s.game === {json.dumps(game)} && s.move === 0")
            wait_until_follows(page, 0, 0, CLICK_TIMEOUT_MS)
            human_to_move(page, root)
            # every tile has a picture: the card its moves name, or an empty place labelled with the move's kind
            wait_for_stepper(page, 0, "s.tiles > 0 && s.pictures === s.tiles")
            for width, beside in ((WIDE, True), (NARROW, False)):
                measured = resize_and_check_layout(page, 0, width, beside, f"Voilà {game} at {width} px")
                assert measured["tiles"], f"Voilà {game}: no move button was measured"
                assert all(t["picture"] for t in measured["tiles"]), measured["tiles"]
                root.screenshot(path=str(artifacts / f"voila-{game}-{width}px.png"))
            page.set_viewport_size({"width": WIDE, "height": 1100})
    assert tab.errors == [], f"script errors on the page: {tab.errors}"


# A busy page can miss anywidget's start limit (see count_anywidget_starts): evaluating plotly.js alone is a long
# task. This makes the page's first start (the kernel's plot hub, cardlab's only anywidget model) miss it.
HUB_MISSES_ITS_START = count_anywidget_starts(miss=1)
MISSED_START_ERROR = "[anywidget] Failed to initialize model."


@pytest.mark.timeout(600)
def test_every_plot_draws_and_follows_though_the_hub_missed_its_start(voila_server: Server, burners: int, tab: Tab,
                                                                      artifacts: Path) -> None:
    page = tab.page
    page.add_init_script(HUB_MISSES_ITS_START)
    with tab.screenshot_on_failure(artifacts / "voila-missed-start-failure.png"):
        open_app(page, voila_server)
        page.wait_for_function("() => window.__cardlabMissedStarts === 1", timeout=STEPPER_TIMEOUT_MS)
        check_stepper_follows(page, 0, CLICKS, "Voilà app whose plot hub missed its start")
        assert page.evaluate("() => window.__cardlabStarts") == 1, "one anywidget model per kernel: the hub"
    assert set(tab.errors) <= {MISSED_START_ERROR}, f"script errors on the page: {tab.errors}"


# The first time plotly.js is asked to draw the game's panel, it throws, as a broken plot would.
PANEL_FAILS_ONCE = """(() => {
  let plotly;
  window.__cardlabFailed = 0;
  Object.defineProperty(window, "Plotly", { configurable: true, get: () => plotly, set: (lib) => {
    plotly = lib;
    const react = lib.react;
    lib.react = function (gd, data, layout, ...rest) {
      const title = layout && layout.title ? String(layout.title.text || layout.title) : "";
      if (title.startsWith("Chances at move") && window.__cardlabFailed === 0) {
        window.__cardlabFailed += 1;
        throw new Error("made to fail once");
      }
      return react.call(this, gd, data, layout, ...rest);
    };
  } });
})();"""


@pytest.mark.timeout(600)
def test_a_plot_that_fails_to_draw_is_reported_and_redrawn(voila_server: Server, burners: int, tab: Tab,
                                                           artifacts: Path) -> None:
    page = tab.page
    page.add_init_script(PANEL_FAILS_ONCE)
    with tab.screenshot_on_failure(artifacts / "voila-failed-draw-failure.png"):
        root = open_app(page, voila_server)
        redraw = root.get_by_role("button", name="Redraw plots")
        redraw.wait_for(state="visible", timeout=STEPPER_TIMEOUT_MS)
        message = read_steppers(page)[0].message
        assert "the game's panel could not be drawn in this page" in message and "made to fail once" in message, \
            message
        assert page.evaluate("() => window.__cardlabFailed") == 1
        redraw.click()
        wait_until_follows(page, 0, read_steppers(page)[0].move, CLICK_TIMEOUT_MS)
        redraw.wait_for(state="hidden", timeout=CLICK_TIMEOUT_MS)
        check_stepper_follows(page, 0, CLICKS, "Voilà app after a redraw")
    assert tab.errors == [], f"script errors on the page: {tab.errors}"


@pytest.mark.timeout(900)
def test_axe_core_finds_no_serious_violation_in_the_app(voila_server: Server, tab: Tab, artifacts: Path) -> None:
    """The classroom app as Voilà serves it (no JupyterLab around it): axe-core finds no serious or critical
    accessibility violation in the stepper, with seat 0 human so the move chooser is on the page too."""
    from axe_playwright_python.sync_playwright import Axe  # pinned in the test extra: a missing one fails

    page = tab.page
    with tab.screenshot_on_failure(artifacts / "axe-voila-failure.png"):
        root = open_app(page, voila_server)
        wait_until_follows(page, 0)
        human_to_move(page, root)
        results = Axe().run(page, context={"include": [[".cardlab-stepper"]]})
        violations = results.response["violations"]
        (artifacts / "axe-voila.json").write_text(json.dumps(violations, indent=1))
        serious = [v for v in violations if v.get("impact") in ("serious", "critical")]
        assert results.response["passes"], "axe checked nothing"
        assert serious == [], "\n".join(f"{v['id']} ({v['impact']}): {v['help']} x{len(v['nodes'])}" for v in serious)
    assert tab.errors == []
