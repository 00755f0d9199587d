"""The PettingZoo environment of every registered game (the toy game too) under PettingZoo's own tests
(``api_test``, ``seed_test``, ``render_test``; not ``bombardment_test``, broken in PettingZoo 1.27.0), and the
promises PettingZoo does not check: deals follow cardlab's seeds, observations come from the agent's own view,
rewards are the game's result."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import cardlab
from cardlab.arenas.common import returns
from cardlab.arenas.encoding import ViewEncoder
from cardlab.arenas.moves import move_space
from tests.arenas.conftest import need, seat_counts

CASES = [(name, players) for name in cardlab.game_names() for players in seat_counts(name)]


@pytest.fixture(scope="module")
def pz() -> object:
    need("pettingzoo")
    from cardlab.arenas import pettingzoo

    return pettingzoo


@pytest.mark.parametrize(("name", "players"), CASES)
def test_pettingzoo_own_tests_pass(pz: object, name: str, players: int) -> None:
    from pettingzoo.test import api_test, render_test, seed_test

    make = functools.partial(pz.env, name, players)  # type: ignore[attr-defined]
    api_test(make(), num_cycles=200)
    seed_test(make, num_cycles=200)
    render_test(make)


def _play_random(e: object, rng: np.random.Generator) -> list[int]:
    actions = []
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, _, termination, truncation, _ = e.last()  # type: ignore[attr-defined]
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            actions.append(action)
        e.step(action)  # type: ignore[attr-defined]
        del agent
    return actions


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_reset_deals_the_packages_game_and_the_game_is_played_through_the_mask(pz: object, name: str,
                                                                                   players: int) -> None:
    e = pz.env(name, players)  # type: ignore[attr-defined]
    for seed in (3, 11):
        e.reset(seed=seed)
        game = cardlab.new_game(name, players, seed=seed)
        assert e.game.to_json() == game.to_json()
        space = move_space(name)
        encoder = ViewEncoder(game)
        rng = np.random.default_rng(seed)
        rewards = {a: 0.0 for a in e.possible_agents}
        for agent in e.agent_iter():
            obs, reward, termination, truncation, _ = e.last()
            rewards[agent] += reward
            seat = int(agent.split("_")[1])
            # the observation is the agent's own view of the game the package plays alongside
            assert np.array_equal(obs["observation"], encoder.encode(game.observe(seat)))
            if termination or truncation:
                e.step(None)
                continue
            legal = space.legal(game.legal_moves())
            assert seat == game.current_player
            assert np.flatnonzero(obs["action_mask"]).tolist() == list(legal)
            action = int(rng.choice(list(legal)))
            game.play(legal[action])
            e.step(action)
        assert game.is_over
        assert [rewards[a] for a in e.possible_agents] == returns(game)


def test_an_action_outside_the_mask_is_refused_and_the_game_is_unchanged(pz: object) -> None:
    e = pz.env("garbage", 2)  # type: ignore[attr-defined]
    e.reset(seed=5)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.game.to_json()
    with pytest.raises(cardlab.IllegalMoveError, match="not legal for player_"):
        e.step(illegal)
    assert e.game.to_json() == before


def test_bad_arguments_name_the_input(pz: object) -> None:
    with pytest.raises(cardlab.UnknownGameError, match="unknown game 'chess'"):
        pz.env("chess")  # type: ignore[attr-defined]
    with pytest.raises(cardlab.InvalidInputError, match="players=9"):
        pz.env("garbage", 9)  # type: ignore[attr-defined]
    with pytest.raises(cardlab.InvalidInputError, match="render_mode='rgb_array'"):
        pz.env("garbage", render_mode="rgb_array")  # type: ignore[attr-defined]


def test_a_game_cut_at_max_moves_is_truncated_with_no_reward(pz: object) -> None:
    e = pz.env("shithead", 2, max_moves=5)  # type: ignore[attr-defined]
    e.reset(seed=1)
    _play_random(e, np.random.default_rng(0))
    assert e.game.move_count == 5 and not e.game.is_over
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert e.agents == []


def test_an_ansi_render_shows_the_public_table_only(pz: object) -> None:
    e = pz.env("garbage", 2, render_mode="ansi")  # type: ignore[attr-defined]
    e.reset(seed=2)
    text = e.render()
    assert text.startswith("Garbage, 2 players, move 0, seat 0 to move")
    face_down = [str(c) for c in e.game.state.spots[0]]
    layouts = next(line for line in text.splitlines() if line.strip().startswith("layouts:"))
    assert "##" in layouts and not any(c in layouts for c in face_down)
