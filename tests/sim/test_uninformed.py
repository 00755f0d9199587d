"""The ``uninformed`` players of every registered game: legal, and repeated with the seed.

That a game's uninformed player is uniform over its hand slots where the chance law says so is that game's own
test (``tests/games/<game>/test_uninformed.py``)."""

from __future__ import annotations

import numpy as np
import pytest

import cardlab
from cardlab.policies import choose, make_policy


@pytest.mark.parametrize("name", cardlab.game_names())
def test_uninformed_players_play_legal_games_to_the_end_and_repeat_with_the_seed(name: str) -> None:
    def play(seed: int) -> list[str]:
        g = cardlab.new_game(name, seed=seed)
        policy = make_policy("uninformed", name, np.random.default_rng([seed, 1]))
        moves = []
        while not g.is_over:
            move = choose(policy, g)  # choose() refuses an illegal move
            moves.append(move.text)
            g.play(move)
        return moves

    for seed in range(2):
        first = play(seed)
        assert first and play(seed) == first
