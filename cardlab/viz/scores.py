"""Scores of predict-then-reveal: the records of a student's guesses, the Brier score and the calibration table.

See :mod:`cardlab.viz.predict` for what is asked and how the scores are read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import plotly.graph_objects as go

from cardlab.chance.stats import wilson

WIN = "win"
BIN_EDGES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


@dataclass(frozen=True)
class Prediction:
    """One guess: the question, what was guessed, the answer revealed, and the outcome once known."""

    move: int
    key: str
    question: str
    guess: float
    answer: float
    low: float
    high: float
    exact: bool
    line: tuple[str, ...]          # the deal, then the move texts that led to the question's position
    seat: int | None = None
    outcome: bool | None = None    # None until known (or for questions with no recorded outcome)

    def answer_text(self, intervals: bool = True) -> str:
        """The answer in words: exact, or an estimate with its 95% interval (without it if ``intervals`` is False)."""
        if self.exact:
            return f"{self.answer:.4f} (exact)"
        if not intervals:
            return f"{self.answer:.3f} (estimate)"
        return f"{self.answer:.3f}, 95% interval [{self.low:.3f}, {self.high:.3f}] (estimate)"


@dataclass(frozen=True)
class CalibrationRow:
    """One bin of guesses. ``resolved`` counts its guesses whose outcome is known; ``games`` the independent
    outcomes among them (the guesses of one game about one seat share a single outcome, so they count once);
    ``happened`` how many of those games the event happened in."""

    low: float
    high: float
    count: int
    mean_guess: float
    mean_answer: float
    resolved: int
    games: int
    happened: int

    @property
    def frequency(self) -> float:
        """The share of this bin's games in which the event happened."""
        return self.happened / self.games if self.games else float("nan")


@dataclass(frozen=True)
class Calibration:
    """The student's scores over the records of one stepper (see the module docstring)."""

    records: tuple[Prediction, ...]
    brier: float | None             # mean (guess - outcome)^2 over resolved records
    answers_brier: float | None     # the same score for the revealed answers
    distance: float | None          # mean (guess - answer)^2 over every record
    rows: tuple[CalibrationRow, ...]
    intervals: bool = True          # False: the table and chart show no interval (a stepper made with intervals=False)

    @property
    def resolved(self) -> int:
        return sum(r.outcome is not None for r in self.records)

    def table(self) -> str:
        head = ("guess bin    guesses  mean guess  mean answer  outcomes  games  happened"
                + ("  [95% interval, over games]" if self.intervals else ""))
        lines = [head]
        for r in self.rows:
            if r.games:
                est = wilson(r.happened, r.games)
                freq = f"{r.frequency:8.3f}" + (f"  [{est.low:.3f}, {est.high:.3f}]" if self.intervals else "")
            else:
                freq = "       -"
            close = "]" if r.high >= BIN_EDGES[-1] else ")"
            lines.append(f"[{r.low:.1f}, {r.high:.1f}{close}   {r.count:7d}  {r.mean_guess:10.3f}"
                         f"  {r.mean_answer:11.3f}  {r.resolved:8d}  {r.games:5d}  {freq}")
        return "\n".join(lines)

    def __str__(self) -> str:
        n = len(self.records)
        if n == 0:
            return "no guesses yet: enter a guess before the stepper reveals its numbers"
        parts = [f"{n} guesses, {self.resolved} with a known outcome"]
        if self.brier is not None and self.answers_brier is not None:
            parts.append(f"Brier score {self.brier:.3f} (the revealed answers would score {self.answers_brier:.3f};"
                         " lower is better, always guessing 1/2 scores 0.250)")
        elif any(r.key == WIN for r in self.records):
            parts.append("Brier score: not yet known (no outcome yet: finish the game)")
        else:
            parts.append("Brier score: none (no outcome is recorded for this question; scored against the answers)")
        if self.distance is not None:
            parts.append(f"mean squared distance from the answers {self.distance:.3f}")
        return "\n".join(parts) + "\n" + self.table()

    def figure(self) -> go.Figure:
        """Calibration chart: mean guess per bin against the outcome frequency (with its 95% interval over games,
        unless ``intervals`` is False) and the mean answer."""
        rows = [r for r in self.rows if r.count]
        fig = go.Figure()
        fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="perfect calibration",
                                 line={"dash": "dash", "color": "grey"}))
        fig.add_trace(go.Scatter(x=[r.mean_guess for r in rows], y=[r.mean_answer for r in rows],
                                 mode="markers", name="mean revealed answer", marker={"symbol": "diamond", "size": 10}))
        known = [r for r in rows if r.games]
        intervals = [wilson(r.happened, r.games) for r in known]
        fig.add_trace(go.Scatter(
            x=[r.mean_guess for r in known], y=[r.frequency for r in known], mode="markers",
            name="how often it happened (95% interval over games)" if self.intervals else "how often it happened",
            marker={"size": [8 + 2 * math.sqrt(r.games) for r in known]},
            error_y={"type": "data", "symmetric": False, "visible": self.intervals,
                     "array": [e.high - r.frequency for e, r in zip(intervals, known, strict=True)],
                     "arrayminus": [r.frequency - e.low for e, r in zip(intervals, known, strict=True)]}))
        fig.update_layout(title="Your calibration", width=480, height=420,
                          xaxis={"title": "your guess (mean per bin)", "range": [0, 1]},
                          yaxis={"title": "answer / frequency", "range": [0, 1]},
                          legend={"orientation": "h", "y": -0.25})
        return fig


def _game_key(record: Prediction) -> tuple[str, int | None, bool]:
    """Which independent outcome a record's outcome is: its deal, the seat asked about, and the outcome (two games
    of one deal that ended differently are two outcomes; two that ended alike are counted once, the cautious way)."""
    return (record.line[0] if record.line else "", record.seat, bool(record.outcome))


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def calibrate(records: list[Prediction] | tuple[Prediction, ...], intervals: bool = True) -> Calibration:
    """Brier score, distance from the answers and the calibration table of ``records`` (``intervals=False``: the
    table and chart show no interval)."""
    recs = tuple(records)
    resolved = [r for r in recs if r.outcome is not None]
    brier = answers = None
    if resolved:
        brier = sum((r.guess - float(bool(r.outcome))) ** 2 for r in resolved) / len(resolved)
        answers = sum((r.answer - float(bool(r.outcome))) ** 2 for r in resolved) / len(resolved)
    distance = sum((r.guess - r.answer) ** 2 for r in recs) / len(recs) if recs else None
    rows = []
    for i, (lo, hi) in enumerate(zip(BIN_EDGES, BIN_EDGES[1:], strict=False)):
        last = i == len(BIN_EDGES) - 2
        inside = [r for r in recs if lo <= r.guess < hi or (last and r.guess == hi)]
        known = [r for r in inside if r.outcome is not None]
        games = {_game_key(r): bool(r.outcome) for r in known}
        rows.append(CalibrationRow(lo, hi, len(inside), _mean([r.guess for r in inside]),
                                   _mean([r.answer for r in inside]), len(known), len(games), sum(games.values())))
    return Calibration(recs, brier, answers, distance, tuple(rows), intervals)
