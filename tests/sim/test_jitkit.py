"""The kernels' shared pieces: SplitMix64 in Python and compiled agree, and draw_law samples the chance law."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np

from cardlab.cards import Card
from cardlab.sim.chance import ChanceLaw, Group
from cardlab.sim.jitkit import LawArrays, SplitMix64, below, new_state, next_u64, shuffle


def test_python_and_kernel_generators_give_the_same_numbers() -> None:
    for seed in (0, 1, 2**63 + 5, 2**64 - 1):
        py = SplitMix64(seed)
        state = new_state(seed)
        assert [py.next() for _ in range(5)] == [int(next_u64(state)) for _ in range(5)]
        py, state = SplitMix64(seed), new_state(seed)
        assert [py.below(b) for b in (1, 2, 3, 7, 52, 2**31 + 1)] == [int(below(state, b))
                                                                        for b in (1, 2, 3, 7, 52, 2**31 + 1)]
        py, state = SplitMix64(seed), new_state(seed)
        a = np.arange(9, dtype=np.int64)
        shuffle(a, 9, state)
        assert a.tolist() == py.permute(9)


def _law() -> ChanceLaw:
    """Five places; cards x, y confined to places {0, 1} (inside), then three cards on all five places."""
    c = [Card.parse(t) for t in ("AS", "2S", "3S", "4S", "5S")]
    return ChanceLaw(names=tuple(f"p{i}" for i in range(5)),
                     groups=(Group((0, 1), (c[0], c[1])), Group((0, 1, 2, 3, 4), (c[2], c[3], c[4]))))


def test_draw_law_is_uniform_over_the_assignments_that_respect_the_groups() -> None:
    law = _law()
    arrays = LawArrays.of(law)
    ids = [c.id for c in law.cards]
    # brute force: every permutation of the five cards that keeps AS and 2S on places 0 and 1
    valid = [p for p in itertools.permutations(ids) if {p[0], p[1]} == {ids[0], ids[1]}]
    assert len(valid) == 2 * 6
    n = 24_000
    state = new_state(12345)
    out = np.empty(5, dtype=np.int64)
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(n):
        arrays.draw(state, out)
        seen[tuple(out.tolist())] += 1
    assert set(seen) == set(valid)           # nothing outside the law, and every assignment reached
    expected = n / len(valid)
    chi2 = sum((seen[v] - expected) ** 2 / expected for v in valid)
    assert chi2 < 31.3                       # chi-square, 11 degrees of freedom: 0.1% upper point


def test_a_single_group_on_every_place_is_a_uniform_permutation() -> None:
    cards = tuple(Card.parse(t) for t in ("AS", "2S", "3S"))
    arrays = LawArrays.of(ChanceLaw(names=("a", "b", "c"), groups=(Group((0, 1, 2), cards),)))
    assert arrays.whole == 1
    state = new_state(7)
    out = np.empty(3, dtype=np.int64)
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(6_000):
        arrays.draw(state, out)
        seen[tuple(out.tolist())] += 1
    assert len(seen) == 6
    chi2 = sum((v - 1000) ** 2 / 1000 for v in seen.values())
    assert chi2 < 20.5                       # 5 degrees of freedom: 0.1% upper point
