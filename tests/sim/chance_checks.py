"""Checks of the games' chance laws that could catch a modelling error (used by the tests and by
``benchmarks/bench_chance_law.py``, which runs them bigger).

This module holds what the checks do for every game; what they need from one game (a :class:`GameChecks`)
lives with that game's tests: each game's test package registers its own, in
``tests/games/<game>/chance_checks.py`` (:func:`load_game_checks` imports them all), and the toy game of
:mod:`tests.toy_game` registers its own too. A registered game without them fails :func:`checks_for`.

1. **Independent counts.** Each exact function against a count made by the game's checks from the
   viewer's public view and the public events only (the unseen multiset counted by faces). The rule
   predicates (does a card fit) are the engine's; which cards are unseen, and how many, is counted in the
   tests, not read from the chance law (for Shithead through every hand's play, with a reference filter of
   its own: :mod:`tests.games.shithead.chance_checks`).
2. **Information-set twins.** A copy of a position changed only in what the viewer cannot see (hidden
   cards moved among places that the public record cannot tell apart, and the two packs' cards of some
   faces swapped everywhere): the view, the public events and the table's HTML must be identical
   (non-interference), and so must every exact answer, the resampled faces and the estimates for the
   same seed.
3. **Calibration against real deals.** Over bot-played games, each exact prediction is compared with
   what the hidden card really was (the real state), binned, with a z-test per bin.
"""

from __future__ import annotations

import pkgutil
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import import_module
from importlib.util import find_spec
from math import sqrt
from typing import Any, NamedTuple

import numpy as np

import cardlab
from cardlab.cards import Card, face_of, faces, full_deck
from cardlab.chance.hands_law import HandsLaw
from cardlab.engine.state import State
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.viz.table import table_html

POLICY_STREAM = 99  # the bots' generator: [seed, POLICY_STREAM], never the game's own seed


# ---------------------------------------------------------------------------------------------- the games' checks
Answers = dict[str, Fraction | None]
Outcome = tuple[str, Any, bool, Callable[[], Fraction | None]]
"""A question with a real answer in a position: (key, subject, what really was, the exact function to ask)."""


class Counts(NamedTuple):
    """A game's independent counts in one position for one viewpoint (None: not applicable or not counted)."""

    answers: Answers
    informative: bool = False
    """Some answer needed what play told about a hidden hand (Shithead's reference filter)."""
    plain_differs: bool = False
    """Some answer differs from the plain count that treats every unseen card alike."""


@dataclass(frozen=True)
class GameChecks:
    """What the generic chance checks need from one game, written in the tests apart from the package's law.

    ``count`` counts each exact answer from the viewer's public view and events alone; ``exact`` asks the
    package's exact functions (the same keys); ``twin`` makes a copy the viewer cannot tell apart (hidden
    cards moved among places the public record does not tell apart); ``outcomes`` lists the questions that
    have a real answer in a position; ``hidden`` names the physical cards whose identity a viewer (a seat, or
    None for the table) does not know, read from the rules (the leak checks of the hot-seat screens use it).
    ``positions`` are the bot games sampled for the counts and the twins:
    (players, options, seeds, every k-th position); ``calibration`` the uninformed players' games for the
    calibration: (players, options, seeds). ``min_informative`` asks the counts for at least that many
    comparisons with an informative hand and that many that differ from the plain count. ``power`` (a note
    taken on each calibration outcome and a verdict over the notes) lets a game add what its calibration must
    also show. ``choices`` are the two-seat greedy games from which tests of the mover's choices (twins of
    move values) take positions: (seeds, every k-th position, options)."""

    name: str
    count: Callable[[cardlab.Game[Any], int | None], Counts]
    exact: Callable[[cardlab.Game[Any], int | None], Answers]
    twin: Callable[[cardlab.Game[Any], int | None, np.random.Generator], cardlab.Game[Any]]
    outcomes: Callable[[cardlab.Game[Any], int | None], list[Outcome]]
    hidden: Callable[[cardlab.Game[Any], int | None], set[Card]]
    positions: list[tuple[int, dict[str, Any], range, int]]
    calibration: tuple[int, dict[str, Any], range]
    min_informative: tuple[int, int] = (0, 0)
    power: tuple[Callable[[cardlab.Game[Any], str, Fraction, bool], Any], Callable[[list[Any]], None]] | None = None
    choices: tuple[range, int, dict[str, Any]] = field(default_factory=lambda: (range(10), 1, {}))


