"""Shithead's chance law reads every hidden hand through its play: the filter (:mod:`cardlab.games.shithead.beliefs`)
and :class:`~cardlab.chance.hands_law.HandsLaw` against brute force, enumeration and records."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from math import prod

import numpy as np
import pytest

import cardlab
from cardlab.cards import Rank, full_deck
from cardlab.chance import jitkit
from cardlab.chance.hands_law import HandsLaw, falling
from cardlab.errors import CorruptRecordError, InvalidInputError
from cardlab.games.shithead import Shithead, beliefs
from cardlab.games.shithead.questions import panel as shithead_panel
from cardlab.games.shithead.rules import HOUSE_RULES, House, fit_classes
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from tests.games.shithead import chance_checks as shc
from tests.sim import chance_checks as cc
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
    """The filter's set of fitting classes restates the fit rule; checked rank for rank against the engine's
    ``rank_fits`` on every top a pile can show, with every combination of the house rules (after a 7 with
    ``seven_lower`` the fitting classes are not "this rank and above")."""
    game = Shithead(players=2, rng=np.random.default_rng(0))
    deck = full_deck(1)
    tops = [None, *[r for r in Rank if r != Rank.TEN]]   # a 10 never stays on the pile
    for house in House.all():
        game.options.update({k: getattr(house, k) for k in HOUSE_RULES})
        for top in tops:
            game.state.pile = [] if top is None else [next(c for c in deck if c.rank == top)]
            t = game.fit_classes()
            for rank in Rank:
                assert (beliefs.CLASS[rank] in t) == game.rank_fits(rank), (house, top, rank)


def test_a_free_hand_weighs_each_class_count_by_its_labellings() -> None:
    """Nothing known about 2 cards: state weight = number of ways to label 2 cards with those classes."""
    free = dict(beliefs.free(2))
    assert len(free) == beliefs.states_of(2) == 91
    for state, w in free.items():
        assert w == prod(range(1, 3)) // prod(prod(range(1, k + 1)) for k in state)


def test_a_play_multiplies_each_state_by_the_chance_of_that_rank_among_the_fitting_cards() -> None:
    """A hand of 2 unseen cards plays an unseen 9 on a 7 with nothing known: a state holding ``a`` nines and
    ``f`` fitting cards gets ``a / f`` (times its labellings), then loses one nine."""
    t = fit_classes(House(), Rank.SEVEN)
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
        expected[key] = expected.get(key, Fraction(0)) + Fraction(w * a, sum(state[c] for c in t))
    scale = Fraction(sum(after.values())) / sum(expected.values())
    assert {s: Fraction(w) for s, w in after.items()} == {s: v * scale for s, v in expected.items()}
    # after it, a card that fits is less likely than before (cards that fit would have been chosen too)
    def fitting(s: tuple[int, ...]) -> int:
        return sum(s[c] for c in t)

    law_before = sum(Fraction(w) for s, w in beliefs.free(1) if fitting(s)) / sum(w for _, w in beliefs.free(1))
    law_after = sum(Fraction(w) for s, w in after.items() if fitting(s)) / sum(after.values())
    assert law_after < law_before


def test_a_pick_up_keeps_only_states_where_nothing_fits() -> None:
    for house, top in ((House(), Rank.QUEEN), (House(seven_lower=True), Rank.SEVEN)):
        t = fit_classes(house, top)
        kept = beliefs.pick_up((), 3, t)
        assert kept and all(not any(s[c] for c in t) for s, _ in kept)
        assert dict(kept) == {s: w for s, w in beliefs.free(3) if not any(s[c] for c in t)}
        with pytest.raises(CorruptRecordError):
            beliefs.pick_up(((tuple(1 if c == beliefs.CLASS[Rank.TWO] else 0 for c in range(13)), 1),), 1, t)
    # after a 7 under seven_lower a pick-up leaves the high cards, the 8 to the Ace: not "below the 7"
    low = {beliefs.CLASS[r] for r in (Rank.THREE, Rank.SEVEN, Rank.TWO, Rank.TEN)}
    high = {beliefs.CLASS[r] for r in (Rank.EIGHT, Rank.ACE)}
    kept = dict(beliefs.pick_up((), 1, fit_classes(House(seven_lower=True), Rank.SEVEN)))
    assert not any(s[c] for s in kept for c in low) and all(any(s[c] for s in kept) for c in high)


HOUSE_BRUTE = {"seven_lower": (11, 14, 19), "invisible_three": (10, 11, 12), "eight_skips": (11, 12, 19)}
"""Per house rule, small positions whose worlds are few and whose play uses the rule."""


def _rule_used(rule: str, seed: int, moves: int) -> bool:
    """Whether the real game of ``sb.check(seed, moves, options={rule: True})`` meets the rule: a pile of
    rank 7 to play on, an invisible 3 on a card, or an 8 that skipped a player."""
    g = sb.small_position(seed, 2, 2, {rule: True})
    texts, _ = sb.play_on(g.copy(), moves, seed)  # the engine's choices are keyed: a replay is the same game
    for k in range(len(texts) + 1):
        if k:
            g.play(texts[k - 1])
        pile = g.state.pile
        if not g.is_over and ((rule == "seven_lower" and g.pile_rank == Rank.SEVEN) or (
                rule == "invisible_three" and len(pile) > 1 and pile[-1].rank == Rank.THREE)):
            return True
    return rule == "eight_skips" and any(e.kind == "skip" for e in g.events)


@pytest.mark.parametrize("rule", list(HOUSE_BRUTE))
def test_under_each_house_rule_the_law_matches_the_brute_force(rule: str) -> None:
    """The brute force of :mod:`tests.sim.shithead_brute` (worlds weighed by the law's model, the fit rule
    asked of the engine) with one house rule on: no difference, in positions where the rule is used.
    ``benchmarks/bench_chance_law.py --shithead-brute --house RULE`` runs more positions."""
    compared = 0
    bad: list[str] = []
    for seed in HOUSE_BRUTE[rule]:
        c, _, _, b = sb.check(seed, moves=12, hand=2, draws=2, options={rule: True})
        compared, bad = compared + c, bad + b
    assert not bad, bad[:10]
    assert compared >= 60 and all(_rule_used(rule, seed, 12) for seed in HOUSE_BRUTE[rule]), compared


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


def _marginals(joint: dict[tuple[tuple[int, ...], ...], int], hands: int) -> list[dict[tuple[int, ...], Fraction]]:
    """Each hand's state law: the marginal of an enumerated joint (states of every hand -> weight)."""
    total = sum(joint.values())
    out: list[dict[tuple[int, ...], Fraction]] = [{} for _ in range(hands)]
    for states, w in joint.items():
        for h in range(hands):
            out[h][states[h]] = out[h].get(states[h], Fraction(0)) + Fraction(w, total)
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
        assert list(law.hand_laws()) == _marginals(joint, len(law.hands)), trial
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


