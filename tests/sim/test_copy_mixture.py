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
            for k, g, worlds in cb.walk(seed, viewpoint):
                assert cb.package_answers(g, viewpoint) == cb.brute_answers(worlds, viewpoint), (seed, viewpoint, k)
                if k:
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


def _laws(g: object, viewpoints: tuple[int | None, ...] = (None, 0, 1)) -> list[object]:
    return [g.chance_law(v) for v in viewpoints]  # type: ignore[attr-defined]


def test_the_mixture_is_the_same_however_it_is_asked_for_undone_or_reloaded() -> None:
    """The mixtures are worked out from the game's history when asked: asked after every move, asked only
    at the end, after undo (the answers of the earlier position come back exactly), and from a saved
    record (which keeps a position every 128 moves only) they must all agree."""
    import cardlab

    every = cardlab.new_game("spite-and-malice", players=2, seed=4)
    policy = cardlab.policies.make_policy("greedy", every.name, np.random.default_rng(4))
    answers = []
    while not every.is_over and every.move_count < 400:
        every.play(cardlab.policies.choose(policy, every))
        answers.append(_laws(every))
    mixed = sum(isinstance(law, MixedLaw) for laws in answers for law in laws)
    assert mixed > 50, mixed
    once = cardlab.new_game("spite-and-malice", players=2, seed=4).play_all(every.moves)
    assert _laws(once) == answers[-1]
    loaded = cardlab.load_game(every.to_json())
    assert len(answers) > 140, len(answers)
    for k in (len(answers) - 1, 129, 128, 127, 126, 40):  # loaded: few kept positions, undone step by step
        while loaded.move_count > k + 1:
            loaded.undo()
        assert _laws(loaded) == answers[k], k
    for k in range(len(answers) - 1, len(answers) - 30, -1):  # the live game, undone move by move
        assert _laws(every) == answers[k]
        every.undo()
    assert [every.resample(v, np.random.default_rng(3)).state for v in (None, 1)] == \
        [cardlab.load_game(every.to_json()).resample(v, np.random.default_rng(3)).state for v in (None, 1)]


def test_a_law_asked_in_the_middle_of_a_move_is_refused_clearly() -> None:
    """A frame of ``stepwise`` (the move half done) has no mixture of its own: asking for its law is a clear
    error, and the finished move's law is the same as the one the game gives after playing it."""
    import pytest

    import cardlab
    from cardlab.errors import InvalidInputError

    g = cardlab.new_game("spite-and-malice", players=2, seed=2)
    policy = cardlab.policies.make_policy("greedy", g.name, np.random.default_rng(2))
    while g.current_player == 0:
        g.play(cardlab.policies.choose(policy, g))
    while g.current_player == 1:  # seat 1's turn: its discard makes seat 0 draw in the same move
        move = cardlab.policies.choose(policy, g)
        if move.kind == "discard":
            break
        g.play(move)
    frames = [f.copy() for f in g.stepwise(move)]
    with pytest.raises(InvalidInputError, match="middle of a move"):
        frames[0].chance_law(None)
    g.play(move)
    assert frames[-1].chance_law(None) == g.chance_law(None)
