"""The stepper on every registered game, the toy game of ``tests/toy_game.py`` included: nothing here names a
game, so a game registered anywhere is dealt, stepped, taken back and viewed from a seat like the built-in ones.

Only the public :class:`~cardlab.viz.stepper.Stepper` API is used: its buttons and menus, ``game``, ``table``,
``quantities``, ``win_history`` and ``log_lines``."""

from __future__ import annotations

import numpy as np
import pytest

import cardlab
from cardlab.engine.registry import game_class
from cardlab.policies import choose, make_policy
from cardlab.sim.prob import panel_quantities
from cardlab.viz.stepper import POLICY_SALT, Stepper
from tests.conformance import assert_conserved
from tests.viz import page_table

SEED = 4
MOVES = 12


def greedy_move(game: cardlab.Game, seed: int = SEED) -> cardlab.Move:  # type: ignore[type-arg]
    """The move the stepper's greedy bot makes here, by the seeding rule the stepper documents."""
    rng = np.random.default_rng([seed, game.move_count, POLICY_SALT + game.current_player])
    return choose(make_policy("greedy", game.name, rng), game)


@pytest.mark.parametrize("name", cardlab.game_names())
def test_the_stepper_deals_steps_takes_back_and_shows_every_registered_game(name: str) -> None:
    players = max(2, game_class(name).min_players)
    s = Stepper(name, players=players, seed=SEED, rollouts=3, panel_rollouts=4)
    ref = cardlab.new_game(name, players=players, seed=SEED)
    assert s.game.name == name and s.game.state.to_data() == ref.state.to_data()
    assert s.table.value == page_table(ref, viewpoint=None)
    assert [p.move for p in s.win_history] == [0]
    for i in range(MOVES):
        if ref.is_over:
            break
        expected = greedy_move(ref)
        if i == 1:   # Step shows the move event by event; the last step completes it
            for _ in range(len(list(ref.stepwise(expected)))):
                if s.game.move_count > ref.move_count:
                    break
                s.step_button.click()
        else:
            s.next_button.click()
        ref.play(expected)
        assert s.message.value == ""
        assert s.game.moves == ref.moves and s.game.state.to_data() == ref.state.to_data()
        assert_conserved(s.game)
        assert s.table.value == page_table(ref, viewpoint=None)
        assert [p.move for p in s.win_history][-1] == ref.move_count
        # the panel asks the game's own questions: the same ones, and the same exact answers
        asked = panel_quantities(ref, None, rng=np.random.default_rng(0), rollouts=2)
        assert [(q.key, q.label, q.exact) for q in s.quantities] == [(q.key, q.label, q.exact) for q in asked]
    assert s.log_lines() == [e.describe(None) for e in ref.events]
    s.back_button.click()
    ref.undo()
    assert s.game.moves == ref.moves and s.game.state.to_data() == ref.state.to_data()
    s.viewpoint.value = "seat 0"
    assert s.table.value == page_table(ref, viewpoint=0)
    assert s.log_lines() == [e.describe(0) for e in ref.events]
    s.close()


def test_the_game_menu_offers_every_registered_game_and_deals_the_toy_game() -> None:
    """The stepper's game menu is read from the registry: the toy game is offered and dealt by New deal."""
    from tests.toy_game import NAME, HighCard

    s = Stepper(cardlab.game_names()[0], players=2, seed=SEED, rollouts=3, panel_rollouts=4)
    assert list(s.game_select.options) == cardlab.game_names()
    s.game_select.value = NAME
    s.new_deal_button.click()
    assert f"new deal: {HighCard.title}, 2 players" in s.message.value and s.game.name == NAME
    assert s.table.value == page_table(s.game, viewpoint=None)
    s.next_button.click()
    assert s.game.move_count == 1 and "new deal" not in s.message.value
    s.close()
