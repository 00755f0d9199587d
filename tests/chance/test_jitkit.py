"""The kernels' shared pieces: SplitMix64 in Python and compiled agree, draw_law samples the chance law,
draw_hands samples a hands law (against a brute force over every assignment), and the runs' scaffolding (the
one seed scheme, policy codes, the checks of input, the bug report, the compile driver)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Hashable, Mapping
from fractions import Fraction

import numpy as np
import pytest

import cardlab
from cardlab.cards import Card, face_of
from cardlab.chance import jitkit
from cardlab.chance.hands_law import HandsLaw
from cardlab.chance.jitkit import HandsArrays, LawArrays, SplitMix64, below, draw_law, new_state, next_u64, shuffle
from cardlab.chance.law import ChanceLaw, Group, MixedLaw
from cardlab.errors import CorruptRecordError, InvalidInputError, KernelError


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


# ---------------------------------------------------------------------------------------------- hands laws
def chi2_upper(df: int, z: float) -> float:
    """The chi-square upper point with the normal upper point ``z`` (Wilson-Hilferty; 3.72 is 1e-4)."""
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


def chi2_test(seen: Mapping[Hashable, int], law: Mapping[Hashable, Fraction], n: int) -> tuple[float, int]:
    """Pearson's chi-square of ``n`` draws' counts against an exact law, cells expected fewer than 5 times
    pooled into one (a cell outside the law fails at once): the statistic and its degrees of freedom."""
    assert set(seen) <= {k for k, p in law.items() if p}, set(seen) - set(law)
    stat, df = 0.0, -1
    pooled_seen, pooled_expected = 0, 0.0
    for key, p in law.items():
        expected = n * float(p)
        if expected < 5:
            pooled_seen += seen.get(key, 0)
            pooled_expected += expected
            continue
        stat += (seen.get(key, 0) - expected) ** 2 / expected
        df += 1
    if pooled_expected > 0:
        stat += (pooled_seen - pooled_expected) ** 2 / pooled_expected
        df += 1
    return stat, df


def _hands_law(pool: str, classes: tuple[int, ...], n_classes: int, hands: tuple[tuple[int, ...], ...],
               beliefs: tuple[tuple[tuple[tuple[int, ...], int], ...], ...]) -> HandsLaw:
    cards = tuple(Card.parse(t) for t in pool.split())
    return HandsLaw(tuple(f"p{i}" for i in range(len(cards))), cards, classes, n_classes, hands, beliefs)


ONE_HAND = _hands_law(  # 7 cards in 4 classes (3, 2, 1, 1); a hand on places 1, 4, 5; two states impossible
    "3S 3H 3D 4S 4H 5S 6S", (0, 0, 0, 1, 1, 2, 3), 4, ((1, 4, 5),),
    ((((3, 0, 0, 0), 2), ((2, 1, 0, 0), 1), ((1, 1, 1, 0), 4), ((0, 2, 1, 0), 3), ((0, 0, 2, 1), 5),
      ((0, 3, 0, 0), 7), ((1, 0, 1, 1), 2)),))
TWO_HANDS = _hands_law(  # 7 cards in 3 classes (3, 2, 2); hands on places 0, 3 and 1, 5, 6; free 2, 4
    "3S 3H 3D 4S 4H 5S 5H", (0, 0, 0, 1, 1, 2, 2), 3, ((0, 3), (1, 5, 6)),
    ((((2, 0, 0), 1), ((1, 1, 0), 3), ((0, 1, 1), 2), ((0, 0, 2), 1), ((0, 2, 0), 4)),
     (((3, 0, 0), 2), ((2, 1, 0), 1), ((1, 1, 1), 5), ((0, 2, 1), 1), ((0, 0, 3), 9), ((1, 0, 2), 3))))
THREE_HANDS = _hands_law(  # 8 cards in 3 classes (3, 3, 2); hands on places 0, 7 / 2, 3 / 5; free 1, 4, 6
    "3S 3H 3D 4S 4H 4D 5S 5H", (0, 0, 0, 1, 1, 1, 2, 2), 3, ((0, 7), (2, 3), (5,)),
    ((((2, 0, 0), 1), ((1, 1, 0), 2), ((0, 0, 2), 3)),
     (((1, 1, 0), 1), ((0, 2, 0), 2), ((0, 1, 1), 1), ((2, 0, 0), 3)),
     (((1, 0, 0), 1), ((0, 1, 0), 1), ((0, 0, 1), 4))))
LAWS = {"one hand": ONE_HAND, "two hands": TWO_HANDS, "three hands": THREE_HANDS}


def brute(law: HandsLaw) -> tuple[dict[tuple[tuple[int, ...], ...], Fraction], list[dict[int, Fraction]]]:
    """The law by brute force over every assignment of the pool to the places (from its definition):
    an assignment in which the hands' class counts are ``x_1 .. x_m`` has weight ``prod_p W_p(x_p) /
    multinomial(x_p)`` (given the states the cards are uniform, and a state's weight counts its
    labellings); returns the joint law of the hands' states and, per place, the law of its card index."""
    weights = [dict(b) for b in law.beliefs]
    joint: dict[tuple[tuple[int, ...], ...], Fraction] = {}
    places: list[dict[int, Fraction]] = [{} for _ in law.names]
    total = Fraction(0)
    for perm in itertools.permutations(range(len(law.cards))):
        w = Fraction(1)
        states = []
        for places_h, wh in zip(law.hands, weights, strict=True):
            x = [0] * law.n_classes
            for q in places_h:
                x[law.classes[perm[q]]] += 1
            state = tuple(x)
            states.append(state)
            w *= Fraction(wh.get(state, 0) * math.prod(math.factorial(k) for k in x), math.factorial(len(places_h)))
        if not w:
            continue
        total += w
        joint[tuple(states)] = joint.get(tuple(states), Fraction(0)) + w
        for q, i in enumerate(perm):
            places[q][i] = places[q].get(i, Fraction(0)) + w
    return ({k: v / total for k, v in joint.items()},
            [{i: v / total for i, v in pl.items()} for pl in places])


