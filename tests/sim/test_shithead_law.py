"""Shithead's chance law reads every hidden hand through its play: the filter (:mod:`cardlab.games.shithead.beliefs`)
and :class:`~cardlab.sim.hands_law.HandsLaw` against brute force, enumeration and records."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from math import prod

import numpy as np
import pytest

import cardlab
from cardlab.cards import Rank, full_deck
from cardlab.errors import CorruptRecordError, InvalidInputError
from cardlab.games.shithead import Shithead, beliefs
from cardlab.games.shithead.questions import panel as shithead_panel
from cardlab.sim import prob
from cardlab.sim.hands_law import HandsLaw, falling
from tests.sim import shithead_brute as sb
from tests.viz.test_table import random_game

BRUTE_SEEDS = range(10, 18)


def test_the_law_matches_a_brute_force_over_hidden_deals_weighted_by_the_model() -> None:
    """Small real positions, 20 random moves, every viewpoint: every exact answer and every place law equals
    the brute force over hidden deals (each world weighted by the chance that the model's players made the
    moves seen). The positions matter: two hidden hands are covered, and the law that ignores how hands
    played (every unseen card alike) is wrong in many of them, so this test can catch that modelling error."""
    compared = two_hands = plain_wrong = 0
    bad: list[str] = []
    for seed in BRUTE_SEEDS:
        c, t, p, b = sb.check(seed, moves=20, hand=2, draws=3)
        compared, two_hands, plain_wrong = compared + c, two_hands + t, plain_wrong + p
        bad += b
    assert not bad, bad[:10]
    assert compared >= 300 and two_hands >= 40 and plain_wrong >= 150, (compared, two_hands, plain_wrong)


def test_the_classes_say_what_fits_exactly_as_the_rules_do() -> None:
    """The filter's classes restate the fit rule (a card fits when its class is at least the top's
    threshold); checked rank for rank against the engine's ``rank_fits`` on every top a pile can show."""
    game = Shithead(players=2, rng=np.random.default_rng(0))
    deck = full_deck(1)
    tops = [None, *[r for r in Rank if r != Rank.TEN]]   # a 10 never stays on the pile
    for top in tops:
        game.state.pile = [] if top is None else [next(c for c in deck if c.rank == top)]
        t = beliefs.threshold(top)
        for rank in Rank:
            assert (beliefs.CLASS[rank] >= t) == game.rank_fits(rank), (top, rank)


def test_a_free_hand_weighs_each_class_count_by_its_labellings() -> None:
    """Nothing known about 2 cards: state weight = number of ways to label 2 cards with those classes."""
    free = dict(beliefs.free(2))
    assert len(free) == beliefs.states_of(2) == 91
    for state, w in free.items():
        assert w == prod(range(1, 3)) // prod(prod(range(1, k + 1)) for k in state)


def test_a_play_multiplies_each_state_by_the_chance_of_that_rank_among_the_fitting_cards() -> None:
    """A hand of 2 unseen cards plays an unseen 9 on a 7 with nothing known: a state holding ``a`` nines and
    ``f`` fitting cards gets ``a / f`` (times its labellings), then loses one nine."""
    t = beliefs.threshold(Rank.SEVEN)
    nine = beliefs.CLASS[Rank.NINE]
    after = dict(beliefs.play((), 2, t, 0, 0, nine, 1))
    expected: dict[tuple[int, ...], Fraction] = {}
    for state, w in beliefs.free(2):
        a = state[nine]
        if a == 0:
            continue
        rest = list(state)
        rest[nine] -= 1
        key = tuple(rest)
        expected[key] = expected.get(key, Fraction(0)) + Fraction(w * a, sum(state[t:]))
    scale = Fraction(sum(after.values())) / sum(expected.values())
    assert {s: Fraction(w) for s, w in after.items()} == {s: v * scale for s, v in expected.items()}
    # after it, a card that fits is less likely than before (cards that fit would have been chosen too)
    law_before = sum(Fraction(w) for s, w in beliefs.free(1) if sum(s[t:])) / sum(w for _, w in beliefs.free(1))
    law_after = sum(Fraction(w) for s, w in after.items() if sum(s[t:])) / sum(after.values())
    assert law_after < law_before