def _random_tagged_law(rng: np.random.Generator, hands: int, tags: int = 3) -> HandsLaw:
    """A random law as :func:`_random_law`, its states tagged (each with one or two of ``tags`` tags, weights
    drawn anew per tag) and random tag weights (some 0)."""
    while True:
        base = _random_law(rng, hands)
        held = []
        for b in base.beliefs:
            held.append(tuple((st + (k,), int(rng.integers(1, 6))) for st, _ in b
                              for k in rng.choice(tags, int(rng.integers(1, 3)), replace=False).tolist()))
        weights = tuple(int(rng.integers(0, 4)) for _ in range(tags))
        try:
            return HandsLaw(base.names, base.cards, base.classes, 13, base.hands, tuple(held), weights)
        except CorruptRecordError:  # no tag lets the pool deal every hand: draw another
            continue


def _tagged_joint(law: HandsLaw) -> dict[tuple[tuple[int, ...], ...], int]:
    """The mixture's joint enumerated: ``sum_k c_k prod_p W_p(x_p, k)`` times the ways, by class counts."""
    n = law.counts
    out: dict[tuple[tuple[int, ...], ...], int] = {}
    for combo in itertools.product(*law.beliefs):
        tags = {s[13] for s, _ in combo}
        if len(tags) != 1:
            continue
        states = tuple(s[:13] for s, _ in combo)
        w = law.components[tags.pop()] * prod(w for _, w in combo) * \
            prod(falling(n[c], sum(s[c] for s in states)) for c in range(13))
        if w:
            out[states] = out.get(states, 0) + w
    return out


