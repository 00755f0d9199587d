"""Probabilities for the panels and notebooks: exact counts and resampled Monte Carlo.

Viewpoint
---------
Every function takes a ``viewpoint``: ``None`` is the table's public view, a seat number is what that
player knows (their own hand, for instance). Hidden cards are redealt with
``game.resample(viewpoint, rng)``, so the same position can honestly give different probabilities to
different people — both right, given what each one knows.

Exact answers: one chance law per game
--------------------------------------
Each game states its **chance law** (``game.chance_law(viewpoint)``, see :mod:`cardlab.sim.chance`):
from what the viewer knows (the public view and events, and its own hand), the law of the hidden cards
over the hidden places, respecting what is known about groups of cards (after a Garbage reshuffle the
stock is a known multiset; Spite and Malice cards seen in a completed pile lie only in the stock layer
where that pile went, and tied payoff tops only in their payoff pile). An exact answer is a predicate
evaluated over that law, returned as a :class:`fractions.Fraction`; the resampler (``game.resample``,
and the fast play-outs' deals) samples the same law. So every estimate is a function of what the
viewer knows and the seed, never of where the hidden cards really are.

The law is uniform over the arrangements that fit what was seen: **an assumption**, that the other
players' choices carry no information about their hidden cards. ``benchmarks/bench_chance_law.py``
compares the exact predictions with the cards that were really there over many greedy-bot games
(binned z-tests; see ``docs/performance.md``). Its run of 2026-11-30 (200 to 600 greedy-bot games per
game, tens of thousands of predictions):

* Garbage and Spite and Malice: every bin within |z| < 2 (largest 1.81 and 1.00). On 6,000 deals opening
  with an Ace-Ace tie the law predicted 0.1373 for "the first stock card is an Ace or a King" and 0.1357
  came true (the old count, which forgot the tie, said 0.1534: z = -3.8). Here the assumption holds
  within what the tests can see.
* Shithead, cards nobody chose (the draw pile's top, a face-down card): |z| <= 2.9. But **"the player to
  move picks up", seen by the table, fails the test**: predicted 0.029 where 0.042 came true in the
  lowest bin (z = 6.6), 0.147 vs 0.184 in the next (z = 5.0). A greedy player keeps the cards it could
  not play, so the unseen part of its hand is *not* a uniform draw from the unseen cards: its choices
  carry information, exactly what the assumption ignores. That answer is exact for the uniform model,
  and too low for real (greedy) play by about a third; teach it as a model, not as the truth.
Spite and Malice keeps one known approximation: when a hidden hand plays a face whose two cards carry
different public labels and the hand could hold either, the law goes on with the label of the card
really played instead of the honest mixture of both. That is rare early in a round and common late:
about 6 such plays per default round as the table sees it (42 per round with ``completed_to="shuffle"``),
so late-round Spite and Malice answers are not yet exact in that sense.

A question that has no meaning in the position (the pile it asks about is empty) is *not applicable*:
the panel says why instead of showing an exact 0, and the function raises
:class:`~cardlab.errors.InvalidInputError` with the reason.

Monte Carlo
-----------
Estimates resample the hidden cards and play the game on with the greedy bots. They are *anytime*:
give ``rollouts=`` or a time budget ``budget_s=``; each carries a Wilson 95% interval and its count.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np

from cardlab.cards import Card
from cardlab.engine.game import Game
from cardlab.errors import InvalidInputError, shown
from cardlab.policies import choose, make_policy
from cardlab.sim.stats import Estimate, wilson

DEFAULT_ROLLOUTS = 200


@dataclass(frozen=True)
class Quantity:
    """One number for a panel: exact (``exact`` is a Fraction), an estimate with its interval, or not applicable.

    A question that has no meaning in this position (the draw pile it asks about is empty, say) is
    *not applicable*: ``reason`` says why, ``value``, ``low`` and ``high`` are NaN, and a panel shows the
    reason instead of a number. Never report such a question as an exact 0.
    """

    key: str
    label: str
    value: float
    low: float
    high: float
    n: int | None = None
    exact: Fraction | None = None
    seat: int | None = None
    reason: str | None = None

    @property
    def is_exact(self) -> bool:
        return self.exact is not None

    @property
    def is_applicable(self) -> bool:
        return self.reason is None

    @classmethod
    def not_applicable(cls, key: str, label: str, reason: str, seat: int | None = None) -> Quantity:
        nan = float("nan")
        return cls(key, label, nan, nan, nan, None, None, seat, reason)

    @classmethod
    def from_exact(cls, key: str, label: str, value: Fraction, seat: int | None = None) -> Quantity:
        v = float(value)
        return cls(key, label, v, v, v, None, value, seat)

    @classmethod
    def from_estimate(cls, key: str, label: str, est: Estimate, seat: int | None = None) -> Quantity:
        return cls(key, label, est.value, est.low, est.high, est.n, None, seat)

    def __str__(self) -> str:
        if self.reason is not None:
            return f"{self.label}: not applicable ({self.reason})"
        if self.exact is not None:
            return f"{self.label}: {self.exact} = {self.value:.4f} (exact)"
        return f"{self.label}: {self.value:.3f} [{self.low:.3f}, {self.high:.3f}] ({self.n} rollouts)"


def _rng(rng: np.random.Generator | None) -> np.random.Generator:
    if rng is None:
        raise InvalidInputError("pass rng=numpy.random.default_rng(seed): estimates are seeded, never global")
    if not isinstance(rng, np.random.Generator):
        raise InvalidInputError(f"rng={rng!r} is not a numpy.random.Generator")
    return rng


def _rollout_count(rollouts: int | None, budget_s: float | None) -> tuple[int, float | None]:
    if rollouts is not None and (isinstance(rollouts, bool) or not isinstance(rollouts, (int, np.integer))
                                 or not 1 <= rollouts <= 10**9):
        raise InvalidInputError(f"rollouts={shown(rollouts)} is not allowed; give a whole number from 1 to 10**9")
    if budget_s is not None and (isinstance(budget_s, bool) or not isinstance(budget_s, (int, float, np.number))
                                 or not 0 < budget_s <= 3600):
        raise InvalidInputError(f"budget_s={shown(budget_s)} is not allowed; give a number of seconds above 0, "
                                "at most 3600")
    rollouts = None if rollouts is None else int(rollouts)
    budget_s = None if budget_s is None else float(budget_s)
    if rollouts is None and budget_s is None:
        return DEFAULT_ROLLOUTS, None
    return (rollouts if rollouts is not None else 10**9), budget_s


def anytime_counts(run_batch: Callable[[int], np.ndarray], width: int, rollouts: int | None,
                   budget_s: float | None, batch: int = 16) -> tuple[np.ndarray, int]:
    """Run batches of play-outs until ``rollouts`` are done or ``budget_s`` seconds have passed.

    ``run_batch(size)`` returns a ``(size, width)`` array of 0/1 outcomes. Returns the success counts
    per column and the number of play-outs. At least one batch always runs; with a fixed ``rollouts``
    and no budget the whole count runs as one batch, so results do not depend on the batch size.
    """
    limit, budget = _rollout_count(rollouts, budget_s)
    counts = np.zeros(width)
    n = 0
    start = time.perf_counter()
    step = limit if budget is None else batch
    while n < limit:
        size = min(step, limit - n)
        counts += np.asarray(run_batch(size), dtype=float).reshape(size, width).sum(axis=0)
        n += size
        if budget is not None and time.perf_counter() - start >= budget:
            break
    return counts, n


def anytime(trial: Callable[[], Sequence[float]], width: int, rollouts: int | None, budget_s: float | None,
            batch: int = 16) -> tuple[np.ndarray, int]:
    """:func:`anytime_counts` for an engine ``trial`` that returns ``width`` 0/1 outcomes per play-out."""
    return anytime_counts(lambda size: np.array([trial() for _ in range(size)], dtype=float), width,
                          rollouts, budget_s, batch)


def _one_hot(winners: np.ndarray, players: int) -> np.ndarray:
    """Row i marks the seat that won play-out i (no mark for a play-out with no winner)."""
    marks: np.ndarray = np.asarray(winners)[:, None] == np.arange(players)[None, :]
    return marks


def play_on(game: Game[Any], rng: np.random.Generator, stop: Callable[[Game[Any]], bool] | None = None,
            max_moves: int = 20_000) -> Game[Any]:
    """Play ``game`` on in place with greedy bots until it ends (or ``stop(game)`` is true)."""
    _expect(game, None)
    policy = make_policy("greedy", game.name, rng)
    for _ in range(max_moves):
        if game.is_over or (stop is not None and stop(game)):
            return game
        game.play(choose(policy, game))
    return game


def win_probability(game: Game[Any], viewpoint: int | None = None, *, rollouts: int | None = None,
                    budget_s: float | None = None, rng: np.random.Generator | None = None) -> list[Estimate]:
    """Each seat's chance of winning from here, as seen from ``viewpoint``, with greedy play on all seats.

    A finished game gives 0/1 exactly. Garbage uses the vectorised fast path when it is available.
    """
    _expect(game, None)
    gen = _rng(rng)
    game._check_seat(viewpoint, "win_probability")
    players = game.players
    if game.is_over:
        return [_certain(game.winner == s) for s in range(players)]
    fast = _fast_garbage_wins(game, viewpoint, rollouts, budget_s, gen)
    if fast is None:
        fast = _fast_module_wins(game, viewpoint, rollouts, budget_s, gen)
    if fast is not None:
        return fast

    def trial() -> list[float]:
        g = play_on(game.resample(viewpoint, gen), gen)
        return [1.0 if g.winner == s else 0.0 for s in range(players)]

    totals, n = anytime(trial, players, rollouts, budget_s)
    return [wilson(float(t), n) for t in totals]


def _certain(happened: bool) -> Estimate:
    """A settled outcome: probability 0 or 1 with no uncertainty left."""
    v = 1.0 if happened else 0.0
    return Estimate(v, v, v, 0)


FAST_MODULES = {"spite-and-malice": "cardlab.sim.fast_spite_malice", "shithead": "cardlab.sim.fast_shithead"}


def fast_module(game: Game[Any]) -> Any | None:
    """The game's fast greedy play-out module, if it has one that handles this game's options."""
    _expect(game, None)
    name = FAST_MODULES.get(game.name)
    if name is None:
        return None
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    return module if module.supports(game) else None


def _fast_module_wins(game: Game[Any], viewpoint: int | None, rollouts: int | None, budget_s: float | None,
                      rng: np.random.Generator) -> list[Estimate] | None:
    """Spite and Malice and Shithead: the same resampled greedy play-outs, on a lean integer simulator
    proven card-for-card equal to the engine (see its tests)."""
    module = fast_module(game)
    if module is None:
        return None
    counts, n = anytime_counts(lambda size: _one_hot(module.rollouts_from(game, viewpoint, size, rng), game.players),
                               game.players, rollouts, budget_s, batch=32)
    return [wilson(float(c), n) for c in counts]


def _fast_share(run: Callable[[int], Any], rollouts: int | None, budget_s: float | None) -> Estimate:
    """An anytime proportion from a fast module's batches of 0/1 outcomes."""
    counts, n = anytime_counts(run, 1, rollouts, budget_s, batch=32)
    return wilson(float(counts[0]), n)


