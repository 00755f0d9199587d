"""The Shithead kernel against the engine, directly.

1. **Card for card.** From the engine's own positions (fresh deals, positions inside the set-up, and
   positions reached by uniformly random play, for 2–5 players and every option set, plus a small
   ``max_turns``), the kernel plays greedy on every seat and must make the engine's moves (decoded to
   ``Move.text``) and reach the engine's final position: every hand, face-up card, face-down position,
   known card, the draw and discard piles in order, and every counter. Shithead's one chance after the
   deal is which unseen cards of a rank a hand plays (the engine draws them from a keyed generator);
   the kernel is handed the engine's choice as a *script*, and checks that it obeys the
   seen-cards-first rule. The corpus is checked to reach every rule.
2. **The kernel's own deals** are the engine's games of the same deck: game ``i`` of ``play_shard``
   equals the engine playing ``deal_codes(seed, i)`` as a stacked deck (winner, turns, every figure).
3. **The random policy** is uniform over the engine's legal moves: from positions of every kind (set-up
   with one and two packs, hand, face-up, blind), one kernel move per seed, many seeds: exactly the
   engine's legal moves appear, each about equally often (chi-square, Wilson-Hilferty z < 3.72, p 1e-4).
4. **Statistically**, kernel and engine (greedy, random, greedy against random) agree in win rates,
   draws, mean turns and every per-game figure: a two-sample z-test (difference of the means over the
   standard error from the pooled variance) at two-sided 99.9% (|z| < 3.29) on 12 cases that cover every
   player count with every policy mix and every option set. About 130 comparisons at 0.1% each: a
   correct kernel fails one with probability about 12%; the seeds are fixed, so the run is repeatable.
5. **Play-outs from a position** (P(win), "picks up on its next turn") equal the engine's greedy
   play-out of the position whose hidden cards are those the chance law drew with the same seed
   (rebuilt here from the law's place names, not through the kernel), and give identical answers for two
   games the viewer cannot tell apart.
6. Without numba the same functions give the same results (a subprocess); broken invariants raise
   :class:`KernelError` with the seed and the moves.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.cards import Card, Rank, card_from_id
from cardlab.chance import jitkit
from cardlab.engine.game import RECORD_FORMAT, RECORD_VERSION, Game
from cardlab.errors import CorruptRecordError, InvalidInputError
from cardlab.games.shithead import Shithead, ShitheadState, beliefs, shithead_move, sort_key
from cardlab.games.shithead import kernel as ks
from cardlab.games.shithead import rules as rulebook
from cardlab.games.shithead.ranks import counts_low
from cardlab.games.shithead.rules import HOUSE_RULES, PILE_RANKS, House, rank_power
from cardlab.policies import RandomPolicy, choose, make_policy

GREEDY = make_policy("greedy", "shithead", np.random.default_rng(0))
OPTION_SETS: list[dict[str, Any]] = [
    dict(four_kind_plays_again=a, play_to_last=b, first=f)
    for a, b, f in itertools.product((False, True), (False, True), ("seat0", "lowest3"))]
PLAYERS = (2, 3, 4, 5)
Z_999 = 3.2905   # two-sided 99.9%
CHI_Z = 3.719    # one-sided 1e-4 on the Wilson-Hilferty scale


# ---------------------------------------------------------------------------------------------- engine side
def engine_position(game: Game[Any]) -> dict[str, Any]:
    """The engine's position in the terms of :meth:`Table.position`."""
    s = game.state
    assert isinstance(s, ShitheadState)
    return {
        "hands": [[c.code for c in h] for h in s.hands], "face_up": [[c.code for c in u] for u in s.face_up],
        "face_down": [[None if c is None else c.code for c in d] for d in s.face_down],
        "known": [[c.code for c in h if c in s.known[p]] for p, h in enumerate(s.hands)],
        "draw": [c.code for c in s.draw], "pile": [c.code for c in s.pile], "out": len(s.out),
        "to_move": s.to_move, "phase": s.phase, "turn": s.turn, "ranking": list(s.ranking), "winner": s.winner,
        "over": s.over, "stopped": s.stopped, "blind_plays": s.blind_plays, "blind_fits": s.blind_fits,
        "pickups": s.pickups, "burns": s.burns, "clears": s.clears}


