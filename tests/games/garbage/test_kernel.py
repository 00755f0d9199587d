"""The Garbage kernel plays the engine's game: card for card, and in distribution.

Tested straight against the engine (``cardlab/games/garbage.py`` and its greedy bot), never through
another copy:

1. **Card for card.** The engine's position (a fresh deal, or a random mid-game position after k random
   engine moves) is loaded into the kernel, which plays on with its own generator. The engine plays on
   from the same position with the same policies, its shuffles given the kernel's permutations (its
   ``_shuffle_rng`` is replaced by one whose ``permutation(n)`` is the kernel's Fisher-Yates order,
   ``SplitMix64.permute``) and its random seats drawing ``below(len(legal))`` from the same generator
   (no draw when only one move is legal), exactly as the kernel does. So the whole game is compared:
   every move text (``Move.text``), every reshuffle of the discard pile and every redeal of a match,
   and the final position field by field. Greedy, random, and mixed seats; 1-6 players; every option.
2. **In distribution.** The kernel's fresh deals (:func:`play_shard`) against the engine's own games
   (``run_engine_games``: the engine's deals and shuffles, ``cardlab.policies``' random policy): win
   rate of every seat and the draw rate (two-proportion z test), mean turns, hands and shuffles
   (Welch z test), each at the 99.9% level (|z| < 3.29), for greedy, random and greedy vs random, every
   player count and option set. A check that a real difference fails the same tests is included.
3. **Play-outs from a position** (:func:`win_rollouts`, :func:`completion_turns`): against the engine's
   resampled greedy play-outs (``game.resample``) in distribution; identical for two games the viewer
   cannot tell apart (the real hidden cards are never read).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections import Counter
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.cards import card_from_id
from cardlab.chance import jitkit
from cardlab.chance.jitkit import SplitMix64
from cardlab.dealer import PLAY, Dealer, game_key, stream_seed
from cardlab.errors import CorruptRecordError, InvalidInputError
from cardlab.games.garbage import bot
from cardlab.games.garbage import kernel as kg
from cardlab.games.garbage import rules as rulebook
from cardlab.games.garbage.rules import WILD_ROLE, Garbage, card_role
from cardlab.policies import choose, make_policy
from cardlab.sim.parallel import run_engine_games
from tests.games.kernel_checks import z_proportions

Z = 3.29  # two-sided 99.9%


# ---------------------------------------------------------------------------------------------- the engine, hooked
class _KernelRandom:
    """The engine's random policy drawing as the kernel does: ``below(len(legal))``, nothing for one move."""

    def __init__(self, gen: SplitMix64) -> None:
        self.gen = gen

    def __call__(self, view: Any, legal: Any) -> Any:
        return legal[self.gen.below(len(legal))] if len(legal) > 1 else legal[0]


def engine_play_on(game: Garbage, policies: list[str], seed: int, key: int | None = None,
                   until: str = "game") -> list[str]:
    """Play ``game`` on (in place) with the kernel's random numbers. ``key=None``: as :func:`kg.play_exact`
    with ``seed`` draws them (its random seats from SplitMix64(``seed``), its shuffles from the one dealer's
    streams of ``seed`` as a key), so the engine's shuffles are given those streams; with ``key``: as the
    kernel's game of that key (random seats from its play stream; the engine game's own shuffles, which are
    that key's when the game was dealt with it)."""
    if key is None:
        dealer = Dealer(seed)

        def shuffle_rng() -> Any:
            count = game.state.shuffles
            game.state.shuffles = count + 1
            return dealer.shuffle(count)

        game._shuffle_rng = shuffle_rng  # type: ignore[method-assign]
        gen = SplitMix64(seed)
    else:
        assert game.shuffle_key == key
        gen = SplitMix64(stream_seed(key, PLAY))
    greedy = make_policy("greedy", "garbage", np.random.default_rng(0))
    seats = [greedy if p == "greedy" else _KernelRandom(gen) for p in policies]
    hand = game.state.hand
    texts = []
    while not game.is_over and not (until == "hand" and game.state.hand != hand):
        move = choose(seats[game.current_player], game)
        texts.append(move.text)
        game.play(move)
    return texts