_CHECKS: dict[str, GameChecks] = {}


def register_checks(checks: GameChecks) -> GameChecks:
    """Make ``checks`` the chance checks of the game they name (a game's test module calls this)."""
    _CHECKS[checks.name] = checks
    return checks


GAME_TESTS = "tests.games"
"""The package holding one test package per game (``tests/games/<game>/``)."""


def load_game_checks() -> list[str]:
    """Import the ``chance_checks`` module of every game's test package (each registers its game's checks
    when imported; importing twice does nothing); the modules' names."""
    package = import_module(GAME_TESTS)
    loaded = []
    for info in pkgutil.iter_modules(package.__path__):
        module = f"{GAME_TESTS}.{info.name}.chance_checks"
        if info.ispkg and find_spec(module) is not None:
            import_module(module)
            loaded.append(module)
    return loaded


def checks_for(name: str) -> GameChecks:
    """The chance checks of a registered game. A game registered without them fails here, loudly: a
    generic test never skips a game silently."""
    if name not in _CHECKS:
        load_game_checks()
    if name not in _CHECKS:
        raise AssertionError(f"the game {name!r} is registered, but no chance checks are: register a "
                             "tests.sim.chance_checks.GameChecks for it in its test package's chance_checks.py "
                             "(see tests/games/garbage/chance_checks.py, or tests/toy_game.py)")
    return _CHECKS[name]


def games() -> list[str]:
    """Every registered game (each must have its checks: :func:`checks_for`)."""
    return cardlab.game_names()


# ---------------------------------------------------------------------------------------------- positions
def bot_games(name: str, players: int, seed: int, policy: str = "greedy", **options: Any
              ) -> Iterator[cardlab.Game[Any]]:
    """Every position of one game between bots of ``policy`` ("greedy", "uninformed" or "random"), the
    game itself advanced in place (copy what you keep).

    The chance laws assume that choices carry no information about hidden cards. The ``uninformed``
    players make that true as far as the rules allow, so calibration against them tests the law itself;
    against greedy play it measures how far the assumption is from a real strategy. (Uniformly random
    legal moves are not uninformed: how many moves are legal depends on the hand.) The bots draw from a
    generator of their own: one seeded like the game's would repeat the deal's random numbers in the
    players' choices and tie those choices to the hidden cards."""
    g = cardlab.new_game(name, players=players, seed=seed, **options)
    bot = make_policy(policy, name, np.random.default_rng([seed, POLICY_STREAM]))
    for _ in range(3000):
        yield g
        if g.is_over:
            return
        g.play(choose(bot, g))


def sample_positions(name: str, players: int, seeds: range, every: int, **options: Any) -> list[cardlab.Game[Any]]:
    out = []
    for seed in seeds:
        for i, g in enumerate(bot_games(name, players, seed, **options)):
            if i % every == every - 1 and not g.is_over:
                out.append(g.copy())
    return out


def viewpoints(g: cardlab.Game[Any]) -> tuple[int | None, ...]:
    return (None, *range(g.players))


# ---------------------------------------------------------------------------------------------- 1. counts
def all_faces(packs: int) -> Counter[Card]:
    return Counter(faces(full_deck(packs)))


def exact_answers(g: cardlab.Game[Any], viewpoint: int | None) -> dict[str, Fraction | None]:
    """Every exact function of the game for ``viewpoint`` (None where not applicable)."""
    return checks_for(g.name).exact(g, viewpoint)


class Counted(NamedTuple):
    """What :func:`count_mismatches` compared in one position and viewpoint."""

    compared: int
    """Answers compared with the independent count."""
    mismatched: int
    """Of them, answers that differ."""
    informative: bool
    """(Shithead) some compared answer needed the joint while a hidden hand's reference weights were not
    those of free cards: the hand had been read through its play."""
    plain_differs: bool
    """(Shithead) some compared answer differs from the plain count that treats every unseen card alike
    (a law that ignored play would fail here)."""