def _marginal(joint: Mapping[tuple[tuple[int, ...], ...], Fraction], h: int) -> dict[tuple[int, ...], Fraction]:
    out: dict[tuple[int, ...], Fraction] = {}
    for states, p in joint.items():
        out[states[h]] = out.get(states[h], Fraction(0)) + p
    return out


@pytest.mark.parametrize("name", list(LAWS))
def test_the_brute_force_agrees_with_the_hands_laws_exact_answers(name: str) -> None:
    """The brute force (the law's definition) against HandsLaw's exact hand and place laws (1 and 2 hands),
    and every state of a hand that the pool cannot deal has chance 0."""
    law = LAWS[name]
    joint, places = brute(law)
    solo = [dict(p) for p in law.solo()]
    for h in range(len(law.hands)):
        marginal = _marginal(joint, h)
        assert set(marginal) <= set(solo[h]) <= {s for s, _ in law.beliefs[h]}
        if law.exact:
            assert marginal == law.hand_laws()[h]
    assert (name == "three hands") == all(len(p) == len(b) for p, b in zip(solo, law.beliefs, strict=True))
    if law.exact:
        for q, pl in enumerate(places):
            assert {face_of(law.cards[i]): p for i, p in pl.items()} == law.place_law(q)
    else:
        assert len(law.hands) == 3


def draw_counts(law: HandsLaw, n: int, seed: int) -> tuple[Counter[tuple[tuple[int, ...], ...]],
                                                           list[Counter[int]], Counter[int]]:
    """``n`` kernel draws (:meth:`HandsArrays.draw`, the cards encoded by their index in the pool), each
    checked to be an assignment of the whole pool whose hands hold a state the pool can deal; the joint
    states' counts, each place's card counts, and how many tries the draws took."""
    arrays = HandsArrays.of(law, encode=lambda c: law.cards.index(c))
    solo = [{s for s, _ in p} for p in law.solo()]
    state = new_state(seed)
    out = np.zeros(len(law.names), dtype=np.int64)
    joint: Counter[tuple[tuple[int, ...], ...]] = Counter()
    places: list[Counter[int]] = [Counter() for _ in law.names]
    tries: Counter[int] = Counter()
    for _ in range(n):
        tries[arrays.draw(state, out)] += 1
        got = out.tolist()
        assert sorted(got) == list(range(len(law.cards))), got
        states = []
        for h, places_h in enumerate(law.hands):
            x = [0] * law.n_classes
            for q in places_h:
                x[law.classes[got[q]]] += 1
            assert tuple(x) in solo[h], (h, x)
            states.append(tuple(x))
        joint[tuple(states)] += 1
        for q, i in enumerate(got):
            places[q][i] += 1
    return joint, places, tries


