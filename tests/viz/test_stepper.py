"""Headless tests of ``cardlab.Stepper``: buttons are clicked and selectors changed as a browser would.

Each test checks three things against an independent computation: the engine state (replayed on a
separate game), the rendered HTML (``table_html`` of that game, or the card drawn at a spot), and the
numbers in the Plotly traces (``win_probability`` / ``panel_quantities`` with the documented seeds).
"""

from __future__ import annotations

import html
import re
import zlib
from typing import Any

import ipywidgets as widgets
import numpy as np
import pytest

import cardlab
from cardlab.engine.game import Game
from cardlab.errors import CardlabError, InvalidInputError, UnknownGameError
from cardlab.policies import choose, make_policy
from cardlab.sim.prob import panel_quantities, win_probability
from cardlab.viz import estimates as estimates_module
from cardlab.viz import stepper as stepper_module
from cardlab.viz.information import canonical_code
from cardlab.viz.panels import CURVE_OFFSET, MAX_SEATS, bar_text, seat_label, wrap_label
from cardlab.viz.stepper import POLICY_SALT, Stepper
from tests.conformance import assert_conserved
from tests.viz import ManualClock, card_elements, one_card, page_table

SEED = 3
FAST = {"rollouts": 3, "panel_rollouts": 4}
BUTTONS = {"Step", "Next move", "Back", "Autoplay", "Play to the end", "Reset", "New deal"}

# Garbage deal order: seat 0 gets spots A..10, then seat 1, then the stock, top card first.
# Seat 0 draws the 3♥, which goes to spot 3 and turns up the 5♣, which goes to spot 5 and turns up
# the K♦, which cannot be placed: a chain of two placements.
CHAIN_SEAT0 = ["2S", "4H", "5C", "6D", "KD", "7C", "8H", "9S", "10D", "AS"]
CHAIN_SEAT1 = ["2D", "4S", "6C", "7H", "8D", "9C", "10S", "AD", "QH", "QS"]
CHAIN_DECK = CHAIN_SEAT0 + CHAIN_SEAT1 + ["3H"]


def descendants(w: Any) -> list[Any]:
    out = [w]
    for child in getattr(w, "children", ()):
        out.extend(descendants(child))
    return out


def bot_move(game: Game[Any], name: str, seed: int = SEED) -> cardlab.Move:
    """The move the stepper's bot ``name`` makes here, by the seeding rule the stepper documents."""
    seat = game.current_player
    rng = np.random.default_rng([seed, game.move_count, POLICY_SALT + seat])
    return choose(make_policy(name, game.name, rng), game)


def check_win_chart(s: Stepper) -> None:
    """The chart's traces hold exactly the numbers of ``win_history``."""
    moves = [p.move for p in s.win_history]
    for seat in range(s.game.players):
        line = s.win_fig.data[2 * seat + 1]
        band = s.win_fig.data[2 * seat]
        assert list(line.x) == moves
        assert list(line.y) == [p.estimates[seat].value for p in s.win_history]
        assert list(band.y) == ([p.estimates[seat].high for p in s.win_history]
                                + [p.estimates[seat].low for p in s.win_history][::-1])


def check_panel(s: Stepper, expected: list[Any]) -> None:
    """The per-game figure holds ``expected`` quantities: exact bars, estimate bars, and curves. A quantity that
    does not apply gets no bar, only its row's words ("not applicable: ...")."""
    data = s.panel_fig.data
    exact = [q for q in expected if q.is_exact and q.is_applicable]
    bars = {wrap_label(seat_label(q)): q for q in expected
            if q.is_applicable and not q.is_exact and not q.key.startswith("complete_")}
    assert list(data[0].y) == [wrap_label(seat_label(q)) for q in exact]
    assert list(data[0].x) == [q.value for q in exact]
    assert all("(exact)" in t for t in data[0].text)
    assert list(data[1].y) == list(bars)
    assert list(data[1].x) == [q.value for q in bars.values()]
    assert list(data[1].error_x.array) == pytest.approx([q.high - q.value for q in bars.values()])
    for q, text in zip(bars.values(), data[1].text, strict=True):
        assert f"{q.n} play-outs" in text or (q.n == 0 and "settled" in text)
    assert list(data[2].text) == [bar_text(q) for q in expected if q.is_exact or not q.key.startswith("complete_")]
    curves = [[q for q in expected if q.key.startswith("complete_") and q.seat == seat and q.is_applicable]
              for seat in range(s.game.players)]
    if any(curves):
        for seat, curve in enumerate(curves):
            assert list(data[CURVE_OFFSET + seat].x) == [int(q.key.split("_")[1]) for q in curve]
            assert list(data[CURVE_OFFSET + seat].y) == [q.value for q in curve]
    else:
        assert all(list(data[CURVE_OFFSET + seat].y) == [] for seat in range(MAX_SEATS))


