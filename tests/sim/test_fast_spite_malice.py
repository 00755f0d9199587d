"""The integer Spite and Malice simulator plays the same game as the engine.

1. **Card for card.** From a given position (fresh deals, positions reached by greedy and by random
   play, positions just after a completed pile went back to the stock; every option), the fast
   play-out with the game's own shuffle key must end with the engine's winner after the engine's
   number of turns, in the engine's final position (every pile, hand and the stock, as ranks). With the
   move limit lowered, the two must also agree after every prefix of moves.
2. **Resampling.** ``Redeal.deal`` must build the very position ``game.resample`` builds from the same
   generator state, and ``rollouts_from(..., exact=True)`` / ``payoff_this_turn(..., exact=True)``
   must equal the engine's resampled greedy play-outs one for one.
3. **The fast law.** The default path deals simple label blocks by one permutation and shuffles
   completed piles from the rollout generator. Its deals keep each block's cards in the block's places
   (exactly), and its deals, winners and turns must match the exact path within sampling error
   (|z| < 3.5, which chance alone passes); a real difference is shown to fail the same checks.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.errors import CorruptRecordError, InvalidInputError
from cardlab.games.spite_malice import SpiteMalice
from cardlab.policies import choose, make_policy
from cardlab.sim import fast_spite_malice as fsm

GAME = "spite-and-malice"
Z_LIMIT = 3.5  # two-sided p about 5e-4 per check
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"king_starts_pile": False},
    {"refill_on_empty": False},
    {"completed_to": "shuffle"},
    {"first": "seat0", "payoff_size": 12},
    {"payoff_size": 1},
    {"payoff_size": 40},
    {"payoff_size": 6, "king_starts_pile": False, "refill_on_empty": False, "completed_to": "shuffle"},
]


# ---------------------------------------------------------------------------------------------- helpers
def new_game(seed: int, **options: Any) -> SpiteMalice:
    g = cardlab.new_game(GAME, seed=seed, **options)
    assert isinstance(g, SpiteMalice)
    return g


def engine_greedy(game: SpiteMalice, max_moves: int = 100_000) -> SpiteMalice:
    """A copy of ``game`` played on by the engine's greedy bot (at most ``max_moves`` moves)."""
    g = game.copy()
    policy = make_policy("greedy", GAME, np.random.default_rng(0))
    for _ in range(max_moves):
        if g.is_over:
            break
        g.play(choose(policy, g))
    return g


def advance(game: SpiteMalice, moves: int, policy: Any) -> SpiteMalice:
    g = game.copy()
    for _ in range(moves):
        if g.is_over:
            break
        g.play(choose(policy, g))
    return g


def after_completion(game: SpiteMalice) -> SpiteMalice | None:
    """The position right after the next completed centre pile went to the stock (None if none does)."""
    g = game.copy()
    policy = make_policy("greedy", GAME, np.random.default_rng(0))
    start = g.state.shuffles
    while not g.is_over:
        g.play(choose(policy, g))
        if g.state.shuffles > start:
            return None if g.is_over else g
    return None


def fast_final(game: SpiteMalice) -> tuple[int, fsm.Position]:
    pos = fsm.position_of(game)
    winner, _ = fsm.play(pos, fsm.Rules.of(game), fsm.keyed_source(game._shuffle_key))
    return winner, pos


def engine_winner(game: SpiteMalice) -> int:
    return -1 if game.winner is None else game.winner


@functools.cache
def positions(option_index: int) -> list[SpiteMalice]:
    """Fresh deals, greedy and random mid-round positions, and positions just after a completion (at
    least 10 unfinished positions; short rounds need more deals)."""
    options = OPTION_SETS[option_index]
    greedy = make_policy("greedy", GAME, np.random.default_rng(0))
    out: list[SpiteMalice] = []
    for seed in range(40):
        g = new_game(1000 * option_index + seed, **options)
        rng = np.random.default_rng(seed)
        done = after_completion(g)
        found = [g, advance(g, int(rng.integers(5, 80)), greedy),
                 advance(g, int(rng.integers(5, 150)), make_policy("random", GAME, rng))]
        out += [x for x in [*found, done] if x is not None and not x.is_over]
        if len(out) >= 10:
            break
    return out


