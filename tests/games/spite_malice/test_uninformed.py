"""Spite and Malice's ``uninformed`` player picks a uniformly random hand slot (the generic test of every
game's uninformed player: ``tests/sim/test_uninformed.py``)."""

from __future__ import annotations

from collections import Counter
from math import sqrt

import numpy as np

import cardlab
from cardlab.cards import face_of
from cardlab.games.spite_malice.rules import hand_card
from cardlab.policies import make_policy


def _binomial_z(hits: int, n: int, p: float) -> float:
    return (hits - n * p) / sqrt(n * p * (1 - p))


def test_spite_and_malice_uninformed_player_picks_a_uniformly_random_hand_slot() -> None:
    """Hand 3♠ 3♠ 5♥ 9♦ J♣ (both packs' 3♠), no face-up move, empty centre piles (only an Ace or a King
    would fit): the player discards, and each face is chosen as often as it has slots (3♠: 2 in 5)."""
    g = cardlab.new_game("spite-and-malice", seed=3, first="seat0", payoff_size=1,
                         deck=["QH", "JH", "3S", "3S", "5H", "9D", "JC"])
    view, legal = g.observe(0), g.legal_moves()
    assert sorted(str(c) for c in view.hand) == ["3♠", "3♠", "5♥", "9♦", "J♣"]
    assert not [m for m in legal if m.kind in ("payoff", "side", "hand")]
    policy = make_policy("uninformed", "spite-and-malice", np.random.default_rng(11))
    n = 4000
    faces = Counter(str(face_of(hand_card(policy(view, legal)))) for _ in range(n))
    assert set(faces) == {"3♠", "5♥", "9♦", "J♣"}
    assert abs(_binomial_z(faces["3♠"], n, 2 / 5)) < 4
    for face in ("5♥", "9♦", "J♣"):
        assert abs(_binomial_z(faces[face], n, 1 / 5)) < 4