def test_buttons_have_the_names_the_browser_test_looks_for() -> None:
    s = Stepper("garbage", players=2, seed=SEED, **FAST)
    names = {w.description for w in descendants(s.box) if isinstance(w, (widgets.Button, widgets.ToggleButton))}
    assert BUTTONS <= names
    assert s.autoplay_button in descendants(s.box) and s.speed in descendants(s.box)
    # one play control: no ipywidgets.Play (a second play/stop pair) beside the Autoplay button
    assert not [w for w in descendants(s.box) if isinstance(w, widgets.Play)]
    assert s.win_plot in descendants(s.box) and s.panel_plot in descendants(s.box)
    assert "Move 0" in s.counter.value


def test_the_counter_carries_who_moves_and_who_plays_each_seat_in_one_value() -> None:
    """The browser tests act on these attributes: they must change with the seat menu and the moves."""
    s = Stepper("garbage", players=2, seed=SEED, **FAST)

    def attributes() -> dict[str, str]:
        return dict(re.findall(r'data-(game|move|mover|seats)="([^"]*)"', s.counter.value))

    assert attributes() == {"game": "garbage", "move": "0", "mover": str(s.game.current_player),
                            "seats": "greedy,greedy"}
    s.policies[1].value = "human"
    assert attributes()["seats"] == "greedy,human"
    while s.game.current_player == 0 and not s.game.is_over:
        s.next_button.click()
    assert attributes() == {"game": "garbage", "move": str(s.game.move_count), "mover": "1",
                            "seats": "greedy,human"}
    assert f"Move {s.game.move_count}" in s.counter.value


@pytest.mark.parametrize("name", cardlab.game_names())
def test_opening_position_is_drawn_from_the_table_view(name: str) -> None:
    s = Stepper(name, players=2, seed=SEED, **FAST)
    ref = cardlab.new_game(name, players=2, seed=SEED)
    assert s.game.state.to_data() == ref.state.to_data()
    assert s.table.value == page_table(ref, viewpoint=None)
    assert list(s.viewpoint.options) == ["table", "seat 0", "seat 1", "everything revealed"]
    assert [dd.description for dd in s.policies] == ["seat 0", "seat 1"]
    assert s.message.value == ""
    check_win_chart(s)
    assert [p.move for p in s.win_history] == [0]


@pytest.mark.parametrize("name", cardlab.game_names())
def test_next_move_plays_the_bot_move_and_refreshes_every_panel(name: str) -> None:
    s = Stepper(name, players=2, seed=SEED, **FAST)
    ref = cardlab.new_game(name, players=2, seed=SEED)
    for i in range(3):
        expected_move = bot_move(ref, "greedy")
        s.next_button.click()
        ref.play(expected_move)
        assert s.message.value == ""
        assert s.game.moves == ref.moves
        assert s.game.state.to_data() == ref.state.to_data()
        assert s.table.value == page_table(ref, viewpoint=None)
        assert f"Move {i + 1}" in s.counter.value
        # the newest point: the documented seed, the stepper's rollout count
        rng = np.random.default_rng([SEED, i + 1, 0, stepper_module.WIN_PURPOSE])
        assert s.win_history[-1].estimates == tuple(win_probability(ref, None, rollouts=s.rollouts, rng=rng))
        check_win_chart(s)
        rng = np.random.default_rng([SEED, i + 1, 0, stepper_module.PANEL_PURPOSE])
        expected = panel_quantities(ref, None, rng=rng, rollouts=s.panel_rollouts)
        assert s.quantities == expected
        check_panel(s, expected)
    # the log explains each event in plain words, newest first
    newest = html.escape(ref.events[-1].describe(None))
    assert newest in s.log.value and s.log.value.index(newest) < s.log.value.index(html.escape(ref.events[0].text))
    assert s.log_lines() == [e.describe(None) for e in ref.events]


