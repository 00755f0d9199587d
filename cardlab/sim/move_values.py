"""Which move is best? Every legal move's chance of winning, from what the player to move knows.

The value of a move
-------------------
For the player to move (the *mover*), the value of a legal move ``m`` is the chance that the mover wins
if it plays ``m`` now and every seat plays on with the greedy bots:

    V(m) = E[ 1{mover wins} | the mover's information, m played, greedy play after ].

The expectation is over the hidden cards as the mover knows the game (``game.chance_law(mover)``: the
same law the panels' win chances use, with its modelling assumption, see :mod:`cardlab.sim.prob`) and
over every later shuffle. Each play-out draws the hidden cards from that law, plays ``m`` in the world
drawn, and plays on to the end. Nothing else of the real hidden cards is read, so two games the mover
cannot tell apart give identical values for the same generator (``tests/sim/test_move_values.py`` builds
such twins). The value of a move is a statement about the move *and the policy that plays on*: with a
better play-out policy the values change.

Estimates and their intervals
-----------------------------
With ``n`` play-outs per move, each move's estimate is the share of its play-outs the mover won, with a
Wilson 95% interval (:func:`cardlab.chance.stats.wilson`). The difference of a move from the best is
estimated by the mean of the paired differences ``d_i = X_best,i - X_m,i`` (``X`` is 1 for a win) with
the normal 95% interval ``mean ± 1.96 s_d / sqrt(n)`` (:func:`cardlab.chance.stats.mean_interval`). The
"best" move is the one with the highest estimate, chosen from the same play-outs, so its lead is a
little optimistic when moves are close (the winner's curse); an interval of a difference that excludes 0
says the order is not noise.

Common random numbers
---------------------
By default (``crn=True``) play-out ``i`` of every move starts from the *same* hidden cards and uses the
same later shuffles (one seed per play-out, shared by the moves): the moves are compared on the same
worlds, and much of the luck of the deal cancels in their difference. With independent play-outs
(``crn=False``, one seed per play-out and move) the variance of a difference is
``Var(X_a) + Var(X_b)``; with common numbers it is ``Var(X_a - X_b) = Var(X_a) + Var(X_b) - 2 Cov(X_a,
X_b)``, smaller when the outcomes are positively correlated. :attr:`MoveValues.variance_ratio` estimates
``Var(X_best - X_m) / (Var(X_best) + Var(X_m))`` from the play-outs, pooled over the moves: the factor
by which the variance of a difference shrinks against independent play-outs (``benchmarks/
bench_move_values.py`` measures it also directly, against independent runs).

Moves
-----
Moves that are the same up to the physical copy of a card (two packs hold two seven of hearts) are one
move (:func:`move_key`): the first of them in the engine's order stands for all. A position with one
distinct move needs no play-out: its value is not estimated (:attr:`MoveValues.forced`).

Play-outs run on the game's kernel when it has one (its ``move_rollouts``, part of the kernel protocol: ``(game,
viewpoint, moves, seeds) -> winners``, seeds and winners shaped ``(play-outs, moves)``), else on the
engine: the world is ``game.resample(viewpoint, numpy.random.default_rng(seed))``, the move is played in
it and the game is played on with greedy bots. Both draw from the same law; their numbers differ.
Budgets are play-outs per move, never seconds, so that results are reproducible.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardlab.cards import Card, face_of
from cardlab.chance.stats import Estimate, mean_interval, wilson
from cardlab.engine.game import Game, Move
from cardlab.engine.registry import registered_spec
from cardlab.errors import InvalidInputError, KernelError, shown
from cardlab.sim.prob import expect_game, play_on, require_rng

DEFAULT_MOVE_ROLLOUTS = 1000
"""Play-outs per move of :func:`move_values` when none are given."""
MAX_MOVE_ROLLOUTS = 10**7


def move_key(move: Move) -> tuple[Any, ...]:
    """What a move is, up to the physical copy of a card: its type, its kind and its fields, every card
    replaced by its face (:func:`~cardlab.cards.face_of`)."""
    values = tuple(face_of(v) if isinstance(v, Card) else v
                   for f in dataclasses.fields(move) if f.name != "text"
                   for v in [getattr(move, f.name)])
    return (type(move).__name__, *values)


def distinct_moves(moves: Sequence[Move]) -> list[Move]:
    """``moves`` with the moves equal up to the copy of a card kept once (the first, in the given order)."""
    seen: set[tuple[Any, ...]] = set()
    out: list[Move] = []
    for m in moves:
        key = move_key(m)
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


@dataclass(frozen=True)
class MoveValue:
    """One move's value: ``win`` its chance of winning for the mover (Wilson 95% interval), ``gap`` how much
    less than the best move it wins (``best - this``, 0 for the best) with its paired 95% interval
    ``[gap_low, gap_high]``."""

    move: Move
    win: Estimate
    gap: float
    gap_low: float
    gap_high: float
    best: bool

    @property
    def separated(self) -> bool:
        """The interval of the gap excludes 0: this move is worse than the best, beyond the noise."""
        return self.gap_low > 0

    def record(self) -> dict[str, Any]:
        """The move's value as a flat record (plain Python values)."""
        return {"move": self.move.text, "win": self.win.value, "win_low": self.win.low, "win_high": self.win.high,
                "playouts": self.win.n, "gap": self.gap, "gap_low": self.gap_low, "gap_high": self.gap_high,
                "best": self.best}


