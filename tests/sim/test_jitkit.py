"""The kernels' shared pieces: SplitMix64 in Python and compiled agree, and draw_law samples the chance law."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np

from cardlab.cards import Card
from cardlab.sim.chance import ChanceLaw, Group, MixedLaw
from cardlab.sim.jitkit import LawArrays, SplitMix64, below, draw_law, new_state, next_u64, shuffle


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


def _draws(arrays: LawArrays, n: int, seed: int, size: int) -> Counter[tuple[int, ...]]:
    """How often each assignment comes up in ``n`` kernel draws from one SplitMix64 state."""
    state = new_state(seed)
    out = np.empty(size, dtype=np.int64)
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(n):
        arrays.draw(state, out)
        seen[tuple(out.tolist())] += 1
    return seen


def test_draw_law_is_uniform_over_the_assignments_that_respect_the_groups() -> None:
    law = _law()
    arrays = LawArrays.of(law)
    ids = [c.id for c in law.cards]
    # brute force: every permutation of the five cards that keeps AS and 2S on places 0 and 1
    valid = [p for p in itertools.permutations(ids) if {p[0], p[1]} == {ids[0], ids[1]}]
    assert len(valid) == 2 * 6
    n = 24_000
    seen = _draws(arrays, n, 12345, 5)
    assert set(seen) == set(valid)           # nothing outside the law, and every assignment reached
    expected = n / len(valid)
    chi2 = sum((seen[v] - expected) ** 2 / expected for v in valid)
    assert chi2 < 31.3                       # chi-square, 11 degrees of freedom: 0.1% upper point


def test_a_single_group_on_every_place_is_a_uniform_permutation() -> None:
    cards = tuple(Card.parse(t) for t in ("AS", "2S", "3S"))
    arrays = LawArrays.of(ChanceLaw(names=("a", "b", "c"), groups=(Group((0, 1, 2), cards),)))
    assert arrays.whole == 1
    seen = _draws(arrays, 6_000, 7, 3)
    assert len(seen) == 6
    chi2 = sum((v - 1000) ** 2 / 1000 for v in seen.values())
    assert chi2 < 20.5                       # 5 degrees of freedom: 0.1% upper point


def test_a_mixture_draws_each_component_with_its_weight_then_that_components_assignment() -> None:
    """A MixedLaw as arrays: over every (component, assignment) pair the draws follow weight x uniform
    within the component (counted against the exact weights, chi-square), the component returned is the
    one whose assignment was dealt, and a single law draws exactly as before (the same numbers)."""
    law = _law()
    c = law.cards
    other = ChanceLaw(names=law.names, groups=(Group((3, 4), (c[2], c[4])), Group((0, 1, 2, 3, 4), (c[0], c[1], c[3]))))
    mix = MixedLaw(((Fraction(2, 7), law), (Fraction(5, 7), other)))
    arrays = LawArrays.of(mix)
    ids = [card.id for card in c]
    valid = [
        {p for p in itertools.permutations(ids) if {p[0], p[1]} == {ids[0], ids[1]}},
        {p for p in itertools.permutations(ids) if {p[3], p[4]} == {ids[2], ids[4]}},
    ]
    cells = {(k, v): float(w) / len(valid[k]) for k, w in ((0, Fraction(2, 7)), (1, Fraction(5, 7)))
             for v in valid[k]}
    n = 30_000
    state = new_state(99)
    out = np.empty(5, dtype=np.int64)
    seen: Counter[tuple[int, tuple[int, ...]]] = Counter()
    for _ in range(n):
        k = arrays.draw(state, out)
        seen[(k, tuple(out.tolist()))] += 1
    assert set(seen) <= set(cells)               # each draw is an assignment of the component it names
    chi2 = sum((seen[cell] - n * p) ** 2 / (n * p) for cell, p in cells.items())
    assert chi2 < 49.7                           # 23 degrees of freedom: 0.1% upper point
    firsts = sum(v for (k, _), v in seen.items() if k == 0)
    assert abs(firsts / n - 2 / 7) < 3.29 * (2 / 7 * 5 / 7 / n) ** 0.5
    one = LawArrays.of(law)
    single, plain = new_state(5), new_state(5)
    a, b = np.empty(5, dtype=np.int64), np.empty(5, dtype=np.int64)
    for _ in range(50):
        assert one.draw(single, a) == 0
        draw_law(one.places, one.place_start, one.cards, one.card_start, one.size, one.whole, plain, b,
                 np.empty(5, dtype=np.int64))
        assert a.tolist() == b.tolist()


def _chain_law() -> tuple[ChanceLaw, list[tuple[int, ...]]]:
    """Eight places: an inner group (9C, JC on places 4, 6, 7), then six cards 3C..8C on all eight places with
    places 0, 1, 2, 5 limited to prefixes of lengths 2, 3, 3, 6 of their order; and every valid assignment
    (for each place, the index of its card in ``law.cards``), by brute force over all permutations."""
    six = tuple(Card.parse(t) for t in ("3C", "4C", "5C", "6C", "7C", "8C"))
    inner = (Card.parse("9C"), Card.parse("JC"))
    limits = ((0, 2), (1, 3), (2, 3), (5, 6))
    law = ChanceLaw(tuple(f"p{i}" for i in range(8)), (Group((4, 6, 7), inner), Group(tuple(range(8)), six, limits)))
    valid = [p for p in itertools.permutations(range(8))
             if all((p[q] < 2) <= (q in (4, 6, 7)) for q in range(8))
             and all(2 <= p[q] < 2 + length for q, length in limits)]
    return law, valid


def test_draw_limited_is_uniform_over_the_assignments_that_respect_a_chain_of_limits() -> None:
    law, valid = _chain_law()
    assert len(valid) == 144
    arrays = LawArrays.of(law, encode=lambda c: law.cards.index(c))
    assert arrays.limited and arrays.whole == 0
    n = 72_000
    seen = _draws(arrays, n, 2026, 8)
    assert set(seen) == set(valid)
    expected = n / len(valid)
    chi2 = sum((seen[v] - expected) ** 2 / expected for v in valid)
    assert chi2 < 209.0                      # chi-square, 143 degrees of freedom: about the 0.03% upper point
    rng = np.random.default_rng(5)
    py: Counter[tuple[int, ...]] = Counter(tuple(law.draw(rng)) for _ in range(n))
    assert set(py) == set(valid)
    assert sum((py[v] - expected) ** 2 / expected for v in valid) < 209.0


def test_a_mixture_of_limited_laws_picks_its_component_by_weight() -> None:
    law, valid = _chain_law()
    plain = ChanceLaw(law.names, (law.groups[0], Group(law.groups[1].places, law.groups[1].cards)))
    mixed = MixedLaw(((Fraction(1, 4), law), (Fraction(3, 4), plain)))
    arrays = LawArrays.of(mixed, encode=lambda c: law.cards.index(c))
    state = new_state(77)
    out = np.empty(8, dtype=np.int64)
    n = 8000
    picks = Counter(int(arrays.draw(state, out)) for _ in range(n))
    # binomial: the first component has chance 1/4; 4 standard deviations either side
    assert abs(picks[0] - n / 4) < 4 * (n * 0.25 * 0.75) ** 0.5
    state = new_state(78)
    for _ in range(2000):
        if arrays.draw(state, out) == 0:
            assert tuple(out.tolist()) in set(valid)