@functools.cache
def engine_ends(option_index: int) -> list[SpiteMalice]:
    """The engine's greedy play-out of each of :func:`positions`, to the round's end."""
    return [engine_greedy(g) for g in positions(option_index)]


def z_two_proportions(k1: float, n1: int, k2: float, n2: int) -> float:
    p = (k1 + k2) / (n1 + n2)
    if p in (0.0, 1.0):
        return 0.0
    return (k1 / n1 - k2 / n2) / math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))


def chi2_z(a: list[int], b: list[int]) -> float:
    """Chi-square test that two samples of small integers come from one law, as a normal z score.

    Values seen fewer than 10 times in the pooled sample are merged into one bin; the statistic with
    k-1 degrees of freedom is turned into z by the Wilson-Hilferty cube root."""
    ca, cb = Counter(a), Counter(b)
    total = ca + cb
    common = [v for v in total if total[v] >= 10]
    rows = [(ca[v], cb[v]) for v in common]
    rest = (sum(ca[v] for v in total if v not in common), sum(cb[v] for v in total if v not in common))
    if sum(rest):
        rows.append(rest)
    k = len(rows) - 1
    if k < 1:
        return 0.0
    na, nb = len(a), len(b)
    stat = 0.0
    for x, y in rows:
        t = x + y
        ea, eb = t * na / (na + nb), t * nb / (na + nb)
        stat += (x - ea) ** 2 / ea + (y - eb) ** 2 / eb
    return float(((stat / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k)))


# ---------------------------------------------------------------------------------------------- 1. card for card
@pytest.mark.parametrize("option_index", range(len(OPTION_SETS)))
def test_playouts_are_the_engines_card_for_card(option_index: int) -> None:
    games = positions(option_index)
    assert len(games) >= 8
    for g, done in zip(games, engine_ends(option_index), strict=True):
        before = fsm.position_of(g)
        winner, pos = fast_final(g)
        assert (winner, pos.turn) == (engine_winner(done), done.turns)
        assert pos == fsm.position_of(done)
        assert fsm.playout(g) == (engine_winner(done), done.turns)
        assert fsm.position_of(g) == before  # the game itself is not touched


def test_the_compared_playouts_cover_every_rule() -> None:
    """The positions above reach each rule the simulator implements, so the comparisons mean something."""
    seen: Counter[str] = Counter()
    for i in range(len(OPTION_SETS)):
        for g, done in zip(positions(i), engine_ends(i), strict=True):
            for e in done.events[len(g.events):]:
                seen[e.kind] += 1
                if e.kind == "centre" and e.data.get("king"):
                    seen[f"king from {e.data['source']}"] += 1
            if g.state.stock_parts and len(g.state.stock_parts) > 1:
                seen["layered stock"] += 1
    for kind in ("complete", "round-won", "round-drawn", "turn-end", "discard", "draw",
                 "king from payoff", "king from side", "king from hand", "layered stock"):
        assert seen[kind] > 0, f"no compared play-out reached {kind!r}: {dict(seen)}"