def engine_greedy(game: Game[Any], beliefs: bool = True) -> tuple[Game[Any], list[str], list[int], set[str]]:
    """The engine's greedy play of a copy of ``game`` to the end: the final game, the move texts, the
    script (the cards each play from a hand really took, by id) and the rules that were used. Without
    ``beliefs`` the copy skips what play tells about the hands (the kernel keeps none; twice as fast)."""
    g = game.copy()
    if not beliefs:
        g._learn = lambda *a: None  # type: ignore[attr-defined]
    texts: list[str] = []
    script: list[int] = []
    used: set[str] = set()
    mark = len(g.events)
    while not g.is_over:
        move = choose(GREEDY, g)
        seat = g.current_player
        before = Counter(g.state.hands[seat])
        seen = Counter(g.state.known[seat])
        before_rank = g.pile_rank if g.state.phase == "play" else None
        g.play(move)
        texts.append(move.text)
        if move.kind == "play" and shithead_move(move).source == "hand":
            play = shithead_move(move)
            taken = before - Counter(g.state.hands[seat])
            script += [c.id for c in taken.elements()]
            held = sum(n for c, n in before.items() if int(c.rank) == play.rank)
            if held > play.count:
                used.add("a choice of cards")
                if any(int(c.rank) == play.rank for c in seen.elements()):
                    used.add("a choice with seen cards")
        if g.house.seven_lower and before_rank == Rank.SEVEN and move.kind != "pickup":
            used.add("a play after a 7")
        if g.house.invisible_three and g.state.pile[-1:] and g.state.pile[-1].rank == Rank.THREE \
                and len(g.state.pile) > 1:
            used.add("an invisible 3 on a pile")
    for e in g.events[mark:]:
        used.add(e.kind)
        if e.kind == "burn" and "in a row" in e.text:
            used.add("clear")
        if e.kind == "blind":
            used.add(f"blind fits={e.data['fits']}")
    return g, texts, script, used


def advance(game: Game[Any], moves: int, rng: np.random.Generator, beliefs: bool = True) -> Game[Any]:
    """A copy of ``game`` after up to ``moves`` uniformly random moves (without ``beliefs``: see
    :func:`engine_greedy`)."""
    g = game.copy()
    if not beliefs:
        g._learn = lambda *a: None  # type: ignore[attr-defined]
    policy = RandomPolicy(rng)
    for _ in range(moves):
        if g.is_over:
            break
        g.play(choose(policy, g))
    return g


def with_state(game: Game[Any], state: ShitheadState) -> Game[Any]:
    """A game loaded from a record whose dealt position is ``state`` (same players and options)."""
    record = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "game": "shithead", "players": game.players,
              "options": game.options, "shuffle_key": 5, "initial": state.to_data(), "moves": []}
    return cardlab.load_game(json.dumps(record))


# ---------------------------------------------------------------------------------------------- 1. card for card
def corpus_positions() -> list[Game[Any]]:
    """Fresh deals, set-up positions and positions after random play: every player count and option set,
    and a small ``max_turns`` (the safety stop)."""
    out: list[Game[Any]] = []
    cases = [(p, o) for p in PLAYERS for o in OPTION_SETS]
    cases += [(p, dict(max_turns=m)) for p, m in ((2, 25), (3, 40), (5, 60))]
    for i, (players, options) in enumerate(cases):
        seed = 1000 + i
        g = cardlab.new_game("shithead", players=players, seed=seed, **options)
        rng = np.random.default_rng(seed)
        out.append(g)
        out.append(advance(g, int(rng.integers(1, 3 * players)), rng))
        out.append(advance(g, 3 * players + int(rng.integers(1, 60)), rng))
        out.append(advance(g, 3 * players + int(rng.integers(60, 400)), rng))
    return out


@functools.cache
def corpus() -> list[tuple[Game[Any], Game[Any], list[str], list[int], set[str]]]:
    return [(g, *engine_greedy(g)) for g in corpus_positions()]


HOUSE_OPTIONS: dict[str, dict[str, Any]] = {key: {key: True} for key in HOUSE_RULES} | {
    "all three": dict.fromkeys(HOUSE_RULES, True)}
"""Each house rule alone, and all three together."""
HOUSE_MARK = {"seven_lower": "a play after a 7", "invisible_three": "an invisible 3 on a pile", "eight_skips": "skip"}
"""What shows that a game used the house rule."""


