"""Controls that keep going: Autoplay plays to the end after any change of seats, says why it stops, and Play to the
end finishes a game in one click; for every registered game (the toy game of ``tests/toy_game.py`` included).

Autoplay is timed by the kernel's event loop (:mod:`cardlab.viz.autoplay`); here a :class:`ManualClock` stands in
for that loop, so each tick the stepper asks for is run by the test, in order."""

from __future__ import annotations

import ipywidgets as widgets
import pytest

import cardlab
from cardlab.engine.registry import game_class
from cardlab.viz.autoplay import Autoplayer
from cardlab.viz.stepper import Stepper
from tests.viz import ManualClock

FAST = {"rollouts": 2, "panel_rollouts": 2}
MOST_TICKS = 3000   # far more moves than any registered game takes (a test that reaches it fails)


def players_of(name: str) -> int:
    cls = game_class(name)
    return min(max(2, cls.min_players), cls.max_players)


def run_until_stopped(s: Stepper, clock: ManualClock) -> int:
    ticks = 0
    while s.autoplayer.playing and ticks < MOST_TICKS:
        assert clock.run_one(), "Autoplay is on but no tick is scheduled"
        ticks += 1
    return ticks


@pytest.mark.parametrize("name", cardlab.game_names())
def test_autoplay_plays_to_the_end_after_the_seats_are_switched_from_human_to_bots(name: str) -> None:
    players = players_of(name)
    s = Stepper(name, players=players, seed=2, policies=["human"] * players, **FAST)
    s.autoplayer.later = clock = ManualClock()
    s.autoplay_button.value = True                    # pressed while humans play: it waits, and says so
    assert clock.run_one() and s.game.move_count == 0 and "waits for seat" in s.message.value
    assert s.autoplayer.playing
    for dd in s.policies:                            # every seat handed to a bot, one at a time, while it runs
        dd.value = "greedy"
        assert s.autoplayer.playing and s.autoplay_button.value is True
    run_until_stopped(s, clock)
    assert s.game.is_over, f"Autoplay stopped at move {s.game.move_count}: {s.message.value}"
    assert s.autoplay_button.value is False and clock.pending() == 0
    assert s.autoplayer.reason.startswith("Autoplay stopped: the game is over")
    assert "Autoplay stopped: the game is over" in s.message.value
    ref = cardlab.new_game(name, players=players, seed=2)
    assert s.game.state.to_data() != ref.state.to_data() and s.game.move_count > 0


@pytest.mark.parametrize("name", cardlab.game_names())
def test_play_to_the_end_finishes_the_game_and_shows_the_result(name: str) -> None:
    players = players_of(name)
    s = Stepper(name, players=players, seed=5, **FAST)
    s.play_end_button.click()
    assert s.game.is_over and s.last_error is None
    assert "to the end" in s.message.value
    winner = s.game.winner
    said = "no winner" if winner is None else f"seat {winner} wins"
    assert f"Game over: {said}" in s.counter.value and "cl-banner" in s.counter.value
    # the game's panel shows the result in words instead of empty axes
    layout = s.panel_fig.layout
    assert any(said in a.text for a in layout.annotations) and layout.xaxis.visible is False
    assert layout.plot_bgcolor == "#ffffff"   # no empty grey plotting area behind the words
    s.back_button.click()                             # Back leaves the end: the banner and the words go
    assert not s.game.is_over and "cl-banner" not in s.counter.value
    assert not any(said in a.text for a in s.panel_fig.layout.annotations)


def test_play_to_the_end_stops_where_a_human_seat_is_to_move() -> None:
    s = Stepper("garbage", players=2, seed=3, policies=["greedy", "human"], **FAST)
    s.viewpoint.value = "table"
    s.play_end_button.click()
    assert not s.game.is_over and s.game.current_player == 1
    assert "seat 1 (human) is to move" in s.message.value


def test_stop_new_deal_and_a_failed_move_each_stop_autoplay_with_a_reason() -> None:
    s = Stepper("garbage", players=2, seed=3, **FAST)
    s.autoplayer.later = clock = ManualClock()
    s.start_autoplay()
    assert clock.run_one() and s.game.move_count == 1
    s.autoplay_button.value = False
    assert not s.autoplayer.playing and clock.pending() == 0 and "you pressed it" in s.message.value
    s.start_autoplay()
    s.new_deal_button.click()
    assert not s.autoplayer.playing and s.autoplayer.reason == "Autoplay stopped: a new deal"
    assert s.autoplay_button.description == "Autoplay" and s.autoplay_button.icon == "play"


def test_a_tick_that_raises_stops_autoplay_with_the_error() -> None:
    said: list[tuple[bool, str]] = []

    def broken() -> str | None:
        raise RuntimeError("no cards")

    clock = ManualClock()
    a = Autoplayer(broken, lambda playing, reason: said.append((playing, reason)), later=clock)
    a.start()
    assert clock.run_one()
    assert not a.playing and said == [(True, ""), (False, "Autoplay stopped: something went wrong "
                                                          "(RuntimeError: no cards)")]


def test_a_tick_left_from_a_stopped_run_plays_nothing() -> None:
    played: list[int] = []
    clock = ManualClock()
    a = Autoplayer(lambda: played.append(1) or None, lambda _p, _r: None, later=clock)
    a.start()
    stale = clock.waiting[0][1]
    a.stop("Stop")
    a.start()
    stale()                      # the first run's tick arrives after the restart: ignored
    assert played == []
    assert clock.run_one() and played == [1]


def test_the_play_button_is_one_named_toggle() -> None:
    s = Stepper("garbage", players=2, seed=3, **FAST)
    toggles = [w for w in s.box.children[1].children if isinstance(w, widgets.ToggleButton)]
    assert [t.description for t in toggles] == ["Autoplay"] and toggles[0].tooltip
