"""Hot-seat play in a real JupyterLab page: two people at one screen never see each other's cards.

A notebook with a Shithead stepper whose two seats are both human is run in the page. The same game is
played alongside in this process (same seed, same clicks), so the test knows every card's place and can
look for any card a seat may not see among everything the page shows: the cards drawn (``data-card``), the
page's text and the buttons' tooltips. The notebook opens with the Binder link that notebooks/build.py
writes, which the page must show as readable text even though the badge image cannot load here.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import nbformat
import pytest

import cardlab
from cardlab.engine.game import Game
from tests import notebook_scripts
from tests.browser.conftest import COUNTER_JS, STEPPER_TIMEOUT_MS, Server, Tab
from tests.viz.test_hotseat import every_card, secrets

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = "hotseat.ipynb"
SEED = 5
STEPPER = (f'cardlab.Stepper("shithead", players=2, seed={SEED}, policies=["human", "human"], rollouts=8, '
           "panel_rollouts=4)")
CLICK_TIMEOUT_MS = 60_000

NOTEBOOK_READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!w || !w.sessionContext || !w.context || !w.context.isReady) return false;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  return !!kernel && kernel.status === 'idle';
}"""

# Everything the page shows that could name a card.
PAGE_JS = """() => ({
  cards: [...document.querySelectorAll('svg.cl-card[data-card]')].map(e => e.getAttribute('data-card')),
  text: document.body.innerText,
  titles: [...document.querySelectorAll('[title]')].map(e => e.getAttribute('title')).join('\\n'),
})"""

# The Binder links: their text, any image inside (there should be none: an image that cannot load is drawn
# broken), and the badge drawn as the background of an element inside the link.
BADGE_JS = """() => [...document.querySelectorAll('a')].filter(a => a.href.includes('mybinder.org')).map(a => ({
  text: a.innerText.trim(),
  visible: a.getBoundingClientRect().width > 0,
  images: a.querySelectorAll('img').length,
  backgrounds: [...a.querySelectorAll('*')].map(e => getComputedStyle(e).backgroundImage)
                                           .filter(b => b.includes('badge_logo.svg')).length,
}))"""


def assert_binder_link_reads_as_text(page: Any) -> None:
    """Offline (as here) the link reads "Open on Binder"; online its badge shows beside the text."""
    badges = page.evaluate(BADGE_JS)
    assert badges, "no Binder link on the page"
    for b in badges:
        assert b["visible"] and b["text"] == "Open on Binder", b
        assert b["images"] == 0 and b["backgrounds"] == 1, b


def write_notebook(root: Path) -> None:
    nb = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    link = notebook_scripts.load("build").binder_link("00_start_here")
    nb.cells = [nbformat.v4.new_markdown_cell(f"# Hot seat\n\n{link}"),  # type: ignore[no-untyped-call]
                nbformat.v4.new_code_cell(f"import cardlab\nstepper = {STEPPER}\nstepper")]  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    (root / NOTEBOOK).write_text(json.dumps(nb))


def leaks(page: Any, game: Game[Any], viewer: int | None) -> list[str]:
    """Cards ``viewer`` may not know that the page names (a drawn card, or a card's name in text or tooltip)."""
    shown = page.evaluate(PAGE_JS)
    hidden = secrets(game, viewer)
    seen_names = {str(c) for c in every_card(game) - hidden}
    words = shown["text"] + "\n" + shown["titles"]
    return sorted(str(c) for c in hidden
                  if c.code in shown["cards"] or (str(c) not in seen_names and str(c) in words))


def drawn(page: Any) -> set[str]:
    return set(page.evaluate(PAGE_JS)["cards"])


def wait_for_move_count(page: Any, count: int) -> None:
    page.wait_for_function(f"() => ({COUNTER_JS})() === {count}", timeout=CLICK_TIMEOUT_MS)