@dataclass(frozen=True)
class MoveValues:
    """Every distinct legal move's value for ``seat`` (the mover) from its information (``viewpoint`` is
    ``seat``).

    ``values`` come in the engine's order of the moves; ``best`` is the index of the best one. ``path`` is
    ``"kernel"`` or ``"engine"``, ``crn`` whether the play-outs shared their random numbers.
    ``variance_ratio`` (module notes) is NaN when it cannot be estimated (one move, or no variance).
    ``forced`` is True when there is a single distinct move (then nothing was played out)."""

    seat: int
    viewpoint: int | None
    playouts: int
    values: tuple[MoveValue, ...]
    best: int
    path: str
    crn: bool
    variance_ratio: float

    @property
    def forced(self) -> bool:
        return len(self.values) == 1

    @property
    def best_move(self) -> Move:
        return self.values[self.best].move

    def value_of(self, move: Move | str) -> MoveValue:
        """The value of ``move`` (a Move or its text; any copy of a card names its move)."""
        for v in self.values:
            if (isinstance(move, Move) and move_key(move) == move_key(v.move)) or \
                    (isinstance(move, str) and move == v.move.text):
                return v
        raise InvalidInputError(f"move {shown(move)} is not one of the moves valued here: "
                                f"{', '.join(repr(v.move.text) for v in self.values[:12])}")

    def records(self) -> list[dict[str, Any]]:
        """One flat record per move (a table: ``pandas.DataFrame(mv.records())`` where pandas is installed)."""
        return [v.record() for v in self.values]

    def __str__(self) -> str:
        lines = [f"seat {self.seat}, {self.playouts} play-outs per move ({self.path}"
                 f"{', common random numbers' if self.crn else ''})"]
        for v in self.values:
            mark = "*" if v.best else " "
            lines.append(f"{mark} {v.move.text:<28} {v.win}  gap {v.gap:+.3f} [{v.gap_low:+.3f}, {v.gap_high:+.3f}]")
        return "\n".join(lines)


def _check_rollouts(rollouts: Any) -> int:
    if rollouts is None:
        return DEFAULT_MOVE_ROLLOUTS
    if isinstance(rollouts, bool) or not isinstance(rollouts, (int, np.integer)) \
            or not 1 <= rollouts <= MAX_MOVE_ROLLOUTS:
        raise InvalidInputError(f"rollouts={shown(rollouts)} is not allowed; give play-outs per move, a whole number "
                                f"from 1 to {MAX_MOVE_ROLLOUTS:,}")
    return int(rollouts)


def move_values(game: Game[Any], *, rollouts: int | None = None, rng: np.random.Generator | None = None,
                crn: bool = True) -> MoveValues:
    """Every distinct legal move's chance of winning for the player to move, from its information (module
    notes).

    ``rollouts`` play-outs per move (default :data:`DEFAULT_MOVE_ROLLOUTS`), seeded from ``rng`` (a
    ``numpy.random.Generator``, required). ``crn=False`` plays each move out on its own random numbers (to
    measure what common numbers save). Only the mover's information is used: from another viewpoint (the
    table's, say) the mover's own hidden cards, and so its legal moves, would differ from world to world.
    """
    expect_game(game, None)
    gen = require_rng(rng)
    n = _check_rollouts(rollouts)
    if not isinstance(crn, bool):
        raise InvalidInputError(f"crn={shown(crn)} is not allowed; accepted: True or False")
    if game.is_over:
        raise InvalidInputError(f"this {game.name} game is over: no move to value")
    seat = game.current_player
    view = seat
    moves = distinct_moves(game.legal_moves())
    if len(moves) == 1:
        one = MoveValue(moves[0], Estimate(float("nan"), 0.0, 1.0, 0), 0.0, 0.0, 0.0, True)
        return MoveValues(seat, view, 0, (one,), 0, "none", crn, float("nan"))
    seeds = _seed_grid(n, len(moves), gen, crn)
    winners, path = move_winners(game, view, moves, seeds)
    wins = (winners == seat).astype(np.float64)
    return summarise(seat, view, moves, wins, path, crn)