def count_mismatches(g: cardlab.Game[Any], viewpoint: int | None) -> Counted:
    """The exact functions against the independent counts, in one position for one viewpoint."""
    exact = exact_answers(g, viewpoint)
    counted, informative, differs = checks_for(g.name).count(g, viewpoint)
    compared = mismatched = 0
    for key, value in counted.items():
        if value is None:
            continue
        compared += 1
        mismatched += exact[key] != value
    return Counted(compared, mismatched, informative, differs)


# ---------------------------------------------------------------------------------------------- 2. twins
def _rename_packs(g: cardlab.Game[Any], rng: np.random.Generator) -> None:
    """Swap the first two packs' cards of some faces everywhere in the state (S&M labels follow them)."""
    if g.packs < 2:
        return
    swap = {c: Card(c.rank, c.suit, 1) for c in full_deck(1) if rng.random() < 0.5}
    mapping = {**swap, **{b: a for a, b in swap.items()}}

    def rename(value: Any) -> Any:
        if isinstance(value, Card):
            return mapping.get(value, value)
        if isinstance(value, list):
            return [rename(x) for x in value]
        return value

    s = g._state
    for name in list(vars(s)):
        setattr(s, name, rename(getattr(s, name)))
    labels = getattr(s, "labels", None)
    if labels is not None:
        for a, b in swap.items():
            labels[a.id], labels[b.id] = labels[b.id], labels[a.id]


def shuffle_within(cards: list[Card], rng: np.random.Generator) -> list[Card]:
    return [cards[i] for i in rng.permutation(len(cards))]


def twin(g: cardlab.Game[Any], viewpoint: int | None, rng: np.random.Generator) -> cardlab.Game[Any]:
    """A copy that ``viewpoint`` cannot tell from ``g``: hidden cards moved among places the public record
    does not tell apart (the game's own :attr:`GameChecks.twin`), and some faces' two packs swapped."""
    t = checks_for(g.name).twin(g, viewpoint, rng)
    _rename_packs(t, rng)
    t._check_conservation("twin")
    return t


def state_faces(st: State) -> dict[str, Any]:
    """A state with every card shown by its face (the pack forgotten)."""
    return {k: faces(v) if isinstance(v, list) else v for k, v in vars(st).items() if k != "labels"}


def twin_differences(g: cardlab.Game[Any], viewpoint: int | None, seed: int, estimates: bool,
                     html: bool = True) -> list[str]:
    """What differs between ``g`` and a twin for ``viewpoint``: views, exact answers, resampled faces, and
    (with ``estimates``) win estimates for the same seed. An empty list is a pass."""
    return pair_differences(g, twin(g, viewpoint, np.random.default_rng(seed)), viewpoint, seed, estimates, html)


def pair_differences(g: cardlab.Game[Any], t: cardlab.Game[Any], viewpoint: int | None, seed: int,
                     estimates: bool, html: bool = True) -> list[str]:
    """What differs, for ``viewpoint``, between two games it should not tell apart (see
    :func:`twin_differences`). An empty list is a pass."""
    bad = []
    if g.observe(viewpoint) != t.observe(viewpoint):
        bad.append("view")
    if [(e.kind, e.describe(viewpoint), dict(e.data)) for e in g.events] != \
            [(e.kind, e.describe(viewpoint), dict(e.data)) for e in t.events]:
        bad.append("events")
    if html and table_html(g, viewpoint) != table_html(t, viewpoint):
        bad.append("html")
    if exact_answers(g, viewpoint) != exact_answers(t, viewpoint):
        bad.append("exact")
    def law(game: cardlab.Game[Any]) -> Any:
        """The viewer's chance law with cards shown by face: for Shithead's :class:`HandsLaw`, the place
        names, the pool, its classes, the hidden hands, their beliefs and the tags' weights; otherwise each component's
        weight and groups."""
        chance = game.chance_law(viewpoint)
        if isinstance(chance, HandsLaw):
            return (chance.names, [face_of(c) for c in chance.cards], chance.classes, chance.n_classes,
                    chance.hands, chance.beliefs, chance.components)
        return [(w, [(grp.places, [face_of(c) for c in grp.cards]) for grp in comp.groups])
                for w, comp in chance.components]

    if law(g) != law(t):
        bad.append("law")
    a = g.resample(viewpoint, np.random.default_rng(seed))
    b = t.resample(viewpoint, np.random.default_rng(seed))
    if state_faces(a.state) != state_faces(b.state):
        bad.append("resample")
    if estimates:
        wa = prob.win_probability(g, viewpoint, rollouts=8, rng=np.random.default_rng(seed))
        wb = prob.win_probability(t, viewpoint, rollouts=8, rng=np.random.default_rng(seed))
        if wa != wb:
            bad.append("estimate")
    return bad