def _fast_garbage_wins(game: Game[Any], viewpoint: int | None, rollouts: int | None, budget_s: float | None,
                       rng: np.random.Generator) -> list[Estimate] | None:
    """Garbage hands: batches of vectorised play-outs (see :func:`garbage_rollouts`), anytime as well."""
    if game.name != "garbage" or game.options.get("match"):
        return None
    counts, n = anytime_counts(
        lambda size: _one_hot(garbage_rollouts(game, viewpoint, size, rng)[0], game.players),
        game.players, rollouts, budget_s, batch=500)
    return [wilson(float(c), n) for c in counts]


def unseen_cards(game: Game[Any], viewpoint: int | None = None) -> list[Card]:
    """The cards ``viewpoint`` cannot locate, as physical cards (faces are what counts)."""
    _expect(game, None)
    fn = getattr(game, "unseen_cards", None)
    if fn is not None:
        cards: list[Card] = fn(viewpoint)
        return cards
    raise InvalidInputError(f"{game.name} does not say which cards are unseen")


def fraction_of(cards: Sequence[Card], predicate: Callable[[Card], bool]) -> Fraction:
    """The share of ``cards`` for which ``predicate`` holds, exactly (0 when there are none)."""
    if not cards:
        return Fraction(0)
    return Fraction(sum(1 for c in cards if predicate(c)), len(cards))