def assert_same_game(game: Garbage, policies: list[str], seed: int, until: str = "game") -> list[str]:
    moves, final = kg.play_exact(game, policies, seed, until)
    engine_moves = engine_play_on(game, policies, seed, until=until)
    same = sum(1 for _ in zip(moves, engine_moves, strict=False))
    first = next((i for i, (a, b) in enumerate(zip(moves, engine_moves, strict=False)) if a != b), same)
    assert moves == engine_moves, f"first difference at move {first}: {moves[first:first + 3]} vs " \
                                  f"{engine_moves[first:first + 3]}"
    if until == "hand":  # the kernel stops as the hand ends; the engine has settled it (and maybe redealt)
        assert final["turn"] == game.turns and final["completed"] == game.state.hand_winners[-1]
    else:
        assert final == kg.state_position(game)
    return moves


SIZES = {1: [4], 2: [10, 6], 3: [3, 10, 7], 4: [5, 2, 9, 10], 5: [10, 8, 6, 8, 10], 6: [3, 5, 7, 9, 10, 1]}
SMALL = {p: [3] * p for p in range(1, 7)}


def option_sets(players: int) -> list[dict[str, Any]]:
    """Every option, alone and combined: wild Kings, last round, layout sizes, match (with small layouts
    for more than two players, so that a match takes a test's time)."""
    sizes = SIZES[players]
    match_sizes = None if players <= 2 else SMALL[players]
    return [
        {},
        {"wild": "K"},
        {"last_round": True},
        {"layout_sizes": sizes},
        {"match": True, "layout_sizes": match_sizes},
        {"match": True, "last_round": True, "wild": "K", "layout_sizes": SMALL[players]},
    ]


MIXES = {"greedy": "greedy", "random": "random", "mixed": "mixed"}


def seats(mix: str, players: int) -> list[str]:
    if mix == "mixed":
        return ["greedy" if s % 2 == 0 else "random" for s in range(players)]
    return [mix] * players


# ---------------------------------------------------------------------------------------------- 1. card for card
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_games_from_the_engines_deals_are_the_engines_card_for_card(players: int) -> None:
    redeals = 0
    for k, options in enumerate(option_sets(players)):
        for mix in ("greedy", "random", "mixed"):
            for rep in range(2 if players <= 3 else 1):
                seed = 1000 * players + 10 * k + rep
                game = Garbage(players, seed=seed, **options)
                assert_same_game(game, seats(mix, players), seed + 7)
                assert game.is_over
                redeals += game.state.hand - 1
    assert redeals > 0   # the comparison went through match redeals


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_play_shard_deals_and_plays_the_engines_game_card_for_card(players: int) -> None:
    # Game i of a run: the kernel deals and shuffles from the one dealer's streams of game_key(seed, i), as
    # the engine's new_game(seed=seed, index=i) does, and its random seats draw from that key's play stream.
    # The engine, its random seats drawing from the same stream, must give the same winner, turns, hands and
    # shuffles.
    for k, options in enumerate(option_sets(players)):
        mix = ("greedy", "random", "mixed")[k % 3]
        policies = seats(mix, players)
        w, t, x = kg.play_shard(players, options, 40 + k, 0, 3, policies)
        for i in range(3):
            game = Garbage(players, seed=40 + k, index=i, **options)
            engine_play_on(game, policies, 0, key=game_key(40 + k, i))
            assert (w[i], t[i], x["hands"][i], x["shuffles"][i]) == (
                -1 if game.winner is None else game.winner, game.turns, game.state.hand, game.state.shuffles)


