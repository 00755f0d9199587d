"""Spite and Malice: a hidden hand's play of a face whose two copies carry different labels.

The package's exact answers (its chance law, a mixture of bookkeepings) are compared with a brute force
that knows nothing of the law (:mod:`tests.sim.copy_brute`): every hidden deal of a small position and
every copy choice, replayed through the real moves, for every viewpoint.
"""

from __future__ import annotations

import numpy as np

from cardlab.sim.chance import MixedLaw
from tests.sim import copy_brute as cb


def test_exact_answers_match_a_brute_force_over_deals_and_copy_choices() -> None:
    checks = mixed = 0
    for seed in range(6):
        for viewpoint in (None, 0, 1):
            g = cb.small_position(seed)
            worlds = cb.prior(g, viewpoint)
            assert cb.package_answers(g, viewpoint) == cb.brute_answers(worlds, viewpoint)
            rng = np.random.default_rng(seed)
            for _ in range(8):
                moves = g.legal_moves()
                stepped = cb.step(worlds, g, moves[int(rng.integers(len(moves)))], viewpoint)
                if stepped is None:
                    break
                worlds = stepped
                assert cb.package_answers(g, viewpoint) == cb.brute_answers(worlds, viewpoint), (seed, viewpoint)
                checks += 1
                mixed += isinstance(g.chance_law(viewpoint), MixedLaw)
    # the small positions must reach the case under test (a mixture), not only the plain law
    assert checks >= 30 and mixed >= 5, (checks, mixed)


def test_the_mixture_update_counts_agree_with_the_chance_law() -> None:
    """The engine reweights its mixture from counts alone (``SpiteMalice._face_chances``); they must equal
    :meth:`ChanceLaw.face_chances` of the component's law, grouped by label, for a hidden hand, the stock
    top and a payoff pile, in positions of real games (both ways of returning completed piles)."""
    import cardlab

    checked = 0
    for options in ({}, {"completed_to": "shuffle"}):
        g = cardlab.new_game("spite-and-malice", players=2, seed=1, **options)
        policy = cardlab.policies.make_policy("greedy", g.name, np.random.default_rng(1))
        k = 0
        while not g.is_over:
            g.play(cardlab.policies.choose(policy, g))
            k += 1
            if k % 11:
                continue
            for v in (None, 0, 1):
                hidden = g._hidden_cards(v)
                for _, labels, marks in g._ledgers(v)[:2]:
                    law, glabels, places = g._law_parts(v, labels, marks)
                    cases = [([i for i, p in enumerate(places) if p[0] == "hand" and p[1] == seat],
                              [("hand", seat, m[0], m[1]) for m in marks[seat]]) for seat in (0, 1) if seat != v]
                    if g.state.stock:
                        top = g.state.stock_parts[-1]
                        cases.append(([len(places) - 1], [("stock", -1, top[0], top[1])]))
                    for seat in (0, 1):
                        under = [i for i, p in enumerate(places) if p[0] == "payoff" and p[1] == seat]
                        if under:
                            cases.append(([under[-1]], [("payoff", seat, 0, 0)]))
                    for face in {c.face for c in hidden}:
                        card = next(c for c in hidden if c.face == face)
                        ids = [c.id for c in hidden if c.face == face]
                        for qs, query in cases:
                            expected: dict[int, object] = {}
                            for label, x in zip(glabels, law.face_chances(qs, card), strict=True):
                                if x:
                                    expected[label] = expected.get(label, 0) + x  # type: ignore[operator]
                            got = g._face_chances(v, labels, marks, [c.id for c in hidden], query, ids)
                            assert got == expected, (options, k, v, query)
                            checked += 1
    assert checked > 1000
