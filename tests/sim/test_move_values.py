"""Move values, the search player and the game review against the truth (issue 23).

* Twins: two games the mover cannot tell apart (hidden cards moved, packs swapped: :func:`chance_checks.twin`)
  must give identical move values and the same search choice for the same seed.
* Exact values: in small Shithead positions every world the mover cannot rule out is enumerated by a
  brute force written apart from the chance law (:mod:`tests.sim.shithead_brute`), each move played in
  each world and played on greedily on the engine; the kernel's estimates must hold the exact values.
* A clearly better move: a Garbage draw where taking the discard completes the layout must come first,
  its interval separated from drawing blind, and the search player must take it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.chance.stats import wilson
from cardlab.engine.registry import game_spec
from cardlab.errors import InvalidInputError
from cardlab.policies import choose, make_policy
from cardlab.policies.search import SearchPolicy
from cardlab.sim.move_values import distinct_moves, move_key, move_values
from cardlab.sim.prob import play_on
from cardlab.sim.review import classify, review_game
from tests.sim import chance_checks as cc
from tests.sim import shithead_brute as sb

Z_WIDE = 3.89  # a two-sided 99.99% interval: many comparisons, each must hold


def choice_positions(name: str, seeds: range, every: int, **options: Any) -> list[cardlab.Game[Any]]:
    """Positions of greedy games where the mover has at least two distinct moves."""
    return [g for g in cc.sample_positions(name, 2, seeds, every, **options)
            if len(distinct_moves(g.legal_moves())) >= 2]


@pytest.mark.parametrize("name", cc.games())
def test_twins_the_mover_cannot_tell_apart_get_identical_values_and_choices(name: str) -> None:
    seeds, every, options = cc.checks_for(name).choices   # each game's checks say where its choices are
    positions = choice_positions(name, seeds, every, **options)[:30]
    pairs = differ = 0
    for k, g in enumerate(positions):
        mover = g.current_player
        t = cc.twin(g, mover, np.random.default_rng(k))
        differ += cc.state_faces(t.state) != cc.state_faces(g.state)
        a = move_values(g, rollouts=24, rng=np.random.default_rng(k))
        b = move_values(t, rollouts=24, rng=np.random.default_rng(k))
        assert a.records() == b.records(), (name, k)
        assert a.path == ("kernel" if game_spec(name).kernel is not None else "engine")
        pick_a = SearchPolicy(np.random.default_rng(k), budget=64).decide(g)
        pick_b = SearchPolicy(np.random.default_rng(k), budget=64).decide(t)
        assert move_key(pick_a) == move_key(pick_b), (name, k)
        pairs += 1
    assert pairs >= 20
    assert differ >= pairs // 2  # the twins really hold other hidden cards


def exact_values(start: Any, viewpoint: int | None) -> dict[str, Fraction]:
    """Each move's exact win chance for the mover: every world ``viewpoint`` cannot rule out (all equally
    likely at the start of a small position), the move played in it, then greedy play on the engine."""
    mover = start.current_player
    moves = distinct_moves(start.legal_moves())
    wins = dict.fromkeys((m.text for m in moves), 0)
    count = 0
    for world in sb.worlds(start, viewpoint):
        count += 1
        for m in moves:
            w = world.copy()
            w.play(m.text)
            play_on(w, np.random.default_rng(0))
            wins[m.text] += w.winner == mover
    return {text: Fraction(k, count) for text, k in wins.items()}


def test_estimates_hold_the_exact_values_of_small_shithead_positions() -> None:
    """Each move's estimate and its gap from the best against the enumeration. Enough positions must have
    moves of different exact value (else a test of the ordering would be empty)."""
    compared = ordered = 0
    for seed in range(400):
        start = sb.small_position(seed, hand=2, draws=2)
        if start.is_over or len(distinct_moves(start.legal_moves())) < 2:
            continue
        exact = exact_values(start, start.current_player)
        values = move_values(start, rollouts=2000, rng=np.random.default_rng(seed))
        assert values.path == "kernel"
        best = values.values[values.best]
        for v in values.values:
            truth = exact[v.move.text]
            wide = wilson(v.win.value * v.win.n, v.win.n, z=Z_WIDE)
            assert wide.low <= truth <= wide.high, (seed, v.move.text, float(truth), str(v.win))
            gap = float(exact[best.move.text] - truth)
            half = (v.gap_high - v.gap_low) / 2 * Z_WIDE / 1.96
            assert abs(gap - v.gap) <= half + 1e-12, (seed, v.move.text, gap, v.gap)
            compared += 1
        ordered += len(set(exact.values())) > 1
        if compared >= 30 and ordered >= 6:
            break
    assert compared >= 30 and ordered >= 6


def completing_draws(seeds: range) -> list[cardlab.Game[Any]]:
    """Garbage positions at a draw where taking the discard completes the mover's layout at once."""
    return [g for g in cc.sample_positions("garbage", 2, seeds, 1) if completing_draws_here(g)]


