"""The vectorised Garbage path plays the same game as the engine.

Three kinds of evidence, for 1 to 6 players and the options:

1. **Card for card.** Started from an engine position with its real cards (``play_from``, exact), a
   hand that sees no reshuffle is a pure function of the cards, so the fast path must end it with the
   same winner after the same number of turns as the engine. Checked on fresh deals, on positions in
   every phase ("draw", "wild", "displace"), and on positions just after a reshuffle.
2. **In distribution.** Fresh deals on the fast path deal lazily (no shuffle, uniform draws from the
   unseen cards); their seat win rates and turn distribution must match the engine's within sampling
   error: a two-proportion z test per seat and a chi-square test of homogeneity on the turns, at a
   level (|z| < 3.5) that chance alone passes, and that a real difference fails (checked below).
3. **After reshuffles.** Positions whose stock is about to run out are played through one or more
   reshuffles on both paths, and compared the same way.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.games.garbage import Garbage
from cardlab.policies import choose, make_policy
from cardlab.sim import fast_garbage as fg
from cardlab.sim.stats import wilson

Z_LIMIT = 3.5  # two-sided p about 5e-4 per check


# ---------------------------------------------------------------------------------------------- helpers
def greedy_until_hand_ends(game: Any) -> tuple[int, int, int]:
    """Play ``game`` (a copy) with greedy to the end of its current hand: (winner, turns, shuffles)."""
    policy = make_policy("greedy", "garbage", np.random.default_rng(0))
    hand = game.state.hand
    for _ in range(100_000):
        if game.is_over or game.state.hand != hand:
            break
        game.play(choose(policy, game))
    winners = game.state.hand_winners
    winner = winners[hand - 1][0] if len(winners) >= hand else -1
    return winner, game.turns, game.state.shuffles


def engine_results(games: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = [greedy_until_hand_ends(g.copy()) for g in games]
    w, t, s = (np.array(col, dtype=np.int64) for col in zip(*rows, strict=True))
    return w, t, s


def z_two_proportions(k1: float, n1: int, k2: float, n2: int) -> float:
    p = (k1 + k2) / (n1 + n2)
    if p in (0.0, 1.0):
        return 0.0
    return (k1 / n1 - k2 / n2) / math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))


def chi2_homogeneity_z(a: np.ndarray, b: np.ndarray) -> float:
    """Chi-square test that two samples of turns come from one distribution, as a normal z score.

    Bins are cut at the pooled quantiles so every bin expects at least 10 values of the smaller sample;
    the statistic with k-1 degrees of freedom is turned into z by the Wilson-Hilferty cube root."""
    pooled = np.concatenate([a, b])
    bins = max(2, min(30, min(a.size, b.size) // 10))
    edges = np.unique(np.quantile(pooled, np.linspace(0, 1, bins + 1)[1:-1]))
    ca = np.bincount(np.searchsorted(edges, a, side="right"), minlength=edges.size + 1)
    cb = np.bincount(np.searchsorted(edges, b, side="right"), minlength=edges.size + 1)
    keep = (ca + cb) > 0
    ca, cb = ca[keep], cb[keep]
    k = ca.size - 1
    if k < 1:
        return 0.0
    total = ca + cb
    ea, eb = total * a.size / pooled.size, total * b.size / pooled.size
    stat = float(np.sum((ca - ea) ** 2 / ea) + np.sum((cb - eb) ** 2 / eb))
    return ((stat / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))


def same_game_scores(w1: np.ndarray, t1: np.ndarray, w2: np.ndarray, t2: np.ndarray, players: int) -> list[float]:
    """|z| of every seat's win rate (and of the draw rate) and the z of the turns test."""
    scores = [abs(z_two_proportions(float(np.sum(w1 == s)), w1.size, float(np.sum(w2 == s)), w2.size))
              for s in [*range(players), -1]]
    return [*scores, chi2_homogeneity_z(t1, t2)]


def assert_same_game(w1: np.ndarray, t1: np.ndarray, w2: np.ndarray, t2: np.ndarray, players: int) -> None:
    scores = same_game_scores(w1, t1, w2, t2, players)
    assert max(scores) < Z_LIMIT, (
        f"z scores {np.round(scores, 2)}; win rates {np.bincount(w1 + 1, minlength=players + 1) / w1.size} vs "
        f"{np.bincount(w2 + 1, minlength=players + 1) / w2.size}; turns {t1.mean():.3f} vs {t2.mean():.3f}")