def low_stock(game: Garbage, keep: int) -> Garbage:
    """The same position with all but the top ``keep`` stock cards moved under the discard pile (a
    position play can reach), so that the stock runs out and the discard pile is reshuffled soon."""
    g = game.copy()
    s = g.state
    s.discard = s.stock[:-keep] + s.discard
    s.stock = s.stock[-keep:]
    return g


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_games_through_reshuffles_of_the_discard_pile_are_the_engines_card_for_card(players: int) -> None:
    reshuffles = 0
    for k, options in enumerate(option_sets(players)):
        for mix in ("greedy", "random", "mixed"):
            for rep in range(2):
                game = low_stock(Garbage(players, seed=70 * players + k, index=rep, **options), 1 + k % 2)
                assert_same_game(game, seats(mix, players), k)
                reshuffles += game.state.shuffles - (game.state.hand - 1)
    assert reshuffles >= 18   # 36 games, at least one reshuffle per two games


@pytest.mark.parametrize("players", [1, 2, 3, 4, 6])
def test_games_from_random_mid_game_positions_are_the_engines_card_for_card(players: int) -> None:
    rng = np.random.default_rng(players)
    phases = set()
    for k, options in enumerate(option_sets(players)):
        for rep in range(3):
            game = Garbage(players, seed=500 + 10 * k + rep, **options)
            for step in range(200):
                # a random number of moves; the third position of each option set goes on to a choice in
                # the middle of a turn (a wild to place or displace), so every phase is compared
                if game.is_over or (step >= int(rng.integers(1, 60)) and (rep < 2 or game.state.phase != "draw")):
                    break
                legal = game.legal_moves()
                game.play(legal[int(rng.integers(len(legal)))])
            if game.is_over:
                continue
            phases.add(game.state.phase)
            mix = ("greedy", "random", "mixed")[rep]
            assert_same_game(game, seats(mix, players), 31 * k + rep)
    assert len(phases) >= 2


def test_play_to_the_end_of_a_hand_stops_where_the_engines_hand_ends() -> None:
    for seed in range(4):
        game = Garbage(3, seed=seed, match=True, last_round=True, layout_sizes=[4, 4, 4])
        assert_same_game(game, ["greedy"] * 3, seed, until="hand")


def test_move_texts_are_the_engines_texts() -> None:
    g = Garbage(2, seed=0, wild="K")
    legal = {m.text for m in g.legal_moves()}
    assert kg.move_text(kg.STOCK_MOVE, "K") in legal
    assert kg.move_text(kg.WILD_TO + 1, "K") == "king to A"
    assert kg.move_text(kg.DISPLACE_ON + 10) == "displace jack on 10"


