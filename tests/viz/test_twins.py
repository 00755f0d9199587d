"""The same information gives the same numbers: viewpoints that know the same (twins) share their play-outs, so
switching between them changes no number in the stepper; viewpoints that know more or less keep their own."""

from __future__ import annotations

import cardlab
from cardlab.viz.information import canonical_code, information, same_information
from cardlab.viz.stepper import Stepper

FAST = {"rollouts": 40, "panel_rollouts": 40}


def test_garbage_table_and_seats_are_twins_and_switching_between_them_changes_nothing() -> None:
    s = Stepper("garbage", players=2, seed=3, **FAST)
    for _ in range(5):
        s.next_move()
    g = s.game
    assert same_information(g, None, 0) and same_information(g, 0, 1)   # every layout card is face down to all
    assert canonical_code(g, 1) == canonical_code(g, 2) == 0
    table = (list(s.win_history), s.panel_numbers())
    for view in ("seat 0", "seat 1", "table"):
        s.viewpoint.value = view
        assert (list(s.win_history), s.panel_numbers()) == table, view
    # the numbers are real estimates (not settled), so equality is the shared play-outs, not a coincidence
    assert any(0 < e.value < 1 and e.n > 0 for p in table[0] for e in p.estimates)


def test_twins_share_the_stream_even_when_the_twin_is_looked_at_first() -> None:
    a = Stepper("garbage", players=2, seed=7, **FAST)
    b = Stepper("garbage", players=2, seed=7, **FAST)
    b.viewpoint.value = "seat 0"
    for _ in range(3):
        a.next_move()
        b.next_move()
    assert a.win_history == b.win_history and a.panel_numbers() == b.panel_numbers()


def test_a_seat_that_knows_its_own_hand_is_no_twin_of_the_table() -> None:
    s = Stepper("shithead", players=2, seed=3, **FAST)
    g = s.game
    assert not same_information(g, None, 0) and not same_information(g, 0, 1)
    assert [canonical_code(g, c) for c in range(3)] == [0, 1, 2]
    table = list(s.win_history)
    s.viewpoint.value = "seat 0"
    assert list(s.win_history) != table   # other information, other play-outs


def test_information_leaves_out_only_whose_view_it_is() -> None:
    g = cardlab.new_game("spite-and-malice", seed=2)
    assert information(g, 0) != information(g, None)          # seat 0 sees its hand
    assert information(g, 0) == information(g.copy(), 0)
    assert getattr(information(g, 1), "seat", "none") is None
