"""The stepper's move-values panel: every distinct legal move of the seat to move, valued from that seat's view.

Each test checks the panel against a computation made apart from the stepper: the moves against the game's
legal moves (distinct by their text: two packs' copies of a card read alike), the numbers against
:func:`~cardlab.sim.move_values.move_values` called with the seed the estimates document, and the mover's
viewpoint against twins (two games the mover cannot tell apart, other hidden cards: :func:`chance_checks.twin`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError
from cardlab.sim.move_values import move_values
from cardlab.viz import controls
from cardlab.viz.estimates import MOVE_PANEL_BUDGET, MOVE_PANEL_MAX, MOVE_PANEL_MIN, MOVES_PURPOSE
from cardlab.viz.information import same_information
from cardlab.viz.moves import BEST_COLOUR, OTHER_COLOUR
from cardlab.viz.stepper import Stepper
from tests.sim import chance_checks as cc

FAST = {"rollouts": 3, "panel_rollouts": 4, "move_rollouts": 24}


def distinct_texts(game: Game[Any]) -> list[str]:
    """The legal moves of the seat to move, each text once, in the engine's order."""
    return list(dict.fromkeys(m.text for m in game.legal_moves()))


def to_a_choice(s: Stepper, least: int = 1) -> None:
    """Next move until at least ``least`` moves were played and the seat to move has two or more moves."""
    while s.game.move_count < least or len(distinct_texts(s.game)) < 2:
        assert not s.game.is_over, "the game ended before a decision with a choice"
        s.next_move()
        assert s.last_error is None, s.last_error


def expected(s: Stepper) -> list[dict[str, Any]]:
    """The panel's records as documented: the mover's move values with ``default_rng([deal seed, move index,
    mover + 1, MOVES_PURPOSE])`` and the stepper's play-outs per move."""
    g = s.game
    rng = np.random.default_rng([s.deal_seed, g.move_count, g.current_player + 1, MOVES_PURPOSE])
    return move_values(g, rollouts=s.move_rollouts, rng=rng).records()


def bars(s: Stepper) -> tuple[list[str], list[float], list[str]]:
    """The bars the page draws: labels, lengths and colours."""
    trace, numbers = s.moves_fig["data"]
    # each bar carries its number, right of its interval
    assert list(numbers["text"]) == [f"{x:.3f}" for x in trace["x"]] and list(numbers["y"]) == list(trace["y"])
    return list(trace["y"]), list(trace["x"]), list(trace["marker"]["color"])


def assert_shows(s: Stepper) -> None:
    """The panel shows the mover's values: exactly its distinct legal moves, the documented numbers, the best
    bar marked, and the plot in the page."""
    g = s.game
    mv = s.shown_move_values
    assert mv is not None and mv.seat == g.current_player
    records = expected(s)
    assert [r["move"] for r in records] == distinct_texts(g)
    assert [v.record() for v in mv.values] == records
    records.sort(key=lambda r: -r["win"])   # shown best first
    assert records[0]["best"]
    labels, lengths, colours = bars(s)
    best = [k for k, r in enumerate(records) if r["best"]]
    assert len(best) == 1
    assert labels == [r["move"] + ("  (best)" if r["best"] else "") for r in records]
    assert lengths == pytest.approx([r["win"] for r in records])
    assert colours == [BEST_COLOUR if r["best"] else OTHER_COLOUR for r in records]
    assert s.moves_plot in s._moves_panel.box.children
    lines = s.move_numbers().splitlines()
    assert lines[0].startswith(f"Move values of seat {g.current_player} (to move), from its own information")
    assert len(lines) == 1 + len(records) and sum(line.startswith("*") for line in lines) == 1
    assert s._plain_text().endswith(s.move_numbers())


def assert_blank(s: Stepper, words: str) -> None:
    """No values: the sentence only, and an empty figure (the page keeps a hidden widget's state too)."""
    assert s.shown_move_values is None
    assert words in s.move_numbers()
    assert s.moves_fig["data"] == [] and s.moves_plot not in s._moves_panel.box.children