def test_step_unrolls_a_garbage_chain_card_by_card() -> None:
    s = Stepper("garbage", players=2, seed=SEED, deck=CHAIN_DECK, **FAST)
    assert one_card(s.table.value, data_spot="seat0-3").get("data-facedown") == "1"
    s.step_button.click()  # seat 0 draws the 3♥
    assert s.game.move_count == 0 and "event 1 of 5" in s.counter.value
    assert one_card(s.table.value, data_zone="held")["data-card"] == "3H"
    assert "draws 3♥" in s.log.value
    s.step_button.click()  # the 3♥ goes to spot 3 and turns up the 5♣
    assert one_card(s.table.value, data_spot="seat0-3")["data-card"] == "3H"
    assert one_card(s.table.value, data_zone="held")["data-card"] == "5C"
    s.step_button.click()  # the 5♣ goes to spot 5 and turns up the K♦
    assert one_card(s.table.value, data_spot="seat0-5")["data-card"] == "5C"
    assert one_card(s.table.value, data_zone="held")["data-card"] == "KD"
    assert s.game.move_count == 0 and s.game.state.to_data() == cardlab.new_game(
        "garbage", players=2, seed=SEED, deck=CHAIN_DECK).state.to_data()
    s.step_button.click()  # the K♦ is discarded
    assert one_card(s.table.value, data_zone="discard")["data-card"] == "KD"
    assert s.game.move_count == 0
    s.step_button.click()  # seat 1 to play: the move is complete and committed
    assert s.game.move_count == 1 and s.game.moves[0].text == "draw stock"
    assert "Move 1" in s.counter.value and "event" not in s.counter.value
    assert [p.move for p in s.win_history] == [0, 1]
    ref = cardlab.new_game("garbage", players=2, seed=SEED, deck=CHAIN_DECK).play_all(["draw stock"])
    assert s.table.value == page_table(ref)


def test_back_abandons_a_move_being_stepped_and_next_move_finishes_one() -> None:
    s = Stepper("garbage", players=2, seed=SEED, deck=CHAIN_DECK, **FAST)
    opening = s.table.value
    s.step()
    s.step()
    s.back()
    assert s.game.move_count == 0 and s.table.value == opening
    assert "abandoned" in s.message.value
    s.step()
    s.next_move()  # finishes the stepped move, no more
    assert s.game.moves[0].text == "draw stock" and s.game.move_count == 1


@pytest.mark.parametrize("name", cardlab.game_names())
def test_back_after_autoplay_restores_the_previous_position(name: str) -> None:
    s = Stepper(name, players=2, seed=SEED, **FAST)
    s.autoplayer.later = clock = ManualClock()
    s.autoplay_button.value = True
    assert s.autoplayer.playing is True  # the button starts the kernel's ticks
    for _ in range(6):
        assert clock.run_one()
    assert s.game.move_count == 6
    history = list(s.win_history)
    ref = cardlab.new_game(name, players=2, seed=SEED).play_all(s.game.moves[:5])
    s.autoplay_button.value = False
    s.back_button.click()
    assert s.game.move_count == 5
    assert s.game.state.to_data() == ref.state.to_data()
    assert s.table.value == page_table(ref)
    assert "took back" in s.message.value
    # the history is cut back, from the cache: the same numbers as before
    assert s.win_history == history[:6]
    check_win_chart(s)
    s.next_button.click()  # a seeded bot replays the move it made before
    assert s.game.moves == cardlab.new_game(name, players=2, seed=SEED).play_all(s.game.moves).moves
    assert s.win_history == history[:7]


def test_autoplay_stops_at_the_end_of_the_game() -> None:
    s = Stepper("garbage", players=2, seed=SEED, **FAST)
    s.autoplayer.later = clock = ManualClock()
    s.start_autoplay()
    ticks = 0
    while clock.run_one() and ticks < 500:
        ticks += 1
    assert s.game.is_over and s.autoplayer.playing is False and s.autoplay_button.value is False
    assert "game over" in s.counter.value
    assert "Autoplay stopped: the game is over" in s.message.value and clock.pending() == 0
    moves = s.game.move_count
    assert s.autoplay_tick() is not None
    assert s.game.move_count == moves


def test_speed_slider_sets_the_autoplay_interval() -> None:
    s = Stepper("garbage", players=2, seed=SEED, **FAST)
    s.speed.value = 4.0
    assert s.autoplayer.interval == 0.25
    s.speed.value = 0.5
    assert s.autoplayer.interval == 2.0


