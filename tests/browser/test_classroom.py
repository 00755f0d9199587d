"""The whole class predicts, in a real Chromium: 20 phone-sized students against the class server.

The class server runs as ``cardlab class`` on a free loopback port. The teacher asks from Python
(:class:`cardlab.ClassSession`, as the stepper's class row does) and watches the projector's page (``/teacher``)
in a desktop-sized context. Twenty students, each in a context of its own with a phone's viewport and touch, open
the join address (the code filled in from the QR code's address), join, see the table and the question, and send
their guesses; the first student's page shows the count rise with every guess, by the server's events alone.
Then the server is killed (``kill -9``) and started again on the same file: every page reconnects by itself.
The teacher presses Reveal on the projector's page: every phone shows the answer, the distance from its own guess
and the student's score; the teacher's histogram holds exactly the guesses sent.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardlab
from cardlab.classroom.client import ClassSession
from cardlab.classroom.guess import histogram, parse_guess
from tests.classroom.conftest import Running, free_port, start_server, stop_server

STUDENTS = 20
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
WAIT_MS = 60_000


@pytest.fixture
def class_server(tmp_path: Path) -> Iterator[Running]:
    running = start_server(tmp_path / "class.sqlite3", free_port(), tmp_path / "server.log")
    try:
        yield running
    finally:
        stop_server(running.proc)


def guesses() -> list[str]:
    """Twenty guesses in the three forms a student may type."""
    return [f"{5 * k}%" if k % 3 == 0 else f"{k}/{STUDENTS}" if k % 3 == 1 else f"0.{k:02d}" for k in range(STUDENTS)]


def join_phones(browser: Any, running: Running, question_text: str, errors: list[str]) -> tuple[list[Any], list[Any]]:
    """Twenty phone-sized contexts open the join address (code filled in), join, and show the question."""
    from playwright.sync_api import expect

    contexts, pages = [], []
    for i in range(STUDENTS):
        ctx = browser.new_context(**PHONE)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc, i=i: errors.append(f"student {i}: {exc}"))
        page.goto(f"{running.base}/?code={running.code}")
        expect(page.locator("#code")).to_have_value(running.code)
        page.get_by_role("button", name="Join").tap()
        page.wait_for_url("**/play", timeout=WAIT_MS)
        expect(page.locator("#qtext")).to_have_text(question_text, timeout=WAIT_MS)
        expect(page.locator("#position .cl-table")).to_have_attribute("data-view", "public")
        pages.append(page)
    return contexts, pages


def send_guesses(pages: list[Any]) -> None:
    """Each phone sends its guess; the first phone's count rises with every one (by the server's events)."""
    from playwright.sync_api import expect

    first = pages[0]
    expect(first.locator("#count")).to_have_text("0")
    for k, (page, text) in enumerate(zip(pages, guesses(), strict=True)):
        page.locator("#guess").fill(text)
        page.get_by_role("button", name="Send").tap()
        expect(page.locator("#mine")).to_contain_text(f"Your guess: {text}", timeout=WAIT_MS)
        expect(first.locator("#count")).to_have_text(str(k + 1), timeout=WAIT_MS)   # the count rises, live
    for page in pages:
        expect(page.locator("#count")).to_have_text(str(STUDENTS), timeout=WAIT_MS)


def expect_revealed(pages: list[Any], answer: str) -> None:
    from playwright.sync_api import expect

    for page in pages:
        expect(page.locator("#reveal")).to_contain_text(f"Answer: {answer}", timeout=WAIT_MS)
        expect(page.locator("#reveal")).to_contain_text("away")
        expect(page.locator("#score")).to_contain_text("Your score over 1 revealed question")
        expect(page.locator("#guess")).to_be_disabled()


def test_twenty_phones_join_guess_and_see_the_reveal(browser: Any, class_server: Running, artifacts: Path) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    game = cardlab.new_game("garbage", players=2, seed=3)
    for _ in range(4):
        game.play(game.legal_moves()[0])
    session = ClassSession(class_server.teacher_url)
    question = session.ask_game(game, "What is the chance that seat 0 wins this game?", answer=0.42, low=0.39,
                                high=0.45, exact=False)

    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    teacher = teacher_ctx.new_page()
    teacher.on("pageerror", lambda exc: errors.append(f"teacher: {exc}"))
    teacher.goto(class_server.teacher_url)
    expect(teacher.locator("#code")).to_have_text(class_server.code, timeout=WAIT_MS)
    expect(teacher.locator("#qtext")).to_contain_text("seat 0 wins", timeout=WAIT_MS)
    teacher.wait_for_function("() => { const img = document.querySelector('img'); "
                              "return !!img && img.complete && img.naturalWidth > 100; }", timeout=WAIT_MS)   # the QR

    contexts: list[Any] = []
    try:
        contexts, pages = join_phones(browser, class_server, question.text, errors)
        expect(teacher.locator("#students")).to_have_text(str(STUDENTS), timeout=WAIT_MS)
        first = pages[0]
        send_guesses(pages)
        expect(teacher.locator("#count")).to_have_text(str(STUDENTS), timeout=WAIT_MS)

        # kill -9 mid-question, start again on the same file and port: every page reconnects by itself
        stop_server(class_server.proc, signal.SIGKILL)
        for page in (first, teacher):
            expect(page.locator("#live")).to_have_text("reconnecting…", timeout=WAIT_MS)
        again = start_server(class_server.store, class_server.port, class_server.log)
        class_server.proc = again.proc   # the fixture stops the new process
        for page in (*pages, teacher):
            expect(page.locator("#live")).to_have_text("live", timeout=WAIT_MS)

        teacher.get_by_role("button", name="Reveal").click()
        expect(teacher.locator("#answer")).to_contain_text("Answer: 0.420", timeout=WAIT_MS)
        expect_revealed(pages, "0.420")
        status = session.status()
        sent = sorted(parse_guess(t) for t in guesses())
        assert sorted(status.values) == pytest.approx(sent)
        assert list(status.histogram) == histogram(sent)
        bars = teacher.locator("#hist rect").count()
        assert bars == len(status.histogram)
        first.screenshot(path=str(artifacts / "class-phone.png"), full_page=True)   # for the teachers' guide
        teacher.screenshot(path=str(artifacts / "class-projector.png"), full_page=True)
        assert not errors, errors
    finally:
        for ctx in contexts:
            ctx.close()
        teacher_ctx.close()


NOTEBOOK = "notebooks/class_session_check.ipynb"


@pytest.mark.timeout(900)
def test_the_teachers_stepper_in_jupyterlab_asks_twenty_phones(browser: Any, class_server: Running, lab_server: Any,
                                                                tab: Any, artifacts: Path) -> None:
    """The teacher's stepper in JupyterLab (``Stepper(..., session=...)``): **Ask the class** puts its position
    on twenty phones; the row's count and Plotly histogram follow the guesses live; **Reveal** shows the answer
    on every phone and over the histogram."""
    import nbformat
    from playwright.sync_api import expect

    from tests.browser.conftest import STEPPER_TIMEOUT_MS
    from tests.browser.test_predict import READY_JS

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import cardlab\n"
        f"stepper = cardlab.Stepper('garbage', players=2, seed=3, rollouts=16, panel_rollouts=8, "
        f"session={class_server.teacher_url!r})\nstepper")]
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nbformat.write(nb, lab_server.root / NOTEBOOK)
    errors: list[str] = []
    page = tab.page
    contexts: list[Any] = []
    with tab.screenshot_on_failure(artifacts / "class-lab-failure.png"):
        try:
            page.goto(f"{lab_server.url}/lab/workspaces/classroom/tree/{NOTEBOOK}", timeout=120_000)
            page.wait_for_function(READY_JS, timeout=STEPPER_TIMEOUT_MS)
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
            row = page.locator(".cardlab-class-poll")
            ask_button = row.get_by_role("button", name="Ask the class")
            ask_button.wait_for(state="visible", timeout=STEPPER_TIMEOUT_MS)
            expect(row).to_contain_text(class_server.code, timeout=WAIT_MS)
            ask_button.click()
            expect(row).to_contain_text("0 of 0 answered question 1", timeout=WAIT_MS)
            question = ClassSession(class_server.teacher_url).status().question
            assert question is not None and question.state == "open"
            contexts, phones = join_phones(browser, class_server, question.text, errors)
            send_guesses(phones)
            expect(row).to_contain_text(f"{STUDENTS} of {STUDENTS} answered", timeout=WAIT_MS)
            sent = sorted(parse_guess(t) for t in guesses())
            page.wait_for_function(
                """(want) => { const p = document.querySelector('.cardlab-class-poll .js-plotly-plot');
                if (!p || !p.data || !p.data[0]) return false;
                const x = Array.from(p.data[0].x).map(Number).sort((a, b) => a - b);
                return x.length === want.length && x.every((v, i) => Math.abs(v - want[i]) < 1e-9); }""",
                arg=sent, timeout=WAIT_MS, polling=250)   # the histogram holds exactly the guesses sent
            row.get_by_role("button", name="Reveal").click()
            expect(row).to_contain_text("(revealed)", timeout=WAIT_MS)
            expect_revealed(phones, f"{question.answer:.3f}")
            page.wait_for_function(
                """(answer) => { const p = document.querySelector('.cardlab-class-poll .js-plotly-plot');
                const shapes = (p && p.layout && p.layout.shapes) || [];
                return shapes.some((s) => s.type === 'line' && Math.abs(s.x0 - answer) < 1e-9); }""",
                arg=question.answer, timeout=WAIT_MS, polling=250)   # the answer over the histogram
            page.screenshot(path=str(artifacts / "class-stepper.png"), full_page=True)
            assert not errors, errors
            assert tab.errors == [], tab.errors
        finally:
            for ctx in contexts:
                ctx.close()