def test_a_pick_up_keeps_only_states_where_nothing_fits() -> None:
    t = beliefs.threshold(Rank.QUEEN)
    kept = beliefs.pick_up((), 3, t)
    assert kept and all(sum(s[t:]) == 0 for s, _ in kept)
    assert dict(kept) == {s: w for s, w in beliefs.free(3) if sum(s[t:]) == 0}
    with pytest.raises(CorruptRecordError):
        beliefs.pick_up(((tuple(1 if c == beliefs.CLASS[Rank.TWO] else 0 for c in range(13)), 1),), 1, t)


def _random_law(rng: np.random.Generator, hands: int) -> HandsLaw:
    deck = full_deck(1)
    cards = sorted((deck[i] for i in rng.choice(52, 14, replace=False)),
                   key=lambda c: (beliefs.CLASS[c.rank], int(c.suit)))
    sizes = [int(rng.integers(1, 4)) for _ in range(hands)]
    places: list[tuple[int, ...]] = []
    q = 0
    for s in sizes:
        places.append(tuple(range(q, q + s)))
        q += s
    held = []
    for s in sizes:
        b = tuple((st, w * int(rng.integers(1, 6))) for st, w in beliefs.free(s) if rng.random() < 0.6)
        held.append(b or beliefs.free(s))
    names = tuple([f"hand {h}" for h, s in enumerate(sizes) for _ in range(s)] + ["draw"] * (14 - q))
    return HandsLaw(names, tuple(cards), tuple(beliefs.CLASS[c.rank] for c in cards), 13, tuple(places), tuple(held))


def _joint(law: HandsLaw) -> dict[tuple[tuple[int, ...], ...], int]:
    n = law.counts
    out = {}
    for combo in itertools.product(*law.beliefs):
        states = tuple(s for s, _ in combo)
        w = prod(w for _, w in combo) * prod(falling(n[c], sum(s[c] for s in states)) for c in range(13))
        if w:
            out[states] = w
    return out


def test_hand_laws_and_place_laws_match_enumeration_of_the_joint() -> None:
    """One and two hidden hands with random weights: each hand's state law (the two-hand moment formula)
    equals the marginal of the joint enumerated pair by pair; place laws add up and agree with the
    expected class counts; with three hands the exact answers are refused."""
    rng = np.random.default_rng(4)
    for trial in range(40):
        law = _random_law(rng, 1 + trial % 2)
        joint = _joint(law)
        total = sum(joint.values())
        for h in range(len(law.hands)):
            marginal: dict[tuple[int, ...], Fraction] = {}
            for states, w in joint.items():
                marginal[states[h]] = marginal.get(states[h], Fraction(0)) + Fraction(w, total)
            assert law.hand_laws()[h] == marginal, trial
        for q in range(len(law.names)):
            assert sum(law.place_law(q).values()) == 1
        free = law.free[0]
        expected_in_hands = [sum(Fraction(w, total) * sum(s[c] for s in states) for states, w in joint.items())
                             for c in range(13)]
        n = law.counts
        for c in range(13):
            if n[c]:
                on_free = sum(p for face, p in law.place_law(free).items() if beliefs.CLASS[face.rank] == c)
                assert on_free == (n[c] - expected_in_hands[c]) / len(law.free)
    with pytest.raises(InvalidInputError, match="at most two hidden hands"):
        _random_law(rng, 3).place_law(0)