def test_a_tagged_law_is_the_mixture_enumerated() -> None:
    """Tagged states (a mixture over tags, as ``first="lowest3"`` makes): each hand's state law equals the
    marginal of the mixture's joint enumerated state by state; the Python draw and the kernel's draw
    (:class:`cardlab.chance.jitkit.HandsArrays`) follow the joint (chi-square at the 0.001 point)."""
    rng = np.random.default_rng(21)
    for trial in range(30):
        law = _random_tagged_law(rng, 1 + trial % 2)
        joint = _tagged_joint(law)
        total = sum(joint.values())
        assert list(law.hand_laws()) == _marginals(joint, len(law.hands)), trial
        assert all(sum(law.place_law(q).values()) == 1 for q in range(len(law.names)))
    law = _random_tagged_law(rng, 2)
    while not 5 <= len(_tagged_joint(law)) <= 40 or len(law.parts()) < 2:
        law = _random_tagged_law(rng, 2)
    joint = _tagged_joint(law)
    total = sum(joint.values())
    n = 20000
    arrays = jitkit.HandsArrays.of(law)
    state = jitkit.new_state(np.uint64(3))
    out = np.zeros(arrays.size, dtype=np.int64)
    gen = np.random.default_rng(5)
    position = {c.id: i for i, c in enumerate(law.cards)}
    for kernel in (False, True):
        counts: dict[tuple[tuple[int, ...], ...], int] = {}
        for _ in range(n):
            if kernel:
                with np.errstate(over="ignore"):
                    arrays.draw(state, out)
                drawn = [position[int(c)] for c in out]
            else:
                drawn = law.draw(gen)
            states = tuple(tuple(sum(law.classes[drawn[q]] == c for q in places) for c in range(13))
                           for places in law.hands)
            counts[states] = counts.get(states, 0) + 1
        assert set(counts) <= set(joint)
        chi2 = sum((counts.get(k, 0) - n * w / total) ** 2 / (n * w / total) for k, w in joint.items())
        dof = len(joint) - 1
        critical = dof * (1 - 2 / (9 * dof) + 3.0902 * (2 / (9 * dof)) ** 0.5) ** 3
        assert chi2 < critical, (kernel, chi2, critical, dof)


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


# ---------------------------------------------------------------------------------------------- first="lowest3"
def _lowest3_start(seed: int) -> Shithead:
    """A two-player ``first="lowest3"`` game played by ``uninformed`` players through the set-up (six
    moves): the first position of play."""
    g = cardlab.new_game("shithead", seed=seed, first="lowest3")
    assert isinstance(g, Shithead)
    policy = make_policy("uninformed", "shithead", np.random.default_rng(seed))
    for _ in range(6):
        g.play(choose(policy, g))
    assert g.state.phase == "play"
    return g


def test_who_starts_under_lowest3_is_read_as_evidence_the_reproducer() -> None:
    """Issue 25's reproducer (seed 100, uninformed players, the first position of play): the law reads who
    started. The exact pick-up, draw-top and hand answers equal a count over every way to fill the hidden
    hands by rank, kept when the start rule (restated from the rules text) names the real starter, for
    the table and both seats. A law that ignores who started answered 609/2365 for the table's pick-up;
    the count gives another number."""
    g = _lowest3_start(100)
    for viewpoint in (None, 0, 1):
        assert sb.first_position_diffs(g, viewpoint) == [], viewpoint
    plain = shc.plain_pickup(g, None)  # every unseen card alike: what a law that ignored the start says
    assert plain is not None and plain != prob.shithead_mover_picks_up(g, None)


def test_under_lowest3_seats_first_positions_match_the_count() -> None:
    """More first positions of play, as each seat sees them (one hidden hand: fast to count): the law
    equals the count every time; the starters include both seats."""
    starters = set()
    for seed in range(101, 111):
        g = _lowest3_start(seed)
        starters.add(g.current_player)
        for viewpoint in (0, 1):
            assert sb.first_position_diffs(g, viewpoint) == [], (seed, viewpoint)
    assert starters == {0, 1}, starters


