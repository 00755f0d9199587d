"""Probabilities for the panels and notebooks: exact counts and resampled Monte Carlo.

Viewpoint
---------
Every function takes a ``viewpoint``: ``None`` is the table's public view, a seat number is what that
player knows (their own hand, for instance). Hidden cards are redealt with
``game.resample(viewpoint, rng)``, so the same position can honestly give different probabilities to
different people — both right, given what each one knows.

Exact answers: one chance law per game
--------------------------------------
Each game states its **chance law** (``game.chance_law(viewpoint)``, see :mod:`cardlab.chance.law`):
from what the viewer knows (the public view and events, and its own hand), the law of the hidden cards
over the hidden places, respecting what is known about groups of cards (after a Garbage reshuffle the
stock is a known multiset; Spite and Malice cards seen in a completed pile lie only in the stock layer
where that pile went, and tied payoff tops only in their payoff pile). An exact answer is a predicate
evaluated over that law, returned as a :class:`fractions.Fraction`; the resampler (``game.resample``,
and the fast play-outs' deals) samples the same law. So every estimate is a function of what the
viewer knows and the seed, never of where the hidden cards really are.

The law is uniform over the arrangements that fit what was seen: **an assumption**, that the other
players' choices carry no information about their hidden cards. ``benchmarks/bench_chance_law.py``
compares the exact predictions with the cards that were really there in real games (binned z-tests; see
``docs/performance.md``), played by two kinds of players. The ``uninformed`` players
(``make_policy("uninformed", ...)``) choose as little with their hidden cards in mind as the rules
allow, so against them the law itself is tested; the ``greedy`` bots measure how far the assumption is
from a real strategy. Runs of 2026-11-30 and 2026-12-01:

* Garbage: no choice depends on a hidden card (the greedy bot is also the uninformed player); over 1,200
  games every bin within |z| < 2.6. Spite and Malice, uninformed players, 1,000 default rounds (124,000
  predictions): every bin within |z| < 1.7. On 6,000 deals opening with an Ace-Ace tie the law predicted
  0.1373 for "the first stock card is an Ace or a King" and 0.1357 came true (the old count, which forgot
  the tie, said 0.1534: z = -3.8).
* Spite and Malice, greedy bots, 300 default rounds: **the assumption fails**. The next stock card fits
  more often than predicted (0.296 against 0.275 in the busiest bin, z = +5.1): a greedy hand plays every
  card that fits before it discards, so what it keeps does not fit, and the stock is left richer in cards
  that do. In short rounds (payoff piles of 8) the gap is too small to see (|z| < 1).
* Shithead: **how a hand plays is information, not only what it shows**. A player who can play must play
  a card that fits, and a player who cannot must pick up; so even a player who picks at random among the
  cards that fit keeps, on average, the cards that did not. The law reads every hand through its play,
  under a stated model of the players (from the hand, a uniformly random card among those that fit: the
  ``uninformed`` player), by Bayes' rule over the counts of its unseen cards per rank class (see
  :mod:`cardlab.games.shithead.beliefs` and :class:`~cardlab.chance.hands_law.HandsLaw`); it is exact
  while at most two hands that play has told something about hold unseen cards, and checked exactly
  against a brute force over hidden deals whose worlds are weighted by the model. Against uninformed
  players every bin is calibrated, "the player to move picks up" included (300 games: largest |z| 1.66 over
  every bin; over the 7,413 uncertain pick-ups from the hand at once, 0.4439 predicted and 0.4425 real,
  z = -0.30, where the plain count that treats every unseen card alike predicts 0.3449, z = +20.2); the law that
  read a play as a uniformly random card of the hand, ignoring that it had to fit, missed that question
  by z = +5.9. Against greedy bots **the assumption fails**: the bot plays its lowest fitting rank and
  saves its 2s and 10s, so its hand holds more cards that fit than a random player's; it picks up less
  often than the law predicts (0.131 real against 0.207 predicted over 5,826 uncertain pick-ups, z = -16.8;
  worst bin z = -8.7), and the draw pile's top fits less often than predicted (worst bin z = -4.3).
  Win estimates inherit it: asked a third into greedy games they are too extreme (800 games, |z| up to
  3.3); asked after 30 moves of uninformed players, with greedy play after (as in the play-outs), every
  bin is within |z| < 0.9.
In Spite and Malice, when a hidden hand plays a face whose two cards (one per pack) carry different
public labels, nobody can tell which label lost a card: the law is then an honest **mixture** of laws
(a :class:`~cardlab.chance.law.MixedLaw`: one component per possibility, weighted by Bayes' rule; see
:mod:`cardlab.games.spite_malice.rules`), checked exactly against a brute force over hidden deals and
copy choices, and the same for two games that differ only in which copy was played. Written out, the
assumption above reads, for that game: a hidden hand's play is a uniformly random card of that hand,
whose face is then seen. The mixture is exact up to a cap on its size (256 components; 16 with
``completed_to="shuffle"``), past which it keeps the heaviest components and is no longer exact.

A question that has no meaning in the position (the pile it asks about is empty) is *not applicable*:
the panel says why instead of showing an exact 0, and the function raises
:class:`~cardlab.errors.InvalidInputError` with the reason.

Monte Carlo
-----------
Estimates resample the hidden cards and play the game on with the greedy bots. They are *anytime*:
give ``rollouts=`` or a time budget ``budget_s=``; each carries a Wilson 95% interval and its count.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from cardlab.cards import Card
from cardlab.chance.estimates import (  # the building blocks the questions use, public here too
    DEFAULT_ROLLOUTS,
    SHOWN_DENOMINATOR,
    Quantity,
    anytime,
    anytime_counts,
    certain,
    expect_game,
    fast_share,
    fraction_of,
    require_rng,
)
from cardlab.chance.stats import Estimate, wilson
from cardlab.engine.game import Game
from cardlab.engine.policy import builtin_policy, choose
from cardlab.engine.registry import game_specs, registered_spec
from cardlab.errors import InvalidInputError, shown


def one_hot(winners: np.ndarray, players: int) -> np.ndarray:
    """Row i marks the seat that won play-out i (no mark for a play-out with no winner)."""
    marks: np.ndarray = np.asarray(winners)[:, None] == np.arange(players)[None, :]
    return marks


def play_on(game: Game[Any], rng: np.random.Generator, stop: Callable[[Game[Any]], bool] | None = None,
            max_moves: int = 20_000) -> Game[Any]:
    """Play ``game`` on in place with greedy bots until it ends (or ``stop(game)`` is true)."""
    expect_game(game, None)
    if stop is not None and not callable(stop):
        raise InvalidInputError(f"stop={shown(stop)} is not allowed; give a function of the game that says when to "
                                "stop (or None to play to the end)")
    policy = builtin_policy("greedy", game.name, rng)
    for _ in range(max_moves):
        if game.is_over or (stop is not None and stop(game)):
            return game
        game.play(choose(policy, game))
    return game


def win_probability(game: Game[Any], viewpoint: int | None = None, *, rollouts: int | None = None,
                    budget_s: float | None = None, rng: np.random.Generator | None = None) -> list[Estimate]:
    """Each seat's chance of winning from here, as seen from ``viewpoint``, with greedy play on all seats.

    A finished game gives 0/1 exactly. The play-outs run on the game's kernel
    (:attr:`~cardlab.engine.spec.GameSpec.kernel`) when it has one, else on the engine.
    """
    expect_game(game, None)
    gen = require_rng(rng)
    game.check_seat(viewpoint, "win_probability")
    players = game.players
    if game.is_over:
        return [certain(game.winner == s) for s in range(players)]
    spec = registered_spec(game)
    kernel = spec.kernel if spec is not None else None
    if spec is not None and kernel is not None:
        batch = spec.budgets.batch
        counts, n = anytime_counts(lambda size: one_hot(kernel.win_rollouts(game, viewpoint, size, gen), players),
                                   players, rollouts, budget_s, batch=batch)
        return [wilson(float(c), n) for c in counts]

    def trial() -> list[float]:
        g = play_on(game.resample(viewpoint, gen), gen)
        return [1.0 if g.winner == s else 0.0 for s in range(players)]

    totals, n = anytime(trial, players, rollouts, budget_s)
    return [wilson(float(t), n) for t in totals]


def engine_win_rollouts(game: Game[Any], viewpoint: int | None, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` resampled greedy play-outs on the engine: the winner of each (-1 for none).

    The engine path of :func:`win_probability` (a kernel adapter falls back to it for options its fast
    module does not handle)."""
    winners = np.full(n, -1, dtype=np.int64)
    for i in range(n):
        g = play_on(game.resample(viewpoint, rng), rng)
        if g.winner is not None:
            winners[i] = g.winner
    return winners