@pytest.mark.parametrize("name", cardlab.game_names())
def test_the_panel_shows_exactly_the_distinct_legal_moves_of_the_seat_to_move(name: str) -> None:
    s = Stepper(name, players=2, seed=4, move_values=True, **FAST)
    s.viewpoint.value = controls.REVEAL
    to_a_choice(s, least=3)
    assert_shows(s)
    # the numbers do not depend on the viewpoint that shows them: the mover's own is used
    numbers = s.move_numbers()
    s.viewpoint.value = f"seat {s.game.current_player}"
    assert s.move_numbers() == numbers
    s.close()


@pytest.mark.parametrize("name", cardlab.game_names())
def test_the_panel_follows_every_move_and_back(name: str) -> None:
    s = Stepper(name, players=2, seed=6, move_values=True, **FAST)
    s.viewpoint.value = controls.REVEAL
    to_a_choice(s)
    first, at = s.move_numbers(), s.game.move_count
    s.next_move()
    to_a_choice(s, least=at + 1)
    assert_shows(s)
    assert s.move_numbers() != first
    while s.game.move_count > at:
        s.back()
    assert_shows(s)
    assert s.move_numbers() == first   # the same position, the same seed: the same numbers
    s.reset()
    before = s.move_numbers()
    s.step()   # one event of a bot's move: the panel stays on the committed position
    if s.controller.pending is not None:
        assert s.move_numbers() == before
    s.close()


@pytest.mark.parametrize("name", cardlab.game_names())
def test_a_game_over_shows_no_values(name: str) -> None:
    s = Stepper(name, players=2, seed=2, move_values=True, **FAST)
    while not s.game.is_over:   # from the table's view: the panel values nothing on the way
        s.next_move()
        assert s.last_error is None, s.last_error
    s.viewpoint.value = controls.REVEAL
    assert_blank(s, "the game is over")
    assert "0." not in s.move_numbers()
    s.back()
    if len(distinct_texts(s.game)) >= 2:
        assert_shows(s)
    s.close()


@pytest.mark.parametrize("name", cc.games())
def test_twins_the_mover_cannot_tell_apart_show_the_same_panel(name: str) -> None:
    """Two games that look alike from the mover's seat but hold other hidden cards: the same panel, number for
    number, for the same deal seed. Values that read the real hidden cards would differ between the twins (that
    the mover's own view is the one used, not the table's, the other tests check against ``move_values``)."""
    options = cc.checks_for(name).choices[2]   # the options the game's checks play choices with
    pairs = differ = 0
    for seed in range(40):
        if pairs >= 6:
            break
        s = Stepper(name, players=2, seed=seed, **FAST, **options)   # type: ignore[arg-type]
        try:
            to_a_choice(s, least=4)
        except AssertionError:
            s.close()
            continue
        g = s.game.copy()
        s.close()
        mover = g.current_player
        t = cc.twin(g, mover, np.random.default_rng(seed))
        differ += cc.state_faces(t.state) != cc.state_faces(g.state)
        policies = ["human" if k == mover else "random" for k in range(2)]
        a = Stepper(g, seed=seed, policies=policies, move_values=True, **FAST)
        b = Stepper(t, seed=seed, policies=policies, move_values=True, **FAST)
        assert a.viewpoint.value == b.viewpoint.value == f"seat {mover}"
        assert a.shown_move_values is not None and a.shown_move_values.seat == mover
        assert a.move_numbers() == b.move_numbers()
        assert a.moves_fig == b.moves_fig
        assert_shows(a)
        a.close()
        b.close()
        pairs += 1
    assert pairs >= 6
    assert differ >= 3   # the twins really hold other hidden cards


def test_another_seats_view_shows_no_values_and_says_whose_they_would_be() -> None:
    s = Stepper("spite-and-malice", seed=4, first="seat0", policies=["human", "greedy"], move_values=True, **FAST)
    assert s.viewpoint.value == "seat 0" and s.game.current_player == 0
    assert_shows(s)
    for other in ("seat 1", controls.TABLE):
        s.viewpoint.value = other
        assert_blank(s, "Move values of seat 0 show only in a view that knows what seat 0 knows")
        assert not any(m.text in s._moves_panel.note.value for m in s.game.legal_moves())
    s.viewpoint.value = "seat 0"
    assert_shows(s)
    s.close()