@pytest.mark.parametrize("name", cardlab.game_names())
def test_switching_the_viewpoint_mid_game_redraws_table_and_history(name: str) -> None:
    s = Stepper(name, players=2, seed=SEED, **FAST)
    for _ in range(4):
        s.next_move()
    table_history = list(s.win_history)
    s.viewpoint.value = "seat 1"
    assert s.table.value == page_table(s.game, viewpoint=1)
    assert [p.move for p in s.win_history] == [0, 1, 2, 3, 4]
    # every point was recomputed for seat 1 (past ones with the smaller history budget), except where seat 1 knew
    # what the table knew: those are the table's own points (cardlab.viz.information)
    ref = cardlab.new_game(name, players=2, seed=SEED)
    for i, point in enumerate(s.win_history):
        code = canonical_code(ref, 2)
        if code == 0:
            assert point == table_history[i]
        else:
            n = s.rollouts if i == 4 else s.history_rollouts
            rng = np.random.default_rng([SEED, i, 2, stepper_module.WIN_PURPOSE])
            assert code == 2 and point.estimates == tuple(win_probability(ref, 1, rollouts=n, rng=rng))
        if i < 4:
            ref.play(s.game.moves[i])
    check_win_chart(s)
    assert "seat 1" in s.win_fig.layout.title.text
    code = canonical_code(s.game, 2)
    rng = np.random.default_rng([SEED, 4, code, stepper_module.PANEL_PURPOSE])
    check_panel(s, panel_quantities(s.game, None if code == 0 else code - 1, rng=rng, rollouts=s.panel_rollouts))
    s.viewpoint.value = "everything revealed"
    assert s.table.value == page_table(s.game, viewpoint=None, reveal_all=True)
    assert "everything revealed" in s.table.value
    assert s.win_history == table_history  # estimates for "everything revealed" use the table's view
    s.viewpoint.value = "table"
    assert s.table.value == page_table(s.game, viewpoint=None)
    assert s.game.move_count == 4


def test_seat_view_shows_own_hand_and_hides_the_other() -> None:
    s = Stepper("shithead", players=2, seed=SEED, **FAST)
    hand0 = {c.code for c in s.game.state.hands[0]}
    hand1 = {c.code for c in s.game.state.hands[1]}
    s.viewpoint.value = "seat 0"
    shown = {c["data-card"] for c in card_elements(s.table.value) if "data-card" in c}
    assert hand0 <= shown and not (hand1 & shown)
    s.viewpoint.value = "table"
    shown = {c["data-card"] for c in card_elements(s.table.value) if "data-card" in c}
    assert not (hand0 & shown) and not (hand1 & shown)


@pytest.mark.parametrize("name", cardlab.game_names())
def test_a_student_plays_seat_0_by_clicking(name: str) -> None:
    s = Stepper(name, players=2, seed=SEED, policies=["human", "greedy"], **FAST)
    assert s.viewpoint.value == "seat 0"  # a human seat sees its own cards
    rng = np.random.default_rng(5)
    clicked: list[str] = []
    for _ in range(12):
        if s.game.is_over:
            break
        if s.game.current_player == 0:
            legal = [m.text for m in s.game.legal_moves()]
            assert s.shown_moves == legal
            before = s.game.state.to_data()
            s.next_button.click()  # no bot moves for a human seat
            assert s.game.state.to_data() == before and "human" in s.message.value
            assert s.autoplay_tick() is None  # autoplay waits too
            assert s.game.state.to_data() == before and "waits" in s.message.value
            pick = int(rng.integers(len(s.move_buttons)))
            button = s.move_buttons[pick]
            clicked.append(s.shown_moves[pick])
            assert button.tooltip == f"seat 0: {clicked[-1]}"
            moves_before = s.game.move_count
            button.click()
            assert s.game.move_count == moves_before + 1
            assert s.game.moves[-1].text == clicked[-1]
            assert s.message.value == ""
        else:
            assert s.move_buttons == []
            s.next_button.click()
        assert s.table.value == page_table(s.game, viewpoint=0)
    ref = cardlab.new_game(name, players=2, seed=SEED)
    human = []
    for m in s.game.moves:
        if ref.current_player == 0:
            human.append(m.text)
        else:
            assert m == bot_move(ref, "greedy")
        ref.play(m)
    assert human == clicked and clicked


