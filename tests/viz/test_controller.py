"""The stepper's parts on their own: the widget-free controller, the quiet and the deferral of widget updates,
and the import graph of ``cardlab.viz`` (no module imports another that imports it back)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

import cardlab
from cardlab.errors import IllegalMoveError
from cardlab.viz import controls
from cardlab.viz.controller import StepperController
from cardlab.viz.lifecycle import Deferral, Quiet

VIZ = Path(cardlab.__file__).parent / "viz"


class Recorder:
    """A view that writes down what the controller tells it."""

    def __init__(self, controller: StepperController) -> None:
        self.controller = controller
        self.calls: list[tuple[Any, ...]] = []

    def redraw(self, panels: bool) -> None:
        self.calls.append(("redraw", panels, self.controller.game.move_count))

    def dealt(self) -> None:
        self.calls.append(("dealt", self.controller.game.name, self.controller.seed))

    def autoplay_stopped(self) -> None:
        self.calls.append(("autoplay stopped",))

    def finished(self, note: str | None, error: Exception | None) -> None:
        self.calls.append(("finished", note, type(error).__name__ if error else None))


def test_the_controller_needs_no_widgets() -> None:
    """With ipywidgets unimportable, the controller still deals, steps, plays hot-seat and refuses bad moves."""
    code = """
import sys
sys.modules["ipywidgets"] = None          # any import of ipywidgets now fails
import cardlab
from cardlab.viz.controller import StepperController
c = StepperController(cardlab.new_game("garbage", players=2, seed=3), seed=3, policies=["human", "human"])
assert c.viewpoint == "seat 0" and c.viewpoint_locked
assert c.follow_seat_to_move() == 0 and c.viewpoint == "table", "seat 0 must take the device first"
assert c.take_device() and c.viewpoint == "seat 0" and c.follow_seat_to_move() is None
assert not c.play("no such move") and c.last_error and c.game.move_count == 0
assert c.play(c.game.legal_moves()[0]) and c.last_error is None and c.game.move_count == 1
loaded = [m for m, mod in sys.modules.items() if mod is not None]
print(sorted(m for m in loaded if m.startswith(("ipywidgets", "plotly", "anywidget"))))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         cwd=Path(cardlab.__file__).parent.parent)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]", "the controller loads no widget or plotting library"


@pytest.mark.parametrize("game", cardlab.game_names())
def test_an_action_that_fails_puts_everything_back(game: str) -> None:
    c = StepperController(cardlab.new_game(game, players=2, seed=4), seed=4)
    view = Recorder(c)
    c.watch(view)
    for _ in range(3):
        assert c.next_move()
    c.step()
    before = (c.game.state.to_data(), list(c.game.moves), c.pending, list(c.names), c.seed)

    def broken(panels: bool) -> None:
        raise RuntimeError("drawing failed")

    for action in (c.next_move, c.back, c.reset, lambda: c.new_deal("garbage", 3, 9), c.take_device):
        view.redraw = broken   # type: ignore[method-assign]
        action()
        del view.redraw
        assert (c.game.state.to_data(), list(c.game.moves), c.pending, list(c.names), c.seed) == before
        assert c.last_error is not None and view.calls[-1][0] == "finished"
    assert c.next_move() and c.last_error is None


def test_the_view_is_told_what_to_draw() -> None:
    c = StepperController(cardlab.new_game("garbage", players=2, seed=3), seed=3)
    view = Recorder(c)
    c.watch(view)
    c.next_move()
    played = c.game.moves[0].text
    c.back()
    c.back()
    c.new_deal("garbage", 2, 3)   # the deal on the table: the seed moves on by one
    assert view.calls == [("redraw", True, 1), ("finished", None, None),
                          ("redraw", True, 0), ("finished", f"took back {played!r}", None),
                          ("finished", "nothing to take back: this is the deal", None),
                          ("autoplay stopped",), ("dealt", "garbage", 4), ("redraw", True, 0),
                          ("finished", "new deal: Garbage, 2 players, seed 4", None)]


def test_a_bot_never_moves_for_a_human_seat() -> None:
    c = StepperController(cardlab.new_game("garbage", players=2, seed=3), seed=3, policies=["human", "greedy"])
    with pytest.raises(IllegalMoveError, match="played by a human"):
        c.bot_move()
    assert not c.next_move() and c.game.move_count == 0 and "played by a human" in (c.last_error or "")


def test_a_human_seat_turns_the_viewpoint_unless_everything_is_revealed() -> None:
    c = StepperController(cardlab.new_game("shithead", players=3, seed=2), seed=2)
    assert c.choose_policy(2, controls.HUMAN) and c.viewpoint == "seat 2"
    assert c.choose_viewpoint(controls.REVEAL) and c.choose_policy(1, controls.HUMAN)
    assert c.viewpoint == controls.REVEAL and c.names == ["greedy", "human", "human"]


def test_quiet_nests_and_ends_when_its_block_raises() -> None:
    quiet = Quiet()
    assert not quiet
    with quiet():
        with quiet():
            assert quiet
        assert quiet
    assert not quiet
    with pytest.raises(RuntimeError), quiet():
        raise RuntimeError("inside")
    assert not quiet


def test_a_deferred_widget_sends_nothing_until_released_then_its_current_value_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[dict[str, Any]] = []
    original = widgets.Widget._send

    def send(self: Any, msg: dict[str, Any], buffers: Any = None) -> None:
        if msg.get("method") == "update":
            sent.append(dict(msg["state"]))
        original(self, msg, buffers)

    monkeypatch.setattr(widgets.Widget, "_send", send)
    html, other = widgets.HTML("a"), widgets.HTML("x")
    deferral = Deferral()
    deferral.defer(html)
    deferral.defer(html)   # deferring twice holds once
    for text in ("b", "c", "d"):
        html.value = text
    other.value = "y"
    assert sent == [{"value": "y"}] and deferral.deferred(html) and not deferral.deferred(other)
    deferral.release(html)
    assert sent == [{"value": "y"}, {"value": "d"}] and not deferral.deferred(html)
    html.value = "e"
    assert sent[-1] == {"value": "e"}, "released: sent as it changes"
    html.close()
    other.close()


def _imports(path: Path) -> set[str]:
    """The ``cardlab.viz`` modules ``path`` imports, at any level (those under TYPE_CHECKING too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "cardlab.viz":
                found |= {f"cardlab.viz.{a.name}" for a in node.names}
            elif node.module.startswith("cardlab.viz."):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("cardlab.viz.")}
    return found


def test_no_viz_module_imports_one_that_imports_it_back() -> None:
    modules = {f"cardlab.viz.{p.stem}": p for p in VIZ.glob("*.py") if p.stem != "__init__"}
    graph = {m: _imports(p) & set(modules) for m, p in modules.items()}
    assert graph["cardlab.viz.predict"] and "cardlab.viz.stepper" not in graph["cardlab.viz.predict"]
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert m not in path, f"import cycle: {' -> '.join((*path, m))}"
        if m in done:
            return
        for n in sorted(graph[m]):
            visit(n, (*path, m))
        done.add(m)

    for m in sorted(graph):
        visit(m, ())
    assert not any(m in graph[m] for m in graph)