def test_a_view_that_knows_what_the_mover_knows_shows_the_values() -> None:
    """Garbage: every layout card is face down to everybody, so the table knows what the mover knows (decided by
    comparing the views, :mod:`cardlab.viz.information`); the values show there, the same numbers."""
    s = Stepper("garbage", players=2, seed=4, move_values=True, **FAST)
    assert s.viewpoint.value == controls.TABLE
    while s.shown_move_values is None and not s.game.is_over:   # to the first choice (a draw has none)
        assert "nothing to choose" in s.move_numbers()
        s.next_move()
    assert same_information(s.game, None, s.game.current_player)
    assert_shows(s)
    shown = s.move_numbers()
    s.viewpoint.value = f"seat {1 - s.game.current_player}"
    assert s.move_numbers() == shown
    s.close()


def test_the_checkbox_and_the_method_switch_the_panel_and_the_text_output() -> None:
    s = Stepper("shithead", seed=3, policies=["human", "greedy"], **FAST)
    assert not s.move_values_on and not s.move_values_check.value
    assert s.move_numbers() == "" and s._plain_text() == "cardlab.Stepper('shithead', players=2, seed=3)"
    assert s._moves_panel.box.children == ()
    s.move_values_check.value = True   # as a click on "show move values" does
    assert s.move_values_on and s.last_error is None
    assert_shows(s)
    assert s._plain_text().startswith("cardlab.Stepper('shithead', players=2, seed=3, move_values=True)\n")
    still = s._still_html()
    assert all(r["move"] in still for r in expected(s))
    s.show_move_values(False)
    assert not s.move_values_check.value and s.move_numbers() == "" and s.moves_fig["data"] == []
    assert s._moves_panel.box.children == ()
    s.show_move_values()
    assert s.move_values_check.value
    assert_shows(s)
    s.close()


def test_the_panels_budget_is_shared_by_the_moves() -> None:
    s = Stepper("spite-and-malice", seed=4, first="seat0", policies=["human", "greedy"], move_values=True, rollouts=3,
                panel_rollouts=4)
    moves = len(distinct_texts(s.game))
    assert moves >= 2
    assert s.move_rollouts == min(MOVE_PANEL_MAX, max(MOVE_PANEL_MIN, MOVE_PANEL_BUDGET // moves))
    mv = s.shown_move_values
    assert mv is not None and mv.playouts == s.move_rollouts
    assert all(v.win.n == s.move_rollouts for v in mv.values)
    s.close()


@pytest.mark.parametrize("bad", [None, 1, "yes", [True]])
def test_move_values_must_be_true_or_false(bad: Any) -> None:
    with pytest.raises(InvalidInputError, match="move_values"):
        Stepper("garbage", move_values=bad, **FAST)


@pytest.mark.parametrize("bad", [0, -5, 2.5, "10", True, 10**9])
def test_move_rollouts_must_be_a_whole_number_of_play_outs(bad: Any) -> None:
    with pytest.raises(InvalidInputError, match="move_rollouts"):
        Stepper("garbage", move_values=True, rollouts=3, panel_rollouts=4, move_rollouts=bad)


def test_switching_with_bad_input_is_refused_and_changes_nothing() -> None:
    s = Stepper("garbage", seed=3, **FAST)
    before = s.game.state.to_data()
    with pytest.raises(InvalidInputError, match="True or False"):
        s.show_move_values("on")  # type: ignore[arg-type]
    assert not s.move_values_on and s.game.state.to_data() == before and s.move_numbers() == ""
    s.close()


def test_a_prediction_hides_the_move_values_with_the_plots_and_a_redraw_keeps_them() -> None:
    """The mover's best value is nearly its P(win): shown before the guess, it would give the answer away."""
    s = Stepper("garbage", seed=3, predict=True, move_values=True, **FAST)
    assert s.predictor is not None
    assert s._moves_panel.box in s.plots_box.children and s.plots_box.layout.visibility == "hidden"
    s.predictor.submit(0.5)
    assert s.plots_box.layout.visibility == "visible"
    s.redraw_plots()
    assert s.plots_box.children[0] is s._moves_panel.box and s.plots_box.children[1:] == s.plots
    s.close()
