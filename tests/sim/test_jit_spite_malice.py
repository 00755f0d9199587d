"""The compiled Spite and Malice kernel plays the Python play-out's game, with the engine's law.

1. **Card for card.** From many positions (every combination of ``king_starts_pile``,
   ``refill_on_empty`` and ``completed_to``; fresh deals, positions after greedy and random play, just
   after a completed pile went to the stock, and the kernel's own resampled deals of them; to the round's
   end and to the turn's end), the kernel's play-out must equal ``fast_spite_malice.play`` with the same
   shuffles (:class:`SplitMix64`): winner, paid, and the whole final position. With the move limit
   lowered the two must agree after every prefix. A changed rule or seed is shown to change the result.
   (``fast_spite_malice.play`` is itself proven card for card equal to the engine in its own tests.)
2. **The deal's law.** The kernel's fresh deals keep each label block's cards in its places exactly,
   and their features match ``Redeal.deal`` (the engine's generator calls, proven equal to
   ``game.resample``) within sampling error, for a layered stock and for a nested block.
3. **The rollouts' law.** Kernel win and payoff-this-turn frequencies match ``exact=True`` rollouts.
4. **Seeding** and **the generator**: same seed, same results; bounded integers and shuffles uniform.
"""

from __future__ import annotations

import copy
import functools
import itertools
import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from cardlab.errors import CorruptRecordError, InvalidInputError
from cardlab.games.spite_malice import SpiteMalice
from cardlab.policies import make_policy
from cardlab.sim import fast_spite_malice as fsm
from cardlab.sim import jit_spite_malice as jsm
from tests.sim.test_fast_spite_malice import (
    GAME,
    Z_LIMIT,
    _empty_hand_position,
    advance,
    after_completion,
    chi2_z,
    new_game,
    z_two_proportions,
)

COMBOS = list(itertools.product((True, False), (True, False), ("bottom", "shuffle")))
PAYOFF_SIZES = (20, 6, 40)


@functools.cache
def combo_positions(index: int) -> list[SpiteMalice]:
    """Unfinished positions under option combination ``COMBOS[index]``: fresh deals, after greedy and
    random moves, and just after a completed pile went to the stock."""
    king_starts, refill, completed_to = COMBOS[index]
    greedy = make_policy("greedy", GAME, np.random.default_rng(0))
    out: list[SpiteMalice] = []
    for seed in range(20):
        g = new_game(50 * index + seed, king_starts_pile=king_starts, refill_on_empty=refill,
                     completed_to=completed_to, payoff_size=PAYOFF_SIZES[seed % len(PAYOFF_SIZES)])
        rng = np.random.default_rng(seed)
        found = [g, advance(g, int(rng.integers(5, 80)), greedy),
                 advance(g, int(rng.integers(5, 150)), make_policy("random", GAME, rng)), after_completion(g)]
        out += [x for x in found if x is not None and not x.is_over]
        if len(out) >= 10:
            break
    return out


def both_playouts(pos: fsm.Position, rules: fsm.Rules, seed: int, one_turn: bool) -> tuple[int, bool, fsm.Position]:
    """Play ``pos`` with the kernel and with the Python play-out on the same shuffles; they must agree on
    everything. Returns the common result and final position."""
    kernel_pos, python_pos = copy.deepcopy(pos), copy.deepcopy(pos)
    kernel = jsm.play_seeded(kernel_pos, rules, seed, one_turn)
    python = fsm.play(python_pos, rules, jsm.SplitMix64(seed).source, one_turn)
    assert kernel == python
    assert kernel_pos == python_pos
    return python[0], python[1], python_pos