# ---------------------------------------------------------------------------------------------- Garbage
def garbage_next_drawer(game: Game[Any]) -> int | None:
    """The seat that will draw the next stock card: the player to move while its turn has not started
    (phase "draw"), else the player after it (in the middle of a chain the current turn ends with a
    discard first). ``None`` when the game is over or this turn is the last of the hand."""
    _expect(game, "garbage")
    s = game.state
    if game.is_over:
        return None
    if s.phase == "draw":
        return int(s.to_move)
    if s.last_turns:
        rest = s.last_turns[1:]
        return int(rest[0]) if rest else None
    return (int(s.to_move) + 1) % game.players


def garbage_next_card_reason(game: Game[Any]) -> str | None:
    """Why "the next stock card can be used" has no meaning here, or None when it has one."""
    _expect(game, "garbage")
    if game.is_over:
        return "the game is over"
    if garbage_next_drawer(game) is None:
        return "this is the hand's last turn: nobody draws again"
    s = game.state
    if not s.stock and not s.discard:
        return "the stock and the discard pile are empty: the hand is drawn when this turn ends"
    return None


def garbage_next_card_placeable(game: Game[Any], viewpoint: int | None = None) -> Fraction:
    """Exact chance that the next stock card can be used by the seat that draws it
    (:func:`garbage_next_drawer`), if the hand goes on until then.

    At the start of a turn that is the player to move; in the middle of a chain (a wild to place, a
    wild to displace) it is the next player, whose layout cannot change before then. The card is read
    from the game's chance law: before any reshuffle it is equally likely to be any card nobody has seen
    (face-down layout cards and the stock); after a reshuffle the stock is a known multiset of seen cards
    in random order. With an empty stock in the middle of a chain, the next card comes from the discard
    pile reshuffled when the turn passes: every card of the discard pile as it is now (the card that ends
    this turn stays on top), each equally likely. "Used" means placed on its face-down spot, displacing
    a face-up wild on its spot, or a wild with a face-down spot left. Raises
    :class:`~cardlab.errors.InvalidInputError` when the question has no meaning
    (:func:`garbage_next_card_reason`).
    """
    _expect(game, "garbage")
    game._check_seat(viewpoint, "garbage_next_card_placeable")
    reason = garbage_next_card_reason(game)
    if reason is not None:
        raise InvalidInputError(f"garbage_next_card_placeable is not applicable: {reason}")
    seat = garbage_next_drawer(game)
    usable = game.can_use  # type: ignore[attr-defined]
    state = game.state
    if not state.stock:
        return fraction_of(state.discard, lambda c: bool(usable(seat, c)))
    law = game.chance_law(viewpoint)  # type: ignore[attr-defined]
    return law.chance(len(law.names) - 1, lambda c: bool(usable(seat, c)))  # type: ignore[no-any-return]


