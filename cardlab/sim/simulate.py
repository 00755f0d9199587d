"""Batch simulation: many seeded games, on one core, several, or a dask cluster.

``simulate`` plays ``games`` independent games and returns a :class:`SimResult`: wins per seat with
Wilson 95% intervals, the turns of every game, a text table, an HTML table and a Plotly figure.

Two ways to play
----------------
* **The engine path** plays each game move by move with the policies, for any registered game. Game
  ``i`` of a run with seed ``s`` is ``new_game(name, seed=s, index=i)``, its policies drawing from
  ``numpy.random.default_rng([s, i])`` (:func:`cardlab.engine.rng.game_rng`), so any single game of a run can
  be replayed on its own.
* **The fast path** is the game's kernel (:attr:`cardlab.engine.spec.GameSpec.kernel`), for the
  policies it plays (:meth:`~cardlab.engine.spec.GameKernel.plays`: the built-in ``"greedy"`` and
  ``"random"``, in any mix of seats, where the game's kernel plays them). It is chosen automatically when it applies;
  ``fast=False`` forces the engine path (to compare the two, or to time them).

**The same deals on both paths.** Game ``i`` of a run is dealt by the one dealer (:mod:`cardlab.dealer`) from
``s`` and ``i`` alone, on both paths: a run that mixes a Python function with built-in policies is played on
the deals of the all-built-in run, so a paired comparison keeps its pairing. With the deterministic ``greedy``
bots in every seat the two paths play the very same games, card for card.

The games are played in shards sized by time (:mod:`cardlab.sim.parallel`: a fraction of a second each, so
Ctrl-C stops any run at once) whose results depend neither on their sizes nor on how many processes play them,
so ``processes=1``, ``processes=4`` and ``backend="dask"`` give the same result.
"""

from __future__ import annotations

import html
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardlab.chance.stats import Estimate, wilson
from cardlab.engine.registry import game_class, game_spec
from cardlab.errors import InvalidInputError, MissingExtraError, shown
from cardlab.policies import Policy, make_policy
from cardlab.sim.parallel import (
    BACKENDS,
    PolicySpec,
    exit_quickly,
    make_shards,
    play_out,
    run_engine_games,
    run_shards,
)

__all__ = ["SimResult", "fast_path_applies", "play_out", "resolve_policies", "run_engine_games", "simulate"]