def test_a_draw_that_completes_the_layout_is_ranked_first_beyond_the_noise() -> None:
    positions = completing_draws(range(60))[:6]
    assert len(positions) >= 3
    for k, g in enumerate(positions):
        values = move_values(g, rollouts=1000, rng=np.random.default_rng(k))
        assert values.best_move.text == "take discard"
        others = [v for v in values.values if not v.best]
        assert others and all(v.separated for v in others), str(values)
        pick = SearchPolicy(np.random.default_rng(k), budget=400).decide(g)
        assert pick.text == "take discard"


def test_common_random_numbers_shrink_the_variance_of_a_difference() -> None:
    """The paired interval with common numbers is narrower than with independent play-outs on positions
    where the moves' outcomes are correlated, and the reported ratio says so."""
    positions = choice_positions("shithead", range(2), 5)[:6]
    narrower = 0
    for k, g in enumerate(positions):
        crn = move_values(g, rollouts=600, rng=np.random.default_rng(k))
        ind = move_values(g, rollouts=600, rng=np.random.default_rng(k), crn=False)
        assert not ind.crn and crn.crn
        width = sum(v.gap_high - v.gap_low for v in crn.values if not v.best)
        width_ind = sum(v.gap_high - v.gap_low for v in ind.values if not v.best)
        narrower += width < width_ind and crn.variance_ratio < 1
    assert narrower >= len(positions) - 1 and len(positions) >= 4


def test_search_plays_in_simulate_and_agrees_with_its_own_decisions() -> None:
    """``simulate`` with the search player in one seat plays the games a loop of ``choose`` plays from the
    same deal and generator (the search player has no whole-game kernel path: the engine plays it)."""
    result = cardlab.simulate("garbage", 2, games=3, seed=4, policy=["search", "greedy"], progress=False)
    assert result.method == "engine"
    from cardlab.engine.rng import game_rng

    for i in range(3):
        rng = game_rng(4, i)  # the policies' generator; the cards come from the one dealer
        g = cardlab.new_game("garbage", players=2, seed=4, index=i)
        players = [make_policy("search", "garbage", rng), make_policy("greedy", "garbage", rng)]
        while not g.is_over:
            g.play(choose(players[g.current_player], g))
        assert result.winners[i] == (-1 if g.winner is None else g.winner)
        assert result.turns[i] == g.turns


def test_review_classifies_by_the_documented_thresholds() -> None:
    assert classify(0.2, 0.01) == "blunder"
    assert classify(0.12, 0.01) == "mistake"
    assert classify(0.06, 0.01) == "inaccuracy"
    assert classify(0.04, 0.01) == "good"
    assert classify(0.3, -0.01) == "good"   # not beyond the noise


def test_review_of_a_game_finds_the_blunders_it_was_made_of() -> None:
    """A Garbage game where seat 0 declines every completing discard (draws blind instead) and otherwise
    plays greedily: the review must flag those decisions as costly, and only seat 0's."""
    rng = np.random.default_rng(3)
    greedy = make_policy("greedy", "garbage", rng)
    declined = []
    for seed in range(40):
        g = cardlab.new_game("garbage", seed=seed)
        while not g.is_over:
            if g.current_player == 0 and completing_draws_here(g):
                declined.append((seed, g.move_count))
                g.play("draw stock")
            else:
                g.play(choose(greedy, g))
        if declined and declined[-1][0] == seed:
            review = review_game(g, rollouts=400, rng=np.random.default_rng(seed))
            marked = {d.move_number for d in review.costly()}
            mine = {n for s, n in declined if s == seed}
            assert mine <= marked, (seed, mine, [d.record() for d in review.decisions if d.move_number in mine])
            assert all(d.seat == 0 for d in review.costly()), str(review)
            assert len(review.records()) == g.move_count
            return
    raise AssertionError("no game with a declined completing discard")


def completing_draws_here(g: cardlab.Game[Any]) -> bool:
    """At a draw, taking the discard completes the mover's layout (one face-down spot, the discard fits it)."""
    s = g.state
    seat = g.current_player
    if s.phase != "draw" or not s.discard or not s.stock:
        return False
    if sum(not u for u in s.up[seat]) != 1 or not g.can_use(seat, s.discard[-1]):
        return False
    after = g.copy()
    after.play("take discard")
    return seat in after.state.completed


def test_bad_input_is_refused_clearly() -> None:
    g = cardlab.new_game("garbage", seed=1)
    with pytest.raises(InvalidInputError, match="rng"):
        move_values(g, rollouts=10)
    with pytest.raises(InvalidInputError, match="rollouts"):
        move_values(g, rollouts=0, rng=np.random.default_rng(0))
    with pytest.raises(InvalidInputError, match="budget"):
        SearchPolicy(np.random.default_rng(0), budget=0)