def test_under_lowest3_the_law_matches_a_brute_force_from_the_last_set_up_move() -> None:
    """Small positions at the last set-up move (:func:`tests.sim.shithead_brute.small_start`), played on
    at random, every viewpoint: every exact answer and place law equals the brute force over hidden
    deals, whose worlds go through the start of play themselves (a world in which another seat would
    have started drops out). With ``first="seat0"`` the same positions agree too (nothing changes)."""
    compared = two_hands = 0
    bad: list[str] = []
    for seed in (11, 12, 14, 16, 17):  # small worlds (seeds 10, 13 and 15 take ten times longer)
        c, t, _, b = sb.check(seed, moves=10, hand=2, draws=1, first="lowest3")
        compared, two_hands, bad = compared + c, two_hands + t, bad + b
    for seed in (11, 12):
        bad += sb.check(seed, moves=8, hand=2, draws=1, first="seat0")[3]
    assert not bad, bad[:10]
    assert compared >= 150 and two_hands >= 25, (compared, two_hands)


def test_under_lowest3_the_exact_answers_match_the_reference_filter_and_twins() -> None:
    """Uninformed games with ``first="lowest3"``: the exact answers against the independent reference
    filter of :mod:`tests.games.shithead.chance_checks` (which tags each hand with its own lowest rank and keeps
    the joint states that make the real starter start), and twins a viewer cannot tell apart."""
    compared = informative = 0
    for k, g in enumerate(cc.sample_positions("shithead", 2, range(700, 706), 4, first="lowest3")):
        for viewpoint in cc.viewpoints(g):
            counted = cc.count_mismatches(g, viewpoint)
            assert counted.mismatched == 0, (k, viewpoint)
            compared, informative = compared + counted.compared, informative + counted.informative
            assert not cc.twin_differences(g, viewpoint, seed=k, estimates=False, html=False), (k, viewpoint)
    assert compared >= 200 and informative >= 50, (compared, informative)


def test_under_lowest3_exact_predictions_are_calibrated_against_the_real_cards() -> None:
    """The table's exact predictions in uninformed games with ``first="lowest3"`` against the cards that
    really were there: |z| < 3 in every bin (``bench_chance_law.py --shithead-calibration --first lowest3``
    runs hundreds of games)."""
    pairs: dict[str, list[tuple[float, bool]]] = {}
    for seed in range(100, 108):
        seen: set[tuple[object, ...]] = set()
        for g in cc.bot_games("shithead", 2, seed, "uninformed", first="lowest3"):
            if g.is_over:
                break
            for key, p, real in cc.real_outcomes(g, None, seen):
                pairs.setdefault(key, []).append((float(p), real))
    assert sum(len(v) for v in pairs.values()) >= 500
    for key, rows in pairs.items():
        for label, n, mean, share, z in cc.binned_z(rows):
            assert abs(z) < 3, (key, label, n, mean, share, z)


def test_a_lowest3_game_keeps_what_the_start_told_through_records() -> None:
    """The starter-tagged beliefs and each seat's lowest class survive a record; a record whose beliefs are
    tagged without the lows, or with lows under the default option, is refused; a record written before
    ``lows`` existed loads (nothing known of the start). The default option tags nothing."""
    g = _lowest3_start(100)
    for _ in range(8):
        g.play(g.legal_moves()[0])
    assert all(beliefs.tagged(b) for b in g.state.beliefs) and len(g.state.lows) == 2
    again = cardlab.load_game(g.to_json())
    assert again.state.beliefs == g.state.beliefs and again.state.lows == g.state.lows
    for viewpoint in (None, 0, 1):
        assert again.chance_law(viewpoint) == g.chance_law(viewpoint)
    state = json.loads(g.to_json())  # the position itself as a record's initial state
    state["initial"] = g.state.to_data()
    state["moves"] = []
    loaded = cardlab.load_game(json.dumps(state))
    assert loaded.chance_law(1) == g.chance_law(1)
    for bad in ({"lows": []}, {"lows": [0]}):
        broken = json.loads(json.dumps(state))
        broken["initial"] |= bad
        with pytest.raises(CorruptRecordError, match="lows|beliefs"):
            cardlab.load_game(json.dumps(broken))
    default = json.loads(json.dumps(state))
    default["options"]["first"] = "seat0"
    with pytest.raises(CorruptRecordError, match="lows"):
        cardlab.load_game(json.dumps(default))
    old = json.loads(cardlab.new_game("shithead", seed=100).to_json())
    del old["initial"]["lows"]
    seat0 = cardlab.load_game(json.dumps(old))
    assert seat0.state.lows == []
    for _ in range(8):
        seat0.play(seat0.legal_moves()[0])
    assert not any(beliefs.tagged(b) for b in seat0.state.beliefs) and seat0.state.lows == []
    assert seat0.chance_law(None).components == ()