@pytest.mark.parametrize("option_index", [0, 2, 3, 6])
def test_every_prefix_of_moves_is_the_engines(option_index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the move limit lowered to ``cut``, the fast play-out stops after ``cut`` moves, as the engine
    does: the positions must then be equal too (a round not over by then counts as no win)."""
    g = positions(option_index)[1]
    for cut in (1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144):
        monkeypatch.setattr(fsm, "MAX_MOVES", cut)
        done = engine_greedy(g, max_moves=cut)
        winner, pos = fast_final(g)
        assert pos == fsm.position_of(done), f"after {cut} moves"
        assert winner == (engine_winner(done) if done.is_over else -1)


def test_the_last_payoff_card_wins_at_once_with_one_card_piles() -> None:
    g = new_game(5, payoff_size=1)
    done = engine_greedy(g)
    assert fsm.playout(g) == (engine_winner(done), done.turns)
    assert done.winner is not None and done.state.payoff[done.winner] == []


def _empty_hand_position() -> SpiteMalice:
    """Seat 0 to move with no hand card, a King on side 1, centre 1 at the 3 and payoff top 9: the
    King is out of reach (distance 5 > 1 King) and nothing can be discarded."""
    g = new_game(3, payoff_size=2, first="seat0")
    s = g.state

    def take(rank: int) -> Any:
        card = next(c for c in s.stock if int(c.rank) == rank)
        s.stock.remove(card)
        return card

    s.stock += s.payoff[0] + s.hands[0]
    s.payoff[0] = [take(5), take(9)]
    s.hands[0], s.hand_marks[0] = [], []
    s.sides[0][0] = [take(13)]
    s.centre[0] = [take(1), take(2), take(3)]
    s.stock_parts = [[0, 0, len(s.stock)]]
    g._check_conservation("test position")
    return g.copy()


def test_with_an_empty_hand_the_bot_takes_the_first_legal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    g = _empty_hand_position()
    monkeypatch.setattr(fsm, "MAX_MOVES", 1)
    done = engine_greedy(g, max_moves=1)
    assert done.moves[-1].text == "side 1 to centre 1"
    assert fast_final(g)[1] == fsm.position_of(done)
    monkeypatch.undo()
    with pytest.raises(IndexError):        # the engine's bot has no legal move left to take
        engine_greedy(g)
    with pytest.raises(CorruptRecordError, match="empty hand and no legal move"):
        fsm.playout(g)


# ---------------------------------------------------------------------------------------------- 2. resampling
def test_redeal_builds_the_engines_resampled_position() -> None:
    kinds: Counter[str] = Counter()
    for i in (0, 3, 7):
        for g in positions(i):
            for viewpoint in (None, 0, 1):
                plan = fsm.Redeal.of(g, viewpoint)
                kinds["nested"] += len(plan.nested)
                kinds["simple"] += len(plan.simple)
                r1, r2 = np.random.default_rng(i), np.random.default_rng(i)
                for _ in range(3):
                    pos, key = plan.deal(r1)
                    resampled = g.resample(viewpoint, r2)
                    assert pos == fsm.position_of(resampled)
                    assert key == resampled._shuffle_key
    assert kinds["nested"] > 0 and kinds["simple"] > 0, kinds


@pytest.mark.parametrize(("option_index", "viewpoint"), [(0, None), (3, 0), (2, 1), (7, None)])
def test_exact_rollouts_are_the_engines_resampled_playouts(option_index: int, viewpoint: int | None) -> None:
    g = positions(option_index)[1]
    fast = fsm.rollouts_from(g, viewpoint, 6, np.random.default_rng(11), exact=True)
    rng = np.random.default_rng(11)
    engine = [engine_winner(engine_greedy(g.resample(viewpoint, rng))) for _ in range(6)]
    assert fast.tolist() == engine


def engine_paid_this_turn(game: SpiteMalice, viewpoint: int | None, rng: np.random.Generator) -> int:
    g = game.resample(viewpoint, rng)
    seat, size, turn = g.current_player, len(g.state.payoff[g.current_player]), g.turns
    policy = make_policy("greedy", GAME, rng)
    while not g.is_over and g.turns == turn:
        g.play(choose(policy, g))
    return int(len(g.state.payoff[seat]) < size)


@pytest.mark.parametrize("option_index", [0, 2, 5, 7])
def test_exact_payoff_this_turn_is_the_engines(option_index: int) -> None:
    for g in positions(option_index)[:6]:
        fast = fsm.payoff_this_turn(g, 0, 20, np.random.default_rng(12), exact=True)
        rng = np.random.default_rng(12)
        assert fast.tolist() == [engine_paid_this_turn(g, 0, rng) for _ in range(20)]


def test_a_finished_game_gives_its_result() -> None:
    done = engine_greedy(new_game(4))
    assert fsm.playout(done) == (engine_winner(done), done.turns)
    assert fsm.rollouts_from(done, None, 3, np.random.default_rng(0)).tolist() == [engine_winner(done)] * 3
    assert fsm.payoff_this_turn(done, None, 3, np.random.default_rng(0)).tolist() == [0, 0, 0]


# ---------------------------------------------------------------------------------------------- 3. the fast law
def block_places(plan: fsm.Redeal) -> list[tuple[list[int], Counter[int]]]:
    """Each group of the plan's chance law: its hidden places and the multiset of the ranks that must
    lie on them (its own cards and those of the groups nested inside it)."""
    sets = [set(g.places) for g in plan.law.groups]
    blocks = []
    for i, g in enumerate(plan.law.groups):
        ranks: Counter[int] = Counter()
        for j, h in enumerate(plan.law.groups):
            if sets[j] <= sets[i]:
                ranks.update(int(c.rank) for c in h.cards)
        blocks.append((list(g.places), ranks))
    return blocks


def test_fresh_deals_keep_each_blocks_cards_in_its_places() -> None:
    checked = 0
    for g in positions(3) + positions(0):
        for viewpoint in (None, 1):
            plan = fsm.Redeal.of(g, viewpoint)
            blocks = block_places(plan)
            outer = [places for places, _ in blocks
                     if not any(set(places) < set(other) for other, _ in blocks)]
            assert sorted(i for places in outer for i in places) == list(range(plan.places))
            rng = np.random.default_rng(3)
            for _ in range(20):
                placed = plan.fresh_places(rng)
                for places, ranks in blocks:
                    there = Counter(placed[i] for i in places)
                    if places in outer:
                        assert there == ranks
                    else:  # an inner group's cards lie on its places; outer cards may fill the rest
                        assert not ranks - there
                checked += len(blocks) > 1
    assert checked > 0  # positions with several label groups were among them


@pytest.mark.parametrize("option_index", [0, 3])
def test_fresh_deals_have_the_engines_law(option_index: int) -> None:
    g = positions(option_index)[-1]
    plan = fsm.Redeal.of(g, 0)
    exact_rng, fresh_rng = np.random.default_rng(21), np.random.default_rng(22)
    exact = [plan.deal(exact_rng)[0] for _ in range(6000)]
    fresh = [plan.deal_fresh(fresh_rng) for _ in range(6000)]
    features: list[Callable[[fsm.Position], int]] = [
        lambda p: p.stock[-1], lambda p: p.stock[0], lambda p: p.payoff[0][-2], lambda p: p.hands[1][0],
        lambda p: sum(p.stock[-5:])]
    for feature in features:
        assert abs(chi2_z([feature(p) for p in exact], [feature(p) for p in fresh])) < Z_LIMIT


def _outcomes(game: SpiteMalice, n: int, seed: int, exact: bool,
              rules: fsm.Rules | None = None) -> tuple[list[int], list[int]]:
    plan = fsm.Redeal.of(game, None)
    rules = rules or fsm.Rules.of(game)
    rng = np.random.default_rng(seed)
    fresh = fsm.FreshShuffles(rng).source
    winners, turns = [], []
    for _ in range(n):
        if exact:
            pos, key = plan.deal(rng)
            winner, _ = fsm.play(pos, rules, fsm.keyed_source(key))
        else:
            pos = plan.deal_fresh(rng)
            winner, _ = fsm.play(pos, rules, fresh)
        winners.append(winner)
        turns.append(pos.turn)
    return winners, turns


@pytest.mark.parametrize("option_index", [0, 3, 6])
def test_fast_rollouts_have_the_exact_rollouts_law(option_index: int) -> None:
    g = positions(option_index)[1]
    n = 2500
    w1, t1 = _outcomes(g, n, 31, exact=True)
    w2, t2 = _outcomes(g, n, 32, exact=False)
    for outcome in (-1, 0, 1):
        assert abs(z_two_proportions(w1.count(outcome), n, w2.count(outcome), n)) < Z_LIMIT
    assert abs(chi2_z(t1, t2)) < Z_LIMIT
    fast = fsm.rollouts_from(g, None, n, np.random.default_rng(33))
    for outcome in (-1, 0, 1):
        assert abs(z_two_proportions(w1.count(outcome), n, int(np.sum(fast == outcome)), n)) < Z_LIMIT


def test_the_checks_detect_a_real_difference() -> None:
    """The same checks fail for play-outs that shuffle completed piles into the stock instead of putting
    them under it (a plausible slip), and for deals with a biased stock top."""
    g = positions(0)[1]
    n = 2500
    w1, t1 = _outcomes(g, n, 41, exact=False)
    w2, t2 = _outcomes(g, n, 42, exact=False, rules=fsm.Rules(king_starts=True, refill=True, bottom=False))
    assert abs(chi2_z(t1, t2)) > Z_LIMIT
    assert abs(z_two_proportions(w1.count(-1), n, w2.count(-1), n)) > Z_LIMIT
    plan = fsm.Redeal.of(g, 0)
    rng = np.random.default_rng(43)
    fair = [plan.deal_fresh(rng).stock[-1] for _ in range(3000)]
    biased = [max(p.stock[-2:]) for p in (plan.deal_fresh(rng) for _ in range(3000))]
    assert abs(chi2_z(fair, biased)) > Z_LIMIT


@pytest.mark.parametrize("option_index", [0, 2])
def test_fast_payoff_this_turn_has_the_exact_law(option_index: int) -> None:
    g = positions(option_index)[1]
    n = 4000
    exact = fsm.payoff_this_turn(g, None, n, np.random.default_rng(51), exact=True)
    fast = fsm.payoff_this_turn(g, None, n, np.random.default_rng(52))
    assert 0 < exact.sum() < n
    assert abs(z_two_proportions(float(exact.sum()), n, float(fast.sum()), n)) < Z_LIMIT


def test_fresh_shuffles_are_uniform_permutations() -> None:
    shuffles = fsm.FreshShuffles(np.random.default_rng(61))
    perms = [shuffles.source(i)(12) for i in range(12_000)]
    assert all(sorted(p) == list(range(12)) for p in perms)
    assert abs(chi2_z([p.index(0) for p in perms], list(np.random.default_rng(62).integers(12, size=12_000)))) \
        < Z_LIMIT
    assert sorted(shuffles.permute(30)) == list(range(30))


# ---------------------------------------------------------------------------------------------- API
def test_supports_every_option_but_match_play() -> None:
    for options in OPTION_SETS:
        assert fsm.supports(new_game(0, **options))
    assert not fsm.supports(new_game(0, match=True))
    assert not fsm.supports(cardlab.new_game("garbage", players=2, seed=0))


@pytest.mark.parametrize(("call", "message"), [
    (lambda g, rng: fsm.rollouts_from(cardlab.new_game("garbage", seed=0), None, 5, rng), "Spite and Malice games"),  # type: ignore[arg-type]
    (lambda g, rng: fsm.rollouts_from(new_game(0, match=True), None, 5, rng), "match=True"),
    (lambda g, rng: fsm.rollouts_from(g, None, 0, rng), "n=0"),
    (lambda g, rng: fsm.rollouts_from(g, None, True, rng), "n=True"),
    (lambda g, rng: fsm.rollouts_from(g, None, 2.5, rng), "n=2.5"),  # type: ignore[arg-type]
    (lambda g, rng: fsm.rollouts_from(g, 2, 5, rng), "seat 2"),
    (lambda g, rng: fsm.rollouts_from(g, None, 5, 7), "rng=7"),  # type: ignore[arg-type]
    (lambda g, rng: fsm.payoff_this_turn(g, None, -1, rng), "n=-1"),
    (lambda g, rng: fsm.payoff_this_turn(g, "x", 5, rng), "seat 'x'"),  # type: ignore[arg-type]
    (lambda g, rng: fsm.playout(g, rng=42), "rng=42"),  # type: ignore[arg-type]
    (lambda g, rng: fsm.playout("spite"), "'spite'"),  # type: ignore[arg-type]
])
def test_bad_input_is_refused_clearly(call: Any, message: str) -> None:
    g = new_game(0)
    with pytest.raises(InvalidInputError, match=message):
        call(g, np.random.default_rng(0))


def test_a_rollouts_plan_is_reused_only_while_the_position_stands() -> None:
    g = new_game(8)
    fsm.rollouts_from(g, None, 2, np.random.default_rng(0))
    first = fsm.Redeal.cached(g, None)
    assert fsm.Redeal.cached(g, None) is first
    assert fsm.Redeal.cached(g, 0) is not first
    g.play(choose(make_policy("greedy", GAME, np.random.default_rng(0)), g))
    assert fsm.Redeal.cached(g, None).base == fsm.position_of(g)
    g.undo()
    assert fsm.Redeal.cached(g, None).base == fsm.position_of(g)