# ---------------------------------------------------------------------------------------------- 2. in distribution
def z_means(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sample z for the difference of two means, with the pooled variance (under the hypothesis tested
    both samples come from one distribution; a rare count, such as reshuffles, seen 0 times in the small
    sample does not then make its standard error 0)."""
    pooled = np.concatenate([a, b])
    se = math.sqrt(pooled.var(ddof=1) * (1 / a.size + 1 / b.size))
    return 0.0 if se == 0 else float((a.mean() - b.mean()) / se)


def scores(fast: tuple[Any, ...], engine: tuple[Any, ...], players: int) -> dict[str, float]:
    """z of every seat's win rate, the draw rate, and the means of turns, hands and shuffles."""
    (w1, t1, x1), (w2, t2, x2) = fast, engine
    out = {f"seat {s}": z_proportions(float(np.sum(w1 == s)), w1.size, float(np.sum(w2 == s)), w2.size)
           for s in [*range(players), -1]}
    out["turns"] = z_means(t1.astype(float), t2.astype(float))
    for key in ("hands", "shuffles"):
        out[key] = z_means(x1[key].astype(float), np.asarray(x2[key], dtype=float))
    return out


def engine_games(players: int, options: dict[str, Any], policies: list[str], n: int, seed: int) -> Any:
    """The engine's own games (its deals and shuffles, ``cardlab.policies``' random policy), with hands and
    shuffles per game: a run with a seed the kernel's run does not use is an independent sample."""
    from cardlab.engine.rng import game_rng

    winners, turns = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    extras = {"hands": np.empty(n, dtype=np.int64), "shuffles": np.empty(n, dtype=np.int64)}
    for i in range(n):
        rng = game_rng(seed, i)  # the policies' generator; the cards come from the one dealer
        game = Garbage(players, seed=seed, index=i, **options)
        seats_ = [make_policy(p, "garbage", rng) for p in policies]
        while not game.is_over:
            game.play(choose(seats_[game.current_player], game))
        winners[i] = -1 if game.winner is None else game.winner
        turns[i] = game.turns
        extras["hands"][i], extras["shuffles"][i] = game.state.hand, game.state.shuffles
    return winners, turns, extras


STAT_CASES = [
    (1, {}, "greedy", 400), (1, {"layout_sizes": [6]}, "random", 300),
    (2, {}, "greedy", 400), (2, {}, "random", 300), (2, {}, "mixed", 400),
    (2, {"wild": "K", "last_round": True}, "mixed", 600), (2, {"match": True, "layout_sizes": [4, 4]}, "mixed", 150),
    (3, {"last_round": True, "layout_sizes": [3, 10, 7]}, "greedy", 600), (3, {}, "mixed", 200),
    (4, {"wild": "K"}, "random", 120), (4, {"match": True, "layout_sizes": [2, 2, 2, 2]}, "greedy", 120),
    (5, {"layout_sizes": [10, 8, 6, 8, 10]}, "mixed", 120),
    (6, {}, "greedy", 120), (6, {"match": True, "last_round": True, "layout_sizes": [2] * 6}, "mixed", 80),
]


@pytest.mark.parametrize(("players", "options", "mix", "n"), STAT_CASES)
def test_fresh_games_have_the_engines_wins_turns_and_extras(players: int, options: dict[str, Any], mix: str,
                                                           n: int) -> None:
    policies = seats(mix, players)
    fast = kg.play_shard(players, options, 11, 0, 40_000, policies)
    engine = engine_games(players, options, policies, n, 12)
    z = scores(fast, engine, players)
    assert max(abs(v) for v in z.values()) < Z, {k: round(v, 2) for k, v in z.items()}


def test_the_checks_detect_a_real_difference() -> None:
    # At 600 engine games (the size of the cases with a last round), greedy against random seats (seat 0 wins
    # about 80% instead of 53%), random seats (about 16 turns instead of 11) and a last round (one turn more)
    # each fail the same checks.
    engine = engine_games(2, {}, ["greedy", "greedy"], 600, 5)
    for options, policies in (({}, ["greedy", "random"]), ({"last_round": True}, ["greedy"] * 2),
                              ({}, ["random"] * 2)):
        fast = kg.play_shard(2, options, 6, 0, 40_000, policies)
        assert max(abs(v) for v in scores(fast, engine, 2).values()) > Z, options


def test_engine_games_of_run_engine_games_are_these() -> None:
    # the reference above is the engine's simulate path, game for game
    w, t, _ = run_engine_games("garbage", 2, 12, 0, 20, ["greedy", "random"], {})
    mine = engine_games(2, {}, ["greedy", "random"], 20, 12)
    assert np.array_equal(w, mine[0]) and np.array_equal(t, mine[1])


def test_shards_of_any_size_give_the_same_games() -> None:
    whole = kg.play_shard(3, {"last_round": True}, 9, 0, 500, ["random", "greedy", "greedy"])
    parts = [kg.play_shard(3, {"last_round": True}, 9, a, b, ["random", "greedy", "greedy"])
             for a, b in ((0, 1), (1, 137), (137, 500))]
    assert np.array_equal(whole[0], np.concatenate([p[0] for p in parts]))
    assert np.array_equal(whole[1], np.concatenate([p[1] for p in parts]))
    assert np.array_equal(whole[2]["shuffles"], np.concatenate([p[2]["shuffles"] for p in parts]))
    other = kg.play_shard(3, {"last_round": True}, 10, 0, 500, ["random", "greedy", "greedy"])
    assert not np.array_equal(whole[1], other[1])


# ---------------------------------------------------------------------------------------------- 3. play-outs
def engine_playouts(game: Garbage, n: int, seed: int, stop_hand: bool) -> tuple[np.ndarray, np.ndarray]:
    """The engine's resampled greedy play-outs: winners and each seat's own turns to complete (0: never)."""
    rng = np.random.default_rng(seed)
    greedy = make_policy("greedy", "garbage", rng)
    winners = np.full(n, -1, dtype=np.int64)
    done = np.zeros((n, game.players), dtype=np.int64)
    for i in range(n):
        g = game.resample(None, rng)
        hand = g.state.hand
        own = [0] * game.players
        while not g.is_over and not (stop_hand and g.state.hand != hand):
            mover, before = g.current_player, g.turns
            g.play(choose(greedy, g))
            if g.turns > before:
                own[mover] += 1
                settled = g.state.hand_winners[hand - 1] if len(g.state.hand_winners) >= hand else []
                if (mover in g.state.completed or mover in settled) and done[i, mover] == 0:
                    done[i, mover] = own[mover]
        if stop_hand:
            winners[i] = g.state.hand_winners[hand - 1][0] if len(g.state.hand_winners) >= hand else -1
        else:
            winners[i] = -1 if g.winner is None else g.winner
    return winners, done


def mid_game(players: int, seed: int, moves: int, **options: Any) -> Garbage:
    game = Garbage(players, seed=seed, **options)
    greedy = make_policy("greedy", "garbage", np.random.default_rng(0))
    for _ in range(moves):
        if game.is_over:
            break
        game.play(choose(greedy, game))
    return game


@pytest.mark.parametrize(("players", "options", "moves"), [
    (2, {}, 9), (3, {"last_round": True, "wild": "K"}, 14), (2, {"match": True, "layout_sizes": [3, 4]}, 30),
])
def test_playouts_from_a_position_have_the_engines_law(players: int, options: dict[str, Any], moves: int) -> None:
    game = mid_game(players, 3, moves, **options)
    assert not game.is_over
    for stop_hand in (False, True):
        if stop_hand:
            w1, d1 = kg.completion_turns(game, None, 20_000, np.random.default_rng(1))
        else:
            w1, d1 = kg.win_rollouts(game, None, 20_000, np.random.default_rng(1)), None
        w2, d2 = engine_playouts(game, 300, 2, stop_hand)
        for s in [*range(players), -1]:
            z = z_proportions(float(np.sum(w1 == s)), w1.size, float(np.sum(w2 == s)), w2.size)
            assert abs(z) < Z, (stop_hand, s, z)
        if d1 is not None:
            for s in range(players):
                for k in (1, 2, 4):
                    a = (d1[:, s] >= 1) & (d1[:, s] <= k)
                    b = (d2[:, s] >= 1) & (d2[:, s] <= k)
                    assert abs(z_proportions(float(a.sum()), a.size, float(b.sum()), b.size)) < Z, (s, k)


def test_win_chances_come_true_in_real_deals() -> None:
    # Positions of real engine games (greedy, after a random number of moves); each game is then played to
    # its end with its real cards. Over many positions the wins that came true must match the sum of the
    # kernel's predicted chances, overall and in the positions it calls likely and unlikely (z < 3.29).
    rng = np.random.default_rng(17)
    greedy = make_policy("greedy", "garbage", rng)
    predicted, happened = [], []
    for i in range(240):
        game = mid_game(2 + i % 2, 900 + i, int(rng.integers(0, 25)), last_round=bool(i % 3 == 0))
        if game.is_over:
            continue
        p = float(np.mean(kg.win_rollouts(game, None, 400, rng) == 0))
        while not game.is_over:
            game.play(choose(greedy, game))
        predicted.append(p)
        happened.append(float(game.winner == 0))
    pr, ha = np.array(predicted), np.array(happened)
    for part in (pr >= 0, pr >= 0.5, pr < 0.5):
        assert part.sum() >= 40
        z = (ha[part].sum() - pr[part].sum()) / math.sqrt(np.sum(pr[part] * (1 - pr[part])))
        assert abs(z) < Z, (part.sum(), ha[part].sum(), pr[part].sum())


def test_playouts_do_not_read_the_real_hidden_cards() -> None:
    game = mid_game(2, 8, 12)
    twin = game.copy()
    s = twin.state
    rng = np.random.default_rng(3)
    hidden = [(p, k) for p in range(2) for k in range(s.sizes[p]) if not s.up[p][k]]
    cards = [s.spots[p][k] for p, k in hidden] + s.stock
    order = rng.permutation(len(cards))
    cards = [cards[i] for i in order]
    for (p, k), c in zip(hidden, cards, strict=False):
        s.spots[p][k] = c
    s.stock = cards[len(hidden):]
    assert kg.state_position(twin) != kg.state_position(game)
    assert game.observe(None) == twin.observe(None)
    a = kg.win_rollouts(game, None, 3000, np.random.default_rng(5))
    b = kg.win_rollouts(twin, 0, 3000, np.random.default_rng(5))
    assert np.array_equal(a, b)
    ca = kg.completion_turns(game, 1, 500, np.random.default_rng(6))
    cb = kg.completion_turns(twin, None, 500, np.random.default_rng(6))
    assert np.array_equal(ca[1], cb[1])


@pytest.mark.parametrize("wild", ["J", "K"])
def test_the_kernels_card_kinds_are_the_rules_card_for_card(wild: str) -> None:
    """Every card of three packs: the kernel's kind (its spot, wild or dead) is the rules' ``card_role`` and
    what the engine's own ``pip`` and ``is_wild`` say of it."""
    kinds = kg.kinds_of(wild)
    game = Garbage(6, seed=0, wild=wild)
    wrong = []
    for i in range(kg.CARDS):
        card = card_from_id(i)
        engine = kg.WILD if game.is_wild(card) else (game.pip(card) or kg.DEAD)
        if not kinds[i] == card_role(card.rank, wild) == engine:
            wrong.append((str(card), int(kinds[i]), engine))
    assert not wrong, wrong
    assert sorted(Counter(kinds.tolist()).items()) == [(kg.DEAD, 24), *((k, 12) for k in range(1, 11)), (kg.WILD, 12)]


@pytest.mark.parametrize("wild", ["J", "K"])
def test_the_kernels_greedy_preference_is_the_bots_move_for_move(wild: str) -> None:
    """Every legal move of many engine positions (random play, every phase): the kernel's code of it names
    the same move (:func:`kg.engine_move`), and the kernel's table orders any two moves legal together as
    the bot's :func:`~cardlab.games.garbage.bot.preference` does, so the kernel's choice is the bot's."""
    table = kg.prefer_table()
    rng = np.random.default_rng(3)
    phases: Counter[str] = Counter()
    for seed in range(40):
        game = Garbage(1 + seed % 6, seed=seed, wild=wild)
        while not game.is_over and game.turns < 60:
            legal = game.legal_moves()
            phases[game.state.phase] += 1
            codes = [kg.move_code(m, wild) for m in legal]
            assert [kg.engine_move(c, wild) for c in codes] == legal
            best = min(range(len(legal)), key=lambda i: int(table[codes[i]]))
            assert legal[best] == bot.greedy_garbage(game, legal)
            assert sorted(codes, key=lambda c: int(table[c])) == [kg.move_code(m, wild) for m in
                                                                  sorted(legal, key=bot.preference)]
            game.play(legal[int(rng.integers(len(legal)))])
    assert min(phases[p] for p in kg.PHASES) >= 20, phases


def test_the_kernel_plays_the_bot_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel reads the bot's preference when it plays, never a copy: with the preference reversed (the
    stock before the discard pile, a discard before a placed or displacing wild) the kernel and the engine's
    greedy bot still play the same games card for card, and those games are not the bot's usual ones."""
    usual = {seed: kg.play_exact(Garbage(2, seed=seed), ["greedy"] * 2, seed)[0] for seed in range(6)}
    monkeypatch.setattr(bot, "PREFERENCE", tuple(reversed(bot.PREFERENCE)))
    changed = 0
    for seed in range(6):
        moves = assert_same_game(Garbage(2, seed=seed), ["greedy"] * 2, seed)
        changed += moves != usual[seed]
        assert not any(m.startswith(("jack to", "displace")) for m in moves)  # a wild is always discarded
    assert changed == 6