def garbage_rollouts(game: Game[Any], viewpoint: int | None, n: int, rng: np.random.Generator,
                     horizon: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``n`` resampled greedy play-outs of a Garbage hand.

    Returns ``winners`` (shape ``(n,)``, -1 for none) and ``done`` (shape ``(n, players)``): for each
    play-out and seat, how many of that seat's own turns (counting the current one) it took to complete
    its layout, or 0 if it never completed. With ``horizon`` the engine stops early once every seat
    has had that many turns (winners are then -1 where the hand had not ended).
    """
    _expect(game, "garbage")
    fast = _fast_rollouts(game, viewpoint, n, rng)
    if fast is not None:
        return fast
    players = game.players
    winners = np.full(n, -1, dtype=np.int64)
    done = np.zeros((n, players), dtype=np.int64)
    policy = make_policy("greedy", "garbage", rng)
    for i in range(n):
        g = game.resample(viewpoint, rng)
        own_turns = [0] * players
        hand = g.state.hand
        while not g.is_over and g.state.hand == hand:
            mover = g.current_player
            before = g.turns
            g.play(choose(policy, g))
            if g.turns > before:
                own_turns[mover] += 1
                if mover in g.state.completed and done[i, mover] == 0:
                    done[i, mover] = own_turns[mover]
            if horizon is not None and min(own_turns) >= horizon:
                break
        if g.state.hand != hand or g.is_over:
            winners[i] = g.state.hand_winners[hand - 1][0] if len(g.state.hand_winners) >= hand else -1
    return winners, done


def _fast_rollouts(game: Game[Any], viewpoint: int | None, n: int,
                   rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray] | None:
    try:
        from cardlab.sim import fast_garbage
    except ImportError:
        return None
    fn = getattr(fast_garbage, "rollouts_from", None)
    if fn is None or not fast_garbage_supports(game):
        return None
    winners, done = fn(game, viewpoint, n, rng)
    return np.asarray(winners), np.asarray(done)


def fast_garbage_supports(game: Game[Any]) -> bool:
    from cardlab.sim import fast_garbage

    check = getattr(fast_garbage, "supports", None)
    return bool(check(game)) if check is not None else True


def completion_curves(game: Game[Any], ks: Sequence[int] = (1, 2, 3, 4, 5), viewpoint: int | None = None, *,
                      rollouts: int | None = None, budget_s: float | None = None,
                      rng: np.random.Generator | None = None) -> list[list[Estimate]]:
    """For every seat and each k in ``ks``: the chance that the seat completes its Garbage layout within
    its next k turns, in play-outs that stop when the hand ends. One set of play-outs serves all seats
    (``result[seat][i]`` is for ``ks[i]``).

    The hand ends at its first completion (unless ``last_round``), so a seat that completes has won the
    hand: this is the chance of **winning** within k turns, and it levels off at the seat's win chance,
    not at 1. (How long a layout takes on its own, with nobody stopping it, is another question.)"""
    _expect(game, "garbage")
    gen = _rng(rng)
    if not isinstance(ks, (list, tuple, range, np.ndarray)) or not len(ks) or any(
            isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1 for k in ks):
        raise InvalidInputError(f"ks={shown(ks)} is not allowed; give a list of whole numbers of turns >= 1")
    ks = [int(k) for k in ks]
    game._check_seat(viewpoint, "completion_curves")
    if game.is_over:
        return [[_certain(seat in game.state.completed) for _ in ks] for seat in range(game.players)]
    def batch(size: int) -> np.ndarray:
        done = garbage_rollouts(game, viewpoint, size, gen)[1]  # (size, players) own turns to complete, 0 = never
        return np.stack([(done > 0) & (done <= k) for k in ks], axis=2)  # (size, players, len(ks))

    flat, n = anytime_counts(batch, game.players * len(ks), rollouts, budget_s, batch=250)
    counts = flat.reshape(game.players, len(ks))
    return [[wilson(float(c), n) for c in row] for row in counts]


def completion_curve(game: Game[Any], seat: int, ks: Sequence[int] = (1, 2, 3, 4, 5),
                     viewpoint: int | None = None, *, rollouts: int | None = None, budget_s: float | None = None,
                     rng: np.random.Generator | None = None) -> list[Estimate]:
    """For each k in ``ks``: the chance that ``seat`` completes its Garbage layout within its next k turns."""
    _expect(game, "garbage")
    if seat is None:
        raise InvalidInputError("completion_curve needs a seat, not None")
    game._check_seat(seat, "completion_curve")
    return completion_curves(game, ks, viewpoint, rollouts=rollouts, budget_s=budget_s, rng=rng)[seat]


def completion_probability(game: Game[Any], seat: int, within: int, viewpoint: int | None = None, *,
                           rollouts: int | None = None, budget_s: float | None = None,
                           rng: np.random.Generator | None = None) -> Estimate:
    """The chance that ``seat`` completes its Garbage layout within its next ``within`` turns."""
    return completion_curve(game, seat, (within,), viewpoint, rollouts=rollouts, budget_s=budget_s, rng=rng)[0]


def _expect(game: Game[Any], name: str | None) -> None:
    """``game`` must be a cardlab game (of the game ``name``, unless None)."""
    if not isinstance(game, Game):
        raise InvalidInputError(f"game={shown(game)} is not a cardlab game; deal one with cardlab.new_game(...)")
    if name is not None and game.name != name:
        raise InvalidInputError(f"this question is about {name}; the game given is {game.name}")


# ---------------------------------------------------------------------------------------------- Spite and Malice
def spite_next_stock_playable(game: Game[Any], viewpoint: int | None = None) -> Fraction:
    """Exact chance that the next stock card can go on some centre pile right now.

    The game's chance law gives the exact law of the top stock card as the viewer knows it
    (``next_draw_chances``): uniform over the never-seen cards (tied payoff tops excluded: they are
    known to be in the payoff piles) while the deal's rest is on top, or over the unlocated cards of a
    completed pile put under the stock once play has reached it. The answer adds up the chances of the
    faces that fit a centre pile. Not applicable (an error) when the stock is empty.
    """
    _expect(game, "spite-and-malice")
    game._check_seat(viewpoint, "spite_next_stock_playable")
    if not game.state.stock:
        raise InvalidInputError("spite_next_stock_playable is not applicable: the stock is empty")
    chances: dict[Card, Fraction] = game.next_draw_chances(viewpoint)  # type: ignore[attr-defined]
    fits = game.can_play_on_centre  # type: ignore[attr-defined]
    return sum((p for c, p in chances.items() if fits(c)), Fraction(0))


def spite_payoff_playable_now(game: Game[Any], viewpoint: int | None = None) -> Fraction:
    """Exact chance that the mover's payoff top can go straight onto a centre pile.

    Payoff tops and centre piles are face up, so every viewer knows the answer: it is 0 or 1.
    """
    _expect(game, "spite-and-malice")
    game._check_seat(viewpoint, "spite_payoff_playable_now")
    top = game.observe(viewpoint).payoff_tops[game.current_player]
    return Fraction(1 if top is not None and game.can_play_on_centre(top) else 0)  # type: ignore[attr-defined]


def spite_payoff_this_turn(game: Game[Any], viewpoint: int | None = None, *, rollouts: int | None = None,
                           budget_s: float | None = None, rng: np.random.Generator | None = None) -> Estimate:
    """Chance that the player to move plays at least one payoff card before the turn ends (greedy play)."""
    _expect(game, "spite-and-malice")
    gen = _rng(rng)
    game._check_seat(viewpoint, "spite_payoff_this_turn")
    if game.is_over:
        return _certain(False)
    seat = game.current_player
    module = fast_module(game)
    if module is not None:
        return _fast_share(lambda size: module.payoff_this_turn(game, viewpoint, size, gen), rollouts, budget_s)

    def trial() -> list[float]:
        g = game.resample(viewpoint, gen)
        start_size = len(g.state.payoff[seat])
        turn = g.turns
        play_on(g, gen, stop=lambda x: x.turns != turn)
        return [1.0 if len(g.state.payoff[seat]) < start_size else 0.0]

    totals, n = anytime(trial, 1, rollouts, budget_s)
    return wilson(float(totals[0]), n)


# ---------------------------------------------------------------------------------------------- Shithead
def shithead_blind_reason(game: Game[Any]) -> str | None:
    """Why "a face-down card fits" has no meaning here (None when it has one)."""
    _expect(game, "shithead")
    if game.is_over:
        return "the game is over"
    if not any(c is not None for d in game.state.face_down for c in d):
        return "no face-down card is left"
    return None


def shithead_blind_fits(game: Game[Any], viewpoint: int | None = None) -> Fraction:
    """Exact chance that a face-down card fits the pile now.

    Nobody has seen a face-down card, the owner included, so by the game's chance law it is equally
    likely to be any card the viewer cannot locate: the answer counts the unseen cards that fit. Raises
    :class:`~cardlab.errors.InvalidInputError` when no face-down card is left.
    """
    _expect(game, "shithead")
    game._check_seat(viewpoint, "shithead_blind_fits")
    reason = shithead_blind_reason(game)
    if reason is not None:
        raise InvalidInputError(f"shithead_blind_fits is not applicable: {reason}")
    law = game.chance_law(viewpoint)  # type: ignore[attr-defined]
    return law.chance(0, lambda c: bool(game.fits(c)))  # type: ignore[attr-defined, no-any-return]


def shithead_draw_reason(game: Game[Any]) -> str | None:
    """Why "the top of the draw pile fits" has no meaning here (None when it has one)."""
    _expect(game, "shithead")
    if game.is_over:
        return "the game is over"
    if not game.state.draw:
        return "the draw pile is empty"
    return None


def shithead_draw_top_fits(game: Game[Any], viewpoint: int | None = None) -> Fraction:
    """Exact chance that the top of the draw pile fits the pile now.

    The draw pile's top is, like a face-down card, any unseen card with equal chance under the game's
    chance law — so while both exist the two answers agree: a lesson in exchangeability. Raises
    :class:`~cardlab.errors.InvalidInputError` when the draw pile is empty.
    """
    _expect(game, "shithead")
    game._check_seat(viewpoint, "shithead_draw_top_fits")
    reason = shithead_draw_reason(game)
    if reason is not None:
        raise InvalidInputError(f"shithead_draw_top_fits is not applicable: {reason}")
    law = game.chance_law(viewpoint)  # type: ignore[attr-defined]
    top = max(i for i, name in enumerate(law.names) if name == "draw")
    return law.chance(top, lambda c: bool(game.fits(c)))  # type: ignore[attr-defined, no-any-return]


def shithead_mover_picks_up(game: Game[Any], viewpoint: int | None = None) -> Fraction:
    """Exact chance, under the chance law, that the player to move picks up the pile in this turn.

    Modelling caveat, measured: seen by the table, this undershoots real greedy play by about a third
    (the unseen part of a hand holds the cards its owner chose to keep; see the module notes).

    A pick-up can only be the turn's first action: after a 10 or a clear the pile is empty and anything
    fits. Playing from the hand, the mover picks up when no hand card fits: 0 if a card the viewer
    knows fits; otherwise, with ``u`` hand cards the viewer has not seen, drawn by the chance law from
    the ``N`` unseen cards of which ``F`` fit, the hypergeometric ``C(N - F, u) / C(N, u)``. From the
    face-up cards (all public) it is 0 or 1; blind from a face-down card it is the share of unseen
    cards that do not fit. Raises :class:`~cardlab.errors.InvalidInputError` in the set-up or once the
    game is over.
    """
    _expect(game, "shithead")
    game._check_seat(viewpoint, "shithead_mover_picks_up")
    s = game.state
    if game.is_over or s.phase == "setup":
        raise InvalidInputError("shithead_mover_picks_up is not applicable: "
                                + ("the game is over" if game.is_over else "the set-up is not finished"))
    seat = game.current_player
    fits = game.fits  # type: ignore[attr-defined]
    source = game.source(seat)  # type: ignore[attr-defined]
    if source == "up":
        return Fraction(0 if any(fits(c) for c in s.face_up[seat]) else 1)
    law = game.chance_law(viewpoint)  # type: ignore[attr-defined]
    unseen = law.faces()
    fitting = sum(1 for c in unseen if fits(c))
    if source == "down":
        return Fraction(len(unseen) - fitting, len(unseen))
    if viewpoint == seat:
        return Fraction(0 if any(fits(c) for c in s.hands[seat]) else 1)
    if any(fits(c) for c in s.known[seat]):
        return Fraction(0)
    hidden = sum(1 for name in law.names if name == f"hand {seat}")
    return Fraction(comb(len(unseen) - fitting, hidden), comb(len(unseen), hidden))


def shithead_must_pick_up(game: Game[Any], seat: int, viewpoint: int | None = None, *,
                          rollouts: int | None = None, budget_s: float | None = None,
                          rng: np.random.Generator | None = None) -> Estimate:
    """Chance that ``seat`` picks up the pile on its next turn (greedy play until then and in it)."""
    _expect(game, "shithead")
    gen = _rng(rng)
    game._check_seat(seat, "shithead_must_pick_up")
    if game.is_over:
        return _certain(False)
    module = fast_module(game)
    if module is not None:
        return _fast_share(lambda size: module.must_pick_up(game, seat, viewpoint, size, gen), rollouts, budget_s)

    def trial() -> list[float]:
        g = game.resample(viewpoint, gen)
        play_on(g, gen, stop=lambda x: x.current_player == seat and _turn_start(x))
        if g.is_over:
            return [0.0]
        turn = g.turns
        mark = len(g.events)
        play_on(g, gen, stop=lambda x: x.turns != turn)
        return [1.0 if any(_is_pickup(e, seat) for e in g.events[mark:]) else 0.0]

    totals, n = anytime(trial, 1, rollouts, budget_s)
    return wilson(float(totals[0]), n)


def _is_pickup(event: Any, seat: int) -> bool:
    """A pick-up by ``seat``: nothing fitted, or its blind face-down card did not fit."""
    if event.seat != seat:
        return False
    return bool(event.kind == "pickup" or (event.kind == "blind" and not event.data.get("fits", True)))


def _turn_start(game: Game[Any]) -> bool:
    return bool(getattr(game.state, "phase", "play") != "setup")


# ---------------------------------------------------------------------------------------------- panels
def panel_quantities(game: Game[Any], viewpoint: int | None = None, *, rng: np.random.Generator | None = None,
                     rollouts: int | None = None, budget_s: float | None = None) -> list[Quantity]:
    """Every per-game number a panel shows for this position (win chances are separate)."""
    _expect(game, None)
    gen = _rng(rng)
    game._check_seat(viewpoint, "panel_quantities")
    out: list[Quantity] = []
    if game.name == "garbage":
        if not game.is_over:
            seat = garbage_next_drawer(game)
            label = "next stock card can be used by the seat that draws it"
            if seat is not None:
                label = f"next stock card can be used by seat {seat} (who draws it)"
            reason = garbage_next_card_reason(game)
            out.append(Quantity.not_applicable("next_card", label, reason, seat) if reason is not None else
                       Quantity.from_exact("next_card", label, garbage_next_card_placeable(game, viewpoint), seat))
        # The play-outs stop when the hand ends, at its first completion (its winner): a seat that
        # "completes within k turns" there has won within k turns, so that is what the curve is called.
        curves = completion_curves(game, (1, 2, 3, 4, 5), viewpoint, rollouts=rollouts, budget_s=budget_s, rng=gen)
        for seat, curve in enumerate(curves):
            for k, est in enumerate(curve, start=1):
                out.append(Quantity.from_estimate(f"complete_{k}", f"seat {seat} wins within {k} turns",
                                                  est, seat))
    elif game.name == "spite-and-malice":
        if not game.is_over:
            if game.state.stock:
                out.append(Quantity.from_exact("next_stock", "next stock card fits a centre pile",
                                               spite_next_stock_playable(game, viewpoint)))
            else:
                out.append(Quantity.not_applicable("next_stock", "next stock card fits a centre pile",
                                                   "the stock is empty"))
            out.append(Quantity.from_exact("payoff_now", "payoff top playable now",
                                           spite_payoff_playable_now(game, viewpoint), game.current_player))
            out.append(Quantity.from_estimate(
                "payoff_this_turn", "payoff card played this turn",
                spite_payoff_this_turn(game, viewpoint, rollouts=rollouts, budget_s=budget_s, rng=gen),
                game.current_player))
    elif game.name == "shithead":
        if not game.is_over:
            label = "a face-down card fits the pile"
            reason = shithead_blind_reason(game)
            out.append(Quantity.not_applicable("blind_fits", label, reason) if reason is not None else
                       Quantity.from_exact("blind_fits", label, shithead_blind_fits(game, viewpoint)))
            label = "top of the draw pile fits"
            reason = shithead_draw_reason(game)
            out.append(Quantity.not_applicable("draw_top_fits", label, reason) if reason is not None else
                       Quantity.from_exact("draw_top_fits", label, shithead_draw_top_fits(game, viewpoint)))
            for seat in range(game.players):
                if seat in getattr(game.state, "ranking", []):
                    continue
                label = f"seat {seat} picks up on its next turn"
                if seat == game.current_player and game.state.phase != "setup":
                    # exact under the uniform chance law; greedy play picks up more often (see the notes)
                    label = f"seat {seat} picks up in this turn (uniform model)"
                    out.append(Quantity.from_exact("must_pick_up", label,
                                                   shithead_mover_picks_up(game, viewpoint), seat))
                    continue
                out.append(Quantity.from_estimate(
                    "must_pick_up", label,
                    shithead_must_pick_up(game, seat, viewpoint, rollouts=rollouts, budget_s=budget_s, rng=gen),
                    seat))
    return out