def _seed_grid(n: int, m: int, rng: np.random.Generator, crn: bool) -> np.ndarray:
    """The play-outs' seeds: one per play-out shared by every move (common numbers), or one per play-out
    and move."""
    size = n if crn else n * m
    flat = rng.integers(0, np.iinfo(np.uint64).max, size=size, dtype=np.uint64, endpoint=True)
    grid: np.ndarray = np.repeat(flat[:, None], m, axis=1) if crn else flat.reshape(n, m)
    return grid


def move_winners(game: Game[Any], viewpoint: int | None, moves: Sequence[Move],
                 seeds: np.ndarray) -> tuple[np.ndarray, str]:
    """The winner of play-out ``r`` of ``moves[k]`` with seed ``seeds[r, k]`` (-1: none), on the game's kernel
    when it has one and its ``move_rollouts`` takes the position, else on the engine; and which of the two ran."""
    spec = registered_spec(game)
    kernel = spec.kernel if spec is not None else None
    if kernel is not None:
        winners = kernel.move_rollouts(game, viewpoint, moves, seeds)
        if winners is not None:
            return np.asarray(winners, dtype=np.int64).reshape(seeds.shape), "kernel"
    return engine_move_winners(game, viewpoint, moves, seeds), "engine"


def engine_move_winners(game: Game[Any], viewpoint: int | None, moves: Sequence[Move],
                        seeds: np.ndarray) -> np.ndarray:
    """:func:`move_winners` on the engine: play-out ``(r, k)`` is ``game.resample(viewpoint, rng)`` with
    ``rng = numpy.random.default_rng(seeds[r, k])``, ``moves[k]`` played in that world (its move equal up to
    the copy of a card), then greedy play to the end. A seed shared by several moves resamples once."""
    winners = np.full(seeds.shape, -1, dtype=np.int64)
    keys = [move_key(m) for m in moves]
    for r in range(seeds.shape[0]):
        worlds: dict[int, Game[Any]] = {}
        for k in range(seeds.shape[1]):
            seed = int(seeds[r, k])
            if seed not in worlds:
                worlds[seed] = game.resample(viewpoint, np.random.default_rng(seed))
            world = worlds[seed].copy()
            twin = next((m for m in world.legal_moves() if move_key(m) == keys[k]), None)
            if twin is None:
                raise KernelError(f"the move {moves[k].text!r} of {game!r} is not legal in a world its mover cannot "
                                  "tell apart from it; the game's resampler is broken")
            world.play(twin)
            play_on(world, np.random.default_rng(seed))
            winners[r, k] = -1 if world.winner is None else world.winner
    return winners


def summarise(seat: int, viewpoint: int | None, moves: Sequence[Move], wins: np.ndarray, path: str,
              crn: bool) -> MoveValues:
    """The estimates, gaps and variance ratio from the play-outs' outcomes ``wins[r, k]`` (1: the mover won
    play-out ``r`` of ``moves[k]``)."""
    n, m = wins.shape
    totals = wins.sum(axis=0)
    best = int(np.argmax(totals))  # the first of the best, in the engine's order
    values = []
    for k, move in enumerate(moves):
        if k == best:
            gap, low, high = 0.0, 0.0, 0.0
        else:
            d = wins[:, best] - wins[:, k]
            gap, half = mean_interval(float(d.sum()), float((d * d).sum()), n)
            low, high = gap - half, gap + half
        values.append(MoveValue(move, wilson(float(totals[k]), n), gap, low, high, k == best))
    return MoveValues(seat, viewpoint, n, tuple(values), best, path, crn, variance_ratio(wins, best))


def variance_ratio(wins: np.ndarray, best: int) -> float:
    """``sum_k Var(X_best - X_k) / sum_k (Var(X_best) + Var(X_k))`` over the moves ``k`` other than ``best``
    (sample variances of the play-outs): the variance of a difference against independent play-outs of the
    same moves. NaN when there is nothing to compare."""
    if wins.shape[1] < 2 or wins.shape[0] < 2:
        return float("nan")
    var = wins.var(axis=0, ddof=1)
    others = [k for k in range(wins.shape[1]) if k != best]
    paired = sum(float((wins[:, best] - wins[:, k]).var(ddof=1)) for k in others)
    apart = sum(float(var[best] + var[k]) for k in others)
    return paired / apart if apart > 0 else float("nan")
