"""Shithead's ``uninformed`` player sets up by random slots and plays single fitting cards (the generic test of
every game's uninformed player: ``tests/sim/test_uninformed.py``)."""

from __future__ import annotations

from collections import Counter
from math import sqrt

import numpy as np

import cardlab
from cardlab.games.shithead.rules import setup_card, shithead_move
from cardlab.policies import choose, make_policy


def _binomial_z(hits: int, n: int, p: float) -> float:
    return (hits - n * p) / sqrt(n * p * (1 - p))


def test_shithead_uninformed_player_sets_up_by_random_slots_and_plays_single_fitting_cards() -> None:
    g = cardlab.new_game("shithead", seed=4)
    policy = make_policy("uninformed", "shithead", np.random.default_rng(5))
    hand = list(g.observe(g.current_player).hand)
    n = 3000
    chosen = Counter(setup_card(policy(g.observe(g.current_player), g.legal_moves())).face for _ in range(n))
    for face, k in Counter(c.face for c in hand).items():
        assert abs(_binomial_z(chosen[face], n, k / len(hand))) < 4
    while g.state.phase == "setup":
        g.play(choose(policy, g))
    for _ in range(200):
        if g.is_over:
            break
        move = choose(policy, g)
        m = shithead_move(move)
        if move.kind == "play":
            assert m.count == 1
        g.play(move)