def test_move_buttons_follow_the_position_and_a_withdrawn_one_is_refused() -> None:
    deck = CHAIN_SEAT0 + CHAIN_SEAT1 + ["JH"]  # seat 0 draws a wild Jack
    s = Stepper("garbage", players=2, seed=SEED, deck=deck, policies=["human", "human"], **FAST)
    s.handover_button.click()  # hot-seat play: seat 0 takes the device
    s.move_buttons[0].click()
    assert s.game.moves[0].text == "draw stock"
    shown = dict(zip(s.shown_moves, s.move_buttons, strict=True))
    assert list(shown) == [f"jack to {k}" for k in ("A", *map(str, range(2, 11)))] + ["discard"]
    first, last_jack = shown["jack to A"], shown["jack to 10"]
    shown["discard"].click()  # seat 1 is now to draw: fewer moves
    s.handover_button.click()
    assert s.shown_moves == [m.text for m in s.game.legal_moves()]
    assert first.description == "draw stock"  # a button always shows the move it plays
    before = (s.game.state.to_data(), s.game.moves)
    last_jack.click()  # a button no longer on show, clicked all the same
    assert "no longer offered" in s.message.value
    assert (s.game.state.to_data(), s.game.moves) == before


def test_an_error_in_a_callback_shows_a_message_and_leaves_the_game_unchanged(
        monkeypatch: pytest.MonkeyPatch) -> None:
    s = Stepper("garbage", players=2, seed=SEED, **FAST)
    s.next_move()
    before = (s.game.state.to_data(), s.game.moves, s.table.value)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("panel failure")

    monkeypatch.setattr(estimates_module, "panel_quantities", broken)
    s.next_button.click()  # the move is played, then the panel fails: the move is taken back
    assert "something went wrong" in s.message.value and "panel failure" in s.message.value
    assert "Traceback" not in s.message.value
    assert s.last_error is not None and "panel failure" in s.last_error
    assert (s.game.state.to_data(), s.game.moves, s.table.value) == before
    s.back_button.click()  # the deal's numbers are cached, so Back needs no panel computation
    assert s.game.move_count == 0 and "took back" in s.message.value
    s.next_button.click()  # the same seeded move again: cached too
    assert (s.game.state.to_data(), s.game.moves) == before[:2] and s.message.value == ""
    monkeypatch.undo()
    s.next_button.click()
    assert s.message.value == "" and s.game.move_count == 2 and s.last_error is None


def test_a_policy_that_cheats_is_reported_not_played() -> None:
    def cheat(view: Any, legal: Any) -> str:
        return "jack to 11"

    s = Stepper("garbage", players=2, seed=SEED, policies=[cheat, "greedy"], **FAST)
    assert s.policies[0].value == "custom"
    s.next_move()
    assert "illegal move" in s.message.value and s.game.move_count == 0
    assert s.last_error is not None and "jack to 11" in s.last_error


@pytest.mark.parametrize("name", cardlab.game_names())
def test_a_policy_that_fails_is_reported_with_seat_seed_and_move(name: str) -> None:
    """A student's policy that raises, or takes the wrong arguments: the widget says which seat failed, at which
    move of which seeded deal, and the student's error, never a traceback; the game is unchanged."""
    def broken(view: Any, legal: Any) -> Any:
        return 1 / 0

    def one_argument(view: Any) -> Any:
        return view

    for policy, what in ((broken, "raised ZeroDivisionError: division by zero"),
                         (one_argument, "cannot be called as policy(view, legal_moves) (TypeError: ")):
        s = Stepper(name, players=2, seed=SEED, policies=["greedy", policy], **FAST)
        while s.game.current_player != 1:
            s.next_move()    # seat 0, greedy
        before = (s.game.state.to_data(), s.game.moves)
        s.next_move()    # seat 1's policy fails
        assert s.last_error is not None and "Traceback" not in s.message.value
        assert s.last_error.startswith(f"the policy of seat 1 ({policy.__name__}) {what}")
        assert f"at move {len(before[1])} of cardlab.new_game({name!r}, players=2, seed={SEED}" in s.last_error
        assert html.escape(s.last_error) in s.message.value
        assert (s.game.state.to_data(), s.game.moves) == before