def house_card_for_card(options: dict[str, Any], games: int, seed: int = 0) -> tuple[int, list[Any], Counter[str]]:
    """``games`` games with the house-rule ``options`` (2–5 players in turn, other options varied, every
    other game from a position after uniformly random moves), each played greedily by the engine and by
    the kernel (the engine's choice of cards as its script): the games compared, the mismatches (moves or
    final position), and how many games used each rule (:data:`HOUSE_MARK`, clears, skips, blind plays)."""
    mismatches: list[Any] = []
    used: Counter[str] = Counter()
    for i in range(games):
        players = PLAYERS[i % len(PLAYERS)]
        extra = OPTION_SETS[(i // len(PLAYERS)) % len(OPTION_SETS)]
        g: Game[Any] = cardlab.new_game("shithead", players=players, seed=100_000 * seed + i, **extra, **options)
        if i % 2:
            rng = np.random.default_rng([seed, i, 1])
            g = advance(g, 3 * players + int(rng.integers(1, 200)), rng, beliefs=False)
        end, texts, script, rules = engine_greedy(g, beliefs=False)
        used.update(rules)
        table = ks.Table.of(g)
        status, codes = table.run(7, record=20_000, script=script)
        got = [ks.move_text(c) for c in codes]
        if status != ks.DONE or got != texts or table.position() != engine_position(end):
            mismatches.append((i, players, g.options, g.move_count))
    return games, mismatches, used


@pytest.mark.parametrize("name", list(HOUSE_OPTIONS))
def test_house_rules_kernel_makes_the_engines_moves_card_for_card(name: str) -> None:
    """Each house rule (and all three): the kernel's greedy games equal the engine's, card for card, and the
    games use the rule. ``benchmarks/bench_kernel_shithead.py --house 2000`` runs 2,000 games per option."""
    options = HOUSE_OPTIONS[name]
    games, mismatches, used = house_card_for_card(options, 40, seed=31)
    assert not mismatches, mismatches[:5]
    for key in options:
        assert used[HOUSE_MARK[key]] >= 5, (key, used)


def test_house_rules_play_shard_plays_the_engines_game_of_the_same_deck() -> None:
    """The kernel's own deals with every house rule on, against the engine playing the same deck."""
    options = HOUSE_OPTIONS["all three"]
    for players in (2, 4):
        winners, turns, extras = ks.play_shard(players, options, 13, 0, 12, ["greedy"] * players)
        for i in range(12):
            g = cardlab.new_game("shithead", players=players, seed=0, deck=ks.deal_codes(13, i, players), **options)
            end, *_ = engine_greedy(g)
            assert winners[i] == (-1 if end.winner is None else end.winner) and turns[i] == end.turns
            assert {key: extras[key][i] for key in extras} == end.stats()


def test_the_kernels_tables_are_the_rules_tables_card_for_card() -> None:
    """The kernel's rules array, read back, says for every card and every pile what the rules' functions
    say (:class:`House`): fit, invisible, skip, and the two greedy orders (the play order per pile, among the
    ranks that fit it)."""
    for house in House.all():
        options = {k: getattr(house, k) for k in HOUSE_RULES}
        rules = ks._rules(options, [ks.GREEDY] * 2)
        for top in PILE_RANKS:
            row = 0 if top is None else rank_power(top)
            for c in range(52):
                rank = card_from_id(c).rank
                assert ks._fits(rules, int(ks.POWER[c]), row) == house.fits(rank, top), (house, top, rank)
        for c in range(52):
            rank = card_from_id(c).rank
            assert rules[ks.R_INVISIBLE + ks.POWER[c]] == house.invisible(rank)
            assert rules[ks.R_SKIP + ks.POWER[c]] == house.skips(rank)
        for top in PILE_RANKS:  # the greedy play preference among the ranks that fit this pile
            row = ks.R_PLAYS + (0 if top is None else rank_power(top)) * ks.PLAY_ROW
            play = [(int(code) >> 1, bool(code & 1)) for code in rules[row + 1:row + 1 + rules[row]]]
            assert play == [(rank_power(r), every) for r, every in house.play_order() if house.fits(r, top)]
        setup = [int(x) for x in rules[ks.R_SETUP_ORDER:ks.R_SETUP_ORDER + ks.RANKS]]
        assert setup == [rank_power(r) for r in house.setup_order()]
        for r in Rank:  # the rules that no house rule changes: burn, low cards, clear
            assert rules[ks.R_BURN + rank_power(r)] == rulebook.burns(r), r
            assert rules[ks.R_LOW + rank_power(r)] == counts_low(r), r
        assert [bool(x) for x in rules[ks.R_CLEAR:ks.R_CLEAR + ks.SLOTS + 1]] == [
            rulebook.clears(run) for run in range(ks.SLOTS + 1)]


def greedy_engine_game(players: int, seed: int, index: int, options: dict[str, Any]) -> Game[Any]:
    """Game ``index`` of the run with ``seed``, played to the end by the engine's greedy bot in every seat."""
    game = cardlab.new_game("shithead", players=players, seed=seed, index=index, **options)
    while not game.is_over:
        game.play(choose(GREEDY, game))
    return game


def changed_rule_games(options: dict[str, Any]) -> tuple[list[list[str]], list[Game[Any]]]:
    """The kernel's greedy games (move texts) and the engine's (games) of a few seeds and player counts."""
    kernel, engine = [], []
    for players in (2, 3, 5):
        normal = cardlab.new_game("shithead", players=players, seed=0, **options).options
        for i in range(6):
            kernel.append(ks.game_moves(players, normal, 5 + i, i, ["greedy"] * players))
            engine.append(greedy_engine_game(players, 5 + i, i, options))
    return kernel, engine


@pytest.mark.parametrize("options", [{}, {"first": "lowest3", "four_kind_plays_again": True}])
def test_a_rule_changed_in_its_one_statement_changes_kernel_and_engine_alike(
        options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each rule is stated once, in the rules: change the statement (9s burn too, three in a row clear, a 3
    does not count as low) and the kernel and the engine play the changed game, card for card, and it is
    another game than before."""
    before, _ = changed_rule_games(options)
    monkeypatch.setattr(rulebook, "burns", lambda rank: rank in (Rank.TEN, Rank.NINE))
    monkeypatch.setattr(rulebook, "clears", lambda run: run >= 3)
    monkeypatch.setattr(rulebook, "counts_low", lambda rank: rank not in (Rank.TWO, Rank.TEN, Rank.THREE))
    kernel, engine = changed_rule_games(options)
    assert kernel == [[m.text for m in g.moves] for g in engine]
    changed = sum(a != b for a, b in zip(before, kernel, strict=True))
    assert changed >= len(kernel) // 2, changed
    said = " ".join(e.text for g in engine for e in g.events)
    assert "the 9 burns the pile" in said and "3 cards of rank" in said


def test_the_table_is_the_engines_position() -> None:
    for g, *_ in corpus():
        assert ks.Table.of(g).position() == engine_position(g)


def test_greedy_makes_the_engines_moves_and_reaches_its_final_position() -> None:
    mismatches = []
    for g, end, texts, script, _ in corpus():
        table = ks.Table.of(g)
        status, codes = table.run(7, record=20_000, script=script)
        got = [ks.move_text(c) for c in codes]
        if status != ks.DONE or got != texts or table.position() != engine_position(end):
            mismatches.append((g.players, g.options, g.move_count, next(
                (i, a, b) for i, (a, b) in enumerate(itertools.zip_longest(got, texts)) if a != b)
                if got != texts else "final position"))
    assert not mismatches, mismatches[:5]


def ranks_of(position: dict[str, Any]) -> dict[str, Any]:
    """A position with every card replaced by its rank (suits and packs forgotten)."""
    def rank(code: str | None) -> str | None:
        return None if code is None else code.split(":")[0][:-1]

    def zone(value: Any) -> Any:
        return [zone(v) for v in value] if isinstance(value, list) else rank(value) if isinstance(value, str) \
            or value is None else value

    return {k: zone(v) if k in ("hands", "face_up", "face_down", "known", "draw", "pile") else v
            for k, v in position.items()}


def test_without_a_script_the_kernel_chooses_its_own_cards_and_plays_the_same_game() -> None:
    """The kernel's own choice of cards (no script): the same moves, the same position rank for rank, and
    card for card where the engine had no choice to make."""
    exact = 0
    for g, end, texts, _, used in corpus():
        table = ks.Table.of(g)
        status, codes = table.run(7, record=20_000)
        assert status == ks.DONE and [ks.move_text(c) for c in codes] == texts
        assert ranks_of(table.position()) == ranks_of(engine_position(end))
        if "a choice of cards" not in used:
            assert table.position() == engine_position(end)
            exact += 1
    assert exact > 20


def test_the_corpus_reaches_every_rule() -> None:
    used = set().union(*(u for *_, u in corpus()))
    wanted = {"face-up", "start", "play", "draw", "pickup", "burn", "clear", "blind fits=True", "blind fits=False",
              "win", "out", "shithead", "stopped", "a choice of cards", "a choice with seen cards"}
    assert wanted <= used, wanted - used
    sources = Counter(t.split()[1] if t.startswith("play") else t.split()[0] for *_, texts, _, _ in corpus()
                      for t in texts)
    assert sources["face-up"] > 50 and sources["face-down"] > 50 and sources["pick"] > 50


def test_the_script_is_checked_against_the_seen_cards_first_rule() -> None:
    """Handing the kernel a choice the engine could not make is a KernelError, not a silent replay."""
    for g, _, _, script, used in corpus():
        if "a choice with seen cards" in used and len(script) > 2:
            bad = list(script)
            bad[0] = (bad[0] + 1) % 52  # a card that is not the one played
            with pytest.raises(ks.KernelError, match="the engine's choice of cards"):
                ks.Table.of(g).run(7, script=bad)
            return
    raise AssertionError("no corpus game has a choice among seen cards")


def test_a_partial_run_stops_after_its_moves() -> None:
    g, end, texts, script, _ = corpus()[2]
    table = ks.Table.of(g)
    status, codes = table.run(7, record=100, script=script, budget=5)
    assert status == ks.PAUSED and [ks.move_text(c) for c in codes] == texts[:5]
    engine = g.copy().play_all(texts[:5])
    assert table.position() == engine_position(engine)


# ---------------------------------------------------------------------------------------------- 2. the kernel's deals
@pytest.mark.parametrize("players", PLAYERS)
def test_play_shard_plays_the_engines_game_of_the_same_deck(players: int) -> None:
    options = OPTION_SETS[players + 2]
    winners, turns, extras = ks.play_shard(players, options, 11, 40, 64, ["greedy"] * players)
    for k, i in enumerate(range(40, 64)):
        g = cardlab.new_game("shithead", players=players, seed=0, deck=ks.deal_codes(11, i, players), **options)
        end, *_ = engine_greedy(g)
        assert winners[k] == (-1 if end.winner is None else end.winner) and turns[k] == end.turns
        assert {key: extras[key][k] for key in extras} == end.stats()


def test_shards_of_any_size_give_the_same_games() -> None:
    pol = ["greedy", "random", "random"]
    whole = ks.play_shard(3, {}, 5, 0, 300, pol)
    parts = [ks.play_shard(3, {}, 5, a, b, pol) for a, b in ((0, 1), (1, 137), (137, 300))]
    assert np.array_equal(whole[0], np.concatenate([p[0] for p in parts]))
    assert np.array_equal(whole[1], np.concatenate([p[1] for p in parts]))
    for key in whole[2]:
        assert np.array_equal(whole[2][key], np.concatenate([p[2][key] for p in parts]))
    other = ks.play_shard(3, {}, 6, 0, 300, pol)
    assert not np.array_equal(whole[1], other[1])


def test_deals_are_uniform_over_where_a_card_goes() -> None:
    """Where the Ace of spades lies after the deal (a face-down card, a hand, the draw pile) over many
    kernel deals, against the exact shares 6/52, 12/52 and 34/52 (z-tests at 99.9%)."""
    n = 4000
    places: Counter[str] = Counter()
    for i in range(n):
        at = ks.deal_codes(3, i, 2).index("AS")
        places["down" if at < 6 else "hand" if at < 18 else "draw"] += 1
    for place, share in (("down", 6 / 52), ("hand", 12 / 52), ("draw", 34 / 52)):
        z = (places[place] / n - share) / math.sqrt(share * (1 - share) / n)
        assert abs(z) < Z_999, (place, places[place], z)


# ---------------------------------------------------------------------------------------------- 3. random policy
def chi2_z(counts: list[int]) -> float:
    """Wilson-Hilferty z of the chi-square statistic of ``counts`` against equal shares."""
    n, k = sum(counts), len(counts)
    expected = n / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    df = k - 1
    return ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))


def random_positions() -> list[Game[Any]]:
    """Positions with at least three legal moves: set-ups with one and two packs, plays from a hand, from
    the face-up cards, blind plays (one of each kind for 2 and for 4 players)."""
    wanted = {f"{s} {p}" for s in ("setup", "hand", "up", "down") for p in (2, 4)}
    found: dict[str, Game[Any]] = {}
    for seed in range(40):
        players = 2 + 2 * (seed % 2)
        rng = np.random.default_rng(seed)
        g = cardlab.new_game("shithead", players=players, seed=seed)
        while not g.is_over and set(found) != wanted:
            legal = g.legal_moves()
            src = "setup" if g.state.phase == "setup" else g.source(g.current_player)
            if len(legal) >= 3 and f"{src} {players}" not in found:
                found[f"{src} {players}"] = g.copy()
            g.play(legal[int(rng.integers(len(legal)))])
    assert set(found) == wanted, set(found)
    return list(found.values())


def test_random_policy_is_uniform_over_the_engines_legal_moves() -> None:
    for g in random_positions():
        legal = [m.text for m in g.legal_moves()]
        table = ks.Table.of(g, policies=["random"] * g.players)
        seen: Counter[str] = Counter()
        for seed in range(40 * len(legal)):
            _, codes = table.copy().run(seed, record=1, budget=1)
            seen[ks.move_text(codes[0])] += 1
        assert set(seen) == set(legal), (legal, seen)
        assert chi2_z([seen[t] for t in legal]) < CHI_Z, (legal, seen)


# ---------------------------------------------------------------------------------------------- 4. statistics
MIXES: dict[str, Callable[[int], list[str]]] = {
    "greedy": lambda n: ["greedy"] * n,
    "random": lambda n: ["random"] * n,
    "greedy vs random": lambda n: ["greedy" if p % 2 == 0 else "random" for p in range(n)],
}
STAT_CASES = [(players, mix, OPTION_SETS[(3 * i + j) % len(OPTION_SETS)])
              for i, players in enumerate(PLAYERS) for j, mix in enumerate(MIXES)]
ENGINE_GAMES = {"greedy": 60, "greedy vs random": 80, "random": 100}
"""Engine games per case. Greedy play is also proven card for card (above), so its cases need fewer."""
KERNEL_GAMES = 20_000


def engine_sample(players: int, policies: list[str], options: dict[str, Any], seed: int,
                  games: int) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    winners, turns, extras = [], [], []
    for i in range(games):
        rng = np.random.default_rng([seed, i])
        g = cardlab.new_game("shithead", players=players, rng=rng, **options)
        seats = [make_policy(p, "shithead", rng) for p in policies]
        while not g.is_over:
            g.play(choose(seats[g.current_player], g))
        winners.append(-1 if g.winner is None else g.winner)
        turns.append(g.turns)
        extras.append(g.stats())
    return (np.array(winners), np.array(turns, dtype=float),
            {k: np.array([e[k] for e in extras]) for k in extras[0]})


def z_two_samples(a: np.ndarray, b: np.ndarray) -> float:
    """The two-sample z of the means of ``a`` and ``b`` with the pooled variance (both samples come from
    one law under the hypothesis tested; the large kernel sample then fixes the spread, which a few
    hundred engine games missing a rare outcome would understate); 0 when both are constant and equal."""
    pooled = ((a.size - 1) * a.var(ddof=1) + (b.size - 1) * b.var(ddof=1)) / (a.size + b.size - 2)
    se = math.sqrt(pooled * (1 / a.size + 1 / b.size))
    diff = float(a.mean() - b.mean())
    if se == 0:
        return 0.0 if diff == 0 else math.inf
    return diff / se


@pytest.mark.parametrize("case", range(len(STAT_CASES)),
                         ids=[f"{p}p-{m}-{i}" for i, (p, m, _) in enumerate(STAT_CASES)])
def test_kernel_and_engine_agree_statistically(case: int) -> None:
    players, mix, options = STAT_CASES[case]
    # the safety stop keeps the engine's long random games short (the same rule for both sides)
    options = dict(options, max_turns={"greedy": 4000, "greedy vs random": 200, "random": 150}[mix])
    policies = MIXES[mix](players)
    ew, et, ex = engine_sample(players, policies, options, 500 + case, ENGINE_GAMES[mix])
    kw, kt, kx = ks.play_shard(players, options, 900 + case, 0, KERNEL_GAMES, policies)
    rows = [(f"seat {s} wins", (ew == s).astype(float), (kw == s).astype(float)) for s in range(-1, players)]
    rows.append(("turns", et, kt.astype(float)))
    rows += [(key, ex[key], kx[key]) for key in ex]
    assert set(kx) == set(ex)
    bad = [(name, round(float(a.mean()), 4), round(float(b.mean()), 4), round(z, 2))
           for name, a, b in rows if abs(z := z_two_samples(a, b)) >= Z_999]
    assert not bad, (players, mix, options, bad)


# ---------------------------------------------------------------------------------------------- 5. play-outs
def law_position(game: Game[Any], viewpoint: int | None, seed: int) -> Game[Any]:
    """The position ``game`` with its hidden places holding the cards the chance law draws with a
    SplitMix64 seeded ``seed`` (the kernel's draw), rebuilt from the law's place names."""
    law = game.chance_law(viewpoint)  # type: ignore[attr-defined]
    arrays = jitkit.HandsArrays.of(law)
    drawn = np.zeros(max(arrays.size, 1), dtype=np.int64)
    with np.errstate(over="ignore"):
        arrays.draw(jitkit.new_state(np.uint64(seed)), drawn)
    s = game.state.clone()
    assert isinstance(s, ShitheadState)
    downs = [[i for i, c in enumerate(d) if c is not None] for d in s.face_down]
    draw_at = 0
    unseen: dict[int, list[Card]] = {p: [] for p in range(game.players)}
    for q, name in enumerate(law.names):
        card = card_from_id(int(drawn[q]))
        zone, _, seat = name.partition(" ")
        if zone == "down":
            s.face_down[int(seat)][downs[int(seat)].pop(0)] = card
        elif zone == "draw":
            s.draw[draw_at] = card
            draw_at += 1
        else:
            unseen[int(seat)].append(card)
    for p, cards in unseen.items():
        if p != viewpoint:
            s.hands[p] = sorted(list(s.known[p]) + cards, key=sort_key)
    return with_state(game, s)


def engine_must_pick_up(game: Game[Any], seat: int) -> int:
    """Greedy play until ``seat`` is to move in the play phase, then through that turn: 1 if the turn
    holds a pick-up by ``seat`` (a pick-up move, or a blind card that did not fit)."""
    g = game.copy()
    while not g.is_over and not (g.current_player == seat and g.state.phase == "play"):
        g.play(choose(GREEDY, g))
    if g.is_over:
        return 0
    turn, mark = g.turns, len(g.events)
    while not g.is_over and g.turns == turn:
        g.play(choose(GREEDY, g))
    return int(any(e.seat == seat and (e.kind == "pickup" or (e.kind == "blind" and not e.data["fits"]))
                   for e in g.events[mark:]))


def playout_positions() -> list[Game[Any]]:
    out = []
    for i, players in enumerate((2, 3, 4, 5, 2, 3)):
        g = cardlab.new_game("shithead", players=players, seed=70 + i, **OPTION_SETS[(5 * i) % 8])
        rng = np.random.default_rng(i)
        g = advance(g, [2, 3 * players, 3 * players + 30, 3 * players + 90, 3 * players + 200,
                        3 * players + 5][i], rng)
        while g.is_over:  # a game that ended sooner: its last position before the end
            g.undo()
        out.append(g)
    return out


@pytest.mark.parametrize("index", range(6))
def test_playouts_are_the_engines_playouts_of_the_laws_draws(index: int) -> None:
    g = playout_positions()[index]
    assert not g.is_over
    for viewpoint in (None, g.current_player, (g.current_player + 1) % g.players):
        seeds = jitkit.seeds(12, np.random.default_rng(index))
        wins = ks.win_rollouts(g, viewpoint, 12, np.random.default_rng(index))
        seat = (g.current_player + index) % g.players
        picks = ks.must_pick_up(g, seat, viewpoint, 12, np.random.default_rng(index))
        for k, seed in enumerate(seeds):
            position = law_position(g, viewpoint, int(seed))
            if viewpoint is not None:
                assert position.state.hands[viewpoint] == g.state.hands[viewpoint]
            end, *_ = engine_greedy(position)
            assert wins[k] == (-1 if end.winner is None else end.winner)
            assert picks[k] == engine_must_pick_up(position, seat)


def test_playouts_read_only_what_the_viewer_knows() -> None:
    """Two games the viewer cannot tell apart (hidden cards swapped between places it cannot see) give
    identical play-outs for the same generator; a game it can tell apart gives others."""
    for g in playout_positions()[1:4]:
        viewpoint = g.current_player
        s = g.state.clone()
        other = (viewpoint + 1) % g.players
        hidden_hand = [c for c in s.hands[other] if c not in s.known[other]]
        assert hidden_hand and s.draw
        # a hidden hand card and a draw-pile card of the same class of the hand's belief (what its play
        # showed): swapping them leaves everything the viewer saw or learned as it was
        a, k = next((a, k) for a in hidden_hand for k, b in enumerate(s.draw)
                    if beliefs.CLASS[b.rank] == beliefs.CLASS[a.rank] and b != a)
        b = s.draw[k]
        s.hands[other] = sorted([b if c == a else c for c in s.hands[other]], key=sort_key)
        s.draw[k] = a
        twin = with_state(g, s)
        for x, y in ((ks.win_rollouts(g, viewpoint, 300, np.random.default_rng(4)),
                      ks.win_rollouts(twin, viewpoint, 300, np.random.default_rng(4))),
                     (ks.must_pick_up(g, other, viewpoint, 300, np.random.default_rng(4)),
                      ks.must_pick_up(twin, other, viewpoint, 300, np.random.default_rng(4)))):
            assert np.array_equal(x, y)
        table_a = ks.win_rollouts(g, None, 300, np.random.default_rng(4))
        assert not np.array_equal(table_a, ks.win_rollouts(g, viewpoint, 300, np.random.default_rng(4)))


def test_a_finished_game_and_bad_arguments() -> None:
    g = cardlab.new_game("shithead", seed=3)
    end, *_ = engine_greedy(g)
    assert ks.win_rollouts(end, None, 5, np.random.default_rng(0)).tolist() == [end.winner] * 5
    assert ks.must_pick_up(end, 0, None, 5, np.random.default_rng(0)).tolist() == [0] * 5
    rng = np.random.default_rng(0)
    with pytest.raises(InvalidInputError, match="n=0 is not allowed"):
        ks.win_rollouts(g, None, 0, rng)
    with pytest.raises(InvalidInputError, match="viewpoint=2 is not a seat"):
        ks.win_rollouts(g, 2, 5, rng)
    with pytest.raises(InvalidInputError, match="is not a numpy.random.Generator"):
        ks.must_pick_up(g, 0, None, 5, 7)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="seat=-1 is not a seat"):
        ks.must_pick_up(g, -1, None, 5, rng)
    with pytest.raises(InvalidInputError, match="plays Shithead games only, not 'garbage'"):
        ks.win_rollouts(cardlab.new_game("garbage", seed=0), None, 5, rng)
    with pytest.raises(InvalidInputError, match="one of 'greedy' or 'random' per seat"):
        ks.play_shard(2, {}, 0, 0, 5, ["greedy", "clever"])
    with pytest.raises(InvalidInputError, match="players=6 is not allowed"):
        ks.play_shard(6, {}, 0, 0, 5, ["greedy"] * 6)
    with pytest.raises(InvalidInputError, match="hidden places still empty"):
        ks.Table.of(g, 0, hide=True).run(0)
    with pytest.raises(InvalidInputError, match="Table.of: policies="):
        ks.Table.of(g, policies=["greedy"])
    assert ks.plays(["greedy", "random"]) and not ks.plays(["greedy", GREEDY])


# ---------------------------------------------------------------------------------------------- 6. errors, no numba
def test_a_lost_card_is_a_kernel_error_with_the_seed_and_the_moves() -> None:
    g = advance(cardlab.new_game("shithead", players=3, seed=2), 12, np.random.default_rng(2))
    table = ks.Table.of(g)
    r = next(r for r in range(2, 15) if table.cnt[0, 0, r] > 0)
    table.cnt[0, 0, r] -= 1     # a hand card vanishes
    table.sc[ks.S_HAND_N] -= 1
    lost = r"the cards do not add up \(3 players, seed 3\); moves: (play|pick up)"
    with pytest.raises(ks.KernelError, match=lost) as err:
        table.run(3)
    assert not isinstance(err.value, CorruptRecordError)


def test_a_failing_shard_names_its_game_seed_and_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(players: int, rules: Any, seed: Any, start: int, stop: int, winners: Any, turns: Any,
               extras: Any, failure: Any) -> None:
        failure[0], failure[1] = ks.LOST, start + 2

    monkeypatch.setattr(ks, "_shard", broken)
    with pytest.raises(ks.KernelError) as err:
        ks.play_shard(2, {}, 11, 5, 9, ["greedy", "greedy"])
    g = cardlab.new_game("shithead", players=2, seed=0, deck=ks.deal_codes(11, 7, 2))
    _, texts, _, _ = engine_greedy(g)
    assert "the cards do not add up (game 7, 2 players" in str(err.value) and "seed 11)" in str(err.value)
    assert len(str(err.value)) <= 500
    assert err.value.report.endswith("moves: " + ", ".join(texts))


def test_a_failing_playout_is_replayed_from_its_own_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """When a play-out fails, the error replays that play-out: the law's draw from its seed (in Python,
    HandsArrays.draw) and the greedy moves from there, which are the engine's greedy moves from the
    position that draw deals (with three hidden hands, where draws are rejected, and with two)."""
    real = ks._rollouts

    def failing(*args: Any) -> None:
        real(*args)
        failure = args[-1]
        failure[0], failure[1] = ks.LOST, 3

    monkeypatch.setattr(ks, "_rollouts", failing)
    g = playout_positions()[1]
    assert g.players == 3
    for viewpoint in (None, 0):
        seeds = jitkit.seeds(6, np.random.default_rng(9))
        with pytest.raises(ks.KernelError) as err:
            ks.win_rollouts(g, viewpoint, 6, np.random.default_rng(9))
        _, texts, _, _ = engine_greedy(law_position(g, viewpoint, int(seeds[3])))
        assert f"(play-out 3 of 6, viewpoint {viewpoint}, seed {int(seeds[3])})" in str(err.value)
        assert err.value.report.endswith("moves: " + ", ".join(texts))


def _results_code() -> str:
    return (
        "import json, numpy as np, cardlab\n"
        "from cardlab.games.shithead import kernel as ks\n"
        "out = {'numba': ks.HAVE_NUMBA, 'runs': []}\n"
        "for players, pol, opts in [(2, ['greedy', 'greedy'], {}), (3, ['random', 'greedy', 'random'],\n"
        "                           {'play_to_last': True}), (2, ['random', 'random'], {'max_turns': 80})]:\n"
        "    w, t, x = ks.play_shard(players, opts, 4, 3, 9, pol)\n"
        "    out['runs'].append([w.tolist(), t.tolist(), {k: v.tolist() for k, v in x.items()}])\n"
        "g = cardlab.new_game('shithead', players=3, seed=8, four_kind_plays_again=True)\n"
        "rng = np.random.default_rng(1)\n"
        "for _ in range(40):\n"
        "    legal = g.legal_moves()\n"
        "    g.play(legal[int(rng.integers(len(legal)))])\n"
        "for vp in (None, 1):\n"
        "    out['runs'].append(ks.win_rollouts(g, vp, 8, np.random.default_rng(2)).tolist())\n"
        "    out['runs'].append(ks.must_pick_up(g, 2, vp, 8, np.random.default_rng(3)).tolist())\n"
        "from cardlab.chance.jitkit import HandsArrays, new_state\n"
        "for vp in (None, 1):  # three and two hidden hands: draw_hands itself, with its tries\n"
        "    arrays = HandsArrays.of(g.chance_law(vp))\n"
        "    state, drawn = new_state(np.uint64(17)), np.zeros(arrays.size, dtype=np.int64)\n"
        "    with np.errstate(over='ignore'):\n"
        "        out['runs'].append([[arrays.draw(state, drawn), drawn.tolist()] for _ in range(30)])\n"
        "table = ks.Table.of(g, policies=['random'] * 3)\n"
        "status, codes = table.run(5, record=3000)\n"
        "out['runs'].append([status, codes, table.position()])\n"
        "print(json.dumps(out))\n")


def test_the_same_results_with_and_without_numba() -> None:
    pytest.importorskip("numba")
    block = "import sys\nsys.modules['numba'] = None\n"
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                           cwd=os.getcwd()) for code in (_results_code(), block + _results_code())]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    a, b = (json.loads(r.stdout) for r in runs)
    assert a["numba"] is True and b["numba"] is False
    assert a["runs"] == b["runs"]
    assert len(a["runs"]) == 10 and a["runs"][-1][0] == ks.DONE and len(a["runs"][-1][1]) > 20
    assert any(tries > 1 for tries, _ in a["runs"][-3])  # the three-hand law rejected some tries


def test_kernel_error_is_a_cardlab_error() -> None:
    assert issubclass(ks.KernelError, cardlab.CardlabError) and not issubclass(ks.KernelError, CorruptRecordError)
    assert isinstance(cardlab.new_game("shithead", seed=0), Shithead)


def test_the_compile_hook_compiles_the_entry_points_in_this_process() -> None:
    """The spec's ``compile`` hook (what ``cardlab compile`` runs, tests/sim/test_cli.py) compiles the kernel's
    entry points here, loading them from numba's on-disk cache when it can."""
    hook = cardlab.engine.game_spec("shithead").compile
    assert hook is not None
    hook()
    assert ks._shard.signatures and ks._rollouts.signatures, "the Shithead kernel was not compiled"
