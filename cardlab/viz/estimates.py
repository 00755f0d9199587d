"""The stepper's estimates: which play-outs to run after a move, their seeds, and a cache of the results.

Every estimate is seeded with ``default_rng([seed, move index, viewpoint code, purpose])``, so the same clicks
give the same numbers on every machine. The viewpoint code is that of the first viewpoint (the table, then seat
0, 1, ...) with the same information at that move (:mod:`cardlab.viz.information`): viewpoints that know the
same share one generator and one set of play-outs, so switching between them changes no number.
Results are cached per (line of play, move index, viewpoint), so Back
and redraws cost nothing. Switching the viewpoint recomputes the whole history: the current point with
``rollouts`` play-outs, the earlier points with ``history_rollouts`` (a quarter as many by default), because
a history of a hundred moves must redraw in about a second; a history longer than :data:`MAX_HISTORY_POINTS`
moves is recomputed at evenly spaced moves only (points already computed for that viewpoint are kept), and
the chart joins the points it has.

The move-values panel (off unless asked for) values every distinct legal move of the seat to move from
that seat's own information (:func:`cardlab.sim.move_values.move_values`), seeded with the mover's viewpoint
code and cached per position, like the other estimates. Its budget is :data:`MOVE_PANEL_BUDGET` play-outs per
position shared evenly by the moves (at least :data:`MOVE_PANEL_MIN`, at most :data:`MOVE_PANEL_MAX` per
move), as the search player shares its budget, so that one update stays under about 300 ms in every game
(``benchmarks/bench_stepper_moves.py`` measures it); ``move_rollouts`` fixes the play-outs per move instead.

Nothing here builds a widget: :class:`Estimates` is given a game, a deal seed and a viewpoint code and
returns numbers (the P(win) history, the game's panel quantities and the mover's move values).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardlab.chance.stats import Estimate
from cardlab.engine.game import Game
from cardlab.engine.registry import registered_spec
from cardlab.engine.spec import FALLBACK_BUDGETS, RolloutBudgets
from cardlab.errors import InvalidInputError, shown
from cardlab.sim.move_values import MoveValues, distinct_moves, move_values
from cardlab.sim.prob import Quantity, panel_quantities, win_probability
from cardlab.viz.information import canonical_code

# Play-outs per estimate (win chart, per-game panel) for one Next move: each game's spec gives them
# (GameSpec.budgets), chosen so that a move with every panel refreshed stays well under 100 ms
# (benchmarks/bench_stepper.py measures it).
WIN_PURPOSE, PANEL_PURPOSE, MOVES_PURPOSE = 0, 1, 2
MOVE_PANEL_BUDGET = 4000   # play-outs per position of the move-values panel, shared by the moves
MOVE_PANEL_MIN, MOVE_PANEL_MAX = 100, 1000   # play-outs per move of the panel, whatever the number of moves
MAX_HISTORY_POINTS = 60
MAX_ROLLOUTS = 1_000_000   # play-outs per estimate a stepper takes: more would freeze the widget for minutes


@dataclass(frozen=True)
class WinPoint:
    """The plotted numbers for one move: each seat's P(win) estimate."""

    move: int
    estimates: tuple[Estimate, ...]


def check_count(value: int | None, what: str) -> int | None:
    """A play-out count given to the stepper (None: the game's default), or a clear refusal."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= MAX_ROLLOUTS:
        raise InvalidInputError(f"{what}={shown(value)} is not allowed; give a whole number of play-outs from 1 to "
                                f"{MAX_ROLLOUTS:,}")
    return int(value)


def line_keys(game: Game[Any], seed: int) -> list[int]:
    """One key per position of the game's line of play (a running hash of the move texts)."""
    keys = [hash(("deal", game.name, seed))]
    for m in game.moves:
        keys.append(hash((keys[-1], m.text)))
    return keys


