"""Twins through the adapters: two positions the player to move cannot tell apart (hidden cards moved among the
places the public record does not tell apart, packs swapped: :func:`tests.sim.chance_checks.twin`) must give
that player identical observations in the PettingZoo environment and in the OpenSpiel game, and identical
decisions of OpenSpiel's Python ISMCTS with the same seeds (its resampler draws from the game's chance law)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.sim.move_values import distinct_moves
from tests.arenas.conftest import need
from tests.sim import chance_checks as cc

POSITIONS = 8


def twin_pairs(name: str) -> list[tuple[cardlab.Game[Any], cardlab.Game[Any]]]:
    seeds, every, options = cc.checks_for(name).choices   # each game's checks say where its choices are
    positions = [g for g in cc.sample_positions(name, 2, seeds, every, **options)
                 if len(distinct_moves(g.legal_moves())) >= 2][:POSITIONS]
    return [(g, cc.twin(g, g.current_player, np.random.default_rng(k))) for k, g in enumerate(positions)]


@pytest.mark.parametrize("name", cardlab.game_names())
def test_twins_get_identical_observations_and_ismcts_decisions_in_both_adapters(name: str) -> None:
    need("pettingzoo")
    need("pyspiel")
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import cardlab.arenas.openspiel as ao
    from cardlab.arenas.pettingzoo import env

    ao.register(name)
    pairs = twin_pairs(name)
    options = pairs[0][0].options
    game = pyspiel.load_game(ao.short_name(name), {k: v for k, v in options.items()
                                                    if isinstance(v, ao.PARAM_TYPES)})
    e, f = env(name, 2, **options), env(name, 2, **options)
    differ = 0
    for k, (g, t) in enumerate(pairs):
        mover = g.current_player
        differ += cc.state_faces(t.state) != cc.state_faces(g.state)
        # PettingZoo: the mover's observation and action mask
        e.load(g)
        f.load(t)
        agent = f"player_{mover}"
        assert e.agent_selection == f.agent_selection == agent
        a, b = e.observe(agent), f.observe(agent)
        assert np.array_equal(a["observation"], b["observation"]), (name, k)
        assert np.array_equal(a["action_mask"], b["action_mask"]), (name, k)
        # OpenSpiel: the mover's observation, information state and legal actions
        s, u = game.state_of(g), game.state_of(t)
        assert s.observation_tensor(mover) == u.observation_tensor(mover), (name, k)
        assert s.observation_string(mover) == u.observation_string(mover), (name, k)
        assert s.information_state_string(mover) == u.information_state_string(mover), (name, k)
        assert s.legal_actions() == u.legal_actions(), (name, k)
        # the Python ISMCTS, seeded alike, resampling from the chance law
        picks = []
        for state in (s, u):
            bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(k)), uct_c=2.0,
                                   max_simulations=12, random_state=np.random.RandomState(k))
            rng = np.random.default_rng(k)
            bot.set_resampler(lambda st, p, rng=rng: st.resample(p, rng))
            picks.append(bot.step_with_policy(state))
        assert picks[0] == picks[1], (name, k)
    assert len(pairs) >= 5
    assert differ >= len(pairs) // 2   # the twins really hold other hidden cards