# ---------------------------------------------------------------------------------------------- 1. card for card
@pytest.mark.parametrize("index", range(len(COMBOS)))
def test_kernel_playouts_are_the_python_playouts(index: int) -> None:
    games = combo_positions(index)
    assert len(games) >= 8
    seen: Counter[str] = Counter()
    seeds = np.random.default_rng(index).integers(0, 2**63 - 1, size=3).tolist()
    for g in games:
        rules = fsm.Rules.of(g)
        start = fsm.position_of(g)
        dealt = [jsm.deal_seeded(fsm.Redeal.of(g, viewpoint), seed) for viewpoint, seed in ((None, 1), (0, 2))]
        for pos in [start, *dealt]:
            for one_turn, seed in itertools.product((False, True), seeds):
                winner, paid, final = both_playouts(pos, rules, seed, one_turn)
                if one_turn:
                    seen[f"paid {paid}"] += 1
                else:
                    seen["won" if winner >= 0 else "drawn"] += 1
                    seen["completed"] += final.shuffles > pos.shuffles
    assert seen["won"] and seen["completed"] and seen["paid True"] and seen["paid False"], seen


def test_the_compared_playouts_reach_the_rare_endings() -> None:
    """Both seats win, and rounds are drawn (the stock runs out at a draw), among the compared positions."""
    seen: Counter[str] = Counter()
    for index in range(len(COMBOS)):
        for g in combo_positions(index):
            for seed in (5, 6):
                winner, _, final = both_playouts(fsm.position_of(g), fsm.Rules.of(g), seed, False)
                seen[f"seat {winner}" if winner >= 0 else ("drawn" if not final.stock else "cut")] += 1
    assert seen["seat 0"] and seen["seat 1"] and seen["drawn"], seen


