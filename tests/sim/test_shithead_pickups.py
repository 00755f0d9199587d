"""Shithead's chance law conditions on forced pick-ups: brute force over hidden deals, the kernel's deals
against the law's exact marginals, and the bookkeeping through records and undo."""

from __future__ import annotations

import json

import numpy as np
import pytest

import cardlab
from cardlab.cards import card_from_id
from cardlab.errors import CorruptRecordError
from cardlab.games.shithead import Shithead
from cardlab.sim import jitkit
from cardlab.sim.chance import MixedLaw
from tests.sim import shithead_brute as sb

# positions where the brute force meets mixtures (found by running shithead_brute.check over seeds 10-109)
BRUTE_SEEDS = (12, 14, 53, 55, 59)


def test_the_law_matches_a_brute_force_over_hidden_deals_after_forced_pick_ups() -> None:
    compared = constrained = mixed = plain_wrong = 0
    bad: list[str] = []
    for seed in BRUTE_SEEDS:
        c, k, m, p, b = sb.check(seed, moves=20, hand=2, draws=3)
        compared, constrained, mixed, plain_wrong = compared + c, constrained + k, mixed + m, plain_wrong + p
        bad += b
    assert not bad, bad[:10]
    # the comparisons were made, in positions that matter: constrained and mixed laws, and positions where
    # the law that ignores pick-ups would be wrong (so this test can catch that modelling error)
    assert compared >= 150 and constrained >= 60 and mixed >= 20 and plain_wrong >= 10, \
        (compared, constrained, mixed, plain_wrong)


def random_positions(games: int, every: int) -> list[Shithead]:
    out = []
    for seed in range(games):
        g = cardlab.new_game("shithead", players=2 + seed % 2, seed=300 + seed)
        assert isinstance(g, Shithead)
        rng = np.random.default_rng(seed)
        for i in range(3000):
            if g.is_over:
                break
            if i % every == every - 1:
                out.append(g.copy())
            legal = g.legal_moves()
            g.play(legal[int(rng.integers(len(legal)))])
    return out


def test_the_kernels_deals_follow_the_laws_exact_marginals() -> None:
    """For constrained and mixed laws of random-play positions: every kernel draw respects the limits,
    and per hidden place, how often its card is an ordinary rank below 9 agrees with the law's exact
    chance (binomial z; |z| < 4.5 over every place, a family of a few hundred tests)."""
    n = 3000
    tested = mixed = 0
    worst = 0.0
    for g in random_positions(12, 37)[::3]:
        for viewpoint in (None, 0):
            law = g.chance_law(viewpoint)
            if not any(grp.limits for _, comp in law.components for grp in comp.groups):
                continue
            tested += 1
            mixed += isinstance(law, MixedLaw)
            arrays = jitkit.LawArrays.of(law)
            state = jitkit.new_state(np.uint64(tested))
            out = np.zeros(arrays.size, dtype=np.int64)
            low = np.zeros(arrays.size)
            for _ in range(n):
                k = arrays.draw(state, out)
                comp = law.components[k][1]
                order = {c.id: i for i, c in enumerate(comp.cards)}
                for q, length in comp.groups[0].limits:
                    assert order[int(out[q])] < length
                low += [card_from_id(int(c)).rank not in (2, 10) and _power(int(c)) < 9 for c in out]
            for q in range(arrays.size):
                p = float(law.chance(q, lambda c: c.rank not in (2, 10) and _power(c.id) < 9))
                if 0 < p < 1:
                    worst = max(worst, abs(low[q] - n * p) / (n * p * (1 - p)) ** 0.5)
    assert tested >= 10 and mixed >= 2, (tested, mixed)
    assert worst < 4.5, worst


def _power(card_id: int) -> int:
    rank = int(card_from_id(card_id).rank)
    return 14 if rank == 1 else rank


def test_what_pick_ups_taught_survives_records_and_undo() -> None:
    g = random_positions(2, 150)[-1]
    assert any(g.state.beliefs)
    again = cardlab.load_game(g.to_json())
    assert again.state.beliefs == g.state.beliefs
    for viewpoint in (None, 0, 1):
        assert again.chance_law(viewpoint) == g.chance_law(viewpoint)
    before = g.state.beliefs
    legal = g.legal_moves()
    g.play(legal[0])
    g.undo()
    assert g.state.beliefs == before
    record = json.loads(g.to_json())
    n = g.players
    for bad in ([[[0, [[]] * n]]] + [[]] * n,          # a multiplicity of 0
                [[[1, [[[10, 1]]] + [[]] * (n - 1)]]] + [[]] * n,  # a bound of 10 (a 10 never stays on top)
                [[]] * n):                              # one viewer missing
        record["initial"]["beliefs"] = bad
        with pytest.raises(CorruptRecordError, match="beliefs"):
            cardlab.load_game(json.dumps(record))