def test_the_law_draws_its_joint_exactly() -> None:
    """Two hands (collisions possible): the frequencies of the drawn state pairs against the exact joint,
    chi-square over every pair (critical value at 0.001 for its degrees of freedom, computed here)."""
    rng = np.random.default_rng(11)
    law = _random_law(rng, 2)
    while len(_joint(law)) > 40 or len(_joint(law)) < 5:
        law = _random_law(rng, 2)
    joint = _joint(law)
    total = sum(joint.values())
    n = 20000
    counts: dict[tuple[tuple[int, ...], ...], int] = {}
    gen = np.random.default_rng(5)
    for _ in range(n):
        drawn = law.draw(gen)
        assert sorted(drawn) == list(range(len(law.cards)))
        states = []
        for places in law.hands:
            s = [0] * 13
            for q in places:
                s[law.classes[drawn[q]]] += 1
            states.append(tuple(s))
        counts[tuple(states)] = counts.get(tuple(states), 0) + 1
    assert set(counts) <= set(joint)
    chi2 = sum((counts.get(k, 0) - n * w / total) ** 2 / (n * w / total) for k, w in joint.items())
    dof = len(joint) - 1
    # Wilson-Hilferty: the 0.999 quantile of chi-square with dof degrees of freedom
    critical = dof * (1 - 2 / (9 * dof) + 3.0902 * (2 / (9 * dof)) ** 0.5) ** 3
    assert chi2 < critical, (chi2, critical, dof)


def _played(seed: int, players: int, moves: int) -> Shithead:
    g = random_game("shithead", players, seed, moves)
    assert isinstance(g, Shithead)
    return g


def test_what_play_taught_survives_records_and_undo() -> None:
    g = _played(3, 2, 60)
    assert any(g.state.beliefs)
    again = cardlab.load_game(g.to_json())
    assert again.state.beliefs == g.state.beliefs
    for viewpoint in (None, 0, 1):
        assert again.chance_law(viewpoint) == g.chance_law(viewpoint)
    before = g.state.beliefs
    g.play(g.legal_moves()[0])
    g.undo()
    assert g.state.beliefs == before


def test_a_record_with_a_corrupt_belief_is_refused_with_a_clear_error() -> None:
    """A record's initial beliefs are read and checked: a valid one loads and is used; each corruption is
    refused with an error naming the field."""
    g = cardlab.new_game("shithead", players=2, seed=3)
    while g.state.phase == "setup":  # beliefs start with the play: play teaches nothing in the set-up
        g.play(g.legal_moves()[0])
    record = json.loads(g.to_json())
    record["initial"], record["moves"] = g.state.to_data(), []
    state = [0] * 13  # seat 1's three unseen cards by class: a belief must allow them
    for c in g.state.hands[1]:
        state[beliefs.CLASS[c.rank]] += 1
    other = state[1:] + state[:1]
    record["initial"]["beliefs"] = [[], [[state, 1], [other, 2]]]
    g = cardlab.load_game(json.dumps(record))
    assert g.chance_law(None).beliefs == (((tuple(state), 1), (tuple(other), 2)),)  # seat 0: free places
    for bad in ([[[state, 1]]],                    # one seat missing
                [[], [[state, 0]]],                # a weight of 0
                [[], [[state[:-1], 1]]],           # 12 counts, not 13
                [[], [[[7] + [0] * 12, 1]]],       # 7 cards, but seat 1 has 3 unseen
                [[], [[state, 1], [state, 2]]],    # one state twice
                [[], [[other, 1]]],                # the hand's real cards ruled out
                [[], [state, 1]]):                 # not a list of pairs
        record["initial"]["beliefs"] = bad
        with pytest.raises(CorruptRecordError, match="beliefs"):
            cardlab.load_game(json.dumps(record))


def test_a_position_with_three_hidden_hands_answers_by_estimate() -> None:
    """Three players, the table's view: the exact functions refuse (with the name of the estimate to use),
    the estimates answer with an interval, and the panel labels them estimates."""
    g = _played(8, 3, 40)
    while g.state.phase != "play" or g.is_over:
        g = _played(int(g.state.turn) + 9, 3, 40)
    law = g.chance_law(None)
    if law.exact:
        pytest.fail("the position should leave three hands with unseen cards")
    with pytest.raises(InvalidInputError, match="estimate"):
        prob.shithead_draw_top_fits(g, None) if g.state.draw else prob.shithead_blind_fits(g, None)
    panel = shithead_panel(g, None, rng=np.random.default_rng(0), rollouts=200)
    fits = [q for q in panel if q.key in ("blind_fits", "draw_top_fits") and q.reason is None]
    assert fits and all(q.exact is None and q.n == 200 and q.low <= q.value <= q.high for q in fits)
