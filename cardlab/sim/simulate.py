"""Batch simulation on the engine.

``simulate`` plays ``games`` independent games. Game ``i`` of a run with seed ``s`` is dealt and
played with ``numpy.random.default_rng([s, i])``, so every game — and so the whole result — is the
same however the run is split into shards or processes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardlab.engine.registry import game_class
from cardlab.engine.rng import game_rng
from cardlab.errors import InvalidInputError
from cardlab.policies import Policy, choose, make_policy
from cardlab.sim.stats import Estimate, wilson

PolicySpec = str | Policy


@dataclass
class SimResult:
    """What a batch of games produced. ``winners[i]`` is the winning seat of game i, or -1 for none."""

    game: str
    players: int
    seed: int
    policies: list[str]
    winners: np.ndarray
    turns: np.ndarray
    extras: dict[str, np.ndarray] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)

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
        return [self.win_rate(s) for s in range(self.players)]

    @property
    def draw_rate(self) -> Estimate:
        return wilson(float(self.draws), self.games)

    def summary(self) -> str:
        lines = [f"{self.games} {self.game} games, {self.players} players, seed {self.seed}",
                 "seat  policy      wins    win rate [95% interval]"]
        for s, est in enumerate(self.win_rates):
            lines.append(f"{s:>4}  {self.policies[s]:<10} {int(self.wins[s]):>6}    "
                         f"{est.value:.4f} [{est.low:.4f}, {est.high:.4f}]")
        if self.draws:
            d = self.draw_rate
            lines.append(f"draws {self.draws} ({d.value:.4f} [{d.low:.4f}, {d.high:.4f}])")
        lines.append(f"mean turns per game: {self.turns.mean():.3f} (sd {self.turns.std():.3f})")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


def _policy_label(spec: PolicySpec) -> str:
    return spec if isinstance(spec, str) else getattr(spec, "__name__", type(spec).__name__)


def resolve_policies(spec: PolicySpec | Sequence[PolicySpec], players: int) -> list[PolicySpec]:
    if isinstance(spec, (list, tuple)):
        if len(spec) != players:
            raise InvalidInputError(f"policy list has {len(spec)} entries; give one per seat ({players})")
        return list(spec)
    return [spec] * players  # type: ignore[list-item]


def play_out(game: Any, policies: Sequence[Policy], max_moves: int = 100_000) -> None:
    """Play ``game`` to its end with one policy per seat."""
    for _ in range(max_moves):
        if game.is_over:
            return
        game.play(choose(policies[game.current_player], game))
    raise RuntimeError(f"{game.name} game did not end within {max_moves} moves")


def run_engine_games(name: str, players: int, seed: int, start: int, stop: int,
                     specs: Sequence[PolicySpec], options: dict[str, Any]) -> tuple[np.ndarray, np.ndarray,
                                                                                   dict[str, np.ndarray]]:
    """Play games ``start``..``stop-1`` of a seeded run on the engine; returns winners, turns, extras."""
    cls = game_class(name)
    n = stop - start
    winners = np.full(n, -1, dtype=np.int64)
    turns = np.zeros(n, dtype=np.int64)
    extras: dict[str, list[float]] = {}
    for k in range(n):
        rng = game_rng(seed, start + k)
        game = cls(players, rng=rng, **options)
        policies = [make_policy(s, cls.name, rng) for s in specs]
        play_out(game, policies)
        winners[k] = -1 if game.winner is None else game.winner
        turns[k] = game.turns
        for key, value in game.stats().items():
            extras.setdefault(key, []).append(value)
    return winners, turns, {k: np.asarray(v) for k, v in extras.items()}


def simulate(name: str, players: int | None = None, games: int = 1000, seed: int = 0,
             policy: PolicySpec | Sequence[PolicySpec] = "greedy", **options: Any) -> SimResult:
    """Play ``games`` seeded games of ``name`` and collect wins per seat and turns per game."""
    cls = game_class(name)
    n_players = cls._check_players(players)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidInputError(f"games={games!r} is not allowed; give a positive whole number")
    specs = resolve_policies(policy, n_players)
    cls(n_players, seed=0, **options)  # validates the options once, with a clear error
    winners, turns, extras = run_engine_games(cls.name, n_players, seed, 0, games, specs, options)
    return SimResult(cls.name, n_players, seed, [_policy_label(s) for s in specs], winners, turns, extras,
                     dict(options))