@pytest.mark.parametrize("name", list(LAWS))
def test_draw_hands_follows_the_exact_law(name: str) -> None:
    """Kernel draws against the brute force: the joint states of the hands (chi-square) and, per place,
    its card (chi-square), each at the 1e-4 upper point (a family of about 25 tests); for 1 and 2 hands
    the brute force is HandsLaw's own exact answer (previous test). With 2+ hands some tries are
    rejected, and skipping the rejection would be caught: the proposals' product law is far from the
    truth (total variation above 0.05, against a sampling noise of about 0.01 with these draws)."""
    law = LAWS[name]
    joint_law, place_laws = brute(law)
    n = 40_000
    joint, places, tries = draw_counts(law, n, seed=2026 + len(law.hands))
    stat, df = chi2_test(joint, joint_law, n)
    assert stat < chi2_upper(df, 3.72), (stat, df)
    for q, pl in enumerate(place_laws):
        stat, df = chi2_test(places[q], pl, n)
        assert stat < chi2_upper(df, 3.72), (q, stat, df)
    if len(law.hands) == 1:
        assert set(tries) == {1}
        return
    assert sum(v for k, v in tries.items() if k > 1) > n // 20, tries
    solo = [dict(p) for p in law.solo()]
    totals = [sum(p.values()) for p in solo]
    product = {states: math.prod(Fraction(solo[h][s], totals[h]) for h, s in enumerate(states))
               for states in itertools.product(*solo)}
    assert sum(abs(p - joint_law.get(k, 0)) for k, p in product.items()) / 2 > Fraction(1, 20)


def test_without_hidden_hands_the_pool_is_shuffled_onto_the_free_places() -> None:
    law = _hands_law("3S 4S 5S", (0, 0, 1), 2, (), ())
    _, places, tries = draw_counts(law, 6000, seed=4)
    assert set(tries) == {1}
    for pl in places:
        stat, df = chi2_test(pl, {i: Fraction(1, 3) for i in range(3)}, 6000)
        assert df == 2 and stat < chi2_upper(df, 3.72)


def test_hands_arrays_keep_the_proposals_weights_and_a_hand_the_pool_cannot_deal_is_refused() -> None:
    """Each state's proposal chance ``(thresholds[r] - thresholds[r - 1]) / 2**62`` is its exact share of
    the hand's :meth:`HandsLaw.solo` weight to within 2**-62; the last threshold is exactly 2**62. A law with
    a hand that no state lets the pool deal is refused when it is made."""
    for law in LAWS.values():
        arrays = HandsArrays.of(law)
        for h, props in enumerate(law.solo()):
            lo, hi = int(arrays.state_start[h]), int(arrays.state_start[h + 1])
            total = sum(w for _, w in props)
            assert [tuple(r) for r in arrays.states[lo:hi].tolist()] == [s for s, _ in props]
            prev = 0
            for r, (_, w) in zip(range(lo, hi), props, strict=True):
                share = Fraction(int(arrays.thresholds[r]) - prev, 1 << 62)
                assert abs(share - Fraction(w, total)) < Fraction(1, 1 << 62)
                prev = int(arrays.thresholds[r])
            assert prev == 1 << 62
    with pytest.raises(CorruptRecordError, match="no state lets the pool deal"):
        _hands_law("3S 4S 5S", (0, 0, 1), 2, ((0, 1),), ((((0, 2), 1),),))  # two 3s wanted, one in the pool


def test_draw_hands_compiled_and_as_python_give_the_same_numbers() -> None:
    """With numba, ``draw_hands.py_func`` is the kernel's source run as Python: the same draws and tries
    from the same seeds (the whole kernel without numba: tests/games/shithead/test_kernel.py)."""
    pytest.importorskip("numba")
    assert jitkit.HAVE_NUMBA
    for law in LAWS.values():
        a = HandsArrays.of(law)
        args = (a.cards, a.class_start, a.hand_places, a.hand_start, a.free, a.states, a.state_start, a.thresholds,
                a.size)
        for seed in range(40):
            fast, slow = new_state(seed), new_state(seed)
            out1, out2 = np.zeros(a.size, dtype=np.int64), np.zeros(a.size, dtype=np.int64)
            with np.errstate(over="ignore"):
                t1 = jitkit.draw_hands(*args, fast, out1, a.work(), a.part_thresholds)
                t2 = jitkit.draw_hands.py_func(*args, slow, out2, a.work(),  # type: ignore[attr-defined]
                                               a.part_thresholds)
            assert (int(t1), out1.tolist(), int(fast[0])) == (int(t2), out2.tolist(), int(slow[0]))


# ---------------------------------------------------------------------------------------------- runs
def test_game_i_of_a_run_is_output_i_of_splitmix64_seeded_with_the_seed_sequences_word() -> None:
    """The one seed scheme: :func:`~cardlab.dealer.game_key` (Python) and :func:`game_state` (compiled) give game ``i``
    the ``i``-th output (from 0) of SplitMix64 seeded with ``SeedSequence(seed)``'s first 64-bit word,
    worked out here from numpy and the generator's own outputs; shards cannot change it, nor can a seed
    be mistaken for a neighbour's."""
    for seed in (0, 1, 7, 2**40 + 3):
        word = int(np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0])
        assert int(jitkit.run_seed(seed, "t")) == word
        gen = SplitMix64(word)
        outputs = [gen.next() for _ in range(6)]
        state = np.zeros(1, dtype=np.uint64)
        for i in range(6):
            with np.errstate(over="ignore"):
                jitkit.game_state(jitkit.run_seed(seed, "t"), i, state)
            assert jitkit.game_key(seed, i) == outputs[i] == int(state[0]), (seed, i)
    firsts = [jitkit.game_key(s, 0) for s in range(50)]
    assert len(set(firsts)) == 50 and jitkit.game_key(0, 1) not in firsts