def unseen_cards(game: Game[Any], viewpoint: int | None = None) -> list[Card]:
    """The cards ``viewpoint`` cannot locate, as physical cards (faces are what counts)."""
    expect_game(game, None)
    return game.unseen_cards(viewpoint)


# ---------------------------------------------------------------------------------------------- panels
def panel_quantities(game: Game[Any], viewpoint: int | None = None, *, rng: np.random.Generator | None = None,
                     rollouts: int | None = None, budget_s: float | None = None) -> list[Quantity]:
    """Every per-game number a panel shows for this position (win chances are separate): the questions
    the game's spec registers (:attr:`~cardlab.engine.spec.GameSpec.questions`)."""
    expect_game(game, None)
    gen = require_rng(rng)
    game.check_seat(viewpoint, "panel_quantities")
    spec = registered_spec(game)
    if spec is None:
        return []
    questions: list[Quantity] = spec.questions(game, viewpoint, rng=gen, rollouts=rollouts, budget_s=budget_s)
    return questions


if TYPE_CHECKING:
    def __getattr__(name: str) -> Any:
        """For the type checker only: the games' questions below are added from the registry at import."""


def _gather_questions() -> list[str]:
    """The games' own questions (``prob.garbage_next_card_placeable``, ...), re-exported here by name: every
    function the ``questions`` module of a game registered when this module is imported (the built-in games) lists
    in its ``QUESTIONS``. A game registered later is asked through its own module."""
    names = []
    for spec in game_specs():
        module = sys.modules[spec.questions.__module__]
        for name in getattr(module, "QUESTIONS", ()):
            globals()[name] = getattr(module, name)
            names.append(name)
    return names


__all__ = ["DEFAULT_ROLLOUTS", "SHOWN_DENOMINATOR", "Estimate", "Quantity", "anytime", "anytime_counts", "certain",
           "engine_win_rollouts", "expect_game", "fast_share", "fraction_of", "one_hot", "panel_quantities", "play_on",
           "require_rng", "unseen_cards", "win_probability", "wilson", *_gather_questions()]