def test_the_kernels_slot_and_chain_table_is_the_rules_placement() -> None:
    """Every role, every state of its spot, with and without a face-down spot left: the kernel's table says
    what the rules' one statement of the slot and chain rule (:func:`~cardlab.games.garbage.rules.placement`)
    says, and every outcome occurs."""
    table = kg.place_table()
    seen = set()
    for role in range(kg.ROLES):
        for st in rulebook.SPOT_STATES:
            for left in (False, True):
                what = rulebook.placement(role, st, left)
                assert table[(st * 2 + left) * kg.ROLES + role] == what, (role, st, left)
                seen.add(what)
    assert seen == set(rulebook.PLACEMENTS)


def greedy_games(players: int, options: dict[str, Any]) -> tuple[list[list[str]], list[Garbage]]:
    """Games 0-5 of the run with seed 3: the kernel's greedy moves (``game_moves``), and the engine's greedy
    games of the same seed and index."""
    kernel, engine = [], []
    greedy = make_policy("greedy", "garbage", np.random.default_rng(0))
    normal = Garbage(players, seed=0, **options).options
    for i in range(6):
        kernel.append(kg.game_moves(players, normal, 3, i, ["greedy"] * players))
        game = Garbage(players, seed=3, index=i, **options)
        while not game.is_over:
            game.play(choose(greedy, game))
        engine.append(game)
    return kernel, engine


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"wild": "K", "last_round": True}),
                                                  (1, {"match": True})])