def low_stock(game: Any, keep: int) -> Any:
    """The same position with all but the top ``keep`` stock cards moved under the discard pile."""
    g = game.copy()
    s = g.state
    s.discard = s.stock[:-keep] + s.discard
    s.stock = s.stock[-keep:]
    return g


# ---------------------------------------------------------------------------------------------- fresh deals
FRESH_CASES = [
    (1, (), 1200),
    (2, (), 1200),
    (3, (), 800),
    (4, (), 600),
    (5, (("layout_sizes", (10, 8, 6, 8, 10)),), 200),
    (6, (), 400),
    (2, (("wild", "K"), ("last_round", True)), 800),
    (3, (("layout_sizes", (4, 7, 10)), ("last_round", True)), 500),
]


def _options(items: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in items}


@functools.cache
def fresh_case(players: int, items: tuple[tuple[str, Any], ...], n: int) -> dict[str, Any]:
    options = _options(items)
    deals = [cardlab.new_game("garbage", players=players, seed=1000 + i, **options) for i in range(n)]
    w, t, s = engine_results(deals)
    exact = fg.play_from(deals, np.random.default_rng(1))
    lazy = fg.play_fresh(40_000, np.random.default_rng(2), players, **options)
    return {"deals": deals, "engine": (w, t, s), "exact": exact, "lazy": lazy}


@pytest.mark.parametrize(("players", "items", "n"), FRESH_CASES)
def test_fresh_deals_are_played_card_for_card_like_the_engine(players: int, items: Any, n: int) -> None:
    case = fresh_case(players, items, n)
    w, t, s = case["engine"]
    exact = case["exact"]
    unshuffled = s == 0
    assert unshuffled.mean() > 0.9
    assert np.array_equal(exact.winners[unshuffled], w[unshuffled])
    assert np.array_equal(exact.turns[unshuffled], t[unshuffled])
    assert np.array_equal(exact.shuffles, s)


@pytest.mark.parametrize(("players", "items", "n"), FRESH_CASES)
def test_fresh_deals_have_the_engines_win_rates_and_turns(players: int, items: Any, n: int) -> None:
    case = fresh_case(players, items, n)
    w, t, _ = case["engine"]
    lazy = case["lazy"]
    assert np.all(lazy.winners >= 0) and np.all(lazy.turns >= 1) and np.all(lazy.hands == 1)
    assert_same_game(w, t, lazy.winners, lazy.turns, players)


