"""The numbering of moves and the encoding of views that both arenas share (no peer package needed).

* Every legal move of random and greedy games falls in its game's move space, and no two legal moves of a
  position share a number; the spaces' sizes follow from the rules' constants.
* A view's array has one size per game set-up, and two different views never give the same array (the encoding
  loses nothing).
* Random games end far below the arenas' bound on a game's length (:data:`cardlab.arenas.common.MAX_MOVES`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.arenas.common import MAX_MOVES, returns
from cardlab.arenas.encoding import EncodingError, ViewEncoder
from cardlab.arenas.moves import MoveSpaceError, move_space
from cardlab.policies import choose, make_policy
from tests.arenas.conftest import seat_counts

CASES = [(name, players) for name in cardlab.game_names() for players in seat_counts(name)]


def games(name: str, players: int, seeds: range, policy: str) -> list[cardlab.Game[Any]]:
    """Finished games of ``policy`` players, the legal moves of each position checked on the way
    (:func:`check_numbers`)."""
    out = []
    for seed in seeds:
        g = cardlab.new_game(name, players, seed=seed)
        bot = make_policy(policy, name, np.random.default_rng([seed, 5]))
        while not g.is_over:
            check_numbers(g)
            g.play(choose(bot, g))
        out.append(g)
    return out


def check_numbers(g: cardlab.Game[Any]) -> None:
    space = move_space(g)
    legal = space.legal(g.legal_moves())   # raises if two legal moves share a number
    assert len(legal) == len(g.legal_moves())
    for number, move in legal.items():
        assert space.index(move) == number


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_legal_move_has_its_own_number(name: str, players: int) -> None:
    for policy in ("random", "greedy"):
        finished = games(name, players, range(4), policy)
        assert all(g.is_over for g in finished)


def test_the_spaces_sizes_follow_from_the_rules_constants() -> None:
    from cardlab.games.garbage.rules import MAX_SPOTS
    from cardlab.games.shithead.rules import FACE_DOWN, MAX_OF_A_RANK
    from cardlab.games.spite_malice.rules import CENTRE_PILES, SIDE_PILES

    assert move_space("garbage").size == 2 + MAX_SPOTS + MAX_SPOTS + 1
    assert move_space("shithead").size == 52 + 2 * 13 * MAX_OF_A_RANK + FACE_DOWN + 1
    assert move_space("spite-and-malice").size == (CENTRE_PILES + SIDE_PILES * CENTRE_PILES + 52 * CENTRE_PILES
                                                   + 52 * SIDE_PILES)


def test_a_game_without_a_move_space_is_refused_by_name() -> None:
    from tests.toy_game import HighCard

    class Unnumbered(HighCard):
        pass

    with pytest.raises(MoveSpaceError, match="has no move space; register one"):
        move_space(Unnumbered(2, seed=1))


@pytest.mark.parametrize(("name", "players"), CASES)
def test_views_encode_to_one_size_and_different_views_to_different_arrays(name: str, players: int) -> None:
    arrays: dict[bytes, Any] = {}
    encoder = None
    for seed in range(3):
        g = cardlab.new_game(name, players, seed=seed)
        encoder = encoder or ViewEncoder(g)
        rng = np.random.default_rng(seed)
        while True:
            for seat in (None, *range(players)):
                view = g.observe(seat)
                array = encoder.encode(view)
                assert array.shape == (encoder.size,) and array.dtype == np.int32
                earlier = arrays.setdefault(array.tobytes(), view)
                assert earlier == view, "two different views gave one array"
            if g.is_over:
                break
            legal = g.legal_moves()
            g.play(legal[int(rng.integers(len(legal)))])
    assert len(arrays) > 20


def test_a_word_outside_its_fields_words_is_refused() -> None:
    g = cardlab.new_game("garbage", 2, seed=1)
    encoder = ViewEncoder(g)
    view = g.observe(0)
    bad = type(view)(**{**view.__dict__, "phase": "juggle"})
    with pytest.raises(EncodingError, match="phase holds the word 'juggle'"):
        encoder.encode(bad)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_games_end_far_below_the_arenas_bound(name: str, players: int) -> None:
    longest = 0
    for seed in range(10):
        g = cardlab.new_game(name, players, seed=seed)
        rng = np.random.default_rng(seed)
        while not g.is_over:
            legal = g.legal_moves()
            g.play(legal[int(rng.integers(len(legal)))])
        longest = max(longest, g.move_count)
        assert sum(returns(g)) == pytest.approx(0.0)
    assert longest < MAX_MOVES // 4