# ---------------------------------------------------------------------------------------------- 3. calibration
def real_outcomes(g: cardlab.Game[Any], viewpoint: int | None,
                  seen: set[tuple[Any, ...]] | None = None) -> list[tuple[str, Fraction, bool]]:
    """Exact predictions paired with what the hidden card really was, in this position.

    With ``seen`` (one set per game), each hidden card (or each turn, for the pick-up) is predicted only
    the first time it is asked about: predictions about one card at several moments are not independent,
    and the bins' z-tests count independent trials. (An exact function is asked only for a subject not
    seen yet: which predictions are kept does not depend on their values.) Predictions are made only
    where the exact functions answer (for Shithead, while at most two hands hold unseen cards); a subject
    counts as seen once it has been predicted.
    """
    out = []
    for key, subject, real, exact in _real_outcomes(g, viewpoint):
        if seen is not None and (key, viewpoint, subject) in seen:
            continue
        p = exact()
        if p is not None:
            out.append((key, p, real))
            if seen is not None:
                seen.add((key, viewpoint, subject))
    return out


def attempt(f: Callable[[], Fraction]) -> Fraction | None:
    try:
        return f()
    except cardlab.CardlabError:
        return None


def _real_outcomes(g: cardlab.Game[Any], viewpoint: int | None) -> list[Outcome]:
    """The questions that have a real answer in this position (the game's :attr:`GameChecks.outcomes`)."""
    return [] if g.is_over else checks_for(g.name).outcomes(g, viewpoint)


BIN_EDGES = (0.0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 1.0001)


def binned_z(pairs: list[tuple[float, bool]],
             edges: tuple[float, ...] = BIN_EDGES) -> list[tuple[str, int, float, float, float]]:
    """Per bin of predicted chance: (bin, n, mean prediction, observed share, z). z compares the number of
    hits with the sum of the predictions, over the square root of the sum of p(1-p).

    The normal approximation needs some expected hits and misses in a bin, so a bin with fewer than 5
    expected of either is merged with its neighbour toward the middle (a bin of certain predictions,
    all 0 or all 1, is checked exactly instead: every one of them must come true).
    """
    groups: list[list[tuple[float, bool]]] = []
    for lo, hi in zip(edges, edges[1:], strict=False):
        inside = [(p, y) for p, y in pairs if lo <= p < hi]
        certain = [(p, y) for p, y in inside if p in (0.0, 1.0)]
        for p, y in certain:
            assert y == (p == 1.0), f"a certain prediction ({p}) failed"
        inside = [(p, y) for p, y in inside if p not in (0.0, 1.0)]
        if inside:
            groups.append(inside)

    def small(group: list[tuple[float, bool]]) -> bool:
        return sum(p for p, _ in group) < 5 or sum(1 - p for p, _ in group) < 5

    merged = True
    while merged and len(groups) > 1:
        merged = False
        for i, group in enumerate(groups):
            if small(group):
                j = i + 1 if i < len(groups) / 2 else i - 1
                j = min(max(j, 0), len(groups) - 1)
                if j == i:
                    continue
                groups[min(i, j)] = groups[min(i, j)] + groups[max(i, j)]
                del groups[max(i, j)]
                merged = True
                break
    rows = []
    for inside in groups:
        lo = min(p for p, _ in inside)
        hi = max(p for p, _ in inside)
        expected = sum(p for p, _ in inside)
        var = sum(p * (1 - p) for p, _ in inside)
        hits = sum(y for _, y in inside)
        rows.append((f"[{lo:.3f}, {hi:.3f}]", len(inside), expected / len(inside), hits / len(inside),
                     (hits - expected) / sqrt(var)))
    return rows
