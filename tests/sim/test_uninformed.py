"""The ``uninformed`` players: legal, seeded, and uniform over hand slots where the chance law says so."""

from __future__ import annotations

from collections import Counter
from math import sqrt

import numpy as np
import pytest

import cardlab
from cardlab.cards import face_of
from cardlab.games.shithead.rules import setup_card, shithead_move
from cardlab.games.spite_malice.rules import hand_card
from cardlab.policies import choose, make_policy


@pytest.mark.parametrize("name", ["garbage", "spite-and-malice", "shithead"])
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