@pytest.mark.parametrize("seed", [-1, 1.5, "3", True, None, np.float64(2.0)])
def test_a_seed_that_is_not_a_whole_number_from_0_is_refused(seed: object) -> None:
    with pytest.raises(InvalidInputError, match=r"play_shard: seed=.* is not allowed; give a whole number >= 0"):
        jitkit.run_seed(seed, "play_shard")


def test_policy_codes_are_one_per_seat_padded_with_greedy_and_anything_else_is_refused() -> None:
    assert jitkit.policy_codes(["greedy", "random"], 2, "t").tolist() == [jitkit.GREEDY, jitkit.RANDOM]
    assert jitkit.policy_codes(("random",), 1, "t", 4).tolist() == [jitkit.RANDOM] + [jitkit.GREEDY] * 3
    assert jitkit.plays(["random", "greedy", "random"]) and jitkit.plays(())
    for bad, players in ((["greedy"], 2), (["greedy", "clever"], 2), ("greedy", 6), (["greedy", len], 2),
                         (None, 2), ({"greedy", "random"}, 2), (["greedy", "random", "greedy"], 2)):
        assert not jitkit.plays(bad) or len(bad) != players
        with pytest.raises(InvalidInputError, match=r"Table.of: policies=.* is not allowed; give one of 'greedy' or "
                                                    r"'random' per seat"):
            jitkit.policy_codes(bad, players, "Table.of")


def test_a_range_of_games_is_two_whole_numbers_in_order() -> None:
    assert jitkit.check_range(np.int64(3), 9, "t") == (3, 9) and jitkit.check_range(0, 0, "t") == (0, 0)
    for start, stop in ((5, 4), (-1, 3), (0, 2.0), (True, 3), ("0", 3)):
        with pytest.raises(InvalidInputError, match="play_shard: start=.* is not a range of games"):
            jitkit.check_range(start, stop, "play_shard")


def test_a_play_out_request_a_kernel_cannot_answer_is_refused() -> None:
    game = cardlab.new_game("garbage", players=3, seed=0)
    rng = np.random.default_rng(0)
    assert jitkit.check_playouts(game, type(game), 2, np.int64(1), rng, "t") is game
    assert jitkit.check_playouts(game, type(game), None, 5, rng, "t") is game
    other = cardlab.new_game("shithead", players=2, seed=0)
    cases = [((other, 0, 5, rng), "the Garbage kernel plays Garbage games only, not 'shithead'"),
             ((game, 3, 5, rng), r"viewpoint=3 is not a seat of this game \(0 to 2\)"),
             ((game, True, 5, rng), "viewpoint=True is not a seat"),
             ((game, None, 0, rng), "n=0 is not allowed"), ((game, None, 2.0, rng), "n=2.0 is not allowed"),
             ((game, None, 5, np.random.RandomState(0)), "rng=.* is not a numpy.random.Generator")]
    for (g, viewpoint, n, r), message in cases:
        with pytest.raises(InvalidInputError, match=f"win_rollouts: {message}"):
            jitkit.check_playouts(g, type(game), viewpoint, n, r, "win_rollouts")


def test_a_kernel_failure_names_what_broke_where_the_seed_and_every_replayed_move() -> None:
    calls: list[int] = []

    def replay() -> list[str]:
        calls.append(1)
        return ["draw stock", "discard"]

    err = jitkit.kernel_failure("Garbage", "play_shard", "cards were lost", "game 3, 2 players", 11, replay)
    assert isinstance(err, KernelError) and calls == [1]
    assert str(err) == ("Garbage kernel, play_shard: cards were lost (game 3, 2 players, seed 11); moves: draw stock, "
                        "discard")
    assert str(jitkit.kernel_failure("X", "w", "why", "here", 0, list)).endswith("moves: none")


def test_compile_kernel_runs_every_entry_point_once_from_a_fresh_game() -> None:
    seen: list[object] = []

    def play_shard(*args: object) -> None:
        seen.append(args)

    def playout(game: object, rng: np.random.Generator) -> None:
        assert isinstance(rng, np.random.Generator)
        seen.append(game)

    seconds = jitkit.compile_kernel("spite-and-malice", play_shard, [playout, playout])
    assert seconds >= 0 and len(seen) == 3
    fresh = cardlab.new_game("spite-and-malice", seed=0)
    assert seen[0] == (2, fresh.options, 0, 0, 2, ("greedy", "random"))
    assert all(getattr(g, "name", None) == "spite-and-malice" and not g.moves for g in seen[1:])
