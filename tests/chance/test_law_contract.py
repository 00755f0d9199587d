"""The hidden-information contract (:meth:`Game.chance_law <cardlab.engine.game.Game.chance_law>`,
:meth:`Game.unseen_cards <cardlab.engine.game.Game.unseen_cards>`, :class:`cardlab.chance.law.Law`), for
every registered game: the law a game states answers the Law questions consistently, deals exactly its
own hidden cards, and names the same cards as ``unseen_cards``. Whether the law is *true* is tested
against counts, twins and real deals in :mod:`tests.chance.test_chance_law`."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.cards import Card, face_of
from cardlab.chance.law import Law
from cardlab.engine.game import Game
from cardlab.engine.registry import game_specs
from cardlab.engine.spec import GameSpec
from cardlab.errors import InvalidInputError
from cardlab.sim import prob


def _positions(spec: GameSpec, seed: int) -> list[Game[Any]]:
    """Copies of one game with the fewest players, every 7th position of random play (at most 60 moves)."""
    g = cardlab.new_game(spec.name, players=spec.rules.min_players, seed=seed)
    rng = np.random.default_rng([seed, 5])
    out = [g.copy()]
    for i in range(1, 61):
        moves = g.legal_moves()
        if g.is_over or not moves:
            break
        g.play(moves[int(rng.integers(len(moves)))])
        if i % 7 == 0:
            out.append(g.copy())
    return out


def _face_counts(cards: list[Card]) -> Counter[Card]:
    return Counter(face_of(c) for c in cards)


@pytest.mark.parametrize("spec", game_specs(), ids=lambda s: s.name)
def test_a_game_states_its_law_through_the_contract(spec: GameSpec) -> None:
    """Each place's law adds up to 1 and agrees with ``chance``; a draw puts exactly the law's cards on
    its places; ``unseen_cards`` names the law's cards (or the game says it does not name them). A game
    that stated no law would answer with the base class's clear error, checked here too."""
    checked = 0
    for seed in range(3):
        for g in _positions(spec, seed):
            for viewpoint in (None, 0):
                if type(g).chance_law is Game.chance_law:
                    with pytest.raises(InvalidInputError, match=spec.name):
                        g.chance_law(viewpoint)
                    continue
                law = g.chance_law(viewpoint)
                assert isinstance(law, Law)
                faces = law.faces()
                for place in range(len(law.names)):
                    dist = law.place_law(place)
                    assert sum(dist.values(), Fraction(0)) == 1
                    assert set(dist) <= set(faces)
                    some = next(iter(dist))
                    assert law.chance(place, lambda c, some=some: c.face == some.face) == dist[some]
                drawn = law.sample(np.random.default_rng(seed))
                assert len(drawn) == len(law.names)
                assert _face_counts(drawn) == _face_counts(faces)
                if type(g).unseen_cards is Game.unseen_cards:
                    with pytest.raises(InvalidInputError, match="does not say which cards are unseen"):
                        prob.unseen_cards(g, viewpoint)
                else:
                    assert _face_counts(prob.unseen_cards(g, viewpoint)) == _face_counts(faces)
                checked += 1
    assert checked >= 10


def test_the_base_class_refuses_clearly_where_a_game_states_no_law() -> None:
    """The contract's defaults: a game that does not override them raises a cardlab error naming the game
    (and refuses a seat that does not exist first)."""
    g = cardlab.new_game(game_specs()[0].name, seed=1)
    with pytest.raises(InvalidInputError, match=f"{g.name} does not state a chance law"):
        Game.chance_law(g, None)
    with pytest.raises(InvalidInputError, match=f"{g.name} does not say which cards are unseen"):
        Game.unseen_cards(g, 0)
    with pytest.raises(InvalidInputError, match="seat 9 does not exist"):
        Game.chance_law(g, 9)
