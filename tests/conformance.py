"""Helpers shared by the conformance suite: random play and card bookkeeping."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

import cardlab
from cardlab.engine.game import Game


def card_census(game: Game[Any]) -> Counter[cardlab.Card]:
    return Counter(c for cards in game.zones().values() for c in cards)


def assert_conserved(game: Game[Any]) -> None:
    census = card_census(game)
    expected = Counter(game.all_cards())
    assert census == expected, f"lost {expected - census}, extra {census - expected}"
    assert max(census.values()) == 1


def random_move(game: Game[Any], rng: np.random.Generator) -> cardlab.Move:
    legal = game.legal_moves()
    assert legal, f"{game} is not over but offers no legal move"
    return legal[int(rng.integers(len(legal)))]


def snapshot(game: Game[Any]) -> tuple[Any, int, int]:
    return (game.state.to_data(), len(game.events), game.move_count)


def random_positions(name: str, players: int, count: int, seed: int, most: int = 60) -> list[Game[Any]]:
    """Up to ``count`` unfinished positions, each reached by 0 to ``most`` uniformly random moves."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        g = cardlab.new_game(name, players=players, seed=seed * 1000 + i)
        for _ in range(int(rng.integers(0, most))):
            if g.is_over:
                break
            g.play(random_move(g, rng))
        if not g.is_over:
            out.append(g)
    return out
