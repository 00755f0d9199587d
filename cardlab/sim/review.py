"""A game review: at each decision, how much win chance the player gave up against its best move.

For every move of a finished (or unfinished) game, the position before it is rebuilt from the game's
record and the mover's moves are valued from **the mover's own information at that time**
(:func:`cardlab.sim.move_values.move_values`: the same worlds and shuffles for every move, greedy play
after). The *loss* of the decision is the value of the best move minus the value of the move played,
with the paired 95% interval of that difference; it is 0 when the best move was played. A decision with
one distinct move is *forced* and not valued.

Classes (like lichess)
----------------------
lichess marks a move an inaccuracy, a mistake or a blunder when it lowers the player's "winning
chances" (a scale from -1 to 1, that is twice the win probability minus one) by at least 0.1, 0.2 or
0.3. On the win probability itself these are drops of 5, 10 and 15 percentage points, and cardlab uses
those thresholds (:data:`THRESHOLDS`):

* ``"blunder"``: loss at least 0.15; ``"mistake"``: at least 0.10; ``"inaccuracy"``: at least 0.05;
* ``"good"``: a smaller loss, or a loss whose interval does not exclude 0 (the move might be as good as
  the best: the estimates cannot tell them apart with the play-outs spent);
* ``"best"``: the move with the highest estimate was played; ``"forced"``: no choice.

A loss is classified only when its paired interval excludes 0, so with few play-outs a costly-looking
move stays ``"good"`` rather than being called a blunder on noise. The values are those of the greedy
play-out policy: "best" means best if everybody plays greedily afterwards.

The result exports as a list of flat records (:meth:`Review.records`; ``pandas.DataFrame(records)``
where pandas is installed, which cardlab does not require).

Learn from your mistakes (like lichess)
---------------------------------------
lichess's "learn from your mistakes" stops at a player's mistakes and asks for a better move before it
shows one. :meth:`Review.worst` is a seat's worst decision: of its decisions whose loss interval lies
above 0, the one with the largest loss; :func:`position_before` rebuilds the position it was made in. The
worst decision is the largest of many noisy losses, so its loss is likely overestimated (the winner's
curse): judge the moves of that position again with fresh play-outs before trusting a number.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardlab.engine.game import Game
from cardlab.engine.registry import load_game
from cardlab.errors import InvalidInputError, shown
from cardlab.sim.move_values import move_values
from cardlab.sim.prob import expect_game, require_rng

DEFAULT_REVIEW_ROLLOUTS = 200
"""Play-outs per move at each decision of :func:`review_game`."""
THRESHOLDS = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
"""The least loss of win probability of each class, largest first (module notes)."""
COSTLY = ("inaccuracy", "mistake", "blunder")
"""The classes a chart marks."""


def classify(loss: float, loss_low: float) -> str:
    """The class of a decision that gave up ``loss`` of win probability, the lower end of its paired 95%
    interval being ``loss_low`` (module notes); ``"good"`` when the interval does not exclude 0."""
    if loss_low <= 0:
        return "good"
    for label, least in THRESHOLDS:
        if loss >= least:
            return label
    return "good"


@dataclass(frozen=True)
class Decision:
    """One move of the game as its mover could have judged it. ``move_number`` counts from 0; ``win_played``
    and ``win_best`` are the estimated win chances of the move played and of the best move (NaN when
    forced); ``loss`` is their paired difference with its 95% interval ``[loss_low, loss_high]``;
    ``choices`` the number of distinct moves."""

    move_number: int
    seat: int
    played: str
    best: str
    win_played: float
    win_best: float
    loss: float
    loss_low: float
    loss_high: float
    label: str
    choices: int
    playouts: int

    def record(self) -> dict[str, Any]:
        """The decision as a flat record (plain Python values)."""
        return {"move_number": self.move_number, "seat": self.seat, "played": self.played, "best": self.best,
                "win_played": self.win_played, "win_best": self.win_best, "loss": self.loss,
                "loss_low": self.loss_low, "loss_high": self.loss_high, "label": self.label,
                "choices": self.choices, "playouts": self.playouts}


@dataclass(frozen=True)
class Review:
    """The decisions of one game, in order."""

    game: str
    players: int
    decisions: tuple[Decision, ...]

    def records(self) -> list[dict[str, Any]]:
        """One flat record per decision, forced ones included (a table for pandas, a csv writer, ...)."""
        return [d.record() for d in self.decisions]

    def worst(self, seat: int) -> Decision | None:
        """``seat``'s worst decision: of its decisions whose paired 95% loss interval lies above 0 (the move played
        was worse than the best beyond the noise), the one with the largest loss, the first of equal ones; None
        when the seat has no such decision. Its loss is likely overestimated (module notes)."""
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.players:
            raise InvalidInputError(f"seat={shown(seat)} does not exist; this {self.game} review has seats 0 to "
                                    f"{self.players - 1}")
        worse = [d for d in self.decisions if d.seat == seat and d.label not in ("best", "forced") and d.loss_low > 0]
        return max(worse, key=lambda d: d.loss, default=None)

    def costly(self) -> list[Decision]:
        """The inaccuracies, mistakes and blunders, in order."""
        return [d for d in self.decisions if d.label in COSTLY]

    def summary(self) -> list[dict[str, Any]]:
        """Per seat: its decisions with a choice, the win chance it gave up in all (the sum of its losses) and
        the count of each class."""
        out = []
        for seat in range(self.players):
            mine = [d for d in self.decisions if d.seat == seat and d.label != "forced"]
            row: dict[str, Any] = {"seat": seat, "decisions": len(mine),
                                   "loss_total": float(sum(d.loss for d in mine))}
            for label in ("best", "good", *COSTLY):
                row[label] = sum(d.label == label for d in mine)
            out.append(row)
        return out

    def __str__(self) -> str:
        lines = [f"{self.game} review: {len(self.decisions)} moves"]
        for row in self.summary():
            lines.append(f"  seat {row['seat']}: {row['decisions']} decisions, gave up {row['loss_total']:.3f} in "
                         f"all; {row['inaccuracy']} inaccuracies, {row['mistake']} mistakes, "
                         f"{row['blunder']} blunders")
        for d in self.costly():
            lines.append(f"  move {d.move_number} seat {d.seat}: {d.played!r} ({d.label}, gave up "
                         f"{d.loss:.3f}; best {d.best!r})")
        return "\n".join(lines)


def review_game(game: Game[Any], *, rollouts: int = DEFAULT_REVIEW_ROLLOUTS,
                rng: np.random.Generator | None = None) -> Review:
    """Review every move of ``game`` (module notes): ``rollouts`` play-outs per move at each decision, seeded
    from ``rng``. The game is not changed."""
    expect_game(game, None)
    gen = require_rng(rng)
    if isinstance(rollouts, bool) or not isinstance(rollouts, (int, np.integer)) or rollouts < 2:
        raise InvalidInputError(f"rollouts={shown(rollouts)} is not allowed; give play-outs per move, a whole "
                                "number of 2 or more (an interval needs two)")
    played = json.loads(game.to_json())["moves"]
    position = _replayed(game, 0)
    decisions = []
    for i, text in enumerate(played):
        values = move_values(position, rollouts=int(rollouts), rng=gen)
        seat = position.current_player
        mine = values.value_of(position.parse_move(text))
        best = values.values[values.best]
        if values.forced:
            decisions.append(Decision(i, seat, text, text, float("nan"), float("nan"), 0.0, 0.0, 0.0, "forced", 1, 0))
        else:
            label = "best" if mine.best else classify(mine.gap, mine.gap_low)
            decisions.append(Decision(i, seat, text, best.move.text, mine.win.value, best.win.value, mine.gap,
                                      mine.gap_low, mine.gap_high, label, len(values.values), values.playouts))
        position.play(text)
    return Review(game.name, game.players, tuple(decisions))


def position_before(game: Game[Any], move_number: int) -> Game[Any]:
    """A new game: ``game`` as it was before its move ``move_number`` (counted from 0, as
    :attr:`Decision.move_number`), replayed from the game's record. ``game`` is not changed."""
    expect_game(game, None)
    moves = len(json.loads(game.to_json())["moves"])
    if isinstance(move_number, bool) or not isinstance(move_number, (int, np.integer)) \
            or not 0 <= move_number < moves:
        raise InvalidInputError(f"move_number={shown(move_number)} is not a move of this {game.name} game: "
                                + (f"its moves are numbered 0 to {moves - 1}" if moves else "no move was played"))
    return _replayed(game, int(move_number))


def _replayed(game: Game[Any], moves: int) -> Game[Any]:
    """``game`` rebuilt from its record with its first ``moves`` moves played."""
    record = json.loads(game.to_json())
    record["moves"] = record["moves"][:moves]
    return load_game(json.dumps(record))