class Estimates:
    """The play-out budgets of one stepper, the estimates it has computed, and the schedule of new ones.

    ``rollouts``, ``history_rollouts`` and ``panel_rollouts`` are what the stepper was given (None: the
    game's budget, see :class:`~cardlab.engine.spec.RolloutBudgets`). The cache belongs to one deal:
    :meth:`clear` it when another game is dealt.
    """

    def __init__(self, rollouts: int | None = None, history_rollouts: int | None = None,
                 panel_rollouts: int | None = None, move_rollouts: int | None = None) -> None:
        self._rollouts_given = check_count(rollouts, "rollouts")
        self._history_given = check_count(history_rollouts, "history_rollouts")
        self._panel_given = check_count(panel_rollouts, "panel_rollouts")
        self._moves_given = check_count(move_rollouts, "move_rollouts")
        self._win_cache: dict[tuple[int, int, int], tuple[Estimate, ...]] = {}
        self._panel_cache: dict[tuple[int, int, int], list[Quantity]] = {}
        self._moves_cache: dict[tuple[int, int], MoveValues] = {}
        self._canon: dict[tuple[int, int, int], int] = {}   # (position, move, viewpoint) -> its twins' first code

    def clear(self) -> None:
        """Forget every estimate (another deal is on the table)."""
        self._win_cache.clear()
        self._panel_cache.clear()
        self._moves_cache.clear()
        self._canon.clear()

    @staticmethod
    def budgets(game: Game[Any]) -> RolloutBudgets:
        spec = registered_spec(game)
        return spec.budgets if spec is not None else FALLBACK_BUDGETS

    def rollouts(self, game: Game[Any]) -> int:
        """Play-outs behind the current point of the win chart."""
        return self._rollouts_given if self._rollouts_given is not None else self.budgets(game).win

    def panel_rollouts(self, game: Game[Any]) -> int:
        """Play-outs behind each estimate of the per-game panel (``rollouts`` when that was given)."""
        if self._panel_given is not None:
            return self._panel_given
        if self._rollouts_given is not None:
            return self._rollouts_given
        return self.budgets(game).panel

    def history_rollouts(self, game: Game[Any]) -> int:
        """Play-outs behind each earlier point of the win chart."""
        if self._history_given is not None:
            return self._history_given
        return max(1, self.rollouts(game) // 4)

    def move_rollouts(self, game: Game[Any]) -> int:
        """Play-outs per move of the move-values panel in this position: ``move_rollouts`` when given, else
        :data:`MOVE_PANEL_BUDGET` shared by the distinct legal moves, within [:data:`MOVE_PANEL_MIN`,
        :data:`MOVE_PANEL_MAX`]."""
        if self._moves_given is not None:
            return self._moves_given
        if game.is_over:
            return MOVE_PANEL_MAX
        count = len(distinct_moves(game.legal_moves()))
        return min(MOVE_PANEL_MAX, max(MOVE_PANEL_MIN, MOVE_PANEL_BUDGET // count))

    @staticmethod
    def rng(seed: int, move_index: int, code: int, purpose: int) -> np.random.Generator:
        """The generator of one plotted estimate."""
        return np.random.default_rng([seed, move_index, code, purpose])

    def win_history(self, game: Game[Any], seed: int, code: int) -> list[WinPoint]:
        """The P(win) points to plot for ``game`` from viewpoint ``code``, computing the missing ones (the current
        move, and at most :data:`MAX_HISTORY_POINTS` evenly spaced earlier moves). Each point is the estimate of
        the first viewpoint with the same information at that move (:func:`~cardlab.viz.information.canonical_code`),
        so twins share their play-outs."""
        keys = line_keys(game, seed)
        now = len(keys) - 1
        step = -(-(now + 1) // MAX_HISTORY_POINTS)
        wanted = sorted({*range(0, now + 1, step), now})
        unknown = [i for i in wanted if (keys[i], i, code) not in self._canon]
        if unknown:
            self._walk_back(game, unknown, lambda i, g: self._canon.__setitem__((keys[i], i, code),
                                                                                canonical_code(g, code)))
        canon = {i: c for i in range(now + 1) if (c := self._canon.get((keys[i], i, code))) is not None}
        missing = [i for i in wanted if (keys[i], i, canon[i]) not in self._win_cache]
        if missing:
            def estimate(i: int, g: Game[Any]) -> None:
                n = self.rollouts(game) if i == now else self.history_rollouts(game)
                rng = self.rng(seed, i, canon[i], WIN_PURPOSE)
                view = None if canon[i] == 0 else canon[i] - 1
                self._win_cache[(keys[i], i, canon[i])] = tuple(win_probability(g, view, rollouts=n, rng=rng))

            self._walk_back(game, missing, estimate)
        return [WinPoint(i, self._win_cache[(keys[i], i, c)]) for i, c in canon.items()
                if (keys[i], i, c) in self._win_cache]

    @staticmethod
    def _walk_back(game: Game[Any], moves: list[int], visit: Callable[[int, Game[Any]], None]) -> None:
        """Call ``visit(i, position after move i)`` for each of the sorted ``moves``, walking back a copy."""
        g = game.copy()
        todo, first = set(moves), moves[0]
        for i in range(game.move_count, first - 1, -1):
            if i in todo:
                visit(i, g)
            if i > first:
                g.undo()

    def panel(self, game: Game[Any], seed: int, code: int) -> list[Quantity]:
        """The game's panel quantities at the current move from viewpoint ``code`` (computed once per position,
        and once for all the viewpoints with the same information)."""
        keys = line_keys(game, seed)
        now = len(keys) - 1
        code = canonical_code(game, code)
        key = (keys[now], now, code)
        if key not in self._panel_cache:
            prob_view = None if code == 0 else code - 1
            self._panel_cache[key] = panel_quantities(game, prob_view, rng=self.rng(seed, now, code, PANEL_PURPOSE),
                                                      rollouts=self.panel_rollouts(game))
        return list(self._panel_cache[key])

    def move_values(self, game: Game[Any], seed: int) -> MoveValues:
        """Every distinct legal move's value for the seat to move, from that seat's information only (computed
        once per position). The generator is ``rng(seed, move index, mover + 1, MOVES_PURPOSE)``: the mover's
        viewpoint code, so nothing but what the mover knows (and the deal's seed) reaches the numbers."""
        keys = line_keys(game, seed)
        now = len(keys) - 1
        key = (keys[now], now)
        if key not in self._moves_cache:
            rng = self.rng(seed, now, game.current_player + 1, MOVES_PURPOSE)
            self._moves_cache[key] = move_values(game, rollouts=self.move_rollouts(game), rng=rng)
        return self._moves_cache[key]


def history_text(points: list[WinPoint], players: int, intervals: bool = True) -> str:
    """A P(win) history as text: one row per move, each seat's estimate with its 95% interval (without it when
    ``intervals`` is False)."""
    what = "P(win) [95% interval]" if intervals else "P(win)"
    head = "move  " + "  ".join(f"seat {s} {what}".ljust(30) for s in range(players))
    rows = [head]
    for p in points:
        cells = [(f"{e.value:.3f} [{e.low:.3f}, {e.high:.3f}] n={e.n}" if intervals else f"{e.value:.3f} n={e.n}")
                 .ljust(30) for e in p.estimates]
        rows.append(f"{p.move:>4}  " + "  ".join(cells))
    return "\n".join(rows)