@pytest.mark.parametrize("players", [2, 6])
def test_lazy_deals_match_real_deals_with_high_power(players: int) -> None:
    # Real deals played card for card (identical to the engine, as shown above) against lazy deals,
    # in larger numbers than the engine can play in a test, so a smaller bias of lazy dealing would show.
    deals = [cardlab.new_game("garbage", players=players, seed=50_000 + i) for i in range(8000 // players)]
    exact = fg.play_from(deals, np.random.default_rng(3))
    lazy = fg.play_fresh(100_000, np.random.default_rng(4), players)
    assert_same_game(exact.winners, exact.turns, lazy.winners, lazy.turns, players)


def test_the_checks_detect_a_real_difference() -> None:
    # At the engine sample sizes, a shift of a win rate by 12 points (seat 0 with 2 spots wins about 65%
    # instead of 53%) or of the turns by one on average (a last round) fails the same checks.
    base = fg.play_fresh(1500, np.random.default_rng(5), 2)
    shorter = fg.play_fresh(40_000, np.random.default_rng(6), 2, layout_sizes=[2, 10])
    last = fg.play_fresh(40_000, np.random.default_rng(7), 2, last_round=True)
    assert max(same_game_scores(base.winners, base.turns, shorter.winners, shorter.turns, 2)) > Z_LIMIT
    assert max(same_game_scores(base.winners, base.turns, last.winners, last.turns, 2)) > Z_LIMIT


def test_solitaire_completion_within_n_turns_agrees_with_the_engine() -> None:
    case = fresh_case(1, (), 1200)
    _, engine_turns, _ = case["engine"]
    fast = cardlab.simulate("garbage", players=1, games=100_000, seed=8)
    assert fast.method == "fast"
    for n in (5, 10, 15, 20):
        e = wilson(float(np.sum(engine_turns <= n)), engine_turns.size)
        f = wilson(float(np.sum(fast.turns <= n)), fast.games)
        assert e.low <= f.high and f.low <= e.high, f"within {n} turns: engine {e}, fast {f}"


# ---------------------------------------------------------------------------------------------- positions
def snapshot_in_phase(game: Any, phase: str, min_moves: int, policy: Any) -> Any:
    """Play greedy for at least ``min_moves`` moves, then on until ``phase`` (or the end)."""
    moves = 0
    while not game.is_over and (moves < min_moves or game.state.phase != phase):
        game.play(choose(policy, game))
        moves += 1
    return game


@pytest.mark.parametrize(("players", "options"), [
    (1, {}), (2, {}), (3, {"last_round": True}), (4, {"wild": "K"}), (6, {"layout_sizes": [3, 5, 7, 9, 10, 10]}),
])
def test_positions_in_every_phase_are_played_like_the_engine(players: int, options: dict[str, Any]) -> None:
    policy = make_policy("greedy", "garbage", np.random.default_rng(0))
    rng = np.random.default_rng(players)
    states = []
    for i in range(240):
        g = cardlab.new_game("garbage", players=players, seed=2000 + i, **options)
        states.append(snapshot_in_phase(g, ("draw", "wild", "displace")[i % 3], int(rng.integers(0, 12)), policy))
    live = [g for g in states if not g.is_over]
    phases = Counter(g.state.phase for g in live)
    assert phases["wild"] > 10 and phases["displace"] > 5 and phases["draw"] > 10, phases
    before = [g.to_json() for g in states]
    w, t, s = engine_results(states)
    exact = fg.play_from(states, np.random.default_rng(9))
    assert [g.to_json() for g in states] == before  # the games themselves are not changed
    same = s == np.array([g.state.shuffles for g in states])
    assert same.mean() > 0.9
    assert np.array_equal(exact.winners[same], w[same])
    assert np.array_equal(exact.turns[same], t[same])


RESHUFFLE_CASES = [(1, {}, 3, 600), (2, {}, 2, 700), (4, {"last_round": True}, 1, 300), (6, {"wild": "K"}, 2, 200)]


@functools.cache
def reshuffle_case(index: int) -> dict[str, Any]:
    players, options, keep, n = RESHUFFLE_CASES[index]
    policy = make_policy("greedy", "garbage", np.random.default_rng(0))
    starts, after, final = [], [], []
    for i in range(n):
        g = low_stock(cardlab.new_game("garbage", players=players, seed=3000 + i, **options), keep)
        starts.append(g.copy())
        snap = None
        while not g.is_over:
            g.play(choose(policy, g))
            if snap is None and g.state.shuffles and not g.is_over:
                snap = g.copy()
        after.append(snap)
        final.append((-1 if g.winner is None else g.winner, g.turns, g.state.shuffles))
    w, t, s = (np.array(col, dtype=np.int64) for col in zip(*final, strict=True))
    return {"players": players, "starts": starts, "after": after, "engine": (w, t, s)}


@pytest.mark.parametrize("index", range(len(RESHUFFLE_CASES)))
def test_hands_through_reshuffles_match_the_engine(index: int) -> None:
    case = reshuffle_case(index)
    players, starts = case["players"], case["starts"]
    w, t, s = case["engine"]
    assert (s >= 1).mean() > 0.8          # these hands really go through a reshuffle
    exact = fg.play_from(starts, np.random.default_rng(10))
    resampled = fg.play_from(starts * 20, np.random.default_rng(11), resample=True)
    assert (exact.shuffles >= 1).mean() > 0.8
    assert_same_game(w, t, exact.winners, exact.turns, players)
    assert_same_game(w, t, resampled.winners, resampled.turns, players)


@pytest.mark.parametrize("index", range(len(RESHUFFLE_CASES)))
def test_positions_just_after_a_reshuffle_are_played_like_the_engine(index: int) -> None:
    case = reshuffle_case(index)
    w, t, s = case["engine"]
    rows = [i for i, g in enumerate(case["after"]) if g is not None]
    after = [case["after"][i] for i in rows]
    assert len(after) > 0.8 * len(case["after"]) and all(g.state.stock_known for g in after)
    exact = fg.play_from(after, np.random.default_rng(12))
    one = s[rows] == 1        # no second reshuffle: the rest of the hand is fixed by the known stock order
    assert one.mean() > 0.5
    assert np.array_equal(exact.winners[one], w[rows][one])
    assert np.array_equal(exact.turns[one], t[rows][one])
    # the unseen cards redealt: the known stock is drawn in random order, face-down cards from the pool
    resampled = fg.play_from(after * 20, np.random.default_rng(13), resample=True)
    assert_same_game(w[rows], t[rows], resampled.winners, resampled.turns, case["players"])


# ---------------------------------------------------------------------------------------------- matches
@pytest.mark.parametrize(("players", "options"), [
    (2, {"match": True, "layout_sizes": [3, 3]}),
    (3, {"match": True, "last_round": True, "layout_sizes": [2, 3, 2]}),
])
def test_matches_have_the_engines_winners_turns_and_hands(players: int, options: dict[str, Any]) -> None:
    n = 250
    result = cardlab.simulate("garbage", players=players, games=n, seed=14, fast=False, **options)
    policy = make_policy("greedy", "garbage", np.random.default_rng(0))
    hands = []
    for i in range(n):   # the engine's hand counts, replaying the same seeded games
        g = Garbage(players, rng=np.random.default_rng([14, i]), **options)
        while not g.is_over:
            g.play(choose(policy, g))
        hands.append(g.state.hand)
        assert g.turns == result.turns[i]
    fast = fg.play_fresh(20_000, np.random.default_rng(15), players, **options)
    assert_same_game(result.winners, result.turns, fast.winners, fast.turns, players)
    assert chi2_homogeneity_z(np.array(hands), fast.hands) < Z_LIMIT
    assert fast.hands.min() >= min(options["layout_sizes"])   # each hand win takes away one spot
    assert np.all(fast.shuffles >= fast.hands - 1)            # every redeal is a shuffle


def test_first_hand_of_a_match_is_played_card_for_card() -> None:
    deals = [cardlab.new_game("garbage", players=3, seed=4000 + i, match=True, layout_sizes=[2, 3, 1])
             for i in range(300)]
    w, t, s = engine_results(deals)
    exact = fg.play_from(deals, np.random.default_rng(16), until="hand")
    keep = s == 0
    assert np.array_equal(exact.winners[keep], w[keep]) and np.array_equal(exact.turns[keep], t[keep])
    whole = fg.play_from(deals, np.random.default_rng(17), until="game")
    assert np.all(whole.hands >= 1) and np.all(whole.turns >= exact.turns)


# ---------------------------------------------------------------------------------------------- rollouts
def engine_rollouts(game: Any, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Resampled greedy play-outs on the engine, counting each seat's own turns until it completed."""
    rng = np.random.default_rng(seed)
    policy = make_policy("greedy", "garbage", rng)
    winners = np.full(n, -1, dtype=np.int64)
    done = np.zeros((n, game.players), dtype=np.int64)
    for i in range(n):
        g = game.resample(None, rng)
        own = [0] * g.players
        while not g.is_over:
            mover, before = g.current_player, g.turns
            g.play(choose(policy, g))
            if g.turns > before:
                own[mover] += 1
                if mover in g.state.completed and done[i, mover] == 0:
                    done[i, mover] = own[mover]
        winners[i] = -1 if g.winner is None else g.winner
    return winners, done


@pytest.mark.parametrize(("players", "options", "moves", "keep"), [
    (2, {}, 9, None), (3, {"last_round": True}, 14, None), (1, {}, 6, 2), (2, {"wild": "K"}, 5, 2),
])
def test_rollouts_match_engine_resampling(players: int, options: dict[str, Any], moves: int,
                                          keep: int | None) -> None:
    policy = make_policy("greedy", "garbage", np.random.default_rng(0))
    g = cardlab.new_game("garbage", players=players, seed=77, **options)
    if keep is not None:          # run the stock low, so the play-outs go through reshuffles
        g = low_stock(g, keep)
    for _ in range(moves):
        g.play(choose(policy, g))
    assert not g.is_over
    ew, ed = engine_rollouts(g, 600, seed=18)
    fw, fd = fg.rollouts_from(g, 0, 30_000, np.random.default_rng(19))
    assert fw.shape == (30_000,) and fd.shape == (30_000, players)
    win_scores = same_game_scores(ew, ed.sum(axis=1), fw, fd.sum(axis=1), players)
    assert max(win_scores) < Z_LIMIT, win_scores
    for seat in range(players):    # each seat's own turns until it completed, as a distribution
        assert chi2_homogeneity_z(ed[:, seat], fd[:, seat]) < Z_LIMIT
        for k in (1, 3, 6):
            e = float(np.mean((ed[:, seat] >= 1) & (ed[:, seat] <= k)))
            f = float(np.mean((fd[:, seat] >= 1) & (fd[:, seat] <= k)))
            assert abs(z_two_proportions(e * ed.shape[0], ed.shape[0], f * fd.shape[0], fd.shape[0])) < Z_LIMIT


def test_rollout_results_are_consistent() -> None:
    policy = make_policy("greedy", "garbage", np.random.default_rng(0))
    g = cardlab.new_game("garbage", players=3, seed=5, last_round=True)
    for _ in range(10):
        g.play(choose(policy, g))
    w, d = fg.rollouts_from(g, None, 5000, np.random.default_rng(20))
    w2, d2 = fg.rollouts_from(g, 2, 5000, np.random.default_rng(20))
    assert np.array_equal(w, w2) and np.array_equal(d, d2)     # every viewpoint sees the same table
    assert np.all(d[np.arange(w.size), w] >= 1)                # the winner completed
    assert np.all(d >= 0)
    assert np.any((d > 0).sum(axis=1) > 1)                     # the last round lets others complete too
    g1 = cardlab.new_game("garbage", players=1, seed=6)
    w1, d1 = fg.rollouts_from(g1, 0, 2000, np.random.default_rng(21))
    assert np.all(w1 == 0) and np.all(d1[:, 0] >= 1)


def test_rollouts_and_play_from_refuse_bad_input() -> None:
    g = cardlab.new_game("garbage", players=2, seed=1)
    rng = np.random.default_rng(0)
    with pytest.raises(cardlab.InvalidInputError, match="seat 5 does not exist"):
        fg.rollouts_from(g, 5, 10, rng)
    with pytest.raises(cardlab.InvalidInputError, match="n=0 is not allowed"):
        fg.rollouts_from(g, 0, 0, rng)
    with pytest.raises(cardlab.InvalidInputError, match="not a numpy.random.Generator"):
        fg.rollouts_from(g, 0, 10, 7)  # type: ignore[arg-type]
    other = cardlab.new_game("shithead", players=2, seed=1)
    with pytest.raises(cardlab.InvalidInputError, match="Garbage games only"):
        fg.rollouts_from(other, 0, 10, rng)  # type: ignore[arg-type]
    with pytest.raises(cardlab.InvalidInputError, match="Garbage games only"):
        fg.play_from([g, other], rng)  # type: ignore[list-item]
    with pytest.raises(cardlab.InvalidInputError, match="until='round'"):
        fg.play_from([g], rng, until="round")  # type: ignore[arg-type]
    with pytest.raises(cardlab.InvalidInputError, match="players=7"):
        fg.play_fresh(10, rng, 7)
    with pytest.raises(cardlab.InvalidInputError, match="layout_sizes"):
        fg.play_fresh(10, rng, 2, layout_sizes=[10, 11])
    assert fg.supports(g) and not fg.supports(other)


def test_play_from_mixed_and_finished_games() -> None:
    policy = make_policy("greedy", "garbage", np.random.default_rng(0))
    done = cardlab.new_game("garbage", players=2, seed=3)
    while not done.is_over:
        done.play(choose(policy, done))
    mixed = [cardlab.new_game("garbage", players=1, seed=1), done, cardlab.new_game("garbage", players=4, seed=2)]
    out = fg.play_from(mixed, np.random.default_rng(0))
    assert out.done.shape == (3, 4)
    assert out.winners[1] == done.winner and out.turns[1] == done.turns
    for i in (0, 2):
        w, t, _ = greedy_until_hand_ends(mixed[i].copy())
        assert (out.winners[i], out.turns[i]) == (w, t)
    empty = fg.play_from([], np.random.default_rng(0))
    assert empty.winners.shape == (0,)
    stuck = low_stock(cardlab.new_game("garbage", players=2, seed=4), 1)
    stuck.state.discard.append(stuck.state.stock.pop())
    with pytest.raises(cardlab.InvalidInputError, match="empty stock at the start of a turn"):
        fg.play_from([stuck], np.random.default_rng(0))


def test_bit_tables() -> None:
    bits = fg.bit_table("J")
    assert [int(b) for b in bits[1:11]] == [1 << k for k in range(10)]
    assert bits[11] == fg.WILD and bits[12] == fg.DEAD and bits[13] == fg.DEAD
    kings = fg.bit_table("K")
    assert kings[11] == fg.DEAD and kings[13] == fg.WILD
    assert [int(fg.LOWEST[1 << k]) for k in range(10)] == list(range(10))
    assert int(fg.LOWEST[0b1011000]) == 3
    assert int(fg.UP_START[10]) == 0 and int(fg.UP_START[3]) == 0b1111111000
    deck = fg.pack_bits(2, "J")
    assert deck.size == 104 and int(np.sum(deck == fg.WILD)) == 8 and int(np.sum(deck == fg.DEAD)) == 16
