"""Spite and Malice's chance law: tied payoff tops, and which of two same-face copies a hidden hand played
(the generic checks of every game's law: ``tests/chance/test_chance_law.py``)."""

from __future__ import annotations

import pytest

import cardlab
from cardlab.chance.law import MixedLaw
from cardlab.sim import prob
from tests.games.spite_malice import chance_checks as sc
from tests.sim import chance_checks as cc


def test_spite_and_malice_tie_counts_only_never_seen_cards() -> None:
    """Issue item 1: after a tie the tied tops are known to be in the payoff piles, so the next stock card
    is counted over the cards never seen (tied faces left out), for every viewpoint. Payoff piles of 3
    make ties common; a face tied by both seats can never be the next stock card."""
    hits = 0
    for seed in range(1500):
        g = cardlab.new_game("spite-and-malice", seed=seed, payoff_size=3)
        if "tie" not in g.state.opening:
            continue
        for viewpoint in cc.viewpoints(g):
            counted = sc.spite_count(g, viewpoint)
            if counted is not None:
                hits += 1
                assert prob.spite_next_stock_playable(g, viewpoint) == counted
        tied = sc.spite_tie_faces(g)
        chances = g.next_draw_chances(None)
        both_tied = [a for a, b in zip(tied[0::2], tied[1::2], strict=True) if a.face == b.face]  # e.g. A♣ A♣
        assert not any(c.face == t.face for c in chances for t in both_tied)
    assert hits >= 80


@pytest.mark.parametrize("viewpoint", [None, 1])
def test_which_same_face_copy_a_hidden_hand_played_changes_no_answer(viewpoint: int | None) -> None:
    """Spite and Malice copy twins: the game after an ambiguous hand play (a hidden hand plays a face of
    which it holds both packs' cards, with different labels), and the same game played on with the
    engine's copy choice forced to the other card. They are different games, yet the viewer sees the
    same view, events and HTML, and must get identical exact answers, an identical chance law (a mixture:
    weights and components), identical resampled faces for the same seed and identical win estimates."""
    pairs = mixed = 0
    for g, t in sc.spite_copy_twins(range(30000, 30016 if viewpoint is None else 30024), viewpoint):
        assert t.state.hands != g.state.hands or t.state.centre != g.state.centre or t.state.sides != g.state.sides
        bad = cc.pair_differences(g, t, viewpoint, seed=pairs, estimates=pairs % 5 == 0, html=pairs % 4 == 0)
        assert not bad, (pairs, bad)
        mixed += isinstance(g.chance_law(viewpoint), MixedLaw)
        pairs += 1
    assert pairs >= 8 and mixed >= pairs // 2, (pairs, mixed)
