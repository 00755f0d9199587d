"""The games' chance laws against the truth, not against themselves (issue: "Exact means exact").

Smaller versions of ``benchmarks/bench_chance_law.py``; see :mod:`tests.sim.chance_checks` for what each
check means. Nothing here uses the package's own resampler as the truth: exact answers are compared
with counts made from the public view, with twins that the viewer cannot tell apart, and with the
cards that really were there in bot-played games.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import cardlab
from cardlab.cards import Card
from cardlab.chance.law import ChanceLaw, Group, MixedLaw
from cardlab.errors import CorruptRecordError
from cardlab.sim import prob
from tests.sim import chance_checks as cc

GAMES = cc.games()
"""Every registered game: each has its checks (:func:`tests.sim.chance_checks.checks_for` fails loudly for a
game registered without them), with its own positions and calibration games."""


def positions(name: str) -> list[cardlab.Game]:  # type: ignore[type-arg]
    out = []
    for players, options, seeds, every in cc.checks_for(name).positions:
        out += cc.sample_positions(name, players, seeds, every, **options)
    return out


def test_every_registered_game_has_its_chance_checks() -> None:
    """A game registered without chance checks is a failure here, not a game the checks skip."""
    assert GAMES == cardlab.game_names() and len(GAMES) >= 4
    for name in GAMES:
        assert cc.checks_for(name).name == name
    with pytest.raises(AssertionError, match="no chance checks"):
        cc.checks_for("a game nobody registered")


@pytest.mark.parametrize("name", GAMES)
def test_exact_functions_match_independent_counts_in_every_viewpoint(name: str) -> None:
    """Every exact function against a count made in the test module from the public view and events
    (:mod:`tests.sim.chance_checks`). For Shithead the count reads each hand through its play with a
    reference filter of its own (replayed from the game's record), so it covers real positions in which
    hands have played and picked up; enough of those comparisons must have an informative hand, and
    enough must differ from the plain count that treats every unseen card alike (so that a law ignoring
    what play says would fail here)."""
    compared = mismatched = informative = differs = 0
    games = positions(name)
    assert len(games) >= 100
    for g in games:
        for viewpoint in cc.viewpoints(g):
            counted = cc.count_mismatches(g, viewpoint)
            compared += counted.compared
            mismatched += counted.mismatched
            informative += counted.informative
            differs += counted.plain_differs
    assert mismatched == 0
    assert compared >= 200  # the comparisons were made, not skipped
    least_informative, least_differs = cc.checks_for(name).min_informative
    assert informative >= least_informative and differs >= least_differs, (informative, differs)


@pytest.mark.parametrize("name", GAMES)
def test_twins_a_viewer_cannot_tell_apart_get_identical_answers(name: str) -> None:
    games = positions(name)
    pairs = failures = 0
    for k, g in enumerate(games):
        for viewpoint in cc.viewpoints(g):
            bad = cc.twin_differences(g, viewpoint, seed=k, estimates=k % 10 == 0,
                                      html=k % 8 == 0)
            pairs += 1
            failures += bool(bad)
            assert not bad, (name, k, viewpoint, bad)
    assert pairs >= 200 and failures == 0


@pytest.mark.parametrize("name", GAMES)
def test_exact_predictions_are_calibrated_against_the_real_cards(name: str) -> None:
    """Exact predictions (table's view) against the cards that really were there, in games of the
    ``uninformed`` players, whose choices carry as little information about their hidden cards as the
    rules allow: there the law must be calibrated in every bin (|z| < 3).

    For Shithead that includes "the player to move picks up", the prediction that tests how the law
    reads a hand's play: a player who must play a card that fits tells something about the rest of its
    hand with every play and every pick-up, and the law reads both under the uninformed player's model
    (:mod:`cardlab.games.shithead.beliefs`). A law that ignored it (every unseen card alike) was measured
    far off, so enough of these predictions must be made while the mover's hand has been read through
    its play (its reference weights, :class:`tests.games.shithead.chance_checks.RefHand`, are not those of free
    cards), and the same predictions must show that the check has the power to tell: over the uncertain
    pick-ups from the hand, the plain count that treats every unseen card alike must miss by |z| >= 3
    while the law's total stays within |z| < 3. (Each Shithead exact answer here costs a law built
    anew, so the game count is small; ``bench_chance_law.py --shithead-calibration`` runs hundreds.)"""
    checks = cc.checks_for(name)
    players, options, seeds = checks.calibration
    pairs: dict[str, list[tuple[float, bool]]] = {}
    notes: list[object] = []  # what the game's own power check notes on each outcome (Shithead's pick-ups)
    for seed in seeds:
        seen: set[tuple[object, ...]] = set()
        for g in cc.bot_games(name, players, seed, "uninformed", **options):
            if g.is_over:
                break
            for key, p, real in cc.real_outcomes(g, None, seen):
                pairs.setdefault(key, []).append((float(p), real))
                if checks.power is not None:
                    notes.append(checks.power[0](g, key, p, real))
    assert sum(len(v) for v in pairs.values()) >= 500
    for key, rows in pairs.items():
        for label, n, mean, share, z in cc.binned_z(rows):
            assert abs(z) < 3, (name, key, label, n, mean, share, z)
    if checks.power is not None:
        checks.power[1](notes)


def test_chance_law_place_law_matches_enumeration_on_a_small_law() -> None:
    """Brute force over every assignment of a small nested law: the exact place laws and the sampler."""
    from itertools import permutations

    cards = [Card.parse(c) for c in ("AS", "2S", "3S", "4S", "5S")]
    law = ChanceLaw(("a", "b", "c", "d", "e"), (Group((0, 1), (cards[0],)), Group((3,), (cards[1],)),
                                                Group((0, 1, 2, 3, 4), tuple(cards[2:]))))
    valid = [perm for perm in permutations(range(5))
             if perm[0] in (0, 1) and perm[1] == 3]  # perm[i]: the place of card i
    for place in range(5):
        counted: dict[Card, Fraction] = {}
        for perm in valid:
            card = cards[perm.index(place)]
            counted[card] = counted.get(card, Fraction(0)) + Fraction(1, len(valid))
        assert law.place_law(place) == counted
    rng = np.random.default_rng(0)
    seen = {tuple(law.sample(rng)) for _ in range(400)}
    assert len(seen) == len(valid)  # every valid assignment, and only those, comes up
    for places in ((0,), (2, 3), (0, 1, 4)):  # expected number of places holding a face, split by group
        for face in cards:
            counted_by_group = [Fraction(0)] * 3
            for perm in valid:
                i = next(j for j, c in enumerate(cards) if c.face == face.face)
                if perm[i] in places:
                    counted_by_group[0 if i == 0 else 1 if i == 1 else 2] += Fraction(1, len(valid))
            assert law.face_chances(places, face) == counted_by_group


def test_a_mixed_law_is_the_weighted_sum_of_its_components() -> None:
    """Exact answers of a mixture are the weighted sums over its components (checked by enumerating each
    component's assignments); the sampler picks a component with its weight (a binomial test) and is a
    function of the generator alone."""
    from itertools import permutations

    cards = [Card.parse(c) for c in ("AS", "2S", "3S")]
    one = ChanceLaw(("a", "b", "c"), (Group((0,), (cards[0],)), Group((0, 1, 2), tuple(cards[1:]))))
    two = ChanceLaw(("a", "b", "c"), (Group((0, 1, 2), tuple(cards)),))
    w = Fraction(1, 3)
    mix = MixedLaw(((w, one), (1 - w, two)))
    for place in range(3):
        counted: dict[Card, Fraction] = {}
        for weight, valid in ((w, [p for p in permutations(range(3)) if p[0] == 0]),
                              (1 - w, list(permutations(range(3))))):
            for perm in valid:
                card = cards[perm.index(place)]
                counted[card] = counted.get(card, Fraction(0)) + weight / len(valid)
        assert mix.place_law(place) == counted
        assert mix.chance(place, lambda c: c.rank == 1) == counted[cards[0]]
    rng = np.random.default_rng(7)
    n = 3000
    firsts = sum(mix.draw(rng)[0] == 0 for _ in range(n))
    assert abs(firsts / n - 1 / 3) < 4 * (2 / 9 / n) ** 0.5
    assert [mix.sample(np.random.default_rng(s)) for s in range(20)] == \
        [mix.sample(np.random.default_rng(s)) for s in range(20)]
    with pytest.raises(CorruptRecordError):
        MixedLaw(((w, one), (w, two)))


def test_the_panel_says_why_a_question_is_not_applicable() -> None:
    from cardlab.viz.panels import bar_text

    q = prob.Quantity.not_applicable("draw_top_fits", "top of the draw pile fits", "the draw pile is empty")
    assert bar_text(q) == "not applicable: the draw pile is empty" and "exact" not in bar_text(q)
