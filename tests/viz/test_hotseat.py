"""Hot-seat play: people sharing one screen never see each other's hidden cards.

With two or more human seats the stepper follows the human seat to move. Between two human turns a
"pass the device to seat k" screen hides every hand until seat k clicks; the move buttons (texts, tooltips
and card pictures) exist only for the seat whose view is on screen. What a seat may not see is read from
the game's full state by the game's own checks (``tests/games/<game>/chance_checks.py``: hands, face-down
cards, stock), not from the drawing under test, and every text the page could show is searched for it: the
table, the log, every move tile (those out of sight too, since the page keeps their state), the handover
button, the messages and both figures.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import numpy as np
import pytest

import cardlab
from cardlab.cards import Card, face_of
from cardlab.engine.game import Game
from cardlab.viz import controls
from cardlab.viz.stepper import Stepper
from tests.sim import chance_checks as cc
from tests.viz import page_table
from tests.viz.test_stepper import descendants

FAST = {"rollouts": 3, "panel_rollouts": 4}


def secrets(game: Game[Any], viewer: int | None) -> set[Card]:
    """The cards whose identity ``viewer`` (a seat, or None for nobody in particular) does not know, as the game's
    checks read them from its rules (:attr:`tests.sim.chance_checks.GameChecks.hidden`)."""
    return cc.checks_for(game.name).hidden(game, viewer)


def every_card(game: Game[Any]) -> set[Card]:
    return {c for cards in game.zones().values() for c in cards}


def private_hands(name: str) -> bool:
    """Whether a seat sees cards that the table does not, from the deal on (Garbage: nobody does)."""
    g = cardlab.new_game(name, players=2, seed=5)
    return any(secrets(g, None) - secrets(g, seat) for seat in range(g.players))


def screen(s: Stepper) -> str:
    """Every text the stepper sends to the page."""
    parts = [s.table.value, s.move_log.value, s.counter.value, s.message.value, s.handover_button.description,
             s.win_fig.to_json(), s.panel_fig.to_json(), s._moves_panel.note.value, s.moves_plot.value]
    for button in s.move_buttons:
        parts += [button.description, button.tooltip]
    parts += [w.value for w in descendants(s.move_box) if isinstance(w, widgets.HTML)]   # the tiles' pictures
    return "\n".join(parts)


def leaked(s: Stepper, viewer: int | None) -> list[str]:
    """Hidden cards on the screen: by exact code in a drawing, or by name in a text where no card of that name
    (a second deck's copy) is in sight."""
    text = screen(s)
    hidden = secrets(s.game, viewer)
    seen_names = {str(c) for c in every_card(s.game) - hidden}
    # drawings name faces only (a second pack's copy looks like the first's), so a face counts as leaked only
    # when no card of that face is in sight
    return sorted(str(c) for c in hidden
                  if str(c) not in seen_names and (f'data-card="{face_of(c).code}"' in text or str(c) in text))


def assert_covered(s: Stepper, seat: int) -> None:
    """The pass-the-device screen for ``seat``: no hand, no move, nothing private to anybody."""
    assert s.table.value == controls.handover_html(seat)
    assert s.move_box.children == (s.handover_button,)
    assert s.handover_button.description == f"I am seat {seat}: show my cards"
    assert s.move_buttons == []
    assert s.viewpoint.value == "table" and s.viewpoint.disabled
    assert leaked(s, None) == []


def assert_seat_view(s: Stepper, seat: int) -> None:
    """Seat ``seat``'s screen: its own view of the table and, if it is to move, its moves."""
    g = s.game
    assert s.viewpoint.value == f"seat {seat}" and s.viewpoint.disabled
    assert s.table.value == page_table(g, viewpoint=seat)
    if g.current_player == seat and s.controller.pending is None:
        assert s.shown_moves == [m.text for m in g.legal_moves()]
        assert s.handover_button not in s.move_box.children
    assert leaked(s, seat) == []


@pytest.mark.parametrize("values", [False, True], ids=["plain", "move-values"])
@pytest.mark.parametrize("name", cardlab.game_names())
def test_two_human_seats_pass_the_device_and_never_see_each_others_cards(name: str, values: bool) -> None:
    """With ``values`` the move-values panel is on: it shows the holder's own values (computed from its seat:
    the same as from any world it cannot tell apart, see tests/viz/test_move_values_panel.py), and while the
    device is passed no value, no figure, no move (the page keeps a figure's state even when it is not shown)."""
    s = Stepper(name, players=2, seed=5, policies=["human", "human"], move_values=values, move_rollouts=8, **FAST)
    rng = np.random.default_rng(16)
    handovers = 0
    private_seen = 0
    valued = 0
    holder: int | None = None
    for _ in range(60):
        g = s.game
        if g.is_over:
            break
        mover = g.current_player
        if mover != holder:
            assert_covered(s, mover)
            assert s.shown_move_values is None and s.moves_fig["data"] == []
            assert s.moves_plot not in s._moves_panel.box.children
            if values:
                assert s.move_numbers() == f"Move values are hidden while the device is passed to seat {mover}."
            s.handover_button.click()
            holder = mover
            handovers += 1
        assert_seat_view(s, mover)
        mv = s.shown_move_values
        if mv is not None:   # a choice: the holder's own moves, valued for the holder
            assert values and mv.seat == mover and mv.viewpoint == mover
            assert [v.move.text for v in mv.values] == list(dict.fromkeys(m.text for m in g.legal_moves()))
            valued += 1
        private_seen += bool(secrets(g, None) - secrets(g, mover))  # the seat sees cards others do not
        button = s.move_buttons[int(rng.integers(len(s.move_buttons)))]
        button.click()
        assert s.last_error is None, s.last_error
        if not s.game.is_over and s.game.current_player == holder:
            assert_seat_view(s, holder)  # the same player moves on: no handover
    assert handovers >= 4
    assert (valued >= 2) == values
    # a game with private hands showed some of them (Garbage has none: its hidden cards are hidden from everybody)
    assert (private_seen > 0) == private_hands(name)


def test_a_bot_between_two_people_plays_on_the_screen_of_the_last_one() -> None:
    s = Stepper("shithead", players=3, seed=2, policies=["human", "greedy", "human"], **FAST)
    rng = np.random.default_rng(3)
    bot_turns = 0
    holder: int | None = None
    for _ in range(45):
        g = s.game
        if g.is_over:
            break
        mover = g.current_player
        if mover == 1:
            assert s.move_box.children == () and s.move_buttons == []
            assert holder is not None and s.viewpoint.value == f"seat {holder}"
            assert leaked(s, holder) == []
            s.next_button.click()
            bot_turns += 1
            assert leaked(s, holder) == []
            continue
        if mover != holder:
            assert_covered(s, mover)
            s.handover_button.click()
            holder = mover
        assert_seat_view(s, mover)
        s.move_buttons[int(rng.integers(len(s.move_buttons)))].click()
        assert s.last_error is None, s.last_error
    assert bot_turns >= 3


def test_back_passes_the_device_back_and_a_new_deal_starts_covered() -> None:
    s = Stepper("spite-and-malice", seed=4, first="seat0", policies=["human", "human"], **FAST)
    s.take_device()
    assert_seat_view(s, 0)
    while s.game.current_player == 0:
        s.move_buttons[-1].click()  # the last move ends the turn (a discard) in Spite and Malice
        assert s.last_error is None
    assert_covered(s, 1)
    s.take_device()
    assert_seat_view(s, 1)
    s.back()
    assert s.game.current_player == 0
    assert_covered(s, 0)
    s.new_deal()
    assert_covered(s, s.game.current_player)


def test_the_device_cannot_be_taken_by_a_bot_seat() -> None:
    s = Stepper("shithead", players=2, seed=1, policies=["greedy", "greedy"], **FAST)
    before = s.game.state.to_data()
    s.take_device()
    assert s.last_error is not None and "no human seat" in s.last_error
    assert s.game.state.to_data() == before and s.viewpoint.value == "table" and not s.viewpoint.disabled


def test_one_human_seat_shows_its_moves_only_in_its_own_view() -> None:
    s = Stepper("spite-and-malice", seed=4, first="seat0", policies=["human", "greedy"], **FAST)
    assert s.viewpoint.value == "seat 0" and not s.viewpoint.disabled  # one person: the menu stays free
    assert s.shown_moves == [m.text for m in s.game.legal_moves()]
    s.viewpoint.value = "seat 1"
    assert s.move_buttons == [] and s.move_box.children == (s.handover_button,)
    assert s.handover_button.description == "Show seat 0's cards and moves"
    assert leaked(s, 1) == []
    s.viewpoint.value = "table"
    assert s.move_buttons == [] and leaked(s, None) == []
    s.handover_button.click()
    assert s.viewpoint.value == "seat 0"
    assert s.shown_moves == [m.text for m in s.game.legal_moves()]
    s.viewpoint.value = "everything revealed"  # the teacher's view shows every card, the moves too
    assert s.shown_moves == [m.text for m in s.game.legal_moves()]


def test_the_viewpoint_menu_is_free_again_when_the_game_is_over_or_a_seat_becomes_a_bot() -> None:
    s = Stepper("garbage", players=2, seed=5, policies=["human", "human"], **FAST)
    assert s.viewpoint.disabled
    s.policies[1].value = "greedy"
    assert not s.viewpoint.disabled and s.move_box.children == (s.handover_button,)
    s.policies[1].value = "human"
    assert s.viewpoint.disabled
    rng = np.random.default_rng(0)
    for _ in range(400):
        if s.game.is_over:
            break
        if s.handover_button in s.move_box.children:
            s.take_device()
        s.move_buttons[int(rng.integers(len(s.move_buttons)))].click()
    assert s.game.is_over and not s.viewpoint.disabled
    assert s.move_buttons == [] and s.move_box.children == ()


def test_hot_seat_false_shows_one_screen_for_everybody() -> None:
    """A teacher's demonstration driven from code: two human seats, no cover screens, the viewpoint free."""
    s = Stepper("shithead", players=2, seed=5, policies=["human", "human"], hot_seat=False, **FAST)
    covered = Stepper("shithead", players=2, seed=5, policies=["human", "human"], **FAST)
    assert covered.handover_button in covered.move_box.children and covered.viewpoint.disabled
    for _ in range(6):
        assert not s.viewpoint.disabled
        assert "Pass the device" not in s.table.value
        s.play(s.game.legal_moves()[0])
        assert s.last_error is None, s.last_error
    s.close()
    covered.close()


@pytest.mark.parametrize("bad", [None, 1, "yes"])
def test_hot_seat_must_be_true_or_false(bad: Any) -> None:
    from cardlab.errors import InvalidInputError
    with pytest.raises(InvalidInputError, match="hot_seat"):
        Stepper("garbage", hot_seat=bad, **FAST)
