"""The Shithead kernel's deals against the chance law's exact marginals (the law itself is checked in
:mod:`tests.sim.test_shithead_law`)."""

from __future__ import annotations

from collections import Counter

import numpy as np

import cardlab
from cardlab.cards import Rank, card_from_id
from cardlab.chance import jitkit
from cardlab.games.shithead import Shithead, beliefs
from tests.chance.test_jitkit import chi2_test, chi2_upper


def random_positions(games: int, every: int, moves: int = 3000, **options: object) -> list[Shithead]:
    out = []
    for seed in range(games):
        g = cardlab.new_game("shithead", players=2 + seed % 2, seed=300 + seed, **options)
        assert isinstance(g, Shithead)
        rng = np.random.default_rng(seed)
        for i in range(moves):
            if g.is_over:
                break
            if i % every == every - 1:
                out.append(g.copy())
            legal = g.legal_moves()
            g.play(legal[int(rng.integers(len(legal)))])
    return out


def test_the_kernels_deals_follow_the_laws_exact_marginals() -> None:
    """For the exact laws (at most two hidden hands) of random-play positions of 2- and 3-player games, as
    the table and as seats 0 and 1 see them: every kernel draw (:func:`jitkit.draw_hands`) deals the whole
    pool and gives each hidden hand a state its belief allows; per hidden place, how often its card is an
    ordinary rank below 9 agrees with the law's exact chance (binomial z), and per hidden hand, its state
    agrees with the exact state law (chi-square at the 1e-4 point). |z| < 4.5 over every place (a family
    of a few hundred tests). The positions include laws in which play taught the viewer something (a
    belief that is not the uninformed one) and laws with two hidden hands (where draws are rejected)."""
    tested, taught, two_hands, worst = _kernel_against_law(random_positions(12, 37)[::3])
    assert tested >= 100 and taught >= 30 and two_hands >= 10, (tested, taught, two_hands)
    assert worst < 4.5, worst


def test_under_lowest3_the_kernels_deals_follow_the_mixture() -> None:
    """The same check with ``first="lowest3"``, early in the play (where who started says the most): the
    law is then a mixture over the starter's lowest rank (:mod:`cardlab.games.shithead.beliefs`, *Who
    starts*), and the kernel picks the component first. A kernel that ignored the component weights, or
    the starter, would miss the exact state laws (the chi-square) of the hands."""
    positions = [g for g in random_positions(24, 5, moves=30, first="lowest3") if g.state.phase == "play"][::4]
    tested, taught, two_hands, worst = _kernel_against_law(positions)
    assert tested >= 40 and taught == tested and two_hands >= 10, (tested, taught, two_hands)
    assert worst < 4.5, worst


def _kernel_against_law(positions: list[Shithead]) -> tuple[int, int, int, float]:
    """Kernel draws against the exact law, as the table and seats 0 and 1 see ``positions`` (see the first
    test): (laws tested, laws in which play taught something, laws with two hidden hands, largest |z|)."""
    n = 3000
    tested = taught = two_hands = 0
    worst = 0.0
    low = beliefs.CLASS[Rank.NINE]  # classes below it: ordinary ranks 3 to 8
    for g in positions:
        for viewpoint in (None, 0, 1):
            law = g.chance_law(viewpoint)
            if not law.exact:
                continue
            tested += 1
            taught += any(b != beliefs.free(len(h)) for h, b in zip(law.hands, law.beliefs, strict=True))
            two_hands += len(law.hands) == 2
            arrays = jitkit.HandsArrays.of(law)
            solo = [{st[:beliefs.CLASSES] for st, _ in p} for p in law.solo()]
            pool = sorted(c.id for c in law.cards)
            state = jitkit.new_state(np.uint64(tested))
            out = np.zeros(arrays.size, dtype=np.int64)
            hits = np.zeros(arrays.size)
            seen: list[Counter[tuple[int, ...]]] = [Counter() for _ in law.hands]
            for _ in range(n):
                arrays.draw(state, out)
                assert sorted(out.tolist()) == pool
                classes = [beliefs.CLASS[card_from_id(int(c)).rank] for c in out]
                for h, places in enumerate(law.hands):
                    st = tuple(sum(classes[q] == k for q in places) for k in range(beliefs.CLASSES))
                    assert st in solo[h], (h, st)
                    seen[h][st] += 1
                hits += [k < low for k in classes]
            for q in range(arrays.size):
                p = float(law.chance(q, lambda c: beliefs.CLASS[c.rank] < low))
                if 0 < p < 1:
                    worst = max(worst, abs(hits[q] - n * p) / (n * p * (1 - p)) ** 0.5)
                else:
                    assert hits[q] == n * p
            for h, counts in enumerate(seen):
                stat, df = chi2_test(counts, law.hand_laws()[h], n)
                assert df == 0 or stat < chi2_upper(df, 3.72), (h, stat, df)
    return tested, taught, two_hands, worst