@dataclass
class SimResult:
    """What a batch of games produced. ``winners[i]`` is the winning seat of game i, or -1 for none.

    ``turns[i]`` is the number of turns game i lasted (over the whole match for a Garbage match);
    ``extras`` holds the per-game figures of the game's ``stats()`` (a kernel reports the same keys; Garbage's
    are ``hands`` and ``shuffles``); ``method`` says which
    path played the games ("fast" or "engine") and ``elapsed`` how many seconds it took.
    """

    game: str
    players: int
    seed: int
    policies: list[str]
    winners: np.ndarray
    turns: np.ndarray
    extras: dict[str, np.ndarray] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    method: str = "engine"
    elapsed: float = 0.0

    @property
    def games(self) -> int:
        return int(self.winners.size)

    @property
    def wins(self) -> np.ndarray:
        """Games won per seat."""
        return np.bincount(self.winners[self.winners >= 0], minlength=self.players)

    @property
    def draws(self) -> int:
        return int(np.sum(self.winners < 0))

    def win_rate(self, seat: int) -> Estimate:
        return wilson(float(self.wins[seat]), self.games)

    @property
    def win_rates(self) -> list[Estimate]:
        """Each seat's share of games won, with its Wilson 95% interval."""
        return [self.win_rate(s) for s in range(self.players)]

    @property
    def draw_rate(self) -> Estimate:
        return wilson(float(self.draws), self.games)

    def turn_quantiles(self, qs: Sequence[float] = (0.1, 0.5, 0.9)) -> list[float]:
        return [float(v) for v in np.quantile(self.turns, qs)] if self.games else []

    def _title(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"{self.games} {self.game} games, {self.players} players, seed {self.seed}{opts} ({self.method} path)"

    def summary(self) -> str:
        """The result as a text table: wins and win rate per seat, draws, and the turns per game."""
        lines = [self._title(),
                 "seat  policy      wins    win rate [95% interval]"]
        for s, est in enumerate(self.win_rates):
            lines.append(f"{s:>4}  {self.policies[s]:<10} {int(self.wins[s]):>6}    "
                         f"{est.value:.4f} [{est.low:.4f}, {est.high:.4f}]")
        if self.draws:
            d = self.draw_rate
            lines.append(f"draws {self.draws} ({d.value:.4f} [{d.low:.4f}, {d.high:.4f}])")
        q10, q50, q90 = self.turn_quantiles()
        lines.append(f"turns per game: mean {self.turns.mean():.3f} (sd {self.turns.std():.3f}), "
                     f"median {q50:g}, 10%-90% {q10:g}-{q90:g}, max {int(self.turns.max())}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{s}</td><td>{html.escape(self.policies[s])}</td><td>{int(self.wins[s])}</td>"
            f"<td>{est.value:.4f}</td><td>[{est.low:.4f}, {est.high:.4f}]</td></tr>"
            for s, est in enumerate(self.win_rates))
        if self.draws:
            d = self.draw_rate
            rows += (f"<tr><td>draw</td><td></td><td>{self.draws}</td><td>{d.value:.4f}</td>"
                     f"<td>[{d.low:.4f}, {d.high:.4f}]</td></tr>")
        q10, q50, q90 = self.turn_quantiles()
        return (f"<div class='cardlab-sim'><p><b>{html.escape(self._title())}</b></p>"
                "<table><thead><tr><th>seat</th><th>policy</th><th>wins</th><th>win rate</th>"
                f"<th>95% interval</th></tr></thead><tbody>{rows}</tbody></table>"
                f"<p>turns per game: mean {self.turns.mean():.3f} (sd {self.turns.std():.3f}), median {q50:g}, "
                f"10%&ndash;90% {q10:g}&ndash;{q90:g}, max {int(self.turns.max())}</p></div>")

    def plot(self) -> Any:
        """A Plotly figure: win rate per seat with its 95% interval, and the histogram of turns per game.

        Plotly comes with the ``lab`` extra; a core install is told to ``pip install "cardlab[lab]"``."""
        try:  # lazy: the core does not need plotly
            import plotly.graph_objects as go
            from plotly.subplots import make_subplots
        except ImportError as exc:
            raise MissingExtraError('SimResult.plot() draws with plotly, which is not installed; '
                                    'install the teaching stack with: pip install "cardlab[lab]"') from exc

        fig = make_subplots(rows=1, cols=2, subplot_titles=("Win rate by seat (95% Wilson interval)",
                                                            "Turns per game"))
        rates = self.win_rates
        fig.add_trace(go.Bar(
            x=[f"seat {s} ({self.policies[s]})" for s in range(self.players)],
            y=[e.value for e in rates],
            error_y={"type": "data", "symmetric": False, "array": [e.high - e.value for e in rates],
                     "arrayminus": [e.value - e.low for e in rates]},
            name="win rate", showlegend=False), row=1, col=1)
        counts = np.bincount(self.turns)   # counted here, so the figure stays small for a million games
        turns = np.flatnonzero(counts)
        fig.add_trace(go.Bar(x=turns, y=counts[turns] / self.games, name="turns", showlegend=False),
                      row=1, col=2)
        fig.update_yaxes(title_text="win rate", rangemode="tozero", row=1, col=1)
        fig.update_yaxes(title_text="share of games", row=1, col=2)
        fig.update_xaxes(title_text="turns", row=1, col=2)
        fig.update_layout(title_text=self._title(), bargap=0.05)
        return fig


PolicyList = list[str] | list[Policy] | list[PolicySpec] | tuple[PolicySpec, ...]
"""One policy per seat: a list or a tuple (any other value is one policy for every seat)."""


def _policy_label(spec: PolicySpec) -> str:
    return spec if isinstance(spec, str) else getattr(spec, "__name__", type(spec).__name__)


def resolve_policies(spec: PolicySpec | PolicyList, players: int) -> list[PolicySpec]:
    """One policy per seat: a single policy is used by everyone; a list must have one entry per seat."""
    if isinstance(spec, (list, tuple)):
        if len(spec) != players:
            raise InvalidInputError(f"policy list has {len(spec)} entries; give one per seat ({players})")
        return list(spec)
    return [spec] * players


PROGRESS_DELAY_S = 1.0


def _progress_bar(total: int, show: bool, desc: str) -> Any:
    if not show:
        return None
    try:
        from tqdm.auto import tqdm  # picks the notebook widget or the terminal bar
    except ImportError:  # pragma: no cover - tqdm comes with the lab extra
        return None
    # ``delay``: the bar appears only once a run has lasted a while, so short runs stay quiet
    return tqdm(total=total, desc=desc, unit="game", unit_scale=True, delay=PROGRESS_DELAY_S)


# ---------------------------------------------------------------------------------------------- simulate
def fast_path_applies(name: str, specs: Sequence[PolicySpec]) -> bool:
    """The game's kernel plays these policies (:meth:`~cardlab.engine.spec.GameKernel.plays`)."""
    kernel = game_spec(name).kernel
    return kernel is not None and kernel.plays(list(specs))


MAX_GAMES = 100_000_000
"""The most games one ``simulate`` call plays: its result keeps two 8-byte numbers per game (1.6 GB at this
bound). Larger studies add up several runs with different seeds."""
MAX_SEED = 2**63 - 1
MAX_PROCESSES = 256


def _check_count(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise InvalidInputError(f"{what}={shown(value)} is not allowed; give a whole number from {low} to {high:,}")
    return int(value)


def simulate(name: str, players: int | None = None, games: int = 1000, seed: int = 0,
             policy: PolicySpec | PolicyList = "greedy", *, processes: int = 1, progress: bool = True,
             backend: str = "local", fast: bool | None = None, **options: Any) -> SimResult:
    """Play ``games`` seeded games of ``name`` and collect wins per seat and turns per game.

    ``policy`` is one policy for every seat or a list with one per seat: ``"greedy"``, ``"random"``
    or a callable ``(view, legal_moves) -> move``. ``processes=N`` plays the shards in N worker
    processes, ``backend="dask"`` on the current ``dask.distributed`` client (or a local cluster of
    ``processes`` workers started for the run); the results are the same in every case. Custom
    policies must then be importable functions (a lambda cannot be sent to another process).
    ``progress=True`` (the default) shows a progress bar — a widget in a notebook, text in a
    terminal — for runs that last more than a second; ``progress=False`` keeps every run quiet.
    ``fast=None`` uses the game's fast kernel when it plays these policies,
    ``fast=False`` forces the engine. Other keywords are game options.

    ``games`` is at most :data:`MAX_GAMES` (100 million). On the first error in any game, or on
    Ctrl-C, the games not yet started are cancelled and the worker processes stopped at once: the games are
    played in shards of about :data:`~cardlab.sim.parallel.SHARD_SECONDS` each, so Ctrl-C is heard within a
    fraction of a second however long the run. A policy that fails is a :class:`~cardlab.errors.PolicyError`
    naming the game's number and the move, to replay it.
    """
    cls = game_class(name)
    n_players = cls._check_players(players)
    n_games = _check_count(games, "games", 1, MAX_GAMES)
    seed = _check_count(seed, "seed", 0, MAX_SEED)
    workers = _check_count(processes, "processes", 1, MAX_PROCESSES)
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise InvalidInputError(f"backend={shown(backend)} is not allowed; accepted: 'local' or 'dask'")
    if fast is not None and not isinstance(fast, bool):
        raise InvalidInputError(f"fast={shown(fast)} is not allowed; accepted: None (automatic), True or False")
    if not isinstance(progress, bool):
        raise InvalidInputError(f"progress={shown(progress)} is not allowed; accepted: True or False")
    specs = resolve_policies(policy, n_players)
    probe = cls(n_players, seed=0, **options)  # validates the options once, with a clear error
    for spec in specs:
        make_policy(spec, cls.name, np.random.default_rng(0))  # an unknown policy name fails here
    applies = fast_path_applies(cls.name, specs)
    if fast and not applies:
        raise InvalidInputError(f"fast=True needs policies the game's fast kernel plays; "
                                f"got {cls.name!r} with {[_policy_label(s) for s in specs]}")
    use_fast = applies if fast is None else bool(fast)
    run_options = dict(probe.options) if use_fast else dict(options)
    plan = make_shards(cls.name, n_players, n_games, seed, specs, run_options, use_fast)
    start = time.perf_counter()
    winners = np.empty(n_games, dtype=np.int64)
    turns = np.empty(n_games, dtype=np.int64)
    extras: dict[str, np.ndarray] = {}
    wanted = set(probe.stats())   # the fast path reports only the figures the engine's stats() has
    bar = _progress_bar(n_games, progress, f"{cls.name} ({'fast' if use_fast else 'engine'})")
    try:
        for shard, part in run_shards(plan, workers, backend):
            winners[shard.start:shard.stop] = part[0]
            turns[shard.start:shard.stop] = part[1]
            for key, values in part[2].items():
                if key in wanted:
                    if key not in extras:
                        extras[key] = np.empty(n_games, dtype=np.asarray(values).dtype)
                    extras[key][shard.start:shard.stop] = values
            if bar is not None:
                bar.update(shard.stop - shard.start)
    except KeyboardInterrupt:
        exit_quickly()   # a script stopped by Ctrl-C ends at once, not a second later
        raise
    finally:
        if bar is not None:
            bar.close()
    return SimResult(cls.name, n_players, seed, [_policy_label(s) for s in specs], winners, turns, extras,
                     dict(options), "fast" if use_fast else "engine", time.perf_counter() - start)