def take_device(page: Any, game: Game[Any], seat: int) -> None:
    """The cover for ``seat`` is shown with nothing private on it; seat clicks and sees its own hand."""
    # the stepper hides the moves before it covers the table: once the cover shows, no move of the last
    # player may be on the page
    page.get_by_text(f"Pass the device to seat {seat}").wait_for(state="visible", timeout=CLICK_TIMEOUT_MS)
    assert leaks(page, game, None) == []
    handover = page.get_by_role("button", name=f"I am seat {seat}: show my cards")
    handover.wait_for(state="visible", timeout=CLICK_TIMEOUT_MS)
    assert not {c.code for c in game.state.hands[seat]} & drawn(page)
    handover.click()
    first = game.legal_moves()[0].text
    move_button(page, seat, first).wait_for(state="visible", timeout=CLICK_TIMEOUT_MS)
    assert page.get_by_text(f"Pass the device to seat {seat}").count() == 0
    assert {c.code for c in game.state.hands[seat]} <= drawn(page), "the seat does not see its own hand"
    assert leaks(page, game, seat) == []


def move_button(page: Any, seat: int, text: str) -> Any:
    """The button that plays ``text``: moves naming the same card share a tile, where each button shows only its
    destination, so the button is found by its tooltip, which names the whole move."""
    title = json.dumps(f"seat {seat}: {text}", ensure_ascii=False)  # CSS reads the card's suit as written
    return page.locator(f".cardlab-move-tile button[title={title}]").first


@pytest.mark.timeout(900)
def test_two_people_pass_the_device_and_never_see_each_others_cards(lab_server: Server, tab: Tab,
                                                                     artifacts: Path) -> None:
    write_notebook(lab_server.root)
    page = tab.page
    game = cardlab.new_game("shithead", players=2, seed=SEED)
    with tab.screenshot_on_failure(artifacts / "hotseat-failure.png"):
        # a workspace of its own, so the next test's JupyterLab page does not reopen this notebook
        page.goto(f"{lab_server.url}/lab/workspaces/hotseat/tree/{NOTEBOOK}", timeout=120_000)
        page.wait_for_function(NOTEBOOK_READY_JS, timeout=STEPPER_TIMEOUT_MS)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.get_by_role("button", name="Next move").wait_for(state="visible", timeout=STEPPER_TIMEOUT_MS)
        wait_for_move_count(page, 0)

        assert_binder_link_reads_as_text(page)

        passes = 0
        for _ in range(3):  # seat 0, seat 1, seat 0 again
            seat = game.current_player
            take_device(page, game, seat)
            passes += 1
            for _ in range(12):  # this seat's moves until the turn passes (Shithead's set-up takes three)
                move = game.legal_moves()[0]
                move_button(page, seat, move.text).click()
                game.play(move)
                wait_for_move_count(page, game.move_count)
                if game.current_player != seat:
                    break
                move_button(page, seat, game.legal_moves()[0].text).wait_for(
                    state="visible", timeout=CLICK_TIMEOUT_MS)
                assert leaks(page, game, seat) == []
            assert game.current_player != seat
        assert passes == 3 and game.move_count >= 6
        page.screenshot(path=str(artifacts / "hotseat-page.png"))
    assert tab.errors == [], f"script errors on the page: {tab.errors}"
    # clean-up, not a check: end the notebook's kernel so it does not compete with the next tests for the CPU
    with contextlib.suppress(Exception):
        page.evaluate("async () => { await window.jupyterapp.serviceManager.sessions.shutdownAll(); }")


@pytest.mark.timeout(600)
def test_voila_app_shows_the_binder_link_as_text_when_the_badge_cannot_load(voila_server: Server, tab: Tab,
                                                                            artifacts: Path) -> None:
    page = tab.page
    with tab.screenshot_on_failure(artifacts / "voila-badge-failure.png"):
        page.goto(f"{voila_server.url}/voila/render/app.ipynb", timeout=STEPPER_TIMEOUT_MS)
        page.get_by_role("link", name="Open on Binder").wait_for(state="visible", timeout=STEPPER_TIMEOUT_MS)
        assert_binder_link_reads_as_text(page)
