"""Garbage probabilities: exact counts against simulation, Monte Carlo against engine play-outs."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

import cardlab
from cardlab.chance.stats import wilson
from cardlab.games.garbage.questions import garbage_next_drawer
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.sim.simulate import run_engine_games
from tests.conformance import random_positions

Z999 = 3.2905  # 99.9% intervals: many seeded checks in one file, none should fail by chance


def test_next_card_from_a_fresh_deal_matches_fresh_deals() -> None:
    """Ground truth without resampling: over many fresh deals, how often can seat 0 use the first stock card?"""
    exact = prob.garbage_next_card_placeable(cardlab.new_game("garbage", players=2, seed=0))
    # 10 spots face down, 4 Jacks wild: usable = the 40 cards A-10 plus 4 Jacks, out of 52.
    assert exact == Fraction(44, 52)
    n = 4000
    hits = 0
    for seed in range(n):
        g = cardlab.new_game("garbage", players=2, seed=seed)
        hits += g.can_use(0, g.state.stock[-1])  # type: ignore[attr-defined]
    est = wilson(hits, n, z=Z999)
    assert est.contains(float(exact)), est


@pytest.mark.parametrize("players", [1, 2, 3])
def test_next_card_exact_matches_resampled_frequency(players: int) -> None:
    rng = np.random.default_rng(players)
    for g in random_positions("garbage", players, 8, seed=players, most=25):
        exact = prob.garbage_next_card_placeable(g)
        n = 1500
        seat = garbage_next_drawer(g)  # who draws the next stock card: the next player in the middle of a chain
        hits = sum(g.can_use(seat, g.resample(None, rng).state.stock[-1])  # type: ignore[attr-defined]
                   for _ in range(n))
        est = wilson(hits, n, z=Z999)
        assert est.contains(float(exact)), (g, exact, est)


def test_next_card_after_a_reshuffle_counts_the_known_stock_only() -> None:
    g = cardlab.new_game("garbage", players=2, seed=1, deck=["5H", "3C", "KS", "4D", "9S", "6H", "2C", "QD", "8C",
                                                             "AH", "5S", "3H", "KD", "4C", "9D", "6S", "2H", "QC",
                                                             "8D", "AD", "QS"])
    data = json.loads(g.to_json())
    stock = data["initial"]["stock"]
    data["initial"]["discard"], data["initial"]["stock"] = stock[:-1], stock[-1:]
    g = cardlab.load_game(json.dumps(data))
    g.play("draw stock")  # QS dead -> reshuffle: the new stock is the known discard pile
    assert g.state.stock_known
    seat = g.current_player
    expected = Fraction(sum(g.can_use(seat, c) for c in g.state.stock), len(g.state.stock))  # type: ignore
    assert prob.garbage_next_card_placeable(g) == expected
    # the face-down cards are *not* in the pool any more: counting them too would give another answer
    wrong = g.hidden_cards() + list(g.state.stock)  # type: ignore[attr-defined]
    assert Fraction(sum(g.can_use(seat, c) for c in wrong), len(wrong)) != expected  # type: ignore
    # resampling keeps the stock's multiset and keeps face-down cards out of it
    r = g.resample(None, np.random.default_rng(0))
    assert sorted(r.state.stock) == sorted(g.state.stock)
    assert r.observe(None) == g.observe(None)


def test_win_probability_matches_engine_playouts_of_fresh_deals() -> None:
    """From a fresh 2-player deal (table view), P(seat 0 wins) equals the frequency over fresh seeded hands."""
    g = cardlab.new_game("garbage", players=2, seed=5)
    est = prob.win_probability(g, None, rollouts=3000, rng=np.random.default_rng(1))
    assert est[0].n == 3000
    assert abs(est[0].value + est[1].value - 1) < 1e-9
    winners, _, _ = run_engine_games("garbage", 2, 77, 0, 3000, ["greedy", "greedy"], {})
    freq = wilson(float(np.sum(winners == 0)), winners.size, z=Z999)
    lo, hi = est[0].low, est[0].high
    assert freq.low <= hi and lo <= freq.high, (est[0], freq)


def test_completion_curve_is_monotone_and_matches_the_definition() -> None:
    g = random_positions("garbage", 2, 1, seed=9, most=25)[0]
    curve = prob.completion_curve(g, 0, (1, 2, 3, 4, 5), rollouts=400, rng=np.random.default_rng(2))
    values = [e.value for e in curve]
    assert values == sorted(values)
    single = prob.completion_probability(g, 0, 3, rollouts=400, rng=np.random.default_rng(2))
    assert single.value == curve[2].value  # same seed, same rollouts, same count


def test_solitaire_completion_within_n_turns_agrees_with_direct_engine_play() -> None:
    g = cardlab.new_game("garbage", players=1, seed=3)
    curve = prob.completion_curve(g, 0, (5, 10, 15, 20), rollouts=1500, rng=np.random.default_rng(4))
    policy = make_policy("greedy", "garbage", np.random.default_rng(0))
    turns = []
    for seed in range(1500):
        s = cardlab.new_game("garbage", players=1, seed=10_000 + seed)
        while not s.is_over:
            s.play(choose(policy, s))
        turns.append(s.turns)
    arr = np.array(turns)
    for k, est in zip((5, 10, 15, 20), curve, strict=True):
        direct = wilson(float(np.sum(arr <= k)), arr.size, z=Z999)
        assert direct.low <= est.high and est.low <= direct.high, (k, est, direct)


def test_estimates_are_seeded() -> None:
    g = random_positions("garbage", 2, 1, seed=4, most=25)[0]
    a = prob.win_probability(g, None, rollouts=200, rng=np.random.default_rng(8))
    b = prob.win_probability(g, None, rollouts=200, rng=np.random.default_rng(8))
    assert a == b


def test_budget_gives_an_anytime_estimate() -> None:
    g = random_positions("garbage", 2, 1, seed=4, most=25)[0]
    est = prob.win_probability(g, None, budget_s=0.05, rng=np.random.default_rng(8))
    assert est[0].n >= 1 and est[0].low <= est[0].value <= est[0].high


def test_bad_arguments() -> None:
    g = cardlab.new_game("garbage", players=2, seed=0)
    with pytest.raises(cardlab.InvalidInputError, match="rng="):
        prob.win_probability(g, None, rollouts=10)
    with pytest.raises(cardlab.InvalidInputError, match="rollouts=0"):
        prob.win_probability(g, None, rollouts=0, rng=np.random.default_rng(0))
    with pytest.raises(cardlab.InvalidInputError, match="ks="):
        prob.completion_curve(g, 0, (0,), rollouts=10, rng=np.random.default_rng(0))
    with pytest.raises(cardlab.InvalidInputError, match="seat 5 does not exist"):
        prob.completion_probability(g, 5, 2, rollouts=10, rng=np.random.default_rng(0))


def test_finished_game_is_certain() -> None:
    g = cardlab.new_game("garbage", players=2, seed=1, deck=["2D", "KC", "3S", "AS"], layout_sizes=[2, 1])
    g.play("draw stock")
    est = prob.win_probability(g, 1, rollouts=10, rng=np.random.default_rng(0))
    assert [(e.value, e.low, e.high) for e in est] == [(1.0, 1.0, 1.0), (0.0, 0.0, 0.0)]


def test_the_panel_label_names_the_seat_the_chance_is_for_not_who_draws() -> None:
    """Audit (lessons 00, 02): the player to move may take the discard, and then the next player draws the stock
    card; so the label names the seat the count is for (the player to move, or in the middle of a chain the next
    player), never "who draws it"."""
    from cardlab.games.garbage.questions import panel

    rng = np.random.default_rng(0)
    fresh = cardlab.new_game("garbage", players=2, seed=0)
    chain = cardlab.new_game("garbage", players=2, seed=21)
    bot = make_policy("greedy", "garbage", np.random.default_rng(0))
    while chain.state.phase == "draw":  # type: ignore[attr-defined]
        chain.play(choose(bot, chain))
    labels = {}
    for name, game in (("fresh", fresh), ("chain", chain)):
        first = panel(game, None, rng=rng, rollouts=20)[0]   # type: ignore[arg-type]
        assert first.key == "next_card" and first.seat == garbage_next_drawer(game)  # type: ignore[arg-type]
        labels[name] = first.label
    assert labels == {"fresh": "next stock card can be used by seat 0 (to move)",
                      "chain": f"next stock card can be used by seat {1 - chain.current_player} (the next player)"}
    assert not any("draws it" in label for label in labels.values())