def test_back_at_the_deal_and_reset() -> None:
    s = Stepper("garbage", players=2, seed=SEED, **FAST)
    s.back()
    assert "nothing to take back" in s.message.value and s.game.move_count == 0
    for _ in range(3):
        s.next_move()
    s.reset_button.click()
    assert s.game.move_count == 0
    assert s.game.state.to_data() == cardlab.new_game("garbage", players=2, seed=SEED).state.to_data()
    assert [p.move for p in s.win_history] == [0]


def test_new_deal_uses_the_selectors_and_moves_the_seed_on_when_unchanged() -> None:
    s = Stepper("garbage", players=2, seed=SEED, **FAST)
    s.next_move()
    s.new_deal_button.click()
    assert s.seed_select.value == SEED + 1 and s.game.move_count == 0
    assert s.game.state.to_data() == cardlab.new_game("garbage", players=2, seed=SEED + 1).state.to_data()
    s.game_select.value = "shithead"
    assert list(s.players_select.options) == [2, 3, 4, 5]
    s.players_select.value = 3
    s.seed_select.value = 9
    s.new_deal_button.click()
    assert s.game.name == "shithead" and s.game.players == 3 and s.seed_select.value == 9
    assert s.game.state.to_data() == cardlab.new_game("shithead", players=3, seed=9).state.to_data()
    assert len(s.policies) == 3 and "seat 2" in s.viewpoint.options
    assert [t.name for t in s.win_fig.data if t.showlegend is not False] == ["seat 0", "seat 1", "seat 2"]
    assert all(list(t.y) == [] for t in s.panel_fig.data[CURVE_OFFSET:])  # Shithead has no curves
    assert [p.move for p in s.win_history] == [0]
    check_win_chart(s)
    assert "new deal" in s.message.value


def test_constructor_accepts_a_game_and_refuses_bad_input() -> None:
    g = cardlab.new_game("shithead", players=3, seed=4)
    s = Stepper(g, **FAST)
    assert s.game is g and s.seed_select.value == 4 and len(s.policies) == 3
    with pytest.raises(InvalidInputError, match="deck cannot be given with an existing shithead game"):
        Stepper(g, deck=["AS"])
    with pytest.raises(UnknownGameError, match="'poker'"):
        Stepper("poker")
    with pytest.raises(InvalidInputError, match="rollouts=0"):
        Stepper("garbage", rollouts=0)
    with pytest.raises(InvalidInputError, match="one policy per seat"):
        Stepper("garbage", players=2, policies=["greedy"])
    with pytest.raises(InvalidInputError, match="'clever'"):
        Stepper("garbage", players=2, policies=["greedy", "clever"])


def test_four_colour_deck_reaches_the_table_and_a_bad_seed_is_refused() -> None:
    s = Stepper("garbage", players=2, seed=SEED, four_colour=True, **FAST)
    for _ in range(30):  # until a diamond or a club shows (the two decks differ only there)
        s.next_move()
        assert s.table.value == page_table(s.game, viewpoint=None, four_colour=True)
        if s.table.value != page_table(s.game, viewpoint=None):
            break
    assert s.table.value != page_table(s.game, viewpoint=None)
    s.seed_select.value = -4
    before = (s.game.state.to_data(), s.game.moves)
    s.new_deal_button.click()
    assert "seed=-4 is not allowed" in s.message.value
    assert (s.game.state.to_data(), s.game.moves) == before and s.seed_select.value == -4


def test_history_numbers_print_what_is_plotted() -> None:
    s = Stepper("garbage", players=2, seed=SEED, **FAST)
    s.next_move()
    rows = s.history_numbers().splitlines()
    assert rows[0].startswith("move") and len(rows) == 3
    first = s.win_history[1].estimates[0]
    assert rows[2].split()[1] == f"{first.value:.3f}"
    assert s.panel_numbers().splitlines()[0] == str(s.quantities[0])