@pytest.mark.parametrize("index", [0, 3, 4, 6])
def test_every_prefix_of_moves_is_the_pythons(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the move limit lowered to ``cut`` both play-outs stop after ``cut`` moves, in one position."""
    pos = fsm.position_of(combo_positions(index)[1])
    rules = fsm.Rules.of(combo_positions(index)[1])
    for cut in (1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233):
        monkeypatch.setattr(fsm, "MAX_MOVES", cut)
        both_playouts(pos, rules, cut, False)


def test_with_an_empty_hand_the_kernel_takes_the_first_legal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    g = _empty_hand_position()
    pos, rules = fsm.position_of(g), fsm.Rules.of(g)
    monkeypatch.setattr(fsm, "MAX_MOVES", 1)
    _, _, final = both_playouts(pos, rules, 0, False)
    assert final.sides[0][0] == [] and final.centre[0] == [1, 2, 3, 13]
    monkeypatch.undo()
    with pytest.raises(CorruptRecordError, match="empty hand and no legal move"):
        jsm.play_seeded(copy.deepcopy(pos), rules, 0)
    with pytest.raises(CorruptRecordError, match="empty hand and no legal move"):
        fsm.play(copy.deepcopy(pos), rules, jsm.SplitMix64(0).source)
    with pytest.raises(CorruptRecordError, match="seat 0 has an empty hand"):
        fsm.rollouts_from(g, 0, 4, np.random.default_rng(0))


def test_a_changed_rule_or_seed_changes_the_playout() -> None:
    """The comparison above can fail: the kernel with one rule flag flipped, or with another seed, ends
    somewhere else than the Python play-out for some of the same positions."""
    differs: Counter[str] = Counter()
    for index in (0, 1):
        for g in combo_positions(index):
            pos, rules = fsm.position_of(g), fsm.Rules.of(g)
            python_pos = copy.deepcopy(pos)
            python = fsm.play(python_pos, rules, jsm.SplitMix64(7).source)
            variants = {"refill": (rules.king_starts, not rules.refill, rules.bottom, 7),
                        "bottom": (rules.king_starts, rules.refill, not rules.bottom, 7),
                        "king_starts": (not rules.king_starts, rules.refill, rules.bottom, 7),
                        "seed": (rules.king_starts, rules.refill, rules.bottom, 8)}
            for name, (king_starts, refill, bottom, seed) in variants.items():
                kernel_pos = copy.deepcopy(pos)
                kernel = jsm.play_seeded(kernel_pos, fsm.Rules(king_starts, refill, bottom), seed)
                differs[name] += kernel != python or kernel_pos != python_pos
    assert all(differs[name] > 0 for name in ("refill", "bottom", "king_starts", "seed")), differs


# ---------------------------------------------------------------------------------------------- 2. the deal's law
def block_places(plan: fsm.Redeal) -> list[tuple[list[int], Counter[int]]]:
    """Each label block of the plan: its hidden places and the multiset of its cards' ranks."""
    blocks = [(where.tolist(), Counter(ranks.tolist())) for where, ranks in plan.simple]
    for first, end in plan.nested:
        blocks.append(([i for join in plan.joins[first:end] for i in join], Counter(plan.ranks[first:end])))
    return blocks


def hidden_ranks(plan: fsm.Redeal, pos: fsm.Position) -> list[int]:
    """The rank on each hidden place of ``pos``, in the plan's order of places (a hidden hand, a set,
    in sorted order)."""
    n0, n1 = plan.payoff_hidden
    ranks = pos.payoff[0][:n0] + pos.payoff[1][:n1]
    for seat in plan.hand_seats:
        ranks += pos.hands[seat]
    return ranks + pos.stock


@functools.cache
def law_cases() -> dict[str, tuple[SpiteMalice, int | None]]:
    """A position whose stock has layers of several labels (simple blocks) and one whose hidden cards
    form a nested block (a completed pile shuffled into the stock), with a viewpoint."""
    cases: dict[str, tuple[SpiteMalice, int | None]] = {}
    for index, name in ((0, "layered"), (1, "nested")):
        for g in combo_positions(index):
            plan = fsm.Redeal.of(g, 0)
            if (name == "layered" and len(plan.simple) > 1) or (name == "nested" and plan.nested):
                cases[name] = (g, 0)
                break
    assert set(cases) == {"layered", "nested"}
    return cases


def test_kernel_deals_keep_each_blocks_cards_in_its_places() -> None:
    checked = 0
    for g, viewpoint in law_cases().values():
        plan = fsm.Redeal.of(g, viewpoint)
        blocks = block_places(plan)
        base = plan.base
        for seed in range(40):
            pos = jsm.deal_seeded(plan, seed)
            placed = hidden_ranks(plan, pos)
            assert len(placed) == plan.places
            if viewpoint is not None:
                assert pos.hands[viewpoint] == base.hands[viewpoint]
            assert [p[-1] for p in pos.payoff] == [p[-1] for p in base.payoff]
            assert (pos.sides, pos.centre, pos.to_move, pos.turn, pos.shuffles) == \
                (base.sides, base.centre, base.to_move, base.turn, base.shuffles)
            hands = range(sum(plan.payoff_hidden), plan.places - len(pos.stock))
            for places, ranks in blocks:
                if not any(i in hands for i in places):     # a hand is a set: its places carry no order
                    assert Counter(placed[i] for i in places) == ranks
                    checked += 1
            assert Counter(placed) == Counter(plan.ranks)
    assert checked > 0


DEAL_FEATURES: list[Callable[[fsm.Position], int]] = [
    lambda p: p.stock[-1], lambda p: p.stock[0], lambda p: p.stock[len(p.stock) // 2], lambda p: p.payoff[0][-2],
    lambda p: p.payoff[1][0], lambda p: p.hands[1][0], lambda p: sum(p.stock[-5:])]


@pytest.mark.parametrize("case", ["layered", "nested"])
def test_kernel_deals_have_the_engines_law(case: str) -> None:
    g, viewpoint = law_cases()[case]
    plan = fsm.Redeal.of(g, viewpoint)
    n = 5000
    exact_rng = np.random.default_rng(21)
    exact = [plan.deal(exact_rng)[0] for _ in range(n)]
    kernel = [jsm.deal_seeded(plan, int(s)) for s in np.random.default_rng(22).integers(0, 2**63 - 1, size=n)]
    for feature in DEAL_FEATURES:
        assert abs(chi2_z([feature(p) for p in exact], [feature(p) for p in kernel])) < Z_LIMIT
    # the same check sees a real difference: a stock top biased towards high ranks
    biased = [max(p.stock[-2:]) for p in kernel]
    assert abs(chi2_z([p.stock[-1] for p in exact], biased)) > Z_LIMIT


# ---------------------------------------------------------------------------------------------- 3. the rollouts' law
@pytest.mark.parametrize(("index", "position", "viewpoint"), [(0, 1, None), (1, -1, 0), (2, 2, 1)])
def test_kernel_rollouts_have_the_exact_rollouts_law(index: int, position: int, viewpoint: int | None) -> None:
    g = combo_positions(index)[position]
    n_exact, n_kernel = 1200, 20_000
    exact = fsm.rollouts_from(g, viewpoint, n_exact, np.random.default_rng(31), exact=True)
    kernel = fsm.rollouts_from(g, viewpoint, n_kernel, np.random.default_rng(32))
    assert set(kernel.tolist()) <= {-1, 0, 1}
    for outcome in (-1, 0, 1):
        k1, k2 = int(np.sum(exact == outcome)), int(np.sum(kernel == outcome))
        assert abs(z_two_proportions(k1, n_exact, k2, n_kernel)) < Z_LIMIT, (outcome, k1, k2)


@pytest.mark.parametrize(("index", "position"), [(0, 1), (3, 1), (5, 2)])
def test_kernel_payoff_this_turn_has_the_exact_law(index: int, position: int) -> None:
    g = combo_positions(index)[position]
    exact = fsm.payoff_this_turn(g, None, 4000, np.random.default_rng(51), exact=True)
    kernel = fsm.payoff_this_turn(g, None, 20_000, np.random.default_rng(52))
    assert 0 < exact.sum() < exact.size and set(kernel.tolist()) <= {0, 1}
    assert abs(z_two_proportions(float(exact.sum()), exact.size, float(kernel.sum()), kernel.size)) < Z_LIMIT


def test_a_wrong_rule_fails_the_rollouts_check() -> None:
    """The frequency check above sees a real difference: kernel rollouts under ``completed_to="shuffle"``
    from a position of a ``"bottom"`` game."""
    g = combo_positions(0)[1]
    plan = fsm.Redeal.of(g, None)
    right = jsm.rollouts(plan, fsm.Rules.of(g), 20_000, np.random.default_rng(61))
    wrong = jsm.rollouts(plan, fsm.Rules(True, True, False), 20_000, np.random.default_rng(62))
    assert abs(z_two_proportions(float(np.sum(right == -1)), 20_000, float(np.sum(wrong == -1)), 20_000)) > Z_LIMIT


# ---------------------------------------------------------------------------------------------- 4. seeding
def test_the_same_seed_gives_the_same_rollouts() -> None:
    g = combo_positions(0)[1]
    a = fsm.rollouts_from(g, None, 300, np.random.default_rng(5))
    b = fsm.rollouts_from(g, None, 300, np.random.default_rng(5))
    c = fsm.rollouts_from(g, None, 300, np.random.default_rng(6))
    assert a.tolist() == b.tolist()
    assert a.tolist() != c.tolist()
    rng = np.random.default_rng(5)
    first, second = fsm.rollouts_from(g, None, 150, rng), fsm.rollouts_from(g, None, 150, rng)
    assert first.tolist() == a.tolist()[:150]       # one seed per rollout, drawn in order from the generator
    assert first.tolist() != second.tolist()        # the generator moves on
    assert jsm.deal_seeded(fsm.Redeal.of(g, None), 9) == jsm.deal_seeded(fsm.Redeal.of(g, None), 9)
    assert jsm.deal_seeded(fsm.Redeal.of(g, None), 9) != jsm.deal_seeded(fsm.Redeal.of(g, None), 10)


# ---------------------------------------------------------------------------------------------- 5. the generator
def gof_z(counts: list[int], n: int) -> float:
    """Chi-square goodness of fit of ``counts`` to the uniform law on ``len(counts)`` values, as a normal
    z score (Wilson-Hilferty cube root, ``k - 1`` degrees of freedom)."""
    k = len(counts) - 1
    expected = n / len(counts)
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return float(((stat / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k)))


def test_splitmix64_gives_the_published_reference_outputs() -> None:
    """The first outputs for seed 1234567, as published with the algorithm's reference code."""
    gen = jsm.SplitMix64(1234567)
    assert [gen.next() for _ in range(5)] == [6457827717110365317, 3203168211198807973, 9817491932198370423,
                                              4593380528125082431, 16408922859458223821]


def test_the_kernels_bounded_integers_are_the_python_generators() -> None:
    for seed, bound in ((3, 12), (4, 104), (5, 3 << 30)):
        state = np.array([seed], dtype=np.uint64)
        gen = jsm.SplitMix64(seed)
        assert [int(jsm._below(state, bound)) for _ in range(500)] == [gen.below(bound) for _ in range(500)]


@pytest.mark.parametrize("bound", [2, 7, 12, 104])
def test_bounded_integers_are_uniform(bound: int) -> None:
    gen = jsm.SplitMix64(bound)
    n = 30_000
    draws = [gen.below(bound) for _ in range(n)]
    assert min(draws) == 0 and max(draws) == bound - 1
    assert abs(gof_z(list(Counter(draws).values()), n)) < Z_LIMIT


def test_rejection_removes_the_multiply_shift_bias() -> None:
    """For ``bound = 3 * 2**30`` the plain ``(x * bound) >> 32`` gives residue 0 (mod 3) half the time;
    with the rejection each residue has chance 1/3."""
    bound, n = 3 << 30, 30_000
    gen = jsm.SplitMix64(77)
    fair = Counter(gen.below(bound) % 3 for _ in range(n))
    plain = Counter((((jsm.SplitMix64(78 + i).next() >> 32) * bound) >> 32) % 3 for i in range(n))
    for residue in range(3):
        assert abs(fair[residue] - n / 3) / math.sqrt(n * 2 / 9) < Z_LIMIT
    assert abs(plain[0] - n / 3) / math.sqrt(n * 2 / 9) > Z_LIMIT


def test_shuffles_are_uniform_permutations() -> None:
    gen = jsm.SplitMix64(91)
    n = 30_000
    orders = Counter(tuple(gen.permute(3)) for _ in range(n))
    assert len(orders) == 6 and abs(gof_z(list(orders.values()), n)) < Z_LIMIT
    twelve = [gen.permute(12) for _ in range(12_000)]
    assert all(sorted(p) == list(range(12)) for p in twelve)
    assert abs(gof_z(list(Counter(p.index(0) for p in twelve).values()), 12_000)) < Z_LIMIT


# ---------------------------------------------------------------------------------------------- bad input
RULES = fsm.Rules(True, True, True)


def _position(**changes: Any) -> fsm.Position:
    pos = fsm.position_of(new_game(0))
    for name, value in changes.items():
        setattr(pos, name, value)
    return pos


def _play_changed(**changes: Any) -> Callable[[], Any]:
    """The kernel on a fresh deal's position with ``changes`` made to it."""
    return lambda: jsm.play_seeded(_position(**changes), RULES, 0)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: jsm.play_seeded(_position(), RULES, -1), "seed=-1"),
    (lambda: jsm.play_seeded(_position(), RULES, True), "seed=True"),
    (lambda: jsm.play_seeded(_position(), RULES, 2.5), "seed=2.5"),  # type: ignore[arg-type]
    (_play_changed(stock=[14]), r"13 \(King\); got \[14\]"),
    (_play_changed(hands=[[], [], []]), "got 2 payoff piles, 3 hands"),
    (_play_changed(payoff=[[], [3]]), "payoff pile of seat 0 is empty"),
    (_play_changed(centre=[list(range(1, 13)), [], []], stock=[]), "centre pile 1 holds 12 cards"),
    (_play_changed(to_move=2), "to_move=2"),
    (_play_changed(stock=[5] * 200), "holds 250 cards; two packs hold 104"),
    (lambda: jsm.rollouts(fsm.Redeal.of(new_game(0), None), RULES, 0, np.random.default_rng(0)), "n=0"),
    (lambda: jsm.rollouts(fsm.Redeal.of(new_game(0), None), RULES, 5, 7), "rng=7"),  # type: ignore[arg-type]
    (lambda: jsm.deal_seeded(fsm.Redeal.of(new_game(0), None), 2**63), "seed=9223372036854775808"),
    (lambda: jsm.SplitMix64(0).below(0), "bound=0"),
    (lambda: jsm.SplitMix64("1"), "seed='1'"),  # type: ignore[arg-type]
])
def test_bad_input_is_refused_clearly(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        call()