def test_the_kernel_plays_the_slot_rule_as_written(players: int, options: dict[str, Any],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The slot and chain rule is stated once: changed in its one statement (a wild can no longer be used:
    it is discarded like a Queen), the engine (``can_use`` and the chain) and the kernel play the changed
    game, card for card, and the games are not the usual ones."""
    usual, _ = greedy_games(players, options)
    rule = rulebook.placement
    monkeypatch.setattr(rulebook, "placement",
                        lambda role, spot, left: rulebook.NOTHING if role == WILD_ROLE else rule(role, spot, left))
    kernel, engine = greedy_games(players, options)
    assert kernel == [[m.text for m in g.moves] for g in engine]
    assert sum(a != b for a, b in zip(usual, kernel, strict=True)) >= 4
    for game in engine:
        assert not any(m.kind in ("wild", "displace") for m in game.moves)
        assert not any(e.kind == "place" and game.is_wild(e.data["card"]) for e in game.events)
    wild = next(c for c in Garbage(players, seed=1, **options).state.stock
                if card_role(c.rank, options.get("wild", "J")) == WILD_ROLE)
    assert not Garbage(players, seed=1, **options).can_use(0, wild)


def test_a_finished_game_and_bad_input() -> None:
    game = mid_game(2, 1, 10_000)
    assert game.is_over
    assert np.all(kg.win_rollouts(game, None, 5, np.random.default_rng(0)) == game.winner)
    live = Garbage(2, seed=1)
    with pytest.raises(InvalidInputError, match="viewpoint=5 is not a seat"):
        kg.win_rollouts(live, 5, 5, np.random.default_rng(0))
    with pytest.raises(InvalidInputError, match="policies"):
        kg.play_shard(2, {}, 0, 0, 5, ["greedy", "clever"])
    with pytest.raises(InvalidInputError, match="wild"):
        kg.play_shard(2, {"wild": "Q"}, 0, 0, 5, ["greedy"] * 2)
    assert kg.plays(["greedy", "random"]) and not kg.plays(["greedy", len])


# ---------------------------------------------------------------------------------------------- errors, numba
def test_a_broken_invariant_is_a_kernel_error_with_seed_and_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kg, "MAX_MOVES", 5)
    with pytest.raises(kg.KernelError, match=r"within 5 moves \(game 3, .*seed 4\); moves: draw stock") as info:
        kg.play_shard(2, {}, 4, 3, 9, ["greedy", "greedy"])
    assert "game 3" in str(info.value) and not isinstance(info.value, CorruptRecordError)
    monkeypatch.undo()
    game = Garbage(2, seed=0)
    game.state.discard.append(game.state.stock[0])    # one card in two places
    with pytest.raises(kg.KernelError, match="lost or duplicated"):
        kg.play_exact(game, ["greedy", "greedy"], 1)


def test_a_failing_playout_is_replayed_from_its_own_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A play-out that breaks an invariant is played again from its own seed (its draw of the law, then
    greedy play) and reported with that seed and every move; the replay starts from this position: its
    first move is the greedy bot's, and it is as long as the play-out needs (not cut, not empty)."""
    real = kg._rollouts

    def failing(*args: Any) -> Any:
        real(*args)
        return kg.LOST, 2

    game = mid_game(2, 4, 7)
    seeds = jitkit.seeds(5, np.random.default_rng(3))
    monkeypatch.setattr(kg, "_rollouts", failing)
    with pytest.raises(kg.KernelError) as err:
        kg.completion_turns(game, 1, 5, np.random.default_rng(3))
    text = err.value.report
    assert f"completion_turns: cards were lost or duplicated (play-out 2 of 5, viewpoint 1, seed {int(seeds[2])})" \
        in text
    moves = text.split("; moves: ", 1)[1].split(", ")
    assert moves[0] == choose(make_policy("greedy", "garbage", np.random.default_rng(0)), game).text
    assert len(moves) >= 2 and "moves: none" not in text


def _results_code() -> str:
    return (
        "import json, numpy as np\n"
        "from cardlab.games.garbage import Garbage\n"
        "from cardlab.games.garbage import kernel as kg\n"
        "out = {'numba': kg.HAVE_NUMBA, 'runs': []}\n"
        "cases = [(2, {}), (3, {'last_round': True, 'wild': 'K'}), (2, {'match': True, 'layout_sizes': [3, 3]})]\n"
        "for players, options in cases:\n"
        "    w, t, x = kg.play_shard(players, options, 5, 0, 25, ['greedy'] + ['random'] * (players - 1))\n"
        "    out['runs'].append([w.tolist(), t.tolist(), x['shuffles'].tolist()])\n"
        "    g = Garbage(players, seed=3, **options)\n"
        "    for _ in range(7):\n"
        "        g.play(g.legal_moves()[0])\n"
        "    out['runs'].append(kg.play_exact(g, ['random'] * players, 9))\n"
        "    out['runs'].append(kg.win_rollouts(g, None, 30, np.random.default_rng(1)).tolist())\n"
        "    out['runs'].append(kg.completion_turns(g, 0, 30, np.random.default_rng(2))[1].tolist())\n"
        "print(json.dumps(out))\n")


def test_the_same_results_with_and_without_numba() -> None:
    pytest.importorskip("numba")

    def run(code: str) -> Any:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                              cwd=os.getcwd())
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    compiled = run(_results_code())
    plain = run("import sys\nsys.modules['numba'] = None\n" + _results_code())
    assert compiled["numba"] is True and plain["numba"] is False
    assert compiled["runs"] == plain["runs"] and len(compiled["runs"]) == 12


def test_the_compile_hook_compiles_the_entry_points_in_this_process() -> None:
    """The spec's ``compile`` hook (what ``cardlab compile`` runs, tests/sim/test_cli.py) compiles the kernel's
    entry points here, loading them from numba's on-disk cache when it can."""
    hook = cardlab.engine.game_spec("garbage").compile
    assert hook is not None
    hook()
    assert kg._fresh_games.signatures and kg._rollouts.signatures, "the Garbage kernel was not compiled"