def random_action(s: Stepper, rng: np.random.Generator, stale: list[widgets.Button]) -> str:
    """One of the things a student can do with the mouse; returns its name."""
    if s.handover_button in s.move_box.children and rng.random() < 0.6:
        s.handover_button.click()
        return "take device"
    if s.move_buttons and rng.random() < 0.6:
        button = s.move_buttons[int(rng.integers(len(s.move_buttons)))]
        stale.append(button)
        button.click()
        return "human move"
    r = rng.random()
    if r < 0.30:
        s.next_button.click()
        return "next"
    if r < 0.48:
        s.step_button.click()
        return "step"
    if r < 0.56:
        s.back_button.click()
        return "back"
    if r < 0.58:
        s.reset_button.click()
        return "reset"
    if r < 0.70:
        if rng.random() < 0.8:
            s.start_autoplay()
        else:
            s.stop_autoplay()
        s.autoplayer.fire()
        return "autoplay tick"
    if r < 0.76:
        s.viewpoint.value = s.viewpoint.options[int(rng.integers(len(s.viewpoint.options)))]
        return "viewpoint"
    if r < 0.82:
        dd = s.policies[int(rng.integers(len(s.policies)))]
        dd.value = dd.options[int(rng.integers(len(dd.options)))]
        return "policy"
    if r < 0.88:
        if stale:
            stale[int(rng.integers(len(stale)))].click()
        return "old button"
    if r < 0.91:
        s.speed.value = float(rng.choice([0.5, 1.0, 5.0, 10.0]))
        return "speed"
    if r < 0.94:
        s.autoplay_button.value = not s.autoplay_button.value
        return "autoplay button"
    if r < 0.96:
        s.game_select.value = str(rng.choice(cardlab.game_names()))
        s.players_select.value = s.players_select.options[int(rng.integers(len(s.players_select.options)))]
        return "game selectors"
    if r < 0.975:
        s.seed_select.value = int(rng.integers(0, 50))
        return "seed"
    s.new_deal_button.click()
    return "new deal"


@pytest.mark.parametrize("name", cardlab.game_names())
def test_a_click_storm_raises_nothing_and_loses_no_card(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # fewer points per history redraw keep the many viewpoint switches quick (and exercise the thinning)
    monkeypatch.setattr(estimates_module, "MAX_HISTORY_POINTS", 8)
    s = Stepper(name, players=2, seed=SEED, rollouts=1, panel_rollouts=1)
    rng = np.random.default_rng([2024, zlib.crc32(name.encode())])   # each game's own storm
    stale: list[widgets.Button] = []
    done: dict[str, int] = {}
    longest = 0
    for i in range(500):
        what = random_action(s, rng, stale)  # any exception here fails the test
        done[what] = done.get(what, 0) + 1
        longest = max(longest, s.game.move_count)
        assert_conserved(s.game)
        assert_conserved(s.shown_game)
        message = s.message.value
        assert "Traceback" not in message and "something went wrong" not in message, (i, what, message)
        assert f"Move {s.game.move_count}" in s.counter.value
        assert len(s.policies) == s.game.players
        assert s.win_history[-1].move == s.game.move_count
    check_win_chart(s)
    # the storm really went through the game: moves by bots and by hand, a new deal, a long line of play
    assert done["next"] > 50 and done["human move"] > 10, done
    assert done.get("new deal", 0) >= 1 and longest >= 15, (done, longest)


@pytest.mark.parametrize("bad", [{"seed": -1}, {"game": "poker"}, {"rollouts": 0}, {"hot_seat": "yes"},
                                 {"players": 7}])
def test_a_refused_stepper_leaves_no_widget_open(bad: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    """Bad input raises a cardlab error before any widget is made, so nothing is left open in the kernel."""
    opened: list[str] = []
    monkeypatch.setattr(widgets.Widget, "open", lambda self: opened.append(type(self).__name__))
    with pytest.raises(CardlabError):
        Stepper(**bad)  # type: ignore[arg-type]
    assert opened == []


def test_search_player_in_the_seat_menu_plays_what_search_chooses() -> None:
    """The seat menu offers the search player; a seat set to it plays the move the search policy picks from the
    seat's own generator (the stepper's seeded stream for that seat and move)."""
    from cardlab.policies import make_policy
    from cardlab.viz.controller import POLICY_SALT

    s = cardlab.Stepper("shithead", players=2, seed=4, **FAST)  # type: ignore[arg-type]
    assert "search" in s.policies[0].options
    s.policies[0].value = "search"
    for _ in range(12):
        if s.game.is_over:
            break
        seat = s.game.current_player
        expected = None
        if s.policies[seat].value == "search":
            rng = np.random.default_rng([s.deal_seed, s.game.move_count, POLICY_SALT + seat])
            policy = make_policy("search", "shithead", rng)
            expected = policy(s.game.observe(seat), s.game.legal_moves()) if not hasattr(policy, "decide") \
                else policy.decide(s.game)
        s.next_move()
        assert s.last_error is None
        if expected is not None:
            assert s.game.moves[-1].text == (expected if isinstance(expected, str) else expected.text)
